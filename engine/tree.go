package engine

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/group"
	"github.com/gojm/gojm/engine/internal/thread"
	"github.com/gojm/gojm/jmx"
)

// level is one level of the tree above a sampler, as JMeter's TestCompiler
// sees it: the scoped elements among the siblings there, and the
// Transaction Controllers among them (a Transaction Controller listens to
// the samples of everything at and below its own level).
type level struct {
	elems frame
	tcs   []*thread.ControllerDef
}

// flowCompiler is the compiler's state for controllers.
type flowCompiler struct {
	ctls     []*thread.ControllerDef // the current thread group's controllers, by index
	parentTx *thread.ControllerDef   // nearest enclosing parent-mode Transaction Controller
	modules  []*jmx.Element          // Module Controllers being expanded, outermost first
	stack    []*thread.ControllerDef // the controllers being compiled, outermost first
	seen     map[*jmx.Element]bool   // scoped elements compiled already
	recorded map[*jmx.Element]bool   // elements listed in Plan.Elements already
}

// indexSlot is the slot of the loop index variable of a controller with
// this name, or -1 when the name is known only at run time.
func (c *compiler) indexSlot(name *element.Template) int {
	if !name.Const() {
		return -1
	}
	return c.compiled.Var("__jm__" + name.Raw() + "__idx")
}

// newCtlDef makes the shell of a controller: the builder fills in how it runs.
func (c *compiler) newCtlDef(e *jmx.Element, kd elementDef) *thread.ControllerDef {
	d := &thread.ControllerDef{Class: e.Class, Name: c.Template(e, "name", e.Name), Path: e.Path(), Index: len(c.fl.ctls)}
	d.IdxSlot = c.indexSlot(d.Name)
	c.fl.ctls = append(c.fl.ctls, d)
	if kd.transaction {
		d.Tx = &thread.TxDef{
			Parent:        e.Bool("TransactionController.parent", false),
			IncludeTimers: e.Bool("TransactionController.includeTimers", true),
		}
	}
	return d
}

// children compiles the children of a controller into d: samplers and
// controllers in order, each with the levels above it; extra are scoped
// elements that JMeter places after the children (the plan's own, in a
// thread group's tree).
func (c *compiler) children(d *thread.ControllerDef, kids []*jmx.Element, extra frame, levels []level, depth int) {
	c.fl.stack = append(c.fl.stack, d)
	defer func() { c.fl.stack = c.fl.stack[:len(c.fl.stack)-1] }()
	f := c.frame(kids, depth)
	f = append(f, extra...)
	lv := level{elems: f}
	shells := make([]*thread.ControllerDef, len(kids))
	for i, e := range kids {
		if kd, ok := c.lookup(e); ok && kd.kind == kController && e.Problem == nil {
			shells[i] = c.newCtlDef(e, kd)
			if shells[i].Tx != nil {
				lv.tcs = append(lv.tcs, shells[i])
			}
		}
	}
	levels = append(levels[:len(levels):len(levels)], lv)
	if d.Tx != nil {
		d.Tx.Pack = c.txPack(levels)
	}
	for i, e := range kids {
		kd, ok := c.lookup(e)
		if !ok {
			c.refuse(e, depth)
			continue
		}
		if e.Problem != nil {
			c.recordAt(e, depth, Refused, e.Problem.Error())
			c.Fail(e, e.Problem)
			continue
		}
		if e.Warning != nil {
			c.Warn(e, e.Warning.Error())
		}
		switch kd.kind {
		case kController:
			c.recordAt(e, depth, Runs, "")
			cd := shells[i]
			c.controller(e, kd, cd, levels, depth)
			d.Listens = append(d.Listens, thread.Listen{Kid: len(d.Kids)})
			d.Kids = append(d.Kids, thread.Child{Controller: cd})
		case kSampler:
			c.recordAt(e, depth, Runs, "")
			if n := c.sampler(e, kd, levels, depth); n != nil {
				for i := len(c.fl.stack) - 1; i >= 0; i-- {
					n.Path = append(n.Path, c.fl.stack[i])
				}
				d.Kids = append(d.Kids, thread.Child{Sampler: n})
			}
			for _, k := range e.Children {
				c.listenTo(d, k)
			}
		case kThreadGroup, kTestPlan:
			c.Fail(e, errors.New("a thread group or test plan cannot stand here"))
		default:
			c.listenTo(d, e)
		}
	}
	for _, e := range extra {
		c.listenTo(d, e)
	}
}

// Iteration listeners: JMeter's LoopIterationListener. A CSV Data Set,
// Counter, Random Variable or per-iteration User Parameters element
// registers with the nearest controller above it (for one standing under a
// sampler, the sampler's controller; for one at plan level, each thread
// group), and that controller tells it each time it starts an iteration,
// before it runs any child. The elements are compiled once into c.built,
// where listenTo finds them.

