package scripting

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gojm/gojm/engine/internal/assert"
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/elementtest"
	"github.com/gojm/gojm/engine/internal/function"
	"github.com/gojm/gojm/jmx"
)

// Script elements on the unit harness: each element built in memory,
// compiled with a fresh compiler and run on a test virtual user.

func scriptVUFor(c *elementtest.Builder) *element.VU { return c.VU(1) }

// templates compiles templates with the script functions and the
// function package's.
func templates(c *elementtest.Builder) *function.Compiler {
	return function.NewCompiler(c.Plan(), function.Table(map[string]function.Def{
		"__groovy":    {Min: 1, Max: 2, Build: Groovy},
		"__BeanShell": {Min: 1, Max: 2, Build: BeanShell},
	}))
}

// sampleWith builds a script sampler and makes one sample with a new
// virtual user holding vars.
func sampleWith(t *testing.T, c *elementtest.Builder, vars map[string]string, e *jmx.Element) (*element.Result, *element.VU) {
	t.Helper()
	fn, err := BuildSampler(c, e, element.InScope{})
	if err != nil || len(c.Errs) > 0 {
		t.Fatalf("build: %v %v", err, c.Errs)
	}
	vu := scriptVUFor(c)
	for k, v := range vars {
		vu.Vars.Put(k, v)
	}
	r := &element.Result{}
	r.Label = e.Name
	fn.Sample(vu, r)
	return r, vu
}

func TestScriptSamplers(t *testing.T) {
	for _, tc := range []struct {
		name                string
		e                   *jmx.Element
		vars                map[string]string
		success             bool
		code, message, body string
		label               string
		wantVar, wantVarVal string
	}{
		{name: "groovy value is the response", e: elementtest.El("JSR223Sampler", "scriptLanguage", "groovy", "script", "def x = 6\nx * 7"),
			success: true, code: "200", message: "OK", body: "42"},
		{name: "response data set wins", e: elementtest.El("JSR223Sampler", "scriptLanguage", "groovy", "script", `SampleResult.setResponseData("set", "UTF-8"); "returned"`),
			success: true, code: "200", message: "OK", body: "set"},
		{name: "groovy exception fails the sample", e: elementtest.El("JSR223Sampler", "scriptLanguage", "groovy", "script", "vars.put('a', 'b')\nnoSuchName + 1"),
			success: false, code: "500", message: "javax.script.ScriptException: groovy.lang.MissingPropertyException: No such property: noSuchName for class: Script1",
			wantVar: "a", wantVarVal: "b"},
		{name: "sample result calls", e: elementtest.El("JSR223Sampler", "script", `SampleResult.setSuccessful(false); SampleResult.setResponseCode("404"); SampleResult.setResponseMessage("nope"); SampleResult.setSampleLabel("renamed")`),
			success: false, code: "404", message: "nope", label: "renamed"},
		{name: "empty JSR223 script is an error", e: elementtest.El("JSR223Sampler", "scriptLanguage", "groovy", "script", "  "),
			success: false, code: "500", message: "javax.script.ScriptException: Both script file and script text are empty for element:JSR223Sampler"},
		{name: "beanshell variables", e: elementtest.El("BeanShellSampler", "BeanShellSampler.query", `IsSuccess = false; ResponseCode = "503"; ResponseMessage = "busy"; "body"`),
			success: false, code: "503", message: "busy", body: "body"},
		{name: "beanshell value", e: elementtest.El("BeanShellSampler", "BeanShellSampler.query", "12*12"), success: true, code: "200", message: "OK", body: "144"},
		{name: "empty beanshell script runs", e: elementtest.El("BeanShellSampler", "BeanShellSampler.query", ""), success: true, code: "200", message: "OK"},
		{name: "beanshell error", e: elementtest.El("BeanShellSampler", "BeanShellSampler.query", `Integer.parseInt("x");`),
			success: false, code: "500", message: `bsh.TargetError: java.lang.NumberFormatException: For input string: "x"`},
		{name: "bsf beanshell", e: elementtest.El("BSFSampler", "scriptLanguage", "beanshell", "script", "12*12"), success: true, code: "200", message: "OK", body: "144"},
		{name: "javascript", e: elementtest.El("JSR223Sampler", "scriptLanguage", "javascript", "script", `vars.put("n", 5); vars.get("in") + (6 * 7)`),
			vars: map[string]string{"in": "x"}, success: true, code: "200", message: "OK", body: "x42", wantVar: "n", wantVarVal: "5"},
		{name: "jexl", e: elementtest.El("JSR223Sampler", "scriptLanguage", "jexl2", "script", "11*11"), success: true, code: "200", message: "OK", body: "121"},
		{name: "script text substituted", e: elementtest.El("JSR223Sampler", "script", `vars.put("y", "${x}-" + 1); "${x}"`),
			vars: map[string]string{"x": "abc"}, success: true, code: "200", message: "OK", body: "abc", wantVar: "y", wantVarVal: "abc-1"},
		{name: "args and label", e: elementtest.El("JSR223Sampler", "parameters", "one ${x}", "script", `args[1] + "|" + Parameters + "|" + Label`),
			vars: map[string]string{"x": "two"}, success: true, code: "200", message: "OK", body: "two|one two|JSR223Sampler"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := elementtest.New(nil, "", "")
			r, vu := sampleWith(t, c, tc.vars, tc.e)
			if r.Success != tc.success || r.Code != tc.code || r.Message != tc.message || string(r.Body) != tc.body {
				t.Errorf("sample %v %q %q body %q, want %v %q %q body %q", r.Success, r.Code, r.Message, r.Body, tc.success, tc.code, tc.message, tc.body)
			}
			if tc.label != "" && r.Label != tc.label {
				t.Errorf("label %q, want %q", r.Label, tc.label)
			}
			if r.Bytes != int64(len(r.Body)) {
				t.Errorf("bytes %d for a body of %d", r.Bytes, len(r.Body))
			}
			if tc.wantVar != "" {
				if v, _ := vu.Vars.Get(tc.wantVar); v != tc.wantVarVal {
					t.Errorf("%s = %q, want %q", tc.wantVar, v, tc.wantVarVal)
				}
			}
		})
	}
}

