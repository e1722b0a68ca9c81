package script

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"sync"
	"unique"
)

// The direct path: a short Groovy or BeanShell script compiled from its
// syntax tree straight to Go closures, for the scripts plans run on every
// sample (a few lines over vars, props, log, prev, strings and
// arithmetic). It runs a script in well under a microsecond where the
// translation to JavaScript costs tens (BenchmarkShortScript).
//
// It covers a subset and carries that subset's rules exactly; whatever it
// cannot compile runs on the translation, and a run that reaches a case it
// does not carry (an exception, a value of another kind) bails out and
// runs again on the translation. So that a run can start again, what it
// does to variables, properties and the log is kept in a journal and
// applied at its end, and the results it changes are restored; a script
// on this path reads nothing but its bindings, so a second run does the
// same.

type fexpr func(f *frame) val

// fstmt runs a statement; true means it returned.
type fstmt func(f *frame) bool

// direct is a script compiled to closures.
type direct struct {
	body    []fstmt
	nlocals int
	// sets marks the results the script changes (0 prev, 1
	// SampleResult), kept before a run to be restored if it bails out.
	sets [2]bool
}

type effectKind uint8

const (
	efPutVar effectKind = iota
	efRemoveVar
	efPutProp
	efRemoveProp
	efLog
)

type effect struct {
	k    effectKind
	a, b string
}

// frame is one direct run.
type frame struct {
	env     *Env
	d       Dialect
	locals  []val
	journal []effect
	ret     val
}

var frames = sync.Pool{New: func() any { return &frame{} }}

// run runs the script; ok false means it bailed out and did nothing.
func (p *direct) run(env *Env, d Dialect) (v Value, ok bool) {
	f := frames.Get().(*frame)
	f.env, f.d, f.ret = env, d, nullVal
	if cap(f.locals) < p.nlocals {
		f.locals = make([]val, p.nlocals)
	}
	f.locals = f.locals[:p.nlocals]
	clear(f.locals)
	f.journal = f.journal[:0]
	var saved [2]Result
	res := [2]*Result{env.Prev, env.Current}
	if res[1] == nil {
		res[1] = env.Prev
	}
	for i, s := range p.sets {
		if s && res[i] != nil {
			saved[i] = *res[i]
		}
	}
	defer func() {
		if r := recover(); r != nil {
			if _, isBail := r.(bailout); !isBail {
				panic(r)
			}
			for i, s := range p.sets {
				if s && res[i] != nil {
					*res[i] = saved[i]
				}
			}
			ok = false
		}
		f.env = nil
		clear(f.locals)
		for i := range f.journal {
			f.journal[i] = effect{}
		}
		frames.Put(f)
	}()
	for _, s := range p.body {
		if s(f) {
			break
		}
	}
	h := env.Host
	for _, e := range f.journal {
		switch e.k {
		case efPutVar:
			h.PutVar(e.a, e.b)
		case efRemoveVar:
			h.RemoveVar(e.a)
		case efPutProp:
			h.PutProp(e.a, e.b)
		case efRemoveProp:
			h.RemoveProp(e.a)
		case efLog:
			h.Log(e.a, e.b)
		}
	}
	if f.ret.k == vNull {
		return Value{Null: true}, true
	}
	return Value{Text: f.ret.str()}, true
}

// varGet reads a variable as this run sees it: what the run put, or the
// host's; a variable holding an object bails.
func (f *frame) varGet(name string) (string, bool) { return f.hostGet(name, false) }

// propGet reads a property as varGet reads a variable.
func (f *frame) propGet(name string) (string, bool) { return f.hostGet(name, true) }

func (f *frame) hostGet(name string, prop bool) (string, bool) {
	put, remove := efPutVar, efRemoveVar
	if prop {
		put, remove = efPutProp, efRemoveProp
	}
	if v, ok, seen := f.journaled(name, put, remove); seen {
		return v, ok
	}
	h := f.env.Host
	if prop {
		if _, obj := h.PropObject(name); obj {
			bail()
		}
		return h.Prop(name)
	}
	if _, obj := h.VarObject(name); obj {
		bail()
	}
	return h.Var(name)
}

