package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// WriteComparison writes c as text: a table with a row per label and run
// (samples, throughput, mean, median, p90, p99, error rate) and, under each
// later run, its change against the first run, in the figure's unit (Δ; the
// error rate in percentage points) and in percent (Δ%); then a verdict per
// label and later run; then the figures that rest on too few samples.
func WriteComparison(w io.Writer, c *Comparison) error {
	bw := bufio.NewWriter(w)
	if len(c.Runs) > 0 {
		fmt.Fprintf(bw, "Compared with %q, the first run. Times in ms; Δ is the change against it, Δ%% in percent of its figure,\n"+
			"the error rate's change in percentage points (pp).\n\n", c.Runs[0])
	}
	rows := [][]string{{"Label", "Run", "Samples", "Req/s", "Mean", "Median", "p90", "p99", "Error%"}}
	for i, r := range c.Rows {
		label := r.Label
		if i > 0 && c.Rows[i-1].Label == r.Label {
			label = ""
		}
		rows = append(rows, []string{label, r.Run, strconv.FormatInt(r.Samples, 10), fixed(r.Throughput, 2),
			fixed(r.Mean, 2), fixed(r.Median, 2), fixed(r.P90, 2), fixed(r.P99, 2), fixedPct(r.ErrorPct)})
		if ch := r.Change; ch != nil {
			pp := "-"
			if !math.IsNaN(ch.ErrorPct.Abs) {
				pp = signed(ch.ErrorPct.Abs, 2) + " pp"
			}
			rows = append(rows,
				[]string{"", "  Δ", signed(ch.Samples.Abs, 0), signed(ch.Throughput.Abs, 2), signed(ch.Mean.Abs, 2),
					signed(ch.Median.Abs, 2), signed(ch.P90.Abs, 2), signed(ch.P99.Abs, 2), pp},
				[]string{"", "  Δ%", signedPct(ch.Samples.Rel), signedPct(ch.Throughput.Rel), signedPct(ch.Mean.Rel),
					signedPct(ch.Median.Rel), signedPct(ch.P90.Rel), signedPct(ch.P99.Rel), ""})
		}
	}
	writeAligned(bw, rows, 2)
	fmt.Fprintf(bw, "\nVerdicts: the response times against the first run's by a %s,\n"+
		"beyond noise when p < %s; error rates by a %s.\n",
		TestMethod, strconv.FormatFloat(c.Alpha, 'g', -1, 64), ErrorTestMethod)
	for _, r := range c.Rows {
		if r.Verdict != nil {
			fmt.Fprintf(bw, "  %s\n", r.Verdict.Text)
		}
	}
	warned := false
	for _, r := range c.Rows {
		if len(r.Warnings) == 0 {
			continue
		}
		if !warned {
			fmt.Fprintf(bw, "\nToo few samples (a percentile wants %d beyond it, a rate %d samples):\n", minBeyond, minRateSamples)
			warned = true
		}
		var items []string
		for _, wn := range r.Warnings {
			items = append(items, fmt.Sprintf("%s (%d wanted)", wn.Figure, wn.Wanted))
		}
		fmt.Fprintf(bw, "  %s, %s: %d samples, too few for %s\n", r.Label, r.Run, r.Samples, strings.Join(items, ", "))
	}
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

// The JSON form of a Comparison; figures that do not exist are null.
type (
	comparisonJSON struct {
		Baseline  string    `json:"baseline"`
		Test      string    `json:"test"`
		ErrorTest string    `json:"errorTest"`
		Alpha     float64   `json:"alpha"`
		Runs      []string  `json:"runs"`
		Rows      []rowJSON `json:"rows"`
	}
	rowJSON struct {
		Label      string         `json:"label"`
		Run        string         `json:"run"`
		Samples    int64          `json:"samples"`
		Errors     int64          `json:"errors"`
		Throughput *float64       `json:"throughput"`
		Mean       *float64       `json:"mean"`
		Median     *float64       `json:"median"`
		P90        *float64       `json:"p90"`
		P95        *float64       `json:"p95"`
		P99        *float64       `json:"p99"`
		ErrorPct   *float64       `json:"errorPct"`
		Change     *changesJSON   `json:"change,omitempty"`
		Test       *testJSON      `json:"mannWhitney,omitempty"`
		ErrorTest  *errorTestJSON `json:"errorRateTest,omitempty"`
		Verdict    *verdictJSON   `json:"verdict,omitempty"`
		Warnings   []Warning      `json:"warnings,omitempty"`
	}
	changeJSON struct {
		Abs *float64 `json:"abs"`
		Rel *float64 `json:"rel"` // percent
	}
	changesJSON struct {
		Samples    changeJSON `json:"samples"`
		Throughput changeJSON `json:"throughput"`
		Mean       changeJSON `json:"mean"`
		Median     changeJSON `json:"median"`
		P90        changeJSON `json:"p90"`
		P95        changeJSON `json:"p95"`
		P99        changeJSON `json:"p99"`
		ErrorPctPP *float64   `json:"errorPctPoints"`
	}
	testJSON struct {
		N1          int64   `json:"n1"`
		N2          int64   `json:"n2"`
		U           float64 `json:"u"`
		Z           float64 `json:"z"`
		P           float64 `json:"p"`
		PSlower     float64 `json:"probSlower"`
		Significant bool    `json:"significant"`
	}
	errorTestJSON struct {
		Z           float64 `json:"z"`
		P           float64 `json:"p"`
		Significant bool    `json:"significant"`
	}
	verdictJSON struct {
		Direction string `json:"direction"` // "slower", "faster" or ""
		Text      string `json:"text"`
	}
)

// num returns a pointer to v, or nil when v is not finite.
func num(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func changeOf(c Change) changeJSON { return changeJSON{Abs: num(c.Abs), Rel: num(c.Rel)} }

// WriteComparisonJSON writes c as JSON with every figure of the text and
// more: per row the samples, errors, throughput, mean, median, p90, p95,
// p99 and error rate; for later runs the change of each (abs in its unit,
// rel in percent; the error rate's in percentage points), the Mann-Whitney
// test (n1, n2, u, z, p, probSlower, significant), the error-rate test (z,
// p, significant), the verdict (direction, text); the warnings. Figures
// that do not exist are null.
func WriteComparisonJSON(w io.Writer, c *Comparison) error {
	out := comparisonJSON{Test: TestMethod, ErrorTest: ErrorTestMethod, Alpha: c.Alpha, Runs: c.Runs, Rows: []rowJSON{}}
	if len(c.Runs) > 0 {
		out.Baseline = c.Runs[0]
	}
	for _, r := range c.Rows {
		j := rowJSON{
			Label: r.Label, Run: r.Run, Samples: r.Samples, Errors: r.Errors,
			Throughput: num(r.Throughput), Mean: num(r.Mean), Median: num(r.Median),
			P90: num(r.P90), P95: num(r.P95), P99: num(r.P99), ErrorPct: num(r.ErrorPct), Warnings: r.Warnings,
		}
		if ch := r.Change; ch != nil {
			j.Change = &changesJSON{
				Samples: changeOf(ch.Samples), Throughput: changeOf(ch.Throughput), Mean: changeOf(ch.Mean),
				Median: changeOf(ch.Median), P90: changeOf(ch.P90), P95: changeOf(ch.P95), P99: changeOf(ch.P99),
				ErrorPctPP: num(ch.ErrorPct.Abs),
			}
		}
		if t := r.Test; t != nil {
			j.Test = &testJSON{N1: t.N1, N2: t.N2, U: t.U, Z: t.Z, P: t.P, PSlower: t.PSlower, Significant: t.Significant(c.Alpha)}
		}
		if t := r.ErrorTest; t != nil {
			j.ErrorTest = &errorTestJSON{Z: t.Z, P: t.P, Significant: t.P < c.Alpha}
		}
		if v := r.Verdict; v != nil {
			j.Verdict = &verdictJSON{Direction: v.Direction, Text: v.Text}
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
