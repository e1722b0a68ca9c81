package group

import (
	"slices"
	"testing"
	"time"
)

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
		if got := numberHint(tt.raw, "a whole number"); got != tt.want {
			t.Errorf("numberHint(%q) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}

// The Ultimate Thread Group's threads as the plugin schedules them: a
// row of 0 threads runs one thread on its times, which the last rows lack.
func TestUltimateSpans(t *testing.T) {
	s := func(start, end int) threadSpan {
		return threadSpan{start: time.Duration(start) * time.Millisecond, end: time.Duration(end) * time.Millisecond}
	}
	tests := []struct {
		name string
		rows [][5]int64
		want []threadSpan
	}{
		{"a row", [][5]int64{{2, 1, 2, 3, 4}}, []threadSpan{s(3000, 10000), s(2000, 8000)}},
		{"a row of 0 first", [][5]int64{{0, 1, 2, 3, 4}, {2, 0, 2, 1, 0}}, []threadSpan{s(1000, 6000), s(2000, 3000)}},
		{"a row of 0 last", [][5]int64{{1, 0, 0, 1, 0}, {0, 5, 0, 1, 0}}, []threadSpan{s(0, 1000)}},
		{"rows of 0", [][5]int64{{0, 0, 0, 1, 0}, {0, 0, 0, 1, 0}}, nil},
	}
	for _, tt := range tests {
		if got := ultimateSpans(tt.rows); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