// journaled is the last put or remove of name this run made.
func (f *frame) journaled(name string, put, remove effectKind) (v string, ok, seen bool) {
	for i := len(f.journal) - 1; i >= 0; i-- {
		e := &f.journal[i]
		if e.a != name {
			continue
		}
		switch e.k {
		case put:
			return e.b, true, true
		case remove:
			return "", false, true
		}
	}
	return "", false, false
}

// canRunDirect reports whether an Env suits the direct path: the
// translation turns every global into Java's text after a run, which
// leaves only strings and booleans as they were.
func canRunDirect(env *Env) bool {
	for _, g := range env.Globals {
		switch g.Value.(type) {
		case string, bool:
		default:
			return false
		}
	}
	return true
}

// errNotDirect stops compiling a script the direct path does not cover.
var errNotDirect = errors.New("script: not on the direct path")

// dcomp compiles one script to closures.
type dcomp struct {
	d      Dialect
	scope  []map[string]dlocal
	n      int
	direct *direct
}

type dlocal struct {
	slot int
	cast string
}

func (c *dcomp) no() { panic(errNotDirect) }

// compileDirect compiles a parsed script for the direct path, or returns
// nil when it is not covered.
func compileDirect(stmts []stmt, d Dialect) (p *direct) {
	defer func() {
		if r := recover(); r != nil {
			if r != errNotDirect {
				panic(r)
			}
			p = nil
		}
	}()
	var body []stmt
	for _, s := range stmts {
		switch s := s.(type) {
		case *importStmt:
			if s.static || s.alias != "" {
				return nil
			}
		case *methodDecl:
			return nil
		default:
			body = append(body, s)
		}
	}
	if d == Groovy {
		body = groovyReturns(body)
	} else {
		body = bshReturns(body)
	}
	c := &dcomp{d: d, scope: []map[string]dlocal{{}}, direct: &direct{}}
	for _, s := range body {
		c.direct.body = append(c.direct.body, c.stmt(s))
	}
	c.direct.nlocals = c.n
	return c.direct
}

func (c *dcomp) lookup(name string) (dlocal, bool) {
	for i := len(c.scope) - 1; i >= 0; i-- {
		if l, ok := c.scope[i][name]; ok {
			return l, true
		}
	}
	return dlocal{}, false
}

func (c *dcomp) block(list []stmt) fstmt {
	c.scope = append(c.scope, map[string]dlocal{})
	var out []fstmt
	for _, s := range list {
		out = append(out, c.stmt(s))
	}
	c.scope = c.scope[:len(c.scope)-1]
	return func(f *frame) bool {
		for _, s := range out {
			if s(f) {
				return true
			}
		}
		return false
	}
}

func (c *dcomp) stmt(s stmt) fstmt {
	switch s := s.(type) {
	case *exprStmt:
		x := c.expr(s.x)
		return func(f *frame) bool { x(f); return false }
	case *emptyStmt:
		return func(*frame) bool { return false }
	case *importStmt:
		return func(*frame) bool { return false }
	case *returnStmt:
		if s.x == nil {
			return func(f *frame) bool { f.ret = nullVal; return true }
		}
		x := c.expr(s.x)
		return func(f *frame) bool { f.ret = x(f); return true }
	case *blockStmt:
		return c.block(s.stmts)
	case *declStmt:
		return c.decl(s)
	case *ifStmt:
		cond := c.expr(s.cond)
		then := c.block([]stmt{s.then})
		els := func(*frame) bool { return false }
		if s.els_ != nil {
			els = c.block([]stmt{s.els_})
		}
		d := c.d
		return func(f *frame) bool {
			if cond(f).truth(d) {
				return then(f)
			}
			return els(f)
		}
	}
	c.no()
	return nil
}

// declTypes are the declared types the direct path keeps.
var declTypes = map[string]bool{"int": true, "long": true, "double": true, "boolean": true, "String": true,
	"Integer": true, "Long": true, "Double": true, "Boolean": true, "Object": true, "def": true, "var": true}

