package chart

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	"github.com/gojm/gojm/report"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Summary is the mean and median of one label in one run, a row of a
// comparison, in ms as the statistics give them.
type Summary struct {
	Run    string // run name, e.g. the JTL file's base name
	Label  string // sampler label; "" for the run as a whole
	Mean   float64
	Median float64
}

// PercentilePoint is one point of a percentile curve.
type PercentilePoint struct {
	Percentile float64 // 0 to 100
	Value      float64 // response time at that percentile, ms
}

// PercentileCurve is the response-time percentile curve of one run.
type PercentileCurve struct {
	Run    string
	Points []PercentilePoint // by increasing Percentile
}

// CurveOf is the percentile curve of one label's statistics (or their
// Total) through percentiles 0 to 100, the tail (99 to 100) drawn finely,
// with the statistics' one percentile definition.
func CurveOf(run string, l *report.LabelStats) PercentileCurve {
	c := PercentileCurve{Run: run}
	if l == nil || l.Count == 0 {
		return c
	}
	steps := percentileSteps()
	for i, v := range l.Percentiles(steps) {
		c.Points = append(c.Points, PercentilePoint{Percentile: steps[i], Value: v})
	}
	return c
}

// WriteMeanMedianComparison draws grouped bars of mean and median response
// time: one group per label (one group in all when rows carry no labels),
// one pair of bars per run in each group — the mean solid, the median in a
// lighter shade of the run's colour. Runs and labels keep the order they
// first appear in rows. The PNG is 1200×700 px.
func WriteMeanMedianComparison(path, title string, rows []Summary) error {
	if len(rows) == 0 {
		return errors.New("mean/median comparison: no rows")
	}
	var runs, labels []string
	runIdx, labelIdx := map[string]int{}, map[string]int{}
	for _, r := range rows {
		if _, ok := runIdx[r.Run]; !ok {
			runIdx[r.Run] = len(runs)
			runs = append(runs, r.Run)
		}
		if _, ok := labelIdx[r.Label]; !ok {
			labelIdx[r.Label] = len(labels)
			labels = append(labels, r.Label)
		}
	}
	mean := make([]plotter.Values, len(runs))
	median := make([]plotter.Values, len(runs))
	for i := range runs {
		mean[i] = make(plotter.Values, len(labels))
		median[i] = make(plotter.Values, len(labels))
	}
	for _, r := range rows {
		mean[runIdx[r.Run]][labelIdx[r.Label]] = r.Mean
		median[runIdx[r.Run]][labelIdx[r.Label]] = r.Median
	}

	sub := fmt.Sprintf("%d runs", len(runs))
	if len(labels) > 1 {
		sub += fmt.Sprintf(", %d labels", len(labels))
	}
	if title != "" {
		sub = title + " — " + sub
	}
	f := newFigure("Mean and Median Response Time by Run", sub)
	xLabel := "Label"
	if len(labels) == 1 {
		xLabel = ""
	}
	p := newPlotGrid(xLabel, "Response time (ms)", false)
	p.X.Tick.Marker = nil // NominalX sets the ticks
	p.Y.Min = 0

	// The data area is about 800 pt wide; each label gets one slot of it.
	bars := 2 * len(runs)
	slot := vg.Points(760) / vg.Length(len(labels))
	w := min(vg.Points(34), slot*0.8/vg.Length(bars))
	values := bars*len(labels) <= 24
	for i, run := range runs {
		c := seriesColor(i)
		for j, kind := range []struct {
			v    plotter.Values
			name string
			col  color.RGBA
		}{{mean[i], "mean", c}, {median[i], "median", lighter(c, 0.55)}} {
			b, err := plotter.NewBarChart(kind.v, w)
			if err != nil {
				return fmt.Errorf("mean/median comparison: %w", err)
			}
			b.Color = kind.col
			b.LineStyle = draw.LineStyle{Color: c, Width: vg.Points(0.8)}
			// Bars sit side by side, the group centred on its label.
			b.Offset = w * vg.Length(float64(2*i+j)-float64(bars-1)/2)
			p.Add(b)
			f.addLegend(shorten(run, 32)+" "+kind.name, b)
			if values {
				if lb := barLabels(kind.v, b.Offset); lb != nil {
					p.Add(lb)
				}
			}
		}
	}
	names := make([]string, len(labels))
	for i, l := range labels {
		switch l {
		case "":
			names[i] = "All samples"
		default:
			names[i] = shorten(l, 28)
		}
	}
	p.NominalX(names...)
	p.X.Tick.Label.Font.Size = 10
	if len(labels) > 6 {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YTop
	}
	p.X.Tick.Label.Color = colorText
	padY(p) // room for the value labels
	f.add(p, 1)
	return f.writePNG(path)
}

