package engine

import (
	"context"
	"fmt"
	"html"
	"maps"
	"strings"
	"testing"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
	"github.com/gojm/gojm/report"
)

// Plans for the unit tests, written in a few lines: each builder returns
// an element and its hashTree as XML.

func xmlEl(tag, name, props string, kids ...string) string {
	return fmt.Sprintf(`<%s testclass="%s" testname="%s">%s</%s><hashTree>%s</hashTree>`,
		tag, tag, html.EscapeString(name), props, tag, strings.Join(kids, ""))
}

func sp(name, v string) string {
	return fmt.Sprintf(`<stringProp name="%s">%s</stringProp>`, name, html.EscapeString(v))
}

func bp(name string, v bool) string { return fmt.Sprintf(`<boolProp name="%s">%t</boolProp>`, name, v) }

func ip(name string, v int) string { return fmt.Sprintf(`<intProp name="%s">%d</intProp>`, name, v) }

func xPlan(props string, kids ...string) string {
	return `<jmeterTestPlan version="1.2"><hashTree>` + xmlEl("TestPlan", "P", props, kids...) + `</hashTree></jmeterTestPlan>`
}

// groupOpts are a thread group's settings; zero values mean 1 thread, 1 loop.
type groupOpts struct {
	kind                 string // ThreadGroup (default), SetupThreadGroup, PostThreadGroup
	threads, ramp        int
	loops                string
	onError              string
	scheduler            bool
	duration, delay      int
	delayed, notSameUser bool
}

func xGroup(name string, o groupOpts, kids ...string) string {
	if o.kind == "" {
		o.kind = "ThreadGroup"
	}
	if o.threads == 0 {
		o.threads = 1
	}
	if o.loops == "" {
		o.loops = "1"
	}
	if o.onError == "" {
		o.onError = "continue"
	}
	props := `<elementProp name="ThreadGroup.main_controller" elementType="LoopController">` +
		bp("LoopController.continue_forever", false) + sp("LoopController.loops", o.loops) + `</elementProp>` +
		sp("ThreadGroup.num_threads", fmt.Sprint(o.threads)) + sp("ThreadGroup.ramp_time", fmt.Sprint(o.ramp)) +
		sp("ThreadGroup.on_sample_error", o.onError) + bp("ThreadGroup.scheduler", o.scheduler) +
		sp("ThreadGroup.duration", fmt.Sprint(o.duration)) + sp("ThreadGroup.delay", fmt.Sprint(o.delay)) +
		bp("ThreadGroup.delayedStart", o.delayed) + bp("ThreadGroup.same_user_on_next_iteration", !o.notSameUser)
	return xmlEl(o.kind, name, props, kids...)
}

// xJava is a Java Request (JavaTest) that sleeps ms and succeeds unless
// status (evaluated) is not OK; its label is its name.
func xJava(name string, ms int, status string, kids ...string) string {
	if status == "" {
		status = "OK"
	}
	arg := func(k, v string) string {
		return `<elementProp name="` + k + `" elementType="Argument">` + sp("Argument.name", k) + sp("Argument.value", v) + `</elementProp>`
	}
	props := `<elementProp name="arguments" elementType="Arguments"><collectionProp name="Arguments.arguments">` +
		arg("Sleep_Time", fmt.Sprint(ms)) + arg("Sleep_Mask", "0") + arg("Status", status) + arg("ResponseCode", "200") +
		`</collectionProp></elementProp>` + sp("classname", "org.apache.jmeter.protocol.java.test.JavaTest")
	return xmlEl("JavaSampler", name, props, kids...)
}

func xLoop(name, loops string, forever bool, kids ...string) string {
	return xmlEl("LoopController", name, bp("LoopController.continue_forever", forever)+sp("LoopController.loops", loops), kids...)
}

func xWhile(name, cond string, kids ...string) string {
	return xmlEl("WhileController", name, sp("WhileController.condition", cond), kids...)
}

func xIf(name, cond string, expr bool, kids ...string) string {
	return xmlEl("IfController", name, sp("IfController.condition", cond)+bp("IfController.useExpression", expr), kids...)
}

func xForeach(name, in, out string, kids ...string) string {
	return xmlEl("ForeachController", name, sp("ForeachController.inputVal", in)+sp("ForeachController.returnVal", out)+
		bp("ForeachController.useSeparator", true), kids...)
}

func xTx(name string, parent, timers bool, kids ...string) string {
	return xmlEl("TransactionController", name, bp("TransactionController.parent", parent)+bp("TransactionController.includeTimers", timers), kids...)
}

func xAction(name string, action, target int, duration string) string {
	return xmlEl("TestAction", name, ip("ActionProcessor.action", action)+ip("ActionProcessor.target", target)+sp("ActionProcessor.duration", duration))
}

// The Result Status Action Handler's actions as JMeter saves them
// (OnError.action).
const (
	raStopThread           = 1
	raNextIterationCurrent = 5
	raBreakCurrentLoop     = 6
)

func xResultAction(action int) string {
	return xmlEl("ResultAction", "on error", ip("OnError.action", action))
}

func xTimer(ms int) string {
	return xmlEl("ConstantTimer", "timer", sp("ConstantTimer.delay", fmt.Sprint(ms)))
}

func xSimple(name string, kids ...string) string {
	return xmlEl("GenericController", name, "", kids...)
}

func xUDV(pairs ...string) string {
	var b strings.Builder
	b.WriteString(`<elementProp name="TestPlan.user_defined_variables" elementType="Arguments"><collectionProp name="Arguments.arguments">`)
	for i := 0; i+1 < len(pairs); i += 2 {
		b.WriteString(`<elementProp name="` + pairs[i] + `" elementType="Argument">` + sp("Argument.name", pairs[i]) + sp("Argument.value", pairs[i+1]) + `</elementProp>`)
	}
	b.WriteString(`</collectionProp></elementProp>`)
	return b.String()
}

// compilePlanXML compiles a plan written with the builders.
func compilePlanXML(t *testing.T, plan string, props map[string]string) (*Plan, error) {
	t.Helper()
	return compilePlanXMLOpts(t, plan, Options{Props: props})
}

// compilePlanXMLOpts compiles a plan written with the builders, with opts.
func compilePlanXMLOpts(t *testing.T, plan string, opts Options) (*Plan, error) {
	t.Helper()
	src, err := jmx.Read(strings.NewReader(plan), "test.jmx", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return compile(src, opts, testElements)
}

// testElements is the element table with the tests' own elements.
var testElements = func() map[string]elementDef {
	defs := maps.Clone(elements)
	defs[stallClass] = elementDef{kind: kSampler, sampler: func(c element.Builder, e *jmx.Element, _ element.InScope) (element.Sampler, error) {
		return &stallTarget{windows: c.Prop(e, "windows")}, nil
	}}
	return defs
}()

// runXML runs a plan written with the builders and returns every sample
// that reached the run's outputs.
func runPlanXML(t *testing.T, plan string, props map[string]string, listeners ...report.Sink) *memSink {
	t.Helper()
	p, err := compilePlanXML(t, plan, props)
	if err != nil {
		t.Fatal(err)
	}
	sink := &memSink{}
	if err := Start(context.Background(), p, sink, RunOptions{Listeners: listeners}).Wait(); err != nil {
		t.Fatal(err)
	}
	return sink
}

// labels lists the samples' labels, for one thread when thread is not "".
func labels(m *memSink, thread string) []string {
	var out []string
	for _, s := range m.samples {
		if thread == "" || s.ThreadName == thread {
			out = append(out, s.Label)
		}
	}
	return out
}
