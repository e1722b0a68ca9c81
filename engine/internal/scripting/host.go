package scripting

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gojm/gojm/engine/internal/cookies"
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/function"
	"github.com/gojm/gojm/engine/internal/response"
	"github.com/gojm/gojm/engine/script"
	"github.com/gojm/gojm/jmx"
	"github.com/gojm/gojm/report"
)

// Scripts reach the virtual user through script.Host: its variables (and
// the objects a script keeps in them), the run's properties (and objects),
// its log and clock. The objects are kept encoded, so that any pooled
// script runtime can read them.

// scriptPlan is the state the script elements of one plan share.
type scriptPlan struct {
	mu       sync.RWMutex
	propObjs map[string]script.Object // props.put of non-strings
	timeout  time.Duration
	// noScripts refuses every script element (--no-scripts).
	noScripts bool
	out       io.Writer
	// users holds each virtual user's script state, jexl its JEXL context.
	users *element.Local[scriptVU]
	jexl  *element.Local[function.JEXLEnv]
	// files is the plan's files policy, through which scripts read and
	// write (nil: scripts have no file access).
	files script.Files
	// mirrors are the HTTP Mirror Servers the run's scripts started.
	mirrors *element.Shared[mirrors]
	// cookies are the users' cookie jars (cookies.go).
	cookies *element.Local[cookies.User]
	// lits holds the BeanShell literals of the run's programs, so that
	// each stays one object for the whole run (script.Literals).
	lits script.Literals
}

// scriptPlanKey names the plan's scriptPlan.
var scriptPlanKey = element.NewKey[*scriptPlan]("script elements")

// ScriptTimeoutProperty bounds each script run, in milliseconds (-J).
const ScriptTimeoutProperty = "gojm.script.timeout"

// NoScriptsProperty, set to true, refuses every script element and
// script function (the --no-scripts flag sets it).
const NoScriptsProperty = "gojm.noScripts"

// scriptsOf returns the plan's script state, made on first use.
func scriptsOf(p *element.Plan) *scriptPlan {
	return element.Once(p, scriptPlanKey, func() *scriptPlan { return newScriptPlan(p) })
}

func newScriptPlan(p *element.Plan) *scriptPlan {
	sp := &scriptPlan{propObjs: map[string]script.Object{}, timeout: script.DefaultTimeout, out: os.Stdout}
	if p.Files != nil {
		sp.files = p.Files
	}
	sp.users = element.NewLocal(p, func(*element.VU) *scriptVU { return &scriptVU{} })
	sp.jexl = function.JEXLContexts(p)
	sp.mirrors = element.NewShared(p, newMirrors)
	sp.cookies = cookies.Users(p)
	if s, ok := p.Props.Get(ScriptTimeoutProperty); ok {
		if ms := jmx.Int(strings.TrimSpace(s), -1); ms > 0 {
			sp.timeout = time.Duration(ms) * time.Millisecond
		}
	}
	if s, ok := p.Props.Get(NoScriptsProperty); ok && strings.EqualFold(strings.TrimSpace(s), "true") {
		sp.noScripts = true
	}
	return sp
}

// scriptVU is a virtual user's script state: the objects its scripts keep
// in variables, and the host, environment and results reused by each run.
type scriptVU struct {
	objs    map[string]script.Object
	host    scriptHost
	env     script.Env
	prev    script.Result
	cur     script.Result
	event   script.Result
	assert  script.Assertion
	globals []script.Global
	subs    []script.Result
	timing  sampleTiming
	holes   []string       // hole values of the run
	req     samplerRequest // the request a pre-processor's script sees
	jar     userJar        // the user's cookie jar, as the script sees it
	text    string         // the text a run made from ${…} (no holes), for samplerData
	// busy is set while a run uses this state; inner is the state of a run
	// started meanwhile (see state).
	busy  bool
	inner *scriptVU
}

// sampleTiming is a script sampler's clock, which SampleResult.sampleStart()
// and sampleEnd() move.
type sampleTiming struct {
	start, end time.Time
}

