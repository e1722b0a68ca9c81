package engine

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gojm/gojm/engine/httpx"
	"github.com/gojm/gojm/report"
)

// RunOptions configure a run.
type RunOptions struct {
	// Listeners receive the samples of the plan's own listeners: entry i
	// belongs to Plan.Listeners[i] and may be nil.
	Listeners []report.Sink
	// Tick is how often Ticker sinks are told the time (default 1 s).
	Tick time.Duration
}

// Run is a plan being run.
type Run struct {
	plan     *Plan
	hard     context.Context
	abort    context.CancelCauseFunc
	soft     context.Context
	stop     context.CancelCauseFunc
	col      *report.Collector
	started  atomic.Int64
	finished atomic.Int64
	mu       sync.Mutex
	errs     []error
	done     chan struct{}
	err      error
	seed     atomic.Uint64
	// stopTearDown stops the tearDown phase once it has begun.
	stopTearDown context.CancelCauseFunc
}

// Start runs p in the background, sending every sample to sink. Cancelling
// ctx aborts the run as Abort does.
func Start(ctx context.Context, p *Plan, sink report.Sink, opt RunOptions) *Run {
	r := &Run{plan: p, done: make(chan struct{})}
	r.hard, r.abort = context.WithCancelCause(ctx)
	r.soft, r.stop = context.WithCancelCause(r.hard)
	tick := opt.Tick
	if tick <= 0 {
		tick = time.Second
	}
	r.col = report.NewCollector(tick, &router{main: sink, listeners: opt.Listeners})
	r.seed.Store(uint64(time.Now().UnixNano()))
	go r.run()
	return r
}

// Stop ends the run gently: no new sample starts, running ones finish.
// Called while tearDown groups run (after an earlier stop), it stops those.
func (r *Run) Stop(cause error) {
	r.mu.Lock()
	td := r.stopTearDown
	r.mu.Unlock()
	if td != nil && r.soft.Err() != nil {
		td(cause)
	}
	r.stop(cause)
}

// Abort ends the run now: running requests are cancelled too.
func (r *Run) Abort(cause error) {
	r.stop(cause)
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
	return int(r.plan.active.Load()), int(r.started.Load()), int(r.finished.Load())
}

func (r *Run) fail(err error) {
	r.mu.Lock()
	r.errs = append(r.errs, err)
	r.mu.Unlock()
	r.plan.log.Error(err.Error())
}

func (r *Run) run() {
	defer close(r.done)
	base := r.newVU(&group{name: "", path: r.plan.Name}, 0, r.soft)
	setUserVariables(base, r.plan.udv)
	phase := func(kind groupKind, soft context.Context) {
		var wg sync.WaitGroup
		for _, g := range r.plan.groups {
			if g.kind != kind {
				continue
			}
			if soft.Err() != nil {
				break
			}
			if r.plan.Serial && kind == mainGroup {
				r.runGroup(g, base, soft)
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				r.runGroup(g, base, soft)
			}()
		}
		wg.Wait()
	}
	phase(setUpGroup, r.soft)
	phase(mainGroup, r.soft)
	if r.soft.Err() == nil || r.plan.TearDownOnShutdown {
		// tearDown groups run under a stop of their own, so that a stopped
		// test still tidies up when the plan asks for it; an abort ends them.
		td, cancel := context.WithCancelCause(r.hard)
		r.mu.Lock()
		r.stopTearDown = cancel
		r.mu.Unlock()
		phase(tearDownGroup, td)
		cancel(nil)
	}
	err := r.col.Close()
	r.mu.Lock()
	r.errs = append(r.errs, err)
	r.err = errors.Join(r.errs...)
	r.mu.Unlock()
}

// errTestStopped is the cause when the plan itself stops the test (a
// sampler error with "Stop Test", a Flow Control Action).
var errTestStopped = errors.New("the test plan stopped the test")

// runGroup starts a group's virtual users on its ramp-up schedule and waits
// for them to end.
func (r *Run) runGroup(g *group, base *VU, soft context.Context) {
	s, err := g.evaluate(base)
	if err != nil {
		r.fail(err)
		return
	}
	start := time.Now()
	var stopAt time.Time
	if s.duration > 0 {
		stopAt = start.Add(time.Duration(s.delayMs+s.duration) * time.Millisecond)
	}
	var perThread int64
	if s.threads > 0 {
		perThread = int64(float64(s.rampMs)/float64(s.threads) + 0.5)
	}
	wait := time.NewTimer(0)
	<-wait.C
	defer wait.Stop()
	var wg sync.WaitGroup
	for i := 0; i < s.threads; i++ {
		at := start.Add(time.Duration(s.delayMs+perThread*int64(i)) * time.Millisecond)
		if d := time.Until(at); d > 0 {
			wait.Reset(d)
			select {
			case <-wait.C:
			case <-soft.Done():
				wait.Stop()
			}
		}
		if soft.Err() != nil || (!stopAt.IsZero() && !time.Now().Before(stopAt)) {
			break
		}
		vu := r.newVU(g, i+1, soft)
		vu.Vars.copyFrom(base.Vars)
		vu.stopAt = stopAt
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.runVU(vu, s.loops)
		}()
	}
	wg.Wait()
}

func (r *Run) newVU(g *group, num int, soft context.Context) *VU {
	vu := &VU{
		plan:  r.plan,
		group: g,
		Num:   num,
		Name:  fmt.Sprintf("%s %d-%d", g.name, g.index, num),
		Vars:  newVars(r.plan.syms),
		rng:   rand.New(rand.NewPCG(r.seed.Add(0x9E3779B97F4A7C15), uint64(num))),
		state: make([]int64, r.plan.nslots),
		soft:  soft,
		hard:  r.hard,
		log:   r.plan.log,
	}
	return vu
}

// runVU is one virtual user's life: the group's loop over its children.
func (r *Run) runVU(vu *VU, loops int) {
	g := vu.group
	vu.http = httpx.New(httpx.Options{Cookies: g.cookies})
	vu.batch = r.col.NewBatcher()
	g.active.Add(1)
	r.plan.active.Add(1)
	r.started.Add(1)
	defer func() {
		vu.batch.Flush()
		vu.http.CloseIdle()
		g.active.Add(-1)
		r.plan.active.Add(-1)
		r.finished.Add(1)
	}()
	for i := 0; loops < 0 || i < loops; i++ {
		if vu.stopping() {
			return
		}
		vu.Iteration = i + 1
		if i > 0 {
			if !g.sameUser {
				vu.http.CloseIdle()
				vu.http.ResetCookies()
			} else if g.clearCookies {
				vu.http.ResetCookies()
			}
		}
		switch g.body.run(vu) {
		case flowStopThread:
			return
		case flowStopTest:
			r.Stop(errTestStopped)
			return
		case flowStopTestNow:
			r.Abort(errTestStopped)
			return
		}
		if len(g.body) == 0 {
			return
		}
	}
}

// router sends every sample to the main sink and to the plan's listeners
// that have its sampler in scope.
type router struct {
	main      report.Sink
	listeners []report.Sink
}

func (rt *router) Add(s *report.Sample) {
	rt.main.Add(s)
	for m := s.Listeners; m != 0; m &= m - 1 {
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
