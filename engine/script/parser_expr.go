package script

import (
	"strings"
)

// exprStatement parses an expression statement, with Groovy's command
// expressions: println "x", log.info "msg".
func (p *parser) exprStatement() expr {
	if p.d == Groovy {
		if x := p.tryCommand(); x != nil {
			return x
		}
	}
	return p.expr()
}

// tryCommand parses "name.path arg, arg" (a call without parentheses).
func (p *parser) tryCommand() expr {
	save := p.i
	t := p.peek()
	if t.kind != tIdent || reserved[t.text] {
		return nil
	}
	var recv expr
	name := t.text
	p.i++
	for p.isOp(".") && p.peekAt(1).kind == tIdent && !p.peekAt(1).nl {
		if recv == nil {
			recv = &identExpr{at: t.pos, name: name}
		} else {
			recv = &propExpr{at: t.pos, x: recv, name: name}
		}
		p.i++
		name = p.next().text
	}
	nt := p.peek()
	if nt.nl || !startsCommandArg(nt) {
		p.i = save
		return nil
	}
	c := &callExpr{at: t.pos, recv: recv, name: name}
	for {
		c.args = append(c.args, p.expr())
		if !p.isOp(",") {
			break
		}
		p.i++
	}
	return c
}

func startsCommandArg(t token) bool {
	switch t.kind {
	case tString, tGString, tInt, tLong, tDouble, tFloat, tDecimal, tChar:
		return true
	case tIdent:
		switch t.text {
		case "in", "instanceof", "as":
			return false
		}
		return true
	}
	return false
}

// expr parses an expression, assignments included.
func (p *parser) expr() expr {
	x := p.ternary()
	t := p.peek()
	if t.kind == tOp && !(p.atLineBreak()) {
		switch t.text {
		case "=", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=", "&=", "|=", "^=":
			p.i++
			switch x.(type) {
			case *identExpr, *propExpr, *indexExpr:
			default:
				p.fail(t, "cannot assign to this expression")
			}
			return &assignExpr{at: t.pos, op: t.text, target: x, value: p.expr()}
		}
	}
	return x
}

// continues reports whether an operator on a new line continues the
// expression (it cannot start a statement).
func (p *parser) binaryOK() bool {
	t := p.peek()
	if !t.nl || !p.nlEnds() {
		return true
	}
	switch t.text {
	case "+", "-", "++", "--", "(", "[", "{", "!", "~":
		return false
	}
	return t.kind == tOp
}

func (p *parser) ternary() expr {
	cond := p.binary(0)
	t := p.peek()
	if t.kind == tOp && p.binaryOK() {
		switch t.text {
		case "?":
			p.i++
			p.push(false)
			then := p.expr()
			p.pop()
			p.expect(":")
			return &condExpr{at: t.pos, cond: cond, then: then, els_: p.ternary()}
		case "?:":
			p.i++
			return &elvisExpr{at: t.pos, x: cond, els_: p.ternary()}
		}
	}
	return cond
}

// binary operators by precedence, loosest first.
var binPrec = map[string]int{
	"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5,
	"==": 6, "!=": 6, "<=>": 6, "===": 6, "!==": 6, "=~": 6, "==~": 6,
	"<": 7, "<=": 7, ">": 7, ">=": 7, "in": 7, "instanceof": 7, "as": 7,
	"<<": 8, ">>": 8, ">>>": 8, "..": 8, "..<": 8,
	"+": 9, "-": 9,
	"*": 10, "/": 10, "%": 10,
	"**": 11,
}

