package chart

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gojm/gojm/report"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// File names of the charts, stable so pages can link to them.
const (
	FileGraphResults             = "graph-results.png"
	FileResponseTimesOverTime    = "response-times-over-time.png"
	FileLatenciesOverTime        = "latencies-over-time.png"
	FileConnectTimesOverTime     = "connect-times-over-time.png"
	FileThroughputOverTime       = "throughput-over-time.png"
	FileResponseCodesPerSecond   = "response-codes-per-second.png"
	FileActiveThreadsOverTime    = "active-threads-over-time.png"
	FileResponseTimePercentiles  = "response-time-percentiles.png"
	FileResponseTimeDistribution = "response-time-distribution.png"
	FileTimeVsThreads            = "time-vs-threads.png"
)

// timelineCharts lists the Timeline's charts in the order WriteAll writes them.
var timelineCharts = []struct {
	file string
	draw func(*Timeline) *figure
}{
	{FileResponseTimesOverTime, (*Timeline).responseTimesFigure},
	{FileLatenciesOverTime, (*Timeline).latenciesFigure},
	{FileConnectTimesOverTime, (*Timeline).connectTimesFigure},
	{FileThroughputOverTime, (*Timeline).throughputFigure},
	{FileResponseCodesPerSecond, (*Timeline).codesFigure},
	{FileActiveThreadsOverTime, (*Timeline).threadsFigure},
	{FileResponseTimePercentiles, (*Timeline).percentilesFigure},
	{FileResponseTimeDistribution, (*Timeline).distributionFigure},
	{FileTimeVsThreads, (*Timeline).timeVsThreadsFigure},
}

// WriteAll writes every Timeline chart into dir (which must exist) and
// returns the file names written, in a fixed order.
func (t *Timeline) WriteAll(dir string) ([]string, error) {
	var names []string
	for _, c := range timelineCharts {
		if err := c.draw(t).writePNG(filepath.Join(dir, c.file)); err != nil {
			return names, err
		}
		names = append(names, c.file)
	}
	return names, nil
}

// Captions returns the text of every Timeline chart, in WriteAll's order.
func (t *Timeline) Captions() []Caption {
	var out []Caption
	for _, c := range timelineCharts {
		out = append(out, c.draw(t).caption(c.file))
	}
	return out
}

// subtitle is the line under every Timeline chart's title.
func (t *Timeline) subtitle(extra string) string {
	s := extra
	if t.cfg.Title != "" {
		s = t.cfg.Title + " — " + s
	}
	return s
}

// Neighbouring buckets are drawn together until an over-time line has at
// most maxDisplayPoints points averaging samplesPerPoint rows each, or one
// point: a long run stays readable, and a short or sparse one is not all
// spikes.
const (
	maxDisplayPoints = 150
	samplesPerPoint  = 20
)

// drawWidths are the widths a drawn bucket may have, in ms.
var drawWidths = func() []int64 {
	var ws []int64
	for _, d := range []time.Duration{
		time.Millisecond, 2 * time.Millisecond, 5 * time.Millisecond, 10 * time.Millisecond,
		20 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond,
		500 * time.Millisecond, time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second,
		15 * time.Second, 20 * time.Second, 30 * time.Second, time.Minute, 2 * time.Minute, 5 * time.Minute,
		10 * time.Minute, 15 * time.Minute, 20 * time.Minute, 30 * time.Minute, time.Hour, 2 * time.Hour,
		3 * time.Hour, 6 * time.Hour, 12 * time.Hour, 24 * time.Hour,
	} {
		ws = append(ws, d.Milliseconds())
	}
	return ws
}()

// view is how the over-time charts group the Timeline's buckets: drawn
// bucket i holds the rows that started in [origin + i·width, origin +
// (i+1)·width), the first also those that started before origin; the last
// is the one that holds the latest start, and its time runs on to the last
// end.
type view struct {
	k        int   // stored buckets per drawn bucket
	width    int64 // ms
	n        int   // drawn buckets
	origin   int64 // ms since the epoch
	from, to int64 // the time axis: the first row's start to the last row's end
}

