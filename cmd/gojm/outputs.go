package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/gojm/gojm/engine"
	"github.com/gojm/gojm/internal/atomicfile"
	"github.com/gojm/gojm/report"
	"github.com/gojm/gojm/report/chart"
	"github.com/gojm/gojm/report/dashboard"
)

// The end outputs shared by gojm run and gojm report: statistics options
// from JMeter's properties, the statistics table, and the HTML dashboard.

// propFlags are the property flags of gojm report and gojm compare, as on
// JMeter's command line: -p (instead of jmeter.properties), -q (more),
// -J name=value.
type propFlags struct {
	propFile string
	addProps []string
	props    []string
}

func (f *propFlags) register(fs *pflag.FlagSet) {
	fs.StringVarP(&f.propFile, "propfile", "p", "", "JMeter properties file (e.g. the jmeter.properties that wrote the JTL: columns of a CSV without a header)")
	fs.StringArrayVarP(&f.addProps, "addprop", "q", nil, "more properties from a file")
	fs.StringArrayVarP(&f.props, "jmeterproperty", "J", nil, "set a property: -J name=value")
}

// properties reads -p, -q then -J, later ones winning. These commands read
// results files, so the -p file is taken as the jmeter.properties of the
// JMeter that wrote them: where it leaves a jmeter.save.saveservice setting
// commented out, the default it documents there (that version's) applies,
// so a JMeter 2.x file without a header line is read with 2.x's columns
// (report.SaveServiceDefaults).
func (f *propFlags) properties() (map[string]string, error) {
	props, err := gatherProperties(f.propFile, f.addProps, f.props)
	if err != nil || f.propFile == "" {
		return props, err
	}
	defaults, err := report.SaveServiceDefaults(f.propFile)
	if err != nil {
		return nil, err
	}
	for k, v := range defaults {
		if _, set := props[k]; !set {
			props[k] = v
		}
	}
	return props, nil
}

// gatherProperties reads JMeter properties in JMeter's order of
// precedence: the -p file, then the -q files, then name=value assignments
// (-J, -G), later ones winning.
func gatherProperties(propFile string, addProps, assignments []string) (map[string]string, error) {
	props := map[string]string{}
	files := addProps
	if propFile != "" {
		files = append([]string{propFile}, files...)
	}
	for _, file := range files {
		m, err := report.ReadProperties(file)
		if err != nil {
			return nil, err
		}
		for k, v := range m {
			props[k] = v
		}
	}
	for _, kv := range assignments {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, &exitErr{exitUsage, fmt.Errorf("-J %q: want name=value", kv)}
		}
		props[strings.TrimSpace(k)] = v
	}
	return props, nil
}

// statsOptions returns the statistics options JMeter's dashboard would use
// with props (APDEX thresholds, percentiles), counting sub-results as
// samples when the save service writes them (jmeter.save.saveservice.subresults,
// true by default), as the dashboard does reading the CSV such a run writes.
func statsOptions(props map[string]string) (report.StatsOptions, error) {
	opt, err := report.StatsOptionsFromProperties(props)
	if err != nil {
		return opt, &exitErr{exitUsage, err}
	}
	cfg, err := report.SaveConfigFromProperties(props)
	if err != nil {
		return opt, &exitErr{exitUsage, err}
	}
	opt.SubResults = cfg.SubResults
	return opt, nil
}

// runStatsOptions is statsOptions for a live run: a bad APDEX or
// percentile property is reported and the defaults are used, since the
// run itself does not depend on them.
func runStatsOptions(props map[string]string, subResults bool, log *slog.Logger) report.StatsOptions {
	opt, err := report.StatsOptionsFromProperties(props)
	if err != nil {
		log.Warn("statistics use the default APDEX thresholds and percentiles", "err", err)
		opt = report.StatsOptions{}
	}
	opt.SubResults = subResults
	return opt
}

