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
