package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
)

// DefaultAlpha is the significance level of a comparison: a difference
// whose two-sided p-value is below it is reported as beyond noise.
const DefaultAlpha = 0.05

// TestMethod names the significance test of a comparison, for output.
const TestMethod = "Mann-Whitney U test (two-sided; normal approximation with tie and continuity correction)"

// CompareRun is one run of a comparison: its name and its statistics.
type CompareRun struct {
	Name  string
	Stats *Stats
}

// Comparison is the table of several runs side by side: a row per label
// and run, each later run measured against the first.
type Comparison struct {
	Runs  []string // run names, the first one the baseline
	Alpha float64  // significance level
	// Rows are grouped by label, "Total" first then the labels in the
	// order they first appear across the runs; within a label the runs
	// keep their order. A run without the label has a row with no samples.
	Rows []ComparisonRow
}

// ComparisonRow is one run's figures for one label. Times are in ms; a
// figure that does not exist (no samples) is NaN.
type ComparisonRow struct {
	Label      string
	Run        string
	Samples    int64
	Throughput float64 // samples per second
	Mean       float64
	Median     float64
	P90        float64
	P99        float64
	Errors     int64
	ErrorPct   float64
	// Change is the change of each figure against the first run's row of
	// the same label, in percent of the first run's figure; nil for the
	// first run.
	Change *RowChange
	// Test compares this run's response times with the first run's; nil
	// for the first run, or when either has no samples of the label.
	Test *MannWhitney
}

// RowChange holds the change of each figure of a row against the first
// run, in percent; NaN where the first run's figure is zero (and this
// run's is not) or missing.
type RowChange struct {
	Samples, Throughput, Mean, Median, P90, P99, Errors float64
}

// MannWhitney is the outcome of a Mann-Whitney U test of two runs'
// response times (first run A with N1 samples, this run B with N2).
type MannWhitney struct {
	N1, N2 int64
	// U counts the pairs (a, b) in which b is slower than a, ties counting
	// one half: N1·N2/2 when neither run tends to be slower.
	U float64
	// Z is U standardised under the null hypothesis (with tie and
	// continuity correction); positive when B tends to be slower.
	Z float64
	// P is the two-sided p-value from the normal approximation.
	P float64
	// PSlower is U/(N1·N2): the probability that a sample of B is slower
	// than one of A (ties one half), 0.5 when neither is.
	PSlower float64
}

// Significant reports whether the difference is beyond noise at level alpha.
func (m *MannWhitney) Significant(alpha float64) bool { return m.P < alpha }

// Compare builds the comparison of runs against the first one at
// significance level alpha (DefaultAlpha when not in (0, 1)).
func Compare(runs []CompareRun, alpha float64) *Comparison {
	if !(alpha > 0 && alpha < 1) {
		alpha = DefaultAlpha
	}
	c := &Comparison{Alpha: alpha}
	labels := []string{"Total"}
	seen := map[string]bool{}
	for _, r := range runs {
		c.Runs = append(c.Runs, r.Name)
		for _, l := range r.Stats.Labels() {
			if !seen[l.Label] {
				seen[l.Label] = true
				labels = append(labels, l.Label)
			}
		}
	}
	for i, label := range labels {
		var base *LabelStats
		for j, r := range runs {
			l := r.Stats.Total()
			if i > 0 {
				l = r.Stats.Label(label)
			}
			if l == nil {
				l = &LabelStats{Label: label}
			}
			row := comparisonRow(r.Name, label, l)
			if j == 0 {
				base = l
			} else {
				b := comparisonRow("", label, base)
				row.Change = &RowChange{
					Samples:    change(float64(b.Samples), float64(row.Samples)),
					Throughput: change(b.Throughput, row.Throughput),
					Mean:       change(b.Mean, row.Mean),
					Median:     change(b.Median, row.Median),
					P90:        change(b.P90, row.P90),
					P99:        change(b.P99, row.P99),
					Errors:     change(float64(b.Errors), float64(row.Errors)),
				}
				if base.Count > 0 && l.Count > 0 {
					mw := MannWhitneyU(base, l)
					row.Test = &mw
				}
			}
			c.Rows = append(c.Rows, row)
		}
	}
	return c
}

func comparisonRow(run, label string, l *LabelStats) ComparisonRow {
	row := ComparisonRow{
		Label: label, Run: run, Samples: l.Count, Errors: l.Errors,
		Throughput: math.NaN(), Mean: math.NaN(), Median: math.NaN(), P90: math.NaN(), P99: math.NaN(),
		ErrorPct: math.NaN(),
	}
	if l.Count > 0 {
		row.Throughput = l.Throughput()
		row.Mean = l.Mean()
		row.Median = l.Median()
		row.P90 = l.Percentile(90)
		row.P99 = l.Percentile(99)
		row.ErrorPct = l.ErrorPct()
	}
	return row
}

