package thread

import (
	"sync"
	"sync/atomic"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/report"
)

// parallelSampler is BlazeMeter's Parallel Controller
// (com.blazemeter.jmeter.controller.ParallelSampler): a sampler whose
// children (controllers and samplers) each run once, all at the same time,
// every time it runs; it ends when the last one ends. With "Generate
// parent sample" (PARENT_SAMPLE) their samples become sub-samples of one
// sample named after the controller (code 200, failed when a child
// failed, bytes summed, from the start of the first branch to the end of
// the last), which gets the controller's own timers, processors,
// assertions and listeners; without it there is no such sample and the
// children's samples go to their listeners as usual. LIMIT_MAX_THREAD_NUMBER
// runs at most MAX_THREAD_NUMBER branches at once, in order.
//
// A virtual user is one goroutine and nothing in it is locked, so each
// branch runs as a virtual user of its own, kept for the user's life (its
// controllers keep their state from one run to the next, as the plugin's
// do): it starts each run with a copy of the user's variables and shares
// the user's cookies and connection pool on a lane of its own; when all
// branches are done, the variables they changed are copied back in branch
// order (the plugin shares one variable map, so a branch sees another's
// changes at once, racily; here a variable a branch set to the value it
// started with is not a change). Their samples are collected and handed over
// by the user, branch after branch, when all have ended; their thread name
// is "<user> - <controller> - <child>". A "start next thread loop" in a
// branch ends the branch and makes the user start its next iteration once
// the controller is done, as the plugin does.
type parallelSampler struct {
	name   *element.Template
	parent bool
	limit  int // branches at once; 0 for all
	kids   []Child
	def    *ControllerDef // the controller's place in the paths of its branches' samplers
}

// captured is a sample a branch made, with the scope of the sampler that
// ran last (the Transaction Controllers it reaches).
type captured struct {
	s  report.Sample
	sc *Scope
}

// NewParallel makes the sampler of a Parallel Controller compiled as d
// (its children the branches) with its own sample's scope sc.
func NewParallel(d *ControllerDef, sc *Scope, parent bool, limit int) *SamplerDef {
	p := &parallelSampler{name: d.Name, parent: parent, limit: limit, kids: d.Kids, def: d}
	return &SamplerDef{Name: p.name, Scope: sc, ThreadSample: p.Sample}
}

// parallelRun is one virtual user's branches of one Parallel Controller.
type parallelRun struct {
	branches []*branch
	snap     *element.Vars
}

// branch is one child of a Parallel Controller, run by a virtual user of
// its own.
type branch struct {
	th      *Thread
	h       Controller  // the child controller, or
	s       *SamplerDef // the child sampler
	out     []captured
	restart bool
}

// branchesOf returns th's branches of p, made on first use.
func (p *parallelSampler) branchesOf(th *Thread) *parallelRun {
	if pr := th.branches[p]; pr != nil {
		return pr
	}
	vu := th.VU
	pr := &parallelRun{snap: element.NewVars(vu.Plan.Symbols())}
	pname := p.name.Eval(vu)
	for _, k := range p.kids {
		b := &branch{th: New(vu.Fork(), nil, len(th.ctls))}
		var kname string
		if k.Controller != nil {
			b.h = b.th.instantiate(k.Controller)
			kname = k.Controller.Name.Eval(vu)
		} else {
			b.s = k.Sampler
			kname = k.Sampler.Name.Eval(vu)
		}
		b.th.VU.Name = vu.Name + " - " + pname + " - " + kname
		pr.branches = append(pr.branches, b)
	}
	if th.branches == nil {
		th.branches = map[*parallelSampler]*parallelRun{}
	}
	th.branches[p] = pr
	return pr
}