func (c *dcomp) decl(s *declStmt) fstmt {
	t := ""
	if s.typ != nil {
		if len(s.typ.args) > 0 || s.typ.dims > 0 || !declTypes[s.typ.name] {
			c.no()
		}
		t = s.typ.name
		if t == "var" {
			t = ""
		}
	}
	var out []fstmt
	for _, v := range s.vars {
		if v.dims > 0 {
			c.no()
		}
		if _, ok := c.lookup(v.name); ok {
			c.no() // shadowing: the translation knows its rules
		}
		var init fexpr
		if v.init != nil {
			init = c.expr(v.init)
		} else if t == "int" || t == "long" || t == "double" || t == "boolean" {
			c.no() // an unset primitive: BeanShell's and Groovy's defaults differ
		}
		slot := c.n
		c.n++
		c.scope[len(c.scope)-1][v.name] = dlocal{slot: slot, cast: t}
		d := c.d
		if init == nil {
			out = append(out, func(f *frame) bool { f.locals[slot] = nullVal; return false })
			continue
		}
		out = append(out, func(f *frame) bool { f.locals[slot] = cast(init(f), t, d); return false })
	}
	if len(out) == 1 {
		return out[0]
	}
	return func(f *frame) bool {
		for _, s := range out {
			s(f)
		}
		return false
	}
}

func (c *dcomp) expr(e expr) fexpr {
	d := c.d
	switch e := e.(type) {
	case *litExpr:
		v := c.literal(e)
		return func(*frame) val { return v }
	case *gstringExpr:
		lits := e.lits
		parts := make([]fexpr, len(e.exprs))
		for i, x := range e.exprs {
			parts[i] = c.expr(x)
		}
		return func(f *frame) val {
			var buf [8]string
			strs := buf[:0]
			n := len(lits[0])
			for i, p := range parts {
				s := p(f).str()
				strs = append(strs, s)
				n += len(s) + len(lits[i+1])
			}
			b := make([]byte, 0, n)
			b = append(b, lits[0]...)
			for i, s := range strs {
				b = append(b, s...)
				b = append(b, lits[i+1]...)
			}
			return strVal(string(b))
		}
	case *holeExpr:
		n := e.n
		return func(f *frame) val {
			if n >= len(f.env.Holes) {
				bail()
			}
			return strVal(f.env.Holes[n])
		}
	case *identExpr:
		if l, ok := c.lookup(e.name); ok {
			slot := l.slot
			return func(f *frame) val { return f.locals[slot] }
		}
		switch e.name {
		case "Label":
			return func(f *frame) val { return strVal(f.env.Label) }
		case "FileName":
			return func(f *frame) val { return strVal(f.env.FileName) }
		case "Parameters":
			return func(f *frame) val { return strVal(f.env.Parameters) }
		}
		c.no()
	case *unaryExpr:
		return c.unary(e)
	case *postfixExpr:
		return c.incdec(e.x, e.op, true)
	case *binaryExpr:
		return c.binary(e)
	case *assignExpr:
		return c.assign(e)
	case *condExpr:
		cond, then, els := c.expr(e.cond), c.expr(e.then), c.expr(e.els_)
		return func(f *frame) val {
			if cond(f).truth(d) {
				return then(f)
			}
			return els(f)
		}
	case *elvisExpr:
		if d != Groovy {
			c.no()
		}
		x, els := c.expr(e.x), c.expr(e.els_)
		return func(f *frame) val {
			if v := x(f); v.truth(d) {
				return v
			}
			return els(f)
		}
	case *callExpr:
		return c.call(e)
	}
	c.no()
	return nil
}

func (c *dcomp) literal(e *litExpr) val {
	switch e.kind {
	case litNull:
		return nullVal
	case litBool:
		return boolVal(e.val == "true")
	case litString:
		if c.d == BeanShell {
			return strVal(unique.Make(e.val).Value()) // interned, as the translation's (identity.go)
		}
		return strVal(e.val)
	case litInt, litLong:
		n, fits, err := parseIntLit(e.val)
		switch {
		case err != nil || !fits:
			c.no()
		case e.kind == litLong:
			return longVal(n)
		case n >= math.MinInt32 && n <= math.MaxInt32:
			return intVal(int32(n))
		case c.d == Groovy:
			return longVal(n) // Groovy makes a long of an int literal too large for int
		}
		c.no()
	case litDouble:
		x, err := strconv.ParseFloat(strings.TrimRight(e.val, "dD"), 64)
		if err != nil {
			c.no()
		}
		return doubleVal(x)
	}
	c.no()
	return nullVal
}

