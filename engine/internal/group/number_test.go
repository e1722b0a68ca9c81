package group

import (
	"strings"
	"testing"
)

func TestWholeNumber(t *testing.T) {
	tests := []struct {
		txt  string
		want int64
		err  string
	}{
		{"10", 10, ""},
		{"10.0", 10, ""},
		{"-5", -5, ""},
		{"2147483647", 2147483647, ""},
		{"2.5", 0, "is not a whole number"},
		{"abc", 0, "is not a whole number"},
		{"zz", 0, "is not a whole number"},
		{"NaN", 0, "is not a whole number"},
		{"2147483648", 0, "is too large (at most 2147483647)"},
		{"99999999999999999999", 0, "is too large (at most 2147483647)"},
		{"1e20", 0, "is too large"},
		{"-99999999999999999999", 0, "is too small (at least -2147483648)"},
	}
	for _, tt := range tests {
		got, err := wholeNumber(tt.txt)
		switch {
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("wholeNumber(%q) = %d, %v; want %d", tt.txt, got, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("wholeNumber(%q) = %d, %v; want an error %q", tt.txt, got, err, tt.err)
		}
	}
}
