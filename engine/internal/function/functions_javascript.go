package function

import (
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/dop251/goja"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/internal/cache"
	"github.com/gojm/gojm/jmx"
)

// JavaScript (__javaScript, JavaScript If conditions) runs on goja, a
// JavaScript engine in pure Go. Scripts are compiled once per distinct
// source and run on runtimes taken from a pool: a runtime is built once
// (about 100 µs) and serves any virtual user, one at a time. Each runtime
// holds JMeter's script context: vars, props, ctx, sampler, log, OUT,
// threadName, bound to the virtual user it is serving. Unlike JMeter's
// Rhino, which makes a fresh scope per call, globals a script declares stay
// in the pooled runtime.

// jsRuntime is one pooled JavaScript runtime.
type jsRuntime struct {
	rt *goja.Runtime
	vu *element.VU // the virtual user being served
}

var jsPool = sync.Pool{New: func() any { return newJSRuntime() }}

func newJSRuntime() *jsRuntime {
	r := &jsRuntime{rt: goja.New()}
	rt := r.rt
	str := func(c goja.FunctionCall, i int) string {
		v := c.Argument(i)
		if goja.IsUndefined(v) || goja.IsNull(v) {
			return ""
		}
		return v.String()
	}
	obj := func(methods map[string]func(goja.FunctionCall) goja.Value) *goja.Object {
		o := rt.NewObject()
		for k, f := range methods {
			_ = o.Set(k, f) // Set on a plain object cannot fail
		}
		return o
	}
	vars := obj(map[string]func(goja.FunctionCall) goja.Value{
		"get": func(c goja.FunctionCall) goja.Value {
			if s, ok := r.vu.Vars.Get(str(c, 0)); ok {
				return rt.ToValue(s)
			}
			return goja.Null()
		},
		"put": func(c goja.FunctionCall) goja.Value {
			r.vu.Vars.Put(str(c, 0), str(c, 1))
			return goja.Undefined()
		},
		"remove": func(c goja.FunctionCall) goja.Value {
			n := str(c, 0)
			old, ok := r.vu.Vars.Get(n)
			r.vu.Vars.Remove(n)
			if !ok {
				return goja.Null()
			}
			return rt.ToValue(old)
		},
		"getIteration": func(goja.FunctionCall) goja.Value { return rt.ToValue(r.vu.Iteration) },
	})
	_ = vars.Set("getObject", vars.Get("get"))
	_ = vars.Set("putObject", vars.Get("put"))
	props := obj(map[string]func(goja.FunctionCall) goja.Value{
		"get": func(c goja.FunctionCall) goja.Value {
			if s, ok := r.vu.Plan.Props.Get(str(c, 0)); ok {
				return rt.ToValue(s)
			}
			if len(c.Arguments) > 1 {
				return c.Argument(1)
			}
			return goja.Null()
		},
		"put": func(c goja.FunctionCall) goja.Value {
			n := str(c, 0)
			old, ok := r.vu.Plan.Props.Get(n)
			r.vu.Plan.Props.Set(n, str(c, 1))
			if !ok {
				return goja.Null()
			}
			return rt.ToValue(old)
		},
	})
	_ = props.Set("getProperty", props.Get("get"))
	_ = props.Set("setProperty", props.Get("put"))
	sampler := obj(map[string]func(goja.FunctionCall) goja.Value{
		"getName": func(goja.FunctionCall) goja.Value { return rt.ToValue(r.vu.SamplerName) },
	})
	ctx := obj(map[string]func(goja.FunctionCall) goja.Value{
		"getThreadNum":      func(goja.FunctionCall) goja.Value { return rt.ToValue(r.vu.Num - 1) },
		"getVariables":      func(goja.FunctionCall) goja.Value { return vars },
		"getProperties":     func(goja.FunctionCall) goja.Value { return props },
		"getCurrentSampler": func(goja.FunctionCall) goja.Value { return sampler },
	})
	logf := func(level string) func(goja.FunctionCall) goja.Value {
		return func(c goja.FunctionCall) goja.Value {
			msg, vu := str(c, 0), r.vu
			switch level {
			case "warn":
				vu.Log.Warn(msg, "thread", vu.Name)
			case "error":
				vu.Log.Error(msg, "thread", vu.Name)
			case "debug":
				vu.Log.Debug(msg, "thread", vu.Name)
			default:
				vu.Log.Info(msg, "thread", vu.Name)
			}
			return goja.Undefined()
		}
	}
	log := obj(map[string]func(goja.FunctionCall) goja.Value{
		"info": logf("info"), "warn": logf("warn"), "error": logf("error"), "debug": logf("debug"),
	})
	out := obj(map[string]func(goja.FunctionCall) goja.Value{
		"println": func(c goja.FunctionCall) goja.Value { fmt.Fprintln(os.Stdout, str(c, 0)); return goja.Undefined() },
		"print":   func(c goja.FunctionCall) goja.Value { fmt.Fprint(os.Stdout, str(c, 0)); return goja.Undefined() },
	})
	for k, v := range map[string]any{"vars": vars, "props": props, "sampler": sampler, "ctx": ctx, "log": log, "OUT": out} {
		_ = rt.Set(k, v) // setting a global cannot fail
	}
	return r
}