func (c *dcomp) unary(e *unaryExpr) fexpr {
	d := c.d
	switch e.op {
	case "!":
		x := c.expr(e.x)
		return func(f *frame) val { return boolVal(!x(f).truth(d)) }
	case "-":
		x := c.expr(e.x)
		return func(f *frame) val {
			v := x(f)
			switch v.k {
			case vInt:
				return intVal(-int32(v.n))
			case vLong:
				return longVal(-v.n)
			case vDouble:
				return doubleVal(-v.f())
			}
			bail()
			return nullVal
		}
	case "+":
		x := c.expr(e.x)
		return func(f *frame) val {
			v := x(f)
			if !v.isNum() {
				bail()
			}
			return v
		}
	case "++", "--":
		return c.incdec(e.x, e.op, false)
	}
	c.no()
	return nil
}

// localTarget is the local an assignment or ++ changes; the direct path
// changes nothing else.
func (c *dcomp) localTarget(target expr) dlocal {
	id, ok := target.(*identExpr)
	if !ok {
		c.no()
	}
	l, ok := c.lookup(id.name)
	if !ok {
		c.no()
	}
	return l
}

// incdec is ++ and -- on a local (post: the value before).
func (c *dcomp) incdec(target expr, op string, post bool) fexpr {
	l := c.localTarget(target)
	slot, t, d := l.slot, l.cast, c.d
	step := int32(1)
	if op == "--" {
		step = -1
	}
	return func(f *frame) val {
		old := f.locals[slot]
		var nv val
		switch old.k {
		case vInt:
			nv = intVal(int32(old.n) + step)
		case vLong:
			nv = longVal(old.n + int64(step))
		case vDouble:
			nv = doubleVal(old.f() + float64(step))
		default:
			bail()
		}
		nv = cast(nv, t, d)
		f.locals[slot] = nv
		if post {
			return old
		}
		return nv
	}
}

func (c *dcomp) binary(e *binaryExpr) fexpr {
	d := c.d
	x, y := c.expr(e.x), c.expr(e.y)
	switch e.op {
	case "&&":
		return func(f *frame) val { return boolVal(x(f).truth(d) && y(f).truth(d)) }
	case "||":
		return func(f *frame) val { return boolVal(x(f).truth(d) || y(f).truth(d)) }
	case "+":
		if d == BeanShell {
			return func(f *frame) val { return bshAdd(x(f), y(f)) }
		}
		return func(f *frame) val { return add(x(f), y(f)) }
	case "-", "*", "/", "%":
		op := e.op[0]
		return func(f *frame) val { return arith(op, x(f), y(f), d) }
	case "==":
		if d == BeanShell && !bshEqSafe(e) {
			c.no()
		}
		return func(f *frame) val { return boolVal(eq(x(f), y(f), d)) }
	case "!=":
		if d == BeanShell && !bshEqSafe(e) {
			c.no()
		}
		return func(f *frame) val { return boolVal(!eq(x(f), y(f), d)) }
	case "<", "<=", ">", ">=":
		op := e.op
		return func(f *frame) val { return boolVal(compare(op, x(f), y(f), d)) }
	}
	c.no()
	return nil
}

// bshEqSafe: BeanShell's == on objects compares references, which the
// translation refuses where it sees it; the direct path takes only a
// comparison with null or a number literal.
func bshEqSafe(e *binaryExpr) bool {
	lit := func(x expr) bool {
		l, ok := x.(*litExpr)
		return ok && (l.kind == litNull || l.kind == litInt || l.kind == litBool)
	}
	return lit(e.x) || lit(e.y)
}

func (c *dcomp) assign(e *assignExpr) fexpr {
	l := c.localTarget(e.target)
	slot, t, d := l.slot, l.cast, c.d
	v := c.expr(e.value)
	var op func(a, b val) val
	switch e.op {
	case "=":
	case "+=":
		op = add
		if d == BeanShell {
			op = bshAdd
		}
	case "-=", "*=":
		o := e.op[0]
		op = func(a, b val) val { return arith(o, a, b, d) }
	default:
		c.no()
	}
	return func(f *frame) val {
		nv := v(f)
		if op != nil {
			nv = op(f.locals[slot], nv)
		}
		nv = cast(nv, t, d)
		f.locals[slot] = nv
		return nv
	}
}
