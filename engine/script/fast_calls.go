package script

import (
	"strconv"
	"strings"
)

// The calls of the direct path: JMeter's bindings (vars, props, log, ctx,
// prev, SampleResult), a few static methods and String's common methods,
// each resolved when the script compiles.

func (c *dcomp) call(e *callExpr) fexpr {
	if len(e.named) > 0 || e.spread {
		c.no()
	}
	if e.recv == nil {
		c.no()
	}
	args := make([]fexpr, len(e.args))
	for i, a := range e.args {
		if _, closure := a.(*closureExpr); closure {
			c.no()
		}
		args[i] = c.expr(a)
	}
	if id, ok := e.recv.(*identExpr); ok {
		if _, local := c.lookup(id.name); !local {
			if e.safe {
				c.no()
			}
			switch id.name {
			case "vars":
				return c.varsCall(e.name, args)
			case "props":
				return c.propsCall(e.name, args)
			case "log":
				return c.logCall(e.name, args)
			case "prev":
				return c.resultCall(0, e.name, args)
			case "SampleResult":
				return c.resultCall(1, e.name, args)
			case "ctx":
				return c.ctxCall(e.name, args)
			case "String", "Integer", "Long", "System":
				return c.staticCall(id.name, e.name, args)
			}
			c.no()
		}
	}
	if inner, ok := e.recv.(*callExpr); ok && !e.safe {
		if id, ok := inner.recv.(*identExpr); ok && id.name == "ctx" && inner.name == "getPreviousResult" && len(inner.args) == 0 {
			if _, local := c.lookup("ctx"); !local {
				return c.resultCall(0, e.name, args)
			}
		}
	}
	recv := c.expr(e.recv)
	return c.valueCall(recv, e.name, args, e.safe)
}

func need(n int, args []fexpr, c *dcomp) {
	if len(args) != n {
		c.no()
	}
}

// strArg evaluates an argument that must be a String (a name, a value).
func strArg(f *frame, a fexpr) string {
	v := a(f)
	if v.k != vString {
		bail()
	}
	return v.s
}

func optStr(s string, ok bool) val {
	if !ok {
		return nullVal
	}
	return strVal(s)
}

func (c *dcomp) varsCall(name string, args []fexpr) fexpr {
	switch name {
	case "get":
		need(1, args, c)
		a := args[0]
		return func(f *frame) val { return optStr(f.varGet(strArg(f, a))) }
	case "put":
		need(2, args, c)
		k, v := args[0], args[1]
		return func(f *frame) val {
			name := strArg(f, k)
			x := v(f)
			switch x.k {
			case vString:
				f.journal = append(f.journal, effect{k: efPutVar, a: name, b: x.s})
			case vNull:
				f.journal = append(f.journal, effect{k: efRemoveVar, a: name})
			default:
				bail()
			}
			return nullVal
		}
	case "remove":
		need(1, args, c)
		return removeCall(args[0], (*frame).varGet, efRemoveVar)
	case "getIteration":
		need(0, args, c)
		return func(f *frame) val { return intVal(int32(f.env.Host.Iteration())) }
	}
	c.no()
	return nil
}

// removeCall is vars.remove and props.remove: the old value.
func removeCall(a fexpr, get func(f *frame, name string) (string, bool), k effectKind) fexpr {
	return func(f *frame) val {
		name := strArg(f, a)
		old := optStr(get(f, name))
		f.journal = append(f.journal, effect{k: k, a: name})
		return old
	}
}

