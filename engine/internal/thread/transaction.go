package thread

import (
	"strconv"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
	"github.com/gojm/gojm/report"
)

// The Transaction Controller, as JMeter computes it.
//
// Without "Generate parent sample" the controller listens to the samples
// of its children and, when its pass ends, adds a sample of its own: its
// time runs from the start of the pass (before the first child's timers)
// to the end (with "Include duration of timer and pre-post processors"
// off, the gaps between children are idle time instead), bytes, latency
// and connect time are the children's sums, and it fails when a child
// failed. Its message counts the samples the way JMeter's counter does
// (which counts some children twice when a child controller yields
// nothing): "Number of samples in transaction : N, number of failing
// samples : M". That sample goes to the listeners of the last sampler run,
// with no assertion.
//
// With "Generate parent sample" the children's samples become sub-samples
// of the controller's sample, which gets the assertions and listeners in
// the controller's own scope; the children's samples then reach only
// listeners deeper than the controller. Its time is from the start of the
// pass to the end of the last child (the sum of the children's times
// without timers), its code the first failing child's (200 when none
// failed).

// TxDef is a compiled Transaction Controller.
type TxDef struct {
	Parent        bool
	IncludeTimers bool
	// pack is what applies to the controller's own sample in parent mode:
	// the assertions and listeners in its scope, its own level included.
	Pack *Scope
}

func BuildTransaction(c element.Builder, e *jmx.Element, d *ControllerDef) error {
	d.Tx.Parent = e.Bool("TransactionController.parent", false)
	d.Tx.IncludeTimers = e.Bool("TransactionController.includeTimers", true)
	t := d.Tx
	d.Make = func(*Thread) Controller { return &txCtl{t: t} }
	return nil
}

// txCtl is one virtual user's Transaction Controller.
type txCtl struct {
	Generic
	t *TxDef
	// parent mode: the transaction in progress
	ts    *txSampler
	spare *txSampler
	// non-parent mode: the sample being gathered
	open      bool
	res       report.Sample
	calls     int
	failing   int
	pauseTime time.Duration
	prevEnd   time.Time
}

func (t *txCtl) Next(vu *element.VU) Item {
	if t.t.Parent {
		return t.nextParent(vu)
	}
	return t.nextPlain(vu)
}

func (t *txCtl) nextParent(vu *element.VU) Item {
	if t.ts != nil && t.ts.done {
		t.spare, t.ts = t.ts, nil
		return nil
	}
	if t.first || t.ts == nil {
		t.ts = t.newTransaction(vu)
	}
	ts := t.ts
	sub := t.Generic.Next(vu)
	ts.sub = sub
	if sub == nil {
		ts.setDone(vu)
	}
	return ts
}

func (t *txCtl) newTransaction(vu *element.VU) *txSampler {
	ts := t.spare
	if ts == nil {
		ts = &txSampler{tc: t}
	}
	t.spare = nil
	*ts = txSampler{tc: t}
	ts.res.Label = t.def.Name.Eval(vu)
	// JMeter's SampleResult takes the thread's name when it is made: a
	// transaction cut short by "Start Next Thread Loop" has it, and no
	// thread counts (those come when it ends normally, endTransaction).
	ts.res.ThreadName = vu.Name
	ts.res.Success = true
	ts.res.Transaction = true
	ts.res.Start = vu.Now()
	return ts
}

func (t *txCtl) NextIsAController(vu *element.VU, c Controller) Item {
	if !t.t.Parent {
		return t.Generic.NextIsAController(vu, c)
	}
	s := c.Next(vu)
	if s == nil {
		t.self.CurrentReturnedNull(vu, c)
		return t.Generic.Next(vu)
	}
	return s
}

func (t *txCtl) nextPlain(vu *element.VU) Item {
	if t.first {
		t.calls, t.failing = 0, 0
		t.res = report.Sample{Label: t.def.Name.Eval(vu), ThreadName: vu.Name, Success: true, Transaction: true, Start: vu.Now()}
		t.open = true
		t.prevEnd = t.res.Start
		t.pauseTime = 0
	}
	isLast := t.current == len(t.kids)
	s := t.Generic.Next(vu)
	if s == nil && isLast {
		if t.open {
			now := vu.Now()
			if !t.t.IncludeTimers {
				t.pauseTime += now.Sub(t.prevEnd)
			}
			t.res.Idle += t.pauseTime
			t.res.Elapsed = now.Sub(t.res.Start) - t.res.Idle
			t.res.Message = txMessage(t.calls, t.failing)
			if t.res.Success {
				t.res.Code = "200"
			}
			t.notify(vu)
		}
	} else {
		t.calls++
	}
	return s
}

