package chart

import (
	"fmt"
	"math"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/gojm/gojm/report"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Histogram range shared by the package: microseconds from 1 µs to one
// hour; longer samples count as one hour.
const (
	histLowest  = 1
	histHighest = int64(time.Hour / time.Microsecond)
)

// newHistogram returns a histogram of microseconds with the given
// significant digits.
func newHistogram(digits int) *hdrhistogram.Histogram {
	return hdrhistogram.New(histLowest, histHighest, digits)
}

// micros is d in whole microseconds, clamped to the histogram range.
func micros(d time.Duration) int64 {
	return min(max(int64(d/time.Microsecond), 0), histHighest)
}

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
// Points are downsampled past a few thousand samples (see MaxPoints); the
// lines are computed over every sample. Memory is fixed at construction.
type GraphResults struct {
	title string

	n        int64
	failures int64
	mean, m2 float64 // Welford's running mean and sum of squares, in ms
	latest   float64 // last sample, ms
	hist     *hdrhistogram.Histogram
	first    time.Time // earliest start
	last     time.Time // latest end

	points pointStore

	stride int64
	cps    [maxCheckpoints]checkpoint
	ncp    int
}

// NewGraphResults returns an empty Graph Results sink; title (a plan or run
// name, may be empty) is printed under the chart's title.
func NewGraphResults(title string) *GraphResults {
	g := &GraphResults{title: title, hist: newHistogram(3), stride: 1}
	g.points.init()
	return g
}

// Add records one sample. Its sub-samples are not plotted, as in JMeter.
func (g *GraphResults) Add(s *report.Sample) {
	g.n++
	ms := float64(s.Elapsed) / float64(time.Millisecond)
	d := ms - g.mean
	g.mean += d / float64(g.n)
	g.m2 += d * (ms - g.mean)
	g.latest = ms
	_ = g.hist.RecordValue(micros(s.Elapsed)) // in range by construction
	if g.n == 1 || s.Start.Before(g.first) {
		g.first = s.Start
	}
	if end := s.End(); g.n == 1 || end.After(g.last) {
		g.last = end
	}
	if !s.Success {
		g.failures++
	}
	g.points.add(g.n, ms, s.Success)
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
	g.cps[g.ncp] = g.current()
	g.ncp++
}

// current is the running statistics now.
func (g *GraphResults) current() checkpoint {
	c := checkpoint{seq: g.n, mean: g.mean}
	if g.n > 0 {
		c.median = float64(g.hist.ValueAtQuantile(50)) / 1000
		c.deviation = math.Sqrt(g.m2 / float64(g.n))
		if span := g.last.Sub(g.first); span > 0 {
			c.throughput = float64(g.n) / span.Minutes()
		}
	}
	return c
}

// series returns the checkpoints followed by the current state.
func (g *GraphResults) series() []checkpoint {
	out := make([]checkpoint, 0, g.ncp+1)
	out = append(out, g.cps[:g.ncp]...)
	if g.n > 0 && (g.ncp == 0 || out[g.ncp-1].seq != g.n) {
		out = append(out, g.current())
	}
	return out
}

// WritePNG draws the chart, as it stands, into a 1200×700 PNG file.
func (g *GraphResults) WritePNG(path string) error {
	return g.figure().writePNG(path)
}

func (g *GraphResults) figure() *figure {
	sub := fmt.Sprintf("%s samples", formatNumber(float64(g.n), 0))
	if g.failures > 0 {
		sub += fmt.Sprintf(", %s failed (%.2f%%)", formatNumber(float64(g.failures), 0), 100*float64(g.failures)/float64(g.n))
	}
	if span := g.last.Sub(g.first); g.n > 0 && span > 0 {
		sub += ", over " + span.Round(time.Second).String()
	}
	if g.title != "" {
		sub = g.title + " — " + sub
	}
	f := newFigure("Graph Results", sub)

	top := newPlot("", "Elapsed time (ms)")
	bottom := newPlot("Sample number", "Throughput (/min)")
	bottom.Y.Tick.Marker = niceTicks{n: 3}
	top.X.Min, bottom.X.Min = 0, 0
	top.Y.Min, bottom.Y.Min = 0, 0
	if g.n > 0 {
		top.X.Max, bottom.X.Max = float64(g.n), float64(g.n)
	}

	// Cut the elapsed axis above a few far outliers so the bulk stays
	// readable; points above it are drawn on its top edge as triangles.
	var yCut float64
	if g.n > 0 {
		p99 := float64(g.hist.ValueAtQuantile(99)) / 1000
		mx := float64(g.hist.Max()) / 1000
		if mx > 4*p99 && p99 > 0 {
			yCut = 1.5 * p99
			top.Y.Max = yCut
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
	if yCut > 0 {
		top.Y.Max = yCut // lines above it leave the plot, their values are in the legend
	}

	now := g.current()
	f.addLegend(fmt.Sprintf("Data (%s samples)", formatNumber(float64(g.n), 0)), data)
	if g.failures > 0 {
		f.addLegend(fmt.Sprintf("Failed (%s)", formatNumber(float64(g.failures), 0)), failed)
	}
	f.addLegend("Average "+formatMs(now.mean), avgLine)
	f.addLegend("Median "+formatMs(now.median), medLine)
	f.addLegend("Deviation "+formatMs(now.deviation), devLine)
	f.addLegend("Throughput "+formatRate(now.throughput)+"/min", tputLine)
	if g.n > 0 {
		f.notes = append(f.notes, "Latest sample "+formatMs(g.latest))
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
