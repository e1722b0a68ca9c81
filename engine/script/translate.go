package script

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
)

// translator turns a parsed script into JavaScript for the runtime. It
// resolves every name (locals, JMeter's bindings, known classes), checks
// every class, static member, constructor and method against what the
// runtime implements, and refuses by name what it cannot run.
type translator struct {
	d       Dialect
	src     string
	cat     *catalog
	b       strings.Builder
	consts  []string
	sc      *scope
	methods map[string]*methodDecl
	imports map[string]string // simple name → class, from imports
	statics map[string]string // statically imported member → class
	unknown map[string]string // simple name → imported class gojm does not know
	multi   map[string]bool   // names assigned after their declaration
	tmp     int
	rec     *assertRec      // recording a Groovy power assert
	used    map[string]bool // bindings the script reads
}

type local struct {
	js   string
	kind string // static kind ("" unknown)
	cast string // declared type for coercion ("" untyped)
}

type scope struct {
	vars   map[string]*local
	parent *scope
	// method marks a Groovy method's scope: script locals are not visible.
	method bool
}

type assertRec struct {
	start int // byte offset of the asserted expression
}

// bindingKinds are JMeter's script bindings and their kinds.
var bindingKinds = map[string]string{
	"vars": "Vars", "props": "Props", "log": "Logger", "ctx": "Ctx", "sampler": "Sampler", "OUT": "Out",
	"prev": "Result", "SampleResult": "Result", "sampleResult": "Result", "sampleEvent": "SampleEvent",
	"AssertionResult": "AssertionResult", "Label": "String", "FileName": "String", "Parameters": "String",
	"args": "Array", "threadName": "String", "bsh": "BshNS",
	// BeanShell elements' variables
	"IsSuccess": "Boolean", "ResponseCode": "String", "ResponseMessage": "String", "Failure": "Boolean",
	"FailureMessage": "String", "Response": "Result", "ResponseData": "Array", "ResponseHeaders": "String",
	"RequestHeaders": "String", "SampleLabel": "String", "SamplerData": "String", "Successful": "Boolean",
	"data": "Array",
}

func (t *translator) refuse(at Pos, format string, args ...any) {
	panic(&Error{Pos: at, Msg: fmt.Sprintf(format, args...), Refused: true})
}

func (t *translator) fail(at Pos, format string, args ...any) {
	panic(&Error{Pos: at, Msg: fmt.Sprintf(format, args...)})
}

// translate produces the JavaScript of a script: a function of the
// dialect's runtime returning the function of the bindings.
func translate(src string, d Dialect, stmts []stmt, cat *catalog) (js string, used map[string]bool, err error) {
	t := &translator{d: d, src: src, cat: cat, methods: map[string]*methodDecl{}, imports: map[string]string{},
		statics: map[string]string{}, unknown: map[string]string{}, multi: map[string]bool{}, used: map[string]bool{}}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			js, used, err = "", nil, e
		}
	}()
	var body []stmt
	for _, s := range stmts {
		switch s := s.(type) {
		case *importStmt:
			t.importStmt(s)
		case *methodDecl:
			if _, dup := t.methods[s.name]; dup {
				t.refuse(s.at, "several methods named %s (overloading)", s.name)
			}
			t.methods[s.name] = s
		default:
			body = append(body, s)
		}
	}
	countAssigns(stmts, t.multi)
	if d == Groovy {
		body = groovyReturns(body)
	} else {
		body = bshReturns(body)
	}
	t.sc = &scope{vars: map[string]*local{}}
	var fns strings.Builder
	names := make([]string, 0, len(t.methods))
	for n := range t.methods {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.b.Reset()
		t.method(t.methods[n])
		fns.WriteString(t.b.String())
	}
	t.b.Reset()
	for _, s := range body {
		t.stmt(s)
	}
	var out strings.Builder
	out.WriteString("(function ($) {\n\"use strict\";\n")
	for i, c := range t.consts {
		fmt.Fprintf(&out, "const K%d = %s;\n", i, c)
	}
	out.WriteString("return function (G) {\n")
	out.WriteString(fns.String())
	out.WriteString(t.b.String())
	out.WriteString("return null;\n};\n})")
	return out.String(), t.used, nil
}

// countAssigns marks names assigned (or ++/--) anywhere: a def variable
// assigned again has no fixed kind.
func countAssigns(stmts []stmt, multi map[string]bool) {
	var walkE func(e expr)
	var walkS func(s stmt)
	walkE = func(e expr) {
		switch e := e.(type) {
		case *assignExpr:
			if id, ok := e.target.(*identExpr); ok {
				multi[id.name] = true
			}
			walkE(e.target)
			walkE(e.value)
		case *unaryExpr:
			if id, ok := e.x.(*identExpr); ok && (e.op == "++" || e.op == "--") {
				multi[id.name] = true
			}
			walkE(e.x)
		case *postfixExpr:
			if id, ok := e.x.(*identExpr); ok {
				multi[id.name] = true
			}
		case *binaryExpr:
			walkE(e.x)
			walkE(e.y)
		case *callExpr:
			if e.recv != nil {
				walkE(e.recv)
			}
			for _, a := range e.args {
				walkE(a)
			}
		case *closureExpr:
			for _, s := range e.body {
				walkS(s)
			}
		case *condExpr:
			walkE(e.cond)
			walkE(e.then)
			walkE(e.els_)
		case *elvisExpr:
			walkE(e.x)
			walkE(e.els_)
		case *propExpr:
			walkE(e.x)
		case *indexExpr:
			walkE(e.x)
			walkE(e.index)
		case *listExpr:
			for _, x := range e.elems {
				walkE(x)
			}
		case *mapExpr:
			for _, en := range e.entries {
				walkE(en.val)
			}
		}
	}
	walkS = func(s stmt) {
		switch s := s.(type) {
		case *exprStmt:
			walkE(s.x)
		case *declStmt:
			for _, v := range s.vars {
				if v.init != nil {
					walkE(v.init)
				}
			}
		case *blockStmt:
			for _, x := range s.stmts {
				walkS(x)
			}
		case *ifStmt:
			walkE(s.cond)
			walkS(s.then)
			if s.els_ != nil {
				walkS(s.els_)
			}
		case *whileStmt:
			walkE(s.cond)
			walkS(s.body)
		case *doStmt:
			walkS(s.body)
			walkE(s.cond)
		case *forStmt:
			for _, x := range s.init {
				walkS(x)
			}
			for _, x := range s.update {
				walkE(x)
			}
			walkS(s.body)
		case *forInStmt:
			multi[s.name] = true
			walkS(s.body)
		case *tryStmt:
			walkS(s.body)
			for _, c := range s.catches {
				walkS(c.body)
			}
			if s.finally != nil {
				walkS(s.finally)
			}
		case *switchStmt:
			for _, c := range s.cases {
				for _, x := range c.body {
					walkS(x)
				}
			}
		case *methodDecl:
			walkS(s.body)
		case *returnStmt:
			if s.x != nil {
				walkE(s.x)
			}
		}
	}
	for _, s := range stmts {
		walkS(s)
	}
}

// groovyReturns makes the last statement return its value, as Groovy's
// ReturnAdder does for scripts, methods and closures.
func groovyReturns(list []stmt) []stmt {
	if len(list) == 0 {
		return list
	}
	out := append([]stmt(nil), list...)
	out[len(out)-1] = groovyReturn(out[len(out)-1])
	return out
}

