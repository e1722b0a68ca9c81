package dashboard

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/gojm/gojm/report"
)

// msCounts keeps every time exactly, so its percentiles (through hist) are
// report.Stats's, on times that repeat, that spread past the array and
// past the exact map.
func TestCountsPercentilesAreReports(t *testing.T) {
	ps := []float64{0, 1, 25, 50, 90, 95, 99, 99.9, 100}
	for _, tc := range []struct {
		name string
		n    int
		ms   func(r *rand.Rand) int64
	}{
		{"one", 1, func(*rand.Rand) int64 { return 7 }},
		{"two", 2, func(r *rand.Rand) int64 { return r.Int64N(3) }},
		{"fast", 1000, func(r *rand.Rand) int64 { return r.Int64N(20) }},
		{"slow tail", 5000, func(r *rand.Rand) int64 { return int64(r.ExpFloat64() * 800) }},
		{"minutes", 3000, func(r *rand.Rand) int64 { return 1000 + r.Int64N(3000) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			st := report.NewStats(report.StatsOptions{})
			var c msCounts
			for range tc.n {
				ms := tc.ms(r)
				st.Add(&report.Sample{Start: t0, Elapsed: time.Duration(ms) * time.Millisecond, Label: "x", Success: true})
				c.add(ms)
			}
			got := c.hist().Percentiles(ps)
			for i, p := range ps {
				if want := st.Total().Percentile(p); got[i] != want {
					t.Errorf("p%v: %v, report %v", p, got[i], want)
				}
			}
		})
	}
	var empty msCounts
	if v := empty.hist().Percentile(50); !math.IsNaN(v) {
		t.Errorf("median of nothing: %v", v)
	}
}

// Past maxSparse distinct long times, new ones are rounded to three digits.
func TestCountsBounded(t *testing.T) {
	var c msCounts
	for ms := int64(exactBelow); ms < exactBelow+3*maxSparse; ms++ {
		c.add(ms)
	}
	if len(c.sparse) > maxSparse+2*maxSparse/10 {
		t.Errorf("%d distinct times kept, bound %d plus rounded ones", len(c.sparse), maxSparse)
	}
	if c.n != 3*maxSparse || c.max != exactBelow+3*maxSparse-1 {
		t.Errorf("count %d, max %d", c.n, c.max)
	}
}

// A long run steps the intervals up the ladder and keeps every sample;
// intervals stay on the clock; a sample that started before the first
// one seen lands in its own interval.
func TestSeriesIntervals(t *testing.T) {
	start := time.UnixMilli(1_700_000_000_050)
	st := report.NewStats(report.StatsOptions{})
	s := NewSeries(st)
	add := func(at time.Time, ok bool) {
		report.Sinks{st, s}.Add(&report.Sample{Start: at, Elapsed: 5 * time.Millisecond, Label: "a", Success: ok, Code: "200",
			ThreadName: "Users 1-1", GrpThreads: 3, AllThreads: 3, Bytes: 100})
	}
	add(start, true)
	add(start.Add(-2*time.Second), true) // started earlier, ended later
	if w := s.Width(); w != 100*time.Millisecond {
		t.Fatalf("width %v after two samples", w)
	}
	// An hour of samples, one every 2 s.
	n := int64(2)
	for at := start; at.Before(start.Add(time.Hour)); at = at.Add(2 * time.Second) {
		add(at, at.Unix()%10 != 0)
		n++
	}
	if w := s.Width(); w != 30*time.Second {
		t.Errorf("width %v for an hour in 240 intervals, want 30s", w)
	}
	var ok, ko int64
	for i := s.first; i <= s.last; i++ {
		ok += s.total[i].ok
		ko += s.total[i].ko
	}
	if ok+ko != n || ko != st.Total().Errors {
		t.Errorf("counted %d samples, %d failed; want %d, %d", ok+ko, ko, n, st.Total().Errors)
	}
	if got := (s.lo + s.first) * width(s.step); got > start.Add(-2*time.Second).UnixMilli() {
		t.Errorf("first interval starts at %d, after the earliest sample", got)
	}
	l := s.labels.all()[0]
	var ln int64
	for _, b := range l.time {
		ln += b.n
	}
	if ln != n {
		t.Errorf("label counted %d samples, want %d", ln, n)
	}
}

