package thread

import (
	"bytes"
	"errors"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/report"
)

// Thread is a virtual user's run of its group's controllers (JMeter's
// JMeterThread): the user's instances of the controllers, what the last
// sample asked of the loops, the scope of the sampler run last, and where
// its samples go. The virtual user itself (VU) is what its elements see;
// this is what only the thread loop and the controllers see.
type Thread struct {
	VU     *element.VU
	main   *ControllerDef // the group's main loop
	ctls   []Controller   // this user's controller instances, by ctlDef.index
	action element.Next   // the loop action the last sample asked for
	// lastPack is the scope of the last sampler run (JMeter's
	// PACKAGE_OBJECT), where a Transaction Controller's sample goes.
	lastPack *Scope
	depth    int            // controllers' next calls on the stack
	txr      element.Result // a parent-mode transaction's sample being checked
	batch    *report.Batcher
	// lag is how late the current iteration started (0 outside the
	// arrival-rate groups); anchored is set once the iteration's first
	// sample was handed over, first being that sample's measured start.
	Lag      time.Duration
	anchored bool
	first    time.Time
	// due is the arrival a new Arrivals Thread Group user starts with.
	Due time.Time
	// capture, when set, receives the samples instead of the run's
	// collector (a Parallel Controller's branch, parallel.go).
	capture *[]captured
	// branches are this user's Parallel Controller branches, by controller.
	branches map[*parallelSampler]*parallelRun
}

// NewThread makes the thread of vu, which runs main (nil for a Parallel
// Controller's branch, which runs what its controller gives it); its
// group has n controllers.
func New(vu *element.VU, main *ControllerDef, n int) *Thread {
	return &Thread{VU: vu, main: main, ctls: make([]Controller, n)}
}

// threadLoop is the virtual user's own iteration listener on its group's
// main loop (JMeter's JMeterThread.IterationListener): it counts the
// iteration and acts on the new-iteration settings (a fresh user: new
// cookies and connections; a Cookie Manager that clears each iteration).
type threadLoop struct{}

func (threadLoop) IterationStart(vu *element.VU, _ Controller, _ int) { vu.NextIteration() }

// Run is one virtual user's life, as JMeter's JMeterThread.run: ask the
// group's main loop for the next sampler until it is done or the thread
// stops, and apply what each sample asks (start the next iteration,
// continue or break a loop) to the controllers above the sampler.
func (th *Thread) Run() {
	vu, r := th.VU, th.VU.Run
	th.batch = r.Out.NewBatcher()
	vu.SetLastOK(true)
	tg := th.instantiate(th.main)
	tg.Initialize(vu)
	tg.Base().addIterationListener(threadLoop{})
	gr := vu.Group
	gr.Active.Add(1)
	gr.Started.Add(1)
	r.Active.Add(1)
	r.Started.Add(1)
	defer func() {
		th.releaseLocks()
		th.batch.Flush()
		vu.End()
		gr.Active.Add(-1)
		gr.Finished.Add(1)
		r.Active.Add(-1)
		r.Finished.Add(1)
	}()
	for vu.Running() {
		sam := tg.Next(vu)
		for vu.Running() && sam != nil {
			th.processSampler(sam, nil)
			onErrorNext := gr.OnError == element.NextThreadLoop && !vu.LastSampleOK()
			if th.action != element.Continue || onErrorNext {
				act := th.action
				if onErrorNext {
					act = element.NextThreadLoop
				}
				th.loopAction(sam, act)
				th.action = element.Continue
				sam = nil
				vu.SetLastOK(true)
			} else {
				sam = tg.Next(vu)
			}
		}
		if tg.IsDone(vu) {
			vu.StopThread()
		}
		if vu.SchedulerEnded() {
			// JMeter checks the end time after each sample only; a loop that
			// reaches no sampler would spin past the end for ever.
			vu.StopThread()
		}
	}
}

