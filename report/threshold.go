package report

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// Threshold is one pass/fail criterion on the whole-run statistics, written
// as `[label:] metric op value`:
//
//	p95<500ms   avg<=200ms   max<2s   error_rate<1%   errors==0
//	rps>100     count>=1000  apdex>0.9   Login: p99<1s
//
// Metrics: avg (or mean), min, max, med (or median), pN for any percentile
// N in (0, 100] (p90, p99.9), all in milliseconds (the value takes a Go
// duration unit, ms, s, m, or none for ms); error_rate in percent ("1%") or
// as a fraction without the sign ("0.01", k6's form); errors and count
// (samples); rps (samples per second over the label's span, the Stats
// throughput); apdex (0 to 1). Operators: < <= > >= == !=.
//
// Without a label the threshold applies to the Total (every sample but
// Transaction Controller samples, as in the statistics table); with one, to
// that label's row. Percentiles are exact (see LabelStats.Percentile).
type Threshold struct {
	// Text is the threshold as written (trimmed).
	Text string
	// Label is the sample label it applies to; "" for the Total.
	Label string
	// Metric is the metric's canonical name: "avg", "p95", "error_rate"…
	Metric string
	// Op is the comparison: "<", "<=", ">", ">=", "==" or "!=".
	Op string
	// Bound is the value compared with, in the metric's unit: ms for
	// times, percent for error_rate, per second for rps.
	Bound float64

	kind metricKind
	pct  float64 // for percentiles
}

type metricKind uint8

const (
	mAvg metricKind = iota
	mMin
	mMax
	mMedian
	mPercentile
	mErrorRate
	mErrors
	mCount
	mRPS
	mApdex
)

var metricNames = map[string]metricKind{
	"avg": mAvg, "mean": mAvg,
	"min": mMin, "max": mMax,
	"med": mMedian, "median": mMedian,
	"error_rate": mErrorRate, "errors": mErrors,
	"count": mCount, "samples": mCount,
	"rps": mRPS, "throughput": mRPS,
	"apdex": mApdex,
}

// canonical names for display
var metricCanon = [...]string{mAvg: "avg", mMin: "min", mMax: "max", mMedian: "med", mErrorRate: "error_rate",
	mErrors: "errors", mCount: "count", mRPS: "rps", mApdex: "apdex"}

// ParseThreshold parses one threshold (see Threshold).
func ParseThreshold(s string) (Threshold, error) {
	t := Threshold{Text: strings.TrimSpace(s)}
	expr := t.Text
	if i := strings.LastIndexByte(expr, ':'); i >= 0 {
		t.Label = strings.TrimSpace(expr[:i])
		expr = strings.TrimSpace(expr[i+1:])
		if t.Label == "" {
			return t, fmt.Errorf("threshold %q: empty label before ':'", s)
		}
	}
	opAt := strings.IndexAny(expr, "<>=!")
	if opAt < 0 {
		return t, fmt.Errorf("threshold %q: no comparison (want e.g. p95<500ms)", s)
	}
	name := strings.ToLower(strings.TrimSpace(expr[:opAt]))
	rest := expr[opAt:]
	for _, op := range []string{"<=", ">=", "==", "!=", "<", ">"} {
		if strings.HasPrefix(rest, op) {
			t.Op = op
			break
		}
	}
	if t.Op == "" {
		return t, fmt.Errorf("threshold %q: unknown comparison %q (want < <= > >= == !=)", s, rest[:1])
	}
	value := strings.TrimSpace(rest[len(t.Op):])
	if err := t.setMetric(name); err != nil {
		return t, fmt.Errorf("threshold %q: %w", s, err)
	}
	b, err := t.parseBound(value)
	if err != nil {
		return t, fmt.Errorf("threshold %q: %w", s, err)
	}
	t.Bound = b
	return t, nil
}

func (t *Threshold) setMetric(name string) error {
	if k, ok := metricNames[name]; ok {
		t.kind, t.Metric = k, metricCanon[k]
		return nil
	}
	if p, ok := strings.CutPrefix(name, "p"); ok && p != "" {
		v, err := strconv.ParseFloat(p, 64)
		if err == nil && v > 0 && v <= 100 {
			t.kind, t.pct, t.Metric = mPercentile, v, name
			return nil
		}
	}
	if name == "" {
		return errors.New("no metric before the comparison")
	}
	return fmt.Errorf("unknown metric %q (want avg, min, max, med, pN, error_rate, errors, count, rps or apdex)", name)
}