func (c *dcomp) propsCall(name string, args []fexpr) fexpr {
	switch name {
	case "get", "getProperty":
		switch len(args) {
		case 1:
			a := args[0]
			return func(f *frame) val { return optStr(f.propGet(strArg(f, a))) }
		case 2:
			if name == "get" {
				c.no() // Groovy's get(key, default) puts the default
			}
			a, dflt := args[0], args[1]
			return func(f *frame) val {
				if s, ok := f.propGet(strArg(f, a)); ok {
					return strVal(s)
				}
				return dflt(f)
			}
		}
	case "put", "setProperty":
		need(2, args, c)
		k, v := args[0], args[1]
		return func(f *frame) val {
			key := strArg(f, k)
			x := strArg(f, v)
			old := optStr(f.propGet(key))
			f.journal = append(f.journal, effect{k: efPutProp, a: key, b: x})
			return old
		}
	case "remove":
		need(1, args, c)
		return removeCall(args[0], (*frame).propGet, efRemoveProp)
	}
	c.no()
	return nil
}

func (c *dcomp) logCall(name string, args []fexpr) fexpr {
	level := name
	switch name {
	case "info", "warn", "error", "debug", "trace":
	case "fatalError":
		level = "error"
	case "isInfoEnabled", "isWarnEnabled", "isErrorEnabled", "isDebugEnabled", "isTraceEnabled":
		need(0, args, c)
		lv := strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(name, "is"), "Enabled"))
		return func(f *frame) val { return boolVal(f.env.Host.LogEnabled(lv)) }
	default:
		c.no()
	}
	// one argument: a message with {} and further arguments is the
	// translation's
	need(1, args, c)
	a := args[0]
	return func(f *frame) val {
		f.journal = append(f.journal, effect{k: efLog, a: level, b: a(f).str()})
		return nullVal
	}
}

func (c *dcomp) ctxCall(name string, args []fexpr) fexpr {
	switch name {
	case "getThreadNum":
		need(0, args, c)
		return func(f *frame) val { return intVal(int32(f.env.Host.ThreadNum())) }
	}
	c.no()
	return nil
}

// result is the sample a binding names (0 prev, 1 SampleResult); a
// binding without one is null, and a call on it bails.
func (f *frame) result(i int) *Result {
	r := f.env.Prev
	if i == 1 && f.env.Current != nil {
		r = f.env.Current
	}
	if r == nil {
		bail()
	}
	return r
}

func (r *Result) fill() {
	if r.Lazy != nil {
		l := r.Lazy
		r.Lazy = nil
		l(r)
	}
}

// resultGetters read a SampleResult's fields.
var resultGetters = map[string]func(r *Result) val{
	"getResponseDataAsString": func(r *Result) val { return strVal(string(r.Body)) },
	"getResponseCode":         func(r *Result) val { return strVal(r.Code) },
	"isResponseCodeOK":        func(r *Result) val { return boolVal(r.Code == "200") },
	"getResponseMessage":      func(r *Result) val { return strVal(r.Message) },
	"isSuccessful":            func(r *Result) val { return boolVal(r.Success) },
	"getErrorCount": func(r *Result) val {
		if r.Success {
			return intVal(0)
		}
		return intVal(1)
	},
	"getSampleCount":     func(r *Result) val { return intVal(1) },
	"getSampleLabel":     func(r *Result) val { return strVal(r.Label) },
	"getThreadName":      func(r *Result) val { return strVal(r.ThreadName) },
	"getTime":            func(r *Result) val { return longVal(r.Time) },
	"getLatency":         func(r *Result) val { return longVal(r.Latency) },
	"getConnectTime":     func(r *Result) val { return longVal(r.Connect) },
	"getIdleTime":        func(r *Result) val { return longVal(r.Idle) },
	"getStartTime":       func(r *Result) val { return longVal(r.Start) },
	"getEndTime":         func(r *Result) val { return longVal(r.End) },
	"getTimeStamp":       func(r *Result) val { return longVal(r.Start) },
	"getBytes":           func(r *Result) val { return longVal(r.Bytes) },
	"getBytesAsLong":     func(r *Result) val { return longVal(r.Bytes) },
	"getSentBytes":       func(r *Result) val { return longVal(r.SentBytes) },
	"getBodySize":        func(r *Result) val { return longVal(int64(len(r.Body))) },
	"getResponseHeaders": func(r *Result) val { r.fill(); return strVal(r.ResponseHeaders) },
	"getRequestHeaders":  func(r *Result) val { r.fill(); return strVal(r.RequestHeaders) },
	"getSamplerData":     func(r *Result) val { r.fill(); return strVal(r.SamplerData) },
	"getUrlAsString":     func(r *Result) val { return strVal(r.URL) },
	"getDataType":        func(r *Result) val { return strVal(r.DataType) },
	"getContentType":     func(r *Result) val { return strVal(r.ContentType) },
}

