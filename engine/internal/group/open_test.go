package group

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gojm/gojm/internal/java"
)

// steps writes a parsed schedule compactly: r2 (rate per second), a3 and
// e3 (random and even arrivals for seconds), c4 (concurrency).
func (s *openSchedule) String() string {
	var out []string
	for _, st := range s.steps {
		switch {
		case st.kind == 'r':
			out = append(out, fmt.Sprintf("r%g", st.value))
		case st.kind == 'c':
			out = append(out, fmt.Sprintf("c%g", st.value))
		case st.even:
			out = append(out, fmt.Sprintf("e%g", st.value))
		default:
			out = append(out, fmt.Sprintf("a%g", st.value))
		}
	}
	return strings.Join(out, " ")
}

func TestOpenModelScheduleParser(t *testing.T) {
	tests := []struct {
		in, want string
		total    float64
		err      string
	}{
		{in: "rate(10/sec) random_arrivals(1 min) rate(10/sec)", want: "r10 a60 r10", total: 60},
		{in: "rate(0) random_arrivals(1 min) rate(10/sec)", want: "r0 a60 r10", total: 60},
		{in: "RATE(120 per min) Even_Arrivals(1 min 30 sec)", want: "r2 e90", total: 90},
		{in: "rate(1/ms) even_arrivals(500 ms) rate(3600/hour) random_arrivals(0.5 h) rate(86400/day)", want: "r1000 e0.5 r1 a1800 r1", total: 1800.5},
		{in: "rate(2/s) random_arrivals(5 s) pause(5 s) random_arrivals(5 s)", want: "r2 a5 r2 r0 e5 r0 r2 a5", total: 15},
		{in: "pause(2 s) rate(1/s) even_arrivals(1 s)", want: "e2 r0 r1 e1", total: 3},
		{in: "/* warm up */ rate(1/min) // per minute\n random_arrivals(10 min) /* end */", want: "r0.0166667 a600", total: 600},
		{in: "concurrency(5) rate(.5/sec) random_arrivals(0)", want: "c5 r0.5 a0", total: 0},
		{in: "7", want: "r7 e1 r7 r0 e3600", total: 3601},
		{in: "", want: "", total: 0},
		{in: "rate(10) random_arrivals(1 min)", err: "expected / or per after the rate"},
		{in: "rate(10/fortnight)", err: "unexpected time unit fortnight"},
		{in: "random_arrivals(10)", err: "a time unit"},
		{in: "rate(1/sec) arrivals(1 min)", err: "unexpected input (expecting rate"},
		{in: "concurrency(2.5)", err: "concurrency must be a positive whole number"},
		{in: "rate(1/sec) /* open", err: "unclosed comment at position 12"},
		{in: "rate(1/sec) random_arrivals(1 min", err: "expected ')', got the end"},
		{in: "rate(1/sec) random_arrivals(1 min) #", err: "unexpected input at position 35: '#'"},
	}
	for _, tt := range tests {
		s, err := parseOpenSchedule(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: error %v, want one containing %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		got := s.String()
		if strings.HasPrefix(tt.want, "r0.0166667") {
			got = strings.Replace(got, "r0.016666666666666666", "r0.0166667", 1)
		}
		if got != tt.want || math.Abs(s.total-tt.total) > 1e-9 {
			t.Errorf("%q: %s (%gs), want %s (%gs)", tt.in, got, s.total, tt.want, tt.total)
		}
	}
}

// arrivalTimes draws a schedule's arrivals, in ms.
func arrivalTimes(t *testing.T, schedule string, seed int64) []float64 {
	t.Helper()
	s, err := parseOpenSchedule(schedule)
	if err != nil {
		t.Fatal(err)
	}
	rnd := java.NewRandom(seed)
	g := newOpenGen(s, &rnd)
	var out []float64
	for at, ok := g.next(); ok; at, ok = g.next() {
		out = append(out, math.Round(at*1e6)/1e3)
	}
	return out
}

func TestOpenModelArrivals(t *testing.T) {
	tests := []struct {
		schedule string
		want     []float64 // ms
	}{
		// floor(mean rate × duration) arrivals, the first at the start
		{"rate(2/sec) even_arrivals(3 sec)", []float64{0, 500, 1000, 1500, 2000, 2500}},
		// 0 → 4/s over 2 s: arrival n at √(2n/a), a = 2/s²
		{"rate(0) even_arrivals(2 s) rate(4/s)", []float64{0, 1000, 1414.214, 1732.051}},
		// a pause shifts what follows; the rate is restored after it
		{"rate(1/s) even_arrivals(2 s) pause(1 s) even_arrivals(1 s)", []float64{0, 1000, 3000}},
		// random arrivals with a seed are JMeter's: java.util.Random(42)
		// draws 0.7275636800328681, 0.6832234717598454, 0.30871945533265976
		{"rate(3/s) random_arrivals(1 s)", []float64{308.719, 683.223, 727.564}},
		{"rate(1.9/s) random_arrivals(1 s) rate(0) random_arrivals(1 s)", nil},
	}
	for _, tt := range tests {
		got := arrivalTimes(t, tt.schedule, 42)
		if tt.want == nil {
			// 1.9 → 0 over 1 s: floor(0.95) = 0 arrivals; 0 → 0: none
			if len(got) != 0 {
				t.Errorf("%s: %v, want no arrival", tt.schedule, got)
			}
			continue
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.schedule, got, tt.want)
		}
	}
	// A random ramp from 0: floor(mean × d) arrivals, denser at the end.
	got := arrivalTimes(t, "rate(0) random_arrivals(10 s) rate(100/s)", 7)
	if len(got) != 500 || !slices.IsSorted(got) || got[0] < 0 || got[len(got)-1] >= 10000 {
		t.Fatalf("ramp: %d arrivals from %v to %v, want 500 sorted within 10 s", len(got), got[0], got[len(got)-1])
	}
	late := 0
	for _, at := range got {
		if at >= 5000 {
			late++
		}
	}
	if late < 330 || late > 420 { // 3/4 of them expected in the second half
		t.Errorf("ramp: %d of 500 arrivals in the second half, want about 375", late)
	}
}
