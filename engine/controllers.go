package engine

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/gojm/gojm/engine/internal/config"
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// Logic controllers run as JMeter runs them: each virtual user owns an
// instance of every controller of its thread group, and the thread asks the
// group's main loop for its next sampler, which asks its current child, and
// so on down (JMeter's Controller.next). A controller's pass ends when its
// next returns nil. Every quirk JMeter users see follows from this one
// algorithm, so it is followed closely: a child controller that reports
// itself done is removed from its parent for the rest of the thread's life
// (a finished Loop without "loop forever", a spent Throughput Controller);
// elements that listen for iterations (Loop, While, ForEach, Once Only,
// Throughput, a CSV Data Set, a Counter) are told when the controller they
// stand in starts a pass, the last one in the tree first; break, continue
// and "start next thread loop" end the passes of the controllers between
// the sampler and the thread group.

// samplerItem is what a controller's next hands to the thread: a sampler
// (*samplerNode), or a parent-mode Transaction Controller's transaction
// (*txSampler), which wraps the sampler to run.
type samplerItem interface{ samplerItem() }

func (*samplerNode) samplerItem() {}

// ctlDef is a compiled controller, shared by every virtual user.
type ctlDef struct {
	class string
	name  *Template
	path  string
	index int // the instance of this controller is vu.ctls[index]
	kids  []ctlChild
	// listens are the iteration listeners standing directly in this
	// controller (and under its samplers), in document order: child
	// controllers by position in kids, other elements by value.
	listens []listenEntry
	// make builds one virtual user's instance (set by the builder).
	make func(th *thread) ctlHooks
	// tx is set on Transaction Controllers.
	tx *txDef
	// idxSlot is the variable __jm__<name>__idx when the name has no
	// ${…}; -1 otherwise.
	idxSlot int
}

// ctlChild is a sampler or a controller under a controller.
type ctlChild struct {
	s *samplerNode
	c *ctlDef
}

// listenEntry is one iteration listener of a controller: the child
// controller kids[kid] when el is nil, else an element.
type listenEntry struct {
	kid int
	el  IterationListener
}

// item is a child of a controller instance.
type item struct {
	s *samplerNode
	c ctlHooks
}

// ctlHooks is a controller instance: JMeter's Controller plus the methods
// its GenericController lets subclasses replace. gen holds the defaults;
// each controller type embeds gen and replaces what JMeter's replaces.
type ctlHooks interface {
	base() *gen
	next(vu *VU) samplerItem
	isDone(vu *VU) bool
	initialize(vu *VU)
	triggerEndOfLoop(vu *VU)
	nextIsNull(vu *VU) samplerItem
	nextIsAController(vu *VU, c ctlHooks) samplerItem
	nextIsASampler(vu *VU, s *samplerNode) samplerItem
	currentReturnedNull(vu *VU, c ctlHooks)
	// setCurrentElement returns false to end the pass (JMeter throws
	// NextIsNullException).
	setCurrentElement(vu *VU, it item) bool
	incrementCurrent(vu *VU)
	resetCurrent(vu *VU)
	reInitialize(vu *VU)
	setDone(b bool)
	iterCount() int
}

// iterating controllers can continue and break (JMeter's IteratingController).
type iterating interface {
	startNextLoop(vu *VU)
	breakLoop(vu *VU)
}

// loopListener is a controller instance told when its parent starts a pass.
type loopListener interface {
	IterationStart(vu *VU, source ctlHooks, iteration int)
}

// elemListener adapts an element's iteration listener to a controller's list.
type elemListener struct{ l IterationListener }

func (e elemListener) IterationStart(vu *VU, _ ctlHooks, _ int) { e.l.IterationStart(vu) }

// maxControllerDepth bounds the recursion of next through controllers that
// yield no sampler (a While whose only child is an If that is false):
// JMeter dies of a StackOverflowError there and ends the thread; so does gojm.
const maxControllerDepth = 20000

// gen is JMeter's GenericController: run the children in order, once per pass.
type gen struct {
	self      ctlHooks
	def       *ctlDef
	th        *thread // the thread the instance belongs to
	kids      []item
	current   int
	count     int // JMeter's iterCount
	done      bool
	first     bool
	listeners []loopListener // told in this order: the last registered first
	idx       int            // the loop index last exported, and as text
	idxText   string
}

func (g *gen) base() *gen { return g }

