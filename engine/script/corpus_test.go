package script

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gojm/gojm/internal/files"
)

// standInServers start nothing, as the recorder's HttpMirrorServer.
type standInServers struct{}

func (standInServers) StartMirror(int) error { return nil }
func (standInServers) StopMirror(int)        {}

var update = flag.Bool("update", false, "rewrite the refusal goldens")

// The script tables: corpus.json (the Groovy and BeanShell scripts of the
// corpus plans, from testdata/script/gen) and semantics.json (one case
// per construct the translator covers). goldens.json holds what Groovy
// 2.4 and BeanShell 2.0 did with each case and the same stand-in
// bindings (testdata/script/record.sh). Every case gojm runs must do the
// same; every case it refuses must give the refusal in refusals.golden.

const tableDir = "../testdata/script"

type tableCase struct {
	ID         string      `json:"id"`
	Name       string      `json:"name"`
	Element    string      `json:"element"`
	Lang       string      `json:"lang"`
	Script     string      `json:"script"`
	Text       string      `json:"text"`
	Parameters string      `json:"parameters"`
	Count      int         `json:"count"`
	Plans      []string    `json:"plans"`
	Inputs     *caseInputs `json:"inputs"`
}

type caseInputs struct {
	Vars    map[string]string `json:"vars"`
	Objects map[string]any    `json:"objects"`
	Props   map[string]string `json:"props"`
	Prev    *prevInput        `json:"prev"`
	NoPrev  bool              `json:"noPrev"`
	Request *requestInput     `json:"request"`
	// Cookies, when set, are the user's Cookie Manager's: name, value,
	// domain, path, secure, expires each.
	Cookies [][]any `json:"cookies"`
}

// requestInput is the HTTP Request a pre-processor's script runs before.
type requestInput struct {
	Method, Protocol, Domain, Port, Path string
	NoHeaderManager                      bool
	Headers, Args                        [][2]string
}

// requestOutput is what a script left of the request.
type requestOutput struct {
	Method, Protocol, Domain, Port, Path string
	Headers, Args                        []string
}

type prevInput struct {
	Label, Code, Message, Body, RequestHeaders, ResponseHeaders, SamplerData, URL, ContentType string
	Redirect                                                                                   *string
	Success                                                                                    *bool
	Time, Bytes                                                                                int64
	Subresults                                                                                 int
	Assertions                                                                                 []struct {
		Name           string
		Failure, Error bool
		Message        string
	}
}

type golden struct {
	Vars      map[string]string `json:"vars"`
	Props     map[string]string `json:"props"`
	Value     *string           `json:"value"`
	Error     *struct{ Class, Message string }
	Log       []string           `json:"log"`
	Out       string             `json:"out"`
	Sample    map[string]any     `json:"sample"`
	Assertion map[string]any     `json:"assertion"`
	Globals   map[string]*string `json:"globals"`
	Slept     int64              `json:"slept"`
	Varying   []string           `json:"varying"`
	Request   *requestOutput     `json:"request"`
	Cookies   []string           `json:"cookies"` // the manager's cookies after the run, as Cookie.toString
	Stopped   bool               `json:"stopped"`
}

func loadTable(t *testing.T, name string) []tableCase {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(tableDir, name))
	if err != nil {
		t.Fatal(err)
	}
	var cs []tableCase
	if err := json.Unmarshal(b, &cs); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return cs
}

func loadGoldens(t *testing.T) map[string]golden {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(tableDir, "goldens.json"))
	if err != nil {
		t.Fatal(err)
	}
	g := map[string]golden{}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatalf("goldens.json: %v", err)
	}
	return g
}

func dialectOf(lang string) (Dialect, bool) {
	switch lang {
	case "groovy":
		return Groovy, true
	case "beanshell", "java":
		return BeanShell, true
	}
	return 0, false
}

func TestCorpusScripts(t *testing.T) {
	runTable(t, "corpus.json", "corpus-refusals.golden")
}

func TestSemanticsScripts(t *testing.T) {
	runTable(t, "semantics.json", "semantics-refusals.golden")
}

