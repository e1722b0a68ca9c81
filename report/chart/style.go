package chart

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	stdfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/gojm/gojm/internal/atomicfile"
)

// Width and Height are the size of every chart, in pixels.
const (
	Width  = 1200
	Height = 700
)

// dpi is the resolution the charts are drawn at: 96 dots per inch makes
// one point 4/3 of a pixel, the size text has on a screen.
const dpi = 96

// Series colours. Graph Results keeps JMeter's own: data black, average
// blue, median purple, deviation red, throughput green.
var (
	colorData       = color.RGBA{0, 0, 0, 255}
	colorAverage    = color.RGBA{0, 0, 255, 255}
	colorMedian     = color.RGBA{128, 0, 128, 255}
	colorDeviation  = color.RGBA{255, 0, 0, 255}
	colorThroughput = color.RGBA{0, 153, 0, 255}
	colorFailure    = color.RGBA{255, 120, 0, 255}

	colorText     = color.RGBA{33, 33, 33, 255}
	colorSubtle   = color.RGBA{110, 110, 110, 255}
	colorAxis     = color.RGBA{120, 120, 120, 255}
	colorGrid     = color.RGBA{228, 228, 228, 255}
	colorOther    = color.RGBA{150, 150, 150, 255}
	colorAllLines = color.RGBA{40, 40, 40, 255}
)

// palette is a categorical palette for per-label series (Tableau 10,
// reordered so neighbours contrast).
var palette = []color.RGBA{
	{31, 119, 180, 255},  // blue
	{255, 127, 14, 255},  // orange
	{44, 160, 44, 255},   // green
	{214, 39, 40, 255},   // red
	{148, 103, 189, 255}, // purple
	{140, 86, 75, 255},   // brown
	{227, 119, 194, 255}, // pink
	{188, 189, 34, 255},  // olive
	{23, 190, 207, 255},  // cyan
	{66, 66, 66, 255},    // dark grey
	{174, 199, 232, 255}, // light blue
	{255, 187, 120, 255}, // light orange
}

// seriesColor is the colour of the i-th series.
func seriesColor(i int) color.RGBA { return palette[i%len(palette)] }

// lighter mixes c with white: f=0 keeps c, f=1 is white.
func lighter(c color.RGBA, f float64) color.RGBA {
	mix := func(v uint8) uint8 { return uint8(float64(v) + (255-float64(v))*f + 0.5) }
	return color.RGBA{mix(c.R), mix(c.G), mix(c.B), 255}
}

var (
	sansFont = font.Font{Typeface: "Liberation", Variant: "Sans"}
	boldFont = font.Font{Typeface: "Liberation", Variant: "Sans", Weight: stdfont.WeightBold}
)

func textStyle(f font.Font, size vg.Length, c color.Color) draw.TextStyle {
	return draw.TextStyle{
		Color:   c,
		Font:    font.From(f, size),
		XAlign:  draw.XLeft,
		YAlign:  draw.YBottom,
		Handler: plot.DefaultTextHandler,
	}
}

// newPlot returns a plot styled like every chart of the package: sans-serif
// text, grey axes, a light grid, no title (the figure draws it).
func newPlot(xLabel, yLabel string) *plot.Plot { return newPlotGrid(xLabel, yLabel, true) }

// newPlotGrid is newPlot with or without the vertical grid lines.
func newPlotGrid(xLabel, yLabel string, vertical bool) *plot.Plot {
	p := plot.New()
	p.BackgroundColor = nil // the figure paints the background
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(sansFont, 11)
		a.Label.TextStyle.Color = colorText
		a.Label.Padding = vg.Points(4)
		a.Tick.Label.Font = font.From(sansFont, 9.5)
		a.Tick.Label.Color = colorText
		a.LineStyle.Color = colorAxis
		a.LineStyle.Width = vg.Points(0.75)
		a.Tick.LineStyle.Color = colorAxis
		a.Tick.LineStyle.Width = vg.Points(0.75)
		a.Tick.Length = vg.Points(4)
		a.Tick.Marker = niceTicks{}
		a.Padding = vg.Points(6) // points at the axis's ends stay off the frame
	}
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	g := plotter.NewGrid()
	g.Vertical = draw.LineStyle{Color: colorGrid, Width: vg.Points(0.6)}
	if !vertical {
		g.Vertical.Color = nil
	}
	g.Horizontal = draw.LineStyle{Color: colorGrid, Width: vg.Points(0.6)}
	p.Add(g)
	return p
}

// niceTicks places about n (default 7) major ticks on round values (1, 2,
// 2.5 or 5 times a power of ten) with minor ticks between, and labels them
// with thousands separators instead of exponents. On an axis of counts
// (integer) every tick is a whole number.
type niceTicks struct {
	n       int
	integer bool
}