func TestScriptTextChangesBetweenRuns(t *testing.T) {
	c := elementtest.New(nil, "", "")
	fn, err := BuildSampler(c, elementtest.El("JSR223Sampler", "script", `"${x}".toUpperCase()`), element.InScope{})
	if err != nil {
		t.Fatal(err)
	}
	vu := scriptVUFor(c)
	for _, x := range []string{"a", "b", "c"} {
		vu.Vars.Put("x", x)
		r := &element.Result{}
		fn.Sample(vu, r)
		if string(r.Body) != strings.ToUpper(x) {
			t.Errorf("x=%s: body %q", x, r.Body)
		}
	}
}

// A ${…} inside a string literal is filled in at each run without
// compiling again; a value that would not read as plain text there, or a
// ${…} in the code, makes the text compiled as JMeter would run it.
func TestScriptHoles(t *testing.T) {
	c := elementtest.New(nil, "", "")
	e := elementtest.El("JSR223PreProcessor", "script", `vars.put("q", "id=${v}"); vars.put("n", "${__intSum(${v},1)}")`)
	s, err := compileScript(c, e, famJSR223)
	if err != nil || s.holeProg == nil || s.prog != nil {
		t.Fatalf("compiled %v, %+v: want a program with holes", err, s)
	}
	code, err := compileScript(c, elementtest.El("JSR223PreProcessor", "script", `vars.put("n", (${v} + 1).toString())`), famJSR223)
	if err != nil || code.holeProg != nil {
		t.Fatalf("a ${…} in code: %v %+v", err, code)
	}
	for _, tc := range []struct{ v, q, n, n2 string }{
		{"41", "id=41", "42", "42"},
		{"7", "id=7", "8", "8"},
	} {
		vu := scriptVUFor(c)
		vu.Vars.Put("v", tc.v)
		(&scriptPre{s}).PreProcess(vu)
		q, _ := vu.Vars.Get("q")
		n, _ := vu.Vars.Get("n")
		if q != tc.q || n != tc.n {
			t.Errorf("v=%s: q=%q n=%q", tc.v, q, n)
		}
		(&scriptPre{code}).PreProcess(vu)
		if n, _ := vu.Vars.Get("n"); n != tc.n2 {
			t.Errorf("v=%s: code hole n=%q", tc.v, n)
		}
	}
	// a value with a quote ends the literal: JMeter's text no longer parses
	vu := scriptVUFor(c)
	vu.Vars.Put("v", `a"b`)
	env := s.sp.state(vu).newEnv(s.sp, "x", "")
	if _, err := s.run(vu, env); err == nil || !strings.Contains(err.Error(), "cannot translate") {
		t.Errorf("quote in the value: %v", err)
	}
	vu.Vars.Put("v", `a$b`)
	if _, err := s.run(vu, env); err == nil {
		t.Errorf("a $ in a GString's value: no error")
	}
	vu.Vars.Put("v", `a	b`)
	env = s.sp.state(vu).newEnv(s.sp, "x", "")
	if _, err := s.run(vu, env); err != nil {
		t.Fatal(err)
	}
	if q, _ := vu.Vars.Get("q"); q != "id=a	b" {
		t.Errorf("backslash escape in the value: q=%q", q)
	}
}