// change is (b−a)/a in percent: 0 from zero to zero, NaN from zero to
// anything else or when either is not finite.
func change(a, b float64) float64 {
	if a == 0 && b == 0 {
		return 0
	}
	if a == 0 || math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return math.NaN()
	}
	return (b - a) / a * 100
}

// MannWhitneyU tests whether the elapsed times of b tend to be larger or
// smaller than those of a. It is exact in its counting: the rank sums
// come from the per-millisecond counts of both labels, ties sharing their
// mean rank, so no sample is left out however many there are. The p-value
// uses the normal approximation, with the variance corrected for ties:
//
//	σ² = n₁n₂/12 · ((N+1) − Σ(t³−t)/(N(N−1)))
//
// where t is the number of samples at each distinct millisecond, and a
// continuity correction of ½ on U. Both labels must have samples.
func MannWhitneyU(a, b *LabelStats) MannWhitney {
	va, ca := histValues(&a.elapsed)
	vb, cb := histValues(&b.elapsed)
	n1, n2 := float64(a.elapsed.n), float64(b.elapsed.n)
	// Walk the merged distinct values: below counts the samples of a
	// strictly below the current value.
	var u, ties, below float64
	i, j := 0, 0
	for i < len(va) || j < len(vb) {
		var v int64
		switch {
		case j >= len(vb) || i < len(va) && va[i] < vb[j]:
			v = va[i]
		default:
			v = vb[j]
		}
		var ta, tb float64
		if i < len(va) && va[i] == v {
			ta = float64(ca[i])
			i++
		}
		if j < len(vb) && vb[j] == v {
			tb = float64(cb[j])
			j++
		}
		u += tb * (below + ta/2)
		t := ta + tb
		ties += t*t*t - t
		below += ta
	}
	m := MannWhitney{N1: int64(n1), N2: int64(n2), U: u, P: 1, PSlower: u / (n1 * n2)}
	nn := n1 + n2
	variance := n1 * n2 / 12 * ((nn + 1) - ties/(nn*(nn-1)))
	if variance <= 0 || nn < 2 {
		return m
	}
	d := u - n1*n2/2
	switch {
	case d > 0.5:
		d -= 0.5
	case d < -0.5:
		d += 0.5
	default:
		d = 0
	}
	m.Z = d / math.Sqrt(variance)
	m.P = math.Erfc(math.Abs(m.Z) / math.Sqrt2)
	return m
}

// histValues lists the distinct values of h in increasing order with
// their counts.
func histValues(h *Histogram) ([]int64, []uint64) {
	var vs []int64
	var cs []uint64
	for v, c := range h.All() {
		vs = append(vs, v)
		cs = append(cs, c)
	}
	return vs, cs
}

// WriteComparison writes c as aligned text: a row per label and run with
// samples, throughput, mean, median, p90, p99 and errors, each later run's
// change against the first in percent, and whether its response times
// differ from the first run's beyond noise.
func WriteComparison(w io.Writer, c *Comparison) error {
	bw := bufio.NewWriter(w)
	if len(c.Runs) > 0 {
		fmt.Fprintf(bw, "Compared with %q (the first run); Δ is the change in %% of its figure. Times in ms.\n", c.Runs[0])
	}
	fmt.Fprintf(bw, "Beyond noise: %s on the response times, against the first run, significant when p < %s.\n\n",
		TestMethod, strconv.FormatFloat(c.Alpha, 'g', -1, 64))
	rows := [][]string{{"Label", "Run", "Samples", "Req/s", "Δ", "Mean", "Δ", "Median", "Δ", "p90", "Δ", "p99", "Δ",
		"Errors", "Error%", "Δ", "Beyond noise"}}
	for i, r := range c.Rows {
		label := r.Label
		if i > 0 && c.Rows[i-1].Label == r.Label {
			label = ""
		}
		row := []string{label, r.Run, strconv.FormatInt(r.Samples, 10),
			fixed(r.Throughput, 2), "", fixed(r.Mean, 2), "", fixed(r.Median, 2), "",
			fixed(r.P90, 2), "", fixed(r.P99, 2), "",
			strconv.FormatInt(r.Errors, 10), fixedPct(r.ErrorPct), "", ""}
		if ch := r.Change; ch != nil {
			row[4], row[6], row[8], row[10], row[12], row[15] =
				signedPct(ch.Throughput), signedPct(ch.Mean), signedPct(ch.Median), signedPct(ch.P90),
				signedPct(ch.P99), signedPct(ch.Errors)
			row[16] = "-"
		}
		if t := r.Test; t != nil {
			verdict := "no"
			if t.Significant(c.Alpha) {
				verdict = "yes"
			}
			row[16] = verdict + " (p" + formatP(t.P) + ")"
		}
		rows = append(rows, row)
	}
	writeAligned(bw, rows, 2)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("comparison: %w", err)
	}
	return nil
}

