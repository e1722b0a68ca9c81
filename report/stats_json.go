package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gojm/gojm/internal/java"
)

// WriteStatisticsJSON writes st as the statistics.json of JMeter's HTML
// dashboard: an object keyed by label, "Total" first then the labels in
// first-seen order, each with the fields transaction, sampleCount,
// errorCount, errorPct, meanResTime, medianResTime, minResTime, maxResTime,
// pct1ResTime..pct3ResTime (the configured percentiles), throughput,
// receivedKBytesPerSec and sentKBytesPerSec, then gojm's own: abortedCount
// (the failed samples gojm itself cut short, counted in errorCount too) and,
// in "Total" when the run was interrupted, interruptedBy (the signal) and
// interruptedAfterMs. Numbers are written as Java (Jackson) writes them:
// doubles always with a fraction or an exponent, errorPct as a float, NaN
// and infinities as strings.
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
			{"errorPct", jsonNumber(java.FloatString(float32(l.ErrorPct())))},
			{"meanResTime", jsonNumber(java.DoubleString(l.Mean()))},
			{"medianResTime", jsonNumber(java.DoubleString(l.Median()))},
			{"minResTime", jsonNumber(java.DoubleString(float64(l.Min())))},
			{"maxResTime", jsonNumber(java.DoubleString(float64(l.Max())))},
			{"pct1ResTime", jsonNumber(java.DoubleString(l.Percentile(p[0])))},
			{"pct2ResTime", jsonNumber(java.DoubleString(l.Percentile(p[1])))},
			{"pct3ResTime", jsonNumber(java.DoubleString(l.Percentile(p[2])))},
			{"throughput", jsonNumber(java.DoubleString(l.Throughput()))},
			{"receivedKBytesPerSec", jsonNumber(java.DoubleString(l.ReceivedKBPerSec()))},
			{"sentKBytesPerSec", jsonNumber(java.DoubleString(l.SentKBPerSec()))},
			{"abortedCount", strconv.FormatInt(l.Aborted, 10)},
		}
		if in := st.Interrupted(); in != nil && i == 0 {
			fields = append(fields, []struct{ k, v string }{
				{"interruptedBy", jsonString(in.Signal)},
				{"interruptedAfterMs", strconv.FormatInt(in.After.Milliseconds(), 10)},
			}...)
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
