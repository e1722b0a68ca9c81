package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/gojm/gojm/report"
	"github.com/gojm/gojm/report/chart"
	"github.com/gojm/gojm/report/watch"
)

// serverWatch samples the processes named by --watch while a run lasts.
type serverWatch struct {
	w   *watch.Watcher
	csv *os.File // server.csv in the output folder; nil without one
	dir string
}

// startWatch starts watching targets (PIDs or command names). Without
// /proc it says so and the run goes on unwatched.
func startWatch(targets []string, outDir string, stderr io.Writer) (*serverWatch, error) {
	if len(targets) == 0 {
		return nil, nil
	}
	sw := &serverWatch{dir: outDir}
	var opts []watch.Option
	if outDir != "" {
		f, err := os.Create(filepath.Join(outDir, "server.csv"))
		if err != nil {
			return nil, fmt.Errorf("--watch: %w", err)
		}
		sw.csv = f
		opts = append(opts, watch.WithCSV(f))
	}
	w, err := watch.Start(context.Background(), targets, time.Second, opts...)
	if err != nil {
		if sw.csv != nil {
			sw.csv.Close()
			os.Remove(sw.csv.Name())
		}
		if errors.Is(err, watch.ErrNoProc) {
			fmt.Fprintf(stderr, "gojm: %v\n", err)
			return nil, nil
		}
		return nil, &exitErr{exitUsage, fmt.Errorf("--watch: %w", err)}
	}
	sw.w = w
	return sw, nil
}

// finish stops watching and writes the server block to the end report,
// and server.csv's chart beside the run's throughput and response times.
func (sw *serverWatch) finish(summary io.Writer, stats *report.Stats, charts *chart.Charts) error {
	sum, err := sw.w.Stop()
	if sw.csv != nil {
		if cerr := sw.csv.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("--watch: %w", err)
	}
	fmt.Fprintln(summary)
	if err := watch.WriteSummary(summary, sum, stats.Total().Count); err != nil {
		return err
	}
	if sw.csv == nil || charts == nil {
		return nil
	}
	series, err := watch.ReadServerCSV(sw.csv.Name())
	if err != nil {
		return fmt.Errorf("--watch: %w", err)
	}
	r := charts.Timeline.Rates()
	return watch.SaveChart(filepath.Join(sw.dir, watch.ChartName), series,
		watch.RunSeries{Start: r.Start, Step: r.Step.Seconds(), Throughput: r.Throughput, MeanResponse: r.MeanResponse})
}