func (t *sampleTiming) sampleStart() { t.start = time.Now() }
func (t *sampleTiming) sampleEnd()   { t.end = time.Now() }

// state returns the virtual user's script state for a run, which done
// gives back. A run started while another is in progress (a ${__groovy()}
// in a field of the request the outer script reads) gets a state of its
// own, so that it leaves the outer run's environment, results and globals
// alone; the objects kept in variables are the user's, in the outermost.
func (sp *scriptPlan) state(vu *element.VU) *scriptVU {
	st := sp.users.Get(vu)
	for st.busy {
		if st.inner == nil {
			st.inner = &scriptVU{}
		}
		st = st.inner
	}
	st.busy = true
	st.host.vu, st.host.sp = vu, sp
	return st
}

// done ends the run that state began.
func (st *scriptVU) done() { st.busy = false }

// env resets the reused environment for a run.
func (st *scriptVU) newEnv(sp *scriptPlan, label, params string) *script.Env {
	st.env = script.Env{Host: &st.host, Label: label, Parameters: params, Timeout: sp.timeout, Globals: st.globals[:0], Files: sp.files, Servers: &st.host}
	st.host.url = ""
	st.cookiesFor(sp, st.host.vu, &st.env)
	return &st.env
}

// scriptHost is script.Host for one virtual user.
type scriptHost struct {
	vu  *element.VU
	sp  *scriptPlan
	url string // the sample's URL, for sampler.getUrl()
}

func (h *scriptHost) Var(name string) (string, bool) { return h.vu.Vars.Get(name) }

func (h *scriptHost) VarObject(name string) (script.Object, bool) {
	st := h.sp.users.Peek(h.vu)
	if st == nil || st.objs == nil {
		return script.Object{}, false
	}
	o, ok := st.objs[name]
	if ok {
		// a variable set since by a non-script element hides the object
		if s, set := h.vu.Vars.Get(name); !set || s != o.Text {
			delete(st.objs, name)
			return script.Object{}, false
		}
	}
	return o, ok
}

func (h *scriptHost) PutVar(name, value string) {
	h.vu.Vars.Put(name, value)
	if st := h.sp.users.Peek(h.vu); st != nil {
		delete(st.objs, name)
	}
}

// PutVarObject keeps the object and its Java text as the variable, which
// ${name} shows (JMeter's ${} calls toString on objects).
func (h *scriptHost) PutVarObject(name string, o script.Object) {
	st := h.sp.users.Peek(h.vu)
	if st.objs == nil {
		st.objs = map[string]script.Object{}
	}
	st.objs[name] = o
	h.vu.Vars.Put(name, o.Text)
}

func (h *scriptHost) RemoveVar(name string) {
	h.vu.Vars.Remove(name)
	if st := h.sp.users.Peek(h.vu); st != nil {
		delete(st.objs, name)
	}
}

func (h *scriptHost) VarNames() []string {
	return h.vu.Vars.Names()
}

func (h *scriptHost) Prop(name string) (string, bool) {
	h.sp.mu.RLock()
	_, isObj := h.sp.propObjs[name]
	h.sp.mu.RUnlock()
	if isObj {
		return "", false
	}
	return h.vu.Plan.Props.Get(name)
}

func (h *scriptHost) PropObject(name string) (script.Object, bool) {
	h.sp.mu.RLock()
	o, ok := h.sp.propObjs[name]
	h.sp.mu.RUnlock()
	return o, ok
}

func (h *scriptHost) PutProp(name, value string) {
	h.sp.mu.Lock()
	delete(h.sp.propObjs, name)
	h.sp.mu.Unlock()
	h.vu.Plan.Props.Set(name, value)
}

// PutPropObject keeps a non-string property. JMeter's getProperty (and so
// ${__P()}) does not see such a property; props.get does.
func (h *scriptHost) PutPropObject(name string, o script.Object) {
	h.sp.mu.Lock()
	h.sp.propObjs[name] = o
	h.sp.mu.Unlock()
	h.vu.Plan.Props.Remove(name)
}

