package engine

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/thread"
	"github.com/gojm/gojm/report"
)

// RunOptions configure a run.
type RunOptions struct {
	// Listeners receive the samples of the plan's own listeners: entry i
	// belongs to Plan.Listeners[i] and may be nil.
	Listeners []report.Sink
	// Tick is how often Ticker sinks are told the time (default 1 s).
	Tick time.Duration
	// Detail makes every sample carry its report.Detail (headers, response
	// and sampler data), for XML results files that save them; it costs a
	// copy of every response body.
	Detail bool
}

// Run is a plan being run.
type Run struct {
	plan  *Plan
	el    *element.Run    // the run as its elements see it
	base  context.Context // the context Start was given
	hard  context.Context
	abort context.CancelCauseFunc
	soft  context.Context
	stop  context.CancelCauseFunc
	mu    sync.Mutex
	errs  []error
	done  chan struct{}
	err   error
	// stopTearDown stops the tearDown phase once it has begun.
	stopTearDown context.CancelCauseFunc
	// userAbort is set by Abort: no tearDown group runs after it.
	userAbort atomic.Bool
	// groups are the plan's groups in this run, in Plan.groups order.
	groups []*groupRun
}

// Start runs p in the background, sending every sample to sink. Cancelling
// ctx aborts the run as Abort does.
func Start(ctx context.Context, p *Plan, sink report.Sink, opt RunOptions) *Run {
	r := &Run{plan: p, base: ctx, done: make(chan struct{})}
	r.el = element.NewRun(p.Plan, uint64(time.Now().UnixNano()), func(cause error) { r.Stop(cause) }, func(cause error) { r.stopNow(cause) })
	r.el.Detail = opt.Detail
	for _, g := range p.groups {
		r.groups = append(r.groups, newGroupRun(g, p))
	}
	r.hard, r.abort = context.WithCancelCause(ctx)
	r.soft, r.stop = context.WithCancelCause(r.hard)
	tick := opt.Tick
	if tick <= 0 {
		tick = time.Second
	}
	r.el.Out = report.NewCollector(tick, &router{main: sink, listeners: opt.Listeners})
	go r.run()
	return r
}

// Stop ends the run gently: no new sample starts, running ones finish.
// Called while tearDown groups run, it stops those.
func (r *Run) Stop(cause error) {
	r.mu.Lock()
	td := r.stopTearDown
	r.mu.Unlock()
	if td != nil {
		td(cause)
	}
	r.stop(cause)
}

// Abort ends the run now: running requests are cancelled too, and no
// tearDown group runs.
func (r *Run) Abort(cause error) {
	r.userAbort.Store(true)
	r.Stop(cause)
	r.abort(cause)
}

// stopNow is the plan's own Stop Test Now (a sampler error, a Flow Control
// Action): running requests are cancelled; tearDown groups still run when
// the plan asks for them after a stop, as in JMeter 5.
func (r *Run) stopNow(cause error) {
	r.Stop(cause)
	r.abort(cause)
}

// Wait waits for the run to end and its samples to reach the sinks, and
// returns what kept the plan from running (a thread group whose numbers are
// not numbers, a sink that could not write). A stopped run is not an error.
func (r *Run) Wait() error {
	<-r.done
	return r.err
}

// Done is closed when the run has ended and the sinks are closed.
func (r *Run) Done() <-chan struct{} { return r.done }

// Threads returns the number of running, started and finished virtual users.
func (r *Run) Threads() (active, started, finished int) {
	return int(r.el.Active.Load()), int(r.el.Started.Load()), int(r.el.Finished.Load())
}

func (r *Run) fail(err error) {
	r.mu.Lock()
	r.errs = append(r.errs, err)
	r.mu.Unlock()
	r.plan.Log.Error(err.Error())
}

// run runs the phases as JMeter's StandardJMeterEngine does: the setUp
// groups, then the main groups (unless the test was stopped during setUp),
// then the tearDown groups: after a stop during the main groups only when
// the plan asks for it (TestPlan.tearDown_on_shutdown). With
// TestPlan.serialize_threadgroups each phase runs its groups one after
// another.
func (r *Run) run() {
	defer close(r.done)
	base := r.newVU(newGroupRun(&group{name: "", path: r.plan.Name}, r.plan), 0, r.soft)
	setUserVariables(base, r.plan.udv)
	phase := func(kind groupKind, soft, hard context.Context) {
		var wg sync.WaitGroup
		for _, g := range r.groups {
			if g.g.kind != kind {
				continue
			}
			if soft.Err() != nil {
				break
			}
			if r.plan.Serial {
				r.runGroup(g, base, soft, hard)
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				r.runGroup(g, base, soft, hard)
			}()
		}
		wg.Wait()
	}
	phase(setUpGroup, r.soft, r.hard)
	mainGroups := r.soft.Err() == nil
	if mainGroups {
		phase(mainGroup, r.soft, r.hard)
	}
	if !r.userAbort.Load() && (r.soft.Err() == nil || mainGroups && r.plan.TearDownOnShutdown) {
		// tearDown groups run under a stop of their own, so that a stopped
		// test still tidies up when the plan asks for it; Stop and Abort
		// end them.
		td, cancel := context.WithCancelCause(r.base)
		r.mu.Lock()
		r.stopTearDown = cancel
		r.mu.Unlock()
		if !r.userAbort.Load() {
			phase(tearDownGroup, td, td)
		}
		cancel(nil)
	}
	err := r.el.Out.Close()
	r.mu.Lock()
	r.errs = append(r.errs, err)
	r.err = errors.Join(r.errs...)
	r.mu.Unlock()
}

