package engine

import (
	"context"
	"errors"
	"math/bits"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/group"
	"github.com/gojm/gojm/internal/segment"
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
	// Segment is the part of a split run this process runs (the whole
	// run when unset): its thread groups start only the threads and
	// arrivals it owns, and only its segment 0 runs the setUp and
	// tearDown groups.
	Segment segment.Segment
	// ThreadPrefix starts every thread name (a split run's host).
	ThreadPrefix string
	// Seed, when not 0, seeds the run's random sources, so that the
	// segments of a split run draw the same schedules.
	Seed uint64
	// SetUpDone, when set, is called once the setUp phase has ended (or
	// would have: a segment other than 0 runs none), with the properties
	// as they are then; the properties it returns are set before the main
	// groups start. A split run's segment 0 publishes its properties
	// there, and the others wait for them; an error stops the run.
	SetUpDone func(ctx context.Context, props map[string]string) (map[string]string, error)
	// MainDone, when set, is called once the main groups have ended,
	// before the tearDown phase: a split run's segment 0 waits there for
	// the others' main groups, so that tearDown runs after all of them.
	MainDone func(ctx context.Context) error
	// OnStop, when set, is called once, the first time the run is
	// stopped (by the plan, Stop or Abort), with the cause: a split run's
	// segment tells the others to stop there.
	OnStop func(cause error)
	// OutDir is the run's output folder, the one place the plan's own
	// file writers (Save Responses to a file) may write; "" for none.
	OutDir string
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
	groups []*group.Run
	// setUpDone and mainDone are RunOptions.SetUpDone and MainDone.
	setUpDone func(ctx context.Context, props map[string]string) (map[string]string, error)
	mainDone  func(ctx context.Context) error
	onStop    func(cause error)
	stopOnce  sync.Once
}

// Start runs p in the background, sending every sample to sink. Cancelling
// ctx aborts the run as Abort does.
func Start(ctx context.Context, p *Plan, sink report.Sink, opt RunOptions) *Run {
	r := &Run{plan: p, base: ctx, done: make(chan struct{}), setUpDone: opt.SetUpDone, mainDone: opt.MainDone, onStop: opt.OnStop}
	seed := opt.Seed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	r.el = element.NewRun(p.Plan, seed, func(cause error) { r.Stop(cause) }, func(cause error) { r.stopNow(cause) })
	r.el.Detail = opt.Detail
	r.el.OutDir = opt.OutDir
	if opt.Segment.Seq != nil {
		r.el.Segment = opt.Segment
	}
	r.el.ThreadPrefix = opt.ThreadPrefix
	for _, g := range p.groups {
		r.groups = append(r.groups, group.NewRun(g, p.Plan, r.el, r.fail))
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
	if r.onStop != nil {
		r.stopOnce.Do(func() { r.onStop(cause) })
	}
}

// Abort ends the run now, as gojm's own decision (a second Ctrl-C, the
// stop grace over; cause says which): running requests are cancelled too,
// each a failed sample marked as aborted by the client
// (report.AbortedMessage), and no tearDown group runs.
func (r *Run) Abort(cause error) {
	ca := &element.ClientAbort{Reason: cause.Error()}
	r.userAbort.Store(true)
	r.Stop(ca)
	r.abort(ca)
}

// stopNow is the plan's own Stop Test Now (a sampler error, a Flow Control
// Action): running requests are cancelled; tearDown groups still run when
// the plan asks for them after a stop, as in JMeter 5.
func (r *Run) stopNow(cause error) {
	r.Stop(cause)
	r.abort(cause)
}

// Flush writes out what the results files buffer of the samples handed
// over so far, and returns once it is written: a stop (a signal) calls it
// so that the rows up to then are on disk at once, whatever comes next.
// It must not be called from a sink.
func (r *Run) Flush() { r.el.Out.Flush() }

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

// GroupStatus is a thread group's state during a run, for progress
// displays and metrics: read at any time from any goroutine.
type GroupStatus = group.Status

// ArrivalStatus is what an arrival-rate group did with its arrivals.
type ArrivalStatus = group.ArrivalStatus

// Groups returns the state of every thread group, in the order they run.
func (r *Run) Groups() []GroupStatus {
	out := make([]GroupStatus, 0, len(r.groups))
	for _, gr := range r.groups {
		out = append(out, gr.Status())
	}
	return out
}

// Arrivals returns the arrival counts of the run's arrival-rate groups
// (Open Model, Arrivals and Free-Form Arrivals Thread Groups) that have
// started, in the order the groups run.
func (r *Run) Arrivals() []ArrivalStatus {
	var out []ArrivalStatus
	for _, gr := range r.groups {
		if st, ok := gr.ArrivalStatus(); ok {
			out = append(out, st)
		}
	}
	return out
}

// Dropped returns the number of iterations the arrival-rate groups could
// not start (JMeter's "dropped" arrivals), over the whole run so far.
func (r *Run) Dropped() int64 {
	var n int64
	for _, a := range r.Arrivals() {
		n += a.Dropped
	}
	return n
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
	base := group.NewRun(&group.Group{Name: "", Path: r.plan.Name}, r.plan.Plan, r.el, r.fail).NewVU(0, r.soft, r.hard)
	setUserVariables(base, r.plan.udv)
	// A split run's setUp and tearDown groups run once, in segment 0.
	first := r.el.Segment.Index == 0
	phase := func(kind group.Phase, soft, hard context.Context) {
		if kind != group.Main && !first {
			return
		}
		var wg sync.WaitGroup
		for _, g := range r.groups {
			if g.Group.Phase != kind {
				continue
			}
			if soft.Err() != nil {
				break
			}
			if r.plan.Serial {
				g.Execute(base, soft, hard)
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				g.Execute(base, soft, hard)
			}()
		}
		wg.Wait()
	}
	phase(group.SetUp, r.soft, r.hard)
	if r.setUpDone != nil && r.soft.Err() == nil {
		props, err := r.setUpDone(r.soft, r.plan.Props.Snapshot())
		if err != nil {
			r.fail(err)
			r.Stop(err)
		}
		for k, v := range props {
			r.plan.Props.Set(k, v)
		}
	}
	mainGroups := r.soft.Err() == nil
	if mainGroups {
		phase(group.Main, r.soft, r.hard)
	}
	if r.mainDone != nil {
		if err := r.mainDone(r.base); err != nil {
			r.fail(err)
		}
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
			phase(group.TearDown, td, td)
		}
		cancel(nil)
	}
	r.el.End()
	err := r.el.Out.Close()
	r.mu.Lock()
	r.errs = append(r.errs, err)
	r.err = errors.Join(r.errs...)
	r.mu.Unlock()
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

func (rt *router) Flush() error {
	errs := []error{report.Sinks{rt.main}.Flush()}
	for _, l := range rt.listeners {
		if l != nil {
			errs = append(errs, report.Sinks{l}.Flush())
		}
	}
	return errors.Join(errs...)
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
