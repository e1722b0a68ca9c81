package engine

import (
	"errors"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/thread"
	"github.com/gojm/gojm/jmx"
)

// mainListener is the bit of Sample.Listeners for the run's own outputs.
const mainListener = uint64(1) << 63

// sampler compiles a sampler and resolves its scope: the levels above it,
// outermost first, then its own children.
func (c *compiler) sampler(e *jmx.Element, d elementDef, levels []level, depth int) *thread.SamplerDef {
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
	fn, err := d.sampler(c, e, element.InScope{Configs: sc.Configs, Read: len(sc.Posts)+len(sc.Assertions) > 0 || c.readsPrevious})
	if err != nil {
		c.Fail(e, err)
		return nil
	}
	bindModifiers(sc, fn)
	return &thread.SamplerDef{Name: c.Template(e, "name", e.Name), Scope: sc, Sampler: fn}
}

// bindModifiers gives the modifiers in a sampler's scope the sampler they
// change (its Pres are its own).
func bindModifiers(sc *thread.Scope, s element.Sampler) {
	for i, p := range sc.Pres {
		if m, ok := p.(element.Modifier); ok {
			sc.Pres[i] = element.Modifying{M: m, S: s}
		}
	}
}

func (c *compiler) resolveScope(levels []level) *thread.Scope {
	sc := &thread.Scope{Outputs: mainListener}
	for _, lv := range levels {
		for _, e := range lv.elems {
			switch v := c.built[e].(type) {
			case element.PreProcessor:
				sc.Pres = append(sc.Pres, v)
			case element.PostProcessor:
				sc.Posts = append(sc.Posts, v)
			case element.Assertion:
				sc.Assertions = append(sc.Assertions, v)
			}
		}
	}
	for i := len(levels) - 1; i >= 0; i-- {
		for _, e := range levels[i].elems {
			switch v := c.built[e].(type) {
			case element.Timer:
				sc.Timers = append(sc.Timers, v)
			case element.SampleListener:
				sc.Listeners = append(sc.Listeners, v)
			}
			if d, _ := c.lookup(e); d.kind == kConfig {
				sc.Configs = append(sc.Configs, e)
			}
			if n, ok := c.listener[e]; ok {
				sc.Outputs |= 1 << uint(n)
			}
		}
		for _, t := range levels[i].tcs {
			if !t.Tx.Parent {
				sc.Txs = append(sc.Txs, t)
			}
		}
	}
	sc.OwnOutputs = sc.Outputs
	if p := c.fl.parentTx; p != nil {
		pack := p.Tx.Pack
		sc.OwnOutputs &^= pack.Outputs
		sc.Listeners = without(sc.Listeners, pack.Listeners)
		sc.Txs = without(sc.Txs, pack.Txs)
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

// buildParallel compiles a Parallel Controller: its own sample's scope,
// and its children as one level below it, each the root of a branch.
func buildParallel(c *compiler, e *jmx.Element, levels []level, depth int) *thread.SamplerDef {
	own := c.frame(e.Children, depth+1)
	sc := c.resolveScope(append(levels[:len(levels):len(levels)], level{elems: own}))
	limit := 0
	if e.Bool("LIMIT_MAX_THREAD_NUMBER", false) {
		limit = max(jmx.Int(e.StrOr("MAX_THREAD_NUMBER", "6"), 6), 1)
	}
	name := c.Template(e, "name", e.Name)
	d := &thread.ControllerDef{Class: e.Class, Name: name, Path: e.Path(), Index: len(c.fl.ctls), IdxSlot: -1, Make: thread.NewSimple}
	c.fl.ctls = append(c.fl.ctls, d)
	c.children(d, e.Children, nil, levels, depth+1)
	return thread.NewParallel(d, sc, e.Bool("PARENT_SAMPLE", false), limit)
}