func (t *Timeline) view() view {
	stored := max(t.width.Milliseconds(), 1)
	v := view{origin: t.origin, from: t.first, to: t.last}
	extent := max(t.latest-t.origin, 0) + 1
	pick := func(w int64) bool {
		n := int((extent + w - 1) / w)
		if n > maxDisplayPoints || n > 1 && t.n < int64(n)*samplesPerPoint {
			return false
		}
		v.k, v.width, v.n = int(w/stored), w, n
		return true
	}
	for _, w := range drawWidths {
		if w >= stored && w%stored == 0 && pick(w) {
			return v
		}
	}
	w := stored
	for !pick(w) {
		w *= 2
	}
	return v
}

// cover is the part of drawn bucket i inside the span [a, b] (ms since
// the epoch), as the start and end of that part; the first bucket reaches
// back to a, the last forward to b.
func (v view) cover(i int, a, b int64) (lo, hi int64) {
	lo, hi = v.origin+int64(i)*v.width, v.origin+int64(i+1)*v.width
	if i == 0 {
		lo = a
	}
	if i == v.n-1 {
		hi = b
	}
	return max(lo, a), min(hi, b)
}

// x is a time (ms since the epoch) on the time axis: seconds since from.
func (v view) x(ms float64) float64 { return (ms - float64(v.from)) / 1000 }

// mid is the x of the middle of drawn bucket i's part of the run.
func (v view) mid(i int) float64 {
	lo, hi := v.cover(i, v.from, v.to)
	return v.x(float64(lo+hi) / 2)
}

// rates is n events per drawn bucket as a rate per second over the part
// of each bucket inside the span [a, b]: their mean weighted by those
// parts is the events over b − a. A bucket with no part of the span has
// no point.
func (v view) rates(counts []int64, a, b int64) plotter.XYs {
	var pts plotter.XYs
	for i, c := range counts {
		lo, hi := v.cover(i, a, b)
		if hi <= lo {
			continue
		}
		pts = append(pts, plotter.XY{X: v.x(float64(lo+hi) / 2), Y: float64(c) * 1000 / float64(hi-lo)})
	}
	return pts
}

// regroup sums every k neighbouring buckets of s into n buckets.
func regroup[T interface{ plus(T) T }](s []T, k, n int) []T {
	out := make([]T, n)
	for i := range n {
		for j := i * k; j < min((i+1)*k, len(s)); j++ {
			out[i] = out[i].plus(s[j])
		}
	}
	return out
}

// widthText is the bucket width as people write it: "1 s", "2 min 8 s".
func widthText(d time.Duration) string {
	switch {
	case d < time.Second:
		return strconv.FormatInt(d.Milliseconds(), 10) + " ms"
	case d < time.Minute:
		return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
	case d%time.Minute == 0:
		return formatNumber(d.Minutes(), 0) + " min"
	default:
		return fmt.Sprintf("%d min %d s", int(d.Minutes()), int((d % time.Minute).Seconds()))
	}
}

// timePlot is a plot with the run's wall-clock time axis.
func (t *Timeline) timePlot(v view, yLabel string) *plot.Plot {
	base := time.UnixMilli(v.from)
	p := newPlot(clockAxisLabel(base, time.UnixMilli(v.to), t.cfg.Location), yLabel)
	p.X.Tick.Marker = clockTicks{base: base, loc: t.cfg.Location}
	p.X.Min, p.X.Max = 0, max(v.x(float64(v.to)), 0.001)
	p.Y.Min = 0
	return p
}

// finishTimePlot leaves headroom and keeps the time axis on the run.
func finishTimePlot(p *plot.Plot, v view) {
	padY(p)
	p.X.Min, p.X.Max = 0, max(v.x(float64(v.to)), 0.001)
}

// shownLabels returns the labels drawn individually (the busiest
// MaxLabels, in order of first appearance) and, when others exist, one
// series merging them all, with the names of the labels it merges.
func (t *Timeline) shownLabels() (shown []*labelSeries, other *labelSeries, merged map[string]bool) {
	all := t.labels.all()
	if len(all) <= t.cfg.MaxLabels {
		return all, nil, nil
	}
	idx := make([]int, len(t.labels.list))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(t.labels.list[b].n, t.labels.list[a].n) })
	top := idx[:min(t.cfg.MaxLabels, len(idx))]
	slices.Sort(top)
	keep := make(map[int]bool, len(top))
	for _, i := range top {
		keep[i] = true
		shown = append(shown, t.labels.list[i])
	}
	other = t.newLabel("")
	merged = map[string]bool{}
	fold := func(l *labelSeries) {
		other.n += l.n
		for i := range other.time {
			other.time[i] = other.time[i].plus(l.time[i])
		}
		for i := range other.threads {
			other.threads[i] = other.threads[i].plus(l.threads[i])
		}
	}
	for i, l := range t.labels.list {
		if !keep[i] {
			fold(l)
			merged[l.name] = true
		}
	}
	if t.labels.other != nil {
		fold(t.labels.other)
		other.name = "Other labels"
	} else {
		other.name = fmt.Sprintf("Other (%d labels)", len(merged))
	}
	return shown, other, merged
}