// Steps readies th to run one sampler at a time outside Run, for the
// benchmarks of the per-sample path: step runs the next sampler its main
// loop hands over and reports false when the loop is done; end flushes
// the samples.
func (th *Thread) Steps() (step func() bool, end func()) {
	vu := th.VU
	th.batch = vu.Run.Out.NewBatcher()
	vu.SetLastOK(true)
	tg := th.instantiate(th.main)
	tg.Initialize(vu)
	step = func() bool {
		sam := tg.Next(vu)
		if sam == nil {
			return false
		}
		th.processSampler(sam, nil)
		return true
	}
	return step, th.batch.Flush
}

// processSampler runs what a controller handed over (JMeter's
// processSampler): a sampler, or a step of a parent-mode transaction, which
// ends with the transaction's own sample. It returns that sample to an
// enclosing transaction.
func (th *Thread) processSampler(cur, parent Item) *report.Sample {
	vu := th.VU
	var ts *txSampler
	var txRes *report.Sample
	if t, ok := cur.(*txSampler); ok {
		ts = t
		if ts.done {
			txRes = th.endTransaction(ts, parent)
			cur = nil
		} else {
			prev := cur
			cur = ts.sub
			if inner, ok := cur.(*txSampler); ok {
				res := th.processSampler(inner, prev)
				cur = nil
				if res != nil {
					ts.addSub(res)
				}
			}
		}
	}
	if n, ok := cur.(*SamplerDef); ok && n != nil {
		th.execute(n, ts)
	}
	if vu.SchedulerEnded() {
		vu.StopThread()
	}
	if !vu.Running() && txRes == nil && ts != nil {
		txRes = th.endTransaction(ts, parent)
	}
	return txRes
}

// loopAction applies a loop action (NextThreadLoop, NextIterationLoop,
// BreakLoop) to the controllers above a sampler (JMeterThread's
// triggerLoopLogicalActionOnParentControllers).
func (th *Thread) loopAction(sam Item, kind element.Next) {
	vu := th.VU
	real := sam
	for {
		t, ok := real.(*txSampler)
		if !ok {
			break
		}
		real = t.sub
	}
	n, _ := real.(*SamplerDef)
	if n == nil {
		// JMeter fails with an IllegalStateException here (a transaction's
		// own sample failed after its last child): the thread ends.
		vu.Log.Error("no sampler to restart the loop from: the thread stops", "thread", vu.Name)
		vu.StopThread()
		return
	}
	th.endLoops(n.Path, kind)
	if ts, ok := sam.(*txSampler); ok {
		th.endTransaction(ts, nil)
	}
}

// endLoops ends the passes of the controllers on path (the sampler's
// controllers, nearest first, up to the thread group's main loop): every
// one for "start next thread loop"; up to the innermost loop (Loop, While,
// ForEach, the thread group) for continue and break.
func (th *Thread) endLoops(path []*ControllerDef, kind element.Next) {
	vu := th.VU
	for _, d := range path {
		h := th.ctls[d.Index]
		it, loop := h.(iterating)
		if d.Index == 0 || loop && kind != element.NextThreadLoop {
			if kind == element.BreakLoop {
				it.BreakLoop(vu)
			} else {
				it.StartNextLoop(vu)
			}
			return
		}
		h.TriggerEndOfLoop(vu)
	}
}

