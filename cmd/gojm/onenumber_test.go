package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/gojm/gojm/examples/target"
	"github.com/gojm/gojm/report/chart"
	"github.com/gojm/gojm/report/dashboard"
)

// oneNumberPlan is a run with every kind of figure: labels fast and slow,
// a Transaction Controller (whose samples have their own row but not a
// place in the Total), redirects followed as sub-results, HTTP errors, a
// refused connection, a failed assertion, and a Graph Results listener
// that sees only the transaction's samplers.
const oneNumberPlan = `<?xml version="1.0" encoding="UTF-8"?>
<jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3"><hashTree>
<TestPlan testclass="TestPlan" testname="One number"/><hashTree>
<ConfigTestElement guiclass="HttpDefaultsGui" testclass="ConfigTestElement" testname="Defaults">
  <stringProp name="HTTPSampler.domain">127.0.0.1</stringProp>
  <stringProp name="HTTPSampler.port">${__P(port)}</stringProp>
</ConfigTestElement><hashTree/>
<ThreadGroup testclass="ThreadGroup" testname="Users">
  <elementProp name="ThreadGroup.main_controller" elementType="LoopController" testclass="LoopController">
    <boolProp name="LoopController.continue_forever">false</boolProp>
    <stringProp name="LoopController.loops">15</stringProp></elementProp>
  <stringProp name="ThreadGroup.num_threads">3</stringProp>
  <stringProp name="ThreadGroup.ramp_time">0</stringProp>
  <stringProp name="ThreadGroup.on_sample_error">continue</stringProp>
</ThreadGroup><hashTree>
%s
<TransactionController testclass="TransactionController" testname="checkout">
  <boolProp name="TransactionController.parent">false</boolProp>
</TransactionController><hashTree>
%s
%s
<ResultCollector guiclass="GraphVisualizer" testclass="ResultCollector" testname="Checkout graph"/><hashTree/>
</hashTree>
%s
%s
%s
%s<hashTree>
<ResponseAssertion testclass="ResponseAssertion" testname="says nope">
  <collectionProp name="Asserion.test_strings"><stringProp name="1">nope</stringProp></collectionProp>
  <stringProp name="Assertion.test_field">Assertion.response_data</stringProp>
  <boolProp name="Assertion.assume_success">false</boolProp>
  <intProp name="Assertion.test_type">16</intProp>
</ResponseAssertion><hashTree/>
</hashTree>
</hashTree></hashTree></hashTree></jmeterTestPlan>
`

// httpSampler is an HTTP Request element; port "" takes the defaults'.
func httpSampler(name, path, port string, follow, tree bool) string {
	s := fmt.Sprintf(`<HTTPSamplerProxy testclass="HTTPSamplerProxy" testname=%q>
  <stringProp name="HTTPSampler.path">%s</stringProp>
  <stringProp name="HTTPSampler.port">%s</stringProp>
  <stringProp name="HTTPSampler.method">GET</stringProp>
  <boolProp name="HTTPSampler.follow_redirects">%v</boolProp>
  <boolProp name="HTTPSampler.use_keepalive">true</boolProp>
</HTTPSamplerProxy>`, name, path, port, follow)
	if !tree {
		s += "<hashTree/>"
	}
	return s
}

// targetPort starts the example target on the loopback for the test and
// returns its port.
func targetPort(t *testing.T) string {
	t.Helper()
	_, port := startTarget(t, target.Options{CountOnly: true})
	return port
}

// closedPort is a loopback port nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	return port
}

