package engine

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/gojm/gojm/engine/httpx"
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/function"
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
		r.groups = append(r.groups, newGroupRun(g, p))
	}
	return r
}

// newTestVU returns user num of a thread group called "TG" of a run of
// c's plan (the same run for every user of c), once every element has
// been compiled.
func newTestVU(c *compiler, num int) *VU {
	r, ok := testRuns[c]
	if !ok {
		r = newTestRun(context.Background(), c.compiled, nil)
		testRuns[c] = r
	}
	g := element.NewGroup(c.compiled.Plan)
	g.Name, g.Index = "TG", 1
	return element.NewVU(c.compiled.Plan, g, r.el, num, "TG 1-"+itoa(num), context.Background(), context.Background())
}

// testRuns is the one run of each test compiler's users; tests using it
// run one after another.
var testRuns = map[*compiler]*Run{}

// Unit-level harness: elements built in memory, compiled with a fresh
// compiler, run on a fake result.

func testCompiler() *compiler { return newTestCompiler(nil, "", "") }

func testVU(c *compiler) *VU { return newTestVU(c, 1) }

// el builds an element from name/value pairs; a value starting with "\x00"
// is a collection of strings separated by "\x00".
func el(class string, kv ...string) *jmx.Element {
	e := &jmx.Element{Class: class, Name: class}
	for i := 0; i+1 < len(kv); i += 2 {
		if strings.HasPrefix(kv[i+1], "\x00") {
			p := &jmx.Prop{Kind: "collection", Name: kv[i]}
			for _, s := range strings.Split(kv[i+1][1:], "\x00") {
				p.Props = append(p.Props, &jmx.Prop{Kind: "string", Name: "0", Value: s})
			}
			e.Props = append(e.Props, p)
			continue
		}
		e.Props = append(e.Props, &jmx.Prop{Kind: "string", Name: kv[i], Value: kv[i+1]})
	}
	return e
}

func strs(s ...string) string { return "\x00" + strings.Join(s, "\x00") }

// fakeResult is an HTTP-like sample with a body and headers.
func fakeResult(body string) *Result {
	return &Result{
		Sample: report.Sample{Label: "req", Code: "200", Message: "OK", Success: true,
			URL: "http://127.0.0.1:8080/login?x=1", Elapsed: 1500 * time.Millisecond, Bytes: int64(len(body) + 100)},
		Body:    []byte(body),
		Head:    httpx.HeadOf(http.Header{"Content-Type": {"text/html"}, "Set-Cookie": {"sid=abc"}}),
		ReqHead: "Accept: */*\n",
	}
}

// vars renders the named variables as "name=value" (or "name unset").
func vars(vu *VU, names ...string) string {
	var out []string
	for _, n := range names {
		if v, ok := vu.Vars.Get(n); ok {
			out = append(out, n+"="+v)
		} else {
			out = append(out, n+" unset")
		}
	}
	return strings.Join(out, "; ")
}

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
