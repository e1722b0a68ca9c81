package engine

import (
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/function"
	"github.com/gojm/gojm/engine/internal/group"
	"github.com/gojm/gojm/engine/internal/scripting"
	"github.com/gojm/gojm/internal/files"
	"github.com/gojm/gojm/jmx"
)

// Options configure compiling a plan.
type Options struct {
	// Props are JMeter properties (-J, -q, -p): read by ${__P()}.
	Props map[string]string
	// SkipUnsupported runs the plan without the elements gojm cannot run
	// instead of refusing it.
	SkipUnsupported bool
	// Log receives warnings; nil discards them.
	Log *slog.Logger
	// Files is where the plan may read and write; nil: under its folder
	// and the working folder.
	Files *files.Policy
	// Strict makes every warning (Plan.Warnings) a refusal.
	Strict bool
}

// Plan is a compiled test plan, shared read-only by every virtual user.
// Its name, file, folder, properties and sample variables are the
// element.Plan its elements read.
type Plan struct {
	*element.Plan
	// Serial runs the thread groups one after another.
	Serial bool
	// TearDownOnShutdown runs tearDown groups after a stopped test too.
	TearDownOnShutdown bool
	// Listeners are the plan's own result listeners that produce output
	// (a results file, a Graph Results chart), in tree order.
	Listeners []Listener
	// Elements lists every element with what gojm does with it.
	Elements []ElementStatus
	// Warnings are what gojm runs leniently, as JMeter does, in the order
	// the plan compiled.
	Warnings []Warning

	groups []*group.Group
	udv    []udv
	users  [3]int // known thread counts by phase (Users)
}

// Status is what gojm does with an element.
type Status uint8

const (
	Runs    Status = iota // gojm runs it
	Ignored               // it has no effect headless; noted and passed over
	Refused               // gojm cannot run it; the plan is refused unless skipped
)

func (s Status) String() string {
	return [...]string{"runs", "ignored", "refused"}[s]
}

// ElementStatus is one element of the plan and what gojm does with it.
type ElementStatus struct {
	Path   string
	Class  string
	Depth  int
	Status Status
	Reason string
	order  int // position in the tree, for listing in document order
}

// compiler holds the state of one compilation.
type compiler struct {
	defs     map[string]elementDef // the element table
	compiled *Plan
	tp       *function.Compiler
	errs     []error
	built    map[*jmx.Element]any // timers, processors, assertions: compiled once, shared
	skip     bool
	listener map[*jmx.Element]int
	fl       flowCompiler         // the tree walk's state for controllers
	order    map[*jmx.Element]int // document order of every element
	// readsPrevious: an element reads the response of the sample before
	// its sampler's, so every sampler keeps its response.
	readsPrevious bool
}

// Compile turns a loaded plan into a runnable one. It reports every problem
// at once, each with its element's path; with an error, the plan it returns
// is only good for listing Elements.
func Compile(src *jmx.Plan, opt Options) (*Plan, error) {
	return compile(src, opt, elements)
}

