package engine

import (
	"errors"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// scope is everything that applies to one sampler, resolved by JMeter's
// rules (its TestCompiler) when the plan is compiled. The levels of the
// tree are the sampler's own children, its parent's children, and so on up
// to the thread group's children followed by the plan's.
type scope struct {
	// configs are the config elements in scope, nearest first: a sampler
	// takes a field from the first one that sets it.
	configs []*jmx.Element
	// timers are nearest first; their delays are summed before the sample.
	timers []Timer
	// pre-processors, post-processors and assertions run outer level
	// first, in tree order within a level.
	pres       []PreProcessor
	posts      []PostProcessor
	assertions []Assertion
	// outputs routes samples: bit i is the plan's listener i, bit 63 the
	// run's own outputs (the -l results file, the summary), which JMeter
	// places at plan level. This is every output in scope, what a
	// non-parent Transaction Controller's sample reaches when this sampler
	// ran last.
	outputs uint64
	// ownOutputs are the outputs this sampler's own samples reach: those
	// in scope less those of an enclosing parent-mode Transaction
	// Controller, which get the transaction's sample instead.
	ownOutputs uint64
	// listeners are the elements the samples reach once the assertions are
	// done (Result Status Action Handlers, script listeners), in JMeter's
	// order: the nearest level first, tree order within a level. Those of
	// an enclosing parent-mode Transaction Controller get the
	// transaction's sample instead.
	listeners []SampleListener
	// txs are the non-parent Transaction Controllers the samples reach.
	txs []*ctlDef
}

// mainListener is the bit of Sample.Listeners for the run's own outputs.
const mainListener = uint64(1) << 63

// samplerNode is a compiled sampler with its scope.
type samplerNode struct {
	name    *Template
	sc      *scope
	sampler Sampler
	// threadSample is set instead of sample on a sampler that runs
	// controllers of the thread (a Parallel Controller's branches).
	threadSample func(th *thread, r *Result)
	// path are the controllers above the sampler, nearest first, ending
	// with the thread group's main loop.
	path []*ctlDef
}

// sampler compiles a sampler and resolves its scope: the levels above it,
// outermost first, then its own children.
func (c *compiler) sampler(e *jmx.Element, d elementDef, levels []level, depth int) *samplerNode {
	if d.branches != nil {
		return d.branches(c, e, levels, depth)
	}
	own := c.frame(e.Children, depth+1)
	for _, k := range e.Children {
		kd, ok := c.lookup(k)
		switch {
		case !ok:
			c.refuse(k, depth+1)
		case kd.kind == kController || kd.kind == kSampler || kd.kind == kThreadGroup:
			c.Fail(k, errors.New("a controller or sampler cannot stand under a sampler"))
		}
	}
	all := append(levels[:len(levels):len(levels)], level{elems: own})
	sc := c.resolveScope(all)
	fn, err := d.sampler(c, e, element.InScope{Configs: sc.configs, Read: len(sc.posts)+len(sc.assertions) > 0})
	if err != nil {
		c.Fail(e, err)
		return nil
	}
	return &samplerNode{name: c.Template(e, "name", e.Name), sc: sc, sampler: fn}
}

func (c *compiler) resolveScope(levels []level) *scope {
	sc := &scope{outputs: mainListener}
	for _, lv := range levels {
		for _, e := range lv.elems {
			switch v := c.built[e].(type) {
			case PreProcessor:
				sc.pres = append(sc.pres, v)
			case PostProcessor:
				sc.posts = append(sc.posts, v)
			case Assertion:
				sc.assertions = append(sc.assertions, v)
			}
		}
	}
	for i := len(levels) - 1; i >= 0; i-- {
		for _, e := range levels[i].elems {
			switch v := c.built[e].(type) {
			case Timer:
				sc.timers = append(sc.timers, v)
			case SampleListener:
				sc.listeners = append(sc.listeners, v)
			}
			if d, _ := c.lookup(e); d.kind == kConfig {
				sc.configs = append(sc.configs, e)
			}
			if n, ok := c.listener[e]; ok {
				sc.outputs |= 1 << uint(n)
			}
		}
		for _, t := range levels[i].tcs {
			if !t.tx.parent {
				sc.txs = append(sc.txs, t)
			}
		}
	}
	sc.ownOutputs = sc.outputs
	if p := c.fl.parentTx; p != nil {
		pack := p.tx.pack
		sc.ownOutputs &^= pack.outputs
		sc.listeners = without(sc.listeners, pack.listeners)
		sc.txs = without(sc.txs, pack.txs)
	}
	return sc
}

// without returns the elements of xs that are not in ys.
func without[T comparable](xs, ys []T) []T {
	var out []T
	for _, x := range xs {
		found := false
		for _, y := range ys {
			if x == y {
				found = true
				break
			}
		}
		if !found {
			out = append(out, x)
		}
	}
	return out
}