func TestScriptProcessors(t *testing.T) {
	c := elementtest.New(nil, "", "")
	pre, err := BuildPre(c, elementtest.El("JSR223PreProcessor", "script", `vars.put("token", "t-" + vars.getIteration())`))
	if err != nil {
		t.Fatal(err)
	}
	post, err := BuildPost(c, elementtest.El("JSR223PostProcessor", "script",
		`def body = prev.getResponseDataAsString()
vars.put("len", body.length().toString())
if (body.contains("error")) { prev.setSuccessful(false); prev.setResponseMessage("found error") }`))
	if err != nil {
		t.Fatal(err)
	}
	bpost, err := BuildPost(c, elementtest.El("BeanShellPostProcessor", "script", `vars.put("data", new String(data));`))
	if err != nil {
		t.Fatal(err)
	}
	vu := scriptVUFor(c)
	vu.Iteration = 3
	pre.PreProcess(vu)
	if v, _ := vu.Vars.Get("token"); v != "t-3" {
		t.Errorf("token %q", v)
	}
	r := elementtest.Response("an error here")
	post.PostProcess(vu, r)
	bpost.PostProcess(vu, r)
	if v, _ := vu.Vars.Get("len"); v != "13" {
		t.Errorf("len %q", v)
	}
	if v, _ := vu.Vars.Get("data"); v != "an error here" {
		t.Errorf("data %q", v)
	}
	if r.Success || r.Message != "found error" {
		t.Errorf("sample %v %q: the post-processor's changes are lost", r.Success, r.Message)
	}
}

func TestScriptAssertions(t *testing.T) {
	for _, tc := range []struct {
		name     string
		e        *jmx.Element
		body     string
		success  bool
		assertNm string
		failure  bool
		isError  bool
		msg      string
	}{
		{"passes", elementtest.El("JSR223Assertion", "script", `if (!prev.getResponseDataAsString().contains("ok")) { AssertionResult.setFailure(true) }`),
			"ok", true, "JSR223Assertion", false, false, ""},
		{"fails with a message", elementtest.El("JSR223Assertion", "script", `AssertionResult.setFailure(true); AssertionResult.setFailureMessage("no ok in " + SampleResult.getSampleLabel())`),
			"ko", false, "JSR223Assertion", true, false, "no ok in req"},
		{"groovy assert", elementtest.El("JSR223Assertion", "script", `assert prev.getResponseCode() == "201"`),
			"", false, assertionFailedName, true, false,
			"org.codehaus.groovy.runtime.powerassert.PowerAssertionError: assert prev.getResponseCode() == \"201\"\n       |    |                 |\n       req  200               false"},
		{"script error", elementtest.El("JSR223Assertion", "script", `null.size()`),
			"", false, "JSR223Assertion", false, true, "javax.script.ScriptException: java.lang.NullPointerException: Cannot invoke method size() on null object"},
		{"beanshell", elementtest.El("BeanShellAssertion", "BeanShellAssertion.query", `if (!ResponseCode.equals("404")) { Failure = true; FailureMessage = "code " + ResponseCode; }`),
			"", false, "BeanShellAssertion", true, false, "code 200"},
		{"beanshell passes", elementtest.El("BeanShellAssertion", "BeanShellAssertion.query", `Failure = false;`),
			"", true, "BeanShellAssertion", false, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := elementtest.New(nil, "", "")
			a, err := BuildAssertion(c, tc.e)
			if err != nil || len(c.Errs) > 0 {
				t.Fatal(err, c.Errs)
			}
			vu := scriptVUFor(c)
			r := elementtest.Response(tc.body)
			a.Assert(vu, r)
			if r.Success != tc.success || len(r.Assertions) != 1 {
				t.Fatalf("success %v, %d assertion results", r.Success, len(r.Assertions))
			}
			got := r.Assertions[0]
			if got.Name != tc.assertNm || got.Failure != tc.failure || got.Error != tc.isError || got.Message != tc.msg {
				t.Errorf("assertion %+v\nwant name %q failure %v error %v message %q", got, tc.assertNm, tc.failure, tc.isError, tc.msg)
			}
			// JMeter's first failure message: BeanShell sets one even when passing
			wantSet := tc.msg != "" || strings.HasPrefix(tc.e.Class, "BeanShell")
			if r.MsgSet != wantSet {
				t.Errorf("failure message set %v, want %v", r.MsgSet, wantSet)
			}
		})
	}
}

