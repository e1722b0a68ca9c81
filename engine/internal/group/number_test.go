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

// javaNumber is Integer.parseInt / Long.parseLong, 0 where they throw.
func TestJavaNumber(t *testing.T) {
	tests := []struct {
		txt  string
		bits int
		want int64
		ok   bool
	}{
		{"10", 32, 10, true},
		{"-5", 32, -5, true},
		{"+7", 32, 7, true},
		{"0.5", 32, 0, false},
		{"10.0", 32, 0, false},
		{"${threads}", 32, 0, false},
		{"threads", 32, 0, false},
		{"2147483647", 32, 2147483647, true},
		{"2147483648", 32, 0, false},
		{"2147483648", 64, 2147483648, true},
		{"99999999999999999999", 64, 0, false},
	}
	for _, tt := range tests {
		if got, ok := javaNumber(tt.txt, tt.bits); got != tt.want || ok != tt.ok {
			t.Errorf("javaNumber(%q, %d) = %d, %v; want %d, %v", tt.txt, tt.bits, got, ok, tt.want, tt.ok)
		}
	}
}

func TestNumberHint(t *testing.T) {
	tests := []struct{ raw, want string }{
		{"${__P(users,abc)}", "set it with -J users=N"},
		{"${__property(threads)}", "set it with -J threads=N"},
		{"${threads}", "define the variable threads (User Defined Variables) or write the number in the plan"},
		{"0.5", "write a whole number in the plan"},
		{"${__Random(1,x)}", "write a whole number in the plan"},
	}
	for _, tt := range tests {
		if got := numberHint(tt.raw); got != tt.want {
			t.Errorf("numberHint(%q) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}
