package watch

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// ErrNoProc is what Start returns where there is no Linux /proc to read.
// The caller prints it and runs the test plan without watching.
var ErrNoProc = errors.New("--watch needs /proc (Linux); the run goes on without it")

// CSVName is the file name a results folder keeps the samples under.
const CSVName = "server.csv"

// Option adjusts a Watcher at Start.
type Option func(*config)

type config struct {
	root   string
	csv    io.Writer
	onTick func(n int)
}

// WithCSV streams one row per watched process per tick to w in server.csv's
// format (see ReadServerCSV for the columns), flushed at every tick. The
// Watcher does not close w.
func WithCSV(w io.Writer) Option { return func(c *config) { c.csv = w } }

// withRoot reads another directory as /proc (tests use a fake one).
func withRoot(dir string) Option { return func(c *config) { c.root = dir } }

// withTickHook calls fn with the tick's number after each tick is written
// (tests wait on it instead of sleeping). fn runs on the watcher's goroutine.
func withTickHook(fn func(n int)) Option { return func(c *config) { c.onTick = fn } }

// Watcher samples the watched processes on its own goroutine until Stop or
// until its context ends. Its methods are safe to call from any goroutine.
type Watcher struct {
	s        *sampler
	interval time.Duration
	out      *bufio.Writer
	onTick   func(int)
	line     []byte

	start time.Time // elapsed 0: the baseline scan
	last  time.Time // the previous scan
	ticks int
	acc   accumulator
	err   error // the first error; sampling goes on after CSV errors

	stop     chan struct{}
	done     chan struct{}
	stopOnce sync.Once
	summary  Summary
}

// minFinalTick is the shortest tail worth a last sample at Stop: below it,
// the clock-tick resolution of CPU times makes the percentage meaningless.
const minFinalTick = 20 * time.Millisecond

// Start begins watching the processes named by targets, each a PID or a
// command name (matched against the process's comm, the base name of its
// argv[0], and the first word of a rewritten title such as "starman
// master …"); descendants of a target are watched too, and a process once
// watched stays watched until it exits. The calling process itself is never
// watched unless its PID is given, and its ancestors never match a name.
// Start scans /proc once to set the CPU baselines, then samples every
// interval on its own goroutine; WithCSV streams the rows.
//
// Start fails with ErrNoProc where /proc cannot be read, and with an error
// naming the PID when a PID target does not exist. A name that matches no
// process yet is not an error: processes are looked for again at each tick.
func Start(ctx context.Context, targets []string, interval time.Duration, opts ...Option) (*Watcher, error) {
	if interval <= 0 {
		return nil, fmt.Errorf("watch: interval %v is not positive", interval)
	}
	c := config{root: "/proc"}
	for _, o := range opts {
		o(&c)
	}
	s, err := newSampler(c.root, targets)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	w := &Watcher{
		s:        s,
		interval: interval,
		onTick:   c.onTick,
		line:     make([]byte, 0, 256),
		start:    now,
		last:     now,
		acc:      newAccumulator(),
		stop:     make(chan struct{}),
		done:     make(chan struct{}),
	}
	if c.csv != nil {
		w.out = bufio.NewWriter(c.csv)
		w.out.WriteString(csvHeader)
		if err := w.out.Flush(); err != nil {
			s.close()
			return nil, fmt.Errorf("watch: write %s header: %w", CSVName, err)
		}
	}
	go w.loop(ctx)
	return w, nil
}

func (w *Watcher) loop(ctx context.Context) {
	defer close(w.done)
	t := time.NewTicker(w.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			w.finish()
			return
		case <-w.stop:
			w.finish()
			return
		case <-t.C:
			w.tick(time.Now())
			if w.onTick != nil {
				w.onTick(w.ticks)
			}
		}
	}
}

// finish takes a last sample of the tail since the previous tick, so the
// CPU time of the run's last moments is counted, and builds the summary.
func (w *Watcher) finish() {
	// A watch shorter than one interval still gets its one row: a run
	// that ended quickly has a server too.
	if now := time.Now(); now.Sub(w.last) >= minFinalTick || w.ticks == 0 {
		w.tick(now)
	}
	if err := w.s.close(); err != nil && w.err == nil {
		w.err = fmt.Errorf("watch: close /proc: %w", err)
	}
	w.summary = w.acc.summary()
}

// tick samples once and writes the rows.
func (w *Watcher) tick(now time.Time) {
	dt := now.Sub(w.last).Seconds()
	w.last = now
	samples, m, err := w.s.tick()
	if err != nil {
		w.fail(err)
		if samples == nil {
			return
		}
	}
	w.ticks++
	elapsed := now.Sub(w.start).Seconds()
	perTick := float64(w.s.clkTck) * dt
	for i := range samples {
		sm := &samples[i]
		if !sm.gone && perTick > 0 {
			sm.userPct = 100 * float64(sm.userTicks) / perTick
			sm.sysPct = 100 * float64(sm.sysTicks) / perTick
		}
		r := row{
			unixMilli:    now.UnixMilli(),
			elapsed:      elapsed,
			interval:     dt,
			pid:          sm.pid,
			name:         sm.name,
			userPct:      sm.userPct,
			sysPct:       sm.sysPct,
			rss:          sm.rss,
			threads:      sm.threads,
			fds:          sm.fds,
			load1:        m.load1,
			memAvailable: m.memAvailable,
			gone:         sm.gone,
		}
		w.acc.add(&r, dt)
		if w.out != nil {
			w.line = appendRow(w.line[:0], &r)
			w.out.Write(w.line)
		}
	}
	w.acc.endTick(elapsed, m)
	if w.out != nil {
		if err := w.out.Flush(); err != nil {
			w.fail(fmt.Errorf("watch: write %s: %w", CSVName, err))
			w.out = nil
		}
	}
}

func (w *Watcher) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// Stop ends the sampling, takes a last sample of the time since the previous
// tick, flushes the CSV and returns the summary, with the first error met
// while sampling or writing (the summary is valid either way). Calling Stop
// again returns the same.
func (w *Watcher) Stop() (Summary, error) {
	w.stopOnce.Do(func() { close(w.stop) })
	<-w.done
	return w.summary, w.err
}
