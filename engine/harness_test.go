package engine

import (
	"context"
	"strconv"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/function"
	"github.com/gojm/gojm/engine/internal/group"
	"github.com/gojm/gojm/jmx"
	"github.com/gojm/gojm/report"
)

// newTestCompiler returns a compiler for elements built in memory, with
// properties and the plan folder dir.
func newTestCompiler(props map[string]string, file, dir string) *compiler {
	p := &Plan{Plan: element.NewPlan(file, dir, element.NewProps(props), nil)}
	c := &compiler{defs: elements, compiled: p, built: map[*jmx.Element]any{}, listener: map[*jmx.Element]int{}}
	c.tp = function.NewCompiler(p.Plan, functions)
	return c
}

// newTestRun returns a run of p feeding sink (none when nil), not
// started: for a test that drives its users itself.
func newTestRun(ctx context.Context, p *Plan, sink report.Sink) *Run {
	r := &Run{plan: p}
	r.el = element.NewRun(p.Plan, 42, func(error) {}, func(error) {})
	r.soft, r.hard = ctx, ctx
	if sink != nil {
		r.el.Out = report.NewCollector(0, sink)
	}
	for _, g := range p.groups {
		r.groups = append(r.groups, group.NewRun(g, p.Plan, r.el, r.fail))
	}
	return r
}

// newTestVU returns user num of a thread group called "TG" of a run of
// c's plan (the same run for every user of c), once every element has
// been compiled.
func newTestVU(c *compiler, num int) *element.VU {
	r, ok := testRuns[c]
	if !ok {
		r = newTestRun(context.Background(), c.compiled, nil)
		testRuns[c] = r
	}
	g := element.NewGroup(c.compiled.Plan)
	g.Name, g.Index = "TG", 1
	return element.NewVU(c.compiled.Plan, g, r.el, num, "TG 1-"+strconv.Itoa(num), context.Background(), context.Background())
}

// testRuns is the one run of each test compiler's users; tests using it
// run one after another.
var testRuns = map[*compiler]*Run{}

// Unit-level harness: elements built in memory, compiled with a fresh
// compiler, run on a fake result.

func testCompiler() *compiler { return newTestCompiler(nil, "", "") }

func testVU(c *compiler) *element.VU { return newTestVU(c, 1) }

// The Flow Control Action's actions and targets as JMeter saves them
// (ActionProcessor.action, ActionProcessor.target).
const (
	taStop                 = 0
	taPause                = 1
	taStopNow              = 2
	taRestartNextLoop      = 3
	taNextIterationCurrent = 4
	taBreakCurrentLoop     = 5

	taTargetThread = 0
	taTargetTest   = 2
)

// The Constant Throughput Timer's calcMode as JMeter saves it.
const (
	cttThisThread = iota
	cttAllThreads
	cttGroupThreads
	cttAllShared
	cttGroupShared
)