func (g *gen) next(vu *VU) samplerItem {
	g.th.depth++
	defer func() { g.th.depth-- }()
	if g.th.depth > maxControllerDepth {
		if !vu.Stopped() {
			vu.Log.Error("controllers loop without reaching a sampler: the thread stops (JMeter ends it with a StackOverflowError)", "thread", vu.Name, "controller", g.def.path)
		}
		vu.StopThread()
		return nil
	}
	g.fireIterEvents(vu)
	if vu.Stopped() || g.self.isDone(vu) {
		return nil
	}
	var it item
	if g.current < len(g.kids) {
		it = g.kids[g.current]
	} else if len(g.kids) == 0 {
		g.self.setDone(true)
		return nil
	}
	if !g.self.setCurrentElement(vu, it) {
		return nil
	}
	switch {
	case it.s != nil:
		return g.self.nextIsASampler(vu, it.s)
	case it.c != nil:
		return g.self.nextIsAController(vu, it.c)
	}
	return g.self.nextIsNull(vu)
}

func (g *gen) isDone(*VU) bool      { return g.done }
func (g *gen) setDone(b bool)       { g.done = b }
func (g *gen) iterCount() int       { return g.count }
func (g *gen) incrementCurrent(*VU) { g.current++ }
func (g *gen) resetCurrent(*VU)     { g.current = 0 }

func (g *gen) initialize(vu *VU) {
	g.self.resetCurrent(vu)
	g.count = 0
	g.done = false
	g.first = true
	g.initializeSubControllers(vu)
}

func (g *gen) initializeSubControllers(vu *VU) {
	for _, k := range g.kids {
		if k.c != nil {
			k.c.initialize(vu)
		}
	}
}

func (g *gen) reInitialize(vu *VU) {
	g.self.resetCurrent(vu)
	g.count++
	g.first = true
}

func (g *gen) nextIsAController(vu *VU, c ctlHooks) samplerItem {
	s := c.next(vu)
	if s == nil {
		g.self.currentReturnedNull(vu, c)
		s = g.self.next(vu)
	}
	return s
}

func (g *gen) nextIsASampler(vu *VU, s *samplerNode) samplerItem {
	g.self.incrementCurrent(vu)
	return s
}

func (g *gen) nextIsNull(vu *VU) samplerItem {
	g.self.reInitialize(vu)
	return nil
}

func (g *gen) triggerEndOfLoop(vu *VU) { g.self.reInitialize(vu) }

func (g *gen) currentReturnedNull(vu *VU, c ctlHooks) {
	if c.isDone(vu) {
		g.removeCurrent()
	} else {
		g.self.incrementCurrent(vu)
	}
}

func (g *gen) removeCurrent() {
	if g.current < len(g.kids) {
		g.kids = append(g.kids[:g.current], g.kids[g.current+1:]...)
	}
}

func (g *gen) setCurrentElement(*VU, item) bool { return true }

// fireIterEvents tells the listeners a pass starts, on its first next.
func (g *gen) fireIterEvents(vu *VU) {
	if g.first {
		n := g.self.iterCount()
		for _, l := range g.listeners {
			l.IterationStart(vu, g.self, n)
		}
		g.first = false
	}
}

// addIterationListener puts l first, as JMeter's addFirst does.
func (g *gen) addIterationListener(l loopListener) {
	g.listeners = append(g.listeners, nil)
	copy(g.listeners[1:], g.listeners)
	g.listeners[0] = l
}

// updateIndex sets __jm__<name>__idx, the loop index JMeter exports.
func (g *gen) updateIndex(vu *VU, n int) {
	if g.idxText == "" || g.idx != n {
		g.idx, g.idxText = n, strconv.Itoa(n)
	}
	if g.def.idxSlot >= 0 {
		vu.Vars.PutSlot(g.def.idxSlot, g.idxText)
		return
	}
	vu.Vars.Put("__jm__"+g.def.name.Eval(vu)+"__idx", g.idxText)
}

// Simple Controller, Recording Controller, Test Fragment, Include and
// Module Controllers: JMeter's GenericController as it is.
type simpleCtl struct{ gen }

func buildSimple(element.Builder, *jmx.Element, *ctlDef) error { return nil }

func newSimple(*thread) ctlHooks { return &simpleCtl{} }

// loopCtl is JMeter's Loop Controller, and every thread group's main loop.
// "Loop forever" (continue_forever) on a nested loop means: start counting
// again each time the parent comes back to it; without it the loop is done
// after its count and its parent drops it for the rest of the thread's life.
type loopCtl struct {
	gen
	loops     *Template
	forever   bool
	loopCount int
	nbLoops   int
	nbSet     bool
	brk       bool
}