// labelColors returns the shown series with their colours; Other, when
// there is one, is last and grey.
func (t *Timeline) labelColors() ([]*labelSeries, []color.RGBA) {
	shown, other, _ := t.shownLabels()
	cols := make([]color.RGBA, len(shown))
	for i := range shown {
		cols[i] = seriesColor(i)
	}
	if other != nil {
		shown = append(shown, other)
		cols = append(cols, colorOther)
	}
	return shown, cols
}

// addSeries draws a line through pts (with dots when there are few) and
// adds it to the legend.
func addSeries(f *figure, p *plot.Plot, name string, pts plotter.XYs, c color.Color, width float64, dashed bool) {
	f.series = append(f.series, series{name: name, pts: pts})
	l := xyLine(pts, c, width)
	if dashed {
		l.LineStyle.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
	}
	p.Add(l)
	if len(pts) > 0 && len(pts) <= 60 {
		dots := &plotter.Scatter{XYs: pts, GlyphStyle: draw.GlyphStyle{Color: c, Radius: vg.Points(2.2), Shape: draw.CircleGlyph{}}}
		p.Add(dots)
		f.addLegend(name, l, dots)
		return
	}
	f.addLegend(name, l)
}

// meanOverTime draws one mean per label per bucket; pick chooses the sum.
func (t *Timeline) meanOverTime(title, what string, pick func(labelBucket) int64) *figure {
	v := t.view()
	f := newFigure(title, t.subtitle(strings.ToLower(what[:1])+what[1:]+" per label, mean per "+widthText(time.Duration(v.width)*time.Millisecond)))
	p := t.timePlot(v, what+" (ms)")
	series, cols := t.labelColors()
	for k, l := range series {
		var pts plotter.XYs
		for i, b := range regroup(l.time, v.k, v.n) {
			if b.n > 0 {
				pts = append(pts, plotter.XY{X: v.mid(i), Y: float64(pick(b)) / float64(b.n)})
			}
		}
		addSeries(f, p, l.name, pts, cols[k], 1.8, l.name != "" && k == len(series)-1 && cols[k] == colorOther)
	}
	t.emptyNote(f)
	finishTimePlot(p, v)
	f.add(p, 1)
	return f
}

func (t *Timeline) emptyNote(f *figure) {
	if t.n == 0 {
		f.notes = append(f.notes, emptyNote)
	}
}

func (t *Timeline) responseTimesFigure() *figure {
	return t.meanOverTime("Response Times Over Time", "Response time", func(b labelBucket) int64 { return b.elapsed })
}

func (t *Timeline) latenciesFigure() *figure {
	return t.meanOverTime("Latencies Over Time", "Latency", func(b labelBucket) int64 { return b.latency })
}

func (t *Timeline) connectTimesFigure() *figure {
	return t.meanOverTime("Connect Time Over Time", "Connect time", func(b labelBucket) int64 { return b.connect })
}

// perSecond is n events over ms milliseconds, as a rate per second.
func perSecond(n, ms int64) float64 { return float64(n) / float64(ms) * 1000 }