// execute runs one sampler with its scope (JMeter's executeSamplePackage):
// pre-processors, timers, the sample, post-processors, assertions, the
// listeners; then what the sample asks of the thread. ts is the parent-mode
// transaction the sampler runs in, if any.
func (th *Thread) execute(n *SamplerDef, ts *txSampler) {
	vu := th.VU
	sc := n.Scope
	name := n.Name.Eval(vu)
	vu.SamplerName = name
	if len(sc.Pres) > 0 {
		element.Sampling(vu, n.Sampler)
	}
	for _, p := range sc.Pres {
		p.PreProcess(vu)
	}
	if len(sc.Pres) > 0 && !n.Name.Const() {
		// JMeter reads the sampler's name when it samples: after the
		// pre-processors, which may set the variables it uses.
		name = n.Name.Eval(vu)
		vu.SamplerName = name
	}
	th.lastPack = sc
	th.waitTimers(sc.Timers)
	if !vu.Running() {
		return
	}
	r := &vu.Res
	r.Reset()
	r.Label = name
	r.ThreadName = vu.Name
	if n.ThreadSample != nil {
		n.ThreadSample(th, r)
	} else {
		n.Sampler.Sample(vu, r)
	}
	if r.None {
		th.then(r.Next)
		return
	}
	if !r.Ignore {
		r.GrpThreads = int(vu.Group.Active.Load())
		r.AllThreads = int(vu.Run.Active.Load())
		for _, p := range sc.Posts {
			p.PostProcess(vu, r)
		}
		for _, a := range sc.Assertions {
			a.Assert(vu, r)
		}
		vu.SetLastOK(r.Success)
		if !r.Ignore {
			th.notify(r, sc)
		}
		if ts != nil && !r.Ignore {
			ts.addSub(&r.Sample)
		}
	} else {
		vu.SetLastOK(r.Success)
	}
	next := r.Next
	if !r.Success && vu.Group.OnError.IsStop() {
		next = next.Then(vu.Group.OnError)
	}
	th.then(next)
}

// then does what a sample asked: a stop ends the thread (and the test),
// a loop action waits for the thread loop to apply it.
func (th *Thread) then(n element.Next) {
	vu := th.VU
	switch n {
	case element.Continue:
	case element.StopThread:
		vu.StopThread()
	case element.StopTest:
		vu.StopThread()
		vu.Run.StopTest(errTestStopped)
	case element.StopTestNow:
		vu.StopThread()
		vu.Run.StopTestNow(errTestStopped)
	default:
		th.action = n
	}
}

// notify hands a sample to the listeners in scope: the run's outputs and
// the plan's listeners, non-parent Transaction Controllers, Result Status
// Action Handlers.
func (th *Thread) notify(r *element.Result, sc *Scope) {
	vu := th.VU
	r.Listeners = sc.OwnOutputs
	r.Vars = vu.SampleVars()
	if vu.Details() && r.Detail == nil { // an HTTP sample has its own (httpCall.fetch)
		r.Detail = &report.Detail{ResponseData: bytes.Clone(r.Body), SamplerData: r.SamplerData}
	}
	th.handOver(&r.Sample)
	for _, t := range sc.Txs {
		if c, ok := th.ctls[t.Index].(*txCtl); ok {
			c.SampleOccurred(&r.Sample)
		}
	}
	for _, l := range sc.Listeners {
		l.SampleOccurred(vu, r)
	}
}

// StartIteration records that the user's new iteration was due at
// intended: the first sample it hands over is timed from then.
func (th *Thread) StartIteration(intended time.Time) {
	vu := th.VU
	lag := vu.Now().Sub(intended)
	th.Lag = max(lag, 0)
	th.anchored = false
}

// handOver gives a finished sample to the run's outputs (or to the
// Parallel Controller that runs this user as a branch), first moving it
// back to its iteration's intended start when it begins the iteration.
func (th *Thread) handOver(s *report.Sample) {
	if th.Lag > 0 {
		th.shift(s)
	}
	if th.capture != nil {
		*th.capture = append(*th.capture, captured{s: *s, sc: th.lastPack})
		return
	}
	th.batch.Add(s)
}

// shift applies the iteration's wait to s when s begins the iteration.
func (th *Thread) shift(s *report.Sample) {
	if !th.anchored {
		th.anchored = true
		th.first = s.Start
	} else if s.Start.After(th.first) {
		return
	}
	shiftBack(s, th.Lag)
}