func buildLoop(c element.Builder, e *jmx.Element, d *ctlDef) error {
	loops := c.Prop(e, "LoopController.loops")
	forever := e.Bool("LoopController.continue_forever", true)
	d.make = func(*thread) ctlHooks { return &loopCtl{loops: loops, forever: forever} }
	return nil
}

func (l *loopCtl) getLoops(vu *VU) int {
	if !l.nbSet || l.nbLoops == 0 || l.nbLoops == -1 {
		txt := l.loops.Eval(vu)
		n, err := strconv.Atoi(txt)
		if err != nil {
			if strings.TrimSpace(txt) != "" {
				vu.Warnf("%s: loop count %q is not a number: the loop runs 0 times", l.def.path, txt)
			}
			n = 0
		}
		l.nbLoops, l.nbSet = n, true
	}
	return l.nbLoops
}

func (l *loopCtl) endOfLoop(vu *VU) bool {
	n := l.getLoops(vu)
	return l.brk || n > -1 && l.loopCount >= n
}

func (l *loopCtl) next(vu *VU) samplerItem {
	l.updateIndex(vu, l.loopCount)
	var s samplerItem
	if l.endOfLoop(vu) {
		if !l.forever {
			l.self.setDone(true)
		}
		l.brk = false
	} else {
		s = l.gen.next(vu)
	}
	l.updateIndex(vu, l.loopCount)
	return s
}

func (l *loopCtl) setDone(b bool) {
	l.brk = false
	l.nbSet = false
	l.done = b
}

func (l *loopCtl) nextIsNull(vu *VU) samplerItem {
	l.self.reInitialize(vu)
	if l.endOfLoop(vu) {
		if !l.forever {
			l.self.setDone(true)
		} else {
			l.resetLoopCount()
		}
		return nil
	}
	return l.self.next(vu)
}

func (l *loopCtl) triggerEndOfLoop(vu *VU) {
	l.gen.triggerEndOfLoop(vu)
	l.resetLoopCount()
}

func (l *loopCtl) resetLoopCount() {
	l.loopCount = 0
	l.nbSet = false
}

func (l *loopCtl) iterCount() int { return l.loopCount + 1 }

func (l *loopCtl) reInitialize(vu *VU) {
	l.first = true
	l.self.resetCurrent(vu)
	l.loopCount++
}

func (l *loopCtl) startNextLoop(vu *VU) { l.self.reInitialize(vu) }

func (l *loopCtl) breakLoop(vu *VU) {
	l.brk = true
	l.first = true
	l.self.resetCurrent(vu)
	l.resetLoopCount()
}

func (l *loopCtl) IterationStart(vu *VU, _ ctlHooks, _ int) {
	l.self.reInitialize(vu)
	l.resetLoopCount()
}

// whileCtl is JMeter's While Controller. The condition is text, not an
// expression: the loop ends when it is "false" (any case); blank ends it
// when the last sample failed (checked at the end of each pass only), and
// LAST when the last sample failed (checked before the first pass too). The
// condition is evaluated again at each check, functions and all.
type whileCtl struct {
	gen
	cond *Template
	brk  bool
}

func buildWhile(c element.Builder, e *jmx.Element, d *ctlDef) error {
	cond := c.Prop(e, "WhileController.condition")
	d.make = func(*thread) ctlHooks { return &whileCtl{cond: cond} }
	return nil
}

func (w *whileCtl) endOfLoop(vu *VU, loopEnd bool) bool {
	if w.brk {
		return true
	}
	cnd := strings.TrimSpace(w.cond.Eval(vu))
	if loopEnd && cnd == "" || strings.EqualFold(cnd, "LAST") {
		return vu.LastSampleFailed()
	}
	return strings.EqualFold(cnd, "false")
}

func (w *whileCtl) nextIsNull(vu *VU) samplerItem {
	w.self.reInitialize(vu)
	if w.endOfLoop(vu, true) {
		w.brk = false
		w.count = 0
		return nil
	}
	return w.self.next(vu)
}

func (w *whileCtl) triggerEndOfLoop(vu *VU) {
	w.gen.triggerEndOfLoop(vu)
	w.endOfLoop(vu, true) // evaluated for its side effects, as JMeter does
	w.count = 0
}

func (w *whileCtl) next(vu *VU) samplerItem {
	w.updateIndex(vu, w.count)
	var s samplerItem
	if w.first && w.endOfLoop(vu, false) {
		w.brk = false
		w.count = 0
	} else {
		s = w.gen.next(vu)
	}
	w.updateIndex(vu, w.count)
	return s
}

func (w *whileCtl) startNextLoop(vu *VU) { w.self.reInitialize(vu) }

