package engine

import (
	"errors"
	"time"

	"github.com/gojm/gojm/jmx"
)

// scope is everything that applies to one sampler, resolved by JMeter's
// rules when the plan is compiled.
type scope struct {
	// configs are the config elements in scope, nearest first: a sampler
	// takes a field from the first one that sets it.
	configs    []*jmx.Element
	timers     []timer
	pres       []preProcessor
	posts      []postProcessor
	assertions []assertion
	listeners  uint64
}

// configsOf returns the configs in scope with the given test class, nearest first.
func (sc *scope) configsOf(class string) []*jmx.Element {
	var out []*jmx.Element
	for _, e := range sc.configs {
		if e.Class == class {
			out = append(out, e)
		}
	}
	return out
}

type timer interface {
	delay(vu *VU) time.Duration
}

type preProcessor interface {
	pre(vu *VU)
}

type postProcessor interface {
	post(vu *VU, r *result)
}

// assertion judges a made sample (and its sub-samples, as scoped): it
// records its verdict on the sample it judged (success, failure message,
// assertion results), as JMeter's JMeterThread.processAssertion does.
type assertion interface {
	assertSample(vu *VU, r *result)
}

// sampleFunc makes one sample: it fills r on every path, failures included.
type sampleFunc func(vu *VU, r *result)

// samplerNode runs a sampler with its scope: pre-processors, timers, the
// sample, post-processors, assertions, then hands the sample over.
type samplerNode struct {
	name   *Template
	sc     *scope
	sample sampleFunc
}

// sampler compiles a sampler and resolves its scope: the frames above it,
// outermost first, then its own children.
func (c *compiler) sampler(e *jmx.Element, d elementDef, frames []frame, depth int) node {
	own := c.frame(e.Children, depth+1)
	for _, k := range e.Children {
		kd, ok := lookup(k)
		switch {
		case !ok:
			c.refuse(k, depth+1)
		case kd.kind == kController || kd.kind == kSampler || kd.kind == kThreadGroup:
			c.fail(k, errors.New("a controller or sampler cannot stand under a sampler"))
		}
	}
	all := append(frames[:len(frames):len(frames)], own)
	sc := c.resolveScope(all)
	fn, err := d.sampler(c, e, sc)
	if err != nil {
		c.fail(e, err)
		return nil
	}
	return &samplerNode{name: c.template(e, "name", e.Name), sc: sc, sample: fn}
}

func (c *compiler) resolveScope(frames []frame) *scope {
	sc := &scope{}
	for _, f := range frames {
		for _, e := range f {
			switch v := c.built[e].(type) {
			case timer:
				sc.timers = append(sc.timers, v)
			case preProcessor:
				sc.pres = append(sc.pres, v)
			case postProcessor:
				sc.posts = append(sc.posts, v)
			case assertion:
				sc.assertions = append(sc.assertions, v)
			}
			if i, ok := c.listener[e]; ok {
				sc.listeners |= 1 << uint(i)
			}
		}
	}
	for i := len(frames) - 1; i >= 0; i-- {
		for _, e := range frames[i] {
			if d, _ := lookup(e); d.kind == kConfig {
				sc.configs = append(sc.configs, e)
			}
		}
	}
	return sc
}

func (n *samplerNode) run(vu *VU) flow {
	if vu.stopping() {
		return flowStopThread
	}
	name := n.name.Eval(vu)
	vu.SamplerName = name
	for _, p := range n.sc.pres {
		p.pre(vu)
	}
	var wait time.Duration
	for _, t := range n.sc.timers {
		wait += t.delay(vu)
	}
	if wait > 0 && !vu.sleep(wait) {
		return flowStopThread
	}
	if vu.stopping() {
		return flowStopThread
	}
	r := &vu.res
	r.reset()
	r.Label = name
	r.ThreadName = vu.Name
	n.sample(vu, r)
	return vu.finish(r, n.sc)
}

// finish runs post-processors and assertions on a made sample, hands it to
// the collector and returns what the thread group's error action says.
func (vu *VU) finish(r *result, sc *scope) flow {
	for _, p := range sc.posts {
		p.post(vu, r)
	}
	for _, a := range sc.assertions {
		a.assertSample(vu, r)
	}
	vu.prevOK = r.Success
	if r.Success {
		vu.Vars.putSlot(vu.plan.lastOKSlot, "true")
	} else {
		vu.Vars.putSlot(vu.plan.lastOKSlot, "false")
	}
	r.Listeners = sc.listeners
	r.GrpThreads = int(vu.group.active.Load())
	r.AllThreads = int(vu.plan.active.Load())
	vu.batch.Add(&r.Sample)
	if !r.Success {
		return vu.group.onError.flow()
	}
	return flowNext
}

func (r *result) reset() {
	*r = result{body: r.body[:0], header: nil}
}
