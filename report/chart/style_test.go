package chart

import (
	"math"
	"testing"
	"time"
)

func TestFormatNumber(t *testing.T) {
	tests := []struct {
		v        float64
		decimals int
		want     string
	}{
		{0, 0, "0"},
		{999, 0, "999"},
		{1000, 0, "1,000"},
		{1234567.25, 2, "1,234,567.25"},
		{-1234.5, 1, "-1,234.5"},
		{-0.001, 1, "0.0"},
		{0.5, 2, "0.50"},
		{math.Inf(1), 0, "+Inf"},
	}
	for _, tc := range tests {
		if got := formatNumber(tc.v, tc.decimals); got != tc.want {
			t.Errorf("formatNumber(%v, %d) = %q, want %q", tc.v, tc.decimals, got, tc.want)
		}
	}
}

func TestFormatMs(t *testing.T) {
	tests := []struct {
		ms   float64
		want string
	}{
		{1234.4, "1,234 ms"},
		{12.34, "12.3 ms"},
		{0.4211, "0.42 ms"},
	}
	for _, tc := range tests {
		if got := formatMs(tc.ms); got != tc.want {
			t.Errorf("formatMs(%v) = %q, want %q", tc.ms, got, tc.want)
		}
	}
}

func TestNiceTicks(t *testing.T) {
	tests := []struct {
		lo, hi    float64
		wantFirst string
		wantStep  float64
	}{
		{0, 100, "0", 20},
		{0, 1_000_000, "0", 200_000},
		{0, 0.9, "0.0", 0.2},
		{3, 27, "5", 5},
		{0, 17, "0.0", 2.5},
		{0, 170, "0", 25},
	}
	for _, tc := range tests {
		ticks := niceTicks{}.Ticks(tc.lo, tc.hi)
		var major []float64
		for _, tk := range ticks {
			if tk.Value < tc.lo-1e-9 || tk.Value > tc.hi+1e-9 {
				t.Errorf("[%v, %v]: tick %v outside the range", tc.lo, tc.hi, tk.Value)
			}
			if !tk.IsMinor() {
				if len(major) == 0 && tk.Label != tc.wantFirst {
					t.Errorf("[%v, %v]: first label %q, want %q", tc.lo, tc.hi, tk.Label, tc.wantFirst)
				}
				major = append(major, tk.Value)
			}
		}
		if len(major) < 4 || len(major) > 11 {
			t.Errorf("[%v, %v]: %d major ticks, want 4 to 11", tc.lo, tc.hi, len(major))
			continue
		}
		if step := major[1] - major[0]; math.Abs(step-tc.wantStep) > 1e-9 {
			t.Errorf("[%v, %v]: step %v, want %v", tc.lo, tc.hi, step, tc.wantStep)
		}
	}
	if ticks := (niceTicks{}).Ticks(5, 5); len(ticks) != 1 {
		t.Errorf("empty range: %d ticks, want 1", len(ticks))
	}
}

func TestShorten(t *testing.T) {
	if got := shorten("abcdefgh", 6); got != "abc…gh" {
		t.Errorf("shorten = %q", got)
	}
	if got := shorten("äbc", 3); got != "äbc" {
		t.Errorf("shorten = %q", got)
	}
}

func TestWidthText(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{500 * time.Millisecond, "500 ms"},
		{8 * time.Second, "8 s"},
		{1500 * time.Millisecond, "1.5 s"},
		{2 * time.Minute, "2 min"},
		{128 * time.Second, "2 min 8 s"},
	}
	for _, tc := range tests {
		if got := widthText(tc.d); got != tc.want {
			t.Errorf("widthText(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}
