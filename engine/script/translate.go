package script

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// translator turns a parsed script into JavaScript for the runtime. It
// resolves every name (locals, JMeter's bindings, known classes), checks
// every class, static member, constructor and method against what the
// runtime implements, and refuses by name what it cannot run.
type translator struct {
	d        Dialect
	src      string
	cat      *catalog
	b        strings.Builder
	consts   []string
	lits     []string // BeanShell's string literals, interned (identity.go)
	warnedEq bool
	sc       *scope
	methods  map[string]*methodDecl
	imports  map[string]string // simple name → class, from imports
	statics  map[string]string // statically imported member → class
	unknown  map[string]string // simple name → imported class gojm does not know
	multi    map[string]bool   // names assigned after their declaration
	tmp      int
	rec      *assertRec      // recording a Groovy power assert
	used     map[string]bool // bindings the script reads
	files    []FileUse       // the files it names with a constant path
	warns    []string        // what runs as JMeter runs it, but fails there too
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
func translate(src string, d Dialect, stmts []stmt, cat *catalog) (js string, used map[string]bool, warns []string, files []FileUse, lits []string, err error) {
	t := &translator{d: d, src: src, cat: cat, methods: map[string]*methodDecl{}, imports: map[string]string{},
		statics: map[string]string{}, unknown: map[string]string{}, multi: map[string]bool{}, used: map[string]bool{}}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			js, used, warns, files, lits, err = "", nil, nil, nil, nil, e
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
	return out.String(), t.used, t.warns, t.files, t.lits, nil
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

// libraryPackages are the packages of Java, Groovy, JMeter and the
// libraries JMeter ships: a class of any other package is the plan's own,
// from a jar its authors put on JMeter's class path.
var libraryPackages = []string{"java.", "javax.", "jdk.", "sun.", "com.sun.", "groovy.", "org.codehaus.groovy.",
	"org.apache.", "org.slf4j.", "org.json.", "net.minidev.", "com.jayway.", "com.fasterxml.", "com.google.",
	"org.jsoup.", "org.mozilla.", "bsh.", "kg.apc.", "us.abstracta.", "com.blazemeter."}

// classRefusal says why a class cannot run and what to do: a class of the
// plan's own needs its jar and a JVM; any other class gojm does not know.
func classRefusal(name string) string {
	custom := strings.Contains(name, ".")
	for _, p := range libraryPackages {
		if strings.HasPrefix(name, p) {
			custom = false
		}
	}
	if custom {
		return fmt.Sprintf("the class %s, the plan's own Java code (from a jar on JMeter's class path), which needs a JVM: "+
			"run this element in JMeter, or do its work with JMeter functions or a script over the classes gojm knows", name)
	}
	return fmt.Sprintf("the class %s, which needs a JVM (gojm runs only the Java classes it knows)", name)
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
	t.refuse(at, "%s", classRefusal(name))
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
