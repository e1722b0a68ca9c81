package dashboard

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gojm/gojm/report"
	"github.com/gojm/gojm/report/chart"
)

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

// browser is one headless Chromium tab that records every console message,
// uncaught exception and browser log entry (a Content-Security-Policy
// violation is one) of the pages it opens.
type browser struct {
	ctx      context.Context
	mu       sync.Mutex
	messages []string
}

func newBrowser(t *testing.T) *browser {
	bin := chromium(t)
	// A guard against a hung browser, not a timing threshold.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1300, 1000))
	t.Cleanup(cancelAlloc)
	bctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(cancelTab)
	b := &browser{ctx: bctx}
	if err := chromedp.Do(bctx); err != nil { // starts the browser and its tab
		t.Fatalf("chromium: %v", err)
	}
	messages := chromedp.Console(bctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.messages = append(b.messages, m.String())
			b.mu.Unlock()
		}
	}()
	return b
}

func (b *browser) do(t *testing.T, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// eval runs a script expression in the page and decodes its value.
func eval[T any](t *testing.T, b *browser, expr string) T {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// into is eval into a variable.
func into[T any](t *testing.T, b *browser, expr string, out *T) {
	t.Helper()
	*out = eval[T](t, b, expr)
}

func (b *browser) noMessages(t *testing.T) {
	t.Helper()
	eval[bool](t, b, "true") // a round trip after the page's last message
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, m := range b.messages {
		t.Errorf("the page said %s", m)
	}
}

// writeRunPage writes the dashboard of the test run, with every real
// chart, into a folder and returns the folder and the run's statistics.
func writeRunPage(t *testing.T) (string, *report.Stats, *Series) {
	st := report.NewStats(report.StatsOptions{})
	series := NewSeries(st)
	charts := chart.New("Shop", st)
	run(st, series, charts)
	dir := t.TempDir()
	names, err := charts.WriteAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	page := Page{Title: "Shop", Source: "live run", Generated: time.Now(), Location: time.UTC, Stats: st, Series: series,
		Charts: names, Summary: "Complete requests: 160\n"}
	if err := Write(dir, page); err != nil {
		t.Fatal(err)
	}
	return dir, st, series
}

// statisticsJSON is statistics.json of st, decoded.
func statisticsJSON(t *testing.T, st *report.Stats) map[string]map[string]any {
	var buf bytes.Buffer
	if err := report.WriteStatisticsJSON(&buf, st); err != nil {
		t.Fatal(err)
	}
	var m map[string]map[string]any
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// The dashboard opens in headless Chromium from the file system with no
// console message, exception or policy violation; its tables hold the
// figures of statistics.json; a click on a column's head sorts the rows, the
// filter box hides rows, a click on a legend entry hides and shows its
// series, a drag zooms, the cursor brings a tooltip; and every chart of
// JMeter 5.6's dashboard is drawn, on a wall-clock axis where it is over time.
func TestDashboardInChromium(t *testing.T) {
	dir, st, _ := writeRunPage(t)
	b := newBrowser(t)
	url := "file://" + filepath.Join(dir, FileIndex)
	b.do(t, chromedp.Navigate(url), chromedp.WaitReady(chromedp.CSS("#charts-response-times figure")))
	// Charts are drawn as they come near the screen.
	if n := eval[int](t, b, `Object.keys(gojmCharts).length`); n != 0 {
		t.Errorf("%d charts drawn far below the screen", n)
	}
	b.do(t, chromedp.ScrollIntoView(chromedp.CSS("#over-time")))
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`Object.keys(gojmCharts).length > 0`)); err != nil {
		t.Fatal(err)
	}
	if n := eval[int](t, b, `Object.keys(gojmCharts).length`); n == 16 {
		t.Errorf("%d charts drawn when the first came near the screen, want the first few", n)
	}
	eval[bool](t, b, `(gojmDrawAll(), true)`)
	if shot := os.Getenv("GOJM_DASHBOARD_SCREENSHOT"); shot != "" {
		// GOJM_DASHBOARD_SCREENSHOT=/tmp/dash.png keeps a picture to look at.
		if png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(90)); err == nil {
			os.WriteFile(shot, png, 0o644)
		}
	}

	t.Run("statistics equal statistics.json", func(t *testing.T) {
		want := statisticsJSON(t, st)
		var rows [][]string
		into(t, b, `Array.from(document.querySelectorAll('#statistics-table tbody tr')).map(r => Array.from(r.cells).map(c => c.textContent))`, &rows)
		if len(rows) != len(want) {
			t.Fatalf("%d rows on the page, %d in statistics.json", len(rows), len(want))
		}
		fields := []string{"", "sampleCount", "errorCount", "errorPct", "meanResTime", "minResTime", "maxResTime", "",
			"medianResTime", "pct1ResTime", "pct2ResTime", "pct3ResTime", "throughput", "receivedKBytesPerSec", "sentKBytesPerSec"}
		for _, row := range rows {
			w, ok := want[row[0]]
			if !ok {
				t.Errorf("row %q is not in statistics.json", row[0])
				continue
			}
			for i, f := range fields {
				if f == "" {
					continue
				}
				got, err := strconv.ParseFloat(strings.TrimSuffix(row[i], "%"), 64)
				wv, _ := w[f].(float64)
				if err != nil || math.Abs(got-wv) > 0.005+1e-9 {
					t.Errorf("%s %s: page %q, statistics.json %v", row[0], f, row[i], w[f])
				}
			}
		}
	})

	t.Run("sort by a column", func(t *testing.T) {
		column := func() []string {
			var v []string
			into(t, b, `Array.from(document.querySelectorAll('#statistics-table tbody tr')).map(r => r.cells[4].textContent)`, &v)
			return v
		}
		before := column()
		b.do(t, chromedp.Click(chromedp.CSS(`#statistics-table th[data-col="4"]`)))
		up := column()
		b.do(t, chromedp.Click(chromedp.CSS(`#statistics-table th[data-col="4"]`)))
		down := column()
		if up[0] != before[0] || down[0] != before[0] {
			t.Errorf("the Total row moved: %v, %v, %v", before, up, down)
		}
		nums := func(v []string) []float64 {
			var f []float64
			for _, s := range v[1:] {
				x, _ := strconv.ParseFloat(s, 64)
				f = append(f, x)
			}
			return f
		}
		if !slices.IsSorted(nums(up)) {
			t.Errorf("after one click, the averages are not ascending: %v", up)
		}
		d := nums(down)
		slices.Reverse(d)
		if !slices.IsSorted(d) {
			t.Errorf("after two clicks, the averages are not descending: %v", down)
		}
		var label string
		into(t, b, `document.querySelector('#statistics-table th[data-col="4"]').getAttribute('aria-sort')`, &label)
		if label != "descending" {
			t.Errorf("aria-sort %q after two clicks", label)
		}
	})

	t.Run("filter", func(t *testing.T) {
		var shown []string
		b.do(t, chromedp.SendKeys(chromedp.CSS(`input[data-table="statistics-table"]`), "LOG"))
		into(t, b, `Array.from(document.querySelectorAll('#statistics-table tbody tr')).filter(r => !r.hidden).map(r => r.cells[0].textContent)`, &shown)
		if !slices.Equal(shown, []string{"Total", "Login"}) {
			t.Errorf("filtered by LOG: rows %v", shown)
		}
		var n int
		eval[bool](t, b, `(() => { const i = document.querySelector('input[data-table="statistics-table"]'); i.value = ''; return i.dispatchEvent(new Event('input')); })()`)
		into(t, b, `Array.from(document.querySelectorAll('#statistics-table tbody tr')).filter(r => !r.hidden).length`, &n)
		if n != 5 {
			t.Errorf("an empty filter shows %d rows, want 5", n)
		}
	})

	t.Run("every chart of JMeter's dashboard", func(t *testing.T) {
		var ids []string
		into(t, b, `Object.keys(window.gojmCharts)`, &ids)
		for _, id := range []string{
			"response-times-over-time", "response-time-percentiles-over-time", "active-threads-over-time",
			"bytes-throughput-over-time", "latencies-over-time", "connect-time-over-time",
			"hits-per-second", "codes-per-second", "transactions-per-second", "total-transactions-per-second",
			"response-time-vs-request", "latency-vs-request",
			"response-time-percentiles", "response-time-overview", "time-vs-threads", "response-time-distribution",
		} {
			if !slices.Contains(ids, id) {
				t.Errorf("chart %s is not drawn", id)
			}
		}
		var canvases int
		into(t, b, `document.querySelectorAll('figure.chart canvas').length`, &canvases)
		if canvases != len(ids) {
			t.Errorf("%d canvases for %d charts", canvases, len(ids))
		}
		// The x axis is the clock: the first interval starts at the first
		// sample's start, in the page's time zone.
		var first float64
		into(t, b, `gojmCharts['response-times-over-time'].data[0][0]`, &first)
		if got := time.UnixMilli(int64(first * 1000)); got.After(t0) || t0.Sub(got) >= 100*time.Millisecond {
			t.Errorf("first interval starts at %v, the first sample at %v", got, t0)
		}
	})

	t.Run("charts agree with the statistics", func(t *testing.T) {
		want := statisticsJSON(t, st)
		// Response Time Overview counts every sample of the Total once.
		var overview []float64
		into(t, b, `gojmCharts['response-time-overview'].data.slice(1).map((s, i) => s[i])`, &overview)
		var sum float64
		for _, v := range overview {
			sum += v
		}
		if total := want["Total"]["sampleCount"].(float64); sum != total {
			t.Errorf("Response Time Overview counts %v samples, statistics.json %v", sum, total)
		}
		if errs := want["Total"]["errorCount"].(float64); overview[3] != errs {
			t.Errorf("Response Time Overview counts %v errors, statistics.json %v", overview[3], errs)
		}
		// Response Time Percentiles at 50, 90, 95 and 99 is each label's median and percentiles.
		var curve struct {
			X      []float64
			Series []string
			Y      [][]float64
		}
		into(t, b, `(() => { const u = gojmCharts['response-time-percentiles']; return {X: u.data[0], Series: u.series.slice(1).map(s => s.label), Y: u.data.slice(1)}; })()`, &curve)
		for i, label := range curve.Series {
			for _, c := range []struct {
				p     float64
				field string
			}{{50, "medianResTime"}, {90, "pct1ResTime"}, {95, "pct2ResTime"}, {99, "pct3ResTime"}, {100, "maxResTime"}} {
				j := slices.Index(curve.X, c.p)
				if j < 0 || math.Abs(curve.Y[i][j]-want[label][c.field].(float64)) > 0.001 {
					t.Errorf("%s: the percentile curve at %v is %v, statistics.json's %s %v", label, c.p, curve.Y[i][j], c.field, want[label][c.field])
				}
			}
		}
		// Total Transactions Per Second, each rate times the part of its
		// interval the run covers, add up to every sample and every error;
		// Hits Per Second to every sample; the rates weighted so average
		// to the throughput.
		var rates struct {
			OK, KO, Hits []*float64
			Cover        []float64
		}
		into(t, b, `(() => { const u = gojmCharts['total-transactions-per-second'], d = JSON.parse(document.getElementById('gojm-data').textContent);
			return {OK: u.data[1], KO: u.data[2], Hits: gojmCharts['hits-per-second'].data[1], Cover: d.cover}; })()`, &rates)
		count := func(r []*float64) (n float64) {
			for i, v := range r {
				if v != nil {
					n += *v * rates.Cover[i] / 1000
				}
			}
			return math.Round(n*1000) / 1000
		}
		total := want["Total"]
		if ok, ko := count(rates.OK), count(rates.KO); ok+ko != total["sampleCount"].(float64) || ko != total["errorCount"].(float64) {
			t.Errorf("Total Transactions Per Second add up to %v successes and %v failures, statistics.json %v samples, %v errors",
				ok, ko, total["sampleCount"], total["errorCount"])
		}
		var span float64
		for _, c := range rates.Cover {
			span += c
		}
		if mean := count(rates.Hits) / span * 1000; math.Abs(mean-total["throughput"].(float64)) > 1e-6*mean {
			t.Errorf("Hits Per Second average %v over the run, statistics.json's throughput %v", mean, total["throughput"])
		}
		// Response Time Distribution counts each label's samples.
		var dist map[string]float64
		into(t, b, `(() => { const u = gojmCharts['response-time-distribution'], m = {};
			u.series.slice(1).forEach((s, i) => { m[s.label] = u.data[i + 1].reduce((a, v) => a + (v || 0), 0); }); return m; })()`, &dist)
		for label, n := range dist {
			if n != want[label]["sampleCount"].(float64) {
				t.Errorf("Response Time Distribution counts %v samples of %s, statistics.json %v", n, label, want[label]["sampleCount"])
			}
		}
	})

	t.Run("error tables equal the statistics", func(t *testing.T) {
		var types [][]string
		into(t, b, `Array.from(document.querySelectorAll('#errors-table tbody tr')).map(r => Array.from(r.cells).map(c => c.textContent))`, &types)
		byType := st.ErrorsByType()
		if len(types) != len(byType) {
			t.Fatalf("%d error types on the page, %d in the statistics", len(types), len(byType))
		}
		for i, e := range byType {
			if types[i][0] != e.Type || types[i][1] != strconv.FormatInt(e.Count, 10) {
				t.Errorf("error type %d: page %v, statistics %s %d", i, types[i], e.Type, e.Count)
			}
		}
		var top []string
		into(t, b, `Array.from(document.querySelectorAll('#top-errors-table tbody tr')).map(r => r.cells[0].textContent + ' ' + r.cells[2].textContent)`, &top)
		wantTop := []string{"Total " + strconv.FormatInt(st.Total().Errors, 10)}
		for _, s := range st.TopErrorsBySampler(5) {
			wantTop = append(wantTop, s.Label+" "+strconv.FormatInt(s.Errors, 10))
		}
		if !slices.Equal(top, wantTop) {
			t.Errorf("top errors by sampler: page %v, statistics %v", top, wantTop)
		}
	})

	t.Run("toggle a series", func(t *testing.T) {
		const legend = `#response-times-over-time .u-legend .u-series:nth-child(2)`
		show := func() (on bool, off bool) {
			into(t, b, `gojmCharts['response-times-over-time'].series[1].show`, &on)
			into(t, b, `document.querySelector('`+legend+`').classList.contains('u-off')`, &off)
			return
		}
		b.do(t, chromedp.Click(chromedp.CSS(legend+` .u-label`)))
		if on, off := show(); on || !off {
			t.Errorf("after a click on its legend entry, the series shows (%v, u-off %v)", on, off)
		}
		b.do(t, chromedp.Click(chromedp.CSS(legend+` .u-label`)))
		if on, off := show(); !on || off {
			t.Errorf("after a second click, the series is hidden (%v, u-off %v)", on, off)
		}
	})

	t.Run("log scale", func(t *testing.T) {
		var distr float64
		b.do(t, chromedp.Click(chromedp.CSS(`#response-times-over-time input.log`)))
		into(t, b, `gojmCharts['response-times-over-time'].scales.y.distr`, &distr)
		var checked bool
		into(t, b, `document.querySelector('#response-times-over-time input.log').checked`, &checked)
		if (distr == 3) != checked {
			t.Errorf("log scale box %v, scale distribution %v", checked, distr)
		}
	})

	t.Run("zoom and tooltip", func(t *testing.T) {
		const over = `#hits-per-second .u-over`
		var box struct{ X, Y, W, H float64 }
		var before [2]float64
		into(t, b, `(() => { const s = gojmCharts['hits-per-second'].scales.x; return [s.min, s.max]; })()`, &before)
		b.do(t, chromedp.ScrollIntoView(chromedp.CSS(over)))
		into(t, b, `(() => { const r = document.querySelector('`+over+`').getBoundingClientRect(); return {X: r.x, Y: r.y, W: r.width, H: r.height}; })()`, &box)
		y := box.Y + box.H/2
		b.do(t, chromedp.DragAndDropXY(box.X+box.W*0.25, y, box.X+box.W*0.75, y, 10))
		var after [2]float64
		into(t, b, `(() => { const s = gojmCharts['hits-per-second'].scales.x; return [s.min, s.max]; })()`, &after)
		if !(after[0] > before[0] && after[1] < before[1]) {
			t.Errorf("a drag over the middle half did not zoom in: x from %v to %v", before, after)
		}
		// The other time charts follow the cursor; the tooltip shows values.
		b.do(t, chromedp.MouseEvent(chromedp.MouseMoved, box.X+box.W*0.5, y))
		var tip struct {
			Hidden bool
			Text   string
		}
		into(t, b, `(() => { const e = document.querySelector('#hits-per-second .tip'); return {Hidden: e.hidden, Text: e.textContent}; })()`, &tip)
		if tip.Hidden || !strings.Contains(tip.Text, "Hits: ") || !strings.Contains(tip.Text, "2023-11-14") {
			t.Errorf("tooltip at the cursor: %+v", tip)
		}
	})

	t.Run("one label 100 times slower", func(t *testing.T) {
		// The time charts start on a log scale, so the fast labels are
		// not squashed onto the axis; each label keeps its own line.
		st := report.NewStats(report.StatsOptions{})
		series := NewSeries(st)
		sinks := report.Sinks{st, series}
		for i := range 200 {
			at := t0.Add(time.Duration(i) * 50 * time.Millisecond)
			for j, label := range []string{"fast", "also fast", "slow"} {
				ms := 10 + i%5 + j
				if label == "slow" {
					ms *= 100
				}
				sinks.Add(&report.Sample{Start: at, Elapsed: time.Duration(ms) * time.Millisecond, Label: label, Success: true,
					Code: "200", ThreadName: "Users 1-1", GrpThreads: 1, AllThreads: 1})
			}
		}
		dir := t.TempDir()
		if err := Write(dir, Page{Title: "Slow", Generated: t0, Location: time.UTC, Stats: st, Series: series}); err != nil {
			t.Fatal(err)
		}
		b.do(t, chromedp.Navigate("file://"+filepath.Join(dir, FileIndex)), chromedp.WaitReady(chromedp.CSS("#charts-response-times figure")))
		eval[bool](t, b, `(gojmDrawAll(), true)`)
		for _, id := range []string{"response-times-over-time", "response-time-percentiles", "time-vs-threads"} {
			var got struct {
				Distr   float64
				Checked bool
				Series  int
			}
			into(t, b, `(() => { const u = gojmCharts['`+id+`']; return {Distr: u.scales.y.distr,
				Checked: document.querySelector('#`+id+` input.log').checked, Series: u.series.length - 1}; })()`, &got)
			if got.Distr != 3 || !got.Checked || got.Series != 3 {
				t.Errorf("%s: scale distribution %v (3 is log), box checked %v, %d series", id, got.Distr, got.Checked, got.Series)
			}
		}
		// Where the labels are alike, the scale is linear.
		var linear float64
		into(t, b, `gojmCharts['hits-per-second'].scales.y.distr`, &linear)
		if linear != 1 {
			t.Errorf("Hits Per Second: scale distribution %v, want linear", linear)
		}
	})

	b.noMessages(t)
}
