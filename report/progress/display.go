package progress

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"

	"github.com/gojm/gojm/report"
)

// Group is one thread group's state, as the engine reports it.
type Group struct {
	Name  string
	Phase string // "setUp", "main" or "tearDown"
	// Begun is set once the group has started and its numbers are known.
	Begun bool
	// Ended is set once every virtual user of the group has finished.
	Ended bool
	// Since is when the group started.
	Since time.Time
	// Threads is the number of virtual users the group starts.
	Threads int
	// Loops is each virtual user's iteration count; -1 when it loops for
	// ever or cannot be known in advance.
	Loops int
	// Duration is the scheduler's end after Since (startup delay plus
	// duration); 0 without the scheduler.
	Duration time.Duration
	// Active, Started and Finished count virtual users.
	Active, Started, Finished int
	// Iterations counts the iterations begun by all its virtual users.
	Iterations int64
}

// Planned returns the group's progress as done and total, in milliseconds
// of its scheduled duration or in iterations; ok is false when neither is
// known in advance.
func (g Group) Planned(now time.Time) (done, total int64, byTime, ok bool) {
	switch {
	case g.Duration > 0:
		total = g.Duration.Milliseconds()
		done = min(now.Sub(g.Since).Milliseconds(), total)
		return max(done, 0), total, true, true
	case g.Loops >= 0 && g.Threads > 0:
		total = int64(g.Loops) * int64(g.Threads)
		return min(g.Iterations, total), total, false, true
	}
	return 0, 0, false, false
}

// Options configure a Display.
type Options struct {
	// Title heads the block (the plan's name).
	Title string
	// Groups reports the thread groups; it is called a few times a second
	// from the display's goroutine, never from the collector's.
	Groups func() []Group
	// Refresh is how often the block is redrawn (default 250 ms).
	Refresh time.Duration
	// Start is when the run started (default: when New is called).
	Start time.Time
	// Stats are the options of the run's statistics: the block counts
	// the rows they count (report.StatsOptions.EachRow).
	Stats report.StatsOptions

	// redraw, when set, replaces the timed redraws: the block is drawn on
	// each receive (tests).
	redraw chan any
}

// Display is a Sink and Ticker drawing live progress on a terminal: one
// block redrawn in place a few times a second, fitted to the terminal's
// width — the elapsed time, the ETA when it can be known and the virtual
// users; the totals and the last interval's samples per second, error share
// and 95th percentile; a row per thread group with a bar of its progress
// against the planned duration or iterations and its virtual users. Drawing is done by mpb on its own
// goroutines; the collector's goroutine only feeds the Meter, so the cost
// per sample is the Meter's (constant, no allocation).
//
// Lines written to Writer() appear above the block (the summariser's);
// after Close they go straight to the output.
type Display struct {
	meter *Meter
	opt   Options
	w     io.Writer
	tty   bool
	p     *mpb.Progress

	stop chan struct{}
	done chan struct{}

	mu     sync.Mutex // guards what the decorators read
	now    time.Time
	groups []Group
	cols   int // the terminal's width
	bars   map[string]*mpb.Bar
	closed bool
}

// New starts drawing on w. Nothing is drawn unless w is a terminal.
func New(w io.Writer, opt Options) *Display {
	if opt.Refresh <= 0 {
		opt.Refresh = 250 * time.Millisecond
	}
	if opt.Start.IsZero() {
		opt.Start = time.Now()
	}
	if opt.Groups == nil {
		opt.Groups = func() []Group { return nil }
	}
	d := &Display{
		meter: NewMeter(opt.Start, opt.Stats),
		opt:   opt,
		w:     w,
		tty:   IsTerminal(w),
		stop:  make(chan struct{}),
		done:  make(chan struct{}),
		now:   opt.Start,
		bars:  map[string]*mpb.Bar{},
	}
	d.p = mpb.New(mpb.WithOutput(w), mpb.WithRefreshRate(opt.Refresh),
		mpb.ContainerOptional(mpb.WithManualRefresh(opt.redraw), opt.redraw != nil))
	head, _ := d.p.Add(0, mpb.NopStyle().Build(), mpb.BarPriority(0),
		mpb.PrependDecorators(decor.Any(func(decor.Statistics) string { return d.header() })))
	d.bars[""] = head
	totals, _ := d.p.Add(0, mpb.NopStyle().Build(), mpb.BarPriority(1),
		mpb.PrependDecorators(decor.Any(func(decor.Statistics) string { return d.totals() })))
	d.bars["\x00totals"] = totals
	d.update(time.Now())
	go d.loop()
	return d
}

