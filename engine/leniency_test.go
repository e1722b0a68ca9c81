package engine

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/gojm/gojm/internal/segment"
	"github.com/gojm/gojm/jmx"
)

// A Thread Group whose scheduler has a duration of 0 or empty, or a
// negative startup delay, starts none of its threads, as in JMeter 5.6
// (ThreadGroup.start throws "Invalid duration", the engine logs it and runs
// the other groups): the plan runs, with a warning naming the group. A
// duration known only at run time is told of then. JMeter 2.13 instead ran
// one iteration of such a group (recorded: it read the missing end time as
// the start).
func TestSchedulerWithoutDuration(t *testing.T) {
	empty := strings.Replace(xGroup("Empty", groupOpts{loops: "2", scheduler: true}, xJava("empty", 0, "")),
		`<stringProp name="ThreadGroup.duration">0</stringProp>`, `<stringProp name="ThreadGroup.duration"></stringProp>`, 1)
	plan := xPlan("",
		xGroup("Zero", groupOpts{loops: "2", scheduler: true}, xJava("zero", 0, "")),
		empty,
		xGroup("Negative delay", groupOpts{loops: "2", scheduler: true, duration: 5, delay: -1}, xJava("negative", 0, "")),
		xGroup("Delayed, negative delay", groupOpts{scheduler: true, duration: 5, delay: -1, delayed: true}, xJava("delayed", 0, "")),
		xGroup("Plain", groupOpts{}, xJava("plain", 0, "")),
	)
	p, err := compilePlanXML(t, plan, nil)
	if err != nil {
		t.Fatal(err)
	}
	var warned []string
	for _, w := range p.Warnings {
		warned = append(warned, w.Path)
		if !strings.Contains(w.Message, "none of the group's threads starts, as in JMeter 5.6") {
			t.Errorf("warning %q does not say what happens", w)
		}
	}
	if want := []string{"P › Zero", "P › Empty", "P › Negative delay"}; !slices.Equal(warned, want) {
		t.Errorf("warnings for %q, want %q", warned, want)
	}
	m := runPlanXML(t, plan, nil)
	if got, want := labels(m, ""), []string{"delayed", "plain"}; !slices.Equal(sorted(got), want) {
		t.Errorf("samples %q, want %q", got, want)
	}
	// gojm validate --schedule plans what the run does: no start for the
	// groups that start none, and the delayed group's at once.
	var planned []string
	for _, g := range p.Schedule(segment.Whole(), 1, "", 100) {
		for _, s := range g.Starts {
			planned = append(planned, fmt.Sprintf("%s at %v", g.Group, s.At))
		}
	}
	if want := []string{"Delayed, negative delay at 0s", "Plain at 0s"}; !slices.Equal(planned, want) {
		t.Errorf("planned %q, want %q", planned, want)
	}
}

// Elements that only report (a plugin's listener gojm does not know, the
// Mailer Visualizer, the Prometheus Listener) never refuse a run: each is
// ignored with a warning, and --strict refuses it. A sampler gojm does not
// know is still refused.
func TestReportOnlyElements(t *testing.T) {
	reporters := []struct{ class, want string }{
		{"com.example.jmeter.FancyVisualizer", "com.example.jmeter.FancyVisualizer is a listener gojm does not have"},
		{"com.example.jmeter.PushResultCollector", "com.example.jmeter.PushResultCollector is a listener gojm does not have"},
		{"com.example.jmeter.SlackListener", "com.example.jmeter.SlackListener is a listener gojm does not have"},
		{"MailerResultCollector", "the Mailer Visualizer's e-mails are not sent"},
		{"com.github.johrstrom.listener.PrometheusListener", "the Prometheus Listener's metrics are not served"},
	}
	for _, r := range reporters {
		t.Run(r.class, func(t *testing.T) {
			el := fmt.Sprintf(`<%s testclass="%s" testname="Report"/><hashTree/>`, r.class, r.class)
			plan := xPlan("", xGroup("Users", groupOpts{}, xJava("one", 0, ""), el))
			p, err := compilePlanXML(t, plan, nil)
			if err != nil {
				t.Fatalf("an element that only reports refused the plan: %v", err)
			}
			if len(p.Warnings) != 1 || p.Warnings[0].Path != "P › Users › Report" || !strings.Contains(p.Warnings[0].Message, r.want) ||
				!strings.Contains(p.Warnings[0].Message, reportsOnly) {
				t.Errorf("warnings %q, want one of P › Users › Report saying %q", p.Warnings, r.want)
			}
			if st := elementStatus(p, "P › Users › Report"); st == nil || st.Status != Ignored {
				t.Errorf("status %+v, want ignored", st)
			}
			if got := labels(runPlanXML(t, plan, nil), ""); !slices.Equal(got, []string{"one"}) {
				t.Errorf("samples %q", got)
			}
			if _, err := compilePlanXMLOpts(t, plan, Options{Strict: true}); err == nil || !strings.Contains(err.Error(), r.want) {
				t.Errorf("with Strict: %v", err)
			}
		})
	}
	unknown := `<com.example.FooSampler testclass="com.example.FooSampler" testname="Foo"/><hashTree/>`
	if _, err := compilePlanXML(t, xPlan("", xGroup("Users", groupOpts{}, unknown)), nil); err == nil ||
		!strings.Contains(err.Error(), "unsupported element com.example.FooSampler") {
		t.Errorf("an unknown sampler: %v, want a refusal", err)
	}
}

