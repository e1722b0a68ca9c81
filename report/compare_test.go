package report

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// sampleSpec is a hand-made sample: label, start offset and elapsed (ms).
type sampleSpec struct {
	label          string
	start, elapsed int64
	ok             bool
}

func statsOf(specs ...sampleSpec) *Stats {
	st := NewStats(StatsOptions{})
	for _, s := range specs {
		code := "200"
		if !s.ok {
			code = "500"
		}
		st.Add(&Sample{Start: t0.Add(ms(s.start)), Elapsed: ms(s.elapsed), Label: s.label, Success: s.ok, Code: code})
	}
	return st
}

// Two runs worked out by hand.
//
// before: x 10, 20, 30, 40 ms (the last from 960: 4 in 1 s); y 100 ms
// three times (3 in 1 s). after: x 50, 60, 70 (failed), 80, 90 ms (the
// last from 1910: 5 in 2 s); y 100 ms three times (3 in 2 s).
func handRuns() []CompareRun {
	before := statsOf(
		sampleSpec{"x", 0, 10, true}, sampleSpec{"y", 0, 100, true}, sampleSpec{"x", 100, 20, true},
		sampleSpec{"x", 200, 30, true}, sampleSpec{"y", 300, 100, true}, sampleSpec{"y", 900, 100, true},
		sampleSpec{"x", 960, 40, true},
	)
	after := statsOf(
		sampleSpec{"x", 0, 50, true}, sampleSpec{"y", 0, 100, true}, sampleSpec{"x", 100, 60, true},
		sampleSpec{"x", 200, 70, false}, sampleSpec{"x", 300, 80, true}, sampleSpec{"y", 500, 100, true},
		sampleSpec{"y", 1900, 100, true}, sampleSpec{"x", 1910, 90, true},
	)
	return []CompareRun{{"before", before}, {"after", after}}
}

func TestCompareByHand(t *testing.T) {
	c := Compare(handRuns(), 0)
	type row struct {
		label, run                   string
		samples, errors              int64
		rps, mean, median, p90, p99  float64
		dRps, dMean, dMedian, dP90   float64 // in percent
		dMedianMs, dErrorPP          float64
		u, p                         float64 // NaN: no test
		significant, hasChange, test bool
	}
	want := []row{
		// Total before: 10 20 30 40 100 100 100 over 1 s: mean 400/7,
		// median the 4th value, p90 at 0.9·8 = 7.2 ≥ n: the max.
		{label: "Total", run: "before", samples: 7, rps: 7, mean: 400.0 / 7, median: 40, p90: 100, p99: 100},
		// Total after: 50 60 70 80 90 100 100 100 over 2 s: mean 650/8,
		// median at 4.5: 80 + ½(90 − 80). Mann-Whitney: each of 50..90
		// beats the 4 fast ones of before (20), each 100 beats 4 and ties
		// 3 (3 × 5.5): U = 36.5 of 56. Ties: six 100s, Σ(t³−t) = 210,
		// σ² = 56/12 · (16 − 210/(15·14)) = 70; z = (36.5 − 28 − ½)/√70
		// = 0.956, p = 0.339.
		{label: "Total", run: "after", samples: 8, errors: 1, rps: 4, mean: 81.25, median: 85, p90: 100, p99: 100,
			dRps: -300.0 / 7, dMean: (81.25 - 400.0/7) / (400.0 / 7) * 100, dMedian: 112.5, dP90: 0, dMedianMs: 45, dErrorPP: 12.5,
			u: 36.5, p: 0.33897984397912206, hasChange: true, test: true},
		{label: "x", run: "before", samples: 4, rps: 4, mean: 25, median: 25, p90: 40, p99: 40},
		// Every after beats every before: U = 20 = n₁n₂; no ties,
		// σ² = 20/12 · 10; z = (20 − 10 − ½)/√16.67 = 2.327, p = 0.020.
		{label: "x", run: "after", samples: 5, errors: 1, rps: 2.5, mean: 70, median: 70, p90: 90, p99: 90,
			dRps: -37.5, dMean: 180, dMedian: 180, dP90: 125, dMedianMs: 45, dErrorPP: 20,
			u: 20, p: 0.019964453305216057, significant: true, hasChange: true, test: true},
		{label: "y", run: "before", samples: 3, rps: 3, mean: 100, median: 100, p90: 100, p99: 100},
		// All six values tie: no variance, p = 1.
		{label: "y", run: "after", samples: 3, rps: 1.5, mean: 100, median: 100, p90: 100, p99: 100,
			dRps: -50, u: 4.5, p: 1, hasChange: true, test: true},
	}
	if len(c.Rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(c.Rows), len(want))
	}
	for i, w := range want {
		r := c.Rows[i]
		if r.Label != w.label || r.Run != w.run || r.Samples != w.samples || r.Errors != w.errors ||
			!near(r.Throughput, w.rps) || !near(r.Mean, w.mean) || !near(r.Median, w.median) ||
			!near(r.P90, w.p90) || !near(r.P99, w.p99) {
			t.Errorf("row %d:\n got %+v\nwant %+v", i, r, w)
		}
		if (r.Change != nil) != w.hasChange || (r.Test != nil) != w.test {
			t.Errorf("row %d: change %v test %v", i, r.Change, r.Test)
			continue
		}
		if ch := r.Change; ch != nil {
			if !near(ch.Throughput.Rel, w.dRps) || !near(ch.Mean.Rel, w.dMean) || !near(ch.Median.Rel, w.dMedian) ||
				!near(ch.P90.Rel, w.dP90) || !near(ch.Median.Abs, w.dMedianMs) || !near(ch.ErrorPct.Abs, w.dErrorPP) {
				t.Errorf("row %d change %+v", i, *ch)
			}
		}
		if m := r.Test; m != nil {
			if !near(m.U, w.u) || math.Abs(m.P-w.p) > 1e-12 || m.Significant(c.Alpha) != w.significant {
				t.Errorf("row %d test %+v, want U %v p %v", i, *m, w.u, w.p)
			}
		}
	}
	var text, js bytes.Buffer
	if err := WriteComparison(&text, c); err != nil {
		t.Fatal(err)
	}
	golden(t, "compare.txt", text.Bytes())
	if err := WriteComparisonJSON(&js, c); err != nil {
		t.Fatal(err)
	}
	golden(t, "compare.json", js.Bytes())
	var back struct {
		Rows []struct {
			Label, Run string
			Median     *float64
			Change     *struct {
				Median         struct{ Abs, Rel *float64 }
				ErrorPctPoints *float64
			}
			Verdict *struct{ Direction, Text string }
		}
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatalf("JSON does not decode: %v", err)
	}
	if r := back.Rows[1]; r.Median == nil || *r.Median != 85 || r.Change == nil || *r.Change.Median.Abs != 45 ||
		*r.Change.Median.Rel != 112.5 || *r.Change.ErrorPctPoints != 12.5 || r.Verdict == nil || r.Verdict.Direction != "" {
		t.Errorf("JSON row 1: median %v, change %+v, verdict %+v", r.Median, r.Change, r.Verdict)
	}
	// The verdicts, decided: x is slower beyond noise, the Total and y not.
	for i, want := range map[int]string{
		1: "Total: no difference beyond noise between before and after (p = 0.339; median +45.00 ms (+112.5%)); errors 0.00% → 12.50% (+12.50 pp, p = 0.333)",
		3: "x: after slower than before — median +45.00 ms (+180.0%), mean +45.00 ms (+180.0%), p = 0.020; errors 0.00% → 20.00% (+20.00 pp, p = 0.343)",
		5: "y: no difference beyond noise between before and after (p = 1.000; median 0.00 ms (0.0%))",
	} {
		if got := c.Rows[i].Verdict.Text; got != want {
			t.Errorf("verdict of row %d:\n got %s\nwant %s", i, got, want)
		}
	}
	if w := c.Rows[0].Warnings; len(w) != 5 || w[3] != (Warning{"p99", 1000}) {
		t.Errorf("warnings of 7 samples: %v", w)
	}
}