func (p *parser) binary(min int) expr {
	x := p.unary()
	for {
		t := p.peek()
		if t.kind != tOp && !(t.kind == tIdent && (t.text == "in" || t.text == "instanceof" || t.text == "as")) {
			return x
		}
		prec, ok := binPrec[t.text]
		if !ok || prec <= min || !p.binaryOK() {
			return x
		}
		if p.d == BeanShell {
			switch t.text {
			case "in", "as", "<=>", "===", "!==", "=~", "==~", "..", "..<", "**":
				return x
			}
		}
		p.i++
		switch t.text {
		case "instanceof":
			x = &instanceofExpr{at: t.pos, x: x, typ: p.typ()}
			continue
		case "as":
			x = &castExpr{at: t.pos, typ: p.typ(), x: x, as: true}
			continue
		case "..", "..<":
			y := p.binary(prec)
			x = &rangeExpr{at: t.pos, from: x, to: y, exclusive: t.text == "..<"}
			continue
		}
		next := prec
		if t.text == "**" {
			next = prec - 1 // right-associative
		}
		y := p.binary(next)
		x = &binaryExpr{at: t.pos, op: t.text, x: x, y: y}
	}
}

func (p *parser) unary() expr {
	t := p.peek()
	if t.kind == tOp {
		switch t.text {
		case "-", "+", "!", "~", "++", "--":
			p.i++
			x := p.unary()
			if t.text == "-" {
				if l, ok := x.(*litExpr); ok && (l.kind == litInt || l.kind == litLong || l.kind == litDouble || l.kind == litDecimal || l.kind == litFloat) && !strings.HasPrefix(l.val, "-") {
					l.val = "-" + l.val
					l.at = t.pos
					return l
				}
			}
			return &unaryExpr{at: t.pos, op: t.text, x: x}
		case "(":
			if c := p.tryCast(); c != nil {
				return c
			}
		case "*":
			p.refuse(t.pos, "the spread operator *list")
		}
	}
	return p.postfix(p.primary())
}

// tryCast parses "(Type) operand" when it is one.
func (p *parser) tryCast() expr {
	save := p.i
	t := p.next() // (
	tr := p.tryType()
	if tr == nil || !p.isOp(")") {
		p.i = save
		return nil
	}
	p.i++
	nt := p.peek()
	isCast := false
	if primitives[tr.name] && tr.dims == 0 || tr.dims > 0 {
		isCast = startsOperand(nt) || nt.kind == tOp && (nt.text == "-" || nt.text == "+")
	} else if looksLikeType(tr) {
		isCast = startsOperand(nt)
	}
	if !isCast {
		p.i = save
		return nil
	}
	x := p.unary()
	return &castExpr{at: t.pos, typ: tr, x: x}
}

func startsOperand(t token) bool {
	switch t.kind {
	case tString, tGString, tInt, tLong, tDouble, tFloat, tDecimal, tChar:
		return true
	case tIdent:
		switch t.text {
		case "in", "instanceof", "as":
			return false
		}
		return true
	case tOp:
		switch t.text {
		case "(", "!", "~", "[":
			return true
		}
	}
	return false
}