// compileLogged compiles a plan written with the builders, its log (what
// the run warns of) into the buffer it returns.
func compileLogged(t *testing.T, plan string) (*Plan, *bytes.Buffer) {
	t.Helper()
	src, err := jmx.Read(strings.NewReader(plan), "test.jmx", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	p, err := compile(src, Options{Log: slog.New(slog.NewTextHandler(&log, nil))}, testElements)
	if err != nil {
		t.Fatal(err)
	}
	return p, &log
}

func elementStatus(p *Plan, path string) *ElementStatus {
	for i := range p.Elements {
		if p.Elements[i].Path == path {
			return &p.Elements[i]
		}
	}
	return nil
}

// A duration known only at run time (a property a setUp group sets) is
// told of when the group starts, in the run's log.
func TestSchedulerDurationAtRunTime(t *testing.T) {
	plan := xPlan("",
		xGroup("Set", groupOpts{kind: "SetupThreadGroup"}, xJava("${__setProperty(d,0)}set", 0, "")),
		strings.Replace(xGroup("Timed", groupOpts{scheduler: true}, xJava("timed", 0, "")),
			`<stringProp name="ThreadGroup.duration">0</stringProp>`, `<stringProp name="ThreadGroup.duration">${__P(d,5)}</stringProp>`, 1),
	)
	p, log := compileLogged(t, plan)
	if len(p.Warnings) != 0 {
		t.Errorf("warned as the plan compiled: %q", p.Warnings)
	}
	sink := &memSink{}
	if err := Start(context.Background(), p, sink, RunOptions{}).Wait(); err != nil {
		t.Fatal(err)
	}
	if got := labels(sink, ""); !slices.Equal(got, []string{"set"}) {
		t.Errorf("samples %q, want the setUp group's only", got)
	}
	if !strings.Contains(log.String(), "P › Timed: the scheduler's duration is 0 s") {
		t.Errorf("log %q does not name the group and its duration", log.String())
	}
}

// A Thread Group's number that is not a whole number is 0, as JMeter's
// getPropertyAsInt reads it: threads from an unset ${threads} start no
// user, ramp-up "0.5" starts every user at once; each with one warning as
// the plan compiles. A number known only at run time (a property a setUp
// group sets) is told of when the group starts, in the run's log.
func TestNumbersReadAsZero(t *testing.T) {
	withThreads := func(name, threads string, o groupOpts, kid string) string {
		return strings.Replace(xGroup(name, o, kid), `<stringProp name="ThreadGroup.num_threads">1</stringProp>`,
			`<stringProp name="ThreadGroup.num_threads">`+threads+`</stringProp>`, 1)
	}
	half := strings.Replace(xGroup("Half", groupOpts{threads: 2}, xJava("half", 0, "")),
		`<stringProp name="ThreadGroup.ramp_time">0</stringProp>`, `<stringProp name="ThreadGroup.ramp_time">0.5</stringProp>`, 1)
	plan := xPlan("",
		xGroup("Set", groupOpts{kind: "SetupThreadGroup"}, xJava("${__setProperty(n,abc)}set", 0, "")),
		withThreads("Unset", "${threads}", groupOpts{}, xJava("unset", 0, "")),
		half,
		withThreads("Late", "${__P(n,2)}", groupOpts{}, xJava("late", 0, "")),
	)
	p, log := compileLogged(t, plan)
	var warned []string
	for _, w := range p.Warnings {
		warned = append(warned, w.String())
	}
	want := []string{
		`P › Unset: number of threads "${threads}" is not a whole number: JMeter reads it as 0, so the group starts no user; define the variable threads (User Defined Variables) or write the number in the plan`,
		`P › Half: ramp-up period "0.5" is not a whole number: JMeter reads it as 0, so every user starts at once; write a whole number in the plan`,
	}
	if !slices.Equal(warned, want) {
		t.Errorf("warnings\n%q\nwant\n%q", warned, want)
	}
	sink := &memSink{}
	if err := Start(context.Background(), p, sink, RunOptions{}).Wait(); err != nil {
		t.Fatal(err)
	}
	if got, want := sorted(labels(sink, "")), []string{"half", "half", "set"}; !slices.Equal(got, want) {
		t.Errorf("samples %q, want %q", got, want)
	}
	if want := `P › Late: number of threads "abc" (from ${__P(n,2)}) is not a whole number: JMeter reads it as 0, so the group starts no user; set it with -J n=N`; strings.Count(log.String(), "ramp-up period") != 0 ||
		!strings.Contains(log.String(), strings.ReplaceAll(want, `"`, `\"`)) {
		t.Errorf("the run's log does not say %q, or warns again of what compiling warned of:\n%s", want, log.String())
	}
	if _, err := compilePlanXMLOpts(t, plan, Options{Strict: true}); err == nil || !strings.Contains(err.Error(), "JMeter reads it as 0") {
		t.Errorf("with Strict: %v", err)
	}
}

// Script elements whose file is not there run as in JMeter: a JSR223
// Sampler's sample fails with JMeter's ScriptException (500), the pre- and
// post-processors around a request do nothing and the request is sent;
// one warning each as the plan compiles.
func TestScriptFileMissingRuns(t *testing.T) {
	s := newFlowServer(t)
	host, port := s.hostPort()
	get := func(name, path string, kids ...string) string {
		return xmlEl("HTTPSamplerProxy", name, sp("HTTPSampler.domain", host)+sp("HTTPSampler.port", port)+
			sp("HTTPSampler.path", path)+sp("HTTPSampler.method", "GET"), kids...)
	}
	missing := func(class, name string) string {
		return xmlEl(class, name, sp("scriptLanguage", "groovy")+sp("filename", "scripts/"+name+".groovy"))
	}
	plan := xPlan("", xGroup("G", groupOpts{},
		get("a", "/a", missing("JSR223PreProcessor", "pre"), missing("JSR223PostProcessor", "post")),
		missing("JSR223Sampler", "sampler"),
		get("b", "/b"),
	))
	p, err := compilePlanXML(t, plan, nil)
	if err != nil {
		t.Fatal(err)
	}
	var warned []string
	for _, w := range p.Warnings {
		warned = append(warned, w.Path)
	}
	if want := []string{"P › G › a › pre", "P › G › a › post", "P › G › sampler"}; !slices.Equal(warned, want) {
		t.Errorf("warnings of %q, want %q: %q", warned, want, p.Warnings)
	}
	sink := &memSink{}
	if err := Start(context.Background(), p, sink, RunOptions{}).Wait(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range sink.samples {
		got = append(got, sampleLine(x.Label, x.Success, x.Code, x.Message))
	}
	if len(got) != 3 || got[0] != sampleLine("a", true, "200", "OK") || got[2] != sampleLine("b", true, "200", "OK") ||
		!strings.HasPrefix(got[1], sampleLine("sampler", false, "500", "javax.script.ScriptException: Script file '")) ||
		!strings.HasSuffix(got[1], "/scripts/sampler.groovy' does not exist or is unreadable for element:sampler") {
		t.Errorf("samples:\n%s", strings.Join(got, "\n"))
	}
	if reqs := s.reqs[""]; !slices.Equal(reqs, []string{"GET /a", "GET /b"}) {
		t.Errorf("requests %q", reqs)
	}
}

// A file without a Test Plan element (JMeter's template of a lone JSR223
// Sampler) is refused, as JMeter 5.6's non-GUI mode refuses it ("Could not
// find the TestPlan class!").
func TestNoTestPlanRefused(t *testing.T) {
	plan := `<?xml version="1.0" encoding="UTF-8"?><jmeterTestPlan version="1.2"><hashTree>` +
		xmlEl("JSR223Sampler", "alone", sp("scriptLanguage", "groovy")+sp("script", "1")) + `</hashTree></jmeterTestPlan>`
	_, err := compilePlanXML(t, plan, nil)
	if err == nil || !strings.Contains(err.Error(), `the file has no Test Plan element (is it a test fragment?); JMeter 5.6 refuses it too ("Could not find the TestPlan class!")`) {
		t.Errorf("error %v", err)
	}
}