func TestScriptTimers(t *testing.T) {
	for _, tc := range []struct {
		e    *jmx.Element
		want time.Duration
	}{
		{elementtest.El("JSR223Timer", "script", "100 + 150"), 250 * time.Millisecond},
		{elementtest.El("JSR223Timer", "script", "vars.put('a', 'b')"), 0},
		{elementtest.El("JSR223Timer", "script", "'x'"), 0},
		{elementtest.El("BeanShellTimer", "script", `"0x10"`), 16 * time.Millisecond},
		{elementtest.El("BeanShellTimer", "script", `1000`), time.Second},
	} {
		c := elementtest.New(nil, "", "")
		tm, err := BuildTimer(c, tc.e)
		if err != nil {
			t.Fatal(err)
		}
		vu := scriptVUFor(c)
		if got := tm.Delay(vu); got != tc.want {
			t.Errorf("%s %q: delay %v, want %v", tc.e.Class, tc.e.Str("script"), got, tc.want)
		}
	}
}

func TestScriptListenerSeesTheFinalSample(t *testing.T) {
	c := elementtest.New(nil, "", "")
	var out bytes.Buffer
	scriptsOf(c.Plan()).out = &out
	l, err := BuildListener(c, elementtest.El("JSR223Listener", "script",
		`def r = sampleEvent.getResult()
OUT.println(r.getSampleLabel() + " " + r.isSuccessful() + " " + sampleResult.getFirstAssertionFailureMessage())`))
	if err != nil {
		t.Fatal(err)
	}
	vu := scriptVUFor(c)
	r := elementtest.Response("x")
	recordVerdict(r, "A", assert.Failed("boom"))
	l.SampleOccurred(vu, r)
	if got := out.String(); got != "req false boom\n" {
		t.Errorf("listener printed %q", got)
	}
}

func TestScriptFromFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	// a file's text is run as it is: no ${…} replacement
	if err := os.WriteFile(filepath.Join(dir, "scripts", "hello.groovy"), []byte(`"from file ${1 + 1} " + vars.get("x")`), 0o644); err != nil {
		t.Fatal(err)
	}
	c := elementtest.New(nil, "", dir)
	r, _ := sampleWith(t, c, map[string]string{"x": "X"}, elementtest.El("JSR223Sampler", "filename", "scripts/hello.groovy", "script", "ignored"))
	if string(r.Body) != "from file 2 X" {
		t.Errorf("body %q", r.Body)
	}
}