func runTable(t *testing.T, table, refusalsFile string) {
	cases := loadTable(t, table)
	goldens := loadGoldens(t)
	refusalsPath, err := filepath.Abs(filepath.Join(tableDir, refusalsFile))
	if err != nil {
		t.Fatal(err)
	}
	// The file cases write and read relative to the working folder, a
	// fresh one as in record.sh.
	t.Chdir(t.TempDir())
	var refusals []string
	ran, refused, direct := 0, 0, 0
	for _, c := range cases {
		d, ok := dialectOf(c.Lang)
		text := c.Text
		if text == "" {
			text = c.Script
		}
		if !ok || strings.TrimSpace(text) == "" {
			continue
		}
		p, err := Compile(text, d)
		if err != nil {
			var se *Error
			if !errors.As(err, &se) {
				t.Errorf("%s: %v", c.ID, err)
				continue
			}
			refused++
			kind := "refused"
			if !se.Refused {
				// a syntax error: the real interpreter must reject the script too
				kind = "syntax"
				if g, ok := goldens[c.ID]; ok && (g.Error == nil || !strings.HasPrefix(g.Error.Class, "org.codehaus.groovy.control.") && g.Error.Class != "bsh.ParseException") {
					t.Errorf("%s: gojm finds a syntax error (%v), the interpreter does not", c.ID, err)
				}
			}
			refusals = append(refusals, fmt.Sprintf("%s\t%s: %s", c.ID, kind, err))
			continue
		}
		ran++
		g, ok := goldens[c.ID]
		if !ok {
			t.Errorf("%s: no golden (run testdata/script/record.sh)", c.ID)
			continue
		}
		t.Run(c.ID, func(t *testing.T) { checkCase(t, c, d, p, g) })
		if p.Direct() {
			// the same case on the translation the direct path falls back to
			direct++
			q := *p
			q.direct = nil
			t.Run(c.ID+"/translated", func(t *testing.T) { checkCase(t, c, d, &q, g) })
		}
	}
	sort.Strings(refusals)
	got := strings.Join(refusals, "\n") + "\n"
	path := refusalsPath
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if string(want) != got {
		t.Errorf("refusals differ from %s (go test -update rewrites it):\n%s", refusalsFile, lineDiff(string(want), got))
	}
	t.Logf("%s: %d scripts run (%d on the direct path), %d refused", table, ran, direct, refused)
}

func lineDiff(want, got string) string {
	w := map[string]bool{}
	for _, l := range strings.Split(want, "\n") {
		w[l] = true
	}
	g := map[string]bool{}
	var b strings.Builder
	for _, l := range strings.Split(got, "\n") {
		g[l] = true
		if !w[l] {
			b.WriteString("+ " + l + "\n")
		}
	}
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			b.WriteString("- " + l + "\n")
		}
	}
	return b.String()
}