func groovyReturn(s stmt) stmt {
	switch s := s.(type) {
	case *exprStmt:
		return &returnStmt{at: s.at, x: s.x}
	case *declStmt:
		if n := len(s.vars); n > 0 && s.vars[n-1].init != nil {
			v := s.vars[n-1]
			return &blockStmt{at: s.at, stmts: []stmt{s, &returnStmt{at: s.at, x: &identExpr{at: v.at, name: v.name}}}}
		}
	case *ifStmt:
		c := *s
		c.then = groovyReturn(s.then)
		if s.els_ != nil {
			c.els_ = groovyReturn(s.els_)
		}
		return &c
	case *blockStmt:
		return &blockStmt{at: s.at, stmts: groovyReturns(s.stmts)}
	case *tryStmt:
		c := *s
		c.body = &blockStmt{at: s.body.at, stmts: groovyReturns(s.body.stmts)}
		c.catches = append([]catchClause(nil), s.catches...)
		for i := range c.catches {
			c.catches[i].body = &blockStmt{at: s.catches[i].body.at, stmts: groovyReturns(s.catches[i].body.stmts)}
		}
		return &c
	}
	return s
}

// bshReturns makes the script return the value of its last top-level
// statement, as BeanShell's eval does (an if or a loop gives null).
func bshReturns(list []stmt) []stmt {
	if len(list) == 0 {
		return list
	}
	out := append([]stmt(nil), list...)
	switch s := out[len(out)-1].(type) {
	case *exprStmt:
		out[len(out)-1] = &returnStmt{at: s.at, x: s.x}
	case *blockStmt:
		out[len(out)-1] = &blockStmt{at: s.at, stmts: bshReturns(s.stmts)}
	}
	return out
}

func (t *translator) w(s string) { t.b.WriteString(s) }

func (t *translator) konst(js string) string {
	for i, c := range t.consts {
		if c == js {
			return "K" + strconv.Itoa(i)
		}
	}
	t.consts = append(t.consts, js)
	return "K" + strconv.Itoa(len(t.consts)-1)
}

func (t *translator) push(method bool) {
	t.sc = &scope{vars: map[string]*local{}, parent: t.sc, method: method}
}
func (t *translator) pop() { t.sc = t.sc.parent }

func (t *translator) declare(name, kind, cast string) *local {
	t.tmp++
	l := &local{js: "l_" + name, kind: kind, cast: cast}
	if _, shadow := t.lookupLocal(name); shadow {
		l.js = fmt.Sprintf("l_%s_%d", name, t.tmp)
	}
	t.sc.vars[name] = l
	return l
}

func (t *translator) lookupLocal(name string) (*local, bool) {
	for s := t.sc; s != nil; s = s.parent {
		if l, ok := s.vars[name]; ok {
			return l, true
		}
		if s.method && t.d == Groovy {
			// a Groovy method sees its own locals only
			break
		}
	}
	return nil, false
}

// ---- imports and classes ------------------------------------------------------

func (t *translator) importStmt(s *importStmt) {
	if s.static {
		cls, member := s.path, ""
		if !s.star {
			i := strings.LastIndexByte(s.path, '.')
			cls, member = s.path[:i], s.path[i+1:]
		}
		c, ok := knownClasses[cls]
		if !ok {
			t.unknown[lastPart(cls)] = cls
			return
		}
		if s.star {
			t.refuse(s.at, "the static import %s.*", cls)
		}
		name := member
		if s.alias != "" {
			name = s.alias
		}
		t.statics[name] = c + "." + member
		return
	}
	if s.star {
		return // names it brings are checked where used
	}
	name := lastPart(s.path)
	if s.alias != "" {
		name = s.alias
	}
	if c, ok := knownClasses[s.path]; ok {
		t.imports[name] = c
		return
	}
	t.unknown[name] = s.path
}

