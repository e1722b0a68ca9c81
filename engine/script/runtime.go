package script

import (
	_ "embed"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
)

//go:embed runtime_core.js
var jsCore string

//go:embed runtime_methods.js
var jsMethods string

//go:embed runtime_host.js
var jsHost string

//go:embed runtime_json.js
var jsJSON string

//go:embed runtime_assert.js
var jsAssert string

//go:embed runtime_http.js
var jsHTTP string

//go:embed runtime_cookies.js
var jsCookies string

//go:embed runtime_time.js
var jsTime string

//go:embed runtime_files.js
var jsFiles string

//go:embed runtime_streams.js
var jsStreams string

var (
	preludeOnce sync.Once
	prelude     *goja.Program
	preludeErr  error
)

func compilePrelude() (*goja.Program, error) {
	preludeOnce.Do(func() {
		src := jsCore + "\n" + jsMethods + "\n" + jsHost + "\n" + jsJSON + "\n" + jsAssert + "\n" + jsHTTP + "\n" + jsCookies + "\n" + jsTime + "\n" + jsFiles + "\n" + jsStreams + "\n$mk;\n"
		prelude, preludeErr = goja.Compile("gojm-script-runtime.js", src, true)
	})
	return prelude, preludeErr
}

// Host is what a running script reaches outside itself. The engine
// implements it for one virtual user and one element.
type Host interface {
	// Variables of the virtual user: strings, or objects a script put
	// with vars.putObject (kept encoded).
	Var(name string) (string, bool)
	VarObject(name string) (Object, bool)
	PutVar(name, value string)
	PutVarObject(name string, o Object)
	RemoveVar(name string)
	VarNames() []string
	// Properties of the run.
	Prop(name string) (string, bool)
	PropObject(name string) (Object, bool)
	PutProp(name, value string)
	PutPropObject(name string, o Object)
	RemoveProp(name string)
	PropNames() []string

	Iteration() int
	ThreadNum() int // from 0, as ctx.getThreadNum()
	ThreadName() string
	GroupName() string
	GroupThreads() int
	GroupActive() int
	SamplerName() string
	SamplerURL() string

	Log(level, msg string)
	LogEnabled(level string) bool
	Out(s string, stderr bool)
	// Sleep waits d; it returns an error when the run stops meanwhile.
	Sleep(d time.Duration) error
	Now() time.Time
	// Seed seeds a new java.util.Random() created without a seed.
	Seed() int64
	// RandomBytes fills b (UUID.randomUUID).
	RandomBytes(b []byte)
	// BaseDir is FileServer's base directory: the plan's folder, absolute.
	BaseDir() string
	// StopThread ends the virtual user once the sample in progress is
	// done (JMeterThread.stop(), through ctx.getThread()).
	StopThread()
}

// Object is a value a script keeps outside a run (vars.putObject,
// props.put of a non-string): Enc is its encoding (see runtime_json.js),
// Text its Java toString, what ${name} shows.
type Object struct {
	Enc  string
	Text string
}

// Result is a sample as a script sees it: JMeter's SampleResult.
// Changed records which fields a script set.
type Result struct {
	Label, Code, Message, ThreadName, DataType, ContentType, Encoding, URL, Redirect string
	Success                                                                          bool
	Body                                                                             []byte
	RequestHeaders, ResponseHeaders, SamplerData                                     string
	// Lazy, when set, fills RequestHeaders, ResponseHeaders and SamplerData
	// the first time a script reads one of them.
	Lazy                                                func(r *Result)
	Time, Latency, Connect, Idle, Start, End            int64 // milliseconds
	Bytes, SentBytes, HeadersSize                       int64
	Subs                                                []*Result
	Assertions                                          []AssertionInfo
	Ignore, StopThread, StopTest, StopTestNow, NextLoop bool
	Changed                                             Changes
	// OnSampleStart and OnSampleEnd are SampleResult.sampleStart() and
	// sampleEnd(), for a sampler's own result.
	OnSampleStart, OnSampleEnd func()
}

// Changes is a set of Result fields.
type Changes uint32