func (p *parallelSampler) Sample(th *Thread, r *element.Result) {
	vu := th.VU
	pr := p.branchesOf(th)
	pr.snap.CopyFrom(vu.Vars)
	for _, b := range pr.branches {
		b.ready()
	}
	r.Start = vu.Now()
	workers := len(pr.branches)
	if p.limit > 0 {
		workers = min(workers, p.limit)
	}
	var wg sync.WaitGroup
	var nextBranch atomic.Int64
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(nextBranch.Add(1)) - 1; i < len(pr.branches); i = int(nextBranch.Add(1)) - 1 {
				p.runBranch(pr.branches[i])
			}
		}()
	}
	wg.Wait()
	end := vu.Now()
	restart := false
	for _, b := range pr.branches {
		vu.Vars.MergeChanges(pr.snap, b.th.VU.Vars)
		restart = restart || b.restart
	}
	if restart {
		r.Next = element.NextThreadLoop
	}
	if !p.parent {
		r.None = true
		for _, b := range pr.branches {
			for i := range b.out {
				c := &b.out[i]
				th.handOver(&c.s)
				if c.sc == nil {
					continue
				}
				for _, t := range c.sc.Txs {
					if tc, ok := th.ctls[t.Index].(*txCtl); ok {
						tc.SampleOccurred(&c.s)
					}
				}
			}
		}
		return
	}
	r.Code, r.Message, r.Success = "200", "OK", true
	for _, b := range pr.branches {
		for i := range b.out {
			s := new(report.Sample)
			*s = b.out[i].s
			r.Sub = append(r.Sub, s)
			r.Success = r.Success && s.Success
			r.Bytes += s.Bytes
			r.SentBytes += s.SentBytes
			if e := s.End(); e.After(end) {
				end = e
			}
		}
	}
	r.Elapsed = end.Sub(r.Start)
}

// ready prepares a branch for a run of its controller by vu.
func (b *branch) ready() {
	bv := b.th.VU
	bv.Branch()
	b.th.action = element.Continue
	b.out = b.out[:0]
	b.restart = false
	b.th.capture = &b.out
	if b.h != nil {
		b.h.Initialize(bv)
	}
}

// runBranch runs one branch once: a sampler, or one pass of a controller.
func (p *parallelSampler) runBranch(b *branch) {
	bt := b.th
	bv := bt.VU
	defer bt.releaseLocks()
	onError := bv.Group.OnError
	if b.s != nil {
		bt.processSampler(b.s, nil)
		b.restart = bt.action == element.NextThreadLoop || onError == element.NextThreadLoop && !bv.LastSampleOK()
		return
	}
	for bv.Running() {
		sam := b.h.Next(bv)
		if sam == nil {
			return
		}
		bt.processSampler(sam, nil)
		onErrorNext := onError == element.NextThreadLoop && !bv.LastSampleOK()
		if bt.action == element.Continue && !onErrorNext {
			continue
		}
		act := bt.action
		bt.action = element.Continue
		bv.SetLastOK(true)
		if onErrorNext {
			act = element.NextThreadLoop
		}
		if act == element.NextThreadLoop {
			b.restart = true
			p.endLoops(bt, sam, act)
			return
		}
		if !p.endLoops(bt, sam, act) {
			return
		}
	}
}

// endLoops applies a loop action within a branch: to the branch's
// controllers above the sampler, up to the nearest loop; it reports
// whether the branch goes on (a loop inside it took the action).
func (p *parallelSampler) endLoops(bt *Thread, sam Item, kind element.Next) bool {
	bv := bt.VU
	real := sam
	for {
		t, ok := real.(*txSampler)
		if !ok {
			break
		}
		real = t.sub
	}
	n, _ := real.(*SamplerDef)
	goOn := false
	if n != nil {
		for _, d := range n.Path {
			if d == p.def {
				break
			}
			h := bt.ctls[d.Index]
			if it, loop := h.(iterating); loop && kind != element.NextThreadLoop {
				if kind == element.BreakLoop {
					it.BreakLoop(bv)
				} else {
					it.StartNextLoop(bv)
				}
				goOn = true
				break
			}
			h.TriggerEndOfLoop(bv)
		}
	}
	if ts, ok := sam.(*txSampler); ok {
		bt.endTransaction(ts, nil)
	}
	return goOn
}