func lastPart(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// class resolves a class name as written to the runtime's class, or
// refuses it by name.
func (t *translator) class(at Pos, name string) string {
	if c, ok := t.lookupClass(name); ok {
		return c
	}
	if full, ok := t.unknown[name]; ok {
		name = full
	}
	t.refuse(at, "the class %s, which needs a JVM (gojm runs only the Java classes it knows)", name)
	return ""
}

func (t *translator) lookupClass(name string) (string, bool) {
	if c, ok := t.imports[name]; ok {
		return c, true
	}
	if _, shadowed := t.unknown[name]; shadowed {
		return "", false
	}
	if c, ok := knownClasses[name]; ok {
		return c, true
	}
	return "", false
}

// typeOf resolves a written type to its kind and the cast the runtime
// applies on assignment.
func (t *translator) typeOf(tr *typeRef) (kind, cast string) {
	if tr == nil {
		return "", ""
	}
	if tr.dims > 0 {
		elem := *tr
		elem.dims--
		_, c := t.typeOf(&elem)
		if c == "" {
			c = "Object"
		}
		return "Array", c + "[]"
	}
	switch tr.name {
	case "float", "Float", "java.lang.Float":
		t.refuse(tr.at, "the type %s (single-precision arithmetic)", tr.name)
	case "Short", "Byte", "java.lang.Short", "java.lang.Byte", "BigInteger", "java.math.BigInteger":
		t.refuse(tr.at, "the type %s", tr.name)
	case "void":
		return "Null", ""
	case "def", "var":
		return "", ""
	}
	if k, ok := primitiveKinds[tr.name]; ok {
		return k[0], k[1]
	}
	c := t.class(tr.at, tr.name)
	if k, ok := typeKinds[c]; ok {
		return k[0], k[1]
	}
	if isException(c) {
		return "Exception", c
	}
	if k, ok := t.cat.classKind[c]; ok {
		return k, k
	}
	t.refuse(tr.at, "the type %s", tr.name)
	return "", ""
}

func isException(c string) bool {
	return strings.HasSuffix(c, "Exception") || strings.HasSuffix(c, "Error") || c == "Throwable"
}

// ---- statements ------------------------------------------------------------------

func (t *translator) method(m *methodDecl) {
	t.push(true)
	var params []string
	var casts []string
	for _, p := range m.params {
		kind, cast := t.typeOf(p.typ)
		l := t.declare(p.name, kind, cast)
		js := l.js
		if p.def != nil {
			js += " = " + t.exprJS(p.def)
		}
		params = append(params, js)
		if cast != "" {
			casts = append(casts, fmt.Sprintf("%s = $.cast(%s, %q);\n", l.js, l.js, cast))
		}
	}
	fmt.Fprintf(&t.b, "function m_%s(%s) {\n", m.name, strings.Join(params, ", "))
	for _, c := range casts {
		t.w(c)
	}
	body := m.body.stmts
	if t.d == Groovy && (m.ret == nil || m.ret.name != "void") {
		body = groovyReturns(body)
	}
	for _, s := range body {
		t.stmt(s)
	}
	t.w("return null;\n}\n")
	t.pop()
}

func (t *translator) block(stmts []stmt) {
	t.push(false)
	t.w("{\n")
	for _, s := range stmts {
		t.stmt(s)
	}
	t.w("}\n")
	t.pop()
}

func (t *translator) body(s stmt) {
	if b, ok := s.(*blockStmt); ok {
		t.block(b.stmts)
		return
	}
	t.block([]stmt{s})
}

// cond writes a condition as a JavaScript boolean.
func (t *translator) cond(e expr) string {
	if b, ok := e.(*binaryExpr); ok && b.op == "=~" && t.d == Groovy {
		x, _ := t.expr(b.x)
		y, _ := t.expr(b.y)
		return fmt.Sprintf("$.reFindB(%s, %s)", x, y)
	}
	js, kind := t.expr(e)
	if kind == "Boolean" && isBoolJS(js) {
		return js
	}
	if t.d == BeanShell {
		return "$.cond(" + js + ")"
	}
	return "$.truth(" + js + ")"
}

// isBoolJS: the expression is one the runtime computes as a JS boolean.
func isBoolJS(js string) bool {
	for _, p := range []string{"$.eq(", "$.ne(", "$.lt(", "$.le(", "$.gt(", "$.ge(", "$.beq(", "!$.", "($.truth(", "($.cond(", "$.isInst(", "$.inop(", "$.ident(", "$.reMatch(", "$.reFindB("} {
		if strings.HasPrefix(js, p) {
			return true
		}
	}
	return js == "true" || js == "false"
}

func (t *translator) stmt(s stmt) {
	switch s := s.(type) {
	case *emptyStmt:
	case *blockStmt:
		t.block(s.stmts)
	case *exprStmt:
		t.w(t.exprJS(s.x) + ";\n")
	case *declStmt:
		t.decl(s)
	case *ifStmt:
		t.w("if (" + t.cond(s.cond) + ") ")
		t.body(s.then)
		if s.els_ != nil {
			t.w("else ")
			t.body(s.els_)
		}
	case *whileStmt:
		t.w("while (" + t.cond(s.cond) + ") ")
		t.body(s.body)
	case *doStmt:
		t.w("do ")
		t.body(s.body)
		t.w("while (" + t.cond(s.cond) + ");\n")
	case *forStmt:
		t.push(false)
		t.w("{\n")
		for _, i := range s.init {
			if d, ok := i.(*declStmt); ok {
				t.decl(d)
			} else {
				t.stmt(i)
			}
		}
		cond := "true"
		if s.cond != nil {
			cond = t.cond(s.cond)
		}
		var upd []string
		for _, u := range s.update {
			upd = append(upd, t.exprJS(u))
		}
		t.w("for (; " + cond + "; " + strings.Join(upd, ", ") + ") ")
		t.body(s.body)
		t.w("}\n")
		t.pop()
	case *forInStmt:
		iter := t.exprJS(s.iter)
		t.push(false)
		kind, cast := t.typeOf(s.typ)
		l := t.declare(s.name, kind, cast)
		if t.d == BeanShell && s.typ == nil {
			t.refuse(s.at, "for-each over an untyped variable")
		}
		t.w(fmt.Sprintf("for (let %s of $.iter(%s)) {\n", l.js, iter))
		if cast != "" {
			t.w(fmt.Sprintf("%s = $.cast(%s, %q);\n", l.js, l.js, cast))
		}
		if b, ok := s.body.(*blockStmt); ok {
			t.block(b.stmts)
		} else {
			t.block([]stmt{s.body})
		}
		t.w("}\n")
		t.pop()
	case *returnStmt:
		if s.x == nil {
			t.w("return null;\n")
		} else {
			t.w("return " + t.exprJS(s.x) + ";\n")
		}
	case *breakStmt:
		t.w("break;\n")
	case *continueStmt:
		t.w("continue;\n")
	case *throwStmt:
		t.w("throw $.toThrow(" + t.exprJS(s.x) + ");\n")
	case *tryStmt:
		t.try_(s)
	case *switchStmt:
		t.switch_(s)
	case *assertStmt:
		t.assert_(s)
	case *importStmt:
		t.refuse(s.at, "an import inside a block")
	case *methodDecl:
		t.refuse(s.at, "the method %s defined inside a block", s.name)
	default:
		t.fail(s.pos(), "unexpected statement")
	}
}

func (t *translator) decl(s *declStmt) {
	kind, cast := t.typeOf(s.typ)
	for _, v := range s.vars {
		vk, vc := kind, cast
		if v.dims > 0 {
			vk, vc = "Array", cast+strings.Repeat("[]", v.dims)
			if cast == "" {
				vc = "Object" + strings.Repeat("[]", v.dims)
			}
		}
		init := ""
		if v.init != nil {
			if l, ok := v.init.(*listExpr); ok && vk == "Array" {
				init = t.arrayInit(strings.TrimSuffix(vc, "[]"), l)
			} else {
				js, k := t.expr(v.init)
				init = js
				if vc != "" {
					init = fmt.Sprintf("$.cast(%s, %q)", js, vc)
				} else if !t.multi[v.name] {
					vk = k // def x = …: the value's kind, if never reassigned
				}
			}
		} else {
			init = zeroValue(vc, t.d)
		}
		// BeanShell's top-level typed variables are global: the script's
		// methods see them; so do nested functions here.
		l := t.declare(v.name, vk, vc)
		t.w(fmt.Sprintf("let %s = %s;\n", l.js, init))
	}
}

func (t *translator) arrayInit(elem string, l *listExpr) string {
	var parts []string
	for _, e := range l.elems {
		if sub, ok := e.(*listExpr); ok && strings.HasSuffix(elem, "[]") {
			parts = append(parts, t.arrayInit(strings.TrimSuffix(elem, "[]"), sub))
			continue
		}
		parts = append(parts, t.exprJS(e))
	}
	return fmt.Sprintf("$.arrayOf(%q, [%s])", elem, strings.Join(parts, ", "))
}

func zeroValue(cast string, d Dialect) string {
	switch cast {
	case "int", "short", "byte":
		return "0"
	case "long":
		return "0n"
	case "double":
		return "$.d(0)"
	case "boolean":
		return "false"
	case "char":
		return "$.ch(0)"
	}
	return "null"
}

func (t *translator) try_(s *tryStmt) {
	t.w("try ")
	t.block(s.body.stmts)
	if len(s.catches) > 0 {
		t.tmp++
		ev := fmt.Sprintf("$e%d", t.tmp)
		t.w("catch (" + ev + ") {\n")
		for i, c := range s.catches {
			var types []string
			for _, tr := range c.types {
				cls := t.class(tr.at, tr.name)
				if !isException(cls) {
					t.refuse(tr.at, "catching %s", tr.name)
				}
				types = append(types, strconv.Quote(cls))
			}
			if len(types) == 0 {
				types = []string{`"Exception"`}
			}
			if i > 0 {
				t.w("else ")
			}
			t.w(fmt.Sprintf("if ($.exIs(%s, [%s])) {\n", ev, strings.Join(types, ", ")))
			t.push(false)
			l := t.declare(c.name, "Exception", "")
			t.w(fmt.Sprintf("let %s = %s;\n", l.js, ev))
			for _, x := range c.body.stmts {
				t.stmt(x)
			}
			t.pop()
			t.w("}\n")
		}
		t.w("else throw " + ev + ";\n}\n")
	}
	if s.finally != nil {
		t.w("finally ")
		t.block(s.finally.stmts)
	}
}

func (t *translator) switch_(s *switchStmt) {
	x := t.exprJS(s.x)
	var groups []string
	for _, c := range s.cases {
		var vals []string
		for _, e := range c.exprs {
			vals = append(vals, t.exprJS(e))
		}
		groups = append(groups, "["+strings.Join(vals, ", ")+"]")
	}
	fn := "$.swIdx"
	if t.d == BeanShell {
		fn = "$.bswIdx"
	}
	t.w(fmt.Sprintf("switch (%s(%s, [%s])) {\n", fn, x, strings.Join(groups, ", ")))
	t.push(false)
	for i, c := range s.cases {
		if c.dflt {
			t.w("default:\n")
		}
		if len(c.exprs) > 0 {
			t.w(fmt.Sprintf("case %d:\n", i))
		}
		for _, st := range c.body {
			t.stmt(st)
		}
	}
	t.pop()
	t.w("}\n")
}

func (t *translator) assert_(s *assertStmt) {
	if t.d == BeanShell {
		t.refuse(s.at, "assert in BeanShell")
	}
	if s.msg != nil {
		vals := assertVars(s.cond)
		var vs []string
		for _, v := range vals {
			vs = append(vs, fmt.Sprintf("[%q, () => %s]", v, t.exprJS(&identExpr{at: s.at, name: v})))
		}
		c := t.cond(s.cond)
		m := t.exprJS(s.msg)
		t.w(fmt.Sprintf("if (!(%s)) $.assertMsg(%s, %q, [%s]);\n", c, m, groovyText(s.cond), strings.Join(vs, ", ")))
		return
	}
	text := "assert " + s.src
	if strings.ContainsAny(s.src, "\r\n") {
		c := t.cond(s.cond)
		t.w(fmt.Sprintf("if (!(%s)) $.assertFail(%q, []);\n", c, text))
		return
	}
	old := t.rec
	t.rec = &assertRec{start: s.cond.pos().Off}
	if first := firstOff(s.cond); first >= 0 {
		t.rec.start = first
	}
	c := t.cond(s.cond)
	t.rec = old
	t.w(fmt.Sprintf("{ const R = []; if (!(%s)) $.assertFail(%q, R); }\n", c, text))
}

// firstOff is the offset of the leftmost token of an expression.
func firstOff(e expr) int {
	switch e := e.(type) {
	case *binaryExpr:
		return firstOff(e.x)
	case *callExpr:
		if e.recv != nil {
			return firstOff(e.recv)
		}
	case *propExpr:
		return firstOff(e.x)
	case *indexExpr:
		return firstOff(e.x)
	case *condExpr:
		return firstOff(e.cond)
	case *elvisExpr:
		return firstOff(e.x)
	case *postfixExpr:
		return firstOff(e.x)
	case *instanceofExpr:
		return firstOff(e.x)
	case *castExpr:
		if e.as {
			return firstOff(e.x)
		}
	case *rangeExpr:
		return firstOff(e.from)
	}
	return e.pos().Off
}

// record wraps a recorded subexpression of a power assert.
func (t *translator) record(at Pos, js string) string {
	if t.rec == nil {
		return js
	}
	if at.Off < t.rec.start || at.Off > len(t.src) {
		return js
	}
	col := len(utf16.Encode([]rune(t.src[t.rec.start:at.Off]))) + 8
	return fmt.Sprintf("$.rec(R, %d, %s)", col, js)
}

// assertVars lists the variables Groovy names in an assert message's
// "Values:" part: the plain variables among the operands.
func assertVars(e expr) []string {
	var out []string
	seen := map[string]bool{}
	var walk func(e expr)
	walk = func(e expr) {
		switch e := e.(type) {
		case *identExpr:
			if !seen[e.name] {
				seen[e.name] = true
				out = append(out, e.name)
			}
		case *binaryExpr:
			walk(e.x)
			walk(e.y)
		case *unaryExpr:
			walk(e.x)
		}
	}
	walk(e)
	return out
}

// groovyText writes an expression as Groovy's AST prints it.
func groovyText(e expr) string {
	switch e := e.(type) {
	case *identExpr:
		return e.name
	case *litExpr:
		switch e.kind {
		case litNull:
			return "null"
		case litLong:
			return e.val
		}
		return e.val
	case *binaryExpr:
		op := e.op
		if op == "[" {
			return groovyText(e.x) + "[" + groovyText(e.y) + "]"
		}
		return "(" + groovyText(e.x) + " " + op + " " + groovyText(e.y) + ")"
	case *unaryExpr:
		return e.op + groovyText(e.x)
	case *callExpr:
		var args []string
		for _, a := range e.args {
			args = append(args, groovyText(a))
		}
		s := e.name + "(" + strings.Join(args, ", ") + ")"
		if e.recv != nil {
			s = groovyText(e.recv) + "." + s
		} else {
			s = "this." + s
		}
		return s
	case *propExpr:
		return groovyText(e.x) + "." + e.name
	case *indexExpr:
		return groovyText(e.x) + "[" + groovyText(e.index) + "]"
	case *gstringExpr:
		return "GString"
	case *condExpr:
		return groovyText(e.cond) + " ? " + groovyText(e.then) + " : " + groovyText(e.els_)
	}
	return "…"
}

// ---- expressions ----------------------------------------------------------------------

func (t *translator) exprJS(e expr) string {
	js, _ := t.expr(e)
	return js
}

func (t *translator) exprs(es []expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = t.exprJS(e)
	}
	return strings.Join(parts, ", ")
}