func (p *parser) primary() expr {
	t := p.next()
	switch t.kind {
	case tEOF:
		p.fail(t, "the script ends in the middle of an expression")
	case tInt:
		return &litExpr{at: t.pos, kind: litInt, val: t.val}
	case tLong:
		return &litExpr{at: t.pos, kind: litLong, val: t.val}
	case tDouble:
		return &litExpr{at: t.pos, kind: litDouble, val: t.val}
	case tFloat:
		return &litExpr{at: t.pos, kind: litFloat, val: t.val}
	case tDecimal:
		return &litExpr{at: t.pos, kind: litDecimal, val: t.val}
	case tString:
		return &litExpr{at: t.pos, kind: litString, val: t.val}
	case tChar:
		return &litExpr{at: t.pos, kind: litChar, val: t.val}
	case tGString:
		return p.gstring(t)
	case tIdent:
		switch t.text {
		case "true", "false":
			return &litExpr{at: t.pos, kind: litBool, val: t.text}
		case "null":
			return &litExpr{at: t.pos, kind: litNull}
		case "new":
			return p.newExpr(t)
		case "this", "super":
			if t.text == "this" && p.thisInterpreter() {
				return &interpExpr{at: t.pos}
			}
			p.refuse(t.pos, "%s (the script object needs a JVM)", t.text)
		case "void":
			if p.d == BeanShell {
				p.refuse(t.pos, "BeanShell's void value")
			}
		}
		if reserved[t.text] && t.text != "def" {
			p.fail(t, "unexpected %q", t.text)
		}
		if primitives[t.text] {
			// int.class, int[] …
			p.i--
			tr := p.typ()
			return &classExpr{at: t.pos, typ: tr}
		}
		if p.callParen() {
			args, named := p.args()
			c := &callExpr{at: t.pos, name: t.text, args: args, named: named}
			p.trailingClosure(c)
			return c
		}
		if p.d == Groovy && p.isOp("{") && !p.peek().nl && p.nlEnds() {
			c := &callExpr{at: t.pos, name: t.text}
			p.trailingClosure(c)
			return c
		}
		return &identExpr{at: t.pos, name: t.text}
	case tOp:
		switch t.text {
		case "(":
			p.push(false)
			x := p.expr()
			p.pop()
			p.expect(")")
			return x
		case "[":
			return p.listOrMap(t)
		case "{":
			if p.d != Groovy {
				p.fail(t, "unexpected {")
			}
			p.i--
			return p.closure()
		}
	}
	p.fail(t, "unexpected %s", describe(t))
	return nil
}

func (p *parser) gstring(t token) expr {
	g := &gstringExpr{at: t.pos}
	lit := ""
	for _, part := range t.parts {
		if part.isHole {
			g.lits = append(g.lits, lit)
			lit = ""
			g.exprs = append(g.exprs, &holeExpr{at: t.pos, n: part.hole})
			continue
		}
		if !part.isExpr {
			lit += part.lit
			continue
		}
		g.lits = append(g.lits, lit)
		lit = ""
		if len(part.toks) == 0 {
			g.exprs = append(g.exprs, &litExpr{at: t.pos, kind: litNull})
			continue
		}
		sub := &parser{src: p.src, d: p.d, toks: part.toks, nlStack: []bool{false}}
		x := sub.expr()
		if sub.peek().kind != tEOF {
			if sub.isOp("->") || sub.isOp(";") {
				p.refuse(t.pos, "closures or statements inside ${…} in a string")
			}
			sub.fail(sub.peek(), "unexpected %s in ${%s}", describe(sub.peek()), part.src)
		}
		g.exprs = append(g.exprs, x)
	}
	g.lits = append(g.lits, lit)
	return g
}

func (p *parser) listOrMap(t token) expr {
	p.push(false)
	defer p.pop()
	if p.isOp(":") && p.peekAt(1).text == "]" {
		p.i += 2
		return &mapExpr{at: t.pos}
	}
	if p.isOp("]") {
		p.i++
		return &listExpr{at: t.pos}
	}
	// A map when the first element is followed by ':'.
	var first expr
	var key expr
	isMap := false
	if k := p.mapKey(); k != nil {
		key, isMap = k, true
	} else {
		first = p.expr()
		if p.isOp(":") {
			p.i++
			key, isMap = first, true
		}
	}
	if isMap {
		m := &mapExpr{at: t.pos}
		for {
			if p.isOp("*") && p.peekAt(1).text == ":" {
				p.refuse(p.peek().pos, "the spread map operator *:")
			}
			val := p.expr()
			m.entries = append(m.entries, mapEntry{key: key, val: val})
			if !p.isOp(",") {
				break
			}
			p.i++
			if p.isOp("]") {
				break
			}
			if k := p.mapKey(); k != nil {
				key = k
			} else {
				key = p.expr()
				p.expect(":")
			}
		}
		p.expect("]")
		return m
	}
	l := &listExpr{at: t.pos, elems: []expr{first}}
	for p.isOp(",") {
		p.i++
		if p.isOp("]") {
			break
		}
		l.elems = append(l.elems, p.expr())
	}
	p.expect("]")
	return l
}