// A script file that is not there runs as in JMeter: the element's engine
// throws each time it runs, so a sampler's sample fails with JMeter's
// exception as its message (code 500) and a pre-processor does nothing;
// one warning as the plan compiles.
func TestScriptFileMissing(t *testing.T) {
	dir := t.TempDir()
	abs := filepath.Join(dir, "scripts", "none.groovy")
	for _, tc := range []struct {
		e          *jmx.Element
		message    string
		warnEffect string
	}{
		{elementtest.El("JSR223Sampler", "filename", "scripts/none.groovy", "script", "ignored"),
			"javax.script.ScriptException: Script file '" + abs + "' does not exist or is unreadable for element:JSR223Sampler",
			"each sample fails with JMeter's message (code 500)"},
		{elementtest.El("BeanShellSampler", "BeanShellSampler.filename", "scripts/none.bsh"),
			"org.apache.jorphan.util.JMeterException: Error invoking bsh method: source\tscripts/none.bsh (No such file or directory)",
			"each sample fails with JMeter's message (code 500)"},
		{elementtest.El("BSFSampler", "scriptLanguage", "javascript", "filename", "scripts/none.js"),
			"java.io.FileNotFoundException: scripts/none.js (No such file or directory)",
			"each sample fails with JMeter's message (code 500)"},
	} {
		c := elementtest.New(nil, "", dir)
		r, _ := sampleWith(t, c, nil, tc.e)
		if r.Success || r.Code != "500" || r.Message != tc.message {
			t.Errorf("%s: sample %v %q %q, want a failure 500 %q", tc.e.Class, r.Success, r.Code, r.Message, tc.message)
		}
		if len(c.Refused) != 0 || len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "cannot be read") ||
			!strings.Contains(c.Warnings[0], tc.warnEffect) {
			t.Errorf("%s: refused %q, warnings %q", tc.e.Class, c.Refused, c.Warnings)
		}
	}
	c := elementtest.New(nil, "", dir)
	pre, err := BuildPre(c, elementtest.El("JSR223PreProcessor", "filename", "scripts/none.groovy"))
	if err != nil || pre == nil {
		t.Fatalf("build: %v", err)
	}
	vu := scriptVUFor(c)
	vu.Vars.Put("x", "before")
	pre.PreProcess(vu)
	if got, _ := vu.Vars.Get("x"); got != "before" {
		t.Errorf("the pre-processor changed x to %q", got)
	}
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "it logs the error and does nothing") {
		t.Errorf("pre-processor warnings %q", c.Warnings)
	}
}

func TestScriptRefusals(t *testing.T) {
	for _, tc := range []struct {
		e     *jmx.Element
		props map[string]string
		want  string
	}{
		{elementtest.El("JSR223Sampler", "script", "import java.sql.DriverManager\nDriverManager.getConnection('x')"), nil,
			"JSR223Sampler: cannot translate its Groovy script, line 2: the class java.sql.DriverManager, which needs a JVM"},
		{elementtest.El("BeanShellSampler", "BeanShellSampler.query", `new java.io.FileReader("x").read();`), nil, "the class java.io.FileReader, which needs a JVM"},
		{elementtest.El("JSR223Sampler", "scriptLanguage", "python", "script", "1"), nil, "the script language python"},
		{elementtest.El("JSR223Sampler", "script", "prev.getResponseCode()"), nil, "a sampler script reading prev"},
		{elementtest.El("JSR223Sampler", "script", `def x = "${a}"; java.nio.file.Paths.get(x)`), nil, "the class java.nio.file.Paths"},
		{elementtest.El("JSR223Sampler", "script", "1"), map[string]string{NoScriptsProperty: "true"}, "scripts are turned off (--no-scripts)"},
	} {
		c := elementtest.New(tc.props, "", "")
		fn, err := BuildSampler(c, tc.e, element.InScope{})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Refused) != 1 || !strings.Contains(c.Refused[0], tc.want) || len(c.Errs) != 0 {
			t.Errorf("%q: refused %q, errors %v; want one refusal with %q", tc.e.Str("script"), c.Refused, c.Errs, tc.want)
			continue
		}
		// skipped (--skip-unsupported), the sampler runs and makes no sample
		r := &element.Result{}
		fn.Sample(scriptVUFor(c), r)
		if !r.None {
			t.Errorf("a refused script sampler makes a sample")
		}
	}
}