// listenTo registers e with d when it listens for iterations (a CSV Data
// Set, a Counter…).
func (c *compiler) listenTo(d *thread.ControllerDef, e *jmx.Element) {
	if l, ok := c.built[e].(element.IterationListener); ok {
		d.Listens = append(d.Listens, thread.Listen{Element: l})
	}
}

// controller compiles one controller and what is below it.
func (c *compiler) controller(e *jmx.Element, kd elementDef, d *thread.ControllerDef, levels []level, depth int) {
	kids := e.Children
	if kd.expand != nil {
		var done func()
		var err error
		if kids, done, err = kd.expand(c, e, depth); err != nil {
			c.Fail(e, err)
			return
		}
		if done != nil {
			defer done()
		}
	}
	if d.Tx != nil && d.Tx.Parent {
		prev := c.fl.parentTx
		c.fl.parentTx = d
		defer func() { c.fl.parentTx = prev }()
	}
	c.children(d, kids, nil, levels, depth+1)
	if kd.ctl != nil {
		if err := kd.ctl(c, e, d); err != nil {
			c.Fail(e, err)
		}
	}
	if d.Make == nil {
		d.Make = thread.NewSimple
	}
}

// moduleChildren is what a Module Controller runs: its target, compiled in
// its place (and listed, when disabled); a Module Controller inside it
// cannot run it again.
func moduleChildren(c *compiler, e *jmx.Element, depth int) ([]*jmx.Element, func(), error) {
	target, err := c.moduleTarget(e)
	if err != nil {
		return nil, nil, err
	}
	c.fl.modules = append(c.fl.modules, e)
	c.recordTarget(target, depth+1)
	return []*jmx.Element{target}, func() { c.fl.modules = c.fl.modules[:len(c.fl.modules)-1] }, nil
}

// moduleTarget finds the controller a Module Controller runs, as JMeter
// does: ModuleController.node_path names the elements from the tree's root
// (whose own name is not compared) down to the target; Module Controllers
// are passed over; with two matches the last one wins. The target may be
// disabled (a library of modules kept out of the run). A Module Controller
// without a target is refused, as JMeter 5.6 refuses it in non-GUI mode:
// ModuleController.resolveReplacementSubTree throws JMeterStopTestException
// ("has no selected Controller") before the test starts.
func (c *compiler) moduleTarget(e *jmx.Element) (*jmx.Element, error) {
	var path []string
	for _, m := range e.Prop("ModuleController.node_path").Members() {
		path = append(path, m.Value)
	}
	if len(path) < 2 {
		return nil, errors.New("the Module Controller has no target controller (ModuleController.node_path is empty)" + noModuleTarget)
	}
	root := e
	for root.Parent != nil {
		root = root.Parent
	}
	var found *jmx.Element
	var walk func(x *jmx.Element, lvl int)
	walk = func(x *jmx.Element, lvl int) {
		if lvl >= len(path) {
			return
		}
		for _, k := range x.All {
			if k.Class == "ModuleController" || k.Name != path[lvl] {
				continue
			}
			if lvl == len(path)-1 {
				found = k
			}
			walk(k, lvl+1)
		}
	}
	walk(root, 1)
	if found == nil {
		return nil, fmt.Errorf("the Module Controller's target %q is not in the plan (was an element on the way renamed?)"+noModuleTarget, strings.Join(path[1:], " › "))
	}
	if kd, ok := c.lookup(found); !ok || kd.kind != kController {
		return nil, fmt.Errorf("the Module Controller's target %s is a %s, not a controller", found.Path(), found.Class)
	}
	for _, m := range c.fl.modules {
		if m == e || isAncestor(found, m) {
			return nil, fmt.Errorf("the Module Controller runs %s, which contains the Module Controller itself: it would recurse forever", found.Path())
		}
	}
	if isAncestor(found, e) {
		return nil, fmt.Errorf("the Module Controller runs %s, which contains the Module Controller itself: it would recurse forever", found.Path())
	}
	return found, nil
}

// noModuleTarget says what JMeter does with a Module Controller without a
// target, and what to do.
const noModuleTarget = "; JMeter 5.6 refuses the plan too (\"has no selected Controller\", the test is shut down before it starts): choose the target in JMeter and save the plan again, or remove the Module Controller"

// isAncestor reports whether a is x or stands above it.
func isAncestor(a, x *jmx.Element) bool {
	for ; x != nil; x = x.Parent {
		if x == a {
			return true
		}
	}
	return false
}

