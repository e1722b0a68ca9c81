package chart

import (
	"fmt"
	"math"
	"strconv"

	"github.com/gojm/gojm/report"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// maxCheckpoints bounds the points of the running lines: the running
// statistics are recorded every stride samples, and when the table is full
// every other checkpoint is dropped and the stride doubles.
const maxCheckpoints = 1024

// checkpoint is the running statistics after sample number seq.
type checkpoint struct {
	seq        int64
	mean       float64 // ms
	median     float64 // ms
	deviation  float64 // ms
	throughput float64 // samples per minute
}

// GraphResults is JMeter's Graph Results listener as a sink: every sample's
// elapsed time as a point against its number, failures marked, with the
// running average, median, standard deviation and throughput as lines.
// Its samples are the rows the statistics count in their Total
// (StatsOptions.EachRow: Transaction Controller samples left out, as from
// every figure over the whole run), in whole milliseconds, and the figures
// of its legend are the statistics' own definitions: over the samples the
// listener saw, they are the Total's figures. Points are downsampled past
// a few thousand samples (see MaxPoints); the lines are computed over
// every sample. Memory is fixed at construction but for the histogram of
// elapsed times, which grows with their range.
type GraphResults struct {
	title string
	opt   report.StatsOptions

	n, failures int64
	mean, m2    float64 // Welford's running mean and sum of squares of the running deviation, in ms
	latest      int64   // last sample, ms
	hist        report.Histogram
	first, last int64 // earliest start and latest end, ms since the epoch

	points pointStore

	stride int64
	cps    [maxCheckpoints]checkpoint
	ncp    int
}

// NewGraphResults returns an empty Graph Results sink; title (a plan or run
// name, may be empty) is printed under the chart's title, and opt says
// which rows count (the statistics' options).
func NewGraphResults(title string, opt report.StatsOptions) *GraphResults {
	g := &GraphResults{title: title, opt: opt, stride: 1}
	g.points.init()
	return g
}

// Add records the rows of one sample that the Total counts.
func (g *GraphResults) Add(s *report.Sample) { g.opt.EachRow(s, g.row) }

func (g *GraphResults) row(s *report.Sample, inTotal bool) {
	if !inTotal {
		return
	}
	g.n++
	ms := s.Elapsed.Milliseconds()
	d := float64(ms) - g.mean
	g.mean += d / float64(g.n)
	g.m2 += d * (float64(ms) - g.mean)
	g.latest = ms
	g.hist.Add(ms)
	start := s.Start.UnixMilli()
	if g.n == 1 || start < g.first {
		g.first = start
	}
	if end := start + ms; g.n == 1 || end > g.last {
		g.last = end
	}
	if !s.Success {
		g.failures++
	}
	g.points.add(g.n, float64(ms), s.Success)
	if g.n&(g.stride-1) == 0 { // the stride is a power of two
		g.checkpoint()
	}
}

// Close implements report.Sink; the chart stays available.
func (g *GraphResults) Close() error { return nil }

// Count is the number of samples added.
func (g *GraphResults) Count() int64 { return g.n }

// Retained is the number of sample points currently held for drawing; it
// never exceeds MaxPoints.
func (g *GraphResults) Retained() int { return g.points.retained() }

func (g *GraphResults) checkpoint() {
	if g.ncp == maxCheckpoints {
		for i := range maxCheckpoints / 2 {
			g.cps[i] = g.cps[2*i+1]
		}
		g.ncp = maxCheckpoints / 2
		g.stride *= 2
		if g.n&(g.stride-1) != 0 {
			return
		}
	}
	g.cps[g.ncp] = g.running()
	g.ncp++
}

// running is the running statistics now, as the lines draw them.
func (g *GraphResults) running() checkpoint {
	c := checkpoint{seq: g.n, mean: g.hist.Mean()}
	if g.n > 0 {
		c.median = g.hist.Percentile(50)
		c.deviation = math.Sqrt(g.m2 / float64(g.n))
		if g.last > g.first {
			c.throughput = g.throughput() * 60
		}
	}
	return c
}

// final is the statistics over every sample, as the statistics compute
// them: the last point of the lines and the legend.
func (g *GraphResults) final() checkpoint {
	c := g.running()
	if g.n > 0 {
		c.deviation = g.hist.StdDev()
	}
	return c
}

// throughput is samples per second over the first start to the last end,
// as report.LabelStats.Throughput computes it.
func (g *GraphResults) throughput() float64 {
	return float64(g.n) / float64(g.last-g.first) * 1000
}

// series returns the checkpoints followed by the statistics now.
func (g *GraphResults) series() []checkpoint {
	out := make([]checkpoint, 0, g.ncp+1)
	out = append(out, g.cps[:g.ncp]...)
	if g.n > 0 {
		if g.ncp > 0 && out[g.ncp-1].seq == g.n {
			out = out[:g.ncp-1]
		}
		out = append(out, g.final())
	}
	return out
}

// WritePNG draws the chart, as it stands, into a 1200×700 PNG file.
func (g *GraphResults) WritePNG(path string) error {
	return g.figure().writePNG(path)
}

// Caption is the text of the chart as it stands.
func (g *GraphResults) Caption(file string) Caption { return g.figure().caption(file) }

func (g *GraphResults) figure() *figure {
	sub := samplesText(g.n)
	if g.failures > 0 {
		sub += fmt.Sprintf(", %s failed (%s%%)", formatNumber(float64(g.failures), 0),
			strconv.FormatFloat(float64(g.failures)*100/float64(g.n), 'f', 2, 64))
	}
	if g.n > 0 && g.last > g.first {
		sub += fmt.Sprintf(", over %.3f s", float64(g.last-g.first)/1000)
	}
	if g.title != "" {
		sub = g.title + " — " + sub
	}
	f := newFigure("Graph Results", sub)

	top := newPlot("", "Elapsed time (ms)")
	bottom := newPlot("Sample number", "Throughput (/min)")
	bottom.Y.Tick.Marker = niceTicks{n: 3}
	top.X.Tick.Marker = niceTicks{integer: true}
	bottom.X.Tick.Marker = niceTicks{integer: true}

	// Cut the elapsed axis above a few far outliers so the bulk stays
	// readable; points above it are drawn on its top edge as triangles.
	var yCut float64
	if g.n > 0 {
		p99 := g.hist.Percentile(99)
		mx := float64(g.hist.Max())
		if mx > 4*p99 && p99 > 0 {
			yCut = 1.5 * p99
			f.notes = append(f.notes, fmt.Sprintf("Axis cut at %s; slowest %s (▲ on top edge)", formatMs(yCut), formatMs(mx)))
		}
	}

	var ok, bad, over plotter.XYs
	g.points.each(func(p point) {
		xy := plotter.XY{X: float64(p.seq), Y: float64(p.ms)}
		switch {
		case yCut > 0 && xy.Y > yCut:
			xy.Y = yCut
			over = append(over, xy)
		case !p.fail:
			ok = append(ok, xy)
		default:
			bad = append(bad, xy)
		}
	})
	data := &plotter.Scatter{XYs: ok, GlyphStyle: draw.GlyphStyle{Color: colorData, Radius: vg.Points(1.1), Shape: draw.CircleGlyph{}}}
	failed := &plotter.Scatter{XYs: bad, GlyphStyle: draw.GlyphStyle{Color: colorFailure, Radius: vg.Points(2.6), Shape: thickCross{}}}
	top.Add(data)
	if len(over) > 0 {
		top.Add(&plotter.Scatter{XYs: over, GlyphStyle: draw.GlyphStyle{Color: colorData, Radius: vg.Points(2.5), Shape: draw.TriangleGlyph{}}})
	}
	top.Add(failed)
	f.series = append(f.series, series{"data", append(append(append(plotter.XYs(nil), ok...), bad...), over...)})

	cps := g.series()
	avg := make(plotter.XYs, len(cps))
	med := make(plotter.XYs, len(cps))
	dev := make(plotter.XYs, len(cps))
	tput := make(plotter.XYs, len(cps))
	for i, c := range cps {
		x := float64(c.seq)
		avg[i] = plotter.XY{X: x, Y: c.mean}
		med[i] = plotter.XY{X: x, Y: c.median}
		dev[i] = plotter.XY{X: x, Y: c.deviation}
		tput[i] = plotter.XY{X: x, Y: c.throughput}
	}
	devLine := xyLine(dev, colorDeviation, 1.6)
	// The median is drawn wider and under the average so that both show
	// where they coincide.
	avgLine := xyLine(avg, colorAverage, 1.8)
	medLine := xyLine(med, colorMedian, 3.4)
	tputLine := xyLine(tput, colorThroughput, 2.2)
	top.Add(devLine, medLine, avgLine)
	bottom.Add(tputLine)
	if len(cps) == 1 { // a line through one point draws nothing: mark it
		for _, l := range []*plotter.Line{devLine, medLine, avgLine, tputLine} {
			dot := &plotter.Scatter{XYs: l.XYs, GlyphStyle: draw.GlyphStyle{Color: l.Color, Radius: l.Width * 1.5, Shape: draw.CircleGlyph{}}}
			if l == tputLine {
				bottom.Add(dot)
			} else {
				top.Add(dot)
			}
		}
	}
	f.series = append(f.series, series{"average", avg}, series{"median", med}, series{"deviation", dev}, series{"throughput", tput})

	// Room on every side: sample 1 and the last are not on the frame, and
	// nothing touches the top.
	for _, p := range []*plot.Plot{top, bottom} {
		p.X.Min, p.Y.Min = 0, 0
		p.X.Max = float64(g.n)
		padX(p, 1)
		padY(p)
	}
	if yCut > 0 {
		top.Y.Max = yCut // lines above it leave the plot, their values are in the legend
	}

	now := g.final()
	f.addLegend("Data ("+samplesText(g.n)+")", data)
	if g.failures > 0 {
		f.addLegend(fmt.Sprintf("Failed (%s)", formatNumber(float64(g.failures), 0)), failed)
	}
	f.addLegend("Average "+msFigure(now.mean), avgLine)
	f.addLegend("Median "+msFigure(now.median), medLine)
	f.addLegend("Deviation "+msFigure(now.deviation), devLine)
	rate := "–"
	if g.n > 0 && g.last > g.first {
		rate = formatNumber(g.throughput()*60, 0) + "/min (" + rateFigure(g.throughput()) + "/s)"
	}
	f.addLegend("Throughput "+rate, tputLine)
	if g.n > 0 {
		f.notes = append(f.notes, "Latest sample "+msFigure(float64(g.latest)))
	} else {
		f.notes = append(f.notes, emptyNote)
	}
	if shown := g.points.retained(); int64(shown) < g.n {
		f.notes = append(f.notes, fmt.Sprintf("Points: a sample of %s of %s", formatNumber(float64(shown), 0), formatNumber(float64(g.n), 0)))
		f.notes = append(f.notes, "(lines use every sample)")
	}
	f.add(top, 3)
	f.add(bottom, 1)
	return f
}

// thickCross is an × glyph drawn with strokes a third of its radius wide,
// so failures stand out among the dots.
type thickCross struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (thickCross) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: sty.Radius * 0.6})
	r := sty.Radius
	var p vg.Path
	p.Move(vg.Point{X: pt.X - r, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y + r})
	c.Stroke(p)
	p = vg.Path{}
	p.Move(vg.Point{X: pt.X - r, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y - r})
	c.Stroke(p)
}