// jsPrograms holds compiled scripts by source text, shared by every plan.
var jsPrograms = cache.NewFunc(4096, func(src string) (*goja.Program, error) {
	p, err := goja.Compile("", src, false)
	if err != nil {
		return nil, fmt.Errorf("JavaScript %q: %w", src, err)
	}
	return p, nil
})

// runJS runs a compiled script for a virtual user on a pooled runtime and
// returns its value as Rhino's Context.toString gives it.
func runJS(vu *element.VU, p *goja.Program) (string, error) {
	r := jsPool.Get().(*jsRuntime)
	r.vu = vu
	_ = r.rt.Set("threadName", vu.Name)
	v, err := r.rt.RunProgram(p)
	var s string
	if err == nil {
		s = v.String()
	} else {
		var ie *goja.InterruptedError
		if errors.As(err, &ie) {
			r.rt.ClearInterrupt()
		}
	}
	r.vu = nil
	jsPool.Put(r)
	return s, err
}

// jsProgram is JavaScript compiled from a plan field: the field's ${…}
// references are evaluated first, then the text runs as a script.
type jsProgram struct {
	src  *element.Template
	prog *goja.Program // the compiled script when src has no ${…}
}

// compileJavaScript compiles a plan field holding JavaScript, such as a JavaScript
// If Controller condition. A field without ${…} is compiled now, and a
// syntax error fails the plan; one with ${…} is compiled on first use of
// each distinct text. Evaluate it with eval:
//
//	p, err := compileJavaScript(c, e, e.Str("IfController.condition"))
//	…
//	s, err := p.eval(vu) // "true" when the condition holds
func compileJavaScript(c element.Builder, e *jmx.Element, src string) (*jsProgram, error) {
	t := c.Template(e, "script", src)
	p := &jsProgram{src: t}
	if t.Const() {
		prog, err := jsPrograms.Get(t.Raw())
		if err != nil {
			return nil, err
		}
		p.prog = prog
	}
	return p, nil
}

// eval runs the script for a virtual user and returns its value as text
// ("true", "3", "undefined"…).
func (p *jsProgram) eval(vu *element.VU) (string, error) {
	prog := p.prog
	if prog == nil {
		var err error
		if prog, err = jsPrograms.Get(p.src.Eval(vu)); err != nil {
			return "", err
		}
	}
	return runJS(vu, prog)
}

// ${__javaScript(script,var)}: the script's value; "" when it fails.
func fnJavaScript(tp *Compiler, args []*element.Template) (element.Function, error) {
	src, v := args[0], Arg(args, 1)
	p := &jsProgram{src: src}
	if src.Const() {
		prog, err := jsPrograms.Get(src.Raw())
		if err != nil {
			return nil, err
		}
		p.prog = prog
	}
	return StoreAs(v, func(vu *element.VU) string {
		s, err := p.eval(vu)
		if err != nil {
			vu.Warnf("__javaScript: %v", err)
			return ""
		}
		return s
	}), nil
}