// The fields of a Result a script may set.
const (
	ChLabel Changes = 1 << iota
	ChCode
	ChMessage
	ChSuccess
	ChBody
	ChBytes
	ChSentBytes
	ChDataType
	ChContentType
	ChSamplerData
	ChRequestHeaders
	ChResponseHeaders
	ChLatency
	ChConnect
	ChIgnore
	ChStop
)

// AssertionInfo is a recorded assertion result of a sample.
type AssertionInfo struct {
	Name           string
	Failure, Error bool
	Message        string
}

// Assertion is the AssertionResult a JSR223 Assertion's script sets.
type Assertion struct {
	Name           string
	Failure, Error bool
	Message        string
	MessageSet     bool
}

// Env is the world of one script run.
type Env struct {
	Host Host
	// Prev is prev (ctx.getPreviousResult()); Current is SampleResult
	// (nil: Prev). Event is a listener's sample (sampleEvent, sampleResult).
	Prev, Current, Event *Result
	Assertion            *Assertion
	Label, FileName      string
	Parameters           string
	// Globals are further variables: set before the run, read back after
	// (BeanShell's IsSuccess, ResponseCode…). Values are string, bool,
	// int64, []byte (a byte[]) or nil.
	Globals []Global
	// Timeout bounds the run (0: DefaultTimeout).
	Timeout time.Duration
	// Holes are the texts of a CompileHoles program's holes.
	Holes []string
	// Files is how the script reaches files (nil: it cannot).
	Files Files
	// Servers starts the servers a script may start (nil: none).
	Servers Servers
	// Request is the HTTP request of the sampler a pre-processor runs
	// before (sampler.getHeaderManager(), getArguments(), getPath()…);
	// nil when that sampler is not an HTTP Request.
	Request Request
	// Cookies is the virtual user's cookie jar (sampler.getCookieManager());
	// nil without a Cookie Manager.
	Cookies CookieJar
	// SamplerClass is the Java class of the sampler a pre-processor runs
	// before or a post-processor after, as far as gojm tells it
	// (sampler.getClass()): HTTPSamplerProxy's for an HTTP Request, ""
	// for the others.
	SamplerClass string
}

// Request is an HTTP Request as a script sees and changes it before it is
// sent: JMeter's HTTPSamplerBase fields, its merged Header Manager and its
// arguments. Each part is read when the script reads it, and a change
// reaches the request at once.
type Request interface {
	// Field is one of "method", "protocol", "domain", "port" and "path".
	Field(name string) string
	SetField(name, value string)
	// HeaderManager says that a Header Manager is in scope
	// (getHeaderManager() is null without one).
	HeaderManager() bool
	Headers() []Header
	SetHeaders([]Header)
	Args() []Arg
	SetArgs([]Arg)
	// URL is the URL the request is sent to, as the sampler builds it
	// (getUrl()).
	URL() string
}

// Header is a request header.
type Header struct{ Name, Value string }

// Arg is a request argument: Meta is "=" or "" (no "=" between name and
// value), Encode HTTPArgument's always-encode flag.
type Arg struct {
	Name, Value, Meta, ContentType string
	Encode                         bool
}

// Global is a variable of a script run.
type Global struct {
	Name  string
	Value any
}

// DefaultTimeout bounds a script run.
const DefaultTimeout = 5 * time.Second

// ScriptError is an exception a script threw, or a limit it hit.
type ScriptError struct {
	Class, Message string
	// Timeout marks a script stopped because it ran too long; Stopped one
	// stopped because the test stopped.
	Timeout, Stopped bool
	// Null: the exception's message was null.
	Null bool
}

func (e *ScriptError) Error() string {
	if e.Null {
		return e.Class
	}
	return e.Class + ": " + e.Message
}

// Value is what a script returned, as Java's toString writes it.
type Value struct {
	Null bool
	Text string
}

// dialectRT is one dialect's runtime object and the functions the Go
// side calls on it, looked up once.
type dialectRT struct {
	obj                                           *goja.Object
	resetRun, result, mkArray, flush, sampleEvent goja.Callable
	javaStr, facade                               goja.Callable
	bindings                                      [6]goja.Value // vars props log ctx sampler OUT
}