// runGroup starts a group's virtual users as JMeter's ThreadGroup does and
// waits for them to end. Virtual user i (from 0) starts i·round(ramp/N)
// after the group (after the startup delay with the scheduler), and with
// the scheduler every one of them stops at start + delay + duration. JMeter
// creates every thread at once and lets each wait for its turn; gojm starts
// each goroutine at its turn, which is the same to the plan. With
// delayedStart JMeter spaces the starts over what is left of the ramp-up
// and starts none past the end.
func (r *Run) runGroup(gr *groupRun, base *VU, soft, hard context.Context) {
	soft, hard, endGroup := gr.contexts(soft, hard) // tg_plugins.go
	defer endGroup()
	g := gr.g
	if g.model != nil {
		g.model.run(r, gr, base, soft, hard)
		return
	}
	s, err := g.evaluate(base)
	if err != nil {
		r.fail(err)
		return
	}
	gr.el.Threads = s.threads
	gr.prog.begin(g, s, base) // for Groups (progress.go)
	defer gr.prog.ended.Store(true)
	if s.threads == 0 {
		return
	}
	wait := time.NewTimer(0)
	<-wait.C
	defer wait.Stop()
	sleepUntil := func(at time.Time) bool {
		if d := time.Until(at); d > 0 {
			wait.Reset(d)
			select {
			case <-wait.C:
			case <-soft.Done():
				wait.Stop()
			}
		}
		return soft.Err() == nil
	}
	var wg sync.WaitGroup
	startVU := func(i int, stopAt time.Time) {
		vu := r.newVU(gr, i+1, soft)
		vu.Hard = hard
		vu.Vars.CopyFrom(base.Vars)
		vu.StopAt = stopAt
		wg.Add(1)
		go func() {
			defer wg.Done()
			thread.New(vu, g.main, g.ctls).Run()
		}()
	}
	start := time.Now()
	if !g.delayedStart {
		perThread := int64(float32(s.rampMs)/float32(s.threads) + 0.5)
		first := start.Add(time.Duration(s.delayMs) * time.Millisecond)
		var stopAt time.Time
		if g.scheduler {
			stopAt = first.Add(time.Duration(s.duration) * time.Millisecond)
		}
		for i := 0; i < s.threads; i++ {
			if !sleepUntil(first.Add(time.Duration(perThread*int64(i)) * time.Millisecond)) {
				break
			}
			startVU(i, stopAt)
		}
		wg.Wait()
		return
	}
	var stopAt time.Time
	if g.scheduler {
		if !sleepUntil(start.Add(time.Duration(s.delayMs) * time.Millisecond)) {
			return
		}
		if s.duration <= 0 {
			return // JMeter's thread starter ends at once
		}
		stopAt = time.Now().Add(time.Duration(s.duration) * time.Millisecond)
	}
	t0 := time.Now()
	for i := 0; i < s.threads; i++ {
		if i > 0 {
			elapsed := time.Since(t0).Milliseconds()
			d := int64(float32(float64(s.rampMs-elapsed)/float64(s.threads-i)) + 0.5)
			if !sleepUntil(time.Now().Add(time.Duration(max(d, 0)) * time.Millisecond)) {
				break
			}
		}
		if g.scheduler && time.Now().After(stopAt) {
			break
		}
		startVU(i, stopAt)
	}
	wg.Wait()
}

func (r *Run) newVU(gr *groupRun, num int, soft context.Context) *VU {
	g := gr.g
	return element.NewVU(r.plan.Plan, gr.el, r.el, num, fmt.Sprintf("%s %d-%d", g.name, g.index, num), soft, r.hard)
}

// router sends a sample to the run's outputs (the main sink) and to the
// plan's listeners that have its sampler in scope, as Sample.Listeners says
// (bit 63 for the main sink: the children of a parent-mode Transaction
// Controller reach only the listeners deeper than it).
type router struct {
	main      report.Sink
	listeners []report.Sink
}

func (rt *router) Add(s *report.Sample) {
	if s.Listeners&mainListener != 0 {
		rt.main.Add(s)
	}
	for m := s.Listeners &^ mainListener; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		if i < len(rt.listeners) && rt.listeners[i] != nil {
			rt.listeners[i].Add(s)
		}
	}
}

func (rt *router) Tick(now time.Time) {
	if t, ok := rt.main.(report.Ticker); ok {
		t.Tick(now)
	}
	for _, l := range rt.listeners {
		if t, ok := l.(report.Ticker); ok && l != nil {
			t.Tick(now)
		}
	}
}

func (rt *router) Close() error {
	errs := []error{rt.main.Close()}
	for _, l := range rt.listeners {
		if l != nil {
			errs = append(errs, l.Close())
		}
	}
	return errors.Join(errs...)
}
