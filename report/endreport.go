package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteEndReport writes the end report of a run, as gojm prints it and
// writes summary.txt: whether the run was interrupted, the table per label
// (WriteLabelTable), the errors (WriteErrorTables), then the ab-style block
// (WriteABReport). Every figure in it is one of st's.
func WriteEndReport(w io.Writer, st *Stats, info ABInfo) error {
	bw := bufio.NewWriter(w)
	if i := st.Interrupted(); i != nil {
		s := i.String()
		fmt.Fprintf(bw, "Run %s: the figures cover the samples until then.\n\n", s)
	}
	for _, write := range []func(io.Writer, *Stats) error{WriteLabelTable, WriteErrorTables} {
		if err := write(bw, st); err != nil {
			return err
		}
		bw.WriteString("\n")
	}
	if err := WriteABReport(bw, st, info); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("end report: %w", err)
	}
	return nil
}

// WriteLabelTable writes the columns of JMeter's Aggregate Report as
// aligned text: a row per label in first-seen order, then the Total, with
// samples, error %, mean, median, the three configured percentiles (the
// dashboard's estimate, exact over every sample), min and max (all in ms),
// throughput (samples/s), received and sent KB/s, then the dashboard's
// APDEX. Figures that do not exist (a mean without samples, a rate over no
// time) are written "-". The
// labels of Transaction Controllers are named under the table: their
// samples are left out of the Total, which counts their samplers.
func WriteLabelTable(w io.Writer, st *Stats) error {
	p := st.opt.Percentiles
	rows := [][]string{{"Label", "Samples", "Error%", "Mean", "Median",
		PercentileName(p[0]), PercentileName(p[1]), PercentileName(p[2]), "Min", "Max", "Req/s", "KB/s in", "KB/s out", "APDEX"}}
	var transactions []string
	for _, l := range append(append([]*LabelStats(nil), st.Labels()...), st.Total()) {
		if l.Transaction {
			transactions = append(transactions, l.Label)
		}
		ps := l.Percentiles([]float64{50, p[0], p[1], p[2]})
		rows = append(rows, []string{
			l.Label,
			strconv.FormatInt(l.Count, 10),
			fixed(l.ErrorPct(), 2) + "%",
			fixed(l.Mean(), 2),
			fixed(ps[0], 2), fixed(ps[1], 2), fixed(ps[2], 2), fixed(ps[3], 2),
			intOrDash(l.Count, l.Min()),
			intOrDash(l.Count, l.Max()),
			fixed(l.Throughput(), 2),
			fixed(l.ReceivedKBPerSec(), 2),
			fixed(l.SentKBPerSec(), 2),
			fixed(l.Apdex(), 3),
		})
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "Statistics per label (times in ms; percentiles over every sample, estimated as JMeter's dashboard does; APDEX T=%d ms, F=%d ms)\n",
		st.sat, st.tol)
	writeAligned(bw, rows, 1)
	if len(transactions) > 0 {
		fmt.Fprintf(bw, "Transaction Controllers, left out of the Total (which counts their samplers): %s\n",
			strings.Join(transactions, ", "))
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("statistics table: %w", err)
	}
	return nil
}

// maxErrorText bounds an error type as the end report prints it.
const maxErrorText = 100

// WriteErrorTables writes the dashboard's two error tables as text: the
// errors by type (count, % of the errors, % of all samples of the Total),
// then the five most frequent error types of each label with errors.
func WriteErrorTables(w io.Writer, st *Stats) error {
	bw := bufio.NewWriter(w)
	t := st.Total()
	if t.Errors == 0 {
		fmt.Fprintf(bw, "Errors: none in %d samples\n", t.Count)
		return flushErr(bw)
	}
	fmt.Fprintf(bw, "Errors: %d of %d samples (%s%%)", t.Errors, t.Count, fixed(t.ErrorPct(), 2))
	if t.Aborted > 0 {
		fmt.Fprintf(bw, ", %d of them aborted by gojm, not by the server or the network", t.Aborted)
	}
	bw.WriteString("\n")
	rows := [][]string{{"Type", "Errors", "% of errors", "% of samples"}}
	for _, e := range st.ErrorsByType() {
		rows = append(rows, []string{errorText(e.Type), strconv.FormatInt(e.Count, 10),
			fixed(float64(e.Count)*100/float64(t.Errors), 2) + "%",
			fixed(float64(e.Count)*100/float64(t.Count), 2) + "%"})
	}
	writeAligned(bw, rows, 1)
	bw.WriteString("\nTop 5 errors by label\n")
	rows = [][]string{{"Label", "Samples", "Errors", "Type", "Errors"}}
	for _, s := range st.TopErrorsBySampler(5) {
		for i, e := range s.Top {
			row := []string{"", "", "", errorText(e.Type), strconv.FormatInt(e.Count, 10)}
			if i == 0 {
				row[0], row[1], row[2] = s.Label, strconv.FormatInt(s.Samples, 10), strconv.FormatInt(s.Errors, 10)
			}
			rows = append(rows, row)
		}
	}
	writeAlignedLeft(bw, rows, []bool{true, false, false, true, false})
	return flushErr(bw)
}

func flushErr(bw *bufio.Writer) error {
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("error tables: %w", err)
	}
	return nil
}

// errorText is an error type on one line, its middle cut out past
// maxErrorText characters.
func errorText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= maxErrorText {
		return s
	}
	head := maxErrorText * 2 / 3
	return string(r[:head]) + "…" + string(r[len(r)-(maxErrorText-head-1):])
}