// compile compiles with a table of elements (a test's own, with test
// elements added to a copy of the one table).
func compile(src *jmx.Plan, opt Options, defs map[string]elementDef) (*Plan, error) {
	p := &Plan{Plan: element.NewPlan(src.File, src.Dir, element.NewProps(opt.Props), opt.Log)}
	if opt.Files != nil {
		p.Files = opt.Files
	}
	c := &compiler{defs: defs, compiled: p, built: map[*jmx.Element]any{}, skip: opt.SkipUnsupported, listener: map[*jmx.Element]int{}}
	c.tp = function.NewCompiler(p.Plan, functions)
	c.tp.Static = c.Static
	c.order = map[*jmx.Element]int{}
	src.Root.Walk(func(e *jmx.Element) bool {
		c.order[e] = len(c.order)
		c.readsPrevious = c.readsPrevious || defs[e.Class].readsPrevious
		return true
	})
	if s, ok := p.Props.Get("sample_variables"); ok && strings.TrimSpace(s) != "" {
		for _, n := range strings.Split(s, ",") {
			p.SampleVars = append(p.SampleVars, strings.TrimSpace(n))
		}
	}

	tp := src.TestPlan()
	if tp == nil {
		// JMeter 5.6 refuses it too: StandardJMeterEngine.configure throws
		// "Could not find the TestPlan class!" (a selection saved with
		// "Save Selection As", a template's fragment).
		c.errs = append(c.errs, &jmx.Error{File: src.File, Err: errors.New(noTestPlan)})
		return nil, errors.Join(c.errs...)
	}
	p.Name = tp.Name
	p.FunctionalMode = tp.Bool("TestPlan.functional_mode", false)
	p.Serial = tp.Bool("TestPlan.serialize_threadgroups", false)
	p.TearDownOnShutdown = tp.Bool("TestPlan.tearDown_on_shutdown", false)
	c.record(tp, Runs, "")
	c.userVariables(tp.Prop("TestPlan.user_defined_variables").Prop("Arguments.arguments"), tp)

	planFrame := c.frame(tp.Children, 1)
	for _, e := range tp.Children {
		d, ok := c.lookup(e)
		switch {
		case ok && d.kind == kThreadGroup:
			c.threadGroup(e, planFrame)
		case ok && d.kind == kController:
			// A controller outside any thread group (a Test Fragment, a
			// module's target) runs only where a Module Controller calls it.
			c.recordTree(e, 1, Ignored, "outside any thread group: runs only when a Module Controller calls it")
		case ok:
			// scoped elements were recorded by frame()
			if d.kind == kSampler {
				c.recordTree(e, 1, Ignored, "a sampler outside any thread group never runs")
			}
		default:
			c.refuse(e, 1)
		}
	}
	sort.SliceStable(p.Elements, func(i, j int) bool { return p.Elements[i].order < p.Elements[j].order })
	c.checkListenerFiles()
	if opt.Strict {
		c.strictWarnings()
	}
	if len(c.errs) > 0 {
		return p, errors.Join(c.errs...)
	}
	p.groups = group.Order(p.groups)
	return p, nil
}

// frame is the scoped elements (configs, timers, processors, assertions,
// listeners) at one level of the tree: they apply to every sampler below
// that level, wherever they stand among their siblings.
type frame []*jmx.Element

// frame collects the scoped elements among siblings, records their status
// and compiles the ones that run on their own (timers, processors…).
func (c *compiler) frame(siblings []*jmx.Element, depth int) frame {
	var f frame
	for _, e := range siblings {
		d, ok := c.lookup(e)
		if !ok {
			continue // refused by the caller's walk
		}
		if c.fl.seen[e] {
			// compiled already: a Module Controller runs this part again
			if d.kind != kIgnored && d.kind != kController && d.kind != kSampler && (d.kind != kListener || c.hasListener(e)) {
				f = append(f, e)
			}
			continue
		}
		if c.fl.seen == nil {
			c.fl.seen = map[*jmx.Element]bool{}
		}
		c.fl.seen[e] = true
		switch d.kind {
		case kConfig, kTimer, kPre, kPost, kAssertion:
			f = append(f, e)
			c.compileScoped(e, d, depth)
		case kListener:
			if d.listener != nil {
				c.compileScoped(e, d, depth)
				f = append(f, e)
			} else if d.output != nil && d.output(c, e, depth) {
				f = append(f, e)
			}
		case kIgnored:
			if d.reportOnly {
				c.reportOnly(e, depth, d.note)
			} else {
				c.recordTree(e, depth, Ignored, d.note)
			}
		}
	}
	return f
}

// compileScoped builds a timer, processor or assertion once and records it.
func (c *compiler) compileScoped(e *jmx.Element, d elementDef, depth int) {
	var v any
	var err error
	switch d.kind {
	case kTimer:
		v, err = d.timer(c, e)
	case kPre:
		v, err = d.pre(c, e)
	case kPost:
		v, err = d.post(c, e)
	case kAssertion:
		v, err = d.assertion(c, e)
	case kListener:
		v, err = d.listener(c, e)
	case kConfig:
		if d.iteration != nil {
			v, err = d.iteration(c, e) // CSV Data Set, Counter, Random Variable
		}
		if d.variables != nil {
			d.variables(c, e)
		}
	}
	if err != nil {
		c.Fail(e, err)
		return
	}
	if v != nil {
		c.built[e] = v
	}
	c.recordAt(e, depth, Runs, "")
}

// Fail records a compile error for an element.
func (c *compiler) Fail(e *jmx.Element, err error) {
	c.errs = append(c.errs, &jmx.Error{File: e.File, Path: e.Path(), Err: err})
}