// envFor builds the bindings the recorder gives the case's element.
func envFor(c tableCase, h *testHost) *Env {
	in := c.Inputs
	if in == nil {
		in = &caseInputs{}
	}
	for k, v := range in.Vars {
		h.vars[k] = v
	}
	for k, v := range in.Objects {
		h.PutVarObject(k, Object{Enc: encodeJSON(v), Text: javaText(v)})
	}
	for k, v := range in.Props {
		h.props[k] = v
	}
	var prev *Result
	if !in.NoPrev {
		prev = &Result{Label: "prev", Code: "200", Message: "OK", Success: true, ThreadName: "Thread Group 1-1", DataType: "text",
			Start: 1700000000000, End: 1700000000000}
		if p := in.Prev; p != nil {
			prev = &Result{Label: p.Label, Code: p.Code, Message: p.Message, Success: p.Success == nil || *p.Success,
				Body: []byte(p.Body), RequestHeaders: p.RequestHeaders, ResponseHeaders: p.ResponseHeaders,
				SamplerData: p.SamplerData, URL: p.URL, Time: p.Time, Bytes: p.Bytes, ContentType: p.ContentType,
				ThreadName: "Thread Group 1-1", DataType: "text", Start: 1700000000000, End: 1700000000000}
			if p.Redirect != nil {
				prev.Redirect = *p.Redirect
			}
			for i := 0; i < p.Subresults; i++ {
				prev.Subs = append(prev.Subs, &Result{Label: prev.Label + "-" + strconv.Itoa(i), Code: "302", Success: true})
			}
			for _, a := range p.Assertions {
				prev.Assertions = append(prev.Assertions, AssertionInfo{Name: a.Name, Failure: a.Failure, Error: a.Error, Message: a.Message})
			}
		}
	}
	env := &Env{Host: h, Prev: prev, Label: c.Name, Parameters: c.Parameters, Servers: standInServers{}}
	if wd, err := os.Getwd(); err == nil {
		env.Files = files.New(files.Options{Dir: wd})
	}
	if q := in.Request; q != nil {
		method := q.Method
		if method == "" {
			method = "GET"
		}
		rq := &testRequest{fields: map[string]string{"method": method, "protocol": q.Protocol, "domain": q.Domain,
			"port": q.Port, "path": q.Path}, headerManager: !q.NoHeaderManager}
		for _, hd := range q.Headers {
			rq.headers = append(rq.headers, Header{Name: hd[0], Value: hd[1]})
		}
		for _, a := range q.Args {
			rq.args = append(rq.args, Arg{Name: a[0], Value: a[1], Meta: "=", Encode: true, ContentType: "text/plain"})
		}
		env.Request = rq
	}
	if in.Cookies != nil {
		env.Cookies = newTestJar(in.Cookies)
	}
	switch c.Element {
	case "JSR223Sampler", "BSFSampler", "BeanShellSampler":
		env.Current = &Result{Label: c.Name, Code: "200", Message: "OK", Success: true, DataType: "text"}
		if c.Element == "BeanShellSampler" {
			env.Globals = []Global{{"ResponseCode", "200"}, {"ResponseMessage", "OK"}, {"IsSuccess", true}}
		}
	case "JSR223Assertion", "BeanShellAssertion", "BSFAssertion":
		if c.Element == "BeanShellAssertion" {
			env.Globals = []Global{{"Failure", false}, {"FailureMessage", ""}, {"ResponseData", prev.Body},
				{"ResponseCode", prev.Code}, {"ResponseMessage", prev.Message}, {"ResponseHeaders", prev.ResponseHeaders},
				{"RequestHeaders", prev.RequestHeaders}, {"SampleLabel", prev.Label}, {"SamplerData", prev.SamplerData},
				{"Successful", prev.Success}}
		} else {
			env.Assertion = &Assertion{Name: c.Name}
		}
	case "JSR223Listener", "BeanShellListener":
		env.Event = prev
	case "__groovy", "__BeanShell":
		env.Globals = []Global{{"threadName", "Thread Group 1-1"}}
	case "BeanShellPostProcessor":
		if prev != nil {
			env.Globals = []Global{{"data", prev.Body}}
		}
	}
	return env
}

// encodeJSON encodes a JSON input value as the runtime keeps objects.
func encodeJSON(v any) string {
	var enc func(v any) any
	enc = func(v any) any {
		switch x := v.(type) {
		case float64:
			if x == float64(int64(x)) && x >= -2147483648 && x <= 2147483647 {
				return map[string]any{"I": int64(x)}
			}
			return map[string]any{"B": strconv.FormatFloat(x, 'f', -1, 64)}
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = enc(e)
			}
			return map[string]any{"A": out}
		case map[string]any:
			keys := sortedKeys(x)
			var m [][]any
			for _, k := range keys {
				m = append(m, []any{k, enc(x[k])})
			}
			if m == nil {
				m = [][]any{}
			}
			return map[string]any{"M": m}
		}
		return v
	}
	b, _ := json.Marshal(enc(v))
	return string(b)
}