func (t *Threshold) parseBound(v string) (float64, error) {
	if v == "" {
		return 0, errors.New("no value after the comparison")
	}
	number := func(s string) (float64, error) {
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, fmt.Errorf("%q is not a number", s)
		}
		return f, nil
	}
	switch t.kind {
	case mAvg, mMin, mMax, mMedian, mPercentile:
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return f, nil // plain milliseconds
		}
		d, err := time.ParseDuration(strings.ReplaceAll(v, " ", ""))
		if err != nil {
			return 0, fmt.Errorf("%q is not a time (want e.g. 500ms, 1.5s or 250)", v)
		}
		return float64(d) / float64(time.Millisecond), nil
	case mErrorRate:
		if p, ok := strings.CutSuffix(v, "%"); ok {
			return number(p)
		}
		f, err := number(v)
		if err != nil {
			return 0, err
		}
		if f > 1 {
			return 0, fmt.Errorf("error_rate %s: a fraction is at most 1 (write %s%% for percent)", v, v)
		}
		return f * 100, nil
	case mRPS:
		v = strings.TrimSuffix(strings.TrimSuffix(v, "/s"), " ")
		return number(v)
	default:
		return number(v)
	}
}

// Monotone reports whether the threshold can be decided before the run
// ends: its metric only moves one way as samples arrive (errors, count and
// max only grow, min only shrinks) and the comparison fails once the metric
// has passed the bound in that direction. Averages, percentiles, rates and
// APDEX can move either way until the last sample, so they are decided at
// the end only.
func (t Threshold) Monotone() bool {
	switch t.kind {
	case mErrors, mCount, mMax:
		return t.Op == "<" || t.Op == "<=" || t.Op == "=="
	case mMin:
		return t.Op == ">" || t.Op == ">=" || t.Op == "=="
	}
	return false
}

// Lost reports whether a Monotone threshold can no longer pass, whatever
// samples still come.
func (t *Threshold) Lost(st *Stats) bool {
	if !t.Monotone() {
		return false
	}
	return t.lostOn(t.row(st))
}

func (t *Threshold) lostOn(l *LabelStats) bool {
	if l == nil || l.Count == 0 {
		return false
	}
	v := t.value(l)
	switch t.kind {
	case mMin: // only shrinks
		return !compare(v, t.Op, t.Bound) && (t.Op != "==" || v < t.Bound)
	default: // only grows
		return !compare(v, t.Op, t.Bound) && (t.Op != "==" || v > t.Bound)
	}
}

func (t *Threshold) row(st *Stats) *LabelStats {
	if t.Label == "" {
		return st.Total()
	}
	return st.Label(t.Label)
}

// value is the metric of one statistics row (which has samples).
func (t *Threshold) value(l *LabelStats) float64 {
	switch t.kind {
	case mAvg:
		return l.Mean()
	case mMin:
		return float64(l.Min())
	case mMax:
		return float64(l.Max())
	case mMedian:
		return l.Median()
	case mPercentile:
		return l.Percentile(t.pct)
	case mErrorRate:
		return l.ErrorPct()
	case mErrors:
		return float64(l.Errors)
	case mCount:
		return float64(l.Count)
	case mRPS:
		return l.Throughput()
	case mApdex:
		return l.Apdex()
	}
	return math.NaN()
}

func compare(v float64, op string, bound float64) bool {
	switch op {
	case "<":
		return v < bound
	case "<=":
		return v <= bound
	case ">":
		return v > bound
	case ">=":
		return v >= bound
	case "==":
		return v == bound
	case "!=":
		return v != bound
	}
	return false
}

// ThresholdResult is a threshold checked against the statistics.
type ThresholdResult struct {
	Threshold
	// Value is the measured metric; NaN when the row has no samples.
	Value float64
	// Samples is the row's sample count.
	Samples int64
	Pass    bool
}

// CheckThresholds evaluates every threshold on st. A threshold whose label
// has no samples fails (a check on a request that never ran is no pass).
func CheckThresholds(st *Stats, ts []Threshold) []ThresholdResult {
	out := make([]ThresholdResult, len(ts))
	for i, t := range ts {
		r := ThresholdResult{Threshold: t, Value: math.NaN()}
		if l := t.row(st); l != nil && l.Count > 0 {
			r.Samples = l.Count
			r.Value = t.value(l)
			r.Pass = !math.IsNaN(r.Value) && compare(r.Value, t.Op, t.Bound)
		}
		out[i] = r
	}
	return out
}

