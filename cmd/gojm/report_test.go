package main

import (
	"bytes"
	"encoding/json"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gojm/gojm/report/chart"
	"github.com/gojm/gojm/report/dashboard"
)

// gojm report on small files whose statistics are worked out by hand in
// report's own tests: the whole stdout is golden here.
func TestReportGolden(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		golden string
	}{
		{"2.x header-less CSV", []string{"../../report/testdata/jtl/v2_headerless.csv", "-p", "../../report/testdata/jtl/jmeter2.properties"}, "report-v2.txt"},
		{"XML with sub-samples", []string{"../../report/testdata/jtl/subsamples.xml"}, "report-subsamples.txt"},
		// APDEX thresholds as flags: Home's 100 and 300 ms satisfied at
		// 300, its 1600 ms frustrated at 1000; "Log;in" 500 tolerated.
		{"APDEX flags", []string{"../../report/testdata/jtl/v2_headerless.csv", "-p", "../../report/testdata/jtl/jmeter2.properties",
			"--apdex-satisfied", "300", "--apdex-tolerated", "1s"}, "report-apdex.txt"},
		// The same from a property, as JMeter's user.properties would.
		{"APDEX property", []string{"../../report/testdata/jtl/v2_headerless.csv", "-p", "../../report/testdata/jtl/jmeter2.properties",
			"-J", "jmeter.reportgenerator.apdex_satisfied_threshold=300", "-Jjmeter.reportgenerator.apdex_tolerated_threshold=1000"}, "report-apdex.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(append([]string{"report"}, tt.args...), &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			golden(t, tt.golden, stdout.String())
		})
	}
	// The APDEX cells of the flags case, by hand: Home (2 satisfied + 0) / 3,
	// Log;in (0 + 1/2) / 1, Total over all 6 samples (2 + 1/2) / 6.
	want, _ := os.ReadFile(filepath.Join("testdata", "report-apdex.txt"))
	for label, apdex := range map[string]string{"Home": "0.667", "Log;in": "0.500", "Total": "0.417"} {
		re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(label) + ` .* ` + regexp.QuoteMeta(apdex) + `$`)
		if !re.Match(want) {
			t.Errorf("APDEX of %s is not %s in:\n%s", label, apdex, want)
		}
	}
}

func TestReportUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no file", []string{"report"}, exitUsage, "takes one results file"},
		{"missing file", []string{"report", "nope.jtl"}, exitError, "no such file"},
		{"bad APDEX", []string{"report", "x.jtl", "--apdex-satisfied", "soon"}, exitUsage, "--apdex-satisfied"},
		{"satisfied above tolerated", []string{"report", "../../report/testdata/jtl/subsamples.xml", "--apdex-satisfied", "3000"}, exitUsage, "above the tolerated"},
		{"bad -J", []string{"report", "x.jtl", "-J", "novalue"}, exitUsage, "want name=value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(tt.args, &stdout, &stderr); code != tt.code {
				t.Errorf("exit %d, want %d", code, tt.code)
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr lacks %q:\n%s", tt.want, stderr.String())
			}
		})
	}
}

// jmeterSummary is JMeter 2.13's final summariser line.
var jmeterSummary = regexp.MustCompile(`summary = +(\d+) in .* Avg: +(\d+) Min: +(\d+) Max: +(\d+) Err: +(\d+) \(`)

