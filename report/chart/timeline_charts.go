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

	"github.com/HdrHistogram/hdrhistogram-go"
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

// subtitle is the line under every Timeline chart's title.
func (t *Timeline) subtitle(extra string) string {
	s := extra
	if t.cfg.Title != "" {
		s = t.cfg.Title + " — " + s
	}
	return s
}

// Neighbouring buckets are drawn together until an over-time line has at
// most maxDisplayPoints points, and, while it has more than
// minDisplayPoints, until its points average samplesPerPoint samples: a
// long run stays readable and a sparse one is not all spikes.
const (
	maxDisplayPoints = 150
	minDisplayPoints = 12
	samplesPerPoint  = 20
)

// view is how the over-time charts group the Timeline's buckets.
type view struct {
	k        int           // stored buckets per drawn bucket
	width    time.Duration // width of a drawn bucket
	n        int           // drawn buckets
	unit     time.Duration // unit of the time axis
	unitName string
	lastSpan time.Duration // part of the last drawn bucket the run has covered
}

func (t *Timeline) view() view {
	v := view{k: 1}
	for {
		n := (t.used + v.k - 1) / v.k
		if n <= maxDisplayPoints && (n <= minDisplayPoints || t.n >= int64(n)*samplesPerPoint) {
			break
		}
		v.k *= 2
	}
	v.width = t.width * time.Duration(v.k)
	v.n = (t.used + v.k - 1) / v.k
	span := time.Duration(v.n) * v.width
	switch {
	case span <= 3*time.Minute:
		v.unit, v.unitName = time.Second, "s"
	case span <= 3*time.Hour:
		v.unit, v.unitName = time.Minute, "min"
	default:
		v.unit, v.unitName = time.Hour, "h"
	}
	if v.n > 0 {
		v.lastSpan = t.latest.Sub(t.origin) - time.Duration(v.n-1)*v.width
	}
	return v
}

// x is the middle of drawn bucket i in the axis unit.
func (v view) x(i int) float64 {
	return (float64(i) + 0.5) * float64(v.width) / float64(v.unit)
}

// rateBuckets is how many drawn buckets the per-second charts use: the
// last is left out when the run covered less than half of it.
func (v view) rateBuckets() int {
	if v.n > 1 && v.lastSpan < v.width/2 {
		return v.n - 1
	}
	return v.n
}

