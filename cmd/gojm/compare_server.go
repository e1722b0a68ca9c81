package main

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gojm/gojm/report"
	"github.com/gojm/gojm/report/watch"
)

// writeServerComparison adds the watched servers' figures to a comparison
// when runs carry them: a run's server.csv stands beside its results file,
// as `gojm run --watch` leaves it.
func writeServerComparison(w io.Writer, files []string, runs []report.CompareRun) error {
	rows := make([]watch.CompareRow, len(runs))
	for i, r := range runs {
		t := r.Stats.Total()
		rows[i] = watch.CompareRow{Run: r.Name, Requests: t.Count, RPS: t.Throughput(), Median: t.Median(), P99: t.Percentile(99)}
		path := filepath.Join(filepath.Dir(files[i]), "server.csv")
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		s, err := watch.ReadServerCSV(path)
		if err != nil {
			return err
		}
		rows[i].Server = &s.Summary
	}
	return watch.WriteComparison(w, rows)
}
