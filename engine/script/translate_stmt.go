package script

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
)

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