// expr returns an expression's JavaScript and its static kind.
func (t *translator) expr(e expr) (string, string) {
	switch e := e.(type) {
	case *litExpr:
		return t.lit(e)
	case *gstringExpr:
		var lits, vals []string
		for _, l := range e.lits {
			lits = append(lits, strconv.Quote(l))
		}
		for _, x := range e.exprs {
			vals = append(vals, t.exprJS(x))
		}
		return fmt.Sprintf("$.gs([%s], [%s])", strings.Join(lits, ", "), strings.Join(vals, ", ")), "String"
	case *identExpr:
		js, kind := t.ident(e)
		return t.record(e.at, js), kind
	case *listExpr:
		if t.d == BeanShell {
			t.refuse(e.at, "a list literal in BeanShell")
		}
		return "[" + t.exprs(e.elems) + "]", "List"
	case *mapExpr:
		var kv []string
		for _, en := range e.entries {
			kv = append(kv, t.exprJS(en.key), t.exprJS(en.val))
		}
		return "$.map([" + strings.Join(kv, ", ") + "])", "Map"
	case *rangeExpr:
		return fmt.Sprintf("$.range(%s, %s, %v)", t.exprJS(e.from), t.exprJS(e.to), e.exclusive), "Range"
	case *unaryExpr:
		return t.unary(e)
	case *postfixExpr:
		return t.incdec(e.x, e.op, false), ""
	case *binaryExpr:
		return t.binary(e)
	case *assignExpr:
		return t.assign(e)
	case *condExpr:
		c := t.cond(e.cond)
		x, kx := t.expr(e.then)
		y, ky := t.expr(e.els_)
		k := ""
		if kx == ky {
			k = kx
		}
		return "(" + c + " ? " + x + " : " + y + ")", k
	case *elvisExpr:
		if t.d == BeanShell {
			t.refuse(e.at, "?: in BeanShell")
		}
		x := t.exprJS(e.x)
		y := t.exprJS(e.els_)
		return fmt.Sprintf("$.elvis(%s, () => %s)", x, y), ""
	case *callExpr:
		js, kind := t.call(e)
		return js, kind
	case *invokeExpr:
		fn := t.exprJS(e.fn)
		return fmt.Sprintf("$.call(%s, [%s])", fn, t.exprs(e.args)), ""
	case *propExpr:
		return t.prop(e)
	case *indexExpr:
		x, kx := t.expr(e.x)
		i := t.exprJS(e.index)
		kind := ""
		if kx == "String" && t.d == Groovy {
			kind = "String"
		}
		if kx == "Vars" {
			kind = "String"
		}
		return t.record(e.at, fmt.Sprintf("$.ix(%s, %s)", x, i)), kind
	case *newExpr:
		return t.newExpr(e)
	case *castExpr:
		kind, cast := t.typeOf(e.typ)
		x := t.exprJS(e.x)
		if cast == "" {
			return x, ""
		}
		if e.as {
			return fmt.Sprintf("$.as(%s, %q)", x, cast), kind
		}
		return fmt.Sprintf("$.cast(%s, %q)", x, cast), kind
	case *instanceofExpr:
		_, cast := t.typeOf(e.typ)
		if cast == "" {
			cast = "Object"
		}
		return t.record(e.at, fmt.Sprintf("$.isInst(%s, %q)", t.exprJS(e.x), cast)), "Boolean"
	case *closureExpr:
		return t.closure(e), "Closure"
	case *classExpr:
		t.refuse(e.at, "a class used as a value (%s)", e.typ)
	case *holeExpr:
		return fmt.Sprintf("G.$holes[%d]", e.n), "String"
	}
	t.fail(e.pos(), "unexpected expression")
	return "", ""
}

