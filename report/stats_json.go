package report

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// WriteStatisticsJSON writes st as the statistics.json of JMeter's HTML
// dashboard: an object keyed by label, "Total" first then the labels in
// first-seen order, each with the fields transaction, sampleCount,
// errorCount, errorPct, meanResTime, medianResTime, minResTime, maxResTime,
// pct1ResTime..pct3ResTime (the configured percentiles), throughput,
// receivedKBytesPerSec and sentKBytesPerSec. Numbers are written as Java
// (Jackson) writes them: doubles always with a fraction or an exponent,
// errorPct as a float, NaN and infinities as strings.
func WriteStatisticsJSON(w io.Writer, st *Stats) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("{")
	rows := append([]*LabelStats{st.Total()}, st.Labels()...)
	for i, l := range rows {
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n  ")
		bw.WriteString(jsonString(l.Label))
		bw.WriteString(" : {")
		p := st.opt.Percentiles
		fields := []struct{ k, v string }{
			{"transaction", jsonString(l.Label)},
			{"sampleCount", strconv.FormatInt(l.Count, 10)},
			{"errorCount", strconv.FormatInt(l.Errors, 10)},
			{"errorPct", jsonNumber(JavaFloat(float32(l.ErrorPct())))},
			{"meanResTime", jsonNumber(JavaDouble(l.Mean()))},
			{"medianResTime", jsonNumber(JavaDouble(l.Median()))},
			{"minResTime", jsonNumber(JavaDouble(float64(l.Min())))},
			{"maxResTime", jsonNumber(JavaDouble(float64(l.Max())))},
			{"pct1ResTime", jsonNumber(JavaDouble(l.Percentile(p[0])))},
			{"pct2ResTime", jsonNumber(JavaDouble(l.Percentile(p[1])))},
			{"pct3ResTime", jsonNumber(JavaDouble(l.Percentile(p[2])))},
			{"throughput", jsonNumber(JavaDouble(l.Throughput()))},
			{"receivedKBytesPerSec", jsonNumber(JavaDouble(l.ReceivedKBPerSec()))},
			{"sentKBytesPerSec", jsonNumber(JavaDouble(l.SentKBPerSec()))},
		}
		for j, f := range fields {
			if j > 0 {
				bw.WriteString(",")
			}
			bw.WriteString("\n    \"")
			bw.WriteString(f.k)
			bw.WriteString("\" : ")
			bw.WriteString(f.v)
		}
		bw.WriteString("\n  }")
	}
	if len(rows) > 0 {
		bw.WriteString("\n")
	}
	bw.WriteString("}")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("statistics.json: %w", err)
	}
	return nil
}

// jsonNumber quotes the non-finite values Java prints, as Jackson does.
func jsonNumber(s string) string {
	switch s {
	case "NaN", "Infinity", "-Infinity":
		return `"` + s + `"`
	}
	return s
}

// jsonString quotes s as Jackson does: only the quote, the backslash and
// control characters are escaped.
func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c < 0x20 {
				fmt.Fprintf(&b, `\u%04X`, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// JavaDouble formats v as Java's Double.toString does: the shortest digits
// that round-trip, in plain notation with at least one fraction digit for
// 1e-3 ≤ |v| < 1e7 ("12.0", "12.5"), else as d.dddE±n ("1.0E7", "1.0E-4").
func JavaDouble(v float64) string { return javaFloating(v, 64) }

// JavaFloat formats v as Java's Float.toString does ("99.0", "33.333332").
func JavaFloat(v float32) string { return javaFloating(float64(v), 32) }

func javaFloating(v float64, bitSize int) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	case v == 0:
		if math.Signbit(v) {
			return "-0.0"
		}
		return "0.0"
	}
	if a := math.Abs(v); a >= 1e-3 && a < 1e7 {
		s := strconv.FormatFloat(v, 'f', -1, bitSize)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(v, 'E', -1, bitSize) // 1.2345E+07
	mant, exp, _ := strings.Cut(s, "E")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return mant + "E" + strconv.Itoa(e)
}