// gojm report on JTLs that real JMeter 2.13 wrote (a header-less CSV and
// an XML file) finds the count, errors, mean, min and max of JMeter's own
// summary line for that run. JMeter's Avg is the mean truncated to a whole
// millisecond.
//
// The header-less CSV reads as well with JMeter 2.13's own jmeter.properties
// (Debian's jmeter package, which scripts/test-deps.sh installs), which sets
// none of the columns but documents 2.13's defaults in its comments.
func TestReportMatchesJMeter213(t *testing.T) {
	dir := filepath.Join("testdata", "jmeter213")
	const debian = "/usr/share/jmeter/bin/jmeter.properties"
	tests := []struct{ name, jtl, props, stdout string }{
		{"csv.jtl", "csv.jtl", filepath.Join(dir, "jmeter213.properties"), "csv.stdout.txt"},
		{"xml.jtl", "xml.jtl", filepath.Join(dir, "jmeter213.properties"), "xml.stdout.txt"},
		{"csv.jtl with JMeter's jmeter.properties", "csv.jtl", debian, "csv.stdout.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := os.Stat(tt.props); err != nil {
				t.Skipf("%v (scripts/test-deps.sh installs Debian's jmeter package)", err)
			}
			console, err := os.ReadFile(filepath.Join(dir, tt.stdout))
			if err != nil {
				t.Fatal(err)
			}
			m := jmeterSummary.FindStringSubmatch(string(console))
			if m == nil {
				t.Fatalf("no summary line in %s", tt.stdout)
			}
			want := make([]int64, 5)
			for i := range want {
				want[i], _ = strconv.ParseInt(m[i+1], 10, 64)
			}
			out := filepath.Join(t.TempDir(), "out")
			var stdout, stderr bytes.Buffer
			args := []string{"report", filepath.Join(dir, tt.jtl), "-p", tt.props, "-o", out}
			if code := run(args, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			data, err := os.ReadFile(filepath.Join(out, "statistics.json"))
			if err != nil {
				t.Fatal(err)
			}
			var stats map[string]map[string]any
			if err := json.Unmarshal(data, &stats); err != nil {
				t.Fatal(err)
			}
			total := stats["Total"]
			got := []int64{
				int64(total["sampleCount"].(float64)),
				int64(math.Floor(total["meanResTime"].(float64))),
				int64(total["minResTime"].(float64)),
				int64(total["maxResTime"].(float64)),
				int64(total["errorCount"].(float64)),
			}
			names := []string{"count", "Avg", "Min", "Max", "Err"}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("%s %d, JMeter's summary says %d (%s)", names[i], got[i], want[i], m[0])
				}
			}
			ab := "Complete requests:      " + m[1] + " (samples, Transaction Controller samples not counted)\nFailed requests:        " + m[5] + "\n"
			if !strings.Contains(stdout.String(), ab) {
				t.Errorf("ab report lacks\n%s in:\n%s", ab, stdout.String())
			}
		})
	}
}

// A header-less CSV whose columns the properties do not give fails with
// the columns expected and what to give: -p or -J.
func TestReportHeaderlessNeedsProperties(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"report", filepath.Join("testdata", "jmeter213", "csv.jtl")}, &stdout, &stderr)
	for _, want := range []string{
		"csv.jtl:1: ", "row has 12 fields, expected 17", "the file has no header line",
		"give 17 (timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect)",
		"give the jmeter.properties of the JMeter that wrote it with -p",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("exit %d; the error lacks %q:\n%s", code, want, stderr.String())
		}
	}
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
}

// gojm report -o writes the summary, statistics.json, every chart and the
// dashboard; the PNGs decode at 1200×700 with their series colours.
func TestReportOutputFolder(t *testing.T) {
	dir := filepath.Join("testdata", "jmeter213")
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	args := []string{"report", filepath.Join(dir, "csv.jtl"), "-p", filepath.Join(dir, "jmeter213.properties"), "-o", out, "--title", "Oracle run"}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	summary, err := os.ReadFile(filepath.Join(out, "summary.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stdout.String(), string(summary)) || !strings.Contains(string(summary), "Statistics per label (times in ms") {
		t.Errorf("summary.txt is not the report printed:\n%s", summary)
	}
	for _, f := range []string{"statistics.json", dashboard.FileIndex, chart.FileGraphResults, chart.FileResponseTimesOverTime,
		chart.FileLatenciesOverTime, chart.FileConnectTimesOverTime, chart.FileThroughputOverTime, chart.FileResponseCodesPerSecond,
		chart.FileActiveThreadsOverTime, chart.FileResponseTimePercentiles, chart.FileResponseTimeDistribution, chart.FileTimeVsThreads} {
		info, err := os.Stat(filepath.Join(out, f))
		if err != nil || info.Size() == 0 {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if filepath.Ext(f) == ".png" {
			img := decodePNG(t, filepath.Join(out, f))
			if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 700 {
				t.Errorf("%s is %v, want 1200×700", f, b.Size())
			}
		}
	}
	img := decodePNG(t, filepath.Join(out, chart.FileGraphResults))
	for name, c := range map[string]color.RGBA{"mean (blue)": {0, 0, 255, 255}, "median (purple)": {128, 0, 128, 255}} {
		if n := countColour(img, c); n < 50 {
			t.Errorf("Graph Results %s line: %d pixels, want a visible line", name, n)
		}
	}
	page, err := os.ReadFile(filepath.Join(out, dashboard.FileIndex))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<h1>Oracle run</h1>", `<img src="graph-results.png"`, `<td class="text">Assertion failed</td>`,
		`<td class="text">404/Not Found</td>`, `<td class="text">Checked</td>`} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("dashboard lacks %s", want)
		}
	}
}
