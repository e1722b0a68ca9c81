package thread

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

// Item is what a controller's next hands to the thread: a sampler
// (*SamplerDef), or a parent-mode Transaction Controller's transaction
// (*txSampler), which wraps the sampler to run.
type Item interface{ samplerItem() }

// ControllerDef is a compiled controller, shared by every virtual user.
type ControllerDef struct {
	Class string
	Name  *element.Template
	Path  string
	Index int // the instance of this controller is vu.ctls[index]
	Kids  []Child
	// listens are the iteration listeners standing directly in this
	// controller (and under its samplers), in document order: child
	// controllers by position in kids, other elements by value.
	Listens []Listen
	// make builds one virtual user's instance (set by the builder).
	Make func(th *Thread) Controller
	// tx is set on Transaction Controllers.
	Tx *TxDef
	// idxSlot is the variable __jm__<name>__idx when the name has no
	// ${…}; -1 otherwise.
	IdxSlot int
}

// Child is a sampler or a controller under a controller.
type Child struct {
	Sampler    *SamplerDef
	Controller *ControllerDef
}

// Listen is one iteration listener of a controller: the child
// controller kids[kid] when el is nil, else an element.
type Listen struct {
	Kid     int
	Element element.IterationListener
}

// item is a child of a controller instance.
type item struct {
	s *SamplerDef
	c Controller
}

// Controller is a controller instance: JMeter's Controller plus the methods
// its GenericController lets subclasses replace. Generic holds the defaults;
// each controller type embeds Generic and replaces what JMeter's replaces.
type Controller interface {
	Base() *Generic
	Next(vu *element.VU) Item
	IsDone(vu *element.VU) bool
	Initialize(vu *element.VU)
	TriggerEndOfLoop(vu *element.VU)
	NextIsNull(vu *element.VU) Item
	NextIsAController(vu *element.VU, c Controller) Item
	NextIsASampler(vu *element.VU, s *SamplerDef) Item
	CurrentReturnedNull(vu *element.VU, c Controller)
	// setCurrentElement returns false to end the pass (JMeter throws
	// NextIsNullException).
	SetCurrentElement(vu *element.VU, it item) bool
	IncrementCurrent(vu *element.VU)
	ResetCurrent(vu *element.VU)
	ReInitialize(vu *element.VU)
	SetDone(b bool)
	IterCount() int
}

// iterating controllers can continue and break (JMeter's IteratingController).
type iterating interface {
	StartNextLoop(vu *element.VU)
	BreakLoop(vu *element.VU)
}

// loopListener is a controller instance told when its parent starts a pass.
type loopListener interface {
	IterationStart(vu *element.VU, source Controller, iteration int)
}

// elemListener adapts an element's iteration listener to a controller's list.
type elemListener struct{ l element.IterationListener }

func (e elemListener) IterationStart(vu *element.VU, _ Controller, _ int) { e.l.IterationStart(vu) }

// maxControllerDepth bounds the recursion of next through controllers that
// yield no sampler (a While whose only child is an If that is false):
// JMeter dies of a StackOverflowError there and ends the thread; so does gojm.
const maxControllerDepth = 20000

// Generic is JMeter's GenericController: run the children in order, once per pass.
type Generic struct {
	self      Controller
	def       *ControllerDef
	th        *Thread // the thread the instance belongs to
	kids      []item
	current   int
	count     int // JMeter's iterCount
	done      bool
	first     bool
	listeners []loopListener // told in this order: the last registered first
	idx       int            // the loop index last exported, and as text
	idxText   string
}

func (g *Generic) Base() *Generic { return g }

// Self is the controller that embeds g: g's methods call the ones it
// replaces through it.
func (g *Generic) Self() Controller { return g.self }

// Thread is the thread the instance belongs to.
func (g *Generic) Thread() *Thread { return g.th }

func (g *Generic) Next(vu *element.VU) Item {
	g.th.depth++
	defer func() { g.th.depth-- }()
	if g.th.depth > maxControllerDepth {
		if !vu.Stopped() {
			vu.Log.Error("controllers loop without reaching a sampler: the thread stops (JMeter ends it with a StackOverflowError)", "thread", vu.Name, "controller", g.def.Path)
		}
		vu.StopThread()
		return nil
	}
	g.fireIterEvents(vu)
	if vu.Stopped() || g.self.IsDone(vu) {
		return nil
	}
	var it item
	if g.current < len(g.kids) {
		it = g.kids[g.current]
	} else if len(g.kids) == 0 {
		g.self.SetDone(true)
		return nil
	}
	if !g.self.SetCurrentElement(vu, it) {
		return nil
	}
	switch {
	case it.s != nil:
		return g.self.NextIsASampler(vu, it.s)
	case it.c != nil:
		return g.self.NextIsAController(vu, it.c)
	}
	return g.self.NextIsNull(vu)
}