// refuse records an element gojm cannot run: an error unless skipping. A
// listener of a plugin gojm does not know only reports: the plan runs
// without it.
func (c *compiler) refuse(e *jmx.Element, depth int) {
	if listenerClass(e.Class) && len(e.Children) == 0 {
		c.reportOnly(e, depth, fmt.Sprintf("%s is a listener gojm does not have: %s", e.Class, reportsOnly))
		return
	}
	reason := fmt.Sprintf("%s is not supported by gojm", e.Class)
	if c.skip {
		c.recordTree(e, depth, Refused, reason+" (skipped)")
		return
	}
	c.recordTree(e, depth, Refused, reason)
	c.errs = append(c.errs, &jmx.Error{File: e.File, Path: e.Path(), Err: fmt.Errorf("%w %s: gojm cannot run it; disable or remove the element, or run with --skip-unsupported to run the plan without it", ErrUnsupported, e.Class)})
}

// ErrUnsupported is wrapped by errors for elements gojm cannot run.
var ErrUnsupported = element.ErrUnsupported

func (c *compiler) record(e *jmx.Element, s Status, reason string) { c.recordAt(e, 0, s, reason) }

func (c *compiler) recordAt(e *jmx.Element, depth int, s Status, reason string) {
	if c.fl.recorded[e] {
		return // a Module Controller runs this part of the tree again
	}
	if c.fl.recorded == nil {
		c.fl.recorded = map[*jmx.Element]bool{}
	}
	c.fl.recorded[e] = true
	c.compiled.Elements = append(c.compiled.Elements, ElementStatus{Path: e.Path(), Class: e.Class, Depth: depth, Status: s, Reason: reason, order: c.order[e]})
}

// recordTree records an element and everything below it with one status.
func (c *compiler) recordTree(e *jmx.Element, depth int, s Status, reason string) {
	c.recordAt(e, depth, s, reason)
	for _, k := range e.Children {
		c.recordTree(k, depth+1, s, "inside "+e.Path())
	}
}

// template compiles a field of an element, recording any error.
func (c *compiler) Template(e *jmx.Element, field, s string) *element.Template {
	t, err := c.tp.Compile(s)
	c.templateWarnings(e, field)
	if err != nil {
		c.Fail(e, fmt.Errorf("%s: %w", field, err))
		return element.Text(s)
	}
	return t
}

// prop compiles the element's property called name.
func (c *compiler) Prop(e *jmx.Element, name string) *element.Template {
	return c.Template(e, name, e.Str(name))
}

// Refuse marks an element gojm does not run: refused in the
// plan's list, and a compile error unless unsupported elements are skipped.
func (c *compiler) Refuse(e *jmx.Element, reason string) {
	msg := fmt.Sprintf("%s: %s", e.Class, reason)
	found := false
	for i := range c.compiled.Elements {
		es := &c.compiled.Elements[i]
		if es.order == c.order[e] && es.Path == e.Path() {
			es.Status, es.Reason = Refused, msg
			found = true
		}
	}
	if !found {
		depth := 0
		for x := e.Parent; x != nil && x.Parent != nil; x = x.Parent {
			depth++
		}
		c.recordAt(e, depth, Refused, msg)
	}
	if c.skip {
		for i := range c.compiled.Elements {
			es := &c.compiled.Elements[i]
			if es.order == c.order[e] && es.Path == e.Path() && !strings.HasSuffix(es.Reason, "(skipped)") {
				es.Reason += " (skipped)"
			}
		}
		return
	}
	c.errs = append(c.errs, &jmx.Error{File: e.File, Path: e.Path(), Err: fmt.Errorf("%w: %s; disable or remove the element, or run with --skip-unsupported to run the plan without it", ErrUnsupported, msg)})
}

// Plan is the plan being compiled, as its elements see it.
func (c *compiler) Plan() *element.Plan { return c.compiled.Plan }

var _ element.Builder = (*compiler)(nil)

// NoScriptsProperty, set to true, refuses every script element and script
// function (the --no-scripts flag sets it).
const NoScriptsProperty = scripting.NoScriptsProperty

// noTestPlan refuses a file without a Test Plan element, as JMeter 5.6's
// non-GUI mode does.
const noTestPlan = "the file has no Test Plan element (is it a test fragment?); JMeter 5.6 refuses it too " +
	"(\"Could not find the TestPlan class!\"): open it in JMeter, add it to a Test Plan with a Thread Group, and save the plan (File › Save Test Plan as)"
