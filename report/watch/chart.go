package watch

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/gojm/gojm/internal/atomicfile"
)

// ChartName is the file name of the server chart in a results folder.
const ChartName = "server.png"

// Chart size in pixels, and the resolution the lengths are laid out at.
const (
	chartWidth  = 1200
	chartHeight = 700
	chartDPI    = 96
)

// The chart's colours; tests find the lines by them. Throughput and mean
// response keep the colours report/chart gives them (JMeter's green and
// blue).
var (
	colorThroughput = color.RGBA{R: 0, G: 153, B: 0, A: 255}     // green
	colorResponse   = color.RGBA{R: 0, G: 0, B: 255, A: 255}     // blue
	colorCPU        = color.RGBA{R: 214, G: 39, B: 40, A: 255}   // red
	colorRSS        = color.RGBA{R: 148, G: 103, B: 189, A: 255} // purple
	colorProcs      = []color.RGBA{
		{R: 255, G: 127, B: 14, A: 255},  // orange
		{R: 140, G: 86, B: 75, A: 255},   // brown
		{R: 227, G: 119, B: 194, A: 255}, // pink
		{R: 0, G: 110, B: 110, A: 255},   // teal
		{R: 188, G: 189, B: 34, A: 255},  // olive
		{R: 23, G: 190, B: 207, A: 255},  // cyan
	}
)

// chartFont is the typeface of all text, as in report/chart.
var chartFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

// RunSeries is the load side of the server chart, one value per second of
// the run, as the run's own reports count them.
type RunSeries struct {
	// Start is the wall time of second 0. When zero, the run is taken to
	// have started when the watch did.
	Start time.Time
	// Step is the seconds each value covers (0 means 1): value i covers
	// [i·Step, (i+1)·Step) after Start.
	Step float64
	// Throughput[i] is the requests per second completed in step i.
	Throughput []float64
	// MeanResponse[i] is the mean response time in step i, in
	// milliseconds; NaN (or negative) for a step without samples.
	MeanResponse []float64
}

func (r RunSeries) step() float64 {
	if r.Step > 0 {
		return r.Step
	}
	return 1
}

// SaveChart draws the chart (see WriteChart) into the PNG file at path.
func SaveChart(path string, s Series, run RunSeries) error {
	if err := atomicfile.Write(path, 0o644, func(w io.Writer) error { return WriteChart(w, s, run) }); err != nil {
		return fmt.Errorf("watch: chart: %w", err)
	}
	return nil
}