func (g *Generic) IsDone(*element.VU) bool      { return g.done }
func (g *Generic) SetDone(b bool)               { g.done = b }
func (g *Generic) IterCount() int               { return g.count }
func (g *Generic) IncrementCurrent(*element.VU) { g.current++ }
func (g *Generic) ResetCurrent(*element.VU)     { g.current = 0 }

func (g *Generic) Initialize(vu *element.VU) {
	g.self.ResetCurrent(vu)
	g.count = 0
	g.done = false
	g.first = true
	g.initializeSubControllers(vu)
}

func (g *Generic) initializeSubControllers(vu *element.VU) {
	for _, k := range g.kids {
		if k.c != nil {
			k.c.Initialize(vu)
		}
	}
}

func (g *Generic) ReInitialize(vu *element.VU) {
	g.self.ResetCurrent(vu)
	g.count++
	g.first = true
}

func (g *Generic) NextIsAController(vu *element.VU, c Controller) Item {
	s := c.Next(vu)
	if s == nil {
		g.self.CurrentReturnedNull(vu, c)
		s = g.self.Next(vu)
	}
	return s
}

func (g *Generic) NextIsASampler(vu *element.VU, s *SamplerDef) Item {
	g.self.IncrementCurrent(vu)
	return s
}

func (g *Generic) NextIsNull(vu *element.VU) Item {
	g.self.ReInitialize(vu)
	return nil
}

func (g *Generic) TriggerEndOfLoop(vu *element.VU) { g.self.ReInitialize(vu) }

func (g *Generic) CurrentReturnedNull(vu *element.VU, c Controller) {
	if c.IsDone(vu) {
		g.removeCurrent()
	} else {
		g.self.IncrementCurrent(vu)
	}
}

func (g *Generic) removeCurrent() {
	if g.current < len(g.kids) {
		g.kids = append(g.kids[:g.current], g.kids[g.current+1:]...)
	}
}

func (g *Generic) SetCurrentElement(*element.VU, item) bool { return true }

// fireIterEvents tells the listeners a pass starts, on its first next.
func (g *Generic) fireIterEvents(vu *element.VU) {
	if g.first {
		n := g.self.IterCount()
		for _, l := range g.listeners {
			l.IterationStart(vu, g.self, n)
		}
		g.first = false
	}
}

// addIterationListener puts l first, as JMeter's addFirst does.
func (g *Generic) addIterationListener(l loopListener) {
	g.listeners = append(g.listeners, nil)
	copy(g.listeners[1:], g.listeners)
	g.listeners[0] = l
}

// updateIndex sets __jm__<name>__idx, the loop index JMeter exports.
func (g *Generic) updateIndex(vu *element.VU, n int) {
	if g.idxText == "" || g.idx != n {
		g.idx, g.idxText = n, strconv.Itoa(n)
	}
	if g.def.IdxSlot >= 0 {
		vu.Vars.PutSlot(g.def.IdxSlot, g.idxText)
		return
	}
	vu.Vars.Put("__jm__"+g.def.Name.Eval(vu)+"__idx", g.idxText)
}

// Simple Controller, Recording Controller, Test Fragment, Include and
// Module Controllers: JMeter's GenericController as it is.
type simpleCtl struct{ Generic }

func BuildSimple(element.Builder, *jmx.Element, *ControllerDef) error { return nil }

func NewSimple(*Thread) Controller { return &simpleCtl{} }

// loopCtl is JMeter's Loop Controller, and every thread group's main loop.
// "Loop forever" (continue_forever) on a nested loop means: start counting
// again each time the parent comes back to it; without it the loop is done
// after its count and its parent drops it for the rest of the thread's life.
type loopCtl struct {
	Generic
	loops     *element.Template
	forever   bool
	loopCount int
	nbLoops   int
	nbSet     bool
	brk       bool
}

func BuildLoop(c element.Builder, e *jmx.Element, d *ControllerDef) error {
	loops := c.Prop(e, "LoopController.loops")
	forever := e.Bool("LoopController.continue_forever", true)
	d.Make = NewLoop(loops, forever)
	return nil
}