var bindingNames = [6]string{"vars", "props", "log", "ctx", "sampler", "OUT"}

func newDialectRT(o *goja.Object) *dialectRT {
	d := &dialectRT{obj: o}
	fn := func(name string) goja.Callable {
		f, _ := goja.AssertFunction(o.Get(name))
		return f
	}
	d.resetRun, d.result, d.mkArray, d.flush = fn("resetRun"), fn("result"), fn("mkArray"), fn("flushObjects")
	d.sampleEvent, d.javaStr, d.facade = fn("sampleEvent"), fn("javaStr"), fn("jsFacade")
	for i, n := range bindingNames {
		d.bindings[i] = o.Get(n)
	}
	return d
}

// runtime is one pooled JavaScript engine with the Groovy and BeanShell
// runtimes loaded.
type runtime struct {
	vm      *goja.Runtime
	g, b    *goja.Object // the dialects' $ objects
	gd, bd  *dialectRT
	timer   *time.Timer
	jexCtor goja.Value
	fns     map[*Program]goja.Callable
	env     *Env
	results []*Result
	// guards the timer's interrupt against a run it was not armed for
	mu       sync.Mutex
	running  bool      // a run is in progress
	deadline time.Time // when the run in progress must end
	stopErr  *ScriptError
}

var pool = sync.Pool{New: func() any {
	r, err := newRuntime()
	if err != nil {
		return err
	}
	return r
}}

func getRuntime() (*runtime, error) {
	switch v := pool.Get().(type) {
	case *runtime:
		return v, nil
	case error:
		return nil, v
	}
	return nil, errors.New("script runtime pool: bad entry")
}

func newRuntime() (*runtime, error) {
	prog, err := compilePrelude()
	if err != nil {
		return nil, fmt.Errorf("script runtime: %w", err)
	}
	vm := goja.New()
	r := &runtime{vm: vm, fns: map[*Program]goja.Callable{}}
	mk, err := vm.RunProgram(prog)
	if err != nil {
		return nil, fmt.Errorf("script runtime: %w", err)
	}
	mkFn, ok := goja.AssertFunction(mk)
	if !ok {
		return nil, errors.New("script runtime: no $mk")
	}
	r.jexCtor = mk.ToObject(vm).Get("JEx")
	J := r.javaHelpers()
	H := r.hostBridge()
	g, err := mkFn(goja.Undefined(), vm.ToValue(false), J, H)
	if err != nil {
		return nil, fmt.Errorf("script runtime: %w", err)
	}
	b, err := mkFn(goja.Undefined(), vm.ToValue(true), J, H)
	if err != nil {
		return nil, fmt.Errorf("script runtime: %w", err)
	}
	r.g, r.b = g.ToObject(vm), b.ToObject(vm)
	r.gd, r.bd = newDialectRT(r.g), newDialectRT(r.b)
	r.timer = time.AfterFunc(time.Hour, r.onTimeout)
	r.timer.Stop()
	return r, nil
}

// throw raises a Java exception in the script.
func (r *runtime) throw(class, msg string) {
	o, err := r.vm.New(r.jexCtor, r.vm.ToValue(class), r.vm.ToValue(msg))
	if err != nil {
		panic(r.vm.NewGoError(err))
	}
	panic(o)
}

func (r *runtime) throwErr(err error) {
	var je *javaError
	if errors.As(err, &je) {
		r.throw(je.class, je.msg)
	}
	r.throw("java.lang.RuntimeException", err.Error())
}

func argStr(c goja.FunctionCall, i int) string {
	v := c.Argument(i)
	if goja.IsUndefined(v) || goja.IsNull(v) {
		return ""
	}
	return v.String()
}

func (r *runtime) ints(v goja.Value) []int {
	var out []int
	if err := r.vm.ExportTo(v, &out); err != nil {
		r.throw("java.lang.ClassCastException", "not a byte array")
	}
	return out
}