func (c *dcomp) resultCall(i int, name string, args []fexpr) fexpr {
	if g, ok := resultGetters[name]; ok {
		need(0, args, c)
		return func(f *frame) val { return g(f.result(i)) }
	}
	d := c.d
	// a setter's text: null clears it; Groovy writes a non-string with
	// toString, BeanShell finds no such method
	text := func(v val) string {
		switch {
		case v.k == vString:
			return v.s
		case v.k == vNull:
			return ""
		case d == BeanShell:
			bail()
		}
		return v.str()
	}
	set := func(apply func(r *Result, v val)) fexpr {
		need(1, args, c)
		c.direct.sets[i] = true
		a := args[0]
		return func(f *frame) val {
			r := f.result(i)
			apply(r, a(f))
			return nullVal
		}
	}
	switch name {
	case "setResponseCode":
		return set(func(r *Result, v val) { r.Code = text(v); r.Changed |= ChCode })
	case "setResponseMessage":
		return set(func(r *Result, v val) { r.Message = text(v); r.Changed |= ChMessage })
	case "setSampleLabel":
		return set(func(r *Result, v val) { r.Label = text(v); r.Changed |= ChLabel })
	case "setDataType":
		return set(func(r *Result, v val) { r.DataType = text(v); r.Changed |= ChDataType })
	case "setContentType":
		return set(func(r *Result, v val) { r.ContentType = text(v); r.Changed |= ChContentType })
	case "setSuccessful":
		return set(func(r *Result, v val) {
			switch {
			case v.k == vBool:
				r.Success = v.n != 0
			case d == Groovy && v.k != vNull:
				r.Success = v.truth(d)
			default:
				bail()
			}
			r.Changed |= ChSuccess
		})
	case "setResponseCodeOK", "setResponseMessageOK", "setResponseMessageKO", "setResponseOK":
		need(0, args, c)
		c.direct.sets[i] = true
		return func(f *frame) val {
			r := f.result(i)
			switch name {
			case "setResponseCodeOK":
				r.Code, r.Changed = "200", r.Changed|ChCode
			case "setResponseMessageOK":
				r.Message, r.Changed = "OK", r.Changed|ChMessage
			case "setResponseMessageKO":
				r.Message, r.Changed = "KO", r.Changed|ChMessage
			default:
				r.Code, r.Message, r.Success = "200", "OK", true
				r.Changed |= ChCode | ChMessage | ChSuccess
			}
			return nullVal
		}
	}
	c.no()
	return nil
}

func (c *dcomp) staticCall(class, name string, args []fexpr) fexpr {
	switch class + "." + name {
	case "String.valueOf":
		need(1, args, c)
		a := args[0]
		return func(f *frame) val { return strVal(a(f).str()) }
	case "Integer.parseInt", "Integer.valueOf", "Long.parseLong", "Long.valueOf":
		need(1, args, c)
		a, long := args[0], class == "Long"
		return func(f *frame) val {
			v := a(f)
			switch {
			case v.k == vString && long:
				return longVal(parseInt(v.s, 64))
			case v.k == vString:
				return intVal(int32(parseInt(v.s, 32)))
			case name != "valueOf":
			case v.k == vInt && !long:
				return v
			case (v.k == vInt || v.k == vLong) && long:
				return longVal(v.n)
			}
			bail()
			return nullVal
		}
	case "Integer.toString", "Long.toString":
		need(1, args, c)
		a, long := args[0], class == "Long"
		return func(f *frame) val {
			v := a(f)
			if v.k != vInt && v.k != vLong {
				bail()
			}
			if !long {
				v.n = int64(int32(v.n))
			}
			return strVal(strconv.FormatInt(v.n, 10))
		}
	case "System.currentTimeMillis":
		need(0, args, c)
		return func(f *frame) val { return longVal(f.env.Host.Now().UnixMilli()) }
	}
	c.no()
	return nil
}

