package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/spf13/pflag"

	"github.com/gojm/gojm/internal/atomicfile"
	"github.com/gojm/gojm/report"
	"github.com/gojm/gojm/report/chart"
)

// Files gojm compare writes with -o.
const (
	fileCompareText         = "compare.txt"
	fileCompareJSON         = "compare.json"
	fileCompareMeanMedian   = "compare-mean-median.png"
	fileCompareByLabel      = "compare-mean-median-by-label.png"
	fileComparePercentiles  = "compare-percentiles.png"
	maxCompareLabelsInChart = 20
)

// compareCmd reads several JTLs and writes one table comparing them with
// the first: a row per label and run, the change in %, and whether each
// later run's response times differ from the first's beyond noise.
func compareCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("compare")
	var cf compareFlags
	cf.register(fs)
	if done, err := parseFlags(fs, "compare", args, stdout); done || err != nil {
		return err
	}
	files := fs.Args()
	if len(files) < 2 {
		return usageErr("compare", errors.New("gojm compare takes two results files or more"))
	}
	if len(cf.names) > 0 && len(cf.names) != len(files) {
		return &exitErr{exitUsage, fmt.Errorf("%d --name for %d files: give one per file, in order", len(cf.names), len(files))}
	}
	if !(cf.alpha > 0 && cf.alpha < 1) {
		return &exitErr{exitUsage, fmt.Errorf("--alpha %v: want a level between 0 and 1", cf.alpha)}
	}
	props, err := cf.props.properties()
	if err != nil {
		return err
	}
	opt, err := statsOptions(props)
	if err != nil {
		return err
	}
	runNames := cf.names
	if len(runNames) == 0 {
		runNames = defaultRunNames(files)
	}
	runs, err := readRuns(files, runNames, opt, props)
	if err != nil {
		return err
	}
	cmp := report.Compare(runs, cf.alpha)

	var text, js bytes.Buffer
	if err := report.WriteComparison(&text, cmp); err != nil {
		return err
	}
	if err := writeServerComparison(&text, files, runs); err != nil { // compare_server.go
		return err
	}
	if err := report.WriteComparisonJSON(&js, cmp); err != nil {
		return err
	}
	if cf.asJSON {
		stdout.Write(js.Bytes())
	} else {
		stdout.Write(text.Bytes())
	}
	if cf.out == "" {
		return nil
	}
	if err := writeCompareOutputs(cf.out, cf.title, runs, text.Bytes(), js.Bytes()); err != nil {
		return err
	}
	if !cf.asJSON {
		fmt.Fprintf(stdout, "\nComparison in %s\n", cf.out)
	}
	return nil
}

// compareFlags are gojm compare's flags.
type compareFlags struct {
	names      []string
	out, title string
	asJSON     bool
	alpha      float64
	props      propFlags
}

func (f *compareFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&f.names, "name", nil, "name of each run, in the order of the files (default: the file names)")
	fs.StringVarP(&f.out, "output", "o", "", "folder for compare.txt, compare.json and the comparison charts")
	fs.BoolVar(&f.asJSON, "json", false, "print the table as JSON instead of text")
	fs.Float64Var(&f.alpha, "alpha", report.DefaultAlpha, "significance level of the Mann-Whitney U test")
	fs.StringVar(&f.title, "title", "", "subtitle of the comparison charts")
	f.props.register(fs)
}

// defaultRunNames names runs by their files' base names without extension,
// or by their paths where two base names are the same.
func defaultRunNames(files []string) []string {
	names := make([]string, len(files))
	count := map[string]int{}
	for i, f := range files {
		names[i] = strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
		count[names[i]]++
	}
	for i, f := range files {
		if count[names[i]] > 1 {
			names[i] = f
		}
	}
	return names
}

// readRuns reads every file into its own statistics, in parallel.
func readRuns(files, names []string, opt report.StatsOptions, props map[string]string) ([]report.CompareRun, error) {
	runs := make([]report.CompareRun, len(files))
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	for i, file := range files {
		runs[i] = report.CompareRun{Name: names[i], Stats: report.NewStats(opt)}
		wg.Go(func() {
			f, err := os.Open(file)
			if err != nil {
				errs[i] = err
				return
			}
			defer f.Close()
			errs[i] = report.ReadJTL(f, file, runs[i].Stats, report.ReadOptions{Properties: props})
		})
	}
	wg.Wait()
	return runs, errors.Join(errs...)
}

// writeCompareOutputs writes the table (text and JSON) and the charts:
// mean and median of each run's Total, of each label (up to
// maxCompareLabelsInChart labels) when there are several, and the
// percentile curves of every run's Total.
func writeCompareOutputs(dir, title string, runs []report.CompareRun, text, js []byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("output folder: %w", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, fileCompareText), text, 0o644); err != nil {
		return fmt.Errorf("comparison: %w", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, fileCompareJSON), js, 0o644); err != nil {
		return fmt.Errorf("comparison: %w", err)
	}
	var totals, byLabel []chart.Summary
	var curves []chart.PercentileCurve
	var labels []string
	seen := map[string]bool{}
	for _, r := range runs {
		for _, l := range r.Stats.Labels() {
			if !seen[l.Label] && len(labels) < maxCompareLabelsInChart {
				seen[l.Label] = true
				labels = append(labels, l.Label)
			}
		}
	}
	for _, r := range runs {
		t := r.Stats.Total()
		if t.Count > 0 {
			totals = append(totals, chart.Summary{Run: r.Name, Mean: t.Mean(), Median: t.Median()})
		} else {
			totals = append(totals, chart.Summary{Run: r.Name})
		}
		curves = append(curves, chart.CurveOf(r.Name, t))
		for _, label := range labels {
			s := chart.Summary{Run: r.Name, Label: label}
			if l := r.Stats.Label(label); l != nil && l.Count > 0 {
				s.Mean, s.Median = l.Mean(), l.Median()
			}
			byLabel = append(byLabel, s)
		}
	}
	if err := chart.WriteMeanMedianComparison(filepath.Join(dir, fileCompareMeanMedian), title, totals); err != nil {
		return fmt.Errorf("comparison chart: %w", err)
	}
	if len(labels) > 1 {
		sub := title
		if len(seen) < countLabels(runs) {
			sub = strings.TrimPrefix(sub+fmt.Sprintf(" — the first %d labels", len(labels)), " — ")
		}
		if err := chart.WriteMeanMedianComparison(filepath.Join(dir, fileCompareByLabel), sub, byLabel); err != nil {
			return fmt.Errorf("comparison chart: %w", err)
		}
	}
	if err := chart.WritePercentileComparison(filepath.Join(dir, fileComparePercentiles), title, curves); err != nil {
		return fmt.Errorf("comparison chart: %w", err)
	}
	return nil
}

// countLabels is the number of distinct labels across runs.
func countLabels(runs []report.CompareRun) int {
	seen := map[string]bool{}
	for _, r := range runs {
		for _, l := range r.Stats.Labels() {
			seen[l.Label] = true
		}
	}
	return len(seen)
}