// WriteChart draws the server chart as a 1200×700 PNG: panels stacked on
// one time axis, throughput and mean response time of the run (each left
// out when its slice is empty) above the watched processes' CPU % and RSS.
// Every point stands at the end of the step (or tick) it covers. The
// thick CPU and RSS lines are the sums over processes; with two to six
// processes each also gets a thin dashed line.
func WriteChart(w io.Writer, s Series, run RunSeries) error {
	if len(s.Total.Offsets) == 0 && len(run.Throughput) == 0 && len(run.MeanResponse) == 0 {
		return fmt.Errorf("watch: chart: nothing to draw")
	}
	// Server offsets are seconds since the watch began; move them to the
	// run's clock.
	shift := 0.0
	if !run.Start.IsZero() && !s.Start.IsZero() {
		shift = s.Start.Sub(run.Start).Seconds()
	}
	xmax := 1.0
	xmax = max(xmax, run.step()*float64(max(len(run.Throughput), len(run.MeanResponse))))
	if n := len(s.Total.Offsets); n > 0 {
		xmax = max(xmax, s.Total.Offsets[n-1]+shift)
	}

	var panels []*panel
	if len(run.Throughput) > 0 {
		p := newPanel("Throughput (requests/s)")
		if err := p.line("throughput", perStep(run.Throughput, run.step()), colorThroughput, 2, false, true); err != nil {
			return err
		}
		panels = append(panels, p)
	}
	if len(run.MeanResponse) > 0 {
		p := newPanel("Mean response (ms)")
		if err := p.line("mean response time", perStep(run.MeanResponse, run.step()), colorResponse, 2, false, true); err != nil {
			return err
		}
		panels = append(panels, p)
	}
	if len(s.Total.Offsets) > 0 {
		cpu := newPanel("CPU (% of one core)")
		rss := newPanel("RSS (MiB)")
		total := "all watched processes"
		if len(s.Procs) == 1 {
			total = fmt.Sprintf("PID %d %s", s.Procs[0].PID, s.Procs[0].Name)
		} else if len(s.Procs) > 1 {
			total = fmt.Sprintf("all %d processes", len(s.Procs))
		}
		if err := cpu.line(total, offsets(s.Total.Offsets, s.Total.CPU, shift, 1), colorCPU, 2, false, true); err != nil {
			return err
		}
		if err := rss.line(total, offsets(s.Total.Offsets, s.Total.RSS, shift, 1.0/(1<<20)), colorRSS, 2, false, true); err != nil {
			return err
		}
		if len(s.Procs) >= 2 && len(s.Procs) <= len(colorProcs) {
			// One dashed line per process in both panels, named once (in
			// the CPU panel's legend) to leave room for the data.
			for i, ps := range s.Procs {
				name := fmt.Sprintf("PID %d %s", ps.PID, ps.Name)
				c := colorProcs[i]
				if err := cpu.line(name, offsets(ps.Offsets, ps.CPU, shift, 1), c, 1, true, true); err != nil {
					return err
				}
				if err := rss.line(name, offsets(ps.Offsets, ps.RSS, shift, 1.0/(1<<20)), c, 1, true, false); err != nil {
					return err
				}
			}
		}
		panels = append(panels, cpu, rss)
	}
	// The legend sits at the top left; the y axis goes high enough that
	// the lines stay below it.
	panelPx := float64(chartHeight)/float64(len(panels)) - 45
	for _, p := range panels {
		p.X.Min, p.X.Max = 0, xmax
		p.Y.Min = 0
		frac := min(0.6, float64(p.entries)*legendEntryPx/panelPx+0.04)
		p.Y.Max = niceCeil(max(p.ymax, 1) / (1 - frac))
	}
	panels[0].Title.Text = "Server under load: CPU and memory of the watched processes beside the run"
	panels[len(panels)-1].X.Label.Text = "Time since the run started (s)"

	img := vgimg.NewWith(
		vgimg.UseWH(chartWidth*vg.Inch/chartDPI, chartHeight*vg.Inch/chartDPI),
		vgimg.UseDPI(chartDPI),
		vgimg.UseBackgroundColor(color.White),
	)
	dc := draw.New(img)
	grid := make([][]*plot.Plot, len(panels))
	for i, p := range panels {
		grid[i] = []*plot.Plot{p.Plot}
	}
	tiles := draw.Tiles{
		Rows: len(panels), Cols: 1,
		PadTop: vg.Points(4), PadBottom: vg.Points(4),
		PadLeft: vg.Points(4), PadRight: vg.Points(8),
		PadY: vg.Points(6),
	}
	canvases := plot.Align(grid, tiles, dc)
	for i, p := range panels {
		p.Draw(canvases[i][0])
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(w); err != nil {
		return fmt.Errorf("watch: chart: write PNG: %w", err)
	}
	return nil
}

// legendEntryPx is the height of one legend entry at legendFontSize.
const (
	legendFontSize = 10
	legendEntryPx  = 15
)

// panel is one plot of the stack, with what its y axis must make room for.
type panel struct {
	*plot.Plot
	ymax    float64
	entries int
}

func newPanel(yLabel string) *panel {
	p := plot.New()
	for _, ts := range []*text.Style{&p.Title.TextStyle, &p.X.Label.TextStyle, &p.Y.Label.TextStyle,
		&p.X.Tick.Label, &p.Y.Tick.Label, &p.Legend.TextStyle} {
		ts.Font.Typeface, ts.Font.Variant = chartFont.Typeface, chartFont.Variant
	}
	p.Y.Label.Text = yLabel
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.TextStyle.Font.Size = vg.Points(legendFontSize)
	p.Y.Tick.Marker = plainTicks{}
	p.Add(plotter.NewGrid())
	return &panel{Plot: p}
}

// line adds a line, and a legend entry if named.
func (p *panel) line(name string, xys plotter.XYs, c color.RGBA, width vg.Length, dashed, named bool) error {
	l, err := plotter.NewLine(xys)
	if err != nil {
		return fmt.Errorf("watch: chart: %s: %w", name, err)
	}
	l.Color = c
	l.Width = vg.Points(float64(width))
	if dashed {
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
	}
	p.Add(l)
	for _, xy := range xys {
		p.ymax = max(p.ymax, xy.Y)
	}
	if named {
		p.Legend.Add(name, l)
		p.entries++
	}
	return nil
}

// plainTicks are gonum's default ticks labelled without trailing zeros
// ("250", not "250.00").
type plainTicks struct{}

// Ticks implements plot.Ticker.
func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'f', -1, 64)
		}
	}
	return ticks
}

// niceCeil rounds v up to a round number (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6
// or 8 times a power of ten), so the axis ends on a tick-friendly value.
func niceCeil(v float64) float64 {
	if v <= 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return 1
	}
	pow := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10} {
		if m*pow >= v*(1-1e-12) {
			return m * pow
		}
	}
	return 10 * pow
}

// perStep places value i at the end of step i, skipping steps without a
// value.
func perStep(v []float64, step float64) plotter.XYs {
	xys := make(plotter.XYs, 0, len(v))
	for i, y := range v {
		if math.IsNaN(y) || math.IsInf(y, 0) || y < 0 {
			continue
		}
		xys = append(xys, plotter.XY{X: float64(i+1) * step, Y: y})
	}
	return xys
}

// offsets pairs times (shifted) with values (scaled).
func offsets(t, v []float64, shift, scale float64) plotter.XYs {
	xys := make(plotter.XYs, 0, len(t))
	for i := range min(len(t), len(v)) {
		if math.IsNaN(v[i]) || math.IsInf(v[i], 0) {
			continue
		}
		xys = append(xys, plotter.XY{X: t[i] + shift, Y: v[i] * scale})
	}
	return xys
}
