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

	// redraw, when set, replaces the timed redraws: the block is drawn on
	// each receive (tests).
	redraw chan any
}

// Display is a Sink and Ticker drawing live progress on a terminal: one
// block redrawn in place a few times a second, with the elapsed time, the
// last interval's samples per second, error share and 95th percentile, and
// a row per thread group with its progress against the planned duration or
// iterations and its virtual users. Drawing is done by mpb on its own
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
		meter: NewMeter(opt.Start),
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
		if n, err := d.p.Write(b); err == nil {
			return n, nil
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
	d.mu.Lock()
	d.now, d.groups = now, gs
	d.mu.Unlock()
	width := 0
	for _, g := range gs {
		width = max(width, len(g.Name))
	}
	for i, g := range gs {
		if !g.Begun {
			continue
		}
		key := groupKey(i, g)
		d.mu.Lock()
		b := d.bars[key]
		d.mu.Unlock()
		cur, total, _, ok := g.Planned(now)
		if b == nil {
			b = d.addGroupBar(i, key, width, total, ok)
			d.mu.Lock()
			d.bars[key] = b
			d.mu.Unlock()
		}
		if ok && total > 0 {
			b.SetCurrent(cur)
		}
		if g.Ended {
			b.Abort(false)
		}
	}
}

func groupKey(i int, g Group) string { return strconv.Itoa(i) + "\x00" + g.Name }

func (d *Display) addGroupBar(i int, key string, width int, total int64, known bool) *mpb.Bar {
	name := decor.Any(func(decor.Statistics) string { return "  " + padRight(d.group(key).Name, width) + " " })
	status := decor.Any(func(decor.Statistics) string {
		d.mu.Lock()
		now := d.now
		d.mu.Unlock()
		return " " + GroupLine(d.group(key), now)
	})
	opts := []mpb.BarOption{mpb.BarPriority(i + 1), mpb.PrependDecorators(name), mpb.AppendDecorators(status)}
	if known && total > 0 {
		return d.p.New(total, mpb.BarStyle().Lbound("▕").Rbound("▏").Filler("█").Tip("").Padding("░"), append(opts, mpb.BarWidth(24))...)
	}
	b, _ := d.p.Add(0, mpb.NopStyle().Build(), opts...)
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
	now, gs := d.now, d.groups
	d.mu.Unlock()
	iv, tot := d.meter.Last()
	active := 0
	for _, g := range gs {
		active += g.Active
	}
	return HeaderLine(d.opt.Title, now.Sub(d.opt.Start), iv, tot, active)
}

// HeaderLine is the block's first line: the run's elapsed time, totals,
// the last interval's rate, error share and 95th percentile, and the
// virtual users running.
func HeaderLine(title string, elapsed time.Duration, iv Interval, tot Totals, active int) string {
	var b strings.Builder
	b.WriteString("gojm ")
	if title != "" {
		b.WriteString(title + " ")
	}
	b.WriteString(clock(elapsed))
	fmt.Fprintf(&b, " │ %d samples, %d errors │ last %s: %.1f/s, err %.2f%%, p95 ",
		tot.Samples, tot.Errors, seconds(iv.End.Sub(iv.Start)), iv.Rate(), iv.ErrorPct())
	if math.IsNaN(iv.P95) {
		b.WriteString("-")
	} else {
		b.WriteString(strconv.FormatFloat(iv.P95, 'f', 0, 64) + " ms")
	}
	fmt.Fprintf(&b, " │ %d VUs active", active)
	return b.String()
}

// GroupLine is a group's row after its bar: progress against the plan and
// the virtual users.
func GroupLine(g Group, now time.Time) string {
	var b strings.Builder
	done, total, byTime, ok := g.Planned(now)
	switch {
	case !ok:
		fmt.Fprintf(&b, "%s elapsed, %d iterations", clock(now.Sub(g.Since)), g.Iterations)
	case byTime:
		fmt.Fprintf(&b, "%s / %s", clock(time.Duration(done)*time.Millisecond), clock(time.Duration(total)*time.Millisecond))
	default:
		fmt.Fprintf(&b, "%d / %d iterations", done, total)
	}
	fmt.Fprintf(&b, " │ VUs %d active, %d/%d started, %d finished", g.Active, g.Started, g.Threads, g.Finished)
	if g.Phase != "" && g.Phase != "main" {
		b.WriteString(" (" + g.Phase + ")")
	}
	if g.Ended {
		b.WriteString(" done")
	}
	return b.String()
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
	if len(s) >= w {
		return s
	}
	return s + strings.Repeat(" ", w-len(s))
}