func fixedPct(v float64) string {
	if s := fixed(v, 2); s != "-" {
		return s + "%"
	}
	return "-"
}

// signedPct formats a change in percent with its sign: "+12.3%", "-4.0%".
func signedPct(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	s := strconv.FormatFloat(v, 'f', 1, 64)
	if s == "-0.0" {
		s = "0.0"
	}
	if v >= 0 && s[0] != '-' {
		s = "+" + s
	}
	return s + "%"
}

// formatP formats a p-value after "p": "=0.042", "<0.001".
func formatP(p float64) string {
	if p < 0.001 {
		return "<0.001"
	}
	return "=" + strconv.FormatFloat(p, 'f', 3, 64)
}

// comparisonJSON is the JSON form of a Comparison; figures that do not
// exist are null.
type comparisonJSON struct {
	Baseline string    `json:"baseline"`
	Test     string    `json:"test"`
	Alpha    float64   `json:"alpha"`
	Runs     []string  `json:"runs"`
	Rows     []rowJSON `json:"rows"`
}

type rowJSON struct {
	Label      string      `json:"label"`
	Run        string      `json:"run"`
	Samples    int64       `json:"samples"`
	Throughput *float64    `json:"throughput"`
	Mean       *float64    `json:"mean"`
	Median     *float64    `json:"median"`
	P90        *float64    `json:"p90"`
	P99        *float64    `json:"p99"`
	Errors     int64       `json:"errors"`
	ErrorPct   *float64    `json:"errorPct"`
	Change     *changeJSON `json:"change,omitempty"`
	Test       *testJSON   `json:"mannWhitney,omitempty"`
}

type changeJSON struct {
	Samples    *float64 `json:"samples"`
	Throughput *float64 `json:"throughput"`
	Mean       *float64 `json:"mean"`
	Median     *float64 `json:"median"`
	P90        *float64 `json:"p90"`
	P99        *float64 `json:"p99"`
	Errors     *float64 `json:"errors"`
}

type testJSON struct {
	U           float64 `json:"u"`
	Z           float64 `json:"z"`
	P           float64 `json:"p"`
	PSlower     float64 `json:"probSlower"`
	Significant bool    `json:"significant"`
}

// num returns a pointer to v, or nil when v is not finite.
func num(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// WriteComparisonJSON writes c as JSON: baseline, test, alpha, runs, and
// rows with label, run, samples, throughput, mean, median, p90, p99,
// errors, errorPct, change (per figure, in percent; absent for the first
// run) and mannWhitney (u, z, p, probSlower, significant; absent for the
// first run). Figures that do not exist are null.
func WriteComparisonJSON(w io.Writer, c *Comparison) error {
	out := comparisonJSON{Test: TestMethod, Alpha: c.Alpha, Runs: c.Runs, Rows: []rowJSON{}}
	if len(c.Runs) > 0 {
		out.Baseline = c.Runs[0]
	}
	for _, r := range c.Rows {
		j := rowJSON{
			Label: r.Label, Run: r.Run, Samples: r.Samples, Errors: r.Errors,
			Throughput: num(r.Throughput), Mean: num(r.Mean), Median: num(r.Median),
			P90: num(r.P90), P99: num(r.P99), ErrorPct: num(r.ErrorPct),
		}
		if ch := r.Change; ch != nil {
			j.Change = &changeJSON{
				Samples: num(ch.Samples), Throughput: num(ch.Throughput), Mean: num(ch.Mean),
				Median: num(ch.Median), P90: num(ch.P90), P99: num(ch.P99), Errors: num(ch.Errors),
			}
		}
		if t := r.Test; t != nil {
			j.Test = &testJSON{U: t.U, Z: t.Z, P: t.P, PSlower: t.PSlower, Significant: t.Significant(c.Alpha)}
		}
		out.Rows = append(out.Rows, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("comparison JSON: %w", err)
	}
	return nil
}