// Series counts the rows report.Stats counts: transactions are labels of
// their own but not in the totals, empty ones not at all, sub-results are
// rows with SubResults only.
func TestSeriesCountsAsStats(t *testing.T) {
	for _, sub := range []bool{false, true} {
		opt := report.StatsOptions{SubResults: sub}
		st := report.NewStats(opt)
		s := NewSeries(st)
		sinks := report.Sinks{st, s}
		child := &report.Sample{Start: t0, Elapsed: 3 * time.Millisecond, Label: "page-0", Success: true, Code: "200"}
		sinks.Add(&report.Sample{Start: t0, Elapsed: 9 * time.Millisecond, Label: "page", Success: true, Code: "200", Sub: []*report.Sample{child}})
		sinks.Add(&report.Sample{Start: t0, Elapsed: 12 * time.Millisecond, Label: "tx", Success: false, Transaction: true,
			Message: "Number of samples in transaction : 1, number of failing samples : 1"})
		sinks.Add(&report.Sample{Start: t0, Label: "empty", Success: true, Message: "Number of samples in transaction : 0, number of failing samples : 0"})
		var samples, codes int64
		for _, tt := range s.total {
			samples += tt.ok + tt.ko
		}
		for _, c := range s.codes.all() {
			for _, b := range c.time {
				codes += b.n
			}
		}
		if samples != st.Total().Count || codes != st.Total().Count {
			t.Errorf("sub-results %v: %d samples in the totals, %d codes, report %d", sub, samples, codes, st.Total().Count)
		}
		if want := map[bool]int64{false: 1, true: 2}[sub]; samples != want {
			t.Errorf("sub-results %v: %d samples, want %d", sub, samples, want)
		}
		var names []string
		for _, l := range s.labels.all() {
			names = append(names, l.name)
		}
		var want []string
		for _, l := range st.Labels() {
			want = append(want, l.Label)
		}
		if len(names) != len(want) {
			t.Errorf("sub-results %v: labels %v, report %v", sub, names, want)
		}
		if o := s.overview; o[0]+o[1]+o[2]+o[3] != st.Total().Count {
			t.Errorf("overview %v, report %d samples", o, st.Total().Count)
		}
	}
}

// Adding a sample costs no allocation once its label, code and group are
// known, and the times fit the counts.
func TestSeriesAddAllocations(t *testing.T) {
	s := NewSeries(report.NewStats(report.StatsOptions{}))
	smp := &report.Sample{Start: t0, Elapsed: 20 * time.Millisecond, Label: "a", Success: true, Code: "200", ThreadName: "Users 1-1", AllThreads: 5}
	s.Add(smp)
	if n := testing.AllocsPerRun(1000, func() { s.Add(smp) }); n != 0 {
		t.Errorf("%v allocations per sample", n)
	}
}

func BenchmarkSeriesAdd(b *testing.B) {
	s := NewSeries(report.NewStats(report.StatsOptions{}))
	labels := []string{"home", "search", "login", "browse"}
	smp := &report.Sample{Success: true, Code: "200", ThreadName: "Users 1-1", AllThreads: 50, GrpThreads: 50, Bytes: 2000}
	b.ReportAllocs()
	for i := range b.N {
		smp.Start = t0.Add(time.Duration(i) * 50 * time.Microsecond)
		smp.Elapsed = time.Duration(i%300) * time.Millisecond
		smp.Label = labels[i%4]
		s.Add(smp)
	}
}

// A run without samples has no interval to draw.
func TestSeriesEmpty(t *testing.T) {
	data, err := chartJSON(NewSeries(report.NewStats(report.StatsOptions{})), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"times":null`, `"cover":null`, `"hits":null`, `"overview":[0,0,0,0]`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the figures of no samples lack %s:\n%s", want, data)
		}
	}
}
