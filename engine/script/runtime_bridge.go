package script

import (
	_ "embed"
	"math"
	"os"
	goruntime "runtime"
	"time"

	"github.com/dop251/goja"
)

func (r *runtime) javaHelpers() *goja.Object {
	vm := r.vm
	o := vm.NewObject()
	set := func(name string, f func(c goja.FunctionCall) goja.Value) { _ = o.Set(name, f) }
	r.dateHelpers(set)
	r.calendarHelpers(set)
	r.fileHelpers(set)
	r.serverHelpers(set)
	r.identityHelpers(set)
	_ = o.Set("goos", goruntime.GOOS)
	_ = o.Set("fileSep", string(os.PathSeparator))
	_ = o.Set("pathSep", string(os.PathListSeparator))
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
	set("stopThread", func(goja.FunctionCall) goja.Value { h().StopThread(); return undef })
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
	set("baseDir", func(c goja.FunctionCall) goja.Value { return vm.ToValue(h().BaseDir()) })
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
	r.requestBridge(set)
	r.cookieBridge(set)
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