func TestScriptObjectsStayWithTheUser(t *testing.T) {
	c := elementtest.New(nil, "", "")
	put, _ := BuildPre(c, elementtest.El("JSR223PreProcessor", "script", `vars.putObject("list", [1, 2]); props.put("count", 5)`))
	add, _ := BuildPre(c, elementtest.El("JSR223PreProcessor", "script", `def l = vars.getObject("list"); l << l.size() + 1; props.put("count", props.get("count") + 1)`))
	read, _ := BuildPre(c, elementtest.El("JSR223PreProcessor", "script", `vars.put("sum", vars.getObject("list").sum().toString()); vars.put("n", props.get("count").toString())`))
	if len(c.Errs) > 0 {
		t.Fatal(c.Errs)
	}
	vu := scriptVUFor(c)
	put.PreProcess(vu)
	add.PreProcess(vu)
	add.PreProcess(vu)
	read.PreProcess(vu)
	if v, _ := vu.Vars.Get("sum"); v != "10" {
		t.Errorf("sum %q, want 10: the object's changes are lost between elements", v)
	}
	if v, _ := vu.Vars.Get("list"); v != "[1, 2, 3, 4]" {
		t.Errorf("${list} %q, want the list's Java text", v)
	}
	if v, _ := vu.Vars.Get("n"); v != "7" {
		t.Errorf("n %q, want 7", v)
	}
	// a non-string property is not a JMeter property string: __P does not see it
	if _, ok := c.Plan().Props.Get("count"); ok {
		t.Errorf("props.put of a number made a string property")
	}
	// another virtual user sees the property, not the variable
	other := scriptVUFor(c)
	other.Vars = element.NewVars(c.Plan().Symbols())
	read2, _ := BuildPre(c, elementtest.El("JSR223PreProcessor", "script", `vars.put("n", props.get("count").toString()); vars.put("l", String.valueOf(vars.getObject("list")))`))
	read2.PreProcess(other)
	if n, _ := other.Vars.Get("n"); n != "7" {
		t.Errorf("other user's n %q", n)
	}
	if l, _ := other.Vars.Get("l"); l != "null" {
		t.Errorf("other user's list %q, want null", l)
	}
}

func TestScriptTimeout(t *testing.T) {
	c := elementtest.New(map[string]string{ScriptTimeoutProperty: "50"}, "", "")
	r, _ := sampleWith(t, c, nil, elementtest.El("JSR223Sampler", "script", "while (true) { }"))
	if r.Success || r.Code != "500" || !strings.Contains(r.Message, "ran longer than 50ms and was stopped") {
		t.Errorf("sample %v %q %q", r.Success, r.Code, r.Message)
	}
	// the pooled runtime is usable again
	r, _ = sampleWith(t, c, nil, elementtest.El("JSR223Sampler", "script", "try { 1 + 1 } catch (e) { 0 }"))
	if !r.Success || string(r.Body) != "2" {
		t.Errorf("after a timeout: %v %q %q", r.Success, r.Message, r.Body)
	}
	// a sleep past the bound is cut short and fails the script, and no
	// catch block can keep it
	r, _ = sampleWith(t, c, nil, elementtest.El("JSR223Sampler", "script", "try { Thread.sleep(60000) } catch (Throwable e) { 'caught' }"))
	if r.Success || !strings.Contains(r.Message, "ran longer than 50ms") {
		t.Errorf("sleeping script: %v %q %q", r.Success, r.Message, r.Body)
	}
}

func TestScriptFunctions(t *testing.T) {
	c := elementtest.New(nil, "", "")
	for _, tc := range []struct{ src, want string }{
		{`${__groovy(vars.get("a") + 1,res)}`, "x1"},
		{`${__groovy(threadName)}`, "TG 1-1"},
		{`${__BeanShell(10 / 60 * 15 + 1)}`, "1"},
		{`${__BeanShell(Math.round(${n} * 0.7 / 60 * 15 + 1))}`, "10"},
		{`${__groovy(null)}`, ""},
		{`${__groovy(no.such.thing.here)}`, ""},
	} {
		tpl, err := templates(c).Compile(tc.src)
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		vu := scriptVUFor(c)
		vu.Vars.Put("a", "x")
		vu.Vars.Put("n", "50")
		if got := tpl.Eval(vu); got != tc.want {
			t.Errorf("%s = %q, want %q", tc.src, got, tc.want)
		}
		if tc.want == "x1" {
			if v, _ := vu.Vars.Get("res"); v != "x1" {
				t.Errorf("res %q", v)
			}
		}
	}
	c2 := elementtest.New(map[string]string{NoScriptsProperty: "true"}, "", "")
	if _, err := templates(c2).Compile("${__groovy(1)}"); err == nil || !strings.Contains(err.Error(), "--no-scripts") {
		t.Errorf("__groovy with --no-scripts: %v", err)
	}
}

