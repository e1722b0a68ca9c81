package report

import (
	"fmt"
	"math"
	"strconv"
)

// DefaultAlpha is the significance level of a comparison: a difference
// whose two-sided p-value is below it is reported as beyond noise.
const DefaultAlpha = 0.05

// TestMethod names the significance test of a comparison, for output.
const TestMethod = "Mann-Whitney U test (two-sided; normal approximation with tie and continuity correction)"

// ErrorTestMethod names the test of a change in the error rate.
const ErrorTestMethod = "two-proportion z-test (two-sided, pooled)"

// A percentile is trustworthy when at least minBeyond samples lie beyond
// it (p99 wants 1,000 samples); a rate when it counts minRateSamples.
const (
	minBeyond      = 10
	minRateSamples = 20
)

// CompareRun is one run of a comparison: its name and its statistics.
type CompareRun struct {
	Name  string
	Stats *Stats
}

// Comparison is several runs side by side: a row per label and run, each
// later run measured against the first.
type Comparison struct {
	Runs  []string // run names, the first one the baseline
	Alpha float64  // significance level
	// Rows are grouped by label, "Total" first then the labels in the
	// order they first appear across the runs; within a label the runs
	// keep their order. A run without the label has a row with no samples.
	Rows []ComparisonRow
}

// Figures are the statistics of one label in one run that a comparison
// shows. Times are in ms; a figure that does not exist (no samples) is NaN.
type Figures struct {
	Throughput float64 // samples per second
	Mean       float64
	Median     float64
	P90        float64
	P95        float64
	P99        float64
	ErrorPct   float64 // errors in percent of the samples
}

// Change is how one figure moved against the first run: Abs in the
// figure's unit, Rel in percent of the first run's figure (NaN from zero,
// or where either figure does not exist).
type Change struct {
	Abs, Rel float64
}

// Changes holds the change of each figure of a row against the first run.
type Changes struct {
	Samples, Throughput, Mean, Median, P90, P95, P99 Change
	// ErrorPct is the error rate's change in percentage points; its Rel
	// is left NaN (a relative change of a rate reads as a rate).
	ErrorPct Change
}

// Verdict says what a row's comparison with the first run decides.
type Verdict struct {
	// Direction is "slower", "faster" or "" when the response times do not
	// differ beyond noise (or could not be compared).
	Direction string
	// Text is the line that says so, with the figures that decide it:
	// "search: after slower than before — median +1.47 ms (+42.8%), …".
	Text string
}

// ComparisonRow is one run's figures for one label.
type ComparisonRow struct {
	Label   string
	Run     string
	Samples int64
	Errors  int64
	Figures
	// Change against the first run's row of the same label; nil for the
	// first run.
	Change *Changes
	// Test compares this run's response times with the first run's; nil
	// for the first run, or when either has no samples of the label.
	Test *MannWhitney
	// ErrorTest compares the error rates; nil when Test is, or when
	// neither run had an error.
	ErrorTest *TwoProportions
	// Verdict is set for every row but the first run's.
	Verdict *Verdict
	// Warnings name the figures of this row that rest on too few samples:
	// a percentile with fewer than 10 samples beyond it, a rate from fewer
	// than 20 samples.
	Warnings []Warning
}

// Warning is a figure that rests on too few samples, with how many it
// wants.
type Warning struct {
	Figure string `json:"figure"` // "median", "p90", "p95", "p99", "Req/s"
	Wanted int64  `json:"samplesWanted"`
}

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
		var baseRow ComparisonRow
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
				base, baseRow = l, row
			} else {
				row.Change = changes(&baseRow, &row)
				if base.Count > 0 && l.Count > 0 {
					mw := MannWhitneyU(base, l)
					row.Test = &mw
					if base.Errors+l.Errors > 0 {
						et := TwoProportionTest(base.Errors, base.Count, l.Errors, l.Count)
						row.ErrorTest = &et
					}
				}
				row.Verdict = verdict(&baseRow, &row, alpha)
			}
			c.Rows = append(c.Rows, row)
		}
	}
	return c
}