// Add feeds the sample to the meter.
func (d *Display) Add(s *report.Sample) { d.meter.Add(s) }

// Tick closes the meter's interval.
func (d *Display) Tick(now time.Time) { d.meter.Tick(now) }

// Writer returns a writer whose lines appear above the block while it is
// drawn, and go to the output once it is closed.
func (d *Display) Writer() io.Writer { return writerFunc(d.write) }

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

func (d *Display) write(b []byte) (int, error) {
	d.mu.Lock()
	closed := d.closed
	d.mu.Unlock()
	if !closed && d.tty {
		// From the margin: see header.
		if _, err := d.p.Write(append([]byte("\r"), b...)); err == nil {
			return len(b), nil
		}
	}
	return d.w.Write(b)
}

// Close draws the final state and stops drawing.
func (d *Display) Close() error {
	close(d.stop)
	<-d.done
	d.update(time.Now())
	d.mu.Lock()
	bars := make([]*mpb.Bar, 0, len(d.bars))
	for _, b := range d.bars {
		bars = append(bars, b)
	}
	d.mu.Unlock()
	for _, b := range bars {
		b.Abort(false) // keep the last frame on screen
	}
	d.p.Wait()
	d.mu.Lock()
	d.closed = true
	d.mu.Unlock()
	return nil
}

func (d *Display) loop() {
	defer close(d.done)
	t := time.NewTicker(d.opt.Refresh)
	defer t.Stop()
	for {
		select {
		case now := <-t.C:
			d.update(now)
		case <-d.stop:
			return
		}
	}
}

// update reads the groups, adds a row for each group that has begun and
// moves the bars.
func (d *Display) update(now time.Time) {
	gs := d.opt.Groups()
	cols := d.width()
	d.mu.Lock()
	d.now, d.groups, d.cols = now, gs, cols
	d.mu.Unlock()
	width := 0
	for _, g := range gs {
		width = max(width, len([]rune(g.Name)))
	}
	width = min(width, maxNameWidth)
	for i, g := range gs {
		if !g.Begun {
			continue
		}
		key := groupKey(i, g)
		d.mu.Lock()
		b := d.bars[key]
		d.mu.Unlock()
		if b == nil {
			b = d.addGroupBar(i, key, width)
			d.mu.Lock()
			d.bars[key] = b
			d.mu.Unlock()
		}
		if g.Ended {
			b.Abort(false) // its last line stays
		}
	}
}

// width is the terminal's width in columns, 80 where it cannot be known.
func (d *Display) width() int {
	if f, ok := d.w.(interface{ Fd() uintptr }); ok {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			return w
		}
	}
	return 80
}

func groupKey(i int, g Group) string { return strconv.Itoa(i) + "\x00" + g.Name }

func (d *Display) addGroupBar(i int, key string, nameWidth int) *mpb.Bar {
	line := decor.Any(func(decor.Statistics) string {
		d.mu.Lock()
		now, cols := d.now, d.cols
		d.mu.Unlock()
		return GroupLine(d.group(key), now, nameWidth, cols)
	})
	b, _ := d.p.Add(0, mpb.NopStyle().Build(), mpb.BarPriority(i+2), mpb.PrependDecorators(line))
	return b
}

// group returns the current state of the group behind a row.
func (d *Display) group(key string) Group {
	d.mu.Lock()
	defer d.mu.Unlock()
	for i, g := range d.groups {
		if groupKey(i, g) == key {
			return g
		}
	}
	return Group{}
}

func (d *Display) header() string {
	d.mu.Lock()
	now, gs, cols := d.now, d.groups, d.cols
	d.mu.Unlock()
	active := 0
	for _, g := range gs {
		active += g.Active
	}
	eta, known := ETA(gs, now)
	// The block is redrawn from the column the cursor is in, and a Ctrl-C
	// leaves it two columns in ("^C" echoed): a carriage return first
	// puts the block and the lines above it back at the margin.
	return "\r" + HeaderLine(d.opt.Title, now.Sub(d.opt.Start), eta, known, active, cols)
}

func (d *Display) totals() string {
	d.mu.Lock()
	cols := d.cols
	d.mu.Unlock()
	iv, tot := d.meter.Last()
	return TotalsLine(iv, tot, cols)
}

// maxNameWidth bounds the column of group names; longer ones are cut.
const maxNameWidth = 16