// Ticks implements plot.Ticker.
func (t niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return []plot.Tick{{Value: lo, Label: formatNumber(lo, 0)}}
	}
	n := t.n
	if n <= 0 {
		n = 7
	}
	step, minors, decimals := niceStep((hi - lo) / float64(n))
	if t.integer {
		step, minors, decimals = integerStep(step, minors)
	}
	minor := step / float64(minors)
	var ticks []plot.Tick
	first := math.Ceil(lo/minor-1e-9) * minor
	for i := 0; ; i++ {
		v := first + float64(i)*minor
		if v > hi+minor*1e-9 || i > 1000 {
			break
		}
		v = math.Round(v/minor) * minor
		t := plot.Tick{Value: v}
		if r := v / step; math.Abs(r-math.Round(r)) < 1e-6 {
			t.Label = formatNumber(v, decimals)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// niceStep rounds raw up to 1, 2, 2.5 or 5 times a power of ten and returns
// it with the number of minor intervals per step and the decimals its labels need.
func niceStep(raw float64) (step float64, minors, decimals int) {
	if !(raw > 0) {
		return 1, 5, 0
	}
	exp := math.Floor(math.Log10(raw))
	mag := math.Pow(10, exp)
	f := raw / mag
	var m float64
	switch {
	case f <= 1:
		m, minors = 1, 5
	case f <= 2:
		m, minors = 2, 4
	case f <= 2.5:
		m, minors = 2.5, 5
	case f <= 5:
		m, minors = 5, 5
	default:
		m, minors = 10, 5
	}
	step = m * mag
	decimals = max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	if m == 2.5 && step < 10 {
		decimals++
	}
	return step, minors, decimals
}

// integerStep turns a tick step into one for an axis of counts: at least
// 1, and minor ticks only where they fall on whole numbers.
func integerStep(step float64, minors int) (float64, int, int) {
	if step < 1 {
		return 1, 1, 0
	}
	step = math.Round(step)
	if m := step / float64(minors); m != math.Trunc(m) {
		minors = 1
		for _, k := range []int{5, 4, 2} {
			if math.Mod(step, float64(k)) == 0 {
				minors = k
				break
			}
		}
	}
	return step, minors, 0
}

// padY leaves headroom above the highest point of p (autoscaled from its
// data): a tenth of the range, so that no bar or point touches the frame.
// An axis with nothing above its minimum gets a range of 1.
func padY(p *plot.Plot) {
	if p.Y.Max <= p.Y.Min {
		p.Y.Max = p.Y.Min + 1
		return
	}
	p.Y.Max += (p.Y.Max - p.Y.Min) * 0.1
}

// padX leaves room right of the last point of p: 2% of the range, at
// least one unit on an axis of counts.
func padX(p *plot.Plot, unit float64) {
	p.X.Max += max((p.X.Max-p.X.Min)*0.02, unit)
}

// formatNumber formats v with the given decimals and a comma every three
// digits: 1234567.5 → "1,234,567.5".
func formatNumber(v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	intPart, frac := s, ""
	if i := strings.IndexByte(s, '.'); i >= 0 {
		intPart, frac = s[:i], s[i:]
	}
	var b strings.Builder
	if neg && strings.Trim(s, "0.") != "" {
		b.WriteByte('-')
	}
	for i, r := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	b.WriteString(frac)
	return b.String()
}

// formatMs formats a duration in milliseconds with as many decimals as its
// size deserves: 1,234 ms, 12.3 ms, 0.42 ms.
func formatMs(ms float64) string {
	switch a := math.Abs(ms); {
	case a >= 100:
		return formatNumber(ms, 0) + " ms"
	case a >= 1:
		return formatNumber(ms, 1) + " ms"
	default:
		return formatNumber(ms, 2) + " ms"
	}
}

// samplesText is "1 sample", "5,010 samples".
func samplesText(n int64) string {
	if n == 1 {
		return "1 sample"
	}
	return formatNumber(float64(n), 0) + " samples"
}

// msFigure formats a response time as the statistics tables do: two
// decimals, so that a chart's figure reads as the table's.
func msFigure(ms float64) string {
	if math.IsNaN(ms) || math.IsInf(ms, 0) {
		return "–"
	}
	return formatNumber(ms, 2) + " ms"
}

// rateFigure formats a rate per second as the statistics tables do: two
// decimals.
func rateFigure(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "–"
	}
	return formatNumber(v, 2)
}

// shorten cuts s to at most n runes by taking out its middle, where long
// labels differ least ("Transaction…number 12"), marked with an ellipsis.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	head := (n - 1) * 3 / 5
	tail := n - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

// lineStyle is the style of a series line.
func lineStyle(c color.Color, width float64) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: vg.Points(width)}
}

// panel is one plot of a figure with its share of the height.
type panel struct {
	plot   *plot.Plot
	weight float64
}

// figure is one chart: a title and subtitle on top, panels stacked below
// with their data areas aligned, and the legend in a column on the right so
// it never hides data.
type figure struct {
	title    string
	subtitle string
	panels   []panel
	legend   plot.Legend
	names    []string // the legend's entries, as written
	notes    []string // grey lines printed under the legend
	series   []series // every line drawn, for tests and captions
}

// series is one line of a figure with its points.
type series struct {
	name string
	pts  plotter.XYs
}