func comparisonRow(run, label string, l *LabelStats) ComparisonRow {
	row := ComparisonRow{Label: label, Run: run, Samples: l.Count, Errors: l.Errors}
	nan := math.NaN()
	row.Figures = Figures{nan, nan, nan, nan, nan, nan, nan}
	if l.Count == 0 {
		return row
	}
	ps := l.Percentiles([]float64{50, 90, 95, 99})
	row.Figures = Figures{Throughput: l.Throughput(), Mean: l.Mean(), Median: ps[0], P90: ps[1], P95: ps[2], P99: ps[3],
		ErrorPct: l.ErrorPct()}
	for _, p := range []struct {
		name string
		q    float64
	}{{"median", 50}, {"p90", 90}, {"p95", 95}, {"p99", 99}} {
		// Rounded to a thousandth: 100 samples have 10 beyond p90.
		if beyond := math.Round(float64(l.Count)*(100-p.q)*10) / 1000; beyond < minBeyond {
			row.Warnings = append(row.Warnings, Warning{p.name, int64(math.Ceil(minBeyond*100/(100-p.q) - 1e-9))})
		}
	}
	if l.Count < minRateSamples {
		row.Warnings = append(row.Warnings, Warning{"Req/s", minRateSamples})
	}
	return row
}

// change is b against a: the difference and (b−a)/a in percent; Rel is 0
// from zero to zero and NaN from zero to anything else.
func change(a, b float64) Change {
	c := Change{Abs: b - a, Rel: math.NaN()}
	switch {
	case math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0):
		c.Abs = math.NaN()
	case a == 0 && b == 0:
		c.Rel = 0
	case a != 0:
		c.Rel = (b - a) / a * 100
	}
	return c
}

func changes(a, b *ComparisonRow) *Changes {
	ch := &Changes{
		Samples:    change(float64(a.Samples), float64(b.Samples)),
		Throughput: change(a.Throughput, b.Throughput),
		Mean:       change(a.Mean, b.Mean),
		Median:     change(a.Median, b.Median),
		P90:        change(a.P90, b.P90),
		P95:        change(a.P95, b.P95),
		P99:        change(a.P99, b.P99),
		ErrorPct:   change(a.ErrorPct, b.ErrorPct),
	}
	ch.ErrorPct.Rel = math.NaN()
	return ch
}

// verdict decides b against a: slower or faster when the Mann-Whitney test
// says the response times differ beyond noise (which way by the
// probability that one of b's samples is slower than one of a's), with the
// median's and the mean's change, and the error rate's change when either
// run had errors.
func verdict(a, b *ComparisonRow, alpha float64) *Verdict {
	v := &Verdict{}
	ch := b.Change
	switch m := b.Test; {
	case m == nil && a.Samples == 0:
		v.Text = fmt.Sprintf("%s: only in %s", b.Label, b.Run)
	case m == nil:
		v.Text = fmt.Sprintf("%s: not in %s", b.Label, b.Run)
	case m.Significant(alpha):
		v.Direction = "slower"
		if m.PSlower < 0.5 {
			v.Direction = "faster"
		}
		v.Text = fmt.Sprintf("%s: %s %s than %s — median %s, mean %s, %s",
			b.Label, b.Run, v.Direction, a.Run, changeText(ch.Median, " ms"), changeText(ch.Mean, " ms"), pText(m.P))
	default:
		v.Text = fmt.Sprintf("%s: no difference beyond noise between %s and %s (%s; median %s)",
			b.Label, a.Run, b.Run, pText(m.P), changeText(ch.Median, " ms"))
	}
	if et := b.ErrorTest; et != nil {
		v.Text += fmt.Sprintf("; errors %s → %s (%s pp, %s)", fixed(a.ErrorPct, 2)+"%", fixed(b.ErrorPct, 2)+"%",
			signed(ch.ErrorPct.Abs, 2), pText(et.P))
	}
	return v
}

// changeText is "+1.47 ms (+42.8%)", or "+1.47 ms (from 0)".
func changeText(c Change, unit string) string {
	if math.IsNaN(c.Abs) {
		return "-"
	}
	rel := "from 0"
	if !math.IsNaN(c.Rel) {
		rel = signedPct(c.Rel)
	}
	return signed(c.Abs, 2) + unit + " (" + rel + ")"
}

// signed formats v with prec decimals and its sign: "+1.47", "-0.20", "0.00".
func signed(v float64, prec int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	s := strconv.FormatFloat(v, 'f', prec, 64)
	if s[0] == '-' {
		if s == "-"+strconv.FormatFloat(0, 'f', prec, 64) {
			return s[1:]
		}
		return s
	}
	if v == 0 || s == strconv.FormatFloat(0, 'f', prec, 64) {
		return s
	}
	return "+" + s
}

// signedPct formats a change in percent with its sign: "+12.3%", "-4.0%".
func signedPct(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return signed(v, 1) + "%"
}

// pText formats a p-value: "p = 0.042", "p < 0.001".
func pText(p float64) string {
	if p < 0.001 {
		return "p < 0.001"
	}
	return "p = " + strconv.FormatFloat(p, 'f', 3, 64)
}