// One number everywhere: a run with transactions and failures writes every
// output, and each figure in each of them is the one statistics.json has:
// the summariser's last line, the end report on stdout and in summary.txt
// (the table per label, the errors, the ab block), the dashboard, the
// legends and notes of the charts, gojm report on the run's JTL and gojm
// compare of the JTL with itself.
func TestOneNumber(t *testing.T) {
	port := targetPort(t)
	dir := t.TempDir()
	plan := filepath.Join(dir, "one.jmx")
	body := fmt.Sprintf(oneNumberPlan,
		httpSampler("home", "/fast", "", false, false),
		httpSampler("cart", "/sleep?ms=3", "", false, false),
		httpSampler("pay", "/status/500", "", false, false),
		httpSampler("missing", "/status/404", "", false, false),
		httpSampler("follow", "/redirect/2", "", true, false),
		httpSampler("refused", "/", closedPort(t), false, false),
		httpSampler("checked", "/fast", "", false, true))
	if err := os.WriteFile(plan, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")

	// The steps of gojm run, kept in hand to read the charts' captions.
	var stdout, stderr bytes.Buffer
	f, _, err := parseRunFlags([]string{plan, "-o", out, "-e", "-J", "port=" + port}, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	log, closeLog, err := runLog("", &stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer closeLog()
	p, err := loadPlan(&f.planFlags, log)
	if err != nil {
		t.Fatal(err)
	}
	o, err := openRunOutputs(f, p, false, &stdout, &stderr, log)
	if err != nil {
		t.Fatal(err)
	}
	sig := catchInterrupts(func(s string) { fmt.Fprintln(&stderr, s) }, f.grace)
	defer sig.stop()
	r, runErr := o.runPlan(sig)
	if err := o.endReport(&stdout, r, sig); err != nil {
		t.Fatal(err)
	}
	if err := o.live.result(runErr, o.stats.Interrupted()); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}

	stats := readStatisticsJSON(t, filepath.Join(out, "statistics.json"))
	total := stats["Total"]
	// 3 users × 15 loops × 7 samplers, the redirects' 3 sub-results each.
	if total.SampleCount != 3*15*(7+3) || stats["checkout"].SampleCount != 45 || total.ErrorCount != 3*15*4 {
		t.Fatalf("statistics.json counts %d samples (checkout %d), %d errors; want %d, 45, %d",
			total.SampleCount, stats["checkout"].SampleCount, total.ErrorCount, 3*15*10, 3*15*4)
	}
	labels := []string{"Total", "home", "cart", "pay", "checkout", "missing", "follow", "follow-0", "follow-1", "follow-2", "refused", "checked"}

	t.Run("summariser", func(t *testing.T) {
		m := regexp.MustCompile(`(?m)^summary = +(\d+) in (\d\d):(\d\d):(\d\d) = +([\d.]+)/s Avg: +(\d+) Min: +(\d+) Max: +(\d+) Err: +(\d+) \(([\d.]+)%\)$`).
			FindStringSubmatch(stdout.String())
		if m == nil {
			t.Fatalf("no summary = line in:\n%s", stdout.String())
		}
		secs := (total.duration() + 500) / 1000
		want := []string{strconv.FormatInt(total.SampleCount, 10), fmt.Sprintf("%02d", secs/3600), fmt.Sprintf("%02d", secs%3600/60),
			fmt.Sprintf("%02d", secs%60), strconv.FormatFloat(total.Throughput, 'f', 1, 64),
			strconv.FormatInt(int64(math.Floor(total.MeanResTime+0.5)), 10), strconv.FormatInt(int64(total.MinResTime), 10),
			strconv.FormatInt(int64(total.MaxResTime), 10), strconv.FormatInt(total.ErrorCount, 10), fixed2(total.ErrorPct)}
		if total.duration() == 0 {
			want[4] = m[5] // no rate over no time
		}
		if got := m[1:]; strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("summary = line %q\n gives %q\n  want %q (statistics.json)", m[0], got, want)
		}
	})

	summary, err := os.ReadFile(filepath.Join(out, "summary.txt"))
	if err != nil {
		t.Fatal(err)
	}
	t.Run("end report", func(t *testing.T) {
		if !strings.Contains(stdout.String(), string(summary)) {
			t.Errorf("stdout does not hold summary.txt")
		}
		text := string(summary)
		rows := reportRows(text)
		for _, l := range labels {
			s := stats[l]
			want := []string{strconv.FormatInt(s.SampleCount, 10), fixed2(s.ErrorPct) + "%", fixed2(s.MeanResTime),
				fixed2(s.MedianResTime), fixed2(s.Pct1ResTime), fixed2(s.Pct2ResTime), fixed2(s.Pct3ResTime),
				strconv.FormatInt(int64(s.MinResTime), 10), strconv.FormatInt(int64(s.MaxResTime), 10),
				fixed2(s.Throughput), fixed2(s.ReceivedKBytesPerSec), fixed2(s.SentKBytesPerSec)}
			if got := rows[l]; len(got) < len(want) || strings.Join(got[:len(want)], " ") != strings.Join(want, " ") {
				t.Errorf("end report row %s: %q, statistics.json %q", l, got, want)
			}
		}
		for _, want := range []string{
			fmt.Sprintf("Errors: %d of %d samples (%s%%)", total.ErrorCount, total.SampleCount, fixed2(total.ErrorPct)),
			fmt.Sprintf("Time taken for tests:   %.3f seconds", float64(total.duration())/1000),
			fmt.Sprintf("Complete requests:      %d (", total.SampleCount),
			fmt.Sprintf("Failed requests:        %d\n   (HTTP error status: %d, no HTTP response: %d, assertions: %d, aborted by gojm: 0)",
				total.ErrorCount, 2*45, 45, 45),
			fmt.Sprintf("Non-2xx responses:      %d (", 2*45+2*45), // the two errors and the two redirects of each loop
			fmt.Sprintf("Requests per second:    %s [#/sec]", fixed2(total.Throughput)),
			fmt.Sprintf("Transfer rate:          %s [Kbytes/sec] received", fixed2(total.ReceivedKBytesPerSec)),
			fmt.Sprintf("\n  50%%  %9s\n", fixed2(total.MedianResTime)),
			fmt.Sprintf("\n  90%%  %9s\n", fixed2(total.Pct1ResTime)),
			fmt.Sprintf("\n  95%%  %9s\n", fixed2(total.Pct2ResTime)),
			fmt.Sprintf("\n  99%%  %9s\n", fixed2(total.Pct3ResTime)),
			fmt.Sprintf("\n 100%%  %9d (longest request)", int64(total.MaxResTime)),
			"Transaction Controllers, left out of the Total (which counts their samplers): checkout",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("end report lacks %q", want)
			}
		}
		if tot := rowsAfter(text, "Total (elapsed):"); len(tot) != 5 ||
			strings.Join(tot, " ") != strings.Join([]string{strconv.FormatInt(int64(total.MinResTime), 10), fixed2(total.MeanResTime),
				tot[2], fixed2(total.MedianResTime), strconv.FormatInt(int64(total.MaxResTime), 10)}, " ") {
			t.Errorf("Connection Times' Total row %q", tot)
		}
		// The errors by type add up to the errors.
		var sum int64
		for _, line := range strings.Split(section(text, "Errors:", "Top 5"), "\n")[2:] {
			if f := strings.Fields(line); len(f) > 3 {
				n, _ := strconv.ParseInt(f[len(f)-3], 10, 64)
				sum += n
			}
		}
		if sum != total.ErrorCount {
			t.Errorf("error types add up to %d errors, statistics.json says %d", sum, total.ErrorCount)
		}
	})

	t.Run("dashboard", func(t *testing.T) {
		page, err := os.ReadFile(filepath.Join(out, dashboard.FileIndex))
		if err != nil {
			t.Fatal(err)
		}
		cells := tableRows(t, page)
		for _, l := range labels {
			s := stats[l]
			for _, want := range []string{strconv.FormatInt(s.SampleCount, 10), strconv.FormatInt(s.ErrorCount, 10),
				fixed2(s.ErrorPct) + "%", fixed2(s.MeanResTime), fixed2(s.MedianResTime), fixed2(s.Pct1ResTime),
				fixed2(s.Pct2ResTime), fixed2(s.Pct3ResTime), fixed2(s.Throughput), fixed2(s.ReceivedKBytesPerSec)} {
				if !contains(cells[l], want) {
					t.Errorf("dashboard row %s %q lacks %s", l, cells[l], want)
				}
			}
		}
		// The charts' figures: the Total's samples and errors per second
		// over the part of each interval the run covers, the overview, each
		// label's distribution and its percentile curve.
		i := bytes.Index(page, []byte(`<script type="application/json" id="gojm-data">`))
		if i < 0 {
			t.Fatal("the dashboard has no charts' figures")
		}
		var data struct {
			Cover        []float64
			Total        struct{ OK, KO []*float64 }
			Overview     []int64
			Distribution struct {
				Labels []struct {
					Name   string
					Values []float64
				}
			}
			Percentiles struct {
				X      []float64
				Labels []struct {
					Name   string
					Values []float64
				}
			}
		}
		body := page[bytes.IndexByte(page[i:], '>')+i+1:]
		if err := json.NewDecoder(bytes.NewReader(body)).Decode(&data); err != nil {
			t.Fatal(err)
		}
		count := func(rates []*float64) float64 {
			var n float64
			for k, r := range rates {
				if r != nil {
					n += *r * data.Cover[k] / 1000
				}
			}
			return math.Round(n*100) / 100 // the page's rates have three decimals
		}
		if ok, ko := count(data.Total.OK), count(data.Total.KO); ok+ko != float64(total.SampleCount) || ko != float64(total.ErrorCount) {
			t.Errorf("Total Transactions per Second add up to %v successes and %v failures; statistics.json %d samples, %d errors",
				ok, ko, total.SampleCount, total.ErrorCount)
		}
		var over int64
		for _, n := range data.Overview {
			over += n
		}
		if over != total.SampleCount || data.Overview[3] != total.ErrorCount {
			t.Errorf("Response Time Overview %v; statistics.json %d samples, %d errors", data.Overview, total.SampleCount, total.ErrorCount)
		}
		for _, l := range data.Distribution.Labels {
			var n float64
			for _, v := range l.Values {
				n += v
			}
			if n != float64(stats[l.Name].SampleCount) {
				t.Errorf("Response Time Distribution of %s counts %v samples, statistics.json %d", l.Name, n, stats[l.Name].SampleCount)
			}
		}
		at := slices.Index(data.Percentiles.X, 50)
		for _, l := range data.Percentiles.Labels {
			if at < 0 || l.Values[at] != math.Round(stats[l.Name].MedianResTime*1000)/1000 {
				t.Errorf("Response Time Percentiles of %s at 50: %v, statistics.json's median %v", l.Name, l.Values, stats[l.Name].MedianResTime)
			}
		}
		if len(data.Distribution.Labels) != len(labels)-1 || len(data.Percentiles.Labels) != len(labels)-1 {
			t.Errorf("%d labels in the distribution, %d in the percentiles, want %d", len(data.Distribution.Labels), len(data.Percentiles.Labels), len(labels)-1)
		}
	})

	t.Run("charts", func(t *testing.T) {
		captions := map[string]chart.Caption{}
		for _, c := range o.charts.Captions() {
			captions[c.File] = c
		}
		// The charts write thousands with commas: 4,891.30.
		ms := func(v float64) string { return commas(fixed2(v)) + " ms" }
		for file, want := range map[string][]string{
			chart.FileGraphResults: {fmt.Sprintf("%s samples, %s failed (%s%%)", thousands(total.SampleCount), thousands(total.ErrorCount), fixed2(total.ErrorPct)),
				"Average " + ms(total.MeanResTime), "Median " + ms(total.MedianResTime), "(" + commas(fixed2(total.Throughput)) + "/s)"},
			chart.FileThroughputOverTime:       {"Hits/s (mean " + commas(fixed2(total.Throughput)) + ")"},
			chart.FileResponseTimePercentiles:  {"All samples: median " + ms(total.MedianResTime), "p90 " + ms(total.Pct1ResTime), "p95 " + ms(total.Pct2ResTime), "p99 " + ms(total.Pct3ResTime)},
			chart.FileResponseTimeDistribution: {fmt.Sprintf("%s samples, %s failed", thousands(total.SampleCount), thousands(total.ErrorCount))},
		} {
			c := captions[file]
			text := c.Subtitle + "\n" + strings.Join(c.Legend, "\n") + "\n" + strings.Join(c.Notes, "\n")
			for _, w := range want {
				if !strings.Contains(text, w) {
					t.Errorf("%s says\n%s\nnot %q", file, text, w)
				}
			}
		}
		// The plan's Graph Results listener saw the transaction's two
		// samplers: its own chart, of their samples.
		if len(o.graphs) != 1 || o.graphs[0].g.Count() != stats["cart"].SampleCount+stats["pay"].SampleCount {
			t.Errorf("the listener's Graph Results counts %d samples, want cart's and pay's %d", o.graphs[0].g.Count(),
				stats["cart"].SampleCount+stats["pay"].SampleCount)
		}
		if _, err := os.Stat(o.graphs[0].file); err != nil {
			t.Errorf("the listener's chart: %v", err)
		}
	})

	jtl := filepath.Join(out, "results.jtl")
	t.Run("gojm report", func(t *testing.T) {
		again := filepath.Join(dir, "again")
		var rout, rerr bytes.Buffer
		if code := run([]string{"report", jtl, "-o", again}, &rout, &rerr); code != 0 {
			t.Fatalf("exit %d: %s", code, rerr.String())
		}
		for _, file := range []string{"statistics.json", "summary.txt"} {
			a, _ := os.ReadFile(filepath.Join(out, file))
			b, _ := os.ReadFile(filepath.Join(again, file))
			if !bytes.Equal(a, b) {
				t.Errorf("gojm report's %s differs from the run's:\n%s\nthe run's:\n%s", file, b, a)
			}
		}
	})

	t.Run("gojm compare", func(t *testing.T) {
		var cout, cerr bytes.Buffer
		if code := run([]string{"compare", jtl, jtl, "--name", "A", "--name", "B", "--json"}, &cout, &cerr); code != 0 {
			t.Fatalf("exit %d: %s", code, cerr.String())
		}
		var cmp struct {
			Rows []struct {
				Label, Run                              string
				Samples                                 int64
				Throughput, Mean, Median, P90, P95, P99 float64
				ErrorPct                                float64
				Verdict                                 *struct{ Direction, Text string }
			}
		}
		if err := json.Unmarshal(cout.Bytes(), &cmp); err != nil {
			t.Fatal(err)
		}
		for _, r := range cmp.Rows {
			s := stats[r.Label]
			if r.Samples != s.SampleCount || r.Throughput != s.Throughput || r.Mean != s.MeanResTime || r.Median != s.MedianResTime ||
				r.P90 != s.Pct1ResTime || r.P95 != s.Pct2ResTime || r.P99 != s.Pct3ResTime || fixed2(r.ErrorPct) != fixed2(s.ErrorPct) {
				t.Errorf("compare row %s/%s %+v, statistics.json %+v", r.Label, r.Run, r, s)
			}
			if r.Run == "B" && (r.Verdict == nil || r.Verdict.Direction != "") {
				t.Errorf("a run compared with itself: %+v", r.Verdict)
			}
		}
	})
}