func txMessage(calls, failing int) string {
	return "Number of samples in transaction : " + strconv.Itoa(calls) + ", number of failing samples : " + strconv.Itoa(failing)
}

// sampleOccurred gathers a sample of a child (non-parent mode).
func (t *txCtl) SampleOccurred(s *report.Sample) {
	if t.t.Parent || !t.open {
		return
	}
	t.res.ThreadName = s.ThreadName
	t.res.Bytes += s.Bytes
	t.res.SentBytes += s.SentBytes
	if !t.t.IncludeTimers {
		end := s.Start.Add(s.Elapsed + s.Idle)
		t.pauseTime += s.Start.Add(s.Idle).Sub(t.prevEnd)
		t.prevEnd = end
	}
	if !s.Success {
		t.res.Success = false
		t.failing++
	}
	t.res.AllThreads = s.AllThreads
	t.res.GrpThreads = s.GrpThreads
	t.res.Latency += s.Latency
	t.res.Connect += s.Connect
}

// notify hands the gathered sample to the listeners of the last sampler
// run (JMeter's SamplePackage "hack"); without one it is lost, as in JMeter.
func (t *txCtl) notify(vu *element.VU) {
	t.open = false
	pack := t.th.lastPack
	if pack == nil {
		vu.Warnf("%s: Could not fetch SamplePackage", t.def.Path)
		return
	}
	t.res.Listeners = pack.Outputs
	t.res.Vars = vu.SampleVars()
	t.th.handOver(&t.res)
	t.res = report.Sample{}
}

func (t *txCtl) TriggerEndOfLoop(vu *element.VU) {
	if !t.t.Parent {
		if t.open {
			now := vu.Now()
			t.res.Idle += t.pauseTime
			t.res.Elapsed = now.Sub(t.res.Start) - t.res.Idle
			t.res.Success = !vu.LastSampleFailed() && vu.LastSampleOK()
			t.res.Message = txMessage(t.calls, t.failing)
			t.notify(vu)
		}
	} else if t.ts != nil {
		if inner, ok := t.ts.sub.(*txSampler); ok {
			t.ts.addSub(&inner.res)
		}
		t.ts.setDone(vu)
		t.ts = nil
	}
	t.Generic.TriggerEndOfLoop(vu)
}

// txSampler is a parent-mode transaction: what the controller hands to the
// thread, with the sampler to run inside it.
type txSampler struct {
	tc           *txCtl
	sub          Item
	done         bool
	res          report.Sample
	end          time.Time
	calls        int
	failing      int
	totalTime    time.Duration
	totalConnect time.Duration
}

func (*txSampler) samplerItem() {}

// addSub adds a child's sample (JMeter's addSubSamplerResult).
func (ts *txSampler) addSub(s *report.Sample) {
	ts.calls++
	if ts.failing == 0 {
		ts.res.Code = s.Code
	}
	if !s.Success {
		ts.res.Success = false
		ts.failing++
	}
	c := new(report.Sample)
	*c = *s
	if end := s.Start.Add(s.Elapsed + s.Idle); end.After(ts.end) {
		ts.end = end
	}
	ts.res.Elapsed = ts.end.Sub(ts.res.Start) - ts.res.Idle
	ts.res.Bytes += s.Bytes
	ts.res.SentBytes += s.SentBytes
	ts.res.Sub = append(ts.res.Sub, c)
	ts.totalTime += s.Elapsed
	ts.totalConnect += s.Connect
}

func (ts *txSampler) setDone(vu *element.VU) {
	ts.done = true
	ts.res.Message = txMessage(ts.calls, ts.failing)
	if ts.res.Success {
		ts.res.Code = "200"
	}
	if !ts.tc.t.IncludeTimers {
		end := vu.Now()
		ts.res.Idle = end.Sub(ts.res.Start) - ts.totalTime
		ts.end = end
		ts.res.Elapsed = end.Sub(ts.res.Start) - ts.res.Idle
	}
	ts.res.Connect = ts.totalConnect
}