// Caption is the text of a chart: what it says besides its pixels.
type Caption struct {
	File     string // the PNG's file name
	Title    string
	Subtitle string
	Legend   []string // the legend's entries, in order
	Notes    []string // the lines under the legend
}

func (f *figure) caption(file string) Caption {
	return Caption{File: file, Title: f.title, Subtitle: f.subtitle, Legend: f.names, Notes: f.notes}
}

func newFigure(title, subtitle string) *figure {
	l := plot.NewLegend()
	l.TextStyle = textStyle(sansFont, 10.5, colorText)
	l.Top, l.Left = true, true
	l.Padding = vg.Points(5)
	l.ThumbnailWidth = vg.Points(22)
	return &figure{title: title, subtitle: subtitle, legend: l}
}

func (f *figure) add(p *plot.Plot, weight float64) {
	f.panels = append(f.panels, panel{plot: p, weight: weight})
}

// addLegend adds an entry to the figure's legend.
func (f *figure) addLegend(name string, thumbs ...plot.Thumbnailer) {
	name = shorten(name, 44)
	f.legend.Add(name, thumbs...)
	f.names = append(f.names, name)
}

// canvasSize is the figure size in points for Width×Height pixels at dpi.
func canvasSize() (w, h vg.Length) {
	return vg.Length(Width) * vg.Inch / dpi, vg.Length(Height) * vg.Inch / dpi
}

// render draws the figure on a new image canvas.
func (f *figure) render() *vgimg.Canvas {
	w, h := canvasSize()
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))
	dc := draw.New(img)

	const margin = vg.Length(14)
	area := draw.Crop(dc, margin, -margin, margin, -margin)

	// Header.
	titleStyle := textStyle(boldFont, 16, colorText)
	top := area.Max.Y
	titleH := titleStyle.Rectangle(f.title).Size().Y
	area.FillText(titleStyle, vg.Point{X: area.Min.X, Y: top - titleH + titleStyle.FontExtents().Descent}, f.title)
	top -= titleH
	if f.subtitle != "" {
		sub := textStyle(sansFont, 10.5, colorSubtle)
		subH := sub.Rectangle(f.subtitle).Size().Y
		top -= 3
		area.FillText(sub, vg.Point{X: area.Min.X, Y: top - subH + sub.FontExtents().Descent}, f.subtitle)
		top -= subH
	}
	top -= 10
	body := area
	body.Max.Y = top

	// Legend column.
	if len(f.notes) > 0 || len(f.names) > 0 {
		lw := f.legend.Rectangle(body).Size().X
		note := textStyle(sansFont, 9, colorSubtle)
		for _, s := range f.notes {
			lw = max(lw, note.Width(s))
		}
		lw = min(max(lw, 120), w*0.32)
		col := body
		col.Min.X = body.Max.X - lw
		col.Max.Y -= 4
		body.Max.X = col.Min.X - 16
		f.legend.Draw(col)
		y := f.legend.Rectangle(col).Min.Y - 14
		for _, s := range f.notes {
			y -= note.Rectangle(s).Size().Y + 2
			col.FillText(note, vg.Point{X: col.Min.X, Y: y}, s)
		}
	}

	// Panels, stacked, data areas aligned on the left and right.
	var total float64
	for _, p := range f.panels {
		total += p.weight
	}
	const gap = vg.Length(10)
	avail := body.Max.Y - body.Min.Y - gap*vg.Length(max(0, len(f.panels)-1))
	canv := make([]draw.Canvas, len(f.panels))
	y := body.Max.Y
	var left, right vg.Length
	for i, p := range f.panels {
		hgt := avail * vg.Length(p.weight/total)
		c := body
		c.Max.Y, c.Min.Y = y, y-hgt
		y -= hgt + gap
		canv[i] = c
		d := p.plot.DataCanvas(c)
		left = max(left, d.Min.X-c.Min.X)
		right = max(right, c.Max.X-d.Max.X)
	}
	for i, p := range f.panels {
		c := canv[i]
		d := p.plot.DataCanvas(c)
		c = draw.Crop(c, left-(d.Min.X-c.Min.X), -(right - (c.Max.X - d.Max.X)), 0, 0)
		p.plot.Draw(c)
	}
	return img
}

// writePNG renders the figure into the PNG file at path.
func (f *figure) writePNG(path string) error {
	img := f.render()
	// Written aside and renamed: a reader (or a gojm killed meanwhile)
	// never leaves half a PNG.
	err := atomicfile.Write(path, 0o644, func(w io.Writer) error {
		_, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(w)
		return err
	})
	if err != nil {
		return fmt.Errorf("chart %q: %w", f.title, err)
	}
	return nil
}

// xyLine returns a line through pts in colour c.
func xyLine(pts plotter.XYs, c color.Color, width float64) *plotter.Line {
	l := &plotter.Line{XYs: pts, LineStyle: lineStyle(c, width)}
	return l
}

// emptyNote marks a chart that had nothing to draw.
const emptyNote = "No samples"