// perSecond is the rate of n events in drawn bucket i; the last bucket's
// rate is over the part of it the run covered.
func (v view) perSecond(i int, n int64) float64 {
	d := v.width
	if i == v.n-1 && v.lastSpan >= v.width/2 && v.lastSpan < v.width {
		d = v.lastSpan
	}
	return float64(n) / d.Seconds()
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

// timePlot is a plot with the elapsed-time axis of the run.
func (t *Timeline) timePlot(v view, yLabel string) *plot.Plot {
	p := newPlot("Elapsed time since the first sample ("+v.unitName+")", yLabel)
	p.X.Min = 0
	p.Y.Min = 0
	if v.n > 0 {
		p.X.Max = float64(time.Duration(v.n)*v.width) / float64(v.unit)
	}
	return p
}

// shownLabels returns the labels drawn individually (the busiest
// MaxLabels, in order of first appearance) and, when others exist, one
// series merging them all.
func (t *Timeline) shownLabels() (shown []*labelSeries, other *labelSeries) {
	all := t.labels.all()
	if len(all) <= t.cfg.MaxLabels {
		return all, nil
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
	merged := 0
	fold := func(l *labelSeries) {
		merged++
		other.n += l.n
		for i := range other.time {
			other.time[i] = other.time[i].plus(l.time[i])
		}
		for i := range other.threads {
			other.threads[i] = other.threads[i].plus(l.threads[i])
		}
		other.hist.Merge(l.hist)
	}
	for i, l := range t.labels.list {
		if !keep[i] {
			fold(l)
		}
	}
	if t.labels.other != nil {
		fold(t.labels.other)
		other.name = "Other labels"
	} else {
		other.name = fmt.Sprintf("Other (%d labels)", merged)
	}
	return shown, other
}

// labelColors returns the shown series with their colours; Other is grey.
func (t *Timeline) labelColors() ([]*labelSeries, []color.RGBA) {
	shown, other := t.shownLabels()
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
	f := newFigure(title, t.subtitle(strings.ToLower(what[:1])+what[1:]+" per label, mean per "+widthText(v.width)))
	p := t.timePlot(v, what+" (ms)")
	series, cols := t.labelColors()
	for k, l := range series {
		var pts plotter.XYs
		for i, b := range regroup(l.time, v.k, v.n) {
			if b.n > 0 {
				pts = append(pts, plotter.XY{X: v.x(i), Y: float64(pick(b)) / float64(b.n) / 1000})
			}
		}
		addSeries(f, p, l.name, pts, cols[k], 1.8, l.name != "" && k == len(series)-1 && cols[k] == colorOther)
	}
	t.emptyNote(f)
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

func (t *Timeline) throughputFigure() *figure {
	v := t.view()
	f := newFigure("Throughput Over Time", t.subtitle("per second, averaged over "+widthText(v.width)))
	p := t.timePlot(v, "Throughput (/s)")
	n := v.rateBuckets()
	hits := make(plotter.XYs, n)
	txn := make(plotter.XYs, n)
	errs := make(plotter.XYs, n)
	var totHits, totTxn, totErr int64
	for i, b := range regroup(t.buckets, v.k, v.n)[:n] {
		x := v.x(i)
		tx := b.top
		if t.txnSeen > 0 {
			tx = b.txn
		}
		hits[i] = plotter.XY{X: x, Y: v.perSecond(i, b.hits)}
		txn[i] = plotter.XY{X: x, Y: v.perSecond(i, tx)}
		errs[i] = plotter.XY{X: x, Y: v.perSecond(i, b.errors)}
		totHits += b.hits
		totTxn += tx
		totErr += b.errors
	}
	// Mean rates over the whole run: first sample start to last sample start.
	secs := t.latest.Sub(t.origin).Seconds()
	avg := func(v int64) string {
		if secs <= 0 {
			return "–"
		}
		return formatRate(float64(v) / secs)
	}
	addSeries(f, p, "Hits/s (mean "+avg(totHits)+")", hits, palette[0], 1.8, false)
	addSeries(f, p, "Transactions/s (mean "+avg(totTxn)+")", txn, colorThroughput, 1.8, false)
	addSeries(f, p, "Errors/s (mean "+avg(totErr)+")", errs, palette[3], 1.8, false)
	if t.txnSeen > 0 {
		f.notes = append(f.notes, "Transactions: Transaction Controller samples")
	} else {
		f.notes = append(f.notes, "Transactions: top-level samples")
	}
	f.notes = append(f.notes, "Hits: every request, sub-samples included")
	t.emptyNote(f)
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
	f := newFigure("Response Codes per Second", t.subtitle("responses per second by code, averaged over "+widthText(v.width)))
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
	used := map[int]int{}
	n := v.rateBuckets()
	for _, c := range codes {
		pts := make(plotter.XYs, n)
		for i, b := range regroup(c.time, v.k, v.n)[:n] {
			pts[i] = plotter.XY{X: v.x(i), Y: v.perSecond(i, int64(b))}
		}
		cl := classOf(c.name)
		col := codeClass[cl][used[cl]%len(codeClass[cl])]
		used[cl]++
		addSeries(f, p, fmt.Sprintf("%s (%s)", codeName(c.name), formatNumber(float64(c.n), 0)), pts, col, 1.8, c == t.codes.other)
	}
	t.emptyNote(f)
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
	f := newFigure("Active Threads Over Time", t.subtitle("mean active threads per thread group, per "+widthText(v.width)))
	p := t.timePlot(v, "Active threads")
	groups := t.groups.all()
	for k, g := range groups {
		var pts plotter.XYs
		for i, b := range regroup(g.time, v.k, v.n) {
			if b.n > 0 {
				pts = append(pts, plotter.XY{X: v.x(i), Y: float64(b.sum) / float64(b.n)})
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
				pts = append(pts, plotter.XY{X: v.x(i), Y: float64(b.threads) / float64(b.top)})
			}
		}
		addSeries(f, p, "All thread groups", pts, colorAllLines, 2.2, true)
	}
	t.emptyNote(f)
	f.add(p, 1)
	return f
}

// percentileSteps are the percentiles the curves are drawn through.
func percentileSteps() []float64 {
	var ps []float64
	for p := 0.0; p < 99; p += 0.5 {
		ps = append(ps, p)
	}
	for p := 99.0; p < 99.9; p += 0.1 {
		ps = append(ps, p)
	}
	return append(ps, 99.9, 99.99, 100)
}

func (t *Timeline) percentilesFigure() *figure {
	f := newFigure("Response Time Percentiles", t.subtitle("response time below which a given percentage of samples fall"))
	p := newPlot("Percentile (%)", "Response time (ms)")
	p.X.Min, p.X.Max, p.Y.Min = 0, 100, 0
	series, cols := t.labelColors()
	steps := percentileSteps()
	curve := func(h interface{ ValueAtQuantile(float64) int64 }) plotter.XYs {
		pts := make(plotter.XYs, len(steps))
		for i, q := range steps {
			pts[i] = plotter.XY{X: q, Y: float64(h.ValueAtQuantile(q)) / 1000}
		}
		return pts
	}
	var tail tail
	if len(series) > 1 || t.n == 0 {
		for k, l := range series {
			if l.n > 0 {
				pts := curve(l.hist)
				tail.add(pts)
				addSeries(f, p, l.name, pts, cols[k], 1.6, cols[k] == colorOther)
			}
		}
	}
	if t.n > 0 {
		name := "All samples"
		if len(series) == 1 {
			name = series[0].name
		}
		pts := curve(t.hist)
		tail.add(pts)
		addSeries(f, p, name, pts, colorAllLines, 2.4, false)
		tail.cut(f, p)
		f.notes = append(f.notes,
			"All samples: p50 "+formatMs(float64(t.hist.ValueAtQuantile(50))/1000),
			"p90 "+formatMs(float64(t.hist.ValueAtQuantile(90))/1000)+
				", p95 "+formatMs(float64(t.hist.ValueAtQuantile(95))/1000)+
				", p99 "+formatMs(float64(t.hist.ValueAtQuantile(99))/1000))
	}
	t.emptyNote(f)
	f.add(p, 1)
	return f
}

func (t *Timeline) distributionFigure() *figure {
	f := newFigure("Response Time Distribution", t.subtitle("number of samples per response-time range"))
	p := newPlot("Response time (ms)", "Samples")
	p.X.Min, p.Y.Min = 0, 0
	if t.n > 0 {
		// Bars up to a high percentile, or to the slowest sample when it is
		// not far beyond: a few far outliers would squash every bar.
		q := 100.0
		switch c := t.hist.TotalCount(); {
		case c >= 1000:
			q = 99.9
		case c >= 100:
			q = 99
		}
		mx := float64(t.hist.Max()) / 1000
		hi := float64(t.hist.ValueAtQuantile(q)) / 1000
		if mx <= 1.5*hi || hi == 0 {
			hi = mx
		}
		step, _, _ := niceStep(max(hi, 0.001) / 50)
		nb := int(math.Ceil(hi/step + 1e-9))
		if float64(nb)*step <= hi {
			nb++
		}
		all := make([]float64, nb)
		fail := make([]float64, nb)
		fill := func(dst []float64, bars []hdrhistogram.Bar) (over int64) {
			for _, b := range bars {
				mid := float64(b.From+b.To) / 2 / 1000
				if i := int(mid / step); i < nb {
					dst[i] += float64(b.Count)
				} else {
					over += b.Count
				}
			}
			return over
		}
		over := fill(all, t.hist.Distribution())
		fill(fail, t.failHist.Distribution())
		okBins := make([]plotter.HistogramBin, nb)
		failBins := make([]plotter.HistogramBin, nb)
		for i := range nb {
			lo, up := float64(i)*step, float64(i+1)*step
			okBins[i] = plotter.HistogramBin{Min: lo, Max: up, Weight: all[i]}
			failBins[i] = plotter.HistogramBin{Min: lo, Max: up, Weight: fail[i]}
		}
		edge := draw.LineStyle{Color: color.White, Width: vg.Points(0.5)}
		allH := &plotter.Histogram{Bins: okBins, FillColor: palette[0], LineStyle: edge}
		p.Add(allH)
		f.addLegend(fmt.Sprintf("Samples (%s ms ranges)", formatNumber(step, max(0, int(-math.Floor(math.Log10(step)))))), allH)
		if t.failHist.TotalCount() > 0 {
			failH := &plotter.Histogram{Bins: failBins, FillColor: colorFailure, LineStyle: edge}
			p.Add(failH)
			f.addLegend("of which failed", failH)
		}
		if over > 0 {
			what := "samples"
			if over == 1 {
				what = "sample"
			}
			f.notes = append(f.notes, fmt.Sprintf("%s %s above %s not shown", formatNumber(float64(over), 0), what, formatMs(float64(nb)*step)), "(slowest "+formatMs(mx)+")")
		}
	}
	t.emptyNote(f)
	f.add(p, 1)
	return f
}

func (t *Timeline) timeVsThreadsFigure() *figure {
	f := newFigure("Time vs Threads", t.subtitle("mean response time by number of active threads"))
	p := newPlot("Active threads", "Response time (ms)")
	p.X.Min, p.Y.Min = 0, 0
	curve := func(bs []sumBucket) plotter.XYs {
		var pts plotter.XYs
		for i, b := range bs {
			if b.n > 0 {
				x := float64(i*t.threadWidth) + float64(t.threadWidth-1)/2
				pts = append(pts, plotter.XY{X: x, Y: float64(b.sum) / float64(b.n) / 1000})
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
	if t.n > 0 {
		name := "All samples"
		if len(series) == 1 {
			name = series[0].name
		}
		addSeries(f, p, name, curve(t.threadsAll), colorAllLines, 2.4, false)
	}
	if t.threadWidth > 1 {
		f.notes = append(f.notes, fmt.Sprintf("Threads grouped by %d", t.threadWidth))
	}
	t.emptyNote(f)
	f.add(p, 1)
	return f
}
