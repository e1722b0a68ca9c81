package script

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
)

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
	case *interpExpr:
		return "$.interp", "Interpreter"
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
		if t.d == BeanShell {
			// Java interns literals: each is one object for the whole run
			t.lits = append(t.lits, e.val)
			return t.konst("$.intern(" + strconv.Quote(e.val) + ")"), "String"
		}
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
		t.refuse(e.at, "%s", classRefusal(e.name))
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

// checkBshEq refuses BeanShell's == where it compares object references
// gojm cannot follow. Between strings it compares them as Java does
// (identity.go); with a non-empty string literal on one side that is
// exact. Against the empty literal it warns: every empty string is one
// object in gojm, while in Java some are the literal "" and some are not
// (JMeter 2.13 on Java 17: a CSV field and an extracted group are, an
// extractor's default, a function's result, a concatenation and
// new String("") are not). Between two other strings the warning says
// where it may part.
func (t *translator) checkBshEq(e *binaryExpr, kx, ky string) {
	isLit := func(x expr, k litKind) bool {
		l, ok := x.(*litExpr)
		return ok && l.kind == k
	}
	if isLit(e.x, litNull) || isLit(e.y, litNull) {
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
			t.warnBshStringEq(e)
			return
		}
		t.refuse(e.at, "== between objects in BeanShell (it compares object references; use equals())")
	}
}

// warnBshStringEq warns, once per script, of a == between strings whose
// result gojm's identity may not give as Java's does.
func (t *translator) warnBshStringEq(e *binaryExpr) {
	if t.warnedEq {
		return
	}
	lit := func(x expr) (string, bool) {
		l, ok := x.(*litExpr)
		if !ok || l.kind != litString {
			return "", false
		}
		return l.val, true
	}
	lx, okx := lit(e.x)
	ly, oky := lit(e.y)
	var msg string
	switch {
	case okx && lx == "" || oky && ly == "":
		msg = fmt.Sprintf("line %d: %s \"\" compares object references, as in BeanShell: in JMeter the result depends on where the empty string "+
			"comes from (on Java 17 a CSV field or an extracted group is the literal \"\"; a concatenation, new String(\"\"), an extractor's default "+
			"or a function's result is not), while in gojm every empty string is the literal (use isEmpty() or equals(\"\"))", e.at.Line, e.op)
	case okx || oky:
		return // a literal is one object for the run, as Java's: exact
	default:
		msg = fmt.Sprintf("line %d: %s between two strings compares object references, as in BeanShell; "+
			"gojm follows Java's identity, but a substring, an empty or a non-ASCII string made by the script may compare otherwise (use equals())",
			e.at.Line, e.op)
	}
	t.warnedEq = true
	t.warns = append(t.warns, msg)
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