func (w *whileCtl) breakLoop(vu *VU) {
	w.brk = true
	w.first = true
	w.self.resetCurrent(vu)
	w.count = 0
}

func (w *whileCtl) IterationStart(vu *VU, _ ctlHooks, _ int) {
	w.self.reInitialize(vu)
	w.count = 0
}

// onceCtl is JMeter's Once Only Controller: it runs its children on the
// first pass of its parent (the first iteration of a parent Loop
// Controller, which includes every thread group), never after.
type onceCtl struct{ gen }

func buildOnce(_ element.Builder, _ *jmx.Element, d *ctlDef) error {
	d.make = func(*thread) ctlHooks { return &onceCtl{} }
	return nil
}

func (o *onceCtl) IterationStart(vu *VU, source ctlHooks, iteration int) {
	want := 0
	if _, ok := source.(*loopCtl); ok {
		want = 1
	}
	if iteration == want {
		o.self.reInitialize(vu)
	}
}

func (o *onceCtl) nextIsNull(*VU) samplerItem { return nil }

// switchCtl is JMeter's Switch Controller: it runs the child the switch
// value names, by index (0 when out of range) or by name ("default" when no
// name matches, nothing when there is no default).
type switchCtl struct {
	gen
	value *Template
}

func buildSwitch(c element.Builder, e *jmx.Element, d *ctlDef) error {
	v := c.Prop(e, "SwitchController.value")
	d.make = func(*thread) ctlHooks { return &switchCtl{value: v} }
	return nil
}

func (s *switchCtl) next(vu *VU) samplerItem {
	if s.first {
		s.current = s.selection(vu)
	}
	return s.gen.next(vu)
}

func (s *switchCtl) incrementCurrent(*VU) { s.current = math.MaxInt }

func (s *switchCtl) selection(vu *VU) int {
	sel := strings.TrimSpace(s.value.Eval(vu))
	if sel == "" {
		return 0
	}
	if numeric(sel) {
		if n, err := strconv.Atoi(sel); err == nil {
			if n < 0 || n >= len(s.kids) {
				n = 0
			}
			return n
		}
	}
	def := math.MaxInt
	for i, k := range s.kids {
		name := itemName(vu, k)
		if name == sel {
			return i
		}
		if strings.EqualFold(name, "default") {
			def = i
		}
	}
	return def
}

// numeric is Apache Commons' StringUtils.isNumeric: only digits.
func numeric(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return s != ""
}

func itemName(vu *VU, it item) string {
	if it.s != nil {
		return it.s.name.Eval(vu)
	}
	return it.c.base().def.name.Eval(vu)
}

// runtimeCtl is JMeter's Runtime Controller: it runs its children again
// and again until the given number of whole seconds has passed since its
// pass started. With 0 seconds (or a value that is not a number) it is done
// at once and its parent drops it.
type runtimeCtl struct {
	gen
	seconds   *Template
	start     time.Time
	loopCount int
}

func buildRuntime(c element.Builder, e *jmx.Element, d *ctlDef) error {
	sec := c.Prop(e, "RunTime.seconds")
	d.make = func(*thread) ctlHooks { return &runtimeCtl{seconds: sec} }
	return nil
}

func (r *runtimeCtl) runtime(vu *VU) int64 {
	n, err := strconv.ParseInt(r.seconds.Eval(vu), 10, 64)
	if err != nil {
		return 0
	}
	return n
}

func (r *runtimeCtl) isDone(vu *VU) bool {
	if r.runtime(vu) > 0 && len(r.kids) > 0 {
		return r.gen.isDone(vu)
	}
	return true
}

func (r *runtimeCtl) endOfLoop(vu *VU) bool {
	return int64(vu.Now().Sub(r.start)/time.Second) >= r.runtime(vu)
}

func (r *runtimeCtl) next(vu *VU) samplerItem {
	if r.start.IsZero() {
		r.start = vu.Now()
	}
	if r.endOfLoop(vu) {
		r.self.reInitialize(vu)
		r.resetLoopCount()
		return nil
	}
	return r.gen.next(vu)
}

func (r *runtimeCtl) nextIsNull(vu *VU) samplerItem {
	r.self.reInitialize(vu)
	if r.endOfLoop(vu) {
		r.resetLoopCount()
		return nil
	}
	return r.self.next(vu)
}

func (r *runtimeCtl) resetLoopCount() {
	r.loopCount = 0
	r.start = time.Time{}
}

func (r *runtimeCtl) iterCount() int { return r.loopCount + 1 }

func (r *runtimeCtl) reInitialize(vu *VU) {
	r.first = true
	r.self.resetCurrent(vu)
	r.loopCount++
}