// The verdict follows the data: a run slower by 2 ms on 5,000 samples is
// slower beyond noise, a faster one faster, the same distribution drawn
// twice is not different; no warning with this many samples.
func TestCompareVerdicts(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	run := func(shift float64) *Stats {
		st := NewStats(StatsOptions{})
		for i := range 5000 {
			st.Add(&Sample{Start: t0.Add(ms(int64(i))), Elapsed: ms(int64(20 + shift + r.NormFloat64()*4)), Label: "search", Success: true})
		}
		return st
	}
	c := Compare([]CompareRun{{"A", run(0)}, {"B", run(2)}, {"C", run(-2)}, {"D", run(0)}}, 0)
	want := map[string]string{"B": "slower", "C": "faster", "D": ""}
	for _, row := range c.Rows {
		if row.Label != "search" || row.Run == "A" {
			continue
		}
		if row.Verdict.Direction != want[row.Run] {
			t.Errorf("%s: %q", row.Run, row.Verdict.Text)
		}
		if len(row.Warnings) != 0 {
			t.Errorf("%s: warnings %v", row.Run, row.Warnings)
		}
	}
}

// A label missing from a run gets a row without samples and no test.
func TestCompareMissingLabel(t *testing.T) {
	a := statsOf(sampleSpec{"x", 0, 10, true}, sampleSpec{"only-a", 0, 5, true})
	b := statsOf(sampleSpec{"x", 0, 12, true}, sampleSpec{"only-b", 0, 7, true})
	c := Compare([]CompareRun{{"a", a}, {"b", b}}, 0.01)
	var labels []string
	for _, r := range c.Rows {
		labels = append(labels, r.Label+"/"+r.Run+"/"+strconv.FormatInt(r.Samples, 10))
	}
	want := []string{"Total/a/2", "Total/b/2", "x/a/1", "x/b/1", "only-a/a/1", "only-a/b/0", "only-b/a/0", "only-b/b/1"}
	if !slices.Equal(labels, want) {
		t.Errorf("rows %q, want %q", labels, want)
	}
	if r := c.Rows[5]; r.Test != nil || !math.IsNaN(r.Mean) || !math.IsNaN(r.Change.Mean.Abs) || r.Verdict.Text != "only-a: not in b" {
		t.Errorf("missing label row %+v", r)
	}
	if r := c.Rows[7]; r.Change == nil || r.Change.Samples.Abs != 1 || !math.IsNaN(r.Change.Samples.Rel) || r.Test != nil ||
		r.Verdict.Text != "only-b: only in b" {
		t.Errorf("label new in b: %+v", r)
	}
	if c.Alpha != 0.01 {
		t.Errorf("alpha %v", c.Alpha)
	}
	var buf bytes.Buffer
	if err := WriteComparisonJSON(&buf, c); err != nil {
		t.Fatal(err)
	}
	if !json.Valid(buf.Bytes()) {
		t.Errorf("invalid JSON:\n%s", buf.String())
	}
}

