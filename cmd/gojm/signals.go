package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gojm/gojm/engine"
	"github.com/gojm/gojm/report"
)

// hurryWindow is how soon after the one before a third (or later) signal
// must come to skip the charts and the dashboard.
const hurryWindow = 2 * time.Second

// interrupts is how a run ends the ways people end runs: Ctrl-C, SIGTERM
// from a CI runner or a container's stop, SIGHUP from a closed terminal or
// ssh session. The first stops the run gently (no new sample, running ones
// get the stop grace); the second aborts the running samples; a third
// soon after the one before skips the charts and the dashboard. None of
// them cuts the writing of results: the results files are flushed and
// closed, and summary.txt and statistics.json written, before gojm
// exits. The handler stays in place until the end report is written, so
// that a signal during it is never the default death.
type interrupts struct {
	ch     chan os.Signal
	notice func(string) // where gojm says what it does
	grace  time.Duration
	quit   chan struct{}
	hurry  atomic.Bool
	// before is cancelled by a signal that comes before the run starts,
	// to end a wait for a split run's other segments or its start time.
	before       context.Context
	cancelBefore context.CancelFunc

	mu      sync.Mutex
	run     *engine.Run // nil before the run starts
	start   time.Time
	over    bool // the run has ended: the end report is being written
	count   int
	last    time.Time
	pending bool // a signal came before the run started
	aborted bool // a second signal aborted the running samples
	in      *report.Interruption
}

// catchInterrupts starts handling SIGINT, SIGTERM and SIGHUP. SIGINT or
// SIGHUP ignored when gojm started (a background job of a script, nohup)
// stays ignored, as the caller asked; Go's runtime catches SIGTERM
// whatever it inherits, so that one is always handled.
func catchInterrupts(notice func(string), grace time.Duration) *interrupts {
	h := &interrupts{ch: make(chan os.Signal, 4), notice: notice, grace: grace, quit: make(chan struct{})}
	h.before, h.cancelBefore = context.WithCancel(context.Background())
	var sigs []os.Signal
	for _, s := range []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		if !signal.Ignored(s) {
			sigs = append(sigs, s)
		}
	}
	if len(sigs) > 0 { // Notify without signals would relay every signal
		signal.Notify(h.ch, sigs...)
	}
	go h.loop()
	return h
}

// setNotice says where messages go from now on (above the live block,
// once one is drawn).
func (h *interrupts) setNotice(notice func(string)) {
	h.mu.Lock()
	h.notice = notice
	h.mu.Unlock()
}

// stop ends the handling, once the end report is written.
func (h *interrupts) stop() {
	signal.Stop(h.ch)
	close(h.quit)
	h.cancelBefore()
}

// beforeStart is done once a signal has come before the run started.
func (h *interrupts) beforeStart() context.Context { return h.before }

func (h *interrupts) loop() {
	for {
		select {
		case s := <-h.ch:
			h.handle(s.(syscall.Signal))
		case <-h.quit:
			return
		}
	}
}

// attach is called once the run has started at start; a signal that came
// before stops it at once.
func (h *interrupts) attach(r *engine.Run, start time.Time) {
	h.mu.Lock()
	h.run, h.start = r, start
	pending := h.pending
	name := ""
	if h.in != nil {
		name = h.in.Signal
	}
	h.mu.Unlock()
	if pending {
		h.stopRun(r, name)
	}
}

// ended is called once the run is over and its results files are closed:
// signals from now on only hurry the end report.
func (h *interrupts) ended() {
	h.mu.Lock()
	h.over = true
	h.mu.Unlock()
}

// interrupted is how a signal interrupted the run, or nil.
func (h *interrupts) interrupted() *report.Interruption {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.in == nil {
		return nil
	}
	in := *h.in
	return &in
}

// hurried reports whether the charts and the dashboard are to be skipped.
func (h *interrupts) hurried() bool { return h.hurry.Load() }

// say prints a message where notices go now. It is never called with h.mu
// held: a stderr that blocks must not hold up the end report.
func (h *interrupts) say(msg string) {
	h.mu.Lock()
	notice := h.notice
	h.mu.Unlock()
	notice(msg)
}

func (h *interrupts) handle(s syscall.Signal) {
	name := signalName(s)
	msg, act := h.decide(name, time.Now())
	if msg != "" {
		h.say(msg)
	}
	if act != nil {
		act()
	}
}

// decide is what the signal name at now does: a message to print and an
// action to take, either of them empty.
func (h *interrupts) decide(name string, now time.Time) (string, func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.count++
	soon := now.Sub(h.last) <= hurryWindow
	h.last = now
	r := h.run
	switch {
	case h.count >= 3 && soon:
		if h.hurry.Swap(true) {
			return "", nil
		}
		return fmt.Sprintf("gojm: %s again: the charts and dashboard are skipped; the results file, summary.txt and statistics.json are written first", name), nil
	case h.over:
		return fmt.Sprintf("gojm: %s: the run is over and its results are being written (twice more within %v skips the charts and dashboard)", name, hurryWindow), nil
	case h.count == 1:
		if r == nil {
			h.pending = true
			h.in = &report.Interruption{Signal: name}
			h.cancelBefore()
			return fmt.Sprintf("gojm: %s: stopping before the run has started", name), nil
		}
		h.in = &report.Interruption{Signal: name, After: now.Sub(h.start)}
		return "", func() { h.stopRun(r, name) }
	case h.count == 2 && r != nil:
		h.aborted = true
		return fmt.Sprintf("gojm: %s again: aborting the running samples; the results are still written", name), func() {
			r.Abort(errors.New("a second " + name))
			go r.Flush()
		}
	}
	return fmt.Sprintf("gojm: %s: the results are being written (twice more within %v skips the charts and dashboard)", name, hurryWindow), nil
}

// stopRun stops the run gently, flushes the rows so far and starts the
// stop grace, after which running samples are aborted.
func (h *interrupts) stopRun(r *engine.Run, name string) {
	h.say(fmt.Sprintf("gojm: %s: stopping: running samples have %v to finish, no new ones start (Ctrl-C again to abort them)", name, h.grace))
	r.Stop(errors.New("interrupted by " + name))
	go func() {
		r.Flush() // the rows so far are on disk now, whatever comes next
		t := time.NewTimer(h.grace)
		defer t.Stop()
		select {
		case <-t.C:
			h.mu.Lock()
			aborted := h.aborted
			h.mu.Unlock()
			if !aborted {
				h.say(fmt.Sprintf("gojm: running samples did not finish within %v: aborting them", h.grace))
				r.Abort(fmt.Errorf("--stop-grace %v over", h.grace))
			}
		case <-r.Done():
		}
	}()
}

// signalName is a signal's name as people write it.
func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}