// recordTarget lists a disabled module target, which the walk of the
// enabled tree did not see.
func (c *compiler) recordTarget(t *jmx.Element, depth int) {
	if t.Disabled {
		c.recordAt(t, depth, Runs, "disabled, run by a Module Controller")
	}
}

// includedChildren is what an Include Controller runs: the children of
// the first Test Fragment of the included plan (JMeter runs nothing of an
// included plan without one); elements of the including plan under the
// controller come first.
func includedChildren(_ *compiler, e *jmx.Element, _ int) ([]*jmx.Element, func(), error) {
	return includedKids(e), nil, nil
}

func includedKids(e *jmx.Element) []*jmx.Element {
	var own, inc []*jmx.Element
	for _, k := range e.Children {
		if k.File == e.File {
			own = append(own, k)
		} else {
			inc = append(inc, k)
		}
	}
	for _, k := range inc {
		if k.Class == "TestFragmentController" {
			return append(own, k.Children...)
		}
	}
	return own
}

// hasListener reports whether e is a listener that runs (a results file,
// a chart, a Result Status Action Handler).
func (c *compiler) hasListener(e *jmx.Element) bool {
	_, ok := c.listener[e]
	_, action := c.built[e].(element.SampleListener)
	return ok || action
}

// txPack resolves what applies to a parent-mode Transaction Controller's
// own sample: assertions and listeners at every level from its own
// children up, nearest level first.
func (c *compiler) txPack(levels []level) *thread.Scope {
	sc := &thread.Scope{Outputs: mainListener}
	for i := len(levels) - 1; i >= 0; i-- {
		for _, e := range levels[i].elems {
			switch v := c.built[e].(type) {
			case element.Assertion:
				sc.Assertions = append(sc.Assertions, v)
			case element.SampleListener:
				sc.Listeners = append(sc.Listeners, v)
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
	return sc
}

// threadGroup compiles a thread group: its main loop over its children,
// with the plan's scoped elements after them, and what its users keep.
func (c *compiler) threadGroup(e *jmx.Element, planFrame frame) {
	c.recordAt(e, 1, Runs, "")
	g := &group.Group{
		Name:         e.Name,
		Path:         e.Path(),
		File:         e.File,
		Phase:        group.Main,
		Threads:      c.Prop(e, "ThreadGroup.num_threads"),
		Ramp:         c.Prop(e, "ThreadGroup.ramp_time"),
		Duration:     c.Prop(e, "ThreadGroup.duration"),
		Delay:        c.Prop(e, "ThreadGroup.delay"),
		Scheduler:    e.Bool("ThreadGroup.scheduler", false),
		DelayedStart: e.Bool("ThreadGroup.delayedStart", false),
		SameUser:     e.Bool("ThreadGroup.same_user_on_next_iteration", true),
		OnError:      element.ParseOnError(e.StrOr("ThreadGroup.on_sample_error", "continue")),
	}
	d, _ := c.lookup(e)
	g.Phase = d.phase
	mc := e.Prop("ThreadGroup.main_controller")
	if mc == nil {
		c.Fail(e, errors.New("no main controller (ThreadGroup.main_controller)"))
		return
	}
	c.fl.ctls = nil
	c.fl.parentTx = nil
	// The main loop: JMeter copies the group's name into it, so its index
	// variable is __jm__<group name>__idx.
	loops := c.Template(e, "LoopController.loops", mc.Str("LoopController.loops"))
	forever := mc.Bool("LoopController.continue_forever", true)
	main := &thread.ControllerDef{Class: "LoopController", Name: c.Template(e, "name", e.Name), Path: e.Path(), Index: 0}
	main.IdxSlot = c.indexSlot(main.Name)
	main.Make = thread.NewLoop(loops, forever)
	g.Loops, g.Forever = loops, forever
	c.fl.ctls = append(c.fl.ctls, main)
	c.children(main, e.Children, planFrame, nil, 2)
	g.MainLoop, g.Ctls = main, len(c.fl.ctls)
	c.fl.ctls = nil
	// What the users keep (a Cookie Manager's jar) is decided by the
	// configs at plan level and anywhere in the group.
	users := func(x *jmx.Element) {
		if xd, ok := c.lookup(x); ok && xd.users != nil {
			xd.users(c, x, g)
		}
	}
	for _, x := range planFrame {
		users(x)
	}
	e.Walk(func(x *jmx.Element) bool { users(x); return true })
	if d.model != nil {
		m, err := d.model(c, e, g)
		if err != nil {
			c.Fail(e, err)
			return
		}
		g.Model = m
	}
	c.compiled.groups = append(c.compiled.groups, g)
	c.countUsers(g)
	c.checkSchedule(e, g)
}