func (h *scriptHost) RemoveProp(name string) {
	h.sp.mu.Lock()
	delete(h.sp.propObjs, name)
	h.sp.mu.Unlock()
	h.vu.Plan.Props.Remove(name)
}

func (h *scriptHost) PropNames() []string {
	m := h.vu.Plan.Props.Snapshot()
	h.sp.mu.RLock()
	for n := range h.sp.propObjs {
		m[n] = ""
	}
	h.sp.mu.RUnlock()
	out := make([]string, 0, len(m))
	for n := range m {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func (h *scriptHost) Iteration() int      { return h.vu.Iteration }
func (h *scriptHost) ThreadNum() int      { return h.vu.Num - 1 }
func (h *scriptHost) ThreadName() string  { return h.vu.Name }
func (h *scriptHost) GroupName() string   { return h.vu.Group.Name }
func (h *scriptHost) GroupThreads() int   { return h.vu.Group.Threads }
func (h *scriptHost) GroupActive() int    { return int(h.vu.Group.Active.Load()) }
func (h *scriptHost) SamplerName() string { return h.vu.SamplerName }
func (h *scriptHost) SamplerURL() string  { return h.url }
func (h *scriptHost) StopThread()         { h.vu.StopThread() }

func (h *scriptHost) Log(level, msg string) {
	l := h.vu.Log
	switch level {
	case "warn":
		l.Warn(msg, "thread", h.vu.Name)
	case "error":
		l.Error(msg, "thread", h.vu.Name)
	case "debug", "trace":
		l.Debug(msg, "thread", h.vu.Name)
	default:
		l.Info(msg, "thread", h.vu.Name)
	}
}

func (h *scriptHost) LogEnabled(level string) bool {
	lv := slog.LevelInfo
	switch level {
	case "warn":
		lv = slog.LevelWarn
	case "error":
		lv = slog.LevelError
	case "debug", "trace":
		lv = slog.LevelDebug
	}
	return h.vu.Log.Enabled(context.Background(), lv)
}

func (h *scriptHost) Out(s string, stderr bool) {
	if stderr {
		fmt.Fprint(os.Stderr, s)
		return
	}
	fmt.Fprint(h.sp.out, s)
}

// errScriptStopped: the test stopped during a script's sleep.
var errScriptStopped = errors.New("the test stopped")

func (h *scriptHost) Sleep(d time.Duration) error {
	if h.vu.Soft == nil {
		time.Sleep(d) // a user evaluating fields before the run
		return nil
	}
	if !h.vu.Sleep(d) {
		return errScriptStopped
	}
	return nil
}

func (h *scriptHost) Now() time.Time       { return time.Now() }
func (h *scriptHost) Seed() int64          { return h.vu.Rand.Int64() }
func (h *scriptHost) RandomBytes(b []byte) { _, _ = rand.Read(b) }

// BaseDir is JMeter's FileServer base directory: the plan's folder,
// absolute.
func (h *scriptHost) BaseDir() string { return baseDir(h.vu.Plan) }

func baseDir(p *element.Plan) string {
	dir, err := filepath.Abs(p.Dir)
	if err != nil {
		return p.Dir
	}
	return dir
}

// Results: a sample as scripts see it, and their changes back.

func msOf(d time.Duration) int64 { return d.Milliseconds() }

// scriptResult fills dst with a sample, its sub-samples in st.subs.
func (st *scriptVU) scriptResult(dst *script.Result, vu *element.VU, r *element.Result) {
	*dst = script.Result{
		Label: r.Label, Code: r.Code, Message: r.Message, ThreadName: r.ThreadName, DataType: r.DataType,
		URL: r.URL, Success: r.Success, Body: r.Body,
		Time: msOf(r.Elapsed), Latency: msOf(r.Latency), Connect: msOf(r.Connect), Idle: msOf(r.Idle),
		Start: r.Start.UnixMilli(), End: r.Start.Add(r.Elapsed).UnixMilli(),
		Bytes: r.Bytes, SentBytes: r.SentBytes, Ignore: r.Ignore,
	}
	if !r.Head.None() {
		dst.ContentType = r.Head.Get("Content-Type")
		if r.Code != "" && r.Code[0] == '3' {
			dst.Redirect = r.Head.Get("Location")
		}
	}
	dst.Lazy = func(s *script.Result) {
		s.RequestHeaders = r.RequestHeaders()
		s.ResponseHeaders = responseHeaderText(r)
		v := response.Main(r)
		s.SamplerData = response.RequestData(&v)
	}
	for _, a := range r.Assertions {
		dst.Assertions = append(dst.Assertions, script.AssertionInfo{Name: a.Name, Failure: a.Failure, Error: a.Error, Message: a.Message})
	}
	if len(r.Sub) > 0 {
		st.subs = st.subs[:0]
		for _, s := range r.Sub {
			st.subs = append(st.subs, subResult(s))
		}
		for i := range st.subs {
			dst.Subs = append(dst.Subs, &st.subs[i])
		}
	}
}

func subResult(s *report.Sample) script.Result {
	out := script.Result{Label: s.Label, Code: s.Code, Message: s.Message, ThreadName: s.ThreadName, DataType: s.DataType,
		URL: s.URL, Success: s.Success, Time: msOf(s.Elapsed), Latency: msOf(s.Latency), Connect: msOf(s.Connect),
		Start: s.Start.UnixMilli(), End: s.End().UnixMilli(), Bytes: s.Bytes, SentBytes: s.SentBytes}
	for _, a := range s.Assertions {
		out.Assertions = append(out.Assertions, script.AssertionInfo{Name: a.Name, Failure: a.Failure, Error: a.Error, Message: a.Message})
	}
	return out
}

// responseHeaderText is the status line and headers, as JMeter keeps them.
func responseHeaderText(r *element.Result) string {
	if r.Head.None() {
		return ""
	}
	v := response.Main(r)
	return v.ResponseHeaders()
}

// applyResult copies what a script set on a sample back to it. sampler
// is true for a script sampler's own result, whose size is its data.
func applyResult(r *element.Result, s *script.Result, sampler bool) {
	ch := s.Changed
	if ch&script.ChLabel != 0 {
		r.Label = s.Label
	}
	if ch&script.ChCode != 0 {
		r.Code = s.Code
	}
	if ch&script.ChMessage != 0 {
		r.Message = s.Message
	}
	if ch&script.ChSuccess != 0 {
		r.Success = s.Success
	}
	if ch&script.ChBody != 0 {
		r.Body = append(r.Body[:0], s.Body...)
	}
	if ch&script.ChDataType != 0 {
		r.DataType = s.DataType
	}
	if ch&script.ChContentType != 0 {
		r.Head.Set("Content-Type", s.ContentType)
	}
	if ch&script.ChRequestHeaders != 0 {
		r.SetRequestHeaders(s.RequestHeaders)
	}
	if ch&script.ChSentBytes != 0 {
		r.SentBytes = s.SentBytes
	}
	if ch&script.ChLatency != 0 {
		r.Latency = time.Duration(s.Latency) * time.Millisecond
	}
	if ch&script.ChConnect != 0 {
		r.Connect = time.Duration(s.Connect) * time.Millisecond
	}
	if ch&script.ChIgnore != 0 {
		r.Ignore = true
	}
	if ch&script.ChStop != 0 {
		switch {
		case s.StopTestNow:
			r.Next = r.Next.Then(element.StopTestNow)
		case s.StopTest:
			r.Next = r.Next.Then(element.StopTest)
		case s.StopThread:
			r.Next = r.Next.Then(element.StopThread)
		}
		if s.NextLoop {
			r.Next = r.Next.Then(element.NextThreadLoop)
		}
	}
	if sampler {
		// SampleResult.getBytesAsLong: the data's size, else what was set
		r.Bytes = int64(len(r.Body))
		if r.Bytes == 0 && ch&script.ChBytes != 0 {
			r.Bytes = s.Bytes
		}
	} else if ch&script.ChBytes != 0 {
		r.Bytes = s.Bytes
	}
}
