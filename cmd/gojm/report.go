package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gojm/gojm/report"
	"github.com/gojm/gojm/report/chart"
)

// reportCmd reads any JTL (gojm's or JMeter's, CSV or XML) and writes the
// ab-style report to stdout and, with -o, statistics and charts to a folder.
func reportCmd(args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("gojm report", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.StringP("output", "o", "", "folder for statistics.json, summary.txt and charts")
	propFile := fs.StringP("propfile", "p", "", "JMeter properties giving the columns of a CSV without a header")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil
		}
		return &exitErr{exitUsage, err}
	}
	if fs.NArg() != 1 {
		return &exitErr{exitUsage, errors.New("usage: gojm report RESULTS.jtl [-o DIR]")}
	}
	var opt report.ReadOptions
	if *propFile != "" {
		props, err := report.ReadProperties(*propFile)
		if err != nil {
			return err
		}
		opt.Properties = props
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	defer f.Close()
	stats := report.NewStats(report.StatsOptions{})
	sinks := report.Sinks{stats}
	var charts *chart.Charts
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return fmt.Errorf("output folder: %w", err)
		}
		charts = chart.New(fs.Arg(0))
		sinks = append(sinks, charts)
	}
	if err := report.ReadJTL(f, fs.Arg(0), sinks, opt); err != nil {
		return err
	}
	var summary strings.Builder
	if err := report.WriteABReport(&summary, stats, report.ABInfo{}); err != nil {
		return err
	}
	fmt.Fprint(stdout, summary.String())
	if *out != "" {
		if err := writeOutputs(*out, summary.String(), stats, charts, nil); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "\nReport in %s\n", *out)
	}
	return nil
}