func (t *translator) lit(e *litExpr) (string, string) {
	switch e.kind {
	case litNull:
		return "null", "Null"
	case litBool:
		return e.val, "Boolean"
	case litString:
		return strconv.Quote(e.val), "String"
	case litChar:
		u := utf16.Encode([]rune(e.val))
		return t.konst(fmt.Sprintf("$.ch(%d)", u[0])), "Character"
	case litInt:
		v, fitsLong, err := parseIntLit(e.val)
		if err != nil {
			t.fail(e.at, "bad number %s", e.val)
		}
		if !fitsLong || v > math.MaxInt32 || v < math.MinInt32 {
			switch {
			case t.d == BeanShell:
				t.refuse(e.at, "the integer %s (too large for an int)", e.val)
			case !fitsLong:
				// Groovy makes a BigInteger of it, which gojm does not have.
				t.refuse(e.at, "the integer %s (too large for a long)", e.val)
			}
			// Groovy makes a long of an int literal too large for int
			return strconv.FormatInt(v, 10) + "n", "Long"
		}
		if v < 0 {
			return "(" + strconv.FormatInt(v, 10) + ")", "Integer"
		}
		return strconv.FormatInt(v, 10), "Integer"
	case litLong:
		v, _, err := parseIntLit(e.val)
		if err != nil {
			t.fail(e.at, "bad number %s", e.val)
		}
		return "(" + strconv.FormatInt(v, 10) + "n)", "Long"
	case litDouble:
		f, err := strconv.ParseFloat(e.val, 64)
		if err != nil {
			t.fail(e.at, "bad number %s", e.val)
		}
		return t.konst(fmt.Sprintf("$.d(%s)", strconv.FormatFloat(f, 'g', -1, 64))), "Double"
	case litFloat:
		t.refuse(e.at, "the float literal %sf (single-precision arithmetic)", e.val)
	case litDecimal:
		return t.konst(fmt.Sprintf("$.dec(%q)", e.val)), "BigDecimal"
	}
	return "null", ""
}

// parseIntLit parses an integer literal (decimal, 0x, 0b or 0 octal, after
// the minus the parser folds in) into the 64 bits of a long, as Java reads
// a long literal: hex, octal and binary ones may use all 64, so
// 0xFFFFFFFFFFFFFFFFL is -1. fitsLong reports whether the literal's value,
// read as a number, is in a long's range: an unsuffixed literal beyond it
// is a BigInteger in Groovy, not the long its bits make.
func parseIntLit(s string) (v int64, fitsLong bool, err error) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	base := 10
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		base, s = 16, s[2:]
	case strings.HasPrefix(s, "0b") || strings.HasPrefix(s, "0B"):
		base, s = 2, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	u, err := strconv.ParseUint(s, base, 64)
	if err != nil {
		return 0, false, err
	}
	if neg {
		return -int64(u), u <= -math.MinInt64, nil
	}
	return int64(u), u <= math.MaxInt64, nil
}

// ident resolves a name used as a value.
func (t *translator) ident(e *identExpr) (string, string) {
	if l, ok := t.lookupLocal(e.name); ok {
		return l.js, l.kind
	}
	if k, ok := bindingKinds[e.name]; ok {
		t.used[e.name] = true
		if t.isBinding(e.name) {
			return "G." + e.name, k
		}
		// bound only for some elements: absent, it reads as Groovy's
		// missing property or BeanShell's void
		if t.d == BeanShell {
			return fmt.Sprintf("$.bv(G, %q)", e.name), k
		}
		return fmt.Sprintf("$.gv(G, %q)", e.name), k
	}
	if _, isMethod := t.methods[e.name]; isMethod {
		t.refuse(e.at, "the method %s used as a value", e.name)
	}
	if c, ok := t.lookupClass(e.name); ok {
		t.refuse(e.at, "the class %s used as a value", c)
	}
	if _, ok := t.unknown[e.name]; ok {
		t.class(e.at, e.name)
	}
	if isClassName(e.name) {
		t.refuse(e.at, "the class %s, which needs a JVM (gojm runs only the Java classes it knows)", e.name)
	}
	if t.d == BeanShell {
		return fmt.Sprintf("$.bv(G, %q)", e.name), ""
	}
	return fmt.Sprintf("$.gv(G, %q)", e.name), ""
}

// isBinding: JMeter's binding names are always bound in JSR223 and
// BeanShell elements, except the element-specific BeanShell variables,
// which are global variables the host sets.
func (t *translator) isBinding(name string) bool {
	switch name {
	case "vars", "props", "log", "ctx", "sampler", "OUT", "prev", "Label", "FileName", "Parameters", "args":
		return true
	case "bsh":
		return t.d == BeanShell
	}
	return false
}

// isClassName: a capitalised name that is not a known variable reads as
// a class in Groovy and Java.
func isClassName(s string) bool {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	if _, ok := bindingKinds[s]; ok {
		return false
	}
	// ALL_CAPS names are constants or variables more often than classes
	return strings.ToUpper(s) != s
}

func (t *translator) unary(e *unaryExpr) (string, string) {
	switch e.op {
	case "++", "--":
		return t.incdec(e.x, e.op, true), ""
	case "!":
		c := t.cond(e.x)
		return t.record(e.at, "!"+c), "Boolean"
	case "-":
		x, k := t.expr(e.x)
		return t.record(e.at, "$.neg("+x+")"), k
	case "+":
		x, k := t.expr(e.x)
		return "$.pos(" + x + ")", k
	case "~":
		x, k := t.expr(e.x)
		if k == "String" && t.d == Groovy {
			t.refuse(e.at, "the pattern operator ~")
		}
		return "$.bnot(" + x + ")", k
	}
	t.fail(e.at, "unexpected operator %s", e.op)
	return "", ""
}

