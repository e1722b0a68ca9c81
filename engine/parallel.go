package engine

import (
	"sync"
	"sync/atomic"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
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
	name   *Template
	parent bool
	limit  int // branches at once; 0 for all
	kids   []ctlChild
	def    *ctlDef // the controller's place in the paths of its branches' samplers
}

const parallelClass = "com.blazemeter.jmeter.controller.ParallelSampler"

// captured is a sample a branch made, with the scope of the sampler that
// ran last (the Transaction Controllers it reaches).
type captured struct {
	s  report.Sample
	sc *scope
}

// parallelSampler compiles a Parallel Controller: its own sample's scope,
// and its children as one level below it, each the root of a branch.
func buildParallel(c *compiler, e *jmx.Element, levels []level, depth int) *samplerNode {
	own := c.frame(e.Children, depth+1)
	sc := c.resolveScope(append(levels[:len(levels):len(levels)], level{elems: own}))
	p := &parallelSampler{name: c.Template(e, "name", e.Name), parent: e.Bool("PARENT_SAMPLE", false)}
	if e.Bool("LIMIT_MAX_THREAD_NUMBER", false) {
		p.limit = max(jmx.Int(e.StrOr("MAX_THREAD_NUMBER", "6"), 6), 1)
	}
	d := &ctlDef{class: e.Class, name: p.name, path: e.Path(), index: len(c.fl.ctls), idxSlot: -1, make: newSimple}
	c.fl.ctls = append(c.fl.ctls, d)
	c.children(d, e.Children, nil, levels, depth+1)
	p.kids, p.def = d.kids, d
	return &samplerNode{name: p.name, sc: sc, threadSample: p.Sample}
}

// parallelRun is one virtual user's branches of one Parallel Controller.
type parallelRun struct {
	branches []*branch
	snap     *Vars
}

// branch is one child of a Parallel Controller, run by a virtual user of
// its own.
type branch struct {
	th      *thread
	h       ctlHooks     // the child controller, or
	s       *samplerNode // the child sampler
	out     []captured
	restart bool
}

// branchesOf returns th's branches of p, made on first use.
func (p *parallelSampler) branchesOf(th *thread) *parallelRun {
	if pr := th.branches[p]; pr != nil {
		return pr
	}
	vu := th.vu
	pr := &parallelRun{snap: element.NewVars(vu.Plan.Symbols())}
	pname := p.name.Eval(vu)
	for _, k := range p.kids {
		b := &branch{th: newThread(vu.Fork(), nil, len(th.ctls))}
		var kname string
		if k.c != nil {
			b.h = b.th.instantiate(k.c)
			kname = k.c.name.Eval(vu)
		} else {
			b.s = k.s
			kname = k.s.name.Eval(vu)
		}
		b.th.vu.Name = vu.Name + " - " + pname + " - " + kname
		pr.branches = append(pr.branches, b)
	}
	if th.branches == nil {
		th.branches = map[*parallelSampler]*parallelRun{}
	}
	th.branches[p] = pr
	return pr
}

func (p *parallelSampler) Sample(th *thread, r *Result) {
	vu := th.vu
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
		vu.Vars.MergeChanges(pr.snap, b.th.vu.Vars)
		restart = restart || b.restart
	}
	if restart {
		r.Next = NextThreadLoop
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
				for _, t := range c.sc.txs {
					if tc, ok := th.ctls[t.index].(*txCtl); ok {
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
	bv := b.th.vu
	bv.Branch()
	b.th.action = Continue
	b.out = b.out[:0]
	b.restart = false
	b.th.capture = &b.out
	if b.h != nil {
		b.h.initialize(bv)
	}
}

// runBranch runs one branch once: a sampler, or one pass of a controller.
func (p *parallelSampler) runBranch(b *branch) {
	bt := b.th
	bv := bt.vu
	defer bt.releaseLocks()
	onError := bv.Group.OnError
	if b.s != nil {
		bt.processSampler(b.s, nil)
		b.restart = bt.action == NextThreadLoop || onError == NextThreadLoop && !bv.LastSampleOK()
		return
	}
	for bv.Running() {
		sam := b.h.next(bv)
		if sam == nil {
			return
		}
		bt.processSampler(sam, nil)
		onErrorNext := onError == NextThreadLoop && !bv.LastSampleOK()
		if bt.action == Continue && !onErrorNext {
			continue
		}
		act := bt.action
		bt.action = Continue
		bv.SetLastOK(true)
		if onErrorNext {
			act = NextThreadLoop
		}
		if act == NextThreadLoop {
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
func (p *parallelSampler) endLoops(bt *thread, sam samplerItem, kind Next) bool {
	bv := bt.vu
	real := sam
	for {
		t, ok := real.(*txSampler)
		if !ok {
			break
		}
		real = t.sub
	}
	n, _ := real.(*samplerNode)
	goOn := false
	if n != nil {
		for _, d := range n.path {
			if d == p.def {
				break
			}
			h := bt.ctls[d.index]
			if it, loop := h.(iterating); loop && kind != NextThreadLoop {
				if kind == BreakLoop {
					it.breakLoop(bv)
				} else {
					it.startNextLoop(bv)
				}
				goOn = true
				break
			}
			h.triggerEndOfLoop(bv)
		}
	}
	if ts, ok := sam.(*txSampler); ok {
		bt.endTransaction(ts, nil)
	}
	return goOn
}