// statsEntry is one label of statistics.json.
type statsEntry struct {
	SampleCount          int64   `json:"sampleCount"`
	ErrorCount           int64   `json:"errorCount"`
	ErrorPct             float64 `json:"errorPct"`
	MeanResTime          float64 `json:"meanResTime"`
	MedianResTime        float64 `json:"medianResTime"`
	MinResTime           float64 `json:"minResTime"`
	MaxResTime           float64 `json:"maxResTime"`
	Pct1ResTime          float64 `json:"pct1ResTime"`
	Pct2ResTime          float64 `json:"pct2ResTime"`
	Pct3ResTime          float64 `json:"pct3ResTime"`
	Throughput           float64 `json:"throughput"`
	ReceivedKBytesPerSec float64 `json:"receivedKBytesPerSec"`
	SentKBytesPerSec     float64 `json:"sentKBytesPerSec"`
}

// duration is the time the figures are over, in ms: samples / throughput,
// rounded to the millisecond it was counted in.
func (s statsEntry) duration() int64 {
	if s.Throughput == 0 || math.IsInf(s.Throughput, 0) {
		return 0
	}
	return int64(math.Round(float64(s.SampleCount) / s.Throughput * 1000))
}

func readStatisticsJSON(t *testing.T, path string) map[string]statsEntry {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]statsEntry
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	// errorPct is written as a Java float: the table's figure is the
	// double of the counts.
	for k, s := range m {
		if s.SampleCount > 0 {
			s.ErrorPct = float64(s.ErrorCount) * 100 / float64(s.SampleCount)
		}
		m[k] = s
	}
	return m
}