var numKinds = map[string]int{"Integer": 1, "Long": 2, "BigDecimal": 3, "Double": 4}

func (t *translator) binary(e *binaryExpr) (string, string) {
	if e.op == "&&" || e.op == "||" {
		x := t.cond(e.x)
		y := t.cond(e.y)
		return t.record(e.at, "("+x+" "+e.op+" "+y+")"), "Boolean"
	}
	x, kx := t.expr(e.x)
	y, ky := t.expr(e.y)
	call := func(fn, kind string) (string, string) {
		return t.record(e.at, fmt.Sprintf("$.%s(%s, %s)", fn, x, y)), kind
	}
	arithKind := func() string {
		rx, ry := numKinds[kx], numKinds[ky]
		if rx == 0 || ry == 0 {
			return ""
		}
		r := max(rx, ry)
		for k, v := range numKinds {
			if v == r {
				return k
			}
		}
		return ""
	}
	switch e.op {
	case "+":
		if kx == "String" || ky == "String" {
			return call("add", "String")
		}
		return call("add", arithKind())
	case "-":
		return call("sub", arithKind())
	case "*":
		return call("mul", arithKind())
	case "/":
		k := arithKind()
		if t.d == Groovy && k != "" && k != "Double" {
			k = "BigDecimal"
		}
		return call("div", k)
	case "%":
		return call("mod", arithKind())
	case "**":
		return call("pow", "")
	case "==", "!=":
		fn := "eq"
		if t.d == BeanShell {
			fn = "beq"
			t.checkBshEq(e, kx, ky)
		}
		js, _ := call(fn, "Boolean")
		if e.op == "!=" {
			if t.rec != nil {
				return t.record(e.at, fmt.Sprintf("!$.%s(%s, %s)", fn, x, y)), "Boolean"
			}
			return "!" + js, "Boolean"
		}
		return js, "Boolean"
	case "<":
		return call("lt", "Boolean")
	case "<=":
		return call("le", "Boolean")
	case ">":
		return call("gt", "Boolean")
	case ">=":
		return call("ge", "Boolean")
	case "<=>":
		return call("spaceship", "Integer")
	case "===":
		return call("ident", "Boolean")
	case "!==":
		js, _ := call("ident", "Boolean")
		return "!" + js, "Boolean"
	case "&":
		return call("band", arithKind())
	case "|":
		return call("bor", arithKind())
	case "^":
		return call("bxor", arithKind())
	case "<<":
		return call("shl", kx)
	case ">>":
		return call("shr", kx)
	case ">>>":
		return call("ushr", kx)
	case "in":
		return call("inop", "Boolean")
	case "==~":
		return call("reMatch", "Boolean")
	case "=~":
		t.refuse(e.at, "the =~ matcher outside a condition")
	}
	t.fail(e.at, "unexpected operator %s", e.op)
	return "", ""
}

// checkBshEq refuses BeanShell's == where it compares object references.
func (t *translator) checkBshEq(e *binaryExpr, kx, ky string) {
	isNull := func(x expr) bool {
		l, ok := x.(*litExpr)
		return ok && l.kind == litNull
	}
	if isNull(e.x) || isNull(e.y) {
		return
	}
	prim := func(k string) bool {
		switch k {
		case "Integer", "Long", "Double", "Boolean", "Character":
			return true
		}
		return false
	}
	obj := func(k string) bool { return k != "" && !prim(k) }
	if obj(kx) && obj(ky) || obj(kx) && ky == "" || kx == "" && obj(ky) {
		if kx == "String" || ky == "String" {
			t.refuse(e.at, "== between strings in BeanShell (it compares object references; use equals())")
		}
		t.refuse(e.at, "== between objects in BeanShell (it compares object references; use equals())")
	}
}

// lvalue gives the JavaScript to read and to write an assignable expression.
type lvalue struct {
	get  string
	set  func(v string) string
	cast string
}

func (t *translator) lvalue(e expr) lvalue {
	switch x := e.(type) {
	case *identExpr:
		if l, ok := t.lookupLocal(x.name); ok {
			return lvalue{get: l.js, set: func(v string) string { return l.js + " = " + v }, cast: l.cast}
		}
		if _, ok := t.methods[x.name]; ok {
			t.refuse(x.at, "assigning to the method name %s", x.name)
		}
		if isClassName(x.name) {
			if _, known := t.lookupClass(x.name); known {
				t.refuse(x.at, "assigning to the class %s", x.name)
			}
		}
		get := "G." + x.name
		if _, ok := bindingKinds[x.name]; !ok || !t.isBinding(x.name) {
			if t.d == BeanShell {
				get = fmt.Sprintf("$.bv(G, %q)", x.name)
			} else {
				get = fmt.Sprintf("$.gv(G, %q)", x.name)
			}
		}
		return lvalue{get: get, set: func(v string) string { return "G." + x.name + " = " + v }}
	case *propExpr:
		t.tmp++
		o := fmt.Sprintf("o%d", t.tmp)
		recv := t.exprJS(x.x)
		return lvalue{
			get: fmt.Sprintf("$.p(%s, %q)", o, x.name),
			set: func(v string) string {
				return fmt.Sprintf("((%s) => $.setp(%s, %q, %s))(%s)", o, o, x.name, v, recv)
			},
		}
	case *indexExpr:
		t.tmp++
		o := fmt.Sprintf("o%d", t.tmp)
		i := fmt.Sprintf("i%d", t.tmp)
		recv := t.exprJS(x.x)
		idx := t.exprJS(x.index)
		return lvalue{
			get: fmt.Sprintf("$.ix(%s, %s)", o, i),
			set: func(v string) string {
				return fmt.Sprintf("((%s, %s) => $.setix(%s, %s, %s))(%s, %s)", o, i, o, i, v, recv, idx)
			},
		}
	}
	t.fail(e.pos(), "cannot assign to this expression")
	return lvalue{}
}

func castJS(v, cast string) string {
	if cast == "" {
		return v
	}
	return fmt.Sprintf("$.cast(%s, %q)", v, cast)
}

var compound = map[string]string{"+=": "add", "-=": "sub", "*=": "mul", "/=": "div", "%=": "mod", "**=": "pow",
	"<<=": "shl", ">>=": "shr", ">>>=": "ushr", "&=": "band", "|=": "bor", "^=": "bxor"}

