package dashboard

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/gojm/gojm/report"
)

// TestPageWeight measures what the way the charts are drawn costs: the
// page's size and the time Chromium takes to load it and draw every chart,
// for the page as it is (uPlot, figures as JSON) and for the other way the
// choice was between — the same sixteen charts as SVG from gonum/plot,
// inline in a page. The run: ten labels over an hour, one of them 100 times
// slower than the others, 360,000 samples, so every over-time chart has 240
// intervals. It is a measurement, not a check, so it runs only when asked:
//
//	GOJM_DASHBOARD_WEIGHT=1 go test ./report/dashboard -run TestPageWeight -v
func TestPageWeight(t *testing.T) {
	if os.Getenv("GOJM_DASHBOARD_WEIGHT") == "" {
		t.Skip("a measurement: GOJM_DASHBOARD_WEIGHT=1 runs it")
	}
	st := report.NewStats(report.StatsOptions{})
	series := NewSeries(st)
	sinks := report.Sinks{st, series}
	for i := range 360_000 {
		label := fmt.Sprintf("page %d", i%10)
		ms := 20 + i%17
		if i%10 == 9 {
			ms *= 100
		}
		sinks.Add(&report.Sample{Start: t0.Add(time.Duration(i) * 10 * time.Millisecond), Elapsed: time.Duration(ms) * time.Millisecond,
			Latency: time.Duration(ms/2) * time.Millisecond, Label: label, Code: "200", Success: i%97 != 0,
			ThreadName: "Users 1-1", Bytes: 2048, SentBytes: 200, GrpThreads: 10, AllThreads: 10})
	}
	dir := t.TempDir()
	if err := Write(dir, Page{Title: "Weight", Generated: t0, Location: time.UTC, Stats: st, Series: series}); err != nil {
		t.Fatal(err)
	}
	svgDir := t.TempDir()
	writeSVGPage(t, svgDir, series)

	b := newBrowser(t)
	for _, c := range []struct{ name, dir string }{{"uPlot", dir}, {"gonum/plot SVG", svgDir}} {
		page, err := os.ReadFile(filepath.Join(c.dir, FileIndex))
		if err != nil {
			t.Fatal(err)
		}
		var loads, all []float64
		for range 5 {
			b.do(t, chromedp.Navigate("about:blank"), chromedp.Navigate("file://"+filepath.Join(c.dir, FileIndex)))
			// From the start of the navigation to the second frame after the
			// load event: the charts are drawn and painted.
			ms, err := chromedp.Run(b.ctx, chromedp.Evaluate[float64](`new Promise(done => { const go = () => requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now()))); if (document.readyState === 'complete') go(); else addEventListener('load', go); })`, chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatal(err)
			}
			loads = append(loads, ms)
			// The charts further down are drawn when they come near the
			// screen; drawing them all at once takes this much more.
			ms, err = chromedp.Run(b.ctx, chromedp.Evaluate[float64](`new Promise(done => { const t = performance.now(); if (window.gojmDrawAll) gojmDrawAll(); requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - t))); })`, chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, ms)
		}
		slices.Sort(loads)
		slices.Sort(all)
		t.Logf("%s: page %d bytes (%d gzipped), load and draw the first screen %.0f ms (median of 5; %.0f–%.0f), every other chart %.0f ms more (%.0f–%.0f)",
			c.name, len(page), gzipSize(page), loads[2], loads[0], loads[4], all[2], all[0], all[4])
	}
	b.noMessages(t)
}

// writeSVGPage writes the sixteen charts as gonum/plot SVG files, inline
// in one page: each a line per label (or a series per chart) over the
// same intervals the page's JSON holds.
func writeSVGPage(t *testing.T, dir string, s *Series) {
	var page bytes.Buffer
	page.WriteString("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>SVG</title></head><body>\n")
	lo, hi := s.first, s.last+1
	for chart := range 16 {
		p := plot.New()
		p.Title.Text = fmt.Sprintf("chart %d", chart)
		p.X.Tick.Marker = plot.TimeTicks{Format: "15:04"}
		for li, l := range s.labels.all() {
			pts := make(plotter.XYs, 0, hi-lo)
			for i := lo; i < hi; i++ {
				b := l.time[i]
				if b.n == 0 {
					continue
				}
				pts = append(pts, plotter.XY{X: float64((s.lo + i) * width(s.step) / 1000), Y: float64(b.elapsed) / float64(b.n)})
			}
			line, err := plotter.NewLine(pts)
			if err != nil {
				t.Fatal(err)
			}
			line.Color = color.RGBA{uint8(40 * li), 80, uint8(255 - 20*li), 255}
			p.Add(line)
			p.Legend.Add(l.name, line)
		}
		c := vgsvg.New(560, 330)
		p.Draw(draw.New(c))
		var svg bytes.Buffer
		if _, err := c.WriteTo(&svg); err != nil {
			t.Fatal(err)
		}
		// The XML declaration cannot stand inside HTML.
		body := svg.String()
		if i := strings.Index(body, "<svg"); i > 0 {
			body = body[i:]
		}
		page.WriteString("<figure>" + body + "</figure>\n")
	}
	page.WriteString("</body></html>\n")
	if err := os.WriteFile(filepath.Join(dir, FileIndex), page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func gzipSize(b []byte) int {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Len()
}