func fixed2(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

// thousands is n with a comma every three digits, as the charts write it.
func thousands(n int64) string { return commas(strconv.FormatInt(n, 10)) }

// commas puts a comma every three digits of a number's whole part.
func commas(s string) string {
	whole, frac, _ := strings.Cut(s, ".")
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	if frac != "" {
		return whole + "." + frac
	}
	return whole
}

// reportRows are the rows of the end report's table per label, keyed by label.
func reportRows(text string) map[string][]string {
	rows := map[string][]string{}
	sep := regexp.MustCompile(`  +`)
	for _, line := range strings.Split(section(text, "Statistics per label", "\n\n"), "\n")[2:] {
		if cells := sep.Split(strings.TrimSpace(line), -1); len(cells) > 1 {
			rows[cells[0]] = cells[1:]
		}
	}
	return rows
}

// rowsAfter is the cells of the line starting with prefix.
func rowsAfter(text, prefix string) []string {
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, prefix) {
			return strings.Fields(strings.TrimPrefix(line, prefix))
		}
	}
	return nil
}

// section is text from the first from to the next to after it.
func section(text, from, to string) string {
	i := strings.Index(text, from)
	if i < 0 {
		return ""
	}
	text = text[i:]
	if j := strings.Index(text, to); j > 0 {
		return text[:j]
	}
	return text
}

// tableRows is every table row of an HTML page whose first cell names it,
// with its cells' text.
func tableRows(t *testing.T, page []byte) map[string][]string {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	var text func(*html.Node) string
	text = func(n *html.Node) string {
		if n.Type == html.TextNode {
			return n.Data
		}
		var b strings.Builder
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			b.WriteString(text(c))
		}
		return b.String()
	}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "tr" {
			var cells []string
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && c.Data == "td" {
					cells = append(cells, strings.TrimSpace(text(c)))
				}
			}
			// The statistics table's row of a label is its longest.
			if len(cells) > 1 && len(cells) > len(rows[cells[0]]) {
				rows[cells[0]] = cells
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return rows
}

func contains(cells []string, want string) bool {
	for _, c := range cells {
		if c == want {
			return true
		}
	}
	return false
}