func (t *translator) assign(e *assignExpr) (string, string) {
	if id, ok := e.target.(*identExpr); ok {
		if l, ok := t.lookupLocal(id.name); ok {
			v, k := t.expr(e.value)
			if e.op != "=" {
				v = fmt.Sprintf("$.%s(%s, %s)", compound[e.op], l.js, v)
			}
			if l.cast == "" {
				return "(" + l.js + " = " + v + ")", k
			}
			return "(" + l.js + " = " + castJS(v, l.cast) + ")", l.kind
		}
	}
	lv := t.lvalue(e.target)
	v, k := t.expr(e.value)
	if e.op == "=" {
		if _, isProp := e.target.(*propExpr); isProp {
			return lv.set(v), k
		}
		if _, isIdx := e.target.(*indexExpr); isIdx {
			return lv.set(v), k
		}
		return "(" + lv.set(castJS(v, lv.cast)) + ")", k
	}
	// compound on a property or index: read, combine, write
	switch e.target.(type) {
	case *propExpr, *indexExpr:
		x := e.target
		t.tmp++
		if p, ok := x.(*propExpr); ok {
			return fmt.Sprintf("((o) => $.setp(o, %q, $.%s($.p(o, %q), %s)))(%s)", p.name, compound[e.op], p.name, v, t.exprJS(p.x)), ""
		}
		ix := x.(*indexExpr)
		return fmt.Sprintf("((o, i) => $.setix(o, i, $.%s($.ix(o, i), %s)))(%s, %s)", compound[e.op], v, t.exprJS(ix.x), t.exprJS(ix.index)), ""
	}
	return "(" + lv.set(castJS(fmt.Sprintf("$.%s(%s, %s)", compound[e.op], lv.get, v), lv.cast)) + ")", ""
}

// incdec writes ++ and --.
func (t *translator) incdec(x expr, op string, prefix bool) string {
	fn := "$.inc"
	if op == "--" {
		fn = "$.dec_"
	}
	switch target := x.(type) {
	case *identExpr:
		lv := t.lvalue(target)
		if prefix {
			return "(" + lv.set(castJS(fn+"("+lv.get+")", lv.cast)) + ")"
		}
		return fmt.Sprintf("((v) => (%s, v))(%s)", lv.set(castJS(fn+"(v)", lv.cast)), lv.get)
	case *propExpr:
		v := "n"
		if !prefix {
			v = "v"
		}
		return fmt.Sprintf("((o) => { const v = $.p(o, %q); const n = %s(v); $.setp(o, %q, n); return %s; })(%s)", target.name, fn, target.name, v, t.exprJS(target.x))
	case *indexExpr:
		v := "n"
		if !prefix {
			v = "v"
		}
		return fmt.Sprintf("((o, i) => { const v = $.ix(o, i); const n = %s(v); $.setix(o, i, n); return %s; })(%s, %s)", fn, v, t.exprJS(target.x), t.exprJS(target.index))
	}
	t.fail(x.pos(), "%s needs a variable", op)
	return ""
}

func (t *translator) closure(e *closureExpr) string {
	if t.d == BeanShell {
		t.refuse(e.at, "a closure in BeanShell")
	}
	t.push(false)
	var params []string
	var casts []string
	if e.implicit {
		l := t.declare("it", "", "")
		params = append(params, l.js)
	}
	for _, p := range e.params {
		kind, cast := t.typeOf(p.typ)
		l := t.declare(p.name, kind, cast)
		js := l.js
		if p.def != nil {
			js += " = " + t.exprJS(p.def)
		}
		params = append(params, js)
		if cast != "" {
			casts = append(casts, fmt.Sprintf("%s = $.cast(%s, %q);\n", l.js, l.js, cast))
		}
	}
	old := t.b
	t.b = strings.Builder{}
	rec := t.rec
	t.rec = nil
	if len(params) > 1 {
		// a closure of several parameters spreads a single list argument
		t.w(fmt.Sprintf("$.cl(%d, ", len(params)))
	}
	t.w("((" + strings.Join(params, ", ") + ") => {\n")
	for _, c := range casts {
		t.w(c)
	}
	for _, s := range groovyReturns(e.body) {
		t.stmt(s)
	}
	t.w("return null;\n})")
	if len(params) > 1 {
		t.w(")")
	}
	js := t.b.String()
	t.b = old
	t.rec = rec
	t.pop()
	return js
}

func (t *translator) newExpr(e *newExpr) (string, string) {
	if e.isArray {
		elem := *e.typ
		elem.dims = 0
		_, cast := t.typeOf(&elem)
		if cast == "" {
			cast = "Object"
		}
		if e.init != nil {
			return t.arrayInit(cast, &listExpr{at: e.at, elems: e.init}), "Array"
		}
		return fmt.Sprintf("$.newArray(%q, [%s])", cast, t.exprs(e.dimExpr)), "Array"
	}
	cls := t.class(e.typ.at, e.typ.name)
	n := len(e.args)
	if !t.cat.hasCtor(cls, n) && !isException(cls) {
		if _, any := t.cat.ctors[cls]; !any {
			t.refuse(e.at, "creating a %s (new %s)", e.typ.name, e.typ.name)
		}
		t.refuse(e.at, "new %s(…) with %d argument(s)", e.typ.name, n)
	}
	kind := t.cat.ctorKind(cls)
	if isException(cls) {
		return fmt.Sprintf("$.newEx(%q, [%s])", cls, t.exprs(e.args)), "Exception"
	}
	return fmt.Sprintf("$.nw(%q, [%s])", cls, t.exprs(e.args)), kind
}

// prop writes x.name.
func (t *translator) prop(e *propExpr) (string, string) {
	// Class.FIELD, a.b.Class.FIELD
	if cls, ok := t.classRef(e.x); ok {
		if t.cat.hasField(cls, e.name) {
			return t.record(e.at, fmt.Sprintf("$.sf(%q, %q)", cls, e.name)), t.cat.fieldKind(cls, e.name)
		}
		t.refuse(e.at, "the static field %s.%s", cls, e.name)
	}
	if full, ok := t.qualified(e); ok {
		if c, known := knownClasses[full]; known {
			t.refuse(e.at, "the class %s used as a value", c)
		}
	}
	x, kx := t.expr(e.x)
	fn := "$.p"
	switch {
	case e.safe:
		fn = "$.psafe"
	case e.spread:
		fn = "$.pspread"
	}
	kind := ""
	if kx != "" && !e.spread {
		kind = t.propKind(e.at, kx, e.name)
	}
	return t.record(e.at, fmt.Sprintf("%s(%s, %q)", fn, x, e.name)), kind
}

// propKind checks a property on a value of a known kind and gives its kind.
func (t *translator) propKind(at Pos, kind, name string) string {
	switch kind {
	case "Map", "List", "Set", "Range":
		if t.d == Groovy {
			return ""
		}
	case "Array":
		if name == "length" {
			return "Integer"
		}
		if t.d == Groovy {
			return ""
		}
	case "Vars", "Props", "Entry":
		if t.d == Groovy || kind == "Entry" {
			if kind == "Entry" && (name == "key" || name == "value") {
				return ""
			}
			return ""
		}
	case "Null", "BshNS":
		return ""
	}
	cap := strings.ToUpper(name[:1]) + name[1:]
	if ret, ok := t.cat.method(t.d, kind, "get"+cap, 0); ok {
		return ret
	}
	if ret, ok := t.cat.method(t.d, kind, "is"+cap, 0); ok {
		return ret
	}
	if kind == "Exception" && name == "message" {
		return "String"
	}
	t.refuse(at, "the property %s of %s", name, kindName(kind))
	return ""
}

// kindName names a kind in messages as Java does.
func kindName(k string) string {
	if n, ok := kindJavaNames[k]; ok {
		return n
	}
	return k
}