// delay sleeps the sum of the timers' delays before a sample. With a
// scheduler, a delay that would end past the end time stops the thread
// instead (JMeter 5's JMeterThread.delay); a stop of the run cuts it short.
func (th *Thread) waitTimers(timers []element.Timer) {
	vu := th.VU
	var total time.Duration
	for _, t := range timers {
		total += t.Delay(vu)
		if vu.Stopped() {
			return // a timer stopped the thread (Precise Throughput Timer)
		}
	}
	if total <= 0 {
		return
	}
	total = total.Truncate(time.Millisecond)
	if !vu.StopAt.IsZero() && total > vu.StopAt.Sub(vu.Now()) {
		vu.StopThread()
		return
	}
	if total > report.SlowGap && th.batch != nil {
		// The samples gathered so far go to the outputs before a think
		// time, rather than waiting in the batch through it: what a killed
		// gojm loses stays bounded (report.MaxBatchAge).
		th.batch.Flush()
	}
	vu.Sleep(total)
}

// instantiate builds a virtual user's instance of d and of everything
// below it, registering iteration listeners as JMeter's TestCompiler does.
func (th *Thread) instantiate(d *ControllerDef) Controller {
	h := d.Make(th)
	g := h.Base()
	g.self, g.def, g.th = h, d, th
	g.kids = make([]item, len(d.Kids))
	for i, k := range d.Kids {
		if k.Sampler != nil {
			g.kids[i] = item{s: k.Sampler}
		} else {
			g.kids[i] = item{c: th.instantiate(k.Controller)}
		}
	}
	for _, l := range d.Listens {
		if l.Element != nil {
			g.addIterationListener(elemListener{l.Element})
		} else if ll, ok := g.kids[l.Kid].c.(loopListener); ok {
			g.addIterationListener(ll)
		}
	}
	th.ctls[d.Index] = h
	return h
}

// releaseLocks gives back every lock a virtual user still holds when it
// ends (JMeter's threadFinished).
func (th *Thread) releaseLocks() {
	vu := th.VU
	for _, h := range th.ctls {
		if c, ok := h.(*criticalCtl); ok && c.held != nil {
			for c.held.owner.Load() == vu {
				c.held.unlock(vu)
			}
			c.held = nil
		}
	}
}

// endTransaction checks and hands over a parent-mode transaction's sample
// (JMeter's doEndTransactionSampler) and returns it for an enclosing one.
func (th *Thread) endTransaction(ts *txSampler, parent Item) *report.Sample {
	vu := th.VU
	r := &th.txr
	*r = element.Result{Sample: ts.res}
	r.ThreadName = vu.Name
	r.GrpThreads = int(vu.Group.Active.Load())
	r.AllThreads = int(vu.Run.Active.Load())
	pack := ts.tc.t.Pack
	for _, a := range pack.Assertions {
		a.Assert(vu, r)
	}
	vu.SetLastOK(r.Success)
	ts.res = r.Sample
	if _, nested := parent.(*txSampler); !nested {
		ts.res.Listeners = pack.Outputs
		ts.res.Vars = vu.SampleVars()
		th.handOver(&ts.res)
		for _, tc := range pack.Txs {
			if c, ok := th.ctls[tc.Index].(*txCtl); ok {
				c.SampleOccurred(&ts.res)
			}
		}
		// As in JMeter, what the listeners set on the transaction's sample
		// (a stop, a loop action) is not acted on.
		for _, l := range pack.Listeners {
			l.SampleOccurred(vu, r)
		}
	}
	return &ts.res
}

// shiftBack moves s back by d, with its sub-samples that start with it (a
// redirect's first hop). A transaction's sub-samples are its children's,
// handed over, so moved, already.
func shiftBack(s *report.Sample, d time.Duration) {
	if !s.Transaction {
		for _, sub := range s.Sub {
			if !sub.Start.After(s.Start) {
				shiftBack(sub, d)
			}
		}
	}
	s.Start = s.Start.Add(-d)
	s.Elapsed += d
	if s.Latency > 0 {
		s.Latency += d
	}
}

// errTestStopped is the cause when the plan itself stops the test (a
// sampler error with "Stop Test", a Flow Control Action).
var errTestStopped = errors.New("the test plan stopped the test")