// barLabels writes each bar's value above it.
func barLabels(v plotter.Values, offset vg.Length) *plotter.Labels {
	xy := make(plotter.XYs, len(v))
	text := make([]string, len(v))
	for i, y := range v {
		xy[i] = plotter.XY{X: float64(i), Y: y}
		text[i] = formatNumber(y, 2) // as the table writes it; the axis says ms
	}
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: xy, Labels: text})
	if err != nil {
		return nil
	}
	for i := range l.TextStyle {
		l.TextStyle[i] = textStyle(sansFont, 8.5, colorText)
		l.TextStyle[i].XAlign = draw.XCenter
	}
	l.Offset = vg.Point{X: offset, Y: vg.Points(2)}
	return l
}

// WritePercentileComparison overlays the response-time percentile curves
// of several runs, each in its own colour, with its median and 99th
// percentile in the legend. The PNG is 1200×700 px.
func WritePercentileComparison(path, title string, curves []PercentileCurve) error {
	if len(curves) == 0 {
		return errors.New("percentile comparison: no curves")
	}
	sub := fmt.Sprintf("%d runs", len(curves))
	if title != "" {
		sub = title + " — " + sub
	}
	f := newFigure("Response Time Percentiles by Run", sub)
	p := newPlot("Percentile (%)", "Response time (ms)")
	p.X.Min, p.X.Max, p.Y.Min = 0, 100, 0
	var tail tail
	for i, c := range curves {
		pts := make(plotter.XYs, len(c.Points))
		for j, pt := range c.Points {
			pts[j] = plotter.XY{X: pt.Percentile, Y: pt.Value}
		}
		tail.add(pts)
		name := shorten(c.Run, 24)
		if len(c.Points) > 0 {
			name += fmt.Sprintf(" (median %s, p99 %s)", msFigure(at(c, 50)), msFigure(at(c, 99)))
		}
		addSeries(f, p, name, pts, seriesColor(i), 2, false)
	}
	padY(p)
	tail.cut(f, p)
	f.add(p, 1)
	return f.writePNG(path)
}

// tail tracks the top of percentile curves so the slowest 0.1% cannot
// flatten the rest of the chart.
type tail struct{ p999, p100 float64 }

// add takes in a curve through percentiles (x) and response times (y).
func (t *tail) add(pts plotter.XYs) {
	for _, pt := range pts {
		if pt.X <= 99.9 {
			t.p999 = max(t.p999, pt.Y)
		}
		t.p100 = max(t.p100, pt.Y)
	}
}

// cut stops the response-time axis a little above the largest 99.9th
// percentile when the slowest sample is more than twice as slow, and says so.
func (t *tail) cut(f *figure, p *plot.Plot) {
	if t.p999 > 0 && t.p100 > 2*t.p999 {
		p.Y.Max = 1.25 * t.p999
		f.notes = append(f.notes, fmt.Sprintf("Axis cut at %s; slowest %s", formatMs(p.Y.Max), formatMs(t.p100)))
	}
}

// at is a curve's value at percentile q, in ms: the point's own when the
// curve has one there (CurveOf's have at 50 and 99), else interpolated.
func at(c PercentileCurve, q float64) float64 {
	pts := c.Points
	for i, pt := range pts {
		if pt.Percentile >= q {
			if i == 0 || pt.Percentile == q {
				return pt.Value
			}
			a := pts[i-1]
			f := (q - a.Percentile) / (pt.Percentile - a.Percentile)
			return a.Value + f*(pt.Value-a.Value)
		}
	}
	return pts[len(pts)-1].Value
}