// Many virtual users run scripts at once on the pooled runtimes; each
// keeps its own variables and objects.
func TestScriptsConcurrently(t *testing.T) {
	c := elementtest.New(nil, "", "")
	pre, err := BuildPre(c, elementtest.El("JSR223PreProcessor", "script",
		`def n = (vars.get("n") ?: "0").toInteger() + 1
vars.put("n", n.toString())
def l = vars.getObject("seen") ?: []
l << n
vars.putObject("seen", l)`))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	const users, runs = 8, 50
	vus := make([]*element.VU, users)
	for i := range vus {
		vus[i] = scriptVUFor(c)
		vus[i].Vars = element.NewVars(c.Plan().Symbols())
		wg.Add(1)
		go func(vu *element.VU) {
			defer wg.Done()
			for range runs {
				pre.PreProcess(vu)
			}
		}(vus[i])
	}
	wg.Wait()
	for i, vu := range vus {
		if n, _ := vu.Vars.Get("n"); n != "50" {
			t.Errorf("user %d: n = %q", i, n)
		}
		if s, _ := vu.Vars.Get("seen"); !strings.HasSuffix(s, ", 49, 50]") {
			t.Errorf("user %d: seen = %q", i, s)
		}
	}
}

// The script functions refuse, at compile time, a script gojm cannot run.
func TestScriptFunctionRefusals(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"${__groovy(new FileReader('x').read())}", "the class FileReader, which needs a JVM"},
		{"${__BeanShell(System.exit(0))}", "System.exit"},
	} {
		_, err := templates(elementtest.New(nil, "", "")).Compile(tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one containing %q", tc.src, err, tc.want)
		}
	}
}

// FileServer's base directory is the plan's folder, absolute, as JMeter's
// is; plans build data file paths from it.
func TestScriptFileServerBaseDir(t *testing.T) {
	dir := t.TempDir()
	c := elementtest.New(nil, filepath.Join(dir, "plan.jmx"), dir)
	pre, err := BuildPre(c, elementtest.El("BeanShellPreProcessor", "script",
		`import org.apache.jmeter.services.FileServer;
vars.put("csv", FileServer.getFileServer().getBaseDir() + File.separator + "users.csv");`))
	if err != nil {
		t.Fatal(err)
	}
	vu := scriptVUFor(c)
	pre.PreProcess(vu)
	if v, _ := vu.Vars.Get("csv"); v != filepath.Join(dir, "users.csv") {
		t.Errorf("csv = %q, want %q", v, filepath.Join(dir, "users.csv"))
	}
}

// A BeanShell literal stays one object for the whole run, as Java's
// interned literals do, even when every program that held it has left
// its cache: here the literal comes from a text made at run time, whose
// program more than freshMax other texts push out before a collection.
func TestBshLiteralIdentityOutlivesItsProgram(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(*testing.T, *elementtest.Builder) func(*element.VU)
	}{
		{"element", func(t *testing.T, c *elementtest.Builder) func(*element.VU) {
			s, err := compileScript(c, elementtest.El("BeanShellPreProcessor", "script", `${code}`), famBeanShell)
			if err != nil || s.prog != nil || s.holeProg != nil {
				t.Fatalf("compiled %v, %+v: want a text made at run time", err, s)
			}
			return (&scriptPre{s}).PreProcess
		}},
		{"__BeanShell", func(t *testing.T, c *elementtest.Builder) func(*element.VU) {
			tpl, err := templates(c).Compile(`${__BeanShell(${code})}`)
			if err != nil {
				t.Fatal(err)
			}
			return func(vu *element.VU) { tpl.Eval(vu) }
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := elementtest.New(nil, "", "")
			run, vu := tc.run(t, c), scriptVUFor(c)
			do := func(code string) {
				vu.Vars.Put("code", code)
				run(vu)
			}
			do(`vars.put("k", "lit");`)
			for i := 0; i <= 2*freshMax; i++ {
				do(fmt.Sprintf(`vars.put("n", "%d");`, i))
			}
			runtime.GC()
			runtime.GC()
			do(`vars.put("r", "" + (vars.get("k") == "lit"));`)
			if r, _ := vu.Vars.Get("r"); r != "true" {
				t.Errorf("the stored literal == the same literal: %q, want true", r)
			}
		})
	}
}