// classRef tells whether an expression names a known class (Math,
// java.util.UUID…) rather than a value.
func (t *translator) classRef(e expr) (string, bool) {
	switch x := e.(type) {
	case *identExpr:
		if _, isLocal := t.lookupLocal(x.name); isLocal {
			return "", false
		}
		if _, isBind := bindingKinds[x.name]; isBind {
			return "", false
		}
		if c, ok := t.lookupClass(x.name); ok {
			return c, true
		}
		if _, ok := t.unknown[x.name]; ok {
			t.class(x.at, x.name)
		}
		if isClassName(x.name) {
			t.class(x.at, x.name)
		}
	case *propExpr:
		if full, ok := t.qualified(x); ok {
			if c, known := knownClasses[full]; known {
				return c, true
			}
			if looksQualified(full) {
				t.refuse(x.at, "the class %s, which needs a JVM (gojm runs only the Java classes it knows)", full)
			}
		}
	}
	return "", false
}

// qualified reads a.b.c as a dotted name when it is made of names only
// and does not start with a variable.
func (t *translator) qualified(e expr) (string, bool) {
	switch x := e.(type) {
	case *identExpr:
		if _, isLocal := t.lookupLocal(x.name); isLocal {
			return "", false
		}
		if _, isBind := bindingKinds[x.name]; isBind {
			return "", false
		}
		return x.name, true
	case *propExpr:
		if x.safe || x.spread {
			return "", false
		}
		p, ok := t.qualified(x.x)
		if !ok {
			return "", false
		}
		return p + "." + x.name, true
	}
	return "", false
}

// looksQualified: a dotted name with a lower-case package and a
// capitalised class, as java.util.Foo.
func looksQualified(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) < 2 {
		return false
	}
	if parts[0] == "" || parts[0][0] < 'a' || parts[0][0] > 'z' {
		return false
	}
	for _, p := range parts[1:] {
		if p != "" && p[0] >= 'A' && p[0] <= 'Z' {
			return true
		}
	}
	return false
}

// call writes a method call.
func (t *translator) call(e *callExpr) (string, string) {
	args := e.args
	if e.name == "remove" && len(args) == 1 && e.recv != nil {
		// list.remove((Object) x): Java picks remove(Object) by the cast
		if c, ok := args[0].(*castExpr); ok && !c.as && !primitives[c.typ.name] {
			e = &callExpr{at: e.at, recv: e.recv, name: "removeElement", args: args, safe: e.safe, spread: e.spread}
			if t.d == BeanShell {
				e.name = "remove"
			}
		}
	}
	argJS := t.exprs(args)
	if len(e.named) > 0 {
		var kv []string
		for _, en := range e.named {
			kv = append(kv, t.exprJS(en.key), t.exprJS(en.val))
		}
		m := "$.map([" + strings.Join(kv, ", ") + "])"
		if argJS == "" {
			argJS = m
		} else {
			argJS = m + ", " + argJS
		}
		args = append([]expr{&mapExpr{at: e.at}}, args...)
	}
	n := len(args)
	if e.recv == nil {
		return t.plainCall(e, argJS, n)
	}
	// Class.method(…)
	if cls, ok := t.classRef(e.recv); ok {
		ret, ok := t.cat.static(t.d, cls, e.name, n)
		if !ok {
			t.refuse(e.at, "the method %s.%s() with %d argument(s)", cls, e.name, n)
		}
		return t.record(e.at, fmt.Sprintf("$.sm(%q, %q, [%s])", cls, e.name, argJS)), ret
	}
	if e.name == "getPreviousResult" {
		t.used["prev"] = true
	}
	recv, kind := t.expr(e.recv)
	fn := "$.m"
	switch {
	case e.safe:
		fn = "$.msafe"
	case e.spread:
		fn = "$.mspread"
		kind = ""
	}
	ret := ""
	if id, ok := e.recv.(*identExpr); ok && t.undefinedName(id.name) {
		// a name nothing defines: the call fails at run time, as in
		// Groovy (no such property) and BeanShell (undefined variable)
		return fmt.Sprintf("%s(%s, %q, [%s])", fn, recv, e.name, argJS), ""
	}
	if kind != "" && kind != "Null" && !e.spread {
		r, ok := t.cat.method(t.d, kind, e.name, n)
		if !ok {
			t.refuse(e.at, "the method %s.%s() with %d argument(s)", kindName(kind), e.name, n)
		}
		ret = r
	} else if !t.cat.anyMethod(t.d, e.name, n) {
		t.refuse(e.at, "the method %s() with %d argument(s)", e.name, n)
	}
	return t.record(e.at, fmt.Sprintf("%s(%s, %q, [%s])", fn, recv, e.name, argJS)), ret
}

// undefinedName: a name that is no local, binding, method or class and
// that the script never assigns.
func (t *translator) undefinedName(name string) bool {
	if _, ok := t.lookupLocal(name); ok {
		return false
	}
	if _, ok := bindingKinds[name]; ok {
		return false
	}
	if _, ok := t.methods[name]; ok {
		return false
	}
	if _, ok := t.lookupClass(name); ok {
		return false
	}
	return !t.multi[name] && !isClassName(name)
}

// plainCall writes name(args): a script method, a closure variable, a
// static import or one of Groovy's and BeanShell's global functions.
func (t *translator) plainCall(e *callExpr, argJS string, n int) (string, string) {
	if m, ok := t.methods[e.name]; ok {
		min := 0
		for _, p := range m.params {
			if p.def == nil {
				min++
			}
		}
		if n < min || n > len(m.params) {
			t.refuse(e.at, "the method %s() called with %d argument(s)", e.name, n)
		}
		kind, _ := t.typeOf(m.ret)
		return t.record(e.at, fmt.Sprintf("m_%s(%s)", e.name, argJS)), kind
	}
	if l, ok := t.lookupLocal(e.name); ok {
		return t.record(e.at, fmt.Sprintf("$.call(%s, [%s])", l.js, argJS)), ""
	}
	if s, ok := t.statics[e.name]; ok {
		i := strings.LastIndexByte(s, '.')
		cls, member := s[:i], s[i+1:]
		ret, ok := t.cat.static(t.d, cls, member, n)
		if !ok {
			t.refuse(e.at, "the method %s.%s() with %d argument(s)", cls, member, n)
		}
		return t.record(e.at, fmt.Sprintf("$.sm(%q, %q, [%s])", cls, member, argJS)), ret
	}
	if t.d == Groovy {
		switch {
		case (e.name == "println" || e.name == "print") && n <= 1:
			return fmt.Sprintf("$.%s(%s)", e.name, argJS), "Null"
		case e.name == "printf" && n >= 1:
			return fmt.Sprintf("$.printf(%s)", argJS), "Null"
		case e.name == "sleep" && n == 1:
			return fmt.Sprintf("$.sleep(%s)", argJS), "Null"
		}
	} else {
		switch {
		case e.name == "print" && n == 1:
			return fmt.Sprintf("$.println(%s)", argJS), "Null"
		}
	}
	switch e.name {
	case "evaluate", "eval", "source", "exec", "run", "execute", "include", "importCommands", "load", "use":
		t.refuse(e.at, "the function %s() (running other scripts or programs)", e.name)
	}
	t.refuse(e.at, "the function %s() with %d argument(s)", e.name, n)
	return "", ""
}