func (t *Timeline) throughputFigure() *figure {
	v := t.view()
	f := newFigure("Throughput Over Time", t.subtitle("per second, over each "+widthText(time.Duration(v.width)*time.Millisecond)))
	p := t.timePlot(v, "Throughput (/s)")
	buckets := regroup(t.buckets, v.k, v.n)
	hits := make([]int64, len(buckets))
	errs := make([]int64, len(buckets))
	txn := make([]int64, len(buckets))
	for i, b := range buckets {
		hits[i], errs[i], txn[i] = b.hits, b.errors, b.txn
	}
	// The legend's means are the statistics' own: the Total's samples and
	// errors over its time, the first start to the last end.
	tot := t.stats.Total()
	addSeries(f, p, "Hits/s (mean "+rateFigure(tot.Throughput())+")", v.rates(hits, tot.First, tot.Last), palette[0], 1.8, false)
	addSeries(f, p, "Errors/s (mean "+rateFigure(perSecond(tot.Errors, tot.Duration()))+")", v.rates(errs, tot.First, tot.Last), palette[3], 1.8, false)
	f.notes = append(f.notes, "Hits: the samples of the Total (sub-results", "as their own when the JTL holds them)")
	if t.txnSeen > 0 {
		addSeries(f, p, "Transactions/s (mean "+rateFigure(perSecond(t.txnSeen, t.txLast-t.txFirst))+")",
			v.rates(txn, t.txFirst, t.txLast), colorThroughput, 2.2, true)
		f.notes = append(f.notes, "Transactions: Transaction Controller samples")
	}
	t.emptyNote(f)
	finishTimePlot(p, v)
	f.add(p, 1)
	return f
}

// codeClass colours response codes by class: 2xx green, 3xx blue, 4xx
// orange, 5xx red, anything else (JMeter's "Non HTTP response code: …") purple.
var codeClass = [][]color.RGBA{
	{{148, 103, 189, 255}, {140, 86, 75, 255}, {127, 127, 127, 255}, {197, 176, 213, 255}},
	{{44, 160, 44, 255}, {0, 109, 44, 255}, {116, 196, 118, 255}, {161, 217, 155, 255}},
	{{31, 119, 180, 255}, {8, 69, 148, 255}, {107, 174, 214, 255}, {158, 202, 225, 255}},
	{{255, 127, 14, 255}, {217, 72, 1, 255}, {253, 174, 107, 255}, {253, 208, 162, 255}},
	{{214, 39, 40, 255}, {153, 0, 13, 255}, {252, 146, 114, 255}, {252, 187, 161, 255}},
}

// classOf is the index of a code's class in codeClass (0: not HTTP).
func classOf(code string) int {
	n, err := strconv.Atoi(code)
	if err != nil || n < 200 || n >= 600 {
		return 0
	}
	return n/100 - 1
}

func (t *Timeline) codesFigure() *figure {
	v := t.view()
	f := newFigure("Response Codes per Second", t.subtitle("responses per second by code, over each "+widthText(time.Duration(v.width)*time.Millisecond)))
	p := t.timePlot(v, "Responses (/s)")
	codes := slices.Clone(t.codes.list)
	slices.SortStableFunc(codes, func(a, b *countSeries) int {
		if ca, cb := classOf(a.name), classOf(b.name); (ca == 0) != (cb == 0) {
			return cmp.Compare(cb, ca) // HTTP codes first
		}
		return cmp.Compare(a.name, b.name)
	})
	if t.codes.other != nil {
		codes = append(codes, t.codes.other)
	}
	tot := t.stats.Total()
	used := map[int]int{}
	for _, c := range codes {
		counts := make([]int64, v.n)
		for i, b := range regroup(c.time, v.k, v.n) {
			counts[i] = int64(b)
		}
		cl := classOf(c.name)
		col := codeClass[cl][used[cl]%len(codeClass[cl])]
		used[cl]++
		addSeries(f, p, fmt.Sprintf("%s (%s)", codeName(c.name), formatNumber(float64(c.n), 0)), v.rates(counts, tot.First, tot.Last), col, 1.8, c == t.codes.other)
	}
	t.emptyNote(f)
	finishTimePlot(p, v)
	f.add(p, 1)
	return f
}

// codeName shortens JMeter's long codes for the legend:
// "Non HTTP response code: java.net.SocketTimeoutException" becomes
// "Non HTTP: SocketTimeoutException".
func codeName(c string) string {
	const nonHTTP = "Non HTTP response code: "
	switch {
	case c == "":
		return "(no code)"
	case strings.HasPrefix(c, nonHTTP):
		c = c[len(nonHTTP):]
		if i := strings.LastIndexByte(c, '.'); i >= 0 && i < len(c)-1 {
			c = c[i+1:]
		}
		return "Non HTTP: " + c
	}
	return c
}