// mapKey reads "name:" or "'string':" map keys (an unquoted name is a
// string key), leaving other keys to the expression parser.
func (p *parser) mapKey() expr {
	t := p.peek()
	nt := p.peekAt(1)
	if nt.kind != tOp || nt.text != ":" {
		return nil
	}
	switch t.kind {
	case tIdent, tString:
		p.i += 2
		v := t.text
		if t.kind == tString {
			v = t.val
		}
		return &litExpr{at: t.pos, kind: litString, val: v}
	case tInt, tLong, tDecimal, tDouble:
		return nil
	}
	return nil
}

func (p *parser) newExpr(t token) expr {
	nt := p.peek()
	if nt.kind != tIdent {
		p.fail(nt, "expected a class after new")
	}
	typ := &typeRef{at: nt.pos, name: p.next().text}
	for p.isOp(".") && p.peekAt(1).kind == tIdent {
		p.i++
		typ.name += "." + p.next().text
	}
	if p.isOp("<") {
		// type arguments, possibly the diamond <>
		p.i++
		if p.isOp(">") {
			p.i++
		} else {
			for {
				typ.args = append(typ.args, p.typ())
				if !p.isOp(",") {
					break
				}
				p.i++
			}
			p.closeAngle()
		}
	}
	n := &newExpr{at: t.pos, typ: typ}
	if p.isOp("[") {
		n.isArray = true
		for p.isOp("[") {
			p.i++
			p.push(false)
			if p.isOp("]") {
				p.pop()
				p.i++
				typ.dims++
				continue
			}
			n.dimExpr = append(n.dimExpr, p.expr())
			p.pop()
			p.expect("]")
			typ.dims++
		}
		if p.isOp("{") {
			n.init = p.arrayInit().(*listExpr).elems
		}
		return n
	}
	if !p.isOp("(") {
		p.fail(p.peek(), "expected ( after new %s", typ.name)
	}
	n.args, _ = p.args()
	if p.isOp("{") && !p.peek().nl {
		p.refuse(p.peek().pos, "an anonymous class (new %s(…) { … })", typ.name)
	}
	return n
}

// args parses a parenthesised argument list with Groovy named arguments.
func (p *parser) args() ([]expr, []mapEntry) {
	p.expect("(")
	p.push(false)
	defer p.pop()
	var args []expr
	var named []mapEntry
	for !p.isOp(")") {
		if p.d == Groovy {
			if k := p.mapKey(); k != nil {
				named = append(named, mapEntry{key: k, val: p.expr()})
				if !p.isOp(",") {
					break
				}
				p.i++
				continue
			}
		}
		args = append(args, p.expr())
		if !p.isOp(",") {
			break
		}
		p.i++
	}
	p.expect(")")
	return args, named
}

// trailingClosure appends Groovy closures written after a call: f(x) { … }.
func (p *parser) trailingClosure(c *callExpr) {
	for p.d == Groovy && p.isOp("{") && !p.peek().nl {
		c.args = append(c.args, p.closure())
	}
}

func (p *parser) closure() expr {
	t := p.expect("{")
	c := &closureExpr{at: t.pos}
	// parameters: "a, b ->", "String a ->", "->"
	save := p.i
	if !p.closureParams(c) {
		p.i = save
		c.params = nil
		c.implicit = true
	}
	p.push(true)
	defer p.pop()
	for !p.isOp("}") {
		if p.peek().kind == tEOF {
			p.fail(p.peek(), "missing } of the closure opened on %s", t.pos)
		}
		if p.isOp(";") {
			p.i++
			continue
		}
		c.body = append(c.body, p.statement(false))
		p.endStatement()
	}
	p.i++
	return c
}

