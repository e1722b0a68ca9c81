package watch

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// CompareRow is one run in a comparison of deployments: what the load tool
// measured beside what the watched server did.
type CompareRow struct {
	Run      string
	Requests int64
	RPS      float64  // requests per second
	Median   float64  // ms
	P99      float64  // ms
	Server   *Summary // nil when the run was not watched
}

// WriteComparison writes the server table of `gojm compare`: req/s,
// median, p99, the server's mean and peak CPU, peak RSS and requests per
// CPU-second, one row per run ("–" where a run was not watched). It writes
// nothing when no run was watched.
func WriteComparison(w io.Writer, rows []CompareRow) error {
	watched := false
	for _, r := range rows {
		watched = watched || r.Server != nil
	}
	if !watched {
		return nil
	}
	fmt.Fprintln(w, "\nServer (watched processes, from server.csv beside each results file)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "run\treq/s\tmedian ms\tp99 ms\tCPU mean %\tCPU peak %\tpeak RSS MiB\treq per CPU-s\t")
	for _, r := range rows {
		if r.Server == nil {
			fmt.Fprintf(tw, "%s\t%.1f\t%.0f\t%.0f\t–\t–\t–\t–\t\n", r.Run, r.RPS, r.Median, r.P99)
			continue
		}
		t := r.Server.Total
		perCPU := "n/a"
		if v := r.Server.RequestsPerCPUSecond(r.Requests); v > 0 {
			perCPU = fmt.Sprintf("%.1f", v)
		}
		fmt.Fprintf(tw, "%s\t%.1f\t%.0f\t%.0f\t%.1f\t%.1f\t%.1f\t%s\t\n", r.Run, r.RPS, r.Median, r.P99,
			t.MeanCPU, t.PeakCPU, float64(t.PeakRSS)/(1<<20), perCPU)
	}
	return tw.Flush()
}