// naiveMannWhitney computes U, its tie-corrected variance and the p-value
// the textbook way: rank all values, ties sharing their mean rank.
func naiveMannWhitney(a, b []int64) (u, p float64) {
	type v struct {
		x    int64
		inB  bool
		rank float64
	}
	var all []v
	for _, x := range a {
		all = append(all, v{x: x})
	}
	for _, x := range b {
		all = append(all, v{x: x, inB: true})
	}
	slices.SortFunc(all, func(p, q v) int { return int(p.x - q.x) })
	var ties float64
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].x == all[i].x {
			j++
		}
		t := float64(j - i)
		ties += t*t*t - t
		for k := i; k < j; k++ {
			all[k].rank = float64(i+j+1) / 2
		}
		i = j
	}
	var rb float64
	for _, x := range all {
		if x.inB {
			rb += x.rank
		}
	}
	n1, n2 := float64(len(a)), float64(len(b))
	u = rb - n2*(n2+1)/2
	n := n1 + n2
	sigma := math.Sqrt(n1 * n2 / 12 * ((n + 1) - ties/(n*(n-1))))
	d := u - n1*n2/2
	d -= math.Copysign(math.Min(0.5, math.Abs(d)), d)
	if sigma == 0 {
		return u, 1
	}
	return u, math.Erfc(math.Abs(d/sigma) / math.Sqrt2)
}

// The counting form agrees with ranking every sample, ties included.
func TestMannWhitneyAgainstRanks(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i, tc := range []struct {
		n1, n2     int
		scale, off float64
	}{{5, 7, 10, 0}, {30, 30, 20, 3}, {200, 150, 50, 0}, {1000, 1200, 100, 5}, {50, 3000, 3, 1}} {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			var a, b []int64
			sa, sb := NewStats(StatsOptions{}), NewStats(StatsOptions{})
			for range tc.n1 {
				x := int64(r.ExpFloat64() * tc.scale)
				a = append(a, x)
				sa.Add(&Sample{Start: t0, Elapsed: ms(x), Label: "l", Success: true})
			}
			for range tc.n2 {
				x := int64(r.ExpFloat64()*tc.scale + tc.off)
				b = append(b, x)
				sb.Add(&Sample{Start: t0, Elapsed: ms(x), Label: "l", Success: true})
			}
			m := MannWhitneyU(sa.Label("l"), sb.Label("l"))
			u, p := naiveMannWhitney(a, b)
			if !near(m.U, u) || math.Abs(m.P-p) > 1e-9 {
				t.Errorf("U %v p %v, want U %v p %v", m.U, m.P, u, p)
			}
			if !near(m.PSlower, u/float64(tc.n1*tc.n2)) {
				t.Errorf("PSlower %v", m.PSlower)
			}
		})
	}
}

// Percentiles in one pass give what Percentile gives one at a time.
func TestLabelPercentiles(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	st := NewStats(StatsOptions{})
	for range 5000 {
		v := int64(r.ExpFloat64() * 80)
		if r.IntN(500) == 0 {
			v += denseLimit // the sparse range
		}
		st.Add(&Sample{Start: t0, Elapsed: ms(v), Label: "l", Success: true})
	}
	l := st.Label("l")
	ps := []float64{0, 0.01, 1, 25, 50, 50.5, 90, 99, 99.9, 99.99, 100}
	got := l.Percentiles(ps)
	for i, p := range ps {
		if want := l.Percentile(p); got[i] != want && !(p == 0 && got[i] == float64(l.Min())) {
			t.Errorf("p%v = %v, want %v", p, got[i], want)
		}
	}
	if e := (&LabelStats{}).Percentiles([]float64{50}); !math.IsNaN(e[0]) {
		t.Errorf("empty: %v", e)
	}
}

func BenchmarkMannWhitney(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	sa, sb := NewStats(StatsOptions{}), NewStats(StatsOptions{})
	for range 100000 {
		sa.Add(&Sample{Start: t0, Elapsed: ms(int64(r.ExpFloat64() * 200)), Label: "l", Success: true})
		sb.Add(&Sample{Start: t0, Elapsed: ms(int64(r.ExpFloat64() * 210)), Label: "l", Success: true})
	}
	b.ReportAllocs()
	for b.Loop() {
		MannWhitneyU(sa.Label("l"), sb.Label("l"))
	}
}
