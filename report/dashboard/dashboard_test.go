package dashboard

import (
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gojm/gojm/report"
	"github.com/gojm/gojm/report/chart"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var t0 = time.UnixMilli(1700000000000)

// run feeds a small run to the statistics and (when charts is not nil)
// the charts: two pages and a login that fails, a
// label that needs escaping, and a transaction.
func run(st *report.Stats, charts *chart.Charts) {
	sinks := report.Sinks{st}
	if charts != nil {
		sinks = append(sinks, charts)
	}
	for i := range 40 {
		at := t0.Add(time.Duration(i) * 250 * time.Millisecond)
		add := func(label string, ms int, code, msg string, ok bool, failure string) {
			sinks.Add(&report.Sample{
				Start: at, Elapsed: time.Duration(ms) * time.Millisecond, Latency: time.Duration(ms/2) * time.Millisecond,
				Label: label, Code: code, Message: msg, Success: ok, FailureMessage: failure,
				ThreadName: "Users 1-1", Bytes: 2048, SentBytes: 256, GrpThreads: 1 + i%4, AllThreads: 1 + i%4,
			})
		}
		add("Home", 20+i%7*10, "200", "OK", true, "")
		add(`Search <"q">`, 120+i*15, "200", "OK", i%10 != 3, "Test failed: text expected to contain /result/")
		switch i % 5 {
		case 0:
			add("Login", 300, "500", "Internal Server Error", false, "")
		case 1:
			add("Login", 45, "Non HTTP response code: java.net.ConnectException", "Non HTTP response message: Connection refused", false, "")
		default:
			add("Login", 80+i, "200", "OK", true, "")
		}
		add("Browse", 500+i*20, "", "Number of samples in transaction : 3, number of failing samples : 0", true, "")
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update rewrites it); got:\n%s", path, got)
	}
}

func TestWriteGolden(t *testing.T) {
	st := report.NewStats(report.StatsOptions{ApdexSatisfied: 100 * time.Millisecond, ApdexTolerated: 400 * time.Millisecond})
	run(st, nil)
	dir := t.TempDir()
	page := Page{
		Title: "Shop <test>", Source: "results.jtl", Generated: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Location: time.UTC, Stats: st, Summary: "Complete requests: 160 <ok>\n",
		Charts: []string{chart.FileGraphResults, chart.FileResponseTimesOverTime, "graph-results-Mine.png"},
	}
	if err := Write(dir, page); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, FileIndex))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "index.html", got)
	html := string(got)
	for _, want := range []string{
		`<td class="text">Search &lt;&#34;q&#34;&gt;</td>`, // escaped, never markup
		`<h1>Shop &lt;test&gt;</h1>`,
		`<th>T (Toleration threshold)</th>`, `<td>100 ms</td><td>400 ms</td>`,
		`<td class="text">500/Internal Server Error</td>`,
		`<td class="text">Test failed: text expected to contain /result/</td>`,
		`<img src="graph-results-Mine.png" alt="graph-results-Mine.png"`,
		`<img src="response-times-over-time.png" alt="Response Times Over Time"`,
		`Complete requests: 160 &lt;ok&gt;`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	// Offline: nothing that could be fetched, no script.
	if m := regexp.MustCompile(`(?i)(https?:|//[a-z]|<script|@import|url\()`).FindString(html); m != "" {
		t.Errorf("page refers to something outside its folder or runs a script: %q", m)
	}
}

func TestWriteNoErrorsNoCharts(t *testing.T) {
	st := report.NewStats(report.StatsOptions{})
	st.Add(&report.Sample{Start: t0, Elapsed: time.Millisecond, Label: "ok", Success: true, Code: "200"})
	dir := t.TempDir()
	if err := Write(dir, Page{Stats: st, Generated: t0}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, FileIndex))
	for _, want := range []string{`<p id="no-errors">No errors.</p>`, `<h1>Test results</h1>`} {
		if !bytes.Contains(got, []byte(want)) {
			t.Errorf("page lacks %s", want)
		}
	}
	if bytes.Contains(got, []byte(`id="charts"`)) {
		t.Error("a charts section without charts")
	}
	if bytes.Contains(got, []byte(`id="interrupted"`)) {
		t.Error("a run that was not interrupted is said to be")
	}
	st.SetInterrupted(report.Interruption{Signal: "SIGINT", After: 13 * time.Second})
	if err := Write(dir, Page{Stats: st, Generated: t0}); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(filepath.Join(dir, FileIndex))
	if want := `<dd id="interrupted">interrupted after 0:13 by SIGINT</dd>`; !bytes.Contains(got, []byte(want)) {
		t.Errorf("the page of an interrupted run lacks %s", want)
	}
	if err := Write(dir, Page{}); err == nil {
		t.Error("a page without statistics was written")
	}
}

// chromium finds headless Chromium (Debian's chromium package, installed by
// scripts/test-deps.sh), or skips.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("chromium not found (scripts/test-deps.sh installs Debian's chromium package); the dashboard is not checked in a browser")
	return ""
}

// The dashboard of a run, with every real chart, opens in headless
// Chromium from the file system with no console message (the page's
// Content-Security-Policy turns any script or network reference into one),
// and the browser's DOM holds the four tables with their rows.
func TestDashboardInChromium(t *testing.T) {
	bin := chromium(t)
	st := report.NewStats(report.StatsOptions{})
	charts := chart.New("Shop", st)
	run(st, charts)
	dir := t.TempDir()
	names, err := charts.WriteAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	page := Page{Title: "Shop", Source: "live run", Generated: time.Now(), Stats: st, Charts: names,
		Summary: "Complete requests: 160\n"}
	if err := Write(dir, page); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			t.Errorf("chart the page shows is missing: %v", err)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a guard against a hung browser
	defer cancel()
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir=" + t.TempDir(),
		"--enable-logging=stderr", "--v=0", "--window-size=1300,2000"}
	url := "file://" + filepath.Join(dir, FileIndex)
	if shot := os.Getenv("GOJM_DASHBOARD_SCREENSHOT"); shot != "" {
		// GOJM_DASHBOARD_SCREENSHOT=/tmp/dash.png keeps a picture to look at.
		exec.CommandContext(ctx, bin, append(args, "--screenshot="+shot, url)...).Run()
	}
	cmd := exec.CommandContext(ctx, bin, append(args, "--dump-dom", url)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(line, ":CONSOLE") {
			t.Errorf("console message: %s", line)
		}
	}
	dom := stdout.String()
	rows := func(id string) int {
		i := strings.Index(dom, `id="`+id+`"`)
		if i < 0 {
			return -1
		}
		body := dom[i:]
		body = body[strings.Index(body, "<tbody>"):strings.Index(body, "</tbody>")]
		return strings.Count(body, "<tr")
	}
	for _, tc := range []struct {
		id   string
		rows int
	}{
		{"apdex-table", 5},      // Total + Home, Search, Login, Browse
		{"statistics-table", 5}, // the same
		{"errors-table", 3},     // 500, connection refused, assertion
		{"top-errors-table", 3}, // Total + Login, Search
	} {
		if got := rows(tc.id); got != tc.rows {
			t.Errorf("%s: %d rows in the browser's DOM, want %d", tc.id, got, tc.rows)
		}
	}
	if n := strings.Count(dom, "<img "); n != len(names) {
		t.Errorf("%d images in the DOM, want %d", n, len(names))
	}
}