// dashboardPage is what writeDashboard needs beyond the folder.
type dashboardPage struct {
	title   string // plan or run name
	source  string // the JTL, or the plan of a live run
	summary string // the end report
	stats   *report.Stats
	series  *dashboard.Series // the interactive charts' figures; nil draws none
}

// writeDashboard writes DIR/index.html over the statistics and
// every PNG chart already in dir.
func writeDashboard(dir string, p dashboardPage) error {
	charts, err := pngCharts(dir)
	if err != nil {
		return err
	}
	return dashboard.Write(dir, dashboard.Page{
		Title: p.title, Source: p.source, Generated: time.Now(),
		Stats: p.stats, Series: p.series, Summary: p.summary, Charts: charts,
	})
}

// chartOrder is the order of the dashboard's charts; other PNGs in the
// folder (one per Graph Results listener of the plan) follow by name.
var chartOrder = []string{
	chart.FileGraphResults,
	chart.FileResponseTimesOverTime,
	chart.FileResponseTimePercentiles,
	chart.FileResponseTimeDistribution,
	chart.FileThroughputOverTime,
	chart.FileResponseCodesPerSecond,
	chart.FileActiveThreadsOverTime,
	chart.FileTimeVsThreads,
	chart.FileLatenciesOverTime,
	chart.FileConnectTimesOverTime,
}

// pngCharts lists the PNG files in dir in the dashboard's order.
func pngCharts(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("dashboard: %w", err)
	}
	rank := func(name string) int {
		if i := slices.Index(chartOrder, name); i >= 0 {
			return i
		}
		return len(chartOrder)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.EqualFold(filepath.Ext(e.Name()), ".png") {
			names = append(names, e.Name())
		}
	}
	slices.SortStableFunc(names, func(a, b string) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		return strings.Compare(a, b)
	})
	return names, nil
}

// writeReportOutputs writes everything gojm report puts in its folder:
// summary.txt (the text printed), statistics.json, every chart and the
// dashboard.
func writeReportOutputs(dir, text string, p dashboardPage, charts *chart.Charts) error {
	if err := writeSummaryFiles(dir, text, p.stats); err != nil {
		return err
	}
	if _, err := charts.WriteAll(dir); err != nil {
		return fmt.Errorf("charts: %w", err)
	}
	return writeDashboard(dir, p)
}

// writeSummaryFiles writes summary.txt (the end report's text) and
// statistics.json into dir, each whole or not at all (written aside and
// renamed), so that a reader or a killed gojm never leaves half of one.
func writeSummaryFiles(dir, text string, stats *report.Stats) error {
	if err := atomicfile.WriteFile(filepath.Join(dir, "summary.txt"), []byte(text), 0o644); err != nil {
		return fmt.Errorf("summary: %w", err)
	}
	err := atomicfile.Write(filepath.Join(dir, "statistics.json"), 0o644, func(w io.Writer) error {
		return report.WriteStatisticsJSON(w, stats)
	})
	if err != nil {
		return fmt.Errorf("statistics.json: %w", err)
	}
	return nil
}

// msFlag parses a flag value in milliseconds ("500") or as a duration
// ("1.5s"); 0 when empty.
func msFlag(name, v string) (time.Duration, error) {
	if v == "" {
		return 0, nil
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 {
		return time.Duration(n) * time.Millisecond, nil
	}
	if d, err := time.ParseDuration(v); err == nil && d > 0 {
		return d, nil
	}
	return 0, &exitErr{exitUsage, fmt.Errorf("--%s %q: want milliseconds (500) or a duration (1.5s)", name, v)}
}

// writeRunDashboard writes the dashboard of a live run into dir, once its
// charts are written; it does nothing without series (no -e).
func writeRunDashboard(dir string, p *engine.Plan, summary string, stats *report.Stats, series *dashboard.Series) error {
	if series == nil {
		return nil
	}
	return writeDashboard(dir, dashboardPage{
		title: p.Name, source: "run of " + p.File, summary: summary, stats: stats, series: series,
	})
}