// sleep waits d within the run's deadline; past the deadline the run is
// interrupted (an interrupt no script can catch).
func (r *runtime) sleep(d time.Duration) {
	if d <= 0 {
		return
	}
	left := time.Until(r.deadline)
	timedOut := false
	if d > left {
		d, timedOut = left, true
	}
	if err := r.env.Host.Sleep(d); err != nil {
		r.interrupt(&ScriptError{Class: "java.lang.InterruptedException", Message: "the test stopped", Stopped: true})
		return
	}
	if timedOut {
		r.interrupt(r.timeoutErr())
	}
}

func (r *runtime) timeoutErr() *ScriptError {
	to := r.env.Timeout
	if to <= 0 {
		to = DefaultTimeout
	}
	return &ScriptError{Class: "gojm.ScriptTimeout", Message: fmt.Sprintf("the script ran longer than %v and was stopped", to), Timeout: true}
}

// onTimeout interrupts the run in progress once its deadline has passed.
// The timer is reused from run to run, and Stop cannot take back a
// callback that has already started: a callback armed for one run can
// come after that run ended, while the next one runs. That run's deadline
// is still ahead, so it goes on.
func (r *runtime) onTimeout() {
	r.mu.Lock()
	if r.running && !time.Now().Before(r.deadline) {
		r.stopErr = r.timeoutErr()
		r.vm.Interrupt(r.stopErr)
	}
	r.mu.Unlock()
}

// interrupt stops the running script with err. The timeout timer's
// goroutine may do the same at the same moment, so stopErr is guarded.
func (r *runtime) interrupt(err *ScriptError) {
	r.mu.Lock()
	r.stopErr = err
	r.mu.Unlock()
	r.vm.Interrupt(err)
}

// stopped returns why the running script was stopped, if it was.
func (r *runtime) stopped() *ScriptError {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stopErr
}

// run calls a compiled script with the environment's bindings.
func (r *runtime) run(p *Program, env *Env) (Value, error) {
	r.env = env
	r.results = r.results[:0]
	to := env.Timeout
	if to <= 0 {
		to = DefaultTimeout
	}
	r.mu.Lock()
	r.stopErr = nil
	r.running = true
	r.deadline = time.Now().Add(to) // before the timer's: it never fires early
	r.mu.Unlock()
	r.timer.Reset(to)
	v, err := r.call(p, env)
	r.timer.Stop()
	r.mu.Lock()
	r.running = false
	r.mu.Unlock()
	r.vm.ClearInterrupt()
	r.env = nil
	for i := range r.results {
		r.results[i] = nil
	}
	return v, err
}

func (r *runtime) call(p *Program, env *Env) (Value, error) {
	vm := r.vm
	d := r.gd
	if p.dialect == BeanShell {
		d = r.bd
	}
	rt := d.obj
	if _, err := d.resetRun(rt); err != nil {
		return Value{}, err
	}
	// results: 0 prev, 1 current, 2 event
	r.results = append(r.results, env.Prev, env.Current, env.Event)
	prevV, curV := goja.Null(), goja.Null()
	mkResult := func(id int) goja.Value {
		v, _ := d.result(rt, vm.ToValue(id))
		return v
	}
	if env.Prev != nil {
		prevV = mkResult(0)
	}
	switch {
	case env.Current != nil:
		curV = mkResult(1)
	case env.Prev != nil:
		curV = prevV
	}
	g := vm.NewObject()
	set := func(k string, v any) { _ = g.Set(k, v) }
	for i, k := range bindingNames {
		set(k, d.bindings[i])
	}
	set("prev", prevV)
	set("SampleResult", curV)
	if env.Event != nil {
		ev := mkResult(2)
		set("sampleResult", ev)
		e, _ := d.sampleEvent(rt, ev)
		set("sampleEvent", e)
	}
	if env.Assertion != nil {
		set("AssertionResult", rt.Get("assertion"))
	}
	set("Label", env.Label)
	set("FileName", env.FileName)
	set("Parameters", env.Parameters)
	args := splitParams(env.Parameters)
	argv, _ := d.mkArray(rt, vm.ToValue("String"), vm.ToValue(args))
	set("args", argv)
	if p.dialect == BeanShell {
		bshNS := vm.NewObject()
		_ = bshNS.Set("$t", "BshNS")
		_ = bshNS.Set("args", argv)
		set("bsh", bshNS)
	}
	for _, gl := range env.Globals {
		set(gl.Name, r.toJS(rt, gl.Value))
	}
	if env.Holes != nil {
		set("$holes", env.Holes)
	}
	if p.raw {
		return r.runRaw(p, g)
	}
	f, ok := r.fns[p]
	if !ok {
		v, err := vm.RunProgram(p.js)
		if err != nil {
			return Value{}, fmt.Errorf("script: %w", err)
		}
		outer, ok := goja.AssertFunction(v)
		if !ok {
			return Value{}, errors.New("script: translation is not a function")
		}
		inner, err := outer(goja.Undefined(), rt)
		if err != nil {
			return Value{}, fmt.Errorf("script: %w", err)
		}
		if f, ok = goja.AssertFunction(inner); !ok {
			return Value{}, errors.New("script: translation is not a function")
		}
		if len(r.fns) >= 256 {
			clear(r.fns)
		}
		r.fns[p] = f
	}
	ret, err := f(goja.Undefined(), g)
	r.vm.ClearInterrupt()
	_, _ = d.flush(rt)
	if err != nil {
		return Value{}, r.scriptErr(err)
	}
	for i := range env.Globals {
		env.Globals[i].Value = r.fromJS(rt, g.Get(env.Globals[i].Name))
	}
	return r.value(rt, ret), nil
}

