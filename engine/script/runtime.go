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

var (
	preludeOnce sync.Once
	prelude     *goja.Program
	preludeErr  error
)

func compilePrelude() (*goja.Program, error) {
	preludeOnce.Do(func() {
		src := jsCore + "\n" + jsMethods + "\n" + jsHost + "\n" + jsJSON + "\n" + jsAssert + "\n$mk;\n"
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

func (r *runtime) javaHelpers() *goja.Object {
	vm := r.vm
	o := vm.NewObject()
	set := func(name string, f func(c goja.FunctionCall) goja.Value) { _ = o.Set(name, f) }
	set("format", func(c goja.FunctionCall) goja.Value {
		var tagged [][]any
		if err := vm.ExportTo(c.Argument(1), &tagged); err != nil {
			r.throw("java.lang.IllegalArgumentException", err.Error())
		}
		args := make([]fmtArg, len(tagged))
		for i, t := range tagged {
			a := fmtArg{kind: t[0].(string)}
			switch a.kind {
			case "s", "l":
				a.s = t[1].(string)
			case "i", "c":
				a.i = toInt64(t[1])
			case "b":
				a.b = t[1].(bool)
			case "d":
				a.f = toFloat(t[1])
			case "D", "o":
				a.s, a.s2 = t[1].(string), t[2].(string)
			}
			args[i] = a
		}
		s, err := javaFormat(argStr(c, 0), args)
		if err != nil {
			r.throwErr(err)
		}
		return vm.ToValue(s)
	})
	set("reReplace", func(c goja.FunctionCall) goja.Value {
		s, err := reReplace(argStr(c, 0), argStr(c, 1), argStr(c, 2), c.Argument(3).ToBoolean())
		if err != nil {
			r.throwErr(err)
		}
		return vm.ToValue(s)
	})
	set("reMatches", func(c goja.FunctionCall) goja.Value {
		ok, err := reMatches(argStr(c, 0), argStr(c, 1))
		if err != nil {
			r.throwErr(err)
		}
		return vm.ToValue(ok)
	})
	set("reSplit", func(c goja.FunctionCall) goja.Value {
		parts, err := reSplit(argStr(c, 0), argStr(c, 1), int(c.Argument(2).ToInteger()))
		if err != nil {
			r.throwErr(err)
		}
		return vm.ToValue(parts)
	})
	set("reFind", func(c goja.FunctionCall) goja.Value {
		m, err := reFind(argStr(c, 0), argStr(c, 1), int(c.Argument(2).ToInteger()))
		if err != nil {
			r.throwErr(err)
		}
		if m == nil {
			return goja.Null()
		}
		return vm.ToValue(m)
	})
	set("reFindAll", func(c goja.FunctionCall) goja.Value {
		m, err := reFindAll(argStr(c, 0), argStr(c, 1))
		if err != nil {
			r.throwErr(err)
		}
		if m == nil {
			m = [][]any{}
		}
		return vm.ToValue(m)
	})
	set("encode", func(c goja.FunctionCall) goja.Value {
		b, err := encodeString(argStr(c, 0), argStr(c, 1))
		if err != nil {
			r.throwErr(err)
		}
		return vm.ToValue(b)
	})
	set("decode", func(c goja.FunctionCall) goja.Value {
		s, err := decodeBytes(r.ints(c.Argument(0)), argStr(c, 1))
		if err != nil {
			r.throwErr(err)
		}
		return vm.ToValue(s)
	})
	set("b64", func(c goja.FunctionCall) goja.Value {
		return vm.ToValue(b64(r.ints(c.Argument(0)), c.Argument(1).ToBoolean()))
	})
	set("unb64", func(c goja.FunctionCall) goja.Value {
		b, err := unb64(argStr(c, 0), c.Argument(1).ToBoolean())
		if err != nil {
			r.throwErr(err)
		}
		return vm.ToValue(b)
	})
	set("urlEncode", func(c goja.FunctionCall) goja.Value {
		s, err := urlEncode(argStr(c, 0), argStr(c, 1))
		if err != nil {
			r.throwErr(err)
		}
		return vm.ToValue(s)
	})
	set("urlDecode", func(c goja.FunctionCall) goja.Value {
		s, err := urlDecode(argStr(c, 0), argStr(c, 1))
		if err != nil {
			r.throwErr(err)
		}
		return vm.ToValue(s)
	})
	set("digest", func(c goja.FunctionCall) goja.Value {
		s, err := digest(argStr(c, 0), argStr(c, 1))
		if err != nil {
			r.throwErr(err)
		}
		return vm.ToValue(s)
	})
	set("urlParts", func(c goja.FunctionCall) goja.Value {
		p, err := urlParts(argStr(c, 0))
		if err != nil {
			r.throwErr(err)
		}
		return vm.ToValue(p)
	})
	set("roundHalfUp", func(c goja.FunctionCall) goja.Value {
		return vm.ToValue(roundHalfUp(c.Argument(0).ToFloat(), int(c.Argument(1).ToInteger())))
	})
	set("strictSqrt", func(c goja.FunctionCall) goja.Value { return vm.ToValue(math.Sqrt(c.Argument(0).ToFloat())) })
	set("strictLog", func(c goja.FunctionCall) goja.Value { return vm.ToValue(math.Log(c.Argument(0).ToFloat())) })
	set("strictExp", func(c goja.FunctionCall) goja.Value { return vm.ToValue(math.Exp(c.Argument(0).ToFloat())) })
	set("strictPow", func(c goja.FunctionCall) goja.Value {
		return vm.ToValue(math.Pow(c.Argument(0).ToFloat(), c.Argument(1).ToFloat()))
	})
	return o
}

func toInt64(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case int:
		return int64(x)
	case float64:
		return int64(x)
	}
	return 0
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case int:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

// hostBridge is the H object: the current Env's host, results and
// assertion, reached from the JavaScript runtime.
func (r *runtime) hostBridge() *goja.Object {
	vm := r.vm
	o := vm.NewObject()
	set := func(name string, f func(c goja.FunctionCall) goja.Value) { _ = o.Set(name, f) }
	h := func() Host { return r.env.Host }
	undef := goja.Undefined()
	set("varGet", func(c goja.FunctionCall) goja.Value {
		if s, ok := h().Var(argStr(c, 0)); ok {
			return vm.ToValue(s)
		}
		return undef
	})
	set("varObj", func(c goja.FunctionCall) goja.Value {
		if ob, ok := h().VarObject(argStr(c, 0)); ok {
			return vm.ToValue(ob.Enc)
		}
		return undef
	})
	set("varPut", func(c goja.FunctionCall) goja.Value {
		name := argStr(c, 0)
		if v := c.Argument(1); goja.IsNull(v) || goja.IsUndefined(v) {
			h().RemoveVar(name)
		} else {
			h().PutVar(name, v.String())
		}
		return undef
	})
	set("varPutObj", func(c goja.FunctionCall) goja.Value {
		h().PutVarObject(argStr(c, 0), Object{Enc: argStr(c, 1), Text: argStr(c, 2)})
		return undef
	})
	set("varRemove", func(c goja.FunctionCall) goja.Value { h().RemoveVar(argStr(c, 0)); return undef })
	set("varNames", func(c goja.FunctionCall) goja.Value { return vm.ToValue(h().VarNames()) })
	set("propGet", func(c goja.FunctionCall) goja.Value {
		if s, ok := h().Prop(argStr(c, 0)); ok {
			return vm.ToValue(s)
		}
		return undef
	})
	set("propObj", func(c goja.FunctionCall) goja.Value {
		if ob, ok := h().PropObject(argStr(c, 0)); ok {
			return vm.ToValue(ob.Enc)
		}
		return undef
	})
	set("propPut", func(c goja.FunctionCall) goja.Value { h().PutProp(argStr(c, 0), argStr(c, 1)); return undef })
	set("propPutObj", func(c goja.FunctionCall) goja.Value {
		h().PutPropObject(argStr(c, 0), Object{Enc: argStr(c, 1), Text: argStr(c, 2)})
		return undef
	})
	set("propRemove", func(c goja.FunctionCall) goja.Value { h().RemoveProp(argStr(c, 0)); return undef })
	set("propNames", func(c goja.FunctionCall) goja.Value { return vm.ToValue(h().PropNames()) })
	set("iteration", func(c goja.FunctionCall) goja.Value { return vm.ToValue(h().Iteration()) })
	set("threadNum", func(c goja.FunctionCall) goja.Value { return vm.ToValue(h().ThreadNum()) })
	set("threadName", func(c goja.FunctionCall) goja.Value { return vm.ToValue(h().ThreadName()) })
	set("groupName", func(c goja.FunctionCall) goja.Value { return vm.ToValue(h().GroupName()) })
	set("groupThreads", func(c goja.FunctionCall) goja.Value { return vm.ToValue(h().GroupThreads()) })
	set("groupActive", func(c goja.FunctionCall) goja.Value { return vm.ToValue(h().GroupActive()) })
	set("samplerName", func(c goja.FunctionCall) goja.Value { return vm.ToValue(h().SamplerName()) })
	set("samplerURL", func(c goja.FunctionCall) goja.Value { return vm.ToValue(h().SamplerURL()) })
	set("hostname", func(c goja.FunctionCall) goja.Value { return vm.ToValue("localhost") })
	set("log", func(c goja.FunctionCall) goja.Value { h().Log(argStr(c, 0), argStr(c, 1)); return undef })
	set("logEnabled", func(c goja.FunctionCall) goja.Value { return vm.ToValue(h().LogEnabled(argStr(c, 0))) })
	set("out", func(c goja.FunctionCall) goja.Value { h().Out(argStr(c, 0), c.Argument(1).ToBoolean()); return undef })
	set("sleep", func(c goja.FunctionCall) goja.Value {
		r.sleep(time.Duration(c.Argument(0).ToInteger()) * time.Millisecond)
		return undef
	})
	set("now", func(c goja.FunctionCall) goja.Value { return vm.ToValue(h().Now().UnixMilli()) })
	set("nanos", func(c goja.FunctionCall) goja.Value { return vm.ToValue(h().Now().UnixNano()) })
	set("seed", func(c goja.FunctionCall) goja.Value { return vm.ToValue(h().Seed()) })
	set("mathSeed", func(c goja.FunctionCall) goja.Value { return vm.ToValue(h().Seed()) })
	set("uuidBytes", func(c goja.FunctionCall) goja.Value {
		var b [16]byte
		h().RandomBytes(b[:])
		out := make([]int, 16)
		for i, x := range b {
			out[i] = int(int8(x))
		}
		return vm.ToValue(out)
	})
	set("rget", func(c goja.FunctionCall) goja.Value { return r.resultGet(int(c.Argument(0).ToInteger()), argStr(c, 1)) })
	set("rset", func(c goja.FunctionCall) goja.Value {
		r.resultSet(int(c.Argument(0).ToInteger()), argStr(c, 1), c.Argument(2), argStr(c, 3))
		return undef
	})
	set("rgetBytes", func(c goja.FunctionCall) goja.Value {
		res := r.result(int(c.Argument(0).ToInteger()))
		out := make([]int, len(res.Body))
		for i, x := range res.Body {
			out[i] = int(int8(x))
		}
		return vm.ToValue(out)
	})
	set("rsetBytes", func(c goja.FunctionCall) goja.Value {
		res := r.result(int(c.Argument(0).ToInteger()))
		b := r.ints(c.Argument(1))
		body := make([]byte, len(b))
		for i, x := range b {
			body[i] = byte(x)
		}
		res.Body = body
		res.Changed |= ChBody
		return undef
	})
	set("rsubs", func(c goja.FunctionCall) goja.Value {
		res := r.result(int(c.Argument(0).ToInteger()))
		ids := make([]int, len(res.Subs))
		for i, s := range res.Subs {
			ids[i] = len(r.results)
			r.results = append(r.results, s)
		}
		return vm.ToValue(ids)
	})
	set("rasserts", func(c goja.FunctionCall) goja.Value {
		res := r.result(int(c.Argument(0).ToInteger()))
		out := make([][]any, len(res.Assertions))
		for i, a := range res.Assertions {
			out[i] = []any{a.Name, a.Failure, a.Error, a.Message}
		}
		return vm.ToValue(out)
	})
	set("aget", func(c goja.FunctionCall) goja.Value {
		a := r.env.Assertion
		if a == nil {
			r.throw("java.lang.NullPointerException", "AssertionResult")
		}
		switch argStr(c, 0) {
		case "failure":
			return vm.ToValue(a.Failure)
		case "error":
			return vm.ToValue(a.Error)
		case "name":
			return vm.ToValue(a.Name)
		}
		if !a.MessageSet {
			return goja.Null()
		}
		return vm.ToValue(a.Message)
	})
	set("aset", func(c goja.FunctionCall) goja.Value {
		a := r.env.Assertion
		if a == nil {
			r.throw("java.lang.NullPointerException", "AssertionResult")
		}
		v := c.Argument(1)
		switch argStr(c, 0) {
		case "failure":
			a.Failure = v.ToBoolean()
		case "error":
			a.Error = v.ToBoolean()
		case "msg":
			a.MessageSet = true
			if goja.IsNull(v) || goja.IsUndefined(v) {
				a.Message = ""
				a.MessageSet = false
			} else {
				a.Message = v.String()
			}
		}
		return undef
	})
	return o
}

func (r *runtime) result(id int) *Result {
	if id < 0 || id >= len(r.results) || r.results[id] == nil {
		r.throw("java.lang.NullPointerException", "no sample result")
	}
	return r.results[id]
}

func (r *runtime) resultGet(id int, field string) goja.Value {
	res := r.result(id)
	vm := r.vm
	lazy := func() {
		if res.Lazy != nil {
			f := res.Lazy
			res.Lazy = nil
			f(res)
		}
	}
	switch field {
	case "body":
		return vm.ToValue(string(res.Body))
	case "code":
		return vm.ToValue(res.Code)
	case "message":
		return vm.ToValue(res.Message)
	case "success":
		return vm.ToValue(res.Success)
	case "label":
		return vm.ToValue(res.Label)
	case "threadName":
		return vm.ToValue(res.ThreadName)
	case "time":
		return vm.ToValue(res.Time)
	case "latency":
		return vm.ToValue(res.Latency)
	case "connect":
		return vm.ToValue(res.Connect)
	case "idle":
		return vm.ToValue(res.Idle)
	case "start":
		return vm.ToValue(res.Start)
	case "end":
		return vm.ToValue(res.End)
	case "bytes":
		return vm.ToValue(res.Bytes)
	case "sentBytes":
		return vm.ToValue(res.SentBytes)
	case "headersSize":
		return vm.ToValue(res.HeadersSize)
	case "bodySize":
		return vm.ToValue(int64(len(res.Body)))
	case "responseHeaders":
		lazy()
		return vm.ToValue(res.ResponseHeaders)
	case "requestHeaders":
		lazy()
		return vm.ToValue(res.RequestHeaders)
	case "samplerData":
		lazy()
		return vm.ToValue(res.SamplerData)
	case "url":
		return vm.ToValue(res.URL)
	case "dataType":
		return vm.ToValue(res.DataType)
	case "contentType":
		return vm.ToValue(res.ContentType)
	case "encoding":
		if res.Encoding == "" {
			return vm.ToValue("ISO-8859-1")
		}
		return vm.ToValue(res.Encoding)
	case "redirect":
		if res.Redirect == "" {
			return goja.Null()
		}
		return vm.ToValue(res.Redirect)
	case "ignore":
		return vm.ToValue(res.Ignore)
	case "stopThread":
		return vm.ToValue(res.StopThread)
	case "stopTest":
		return vm.ToValue(res.StopTest)
	}
	r.throw("java.lang.IllegalStateException", "gojm: no result field "+field)
	return nil
}

func (r *runtime) resultSet(id int, field string, v goja.Value, extra string) {
	res := r.result(id)
	str := func() string {
		if goja.IsNull(v) || goja.IsUndefined(v) {
			return ""
		}
		return v.String()
	}
	switch field {
	case "body":
		res.Body = []byte(str())
		res.Changed |= ChBody
		if extra != "" {
			res.Encoding = extra
		}
	case "code":
		res.Code = str()
		res.Changed |= ChCode
	case "message":
		res.Message = str()
		res.Changed |= ChMessage
	case "success":
		res.Success = v.ToBoolean()
		res.Changed |= ChSuccess
	case "label":
		res.Label = str()
		res.Changed |= ChLabel
	case "bytes":
		res.Bytes = v.ToInteger()
		res.Changed |= ChBytes
	case "sentBytes":
		res.SentBytes = v.ToInteger()
		res.Changed |= ChSentBytes
	case "responseHeaders":
		if res.Lazy != nil {
			f := res.Lazy
			res.Lazy = nil
			f(res)
		}
		res.ResponseHeaders = str()
		res.Changed |= ChResponseHeaders
	case "requestHeaders":
		if res.Lazy != nil {
			f := res.Lazy
			res.Lazy = nil
			f(res)
		}
		res.RequestHeaders = str()
		res.Changed |= ChRequestHeaders
	case "samplerData":
		if res.Lazy != nil {
			f := res.Lazy
			res.Lazy = nil
			f(res)
		}
		res.SamplerData = str()
		res.Changed |= ChSamplerData
	case "dataType":
		res.DataType = str()
		res.Changed |= ChDataType
	case "contentType":
		res.ContentType = str()
		res.Changed |= ChContentType
	case "latency":
		res.Latency = v.ToInteger()
		res.Changed |= ChLatency
	case "connect":
		res.Connect = v.ToInteger()
		res.Changed |= ChConnect
	case "ignore":
		res.Ignore = true
		res.Changed |= ChIgnore
	case "stopThread":
		res.StopThread = v.ToBoolean()
		res.Changed |= ChStop
	case "stopTest":
		res.StopTest = v.ToBoolean()
		res.Changed |= ChStop
	case "stopTestNow":
		res.StopTestNow = v.ToBoolean()
		res.Changed |= ChStop
	case "nextLoop":
		res.NextLoop = v.ToBoolean()
		res.Changed |= ChStop
	case "sampleStart":
		if res.OnSampleStart != nil {
			res.OnSampleStart()
		}
	case "sampleEnd":
		if res.OnSampleEnd != nil {
			res.OnSampleEnd()
		}
	case "latencyEnd":
	default:
		r.throw("java.lang.IllegalStateException", "gojm: no result field "+field)
	}
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
