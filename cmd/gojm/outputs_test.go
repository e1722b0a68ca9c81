package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gojm/gojm/report/chart"
	"github.com/gojm/gojm/report/dashboard"
)

// A run with -e writes the dashboard from its live sinks, with gojm's
// command line and with JMeter's (-n -t -l -e -o).
func TestRunDashboard(t *testing.T) {
	host, port, _ := bookServer(t)
	tests := []struct {
		name string
		args func(out string) []string
	}{
		{"gojm run", func(out string) []string {
			return []string{"run", "../../engine/testdata/book.jmx", "-e", "-o", out, "-J", "host=" + host, "-J", "port=" + port}
		}},
		{"JMeter's command line", func(out string) []string {
			return []string{"-n", "-t", "../../engine/testdata/book.jmx", "-l", filepath.Join(filepath.Dir(out), "r.jtl"), "-e", "-o", out,
				"-Jhost=" + host, "-Jport=" + port}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			var stdout, stderr bytes.Buffer
			if code := run(tt.args(out), &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			page, err := os.ReadFile(filepath.Join(out, dashboard.FileIndex))
			if err != nil {
				t.Fatal(err)
			}
			html := string(page)
			if !regexp.MustCompile(`<tr class="total"><td class="text">Total</td><td>100</td><td>0</td>`).MatchString(html) {
				t.Errorf("statistics table lacks the Total of 100 samples")
			}
			for _, want := range []string{`id="apdex-table"`, `<p id="no-errors">No errors.</p>`, `src="` + chart.FileGraphResults + `"`} {
				if !strings.Contains(html, want) {
					t.Errorf("dashboard lacks %s", want)
				}
			}
			for _, m := range regexp.MustCompile(`<img src="([^"]+)"`).FindAllStringSubmatch(html, -1) {
				if _, err := os.Stat(filepath.Join(out, m[1])); err != nil {
					t.Errorf("dashboard shows a missing chart: %v", err)
				}
			}
		})
	}
}

// Without -e there is no dashboard.
func TestRunWithoutDashboard(t *testing.T) {
	host, port, _ := bookServer(t)
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"run", "../../engine/testdata/book.jmx", "-o", out, "-J", "host=" + host, "-J", "port=" + port}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(out, dashboard.FileIndex)); err == nil {
		t.Error("index.html written without -e")
	}
}

func TestPNGChartsOrder(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"graph-results-Zeta.png", chart.FileTimeVsThreads, chart.FileGraphResults, "notes.txt", "graph-results-Alpha.png"} {
		os.WriteFile(filepath.Join(dir, f), nil, 0o644)
	}
	got, err := pngCharts(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{chart.FileGraphResults, chart.FileTimeVsThreads, "graph-results-Alpha.png", "graph-results-Zeta.png"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("charts %q, want %q", got, want)
	}
}

// JMeter's command line refuses an -o folder that is not empty, as JMeter
// 5.6 does, and -f deletes it first; a dashboard made from a results file
// the run appended to covers every row in it, as JMeter's report generator
// (which reads the file) does, while the end report tells this run's.
func TestJMeterOutputFolder(t *testing.T) {
	host, port, _ := bookServer(t)
	dir := t.TempDir()
	jtl := filepath.Join(dir, "r.jtl")
	jmeter := func(out string, extra ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		args := append([]string{"-n", "-t", "../../engine/testdata/book.jmx", "-l", jtl, "-e", "-o", out, "-Jhost=" + host, "-Jport=" + port}, extra...)
		code := run(args, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	first := filepath.Join(dir, "first")
	if code, _, stderr := jmeter(first); code != 0 {
		t.Fatalf("first run: exit %d: %s", code, stderr)
	}
	// Again into the same folder: refused before anything runs.
	before, _ := os.ReadFile(jtl)
	code, _, stderr := jmeter(first)
	if code != exitUsage || !strings.Contains(stderr, "cannot write to the output folder "+first+": it is not empty (-f deletes it first") {
		t.Errorf("a non-empty -o: exit %d, %s", code, stderr)
	}
	if after, _ := os.ReadFile(jtl); !bytes.Equal(before, after) {
		t.Error("the refused run wrote to the results file")
	}
	// Into a new folder: the results file gets a second run's rows, and the
	// dashboard and statistics.json count both runs.
	second := filepath.Join(dir, "second")
	code, stdout, stderr := jmeter(second)
	if code != 0 {
		t.Fatalf("second run: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "Complete requests:      100") {
		t.Errorf("the end report is not this run's 100 samples:\n%s", stdout)
	}
	stats, err := os.ReadFile(filepath.Join(second, "statistics.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`"Total" : \{\s+"transaction" : "Total",\s+"sampleCount" : 200,`).Match(stats) {
		t.Errorf("statistics.json does not count the 200 rows of the results file:\n%.300s", stats)
	}
	page, _ := os.ReadFile(filepath.Join(second, dashboard.FileIndex))
	if !strings.Contains(string(page), `<tr class="total"><td class="text">Total</td><td>200</td><td>0</td>`) {
		t.Error("the dashboard does not count the 200 rows of the results file")
	}
	// -f deletes the results file and the folder first.
	if code, _, stderr := jmeter(first, "-f"); code != 0 {
		t.Fatalf("with -f: exit %d: %s", code, stderr)
	}
	stats, _ = os.ReadFile(filepath.Join(first, "statistics.json"))
	if !regexp.MustCompile(`"sampleCount" : 100,`).Match(stats) {
		t.Errorf("with -f, statistics.json does not count the one run:\n%.300s", stats)
	}
}
