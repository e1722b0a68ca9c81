package report

import (
	"bufio"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Properties of JMeter's report generator that StatsOptionsFromProperties
// reads.
const (
	PropApdexSatisfied = "jmeter.reportgenerator.apdex_satisfied_threshold"
	PropApdexTolerated = "jmeter.reportgenerator.apdex_tolerated_threshold"
	PropPercentile1    = "aggregate_rpt_pct1"
	PropPercentile2    = "aggregate_rpt_pct2"
	PropPercentile3    = "aggregate_rpt_pct3"
)

// StatsOptionsFromProperties returns the statistics options JMeter's
// dashboard takes from its properties: the APDEX thresholds in ms
// (jmeter.reportgenerator.apdex_satisfied_threshold, default 500, and
// apdex_tolerated_threshold, default 1500) and the three percentiles of the
// statistics table (aggregate_rpt_pct1..3, default 90, 95, 99). Absent
// properties keep the defaults; a value that is not a number, or a
// satisfied threshold above the tolerated one, is an error naming the
// property.
func StatsOptionsFromProperties(props map[string]string) (StatsOptions, error) {
	var o StatsOptions
	for _, th := range []struct {
		name string
		dst  *time.Duration
	}{{PropApdexSatisfied, &o.ApdexSatisfied}, {PropApdexTolerated, &o.ApdexTolerated}} {
		v, ok := props[th.name]
		if !ok || strings.TrimSpace(v) == "" {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || n <= 0 {
			return o, fmt.Errorf("%s=%q: want a positive number of milliseconds", th.name, v)
		}
		*th.dst = time.Duration(n) * time.Millisecond
	}
	for i, name := range []string{PropPercentile1, PropPercentile2, PropPercentile3} {
		v, ok := props[name]
		if !ok || strings.TrimSpace(v) == "" {
			continue
		}
		p, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || p <= 0 || p > 100 {
			return o, fmt.Errorf("%s=%q: want a percentile above 0 and at most 100", name, v)
		}
		if o.Percentiles == [3]float64{} {
			o.Percentiles = [3]float64{90, 95, 99}
		}
		o.Percentiles[i] = p
	}
	d := o.withDefaults()
	if d.ApdexSatisfied > d.ApdexTolerated {
		return o, fmt.Errorf("APDEX satisfied threshold %v is above the tolerated threshold %v", d.ApdexSatisfied, d.ApdexTolerated)
	}
	return o, nil
}

// PercentileName is the column name of percentile p: "p90", "p99.9".
func PercentileName(p float64) string { return "p" + strconv.FormatFloat(p, 'f', -1, 64) }

// fixed formats v with prec decimals, or "-" when it is not finite.
func fixed(v float64, prec int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', prec, 64)
}

func intOrDash(n, v int64) string {
	if n == 0 {
		return "-"
	}
	return strconv.FormatInt(v, 10)
}

func nanIfEmpty(n int64, v float64) float64 {
	if n == 0 {
		return math.NaN()
	}
	return v
}

// writeAligned writes rows as columns two spaces apart: the first left
// columns left-aligned, the others right-aligned.
func writeAligned(w *bufio.Writer, rows [][]string, left int) {
	var cols int
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	leftAligned := make([]bool, cols)
	for i := range min(left, cols) {
		leftAligned[i] = true
	}
	writeAlignedLeft(w, rows, leftAligned)
}

// writeAlignedLeft writes rows as columns two spaces apart, column i
// left-aligned where left[i], right-aligned otherwise.
func writeAlignedLeft(w *bufio.Writer, rows [][]string, left []bool) {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range rows {
		var line strings.Builder
		for i, c := range r {
			if i > 0 {
				line.WriteString("  ")
			}
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if i < len(left) && left[i] {
				line.WriteString(c)
				line.WriteString(pad)
			} else {
				line.WriteString(pad)
				line.WriteString(c)
			}
		}
		w.WriteString(strings.TrimRight(line.String(), " "))
		w.WriteByte('\n')
	}
}