// Failed counts the failed results.
func Failed(rs []ThresholdResult) int {
	n := 0
	for _, r := range rs {
		if !r.Pass {
			n++
		}
	}
	return n
}

// Measured formats the measured value with its unit, or says why there is none.
func (r ThresholdResult) Measured() string {
	if r.Samples == 0 {
		return "no samples"
	}
	return r.format(r.Value)
}

// Want formats the bound with its unit, e.g. "< 500 ms".
func (r ThresholdResult) Want() string { return r.Op + " " + r.format(r.Bound) }

func (t Threshold) format(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	switch t.kind {
	case mAvg, mMin, mMax, mMedian, mPercentile:
		return trimFloat(v, 1) + " ms"
	case mErrorRate:
		return strconv.FormatFloat(v, 'f', 2, 64) + "%"
	case mRPS:
		return trimFloat(v, 2) + "/s"
	case mApdex:
		return strconv.FormatFloat(v, 'f', 3, 64)
	}
	return trimFloat(v, 0)
}

// trimFloat formats v with at most prec decimals, without trailing zeros.
func trimFloat(v float64, prec int) string {
	s := strconv.FormatFloat(v, 'f', prec, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// ReadThresholds reads thresholds from r, one per line; blank lines and
// lines starting with # are skipped. name is used in errors.
func ReadThresholds(r io.Reader, name string) ([]Threshold, error) {
	var out []Threshold
	var errs []error
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		t, err := ParseThreshold(line)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s:%d: %w", name, n, err))
			continue
		}
		out = append(out, t)
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", name, err))
	}
	return out, errors.Join(errs...)
}

// WriteThresholdReport writes the end report's threshold section: one line
// per threshold with its measured value and pass or FAIL.
func WriteThresholdReport(w io.Writer, rs []ThresholdResult) error {
	if len(rs) == 0 {
		return nil
	}
	width := 0
	for _, r := range rs {
		width = max(width, len(r.Text))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Thresholds: %d of %d passed\n", len(rs)-Failed(rs), len(rs))
	for _, r := range rs {
		verdict := "pass"
		if !r.Pass {
			verdict = "FAIL"
		}
		fmt.Fprintf(&b, "  %s  %-*s  ", verdict, width, r.Text)
		switch {
		case r.Samples == 0:
			b.WriteString("no samples")
		case r.Pass:
			fmt.Fprintf(&b, "%s = %s", r.Metric, r.Measured())
		default:
			fmt.Fprintf(&b, "%s = %s (want %s)", r.Metric, r.Measured(), r.Want())
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ThresholdGuard is a Sink that watches the Monotone thresholds while the
// run goes on and calls stop, once, with the first one that can no longer
// pass. Place it after the Stats it reads in the same Sinks, so that it sees
// every sample counted. Add does a few comparisons per threshold on the
// sample's label and the Total; it never allocates.
type ThresholdGuard struct {
	st    *Stats
	ts    []Threshold
	rows  []*LabelStats // each threshold's row once it exists
	stop  func(Threshold)
	fired bool
}

// NewThresholdGuard watches the Monotone ones among ts on st.
func NewThresholdGuard(st *Stats, ts []Threshold, stop func(Threshold)) *ThresholdGuard {
	g := &ThresholdGuard{st: st, stop: stop}
	for _, t := range ts {
		if t.Monotone() {
			g.ts = append(g.ts, t)
		}
	}
	g.rows = make([]*LabelStats, len(g.ts))
	return g
}

// Watching reports how many thresholds the guard can decide early.
func (g *ThresholdGuard) Watching() int { return len(g.ts) }

// Add checks the thresholds the sample may have decided.
func (g *ThresholdGuard) Add(s *Sample) {
	if g.fired {
		return
	}
	for i := range g.ts {
		t := &g.ts[i]
		if t.Label != "" && t.Label != s.Label {
			continue
		}
		if g.rows[i] == nil {
			g.rows[i] = t.row(g.st)
		}
		if t.lostOn(g.rows[i]) {
			g.fired = true
			g.stop(*t)
			return
		}
	}
}

// Close does nothing.
func (g *ThresholdGuard) Close() error { return nil }