func (r *runtimeCtl) triggerEndOfLoop(vu *VU) {
	r.gen.triggerEndOfLoop(vu)
	r.resetLoopCount()
}

// foreachCtl is JMeter's ForEach Controller: it runs its children once for
// each of the variables <input>_1, <input>_2… (or <input>1… without the
// separator), from after the start index to the end index included,
// putting each value in the output variable.
type foreachCtl struct {
	gen
	input, output, start, end *Template
	sep                       string
	loopCount                 int
	brk                       bool
}

func buildForeach(c element.Builder, e *jmx.Element, d *ctlDef) error {
	f := foreachCtl{
		input:  c.Prop(e, "ForeachController.inputVal"),
		output: c.Prop(e, "ForeachController.returnVal"),
		start:  c.Prop(e, "ForeachController.startIndex"),
		end:    c.Prop(e, "ForeachController.endIndex"),
	}
	if e.Bool("ForeachController.useSeparator", true) {
		f.sep = "_"
	}
	d.make = func(*thread) ctlHooks { x := f; return &x }
	return nil
}

// propInt is JMeter's getPropertyAsInt(name, def): blank gives def, text
// that is not a number gives 0.
func propInt(vu *VU, t *Template, def int) int {
	s := t.Eval(vu)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0
	}
	return n
}

func (f *foreachCtl) startIndex(vu *VU) int { return propInt(vu, f.start, 0) }
func (f *foreachCtl) endIndex(vu *VU) int   { return propInt(vu, f.end, math.MaxInt32) }

func (f *foreachCtl) inputName(vu *VU) string {
	return f.input.Eval(vu) + f.sep + strconv.Itoa(f.loopCount+1)
}

func (f *foreachCtl) isDone(vu *VU) bool {
	if f.loopCount >= f.endIndex(vu) {
		return true
	}
	if v, ok := vu.Vars.Get(f.inputName(vu)); ok {
		vu.Vars.Put(f.output.Eval(vu), v)
		return false
	}
	return f.gen.isDone(vu)
}

func (f *foreachCtl) hasInput(vu *VU) bool {
	_, ok := vu.Vars.Get(f.inputName(vu))
	return ok
}

func (f *foreachCtl) next(vu *VU) samplerItem {
	f.updateIndex(vu, f.loopCount)
	var s samplerItem
	if f.brk || !f.hasInput(vu) {
		f.brk = false
		f.self.reInitialize(vu)
		f.resetLoopCount(vu)
	} else {
		s = f.gen.next(vu)
	}
	f.updateIndex(vu, f.loopCount)
	return s
}

func (f *foreachCtl) nextIsNull(vu *VU) samplerItem {
	f.self.reInitialize(vu)
	if f.brk || !f.hasInput(vu) || f.loopCount >= f.endIndex(vu) {
		f.brk = false
		f.resetLoopCount(vu)
		return nil
	}
	return f.self.next(vu)
}

func (f *foreachCtl) resetLoopCount(vu *VU) { f.loopCount = f.startIndex(vu) }
func (f *foreachCtl) iterCount() int        { return f.loopCount + 1 }

func (f *foreachCtl) reInitialize(vu *VU) {
	f.first = true
	f.self.resetCurrent(vu)
	f.loopCount++
}

func (f *foreachCtl) triggerEndOfLoop(vu *VU) {
	f.gen.triggerEndOfLoop(vu)
	f.resetLoopCount(vu)
}

func (f *foreachCtl) initialize(vu *VU) {
	f.gen.initialize(vu)
	f.loopCount = f.startIndex(vu)
}

func (f *foreachCtl) startNextLoop(vu *VU) { f.self.reInitialize(vu) }

func (f *foreachCtl) breakLoop(vu *VU) {
	f.brk = true
	f.first = true
	f.self.resetCurrent(vu)
	f.resetLoopCount(vu)
}

func (f *foreachCtl) IterationStart(vu *VU, _ ctlHooks, _ int) {
	f.self.reInitialize(vu)
	f.resetLoopCount(vu)
}

// paramCtl is jmeter-plugins' Parameterized Controller: a Simple
// Controller that sets its variables each time it is asked for a sampler.
type paramCtl struct {
	gen
	u *config.Variables
}

func buildParameterized(c element.Builder, e *jmx.Element, d *ctlDef) error {
	u := config.NewVariables(c, e, "ParameterizedController")
	d.make = func(*thread) ctlHooks { return &paramCtl{u: u} }
	return nil
}

func (p *paramCtl) next(vu *VU) samplerItem {
	p.u.Set(vu)
	return p.gen.next(vu)
}
