package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gojm/gojm/report"
	"github.com/gojm/gojm/report/chart"
	"github.com/gojm/gojm/report/dashboard"
)

// reportCmd reads any JTL (gojm's or JMeter's, CSV with or without a
// header, or XML) and writes the end report a run prints (the table per
// label, the errors, the ab-style block) to stdout and, with -o,
// summary.txt, statistics.json, every chart and the HTML dashboard to a
// folder.
//
// Given a run's output folder (or a split run's folder of segment
// folders), it merges the statistics the run kept (merge.go); gojm merge
// is that, into the folder itself unless -o says otherwise.
func reportCmd(args []string, stdout, stderr io.Writer, merge bool) error {
	name := "report"
	if merge {
		name = "merge"
	}
	fs := newFlagSet(name)
	var rf reportFlags
	rf.register(fs, merge)
	if done, err := parseFlags(fs, name, args, stdout); done || err != nil {
		return err
	}
	out, title, satisfied, tolerated, pf := &rf.out, &rf.title, &rf.satisfied, &rf.tolerated, &rf.props
	if fs.NArg() != 1 {
		return usageErr(name, fmt.Errorf("gojm %s takes one results file or run folder", name))
	}
	jtl := fs.Arg(0)
	if st, err := os.Stat(jtl); err == nil && st.IsDir() || merge {
		if *satisfied != "" || *tolerated != "" {
			return &exitErr{exitUsage, errors.New("--apdex-satisfied and --apdex-tolerated apply to a results file: a run folder keeps the options the run had")}
		}
		if merge && *out == "" {
			*out = jtl
		}
		return reportRunFolder(jtl, *out, *title, stdout)
	}
	props, err := pf.properties()
	if err != nil {
		return err
	}
	for _, th := range []struct{ flag, value, prop string }{
		{"apdex-satisfied", *satisfied, report.PropApdexSatisfied},
		{"apdex-tolerated", *tolerated, report.PropApdexTolerated},
	} {
		d, err := msFlag(th.flag, th.value)
		if err != nil {
			return err
		}
		if d > 0 {
			props[th.prop] = strconv.FormatInt(d.Milliseconds(), 10)
		}
	}
	opt, err := statsOptions(props)
	if err != nil {
		return err
	}
	if *title == "" {
		*title = strings.TrimSuffix(filepath.Base(jtl), filepath.Ext(jtl))
	}

	f, err := os.Open(jtl)
	if err != nil {
		return err
	}
	defer f.Close()
	stats := report.NewStats(opt)
	sinks := report.Sinks{stats}
	var charts *chart.Charts
	var series *dashboard.Series
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return fmt.Errorf("output folder: %w", err)
		}
		charts = chart.New(*title, stats)
		series = dashboard.NewSeries(stats)
		sinks = append(sinks, charts, series)
	}
	if err := report.ReadJTL(f, jtl, sinks, report.ReadOptions{Properties: props}); err != nil {
		return err
	}

	var text strings.Builder
	if err := report.WriteEndReport(&text, stats, report.ABInfo{}); err != nil {
		return err
	}
	fmt.Fprint(stdout, text.String())
	if *out == "" {
		return nil
	}
	page := dashboardPage{title: *title, source: jtl, summary: text.String(), stats: stats, series: series}
	if err := writeReportOutputs(*out, text.String(), page, charts); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nReport in %s (open %s)\n", *out, filepath.Join(*out, dashboard.FileIndex))
	return nil
}

// reportFlags are gojm report's and gojm merge's flags.
type reportFlags struct {
	out, title           string
	satisfied, tolerated string
	props                propFlags
}

func (f *reportFlags) register(fs *pflag.FlagSet, merge bool) {
	fs.StringVarP(&f.out, "output", "o", "", "folder for summary.txt, statistics.json, the charts and the dashboard (index.html)")
	fs.StringVar(&f.title, "title", "", "title of the charts and the dashboard (default: the JTL's file name)")
	if merge {
		return // a run folder keeps the options the run had
	}
	fs.StringVar(&f.satisfied, "apdex-satisfied", "", "APDEX satisfied threshold in ms (jmeter.reportgenerator.apdex_satisfied_threshold, default 500)")
	fs.StringVar(&f.tolerated, "apdex-tolerated", "", "APDEX tolerated threshold in ms (jmeter.reportgenerator.apdex_tolerated_threshold, default 1500)")
	f.props.register(fs)
}

// reportRunFolder is gojm report and gojm merge on a run's folder: the
// statistics its segments kept, merged, and the charts drawn from their
// results files.
func reportRunFolder(dir, out, title string, stdout io.Writer) error {
	m, err := readMerged(dir)
	if err != nil {
		return err
	}
	if title == "" {
		title = m.parts[0].Plan
	}
	if out != "" {
		if err := m.draw(title); err != nil {
			return err
		}
	}
	var text strings.Builder
	text.WriteString(m.header())
	if err := report.WriteEndReport(&text, m.stats, report.ABInfo{}); err != nil {
		return err
	}
	fmt.Fprint(stdout, text.String())
	if out == "" {
		return nil
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("output folder: %w", err)
	}
	page := dashboardPage{title: title, source: dir, summary: text.String(), stats: m.stats, series: m.series}
	if err := writeReportOutputs(out, text.String(), page, m.charts); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nReport in %s (open %s)\n", out, filepath.Join(out, dashboard.FileIndex))
	return nil
}