// NewLoop makes the instances of a Loop Controller (or of a thread
// group's main loop) that runs loops times, or forever.
func NewLoop(loops *element.Template, forever bool) func(*Thread) Controller {
	return func(*Thread) Controller { return &loopCtl{loops: loops, forever: forever} }
}

func (l *loopCtl) getLoops(vu *element.VU) int {
	if !l.nbSet || l.nbLoops == 0 || l.nbLoops == -1 {
		txt := l.loops.Eval(vu)
		n, err := strconv.Atoi(txt)
		if err != nil {
			if strings.TrimSpace(txt) != "" {
				vu.Warnf("%s: loop count %q is not a number: the loop runs 0 times", l.def.Path, txt)
			}
			n = 0
		}
		l.nbLoops, l.nbSet = n, true
	}
	return l.nbLoops
}

func (l *loopCtl) endOfLoop(vu *element.VU) bool {
	n := l.getLoops(vu)
	return l.brk || n > -1 && l.loopCount >= n
}

func (l *loopCtl) Next(vu *element.VU) Item {
	l.updateIndex(vu, l.loopCount)
	var s Item
	if l.endOfLoop(vu) {
		if !l.forever {
			l.self.SetDone(true)
		}
		l.brk = false
	} else {
		s = l.Generic.Next(vu)
	}
	l.updateIndex(vu, l.loopCount)
	return s
}

func (l *loopCtl) SetDone(b bool) {
	l.brk = false
	l.nbSet = false
	l.done = b
}

func (l *loopCtl) NextIsNull(vu *element.VU) Item {
	l.self.ReInitialize(vu)
	if l.endOfLoop(vu) {
		if !l.forever {
			l.self.SetDone(true)
		} else {
			l.resetLoopCount()
		}
		return nil
	}
	return l.self.Next(vu)
}

func (l *loopCtl) TriggerEndOfLoop(vu *element.VU) {
	l.Generic.TriggerEndOfLoop(vu)
	l.resetLoopCount()
}

func (l *loopCtl) resetLoopCount() {
	l.loopCount = 0
	l.nbSet = false
}

func (l *loopCtl) IterCount() int { return l.loopCount + 1 }

func (l *loopCtl) ReInitialize(vu *element.VU) {
	l.first = true
	l.self.ResetCurrent(vu)
	l.loopCount++
}

func (l *loopCtl) StartNextLoop(vu *element.VU) { l.self.ReInitialize(vu) }

func (l *loopCtl) BreakLoop(vu *element.VU) {
	l.brk = true
	l.first = true
	l.self.ResetCurrent(vu)
	l.resetLoopCount()
}

func (l *loopCtl) IterationStart(vu *element.VU, _ Controller, _ int) {
	l.self.ReInitialize(vu)
	l.resetLoopCount()
}

// whileCtl is JMeter's While Controller. The condition is text, not an
// expression: the loop ends when it is "false" (any case); blank ends it
// when the last sample failed (checked at the end of each pass only), and
// LAST when the last sample failed (checked before the first pass too). The
// condition is evaluated again at each check, functions and all.
type whileCtl struct {
	Generic
	cond *element.Template
	brk  bool
}

func BuildWhile(c element.Builder, e *jmx.Element, d *ControllerDef) error {
	cond := c.Prop(e, "WhileController.condition")
	d.Make = func(*Thread) Controller { return &whileCtl{cond: cond} }
	return nil
}

func (w *whileCtl) endOfLoop(vu *element.VU, loopEnd bool) bool {
	if w.brk {
		return true
	}
	cnd := strings.TrimSpace(w.cond.Eval(vu))
	if loopEnd && cnd == "" || strings.EqualFold(cnd, "LAST") {
		return vu.LastSampleFailed()
	}
	return strings.EqualFold(cnd, "false")
}

func (w *whileCtl) NextIsNull(vu *element.VU) Item {
	w.self.ReInitialize(vu)
	if w.endOfLoop(vu, true) {
		w.brk = false
		w.count = 0
		return nil
	}
	return w.self.Next(vu)
}

func (w *whileCtl) TriggerEndOfLoop(vu *element.VU) {
	w.Generic.TriggerEndOfLoop(vu)
	w.endOfLoop(vu, true) // evaluated for its side effects, as JMeter does
	w.count = 0
}

func (w *whileCtl) Next(vu *element.VU) Item {
	w.updateIndex(vu, w.count)
	var s Item
	if w.first && w.endOfLoop(vu, false) {
		w.brk = false
		w.count = 0
	} else {
		s = w.Generic.Next(vu)
	}
	w.updateIndex(vu, w.count)
	return s
}