func (t *Timeline) threadsFigure() *figure {
	v := t.view()
	f := newFigure("Active Threads Over Time", t.subtitle("mean active threads per thread group, per "+widthText(time.Duration(v.width)*time.Millisecond)))
	p := t.timePlot(v, "Active threads")
	p.Y.Tick.Marker = niceTicks{integer: true}
	groups := t.groups.all()
	for k, g := range groups {
		var pts plotter.XYs
		for i, b := range regroup(g.time, v.k, v.n) {
			if b.n > 0 {
				pts = append(pts, plotter.XY{X: v.mid(i), Y: float64(b.sum) / float64(b.n)})
			}
		}
		name := g.name
		if name == "" {
			name = "(unnamed threads)"
		}
		addSeries(f, p, name, pts, seriesColor(k), 1.8, false)
	}
	if len(groups) > 1 {
		var pts plotter.XYs
		for i, b := range regroup(t.buckets, v.k, v.n) {
			if b.top > 0 {
				pts = append(pts, plotter.XY{X: v.mid(i), Y: float64(b.threads) / float64(b.top)})
			}
		}
		addSeries(f, p, "All thread groups", pts, colorAllLines, 2.2, true)
	}
	t.emptyNote(f)
	finishTimePlot(p, v)
	f.add(p, 1)
	return f
}

// percentileSteps are the percentiles the curves are drawn through.
func percentileSteps() []float64 {
	var ps []float64
	for i := range 198 { // 0 to 98.5 by halves
		ps = append(ps, float64(i)/2)
	}
	for i := range 9 { // 99 to 99.8 by tenths
		ps = append(ps, 99+float64(i)/10)
	}
	return append(ps, 99.9, 99.99, 100)
}

// histogram is the elapsed-time histogram of a label drawn on its own: the
// statistics' own.
func (t *Timeline) histogram(label string) *report.Histogram {
	if ls := t.stats.Label(label); ls != nil {
		return ls.Elapsed()
	}
	return &report.Histogram{}
}

// otherHistogram merges the statistics' histograms of the labels not drawn
// on their own: those merged into "Other" and those never tracked.
func (t *Timeline) otherHistogram(merged map[string]bool) *report.Histogram {
	var h report.Histogram
	for _, ls := range t.stats.Labels() {
		if _, tracked := t.labels.idx[ls.Label]; merged[ls.Label] || !tracked {
			h.Merge(ls.Elapsed())
		}
	}
	return &h
}

func (t *Timeline) percentilesFigure() *figure {
	f := newFigure("Response Time Percentiles", t.subtitle("response time below which a given percentage of samples fall"))
	p := newPlot("Percentile (%)", "Response time (ms)")
	p.X.Min, p.X.Max, p.Y.Min = 0, 100, 0
	_, other, merged := t.shownLabels()
	series, cols := t.labelColors()
	steps := percentileSteps()
	curve := func(h *report.Histogram) plotter.XYs {
		pts := make(plotter.XYs, len(steps))
		for i, v := range h.Percentiles(steps) {
			pts[i] = plotter.XY{X: steps[i], Y: v}
		}
		return pts
	}
	var tail tail
	tot := t.stats.Total()
	if len(series) > 1 {
		for k, l := range series {
			h := t.histogram(l.name)
			if other != nil && k == len(series)-1 {
				h = t.otherHistogram(merged)
			}
			if h.Count() > 0 {
				pts := curve(h)
				tail.add(pts)
				addSeries(f, p, l.name, pts, cols[k], 1.6, cols[k] == colorOther)
			}
		}
	}
	if tot.Count > 0 {
		name := "All samples"
		if len(series) == 1 {
			name = series[0].name
		}
		pts := curve(tot.Elapsed())
		tail.add(pts)
		addSeries(f, p, name, pts, colorAllLines, 2.4, false)
		padY(p)
		tail.cut(f, p)
		ps := t.stats.Options().Percentiles
		f.notes = append(f.notes, "All samples: median "+msFigure(tot.Median()))
		for _, q := range ps {
			f.notes = append(f.notes, report.PercentileName(q)+" "+msFigure(tot.Percentile(q)))
		}
	} else {
		padY(p)
	}
	t.emptyNote(f)
	f.add(p, 1)
	return f
}