// javaText is Java's toString of a JSON input value.
func javaText(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = javaText(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		var parts []string
		for _, k := range sortedKeys(x) {
			parts = append(parts, k+"="+javaText(x[k]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprint(v)
}

var changing = regexp.MustCompile(`@[0-9a-f]+|\d+`)

// shape is a pattern for a value that changes from run to run: numbers and
// Java's object hashes (@1b6d3586) may differ.
func shape(s string) *regexp.Regexp {
	parts := changing.Split(s, -1)
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile(`^` + strings.Join(parts, `(?:@[0-9a-f]+|\d+)`) + `$`)
}

// classOnly are exceptions whose messages gojm does not copy word for word.
var classOnly = map[string]bool{"groovy.json.JsonException": true}

var scriptClass = regexp.MustCompile(`Script\d+`)

func checkCase(t *testing.T, c tableCase, d Dialect, p *Program, g golden) {
	h := newTestHost()
	env := envFor(c, h)
	v, err := p.Run(env)
	varying := map[string]bool{}
	for _, path := range g.Varying {
		varying[path] = true
	}
	same := func(path, got, want string) {
		t.Helper()
		if varying[path] {
			if !shape(want).MatchString(got) {
				t.Errorf("%s = %q, want the shape of %q", path, got, want)
			}
			return
		}
		if got != want {
			t.Errorf("%s = %q, want %q", path, got, want)
		}
	}
	// exception
	var se *ScriptError
	switch {
	case g.Error == nil && err != nil:
		t.Errorf("error %v, want none\nJS:\n%s", err, p.JS)
	case g.Error != nil && err == nil:
		t.Errorf("no error, want %s: %s", g.Error.Class, g.Error.Message)
	case g.Error != nil && !errors.As(err, &se):
		t.Errorf("error %v, want %s", err, g.Error.Class)
	case g.Error != nil:
		if se.Class != g.Error.Class {
			t.Errorf("exception %s: %s, want %s: %s", se.Class, se.Message, g.Error.Class, g.Error.Message)
		} else if d == Groovy && !strings.HasPrefix(se.Class, "org.codehaus.groovy.control") && !classOnly[se.Class] {
			want := scriptClass.ReplaceAllString(g.Error.Message, "Script1")
			got := se.Message
			if se.Null {
				got = ""
			}
			if strings.Contains(want, "\nPossible solutions:") {
				want = want[:strings.Index(want, "\nPossible solutions:")]
				if i := strings.Index(got, "\nPossible solutions:"); i >= 0 {
					got = got[:i]
				}
			}
			if got != want {
				t.Errorf("exception message\n%s\nwant\n%s", got, want)
			}
		}
	}
	if err == nil {
		switch {
		case g.Value == nil && !v.Null:
			t.Errorf("value %q, want null", v.Text)
		case g.Value != nil && v.Null:
			t.Errorf("value null, want %q", *g.Value)
		case g.Value != nil:
			same("/value", v.Text, *g.Value)
		}
	}
	gotVars := map[string]string{}
	for k, v := range h.vars {
		gotVars[k] = v
	}
	compareMap(t, "/vars", gotVars, g.Vars, same)
	gotProps := map[string]string{}
	for k, v := range h.props {
		gotProps[k] = v
	}
	for k, o := range h.propObjs {
		gotProps[k] = o.Text
	}
	compareMap(t, "/props", gotProps, g.Props, same)
	if strings.Join(h.logs, "\n") != strings.Join(g.Log, "\n") {
		t.Errorf("log\n%s\nwant\n%s", strings.Join(h.logs, "\n"), strings.Join(g.Log, "\n"))
	}
	same("/out", h.out.String(), g.Out)
	if g.Sample != nil {
		s := env.Current
		if s == nil {
			s = env.Prev
		}
		same("/sample/label", s.Label, fmt.Sprint(g.Sample["label"]))
		same("/sample/code", s.Code, fmt.Sprint(g.Sample["code"]))
		same("/sample/message", s.Message, fmt.Sprint(g.Sample["message"]))
		same("/sample/success", strconv.FormatBool(s.Success), fmt.Sprint(g.Sample["success"]))
		same("/sample/body", string(s.Body), fmt.Sprint(g.Sample["body"]))
		same("/sample/bytes", strconv.FormatInt(s.Bytes, 10), fmt.Sprint(g.Sample["bytes"]))
		same("/sample/ignore", strconv.FormatBool(s.Ignore), fmt.Sprint(g.Sample["ignore"]))
	}
	if g.Assertion != nil && env.Assertion != nil {
		a := env.Assertion
		same("/assertion/failure", strconv.FormatBool(a.Failure), fmt.Sprint(g.Assertion["failure"]))
		same("/assertion/error", strconv.FormatBool(a.Error), fmt.Sprint(g.Assertion["error"]))
		msg := "<nil>"
		if a.MessageSet {
			msg = a.Message
		}
		same("/assertion/message", msg, fmt.Sprint(g.Assertion["message"]))
	}
	for name, want := range g.Globals {
		var got any
		for _, gl := range env.Globals {
			if gl.Name == name {
				got = gl.Value
			}
		}
		w := "<nil>"
		if want != nil {
			w = *want
		}
		gs := fmt.Sprint(got)
		if got == nil {
			gs = "<nil>"
		}
		same("/globals/"+name, gs, w)
	}
	if w := g.Request; w != nil && env.Request != nil {
		q := env.Request.(*testRequest)
		same("/request/method", q.fields["method"], w.Method)
		same("/request/protocol", q.fields["protocol"], w.Protocol)
		same("/request/domain", q.fields["domain"], w.Domain)
		same("/request/port", q.fields["port"], w.Port)
		same("/request/path", q.fields["path"], w.Path)
		var hs, as []string
		for _, hd := range q.headers {
			hs = append(hs, hd.Name+": "+hd.Value)
		}
		for _, a := range q.args {
			as = append(as, a.Name+a.Meta+a.Value)
		}
		same("/request/headers", strings.Join(hs, "\n"), strings.Join(w.Headers, "\n"))
		same("/request/args", strings.Join(as, "\n"), strings.Join(w.Args, "\n"))
	}
	if j, ok := env.Cookies.(*testJar); ok {
		same("/cookies", strings.Join(j.strings(), "\n"), strings.Join(g.Cookies, "\n"))
	}
	if h.stopped != g.Stopped {
		t.Errorf("stopped the thread: %v, want %v", h.stopped, g.Stopped)
	}
	if h.slept.Milliseconds() != g.Slept {
		t.Errorf("slept %v, want %dms", h.slept, g.Slept)
	}
	if t.Failed() {
		var b bytes.Buffer
		b.WriteString(p.JS)
		t.Logf("script:\n%s\nJS:\n%s", p.Source, b.String())
	}
}

// testRequest is the HTTP Request of a case, as the script left it.
type testRequest struct {
	fields        map[string]string
	headerManager bool
	headers       []Header
	args          []Arg
}

func (q *testRequest) Field(name string) string    { return q.fields[name] }
func (q *testRequest) SetField(name, value string) { q.fields[name] = value }
func (q *testRequest) HeaderManager() bool         { return q.headerManager }
func (q *testRequest) Headers() []Header           { return q.headers }
func (q *testRequest) SetHeaders(hs []Header)      { q.headers = hs }
func (q *testRequest) Args() []Arg                 { return q.args }
func (q *testRequest) SetArgs(as []Arg)            { q.args = as }

// URL is the fields' URL, as JMeter's getUrl builds it for the cases.
func (q *testRequest) URL() string {
	proto, host := cmp.Or(q.fields["protocol"], "http"), q.fields["domain"]
	if p := requestPort(q); !(proto == "http" && p == 80 || proto == "https" && p == 443) {
		host += ":" + strconv.Itoa(p)
	}
	return proto + "://" + host + q.fields["path"]
}

func compareMap(t *testing.T, path string, got, want map[string]string, same func(p, g, w string)) {
	t.Helper()
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			// JMeter keeps a variable put as null; gojm removes it (both
			// read back null)
			if w != "null" || path != "/vars" {
				t.Errorf("%s/%s missing, want %q", path, k, w)
			}
			continue
		}
		same(path+"/"+k, g, w)
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s/%s = %q, want none", path, k, g)
		}
	}
}