// valueCall is a method of a value: String's common methods and
// toString; any other receiver bails.
func (c *dcomp) valueCall(recv fexpr, name string, args []fexpr, safe bool) fexpr {
	var m func(f *frame, s string) val
	n := len(args)
	arg := func(f *frame, i int) string { return strArg(f, args[i]) }
	intArg := func(f *frame, i int) int {
		v := args[i](f)
		if v.k != vInt {
			bail()
		}
		return int(v.n)
	}
	switch {
	case name == "toString" && n == 0:
		return func(f *frame) val {
			v := recv(f)
			if v.k == vNull {
				if safe {
					return v
				}
				bail()
			}
			return strVal(v.str())
		}
	case name == "length" && n == 0:
		m = func(f *frame, s string) val {
			if !ascii(s) {
				bail()
			}
			return intVal(int32(len(s)))
		}
	case name == "isEmpty" && n == 0:
		m = func(f *frame, s string) val { return boolVal(s == "") }
	case (name == "toUpperCase" || name == "toLowerCase") && n == 0:
		up := name == "toUpperCase"
		m = func(f *frame, s string) val {
			if !ascii(s) {
				bail()
			}
			if up {
				return strVal(strings.ToUpper(s))
			}
			return strVal(strings.ToLower(s))
		}
	case name == "trim" && n == 0:
		m = func(f *frame, s string) val {
			return strVal(strings.TrimFunc(s, func(r rune) bool { return r <= ' ' }))
		}
	case name == "substring" && (n == 1 || n == 2):
		m = func(f *frame, s string) val {
			if !ascii(s) {
				bail()
			}
			i, j := intArg(f, 0), len(s)
			if n == 2 {
				j = intArg(f, 1)
			}
			if i < 0 || j > len(s) || i > j {
				bail()
			}
			return strVal(s[i:j])
		}
	case name == "indexOf" && n == 1:
		m = func(f *frame, s string) val {
			if !ascii(s) {
				bail()
			}
			return intVal(int32(strings.Index(s, arg(f, 0))))
		}
	case (name == "contains" || name == "startsWith" || name == "endsWith" || name == "equals" || name == "equalsIgnoreCase") && n == 1:
		m = func(f *frame, s string) val {
			v := args[0](f)
			if name == "equals" {
				return boolVal(v.k == vString && v.s == s)
			}
			if name == "equalsIgnoreCase" {
				if v.k == vNull {
					return boolVal(false)
				}
				if v.k != vString || !ascii(s) || !ascii(v.s) {
					bail()
				}
				return boolVal(strings.EqualFold(s, v.s))
			}
			if v.k != vString {
				bail()
			}
			switch name {
			case "contains":
				return boolVal(strings.Contains(s, v.s))
			case "startsWith":
				return boolVal(strings.HasPrefix(s, v.s))
			}
			return boolVal(strings.HasSuffix(s, v.s))
		}
	case name == "replace" && n == 2:
		m = func(f *frame, s string) val {
			old, nw := arg(f, 0), arg(f, 1)
			if old == "" {
				bail()
			}
			return strVal(strings.ReplaceAll(s, old, nw))
		}
	case name == "concat" && n == 1:
		m = func(f *frame, s string) val { return strVal(s + arg(f, 0)) }
	default:
		c.no()
	}
	return func(f *frame) val {
		v := recv(f)
		if v.k != vString {
			if v.k == vNull && safe {
				return v
			}
			bail()
		}
		return m(f, v.s)
	}
}