func (t *Timeline) distributionFigure() *figure {
	f := newFigure("Response Time Distribution", t.subtitle("number of samples per response-time range"))
	p := newPlot("Response time (ms)", "Samples")
	p.Y.Tick.Marker = niceTicks{integer: true}
	p.X.Min, p.Y.Min = 0, 0
	h := t.stats.Total().Elapsed()
	if h.Count() > 0 {
		// Bars up to a high percentile, or to the slowest sample when it is
		// not far beyond: a few far outliers would squash every bar.
		q := 100.0
		switch c := h.Count(); {
		case c >= 1000:
			q = 99.9
		case c >= 100:
			q = 99
		}
		mx := float64(h.Max())
		hi := h.Percentile(q)
		if mx <= 1.5*hi || hi == 0 {
			hi = mx
		}
		// Times are whole milliseconds: a range is a whole number of them.
		step, _, _ := niceStep(max(hi, 1) / 50)
		step = max(math.Ceil(step), 1)
		nb := int(hi/step) + 1 // the last range holds hi
		okBins := make([]plotter.HistogramBin, nb)
		failBins := make([]plotter.HistogramBin, nb)
		for i := range nb {
			lo, up := float64(i)*step, float64(i+1)*step
			okBins[i] = plotter.HistogramBin{Min: lo, Max: up,
				Weight: float64(h.CountBelow(int64(up)) - h.CountBelow(int64(lo)))}
			failBins[i] = plotter.HistogramBin{Min: lo, Max: up,
				Weight: float64(t.failed.CountBelow(int64(up)) - t.failed.CountBelow(int64(lo)))}
		}
		over := h.Count() - h.CountBelow(int64(float64(nb)*step))
		for _, b := range []struct {
			name string
			bins []plotter.HistogramBin
		}{{"samples", okBins}, {"failed", failBins}} {
			pts := make(plotter.XYs, len(b.bins))
			for i, bin := range b.bins {
				pts[i] = plotter.XY{X: (bin.Min + bin.Max) / 2, Y: bin.Weight}
			}
			f.series = append(f.series, series{b.name, pts})
		}
		edge := draw.LineStyle{Color: color.White, Width: vg.Points(0.5)}
		allH := &plotter.Histogram{Bins: okBins, FillColor: palette[0], LineStyle: edge}
		p.Add(allH)
		f.addLegend(fmt.Sprintf("Samples (%s ms ranges)", formatNumber(step, 0)), allH)
		if t.failed.Count() > 0 {
			failH := &plotter.Histogram{Bins: failBins, FillColor: colorFailure, LineStyle: edge}
			p.Add(failH)
			f.addLegend("of which failed", failH)
		}
		f.notes = append(f.notes, fmt.Sprintf("%s, %s failed", samplesText(h.Count()), formatNumber(float64(t.failed.Count()), 0)))
		if over > 0 {
			what := "samples"
			if over == 1 {
				what = "sample"
			}
			f.notes = append(f.notes, fmt.Sprintf("%s %s from %s not shown", formatNumber(float64(over), 0), what, formatMs(float64(nb)*step)), "(slowest "+formatMs(mx)+")")
		}
	}
	padY(p)
	padX(p, 1)
	t.emptyNote(f)
	f.add(p, 1)
	return f
}

func (t *Timeline) timeVsThreadsFigure() *figure {
	f := newFigure("Time vs Threads", t.subtitle("mean response time by number of active threads"))
	p := newPlot("Active threads", "Response time (ms)")
	p.X.Tick.Marker = niceTicks{integer: true}
	p.X.Min, p.Y.Min = 0, 0
	curve := func(bs []sumBucket) plotter.XYs {
		var pts plotter.XYs
		for i, b := range bs {
			if b.n > 0 {
				x := float64(i*t.threadWidth) + float64(t.threadWidth-1)/2
				pts = append(pts, plotter.XY{X: x, Y: float64(b.sum) / float64(b.n)})
			}
		}
		return pts
	}
	series, cols := t.labelColors()
	if len(series) > 1 {
		for k, l := range series {
			addSeries(f, p, l.name, curve(l.threads), cols[k], 1.6, cols[k] == colorOther)
		}
	}
	if t.stats.Total().Count > 0 {
		name := "All samples"
		if len(series) == 1 {
			name = series[0].name
		}
		addSeries(f, p, name, curve(t.threadsAll), colorAllLines, 2.4, false)
	}
	if t.threadWidth > 1 {
		f.notes = append(f.notes, fmt.Sprintf("Threads grouped by %d", t.threadWidth))
	}
	padY(p)
	padX(p, 1)
	t.emptyNote(f)
	f.add(p, 1)
	return f
}
