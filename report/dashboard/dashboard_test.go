package dashboard

import (
	"bytes"
	"flag"
	"os"
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

// run feeds a small run to the statistics and (when they are not nil)
// the dashboard's series and the charts: two pages and a login that fails,
// a label that needs escaping, and a transaction.
func run(st *report.Stats, series *Series, charts *chart.Charts) {
	sinks := report.Sinks{st}
	if series != nil {
		sinks = append(sinks, series)
	}
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
	series := NewSeries(st)
	run(st, series, nil)
	dir := t.TempDir()
	page := Page{
		Title: "Shop <test>", Source: "results.jtl", Generated: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Location: time.UTC, Stats: st, Series: series, Summary: "Complete requests: 160 <ok>\n",
		Charts: []string{chart.FileGraphResults, chart.FileResponseTimesOverTime, "graph-results-Mine.png"},
	}
	if err := Write(dir, page); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, FileIndex))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "index.html", withoutScripts(got))
	html := string(got)
	for _, want := range []string{
		`<td class="text">Search &lt;&#34;q&#34;&gt;</td>`, // escaped, never markup
		`<h1>Shop &lt;test&gt;</h1>`,
		`<th>T (Toleration threshold)</th>`, `<td>100 ms</td><td>400 ms</td>`,
		`<td class="text">500/Internal Server Error</td>`,
		`<td class="text">Test failed: text expected to contain /result/</td>`,
		`<img src="graph-results-Mine.png" alt="graph-results-Mine.png"`,
		`<li><a href="response-times-over-time.png">Response Times Over Time</a></li>`,
		`<script type="application/json" id="gojm-data">{"start":`,
		`Complete requests: 160 &lt;ok&gt;`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	// Offline: nothing that could be fetched. The page's policy forbids
	// any request but images of its folder, and nothing asks for one.
	if !strings.Contains(html, `content="default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'"`) {
		t.Error("page lacks its Content-Security-Policy")
	}
	if m := regexp.MustCompile(`(?i)((src|href)="?(https?:|//)|@import|url\(|fetch\(|XMLHttpRequest|<script[^>]* src=)`).FindString(html); m != "" {
		t.Errorf("page refers to something outside its folder: %q", m)
	}
}

// withoutScripts replaces the bodies of the page's scripts but its data
// (uPlot's and the page's own script, which are files of their own in
// assets/) with their names, to keep the golden file readable.
func withoutScripts(page []byte) []byte {
	for name, body := range map[string]string{"uPlot.iife.min.js": uplotJS, "dashboard.js": dashboardJS, "uPlot.min.css": uplotCSS} {
		page = bytes.ReplaceAll(page, []byte(body), []byte("/* assets/"+name+" */"))
	}
	return page
}

func TestWriteNoErrorsNoCharts(t *testing.T) {
	st := report.NewStats(report.StatsOptions{})
	st.Add(&report.Sample{Start: t0, Elapsed: time.Millisecond, Label: "ok", Success: true, Code: "200"})
	dir := t.TempDir()
	// Without series no chart is drawn, and the page's script only sorts and filters.
	if err := Write(dir, Page{Stats: st, Generated: t0}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, FileIndex))
	for _, want := range []string{`<p id="no-errors">No errors.</p>`, `<h1>Test results</h1>`} {
		if !bytes.Contains(got, []byte(want)) {
			t.Errorf("page lacks %s", want)
		}
	}
	for _, no := range []string{`id="over-time"`, `id="graph-results"`, `id="gojm-data"`, `id="images"`} {
		if bytes.Contains(got, []byte(no)) {
			t.Errorf("a section without content: %s", no)
		}
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