// HeaderLine is the block's first line, at most cols-1 columns wide (a
// line as wide as the terminal would wrap on some): the plan, the elapsed
// time, the time left when the plan's length is known, and the virtual
// users running. The title is cut to what the rest leaves.
func HeaderLine(title string, elapsed, eta time.Duration, known bool, active, cols int) string {
	rest := " " + clock(elapsed)
	if known {
		rest += " │ ETA " + clock(eta)
	}
	rest += " │ " + strconv.Itoa(active) + " VUs"
	head := "gojm"
	if room := cols - 1 - len([]rune(head)) - 1 - len([]rune(rest)); title != "" && room >= 4 {
		head += " " + cut(title, room)
	}
	return cut(head+rest, cols-1)
}

// TotalsLine is the block's second line: the samples and errors so far,
// and the last interval's rate, error share and 95th percentile.
func TotalsLine(iv Interval, tot Totals, cols int) string {
	p95 := "-"
	if !math.IsNaN(iv.P95) {
		p95 = strconv.FormatFloat(iv.P95, 'f', 0, 64) + " ms"
	}
	return cut(fmt.Sprintf("  %d samples, %d errors │ last %s: %.1f/s, err %.2f%%, p95 %s",
		tot.Samples, tot.Errors, seconds(iv.End.Sub(iv.Start)), iv.Rate(), iv.ErrorPct(), p95), cols-1)
}

// ETA is the time left until every thread group has finished, when that
// can be known: each group has begun, and runs for a scheduled duration or
// a known number of iterations (whose pace so far gives the rest).
func ETA(gs []Group, now time.Time) (time.Duration, bool) {
	var left time.Duration
	for _, g := range gs {
		if g.Ended {
			continue
		}
		if !g.Begun {
			return 0, false
		}
		done, total, byTime, ok := g.Planned(now)
		switch {
		case !ok:
			return 0, false
		case byTime:
			left = max(left, time.Duration(total-done)*time.Millisecond)
		case done <= 0:
			return 0, false // no pace yet
		default:
			spent := now.Sub(g.Since)
			left = max(left, time.Duration(float64(spent)*float64(total-done)/float64(done)))
		}
	}
	return left, true
}

// GroupLine is a thread group's row, at most cols-1 columns wide: its
// name, a bar of its progress against the plan when that is known, the
// progress in time or iterations, and its virtual users.
func GroupLine(g Group, now time.Time, nameWidth, cols int) string {
	name := "  " + padRight(cut(g.Name, nameWidth), nameWidth)
	done, total, byTime, ok := g.Planned(now)
	var status strings.Builder
	switch {
	case !ok:
		fmt.Fprintf(&status, "%s, %d it", clock(now.Sub(g.Since)), g.Iterations)
	case byTime:
		fmt.Fprintf(&status, "%3.0f%% %s/%s", percent(done, total), clock(time.Duration(done)*time.Millisecond), clock(time.Duration(total)*time.Millisecond))
	default:
		fmt.Fprintf(&status, "%3.0f%% %d/%d it", percent(done, total), done, total)
	}
	fmt.Fprintf(&status, " │ %d/%d VUs", g.Active, g.Threads)
	if g.Phase != "" && g.Phase != "main" {
		status.WriteString(" (" + g.Phase + ")")
	}
	if g.Ended {
		status.WriteString(" done")
	}
	bar := ""
	if ok && total > 0 {
		// What the name and status leave, within bounds that keep it readable.
		if w := min(cols-1-len([]rune(name))-len([]rune(status.String()))-4, 30); w >= 8 {
			full := int(float64(w) * float64(done) / float64(total))
			bar = " ▕" + strings.Repeat("█", full) + strings.Repeat("░", w-full) + "▏"
		}
	}
	return cut(name+bar+" "+status.String(), cols-1)
}

func percent(done, total int64) float64 {
	if total <= 0 {
		return 0
	}
	return float64(done) * 100 / float64(total)
}

// cut shortens s to at most n runes, ending it with "…" when cut.
func cut(s string, n int) string {
	r := []rune(s)
	if n <= 0 {
		return ""
	}
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// IsTerminal reports whether w is a terminal (and not a dumb one, by
// TERM=dumb): where the block can be drawn.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(int(f.Fd())) && os.Getenv("TERM") != "dumb"
}

// clock formats d as m:ss, or h:mm:ss from an hour.
func clock(d time.Duration) string {
	s := int64(max(d, 0) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
}

func padRight(s string, w int) string {
	if n := len([]rune(s)); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}