func (w *whileCtl) StartNextLoop(vu *element.VU) { w.self.ReInitialize(vu) }

func (w *whileCtl) BreakLoop(vu *element.VU) {
	w.brk = true
	w.first = true
	w.self.ResetCurrent(vu)
	w.count = 0
}

func (w *whileCtl) IterationStart(vu *element.VU, _ Controller, _ int) {
	w.self.ReInitialize(vu)
	w.count = 0
}

// onceCtl is JMeter's Once Only Controller: it runs its children on the
// first pass of its parent (the first iteration of a parent Loop
// Controller, which includes every thread group), never after.
type onceCtl struct{ Generic }

func BuildOnce(_ element.Builder, _ *jmx.Element, d *ControllerDef) error {
	d.Make = func(*Thread) Controller { return &onceCtl{} }
	return nil
}

func (o *onceCtl) IterationStart(vu *element.VU, source Controller, iteration int) {
	want := 0
	if _, ok := source.(*loopCtl); ok {
		want = 1
	}
	if iteration == want {
		o.self.ReInitialize(vu)
	}
}

func (o *onceCtl) NextIsNull(*element.VU) Item { return nil }

// switchCtl is JMeter's Switch Controller: it runs the child the switch
// value names, by index (0 when out of range) or by name ("default" when no
// name matches, nothing when there is no default).
type switchCtl struct {
	Generic
	value *element.Template
}

func BuildSwitch(c element.Builder, e *jmx.Element, d *ControllerDef) error {
	v := c.Prop(e, "SwitchController.value")
	d.Make = func(*Thread) Controller { return &switchCtl{value: v} }
	return nil
}

func (s *switchCtl) Next(vu *element.VU) Item {
	if s.first {
		s.current = s.selection(vu)
	}
	return s.Generic.Next(vu)
}

func (s *switchCtl) IncrementCurrent(*element.VU) { s.current = math.MaxInt }

