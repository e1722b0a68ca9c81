package script

import (
	"testing"

	"github.com/dop251/goja"
)

// Short scripts as real plans write them (at most five lines over vars,
// props, strings, arithmetic and prev), each run as a pre- or
// post-processor runs it: one Env per run, on the user's Host.
var shortScripts = []struct {
	name string
	d    Dialect
	src  string
}{
	{"token", Groovy, `def user = vars.get("user")
vars.put("token", user + "-" + vars.getIteration())
vars.put("auth", "Bearer " + vars.get("token"))`},
	{"prev", Groovy, `if (prev.getResponseCode() != "200") {
    log.warn("failed: " + prev.getSampleLabel())
    vars.put("failed", "true")
}
vars.put("elapsed", String.valueOf(prev.getTime()))`},
	{"counter", BeanShell, `int n = Integer.parseInt(vars.get("n"));
n = n + 1;
vars.put("n", Integer.toString(n));
props.put("last", vars.get("user") + "_" + n);`},
	{"strings", Groovy, `String id = vars.get("id")
vars.put("short", id.substring(0, 4).toUpperCase())
vars.put("path", "/items/${id}?page=${vars.getIteration() * 10}")`},
}

func shortScriptEnv() (*testHost, *Result) {
	h := newTestHost()
	h.vars["user"], h.vars["n"], h.vars["id"] = "alice", "41", "a1b2c3d4"
	return h, &Result{Label: "Login", Code: "500", Message: "Internal Server Error", Time: 42, ThreadName: "Users 1-1"}
}

// BenchmarkShortScript runs each script on the direct path (Go closures)
// and on the JavaScript translation, in one run so that they compare:
// go test -run '^$' -bench ShortScript -benchmem -count 10 ./engine/script | benchstat -col /path -
func BenchmarkShortScript(b *testing.B) {
	for _, s := range shortScripts {
		p, err := CompileFresh(s.src, s.d)
		if err != nil {
			b.Fatal(err)
		}
		if !p.Direct() {
			b.Fatalf("%s: not on the direct path", s.name)
		}
		for _, path := range []string{"direct", "translated"} {
			b.Run(s.name+"/path="+path, func(b *testing.B) {
				run := p.Run
				if path == "translated" {
					run = p.runTranslated
				}
				h, prev := shortScriptEnv()
				env := &Env{Host: h, Prev: prev}
				if _, err := run(env); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					h.logs = h.logs[:0]
					h.vars["n"] = "41"
					*env = Env{Host: h, Prev: prev}
					if _, err := run(env); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkShortScriptTranslationBare is the other way to a faster
// script, measured: the translation with every per-run cost around it
// removed (the bindings object built once, no reset, no time bound), so
// only the translated function and the runtime's Java-semantics helpers
// it calls remain. "goja-floor" is the least any goja path costs: a
// function over Go-backed bindings with no helpers at all.
func BenchmarkShortScriptTranslationBare(b *testing.B) {
	for _, s := range shortScripts {
		b.Run(s.name, func(b *testing.B) {
			p, err := CompileFresh(s.src, s.d)
			if err != nil {
				b.Fatal(err)
			}
			h, prev := shortScriptEnv()
			env := &Env{Host: h, Prev: prev}
			r, err := getRuntime()
			if err != nil {
				b.Fatal(err)
			}
			if _, err := r.run(p, env); err != nil {
				b.Fatal(err)
			}
			r.env = env
			r.results = append(r.results[:0], env.Prev, env.Current, env.Event)
			d := r.gd
			if p.dialect == BeanShell {
				d = r.bd
			}
			g := r.vm.NewObject()
			for i, k := range bindingNames {
				_ = g.Set(k, d.bindings[i])
			}
			pv, _ := d.result(d.obj, r.vm.ToValue(0))
			_ = g.Set("prev", pv)
			f := r.fns[p]
			b.ReportAllocs()
			for b.Loop() {
				h.logs = h.logs[:0]
				h.vars["n"] = "41"
				if _, err := f(goja.Undefined(), g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("goja-floor", func(b *testing.B) {
		vm := goja.New()
		h, _ := shortScriptEnv()
		vars := vm.NewObject()
		_ = vars.Set("get", func(c goja.FunctionCall) goja.Value {
			if v, ok := h.Var(c.Argument(0).String()); ok {
				return vm.ToValue(v)
			}
			return goja.Null()
		})
		_ = vars.Set("put", func(c goja.FunctionCall) goja.Value {
			h.PutVar(c.Argument(0).String(), c.Argument(1).String())
			return goja.Undefined()
		})
		_ = vars.Set("getIteration", func(c goja.FunctionCall) goja.Value { return vm.ToValue(h.Iteration()) })
		g := vm.NewObject()
		_ = g.Set("vars", vars)
		v, err := vm.RunString(`(function (g) { const vars = g.vars; let user = vars.get("user");
vars.put("token", user + "-" + vars.getIteration()); vars.put("auth", "Bearer " + vars.get("token")); })`)
		if err != nil {
			b.Fatal(err)
		}
		f, _ := goja.AssertFunction(v)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := f(goja.Undefined(), g); err != nil {
				b.Fatal(err)
			}
		}
	})
}
