package script

import (
	"errors"
	"fmt"
	"strings"
	"unique"

	"github.com/dop251/goja"
	"github.com/gojm/gojm/internal/cache"
)

// JavaScript is a script in JavaScript itself, run as written (JMeter's
// javascript scriptLanguage), with the bindings as Nashorn shows them.
const JavaScript Dialect = 2

// Program is a compiled script, shared by every virtual user.
type Program struct {
	dialect Dialect
	raw     bool
	js      *goja.Program
	// Source is the script's text; JS its translation (empty for
	// JavaScript scripts).
	Source, JS string
	// Warnings are what the script calls that JMeter's classes lack: it
	// compiles, and the call fails when it runs, as in JMeter.
	Warnings []string
	used     map[string]bool
	files    []FileUse
	forbid   []string
	// direct is the script compiled to Go closures (fast.go), nil where
	// it is not covered.
	direct *direct
	// lits keeps a BeanShell script's string literals interned while the
	// program lives (identity.go).
	lits []unique.Handle[string]
}

// Direct reports whether the script runs on the direct path (compiled to
// Go closures rather than run as its JavaScript translation).
func (p *Program) Direct() bool { return p.direct != nil }

// Uses reports whether the script reads a binding (vars, prev,
// SampleResult…); ctx.getPreviousResult() counts as prev. A JavaScript
// script may read any.
func (p *Program) Uses(name string) bool { return p.raw || p.used[name] }

// Dialect is the program's source language.
func (p *Program) Dialect() Dialect { return p.dialect }

// programs holds compiled programs by dialect and text, shared by every
// plan.
var programs = cache.NewFunc(4096, func(k progKey) (*Program, error) { return compile(k.src, k.d) })

type progKey struct {
	d   Dialect
	src string
}

// Compile translates a script (Groovy or BeanShell) to JavaScript and
// compiles it, or compiles a JavaScript script as it is. What gojm cannot
// translate comes back as an *Error with Refused set, naming the
// construct. Each distinct text is compiled once.
func Compile(src string, d Dialect) (*Program, error) { return programs.Get(progKey{d, src}) }

// CompileFresh compiles a script without keeping it in the shared cache:
// for texts made at run time, which may each differ.
func CompileFresh(src string, d Dialect) (*Program, error) { return compile(src, d) }

// CompileHoles compiles a script whose text has holes (HoleMarker 0 to
// n-1) standing for ${…} values known only when it runs, each inside a
// string literal: the translation reads hole i's text from Env.Holes.
// Forbid(i) tells which characters the text may not hold to read as
// plain text in its literal (a quote, a backslash, a $…); a text with one
// needs the script compiled again with the text in place. A hole outside
// a string literal gives ErrHoleInCode.
func CompileHoles(src string, d Dialect, n int) (*Program, error) {
	if d == JavaScript {
		return nil, ErrHoleInCode
	}
	cat, err := loadCatalog()
	if err != nil {
		return nil, err
	}
	stmts, forbid, err := parseHoles(src, d)
	if err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		if _, ok := forbid[i]; !ok {
			return nil, ErrHoleInCode
		}
	}
	js, used, warns, files, lits, err := translate(src, d, stmts, cat)
	if err != nil {
		return nil, err
	}
	prog, err := goja.Compile("script.js", js, true)
	if err != nil {
		return nil, fmt.Errorf("script: compiling the translation: %w", err)
	}
	f := make([]string, n)
	for i := range f {
		f[i] = forbid[i]
	}
	return &Program{dialect: d, js: prog, Source: src, JS: js, used: used, Warnings: warns, files: files, forbid: f, direct: compileDirect(stmts, d), lits: internLiterals(lits)}, nil
}

// Forbid is the characters hole i's text may not hold.
func (p *Program) Forbid(i int) string { return p.forbid[i] }

func compile(src string, d Dialect) (*Program, error) {
	if d == JavaScript {
		js, err := goja.Compile("script.js", src, false)
		if err != nil {
			return nil, &Error{Msg: "JavaScript syntax: " + err.Error()}
		}
		return &Program{dialect: d, raw: true, js: js, Source: src}, nil
	}
	cat, err := loadCatalog()
	if err != nil {
		return nil, err
	}
	stmts, err := parse(src, d)
	if err != nil {
		return nil, err
	}
	js, used, warns, files, lits, err := translate(src, d, stmts, cat)
	if err != nil {
		return nil, err
	}
	prog, err := goja.Compile("script.js", js, true)
	if err != nil {
		return nil, fmt.Errorf("script: compiling the translation: %w", err)
	}
	return &Program{dialect: d, js: prog, Source: src, JS: js, used: used, Warnings: warns, files: files, direct: compileDirect(stmts, d), lits: internLiterals(lits)}, nil
}

// Run runs the program on a pooled runtime. A script's exception comes
// back as a *ScriptError; so does a run stopped by its time bound or by
// the test stopping.
func (p *Program) Run(env *Env) (Value, error) {
	if p.direct != nil && canRunDirect(env) {
		if v, ok := p.direct.run(env, p.dialect); ok {
			return v, nil
		}
	}
	return p.runTranslated(env)
}

// runTranslated runs the program's JavaScript translation.
func (p *Program) runTranslated(env *Env) (Value, error) {
	r, err := getRuntime()
	if err != nil {
		return Value{}, err
	}
	defer pool.Put(r)
	return r.run(p, env)
}

// runRaw runs a JavaScript script in the runtime's global scope, the
// bindings set as globals (what a script declares stays in the pooled
// runtime, as with JMeter's cached engines).
func (r *runtime) runRaw(p *Program, g *goja.Object) (Value, error) {
	vm := r.vm
	for _, k := range g.Keys() {
		v := g.Get(k)
		if o, ok := v.(*goja.Object); ok {
			if f, err := r.gd.facade(r.g, o); err == nil {
				v = f
			}
		}
		if err := vm.Set(k, v); err != nil {
			return Value{}, err
		}
	}
	v, err := vm.RunProgram(p.js)
	if err != nil {
		var ie *goja.InterruptedError
		if errors.As(err, &ie) {
			return Value{}, r.scriptErr(err)
		}
		var ex *goja.Exception
		if errors.As(err, &ex) {
			if o, ok := ex.Value().(*goja.Object); ok && o.Get("cls") != nil && !goja.IsUndefined(o.Get("cls")) {
				return Value{}, r.scriptErr(err)
			}
			return Value{}, &ScriptError{Class: "javax.script.ScriptException", Message: strings.TrimSpace(ex.Error())}
		}
		return Value{}, &ScriptError{Class: "javax.script.ScriptException", Message: err.Error()}
	}
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return Value{Null: true}, nil
	}
	return Value{Text: v.String()}, nil
}