// splitParams splits a Parameters field as JMeter's args (on spaces,
// runs of them counting as one).
func splitParams(s string) []string {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' })
	if f == nil {
		f = []string{}
	}
	return f
}

func (r *runtime) toJS(rt *goja.Object, v any) goja.Value {
	switch x := v.(type) {
	case nil:
		return goja.Null()
	case []byte:
		ints := make([]int, len(x))
		for i, b := range x {
			ints[i] = int(int8(b))
		}
		mkArr, _ := goja.AssertFunction(rt.Get("mkArray"))
		a, _ := mkArr(rt, r.vm.ToValue("byte"), r.vm.ToValue(ints))
		return a
	case int64:
		if x >= math.MinInt32 && x <= math.MaxInt32 {
			return r.vm.ToValue(x)
		}
	}
	return r.vm.ToValue(v)
}

// fromJS reads back a variable: Java's toString for anything but strings
// and booleans.
func (r *runtime) fromJS(rt *goja.Object, v goja.Value) any {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return nil
	}
	switch x := v.Export().(type) {
	case string, bool:
		return x
	}
	return r.value(rt, v).Text
}

func (r *runtime) value(rt *goja.Object, v goja.Value) Value {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return Value{Null: true}
	}
	if s, ok := v.Export().(string); ok {
		return Value{Text: s}
	}
	if o, ok := v.(*goja.Object); ok {
		if t := o.Get("$t"); t != nil && t.String() == "Void" {
			return Value{Null: true} // BeanShell's void reads as null
		}
	}
	d := r.gd
	if rt == r.b {
		d = r.bd
	}
	s, err := d.javaStr(rt, v)
	if err != nil {
		return Value{Text: v.String()}
	}
	return Value{Text: s.String()}
}

// scriptErr turns what a script threw into a ScriptError.
func (r *runtime) scriptErr(err error) error {
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		if se, ok := ie.Value().(*ScriptError); ok {
			return se
		}
		if se := r.stopped(); se != nil {
			return se
		}
		return r.timeoutErr()
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		if o, ok := ex.Value().(*goja.Object); ok {
			if cls := o.Get("cls"); cls != nil && !goja.IsUndefined(cls) {
				msg := o.Get("msg")
				se := &ScriptError{Class: cls.String()}
				if msg == nil || goja.IsNull(msg) || goja.IsUndefined(msg) {
					se.Null = true
				} else {
					se.Message = msg.String()
				}
				return se
			}
		}
		return &ScriptError{Class: "gojm.InternalError", Message: ex.Error()}
	}
	return &ScriptError{Class: "gojm.InternalError", Message: err.Error()}
}