func (p *parser) closureParams(c *closureExpr) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if e, isErr := r.(*Error); isErr && !e.Refused {
				ok = false
				return
			}
			panic(r)
		}
	}()
	if p.isOp("->") {
		p.i++
		return true
	}
	for {
		t := p.peek()
		if t.kind != tIdent {
			return false
		}
		pr := param{at: t.pos}
		save := p.i
		if tr := p.tryType(); tr != nil && p.peek().kind == tIdent {
			pr.typ = tr
		} else {
			p.i = save
		}
		nt := p.next()
		if nt.kind != tIdent || reserved[nt.text] {
			return false
		}
		pr.name = nt.text
		if p.isOp("=") {
			p.i++
			pr.def = p.ternary()
		}
		c.params = append(c.params, pr)
		if p.isOp(",") {
			p.i++
			continue
		}
		if p.isOp("->") {
			p.i++
			return true
		}
		return false
	}
}

// callParen reports whether the next token opens a call's arguments: in
// Groovy not after a newline, which ends the statement; in BeanShell, where
// a newline is only space, always.
func (p *parser) callParen() bool {
	return p.isOp("(") && (!p.peek().nl || p.d != Groovy)
}

// postfix parses member access, calls, indexes and postfix ++/--.
func (p *parser) postfix(x expr) expr {
	for {
		t := p.peek()
		if t.kind != tOp {
			return x
		}
		if t.nl && p.nlEnds() && t.text != "." && t.text != "?." && t.text != "*." {
			return x
		}
		switch t.text {
		case ".", "?.", "*.":
			p.i++
			nt := p.next()
			if nt.kind == tOp && nt.text == "@" {
				p.refuse(nt.pos, "direct field access .@")
			}
			if nt.kind == tOp && nt.text == "<" {
				p.refuse(nt.pos, "explicit type arguments on a method call")
			}
			if nt.kind == tString || nt.kind == tGString {
				p.refuse(nt.pos, "a method or property named by a string")
			}
			if nt.kind != tIdent {
				p.fail(nt, "expected a name after %s", t.text)
			}
			if p.callParen() {
				args, named := p.args()
				c := &callExpr{at: nt.pos, recv: x, name: nt.text, args: args, named: named, safe: t.text == "?.", spread: t.text == "*."}
				p.trailingClosure(c)
				x = c
				continue
			}
			if p.d == Groovy && p.isOp("{") && !p.peek().nl {
				c := &callExpr{at: nt.pos, recv: x, name: nt.text, safe: t.text == "?.", spread: t.text == "*."}
				p.trailingClosure(c)
				x = c
				continue
			}
			if nt.text == "class" {
				if id, ok := x.(*identExpr); ok {
					x = &classExpr{at: nt.pos, typ: &typeRef{at: id.at, name: id.name}}
					continue
				}
			}
			x = &propExpr{at: nt.pos, x: x, name: nt.text, safe: t.text == "?.", spread: t.text == "*."}
		case ".&", "::":
			p.refuse(t.pos, "method references (%s)", t.text)
		case "?":
			// Groovy 3's safe index ?[ is not in Groovy 2.
			return x
		case "[":
			p.i++
			p.push(false)
			if p.isOp("]") {
				// Type[] as a class literal
				p.pop()
				p.i++
				if id, ok := x.(*identExpr); ok {
					x = &classExpr{at: id.at, typ: &typeRef{at: id.at, name: id.name, dims: 1}}
					continue
				}
				p.fail(t, "unexpected []")
			}
			idx := p.expr()
			if p.isOp(",") {
				p.refuse(t.pos, "an index with several values x[a, b]")
			}
			p.pop()
			p.expect("]")
			x = &indexExpr{at: t.pos, x: x, index: idx}
		case "(":
			args, _ := p.args()
			x = &invokeExpr{at: t.pos, fn: x, args: args}
		case "++", "--":
			p.i++
			x = &postfixExpr{at: t.pos, op: t.text, x: x}
		default:
			return x
		}
	}
}
