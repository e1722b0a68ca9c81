package script

import (
	"errors"
	"testing"
)

// An integer literal is an int when it fits one and, in Groovy, a long
// when it fits that; beyond a long Groovy makes a BigInteger, which gojm
// refuses, as it refuses in BeanShell any unsuffixed literal beyond an int.
// Hex, octal and binary long literals may use all 64 bits, as in Java.
func TestIntegerLiterals(t *testing.T) {
	tests := []struct {
		d       Dialect
		lit     string
		want    string // "true 2147483648": whether it is a Long, then its value
		refused string // the refusal, when it is refused
	}{
		{Groovy, "2147483647", "false 2147483647", ""},
		{Groovy, "-2147483648", "false -2147483648", ""},
		{Groovy, "2147483648", "true 2147483648", ""},
		{Groovy, "-2147483649", "true -2147483649", ""},
		{Groovy, "0xFFFFFFFF", "true 4294967295", ""},
		{Groovy, "9223372036854775807", "true 9223372036854775807", ""},
		{Groovy, "-9223372036854775808", "true -9223372036854775808", ""},
		{Groovy, "9223372036854775808", "", "line 1: the integer 9223372036854775808 (too large for a long)"},
		{Groovy, "-9223372036854775809", "", "line 1: the integer -9223372036854775809 (too large for a long)"},
		{Groovy, "18446744073709551615", "", "line 1: the integer 18446744073709551615 (too large for a long)"},
		{Groovy, "0x8000000000000000", "", "line 1: the integer 0x8000000000000000 (too large for a long)"},
		{Groovy, "0xFFFFFFFFFFFFFFFFL", "true -1", ""},
		{BeanShell, "2147483647", "false 2147483647", ""},
		{BeanShell, "2147483648", "", "line 1: the integer 2147483648 (too large for an int)"},
		{BeanShell, "18446744073709551615", "", "line 1: the integer 18446744073709551615 (too large for an int)"},
		{BeanShell, "0xFFFFFFFFFFFFFFFF", "", "line 1: the integer 0xFFFFFFFFFFFFFFFF (too large for an int)"},
		{BeanShell, "0xFFFFFFFFFFFFFFFFL", "true -1", ""},
	}
	for _, tt := range tests {
		src := "x = " + tt.lit + "; (x instanceof Long) + \" \" + x"
		p, err := Compile(src, tt.d)
		if tt.refused != "" {
			var se *Error
			if !errors.As(err, &se) || !se.Refused || se.Error() != tt.refused {
				t.Errorf("%v %s: %v, want refused: %s", tt.d, tt.lit, err, tt.refused)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v %s: %v", tt.d, tt.lit, err)
			continue
		}
		v, err := p.Run(&Env{Host: newTestHost()})
		if err != nil || v.Text != tt.want {
			t.Errorf("%v %s: %q %v, want %q", tt.d, tt.lit, v.Text, err, tt.want)
		}
	}
}