func (s *switchCtl) selection(vu *element.VU) int {
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

func itemName(vu *element.VU, it item) string {
	if it.s != nil {
		return it.s.Name.Eval(vu)
	}
	return it.c.Base().def.Name.Eval(vu)
}

// runtimeCtl is JMeter's Runtime Controller: it runs its children again
// and again until the given number of whole seconds has passed since its
// pass started. With 0 seconds (or a value that is not a number) it is done
// at once and its parent drops it.
type runtimeCtl struct {
	Generic
	seconds   *element.Template
	start     time.Time
	loopCount int
}

func BuildRuntime(c element.Builder, e *jmx.Element, d *ControllerDef) error {
	sec := c.Prop(e, "RunTime.seconds")
	d.Make = func(*Thread) Controller { return &runtimeCtl{seconds: sec} }
	return nil
}

func (r *runtimeCtl) runtime(vu *element.VU) int64 {
	n, err := strconv.ParseInt(r.seconds.Eval(vu), 10, 64)
	if err != nil {
		return 0
	}
	return n
}

func (r *runtimeCtl) IsDone(vu *element.VU) bool {
	if r.runtime(vu) > 0 && len(r.kids) > 0 {
		return r.Generic.IsDone(vu)
	}
	return true
}

func (r *runtimeCtl) endOfLoop(vu *element.VU) bool {
	return int64(vu.Now().Sub(r.start)/time.Second) >= r.runtime(vu)
}

func (r *runtimeCtl) Next(vu *element.VU) Item {
	if r.start.IsZero() {
		r.start = vu.Now()
	}
	if r.endOfLoop(vu) {
		r.self.ReInitialize(vu)
		r.resetLoopCount()
		return nil
	}
	return r.Generic.Next(vu)
}

func (r *runtimeCtl) NextIsNull(vu *element.VU) Item {
	r.self.ReInitialize(vu)
	if r.endOfLoop(vu) {
		r.resetLoopCount()
		return nil
	}
	return r.self.Next(vu)
}

func (r *runtimeCtl) resetLoopCount() {
	r.loopCount = 0
	r.start = time.Time{}
}

func (r *runtimeCtl) IterCount() int { return r.loopCount + 1 }

func (r *runtimeCtl) ReInitialize(vu *element.VU) {
	r.first = true
	r.self.ResetCurrent(vu)
	r.loopCount++
}

func (r *runtimeCtl) TriggerEndOfLoop(vu *element.VU) {
	r.Generic.TriggerEndOfLoop(vu)
	r.resetLoopCount()
}

// foreachCtl is JMeter's ForEach Controller: it runs its children once for
// each of the variables <input>_1, <input>_2… (or <input>1… without the
// separator), from after the start index to the end index included,
// putting each value in the output variable.
type foreachCtl struct {
	Generic
	input, output, start, end *element.Template
	sep                       string
	loopCount                 int
	brk                       bool
}

func BuildForeach(c element.Builder, e *jmx.Element, d *ControllerDef) error {
	f := foreachCtl{
		input:  c.Prop(e, "ForeachController.inputVal"),
		output: c.Prop(e, "ForeachController.returnVal"),
		start:  c.Prop(e, "ForeachController.startIndex"),
		end:    c.Prop(e, "ForeachController.endIndex"),
	}
	if e.Bool("ForeachController.useSeparator", true) {
		f.sep = "_"
	}
	d.Make = func(*Thread) Controller { x := f; return &x }
	return nil
}

// propInt is JMeter's getPropertyAsInt(name, def): blank gives def, text
// that is not a number gives 0.
func propInt(vu *element.VU, t *element.Template, def int) int {
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

func (f *foreachCtl) startIndex(vu *element.VU) int { return propInt(vu, f.start, 0) }
func (f *foreachCtl) endIndex(vu *element.VU) int   { return propInt(vu, f.end, math.MaxInt32) }

func (f *foreachCtl) inputName(vu *element.VU) string {
	return f.input.Eval(vu) + f.sep + strconv.Itoa(f.loopCount+1)
}

func (f *foreachCtl) IsDone(vu *element.VU) bool {
	if f.loopCount >= f.endIndex(vu) {
		return true
	}
	if v, ok := vu.Vars.Get(f.inputName(vu)); ok {
		vu.Vars.Put(f.output.Eval(vu), v)
		return false
	}
	return f.Generic.IsDone(vu)
}

func (f *foreachCtl) hasInput(vu *element.VU) bool {
	_, ok := vu.Vars.Get(f.inputName(vu))
	return ok
}

func (f *foreachCtl) Next(vu *element.VU) Item {
	f.updateIndex(vu, f.loopCount)
	var s Item
	if f.brk || !f.hasInput(vu) {
		f.brk = false
		f.self.ReInitialize(vu)
		f.resetLoopCount(vu)
	} else {
		s = f.Generic.Next(vu)
	}
	f.updateIndex(vu, f.loopCount)
	return s
}

func (f *foreachCtl) NextIsNull(vu *element.VU) Item {
	f.self.ReInitialize(vu)
	if f.brk || !f.hasInput(vu) || f.loopCount >= f.endIndex(vu) {
		f.brk = false
		f.resetLoopCount(vu)
		return nil
	}
	return f.self.Next(vu)
}

func (f *foreachCtl) resetLoopCount(vu *element.VU) { f.loopCount = f.startIndex(vu) }
func (f *foreachCtl) IterCount() int                { return f.loopCount + 1 }

func (f *foreachCtl) ReInitialize(vu *element.VU) {
	f.first = true
	f.self.ResetCurrent(vu)
	f.loopCount++
}

func (f *foreachCtl) TriggerEndOfLoop(vu *element.VU) {
	f.Generic.TriggerEndOfLoop(vu)
	f.resetLoopCount(vu)
}

func (f *foreachCtl) Initialize(vu *element.VU) {
	f.Generic.Initialize(vu)
	f.loopCount = f.startIndex(vu)
}

func (f *foreachCtl) StartNextLoop(vu *element.VU) { f.self.ReInitialize(vu) }

func (f *foreachCtl) BreakLoop(vu *element.VU) {
	f.brk = true
	f.first = true
	f.self.ResetCurrent(vu)
	f.resetLoopCount(vu)
}

func (f *foreachCtl) IterationStart(vu *element.VU, _ Controller, _ int) {
	f.self.ReInitialize(vu)
	f.resetLoopCount(vu)
}

// paramCtl is jmeter-plugins' Parameterized Controller: a Simple
// Controller that sets its variables each time it is asked for a sampler.
type paramCtl struct {
	Generic
	u *config.Variables
}

func BuildParameterized(c element.Builder, e *jmx.Element, d *ControllerDef) error {
	u := config.NewVariables(c, e, "ParameterizedController")
	d.Make = func(*Thread) Controller { return &paramCtl{u: u} }
	return nil
}

func (p *paramCtl) Next(vu *element.VU) Item {
	p.u.Set(vu)
	return p.Generic.Next(vu)
}
