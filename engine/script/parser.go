package script

import (
	"fmt"
	"strings"
)

// parser builds the syntax tree of a Groovy or BeanShell script from its
// tokens. Groovy ends a statement at a newline where the statement is
// complete; inside ( ) and [ ] newlines do not count.
type parser struct {
	src  string
	d    Dialect
	toks []token
	i    int
	// nlStack: whether newlines end statements at the current nesting
	// (true at statement level and in closure bodies, false in ( ) [ ]).
	nlStack []bool
}

// parse parses a whole script.
func parse(src string, d Dialect) ([]stmt, error) {
	stmts, _, err := parseHoles(src, d)
	return stmts, err
}

// parseHoles parses a script with holes, telling what each hole's text
// must not contain.
func parseHoles(src string, d Dialect) ([]stmt, map[int]string, error) {
	toks, forbid, err := lexHoles(src, d)
	if err != nil {
		return nil, nil, err
	}
	stmts, err := parseTokens(src, d, toks)
	return stmts, forbid, err
}

func parseTokens(src string, d Dialect, toks []token) ([]stmt, error) {
	p := &parser{src: src, d: d, toks: toks, nlStack: []bool{true}}
	return p.script()
}

func (p *parser) script() (out []stmt, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			out, err = nil, e
		}
	}()
	for p.peek().kind != tEOF {
		if p.isOp(";") {
			p.i++
			continue
		}
		s := p.statement(true)
		out = append(out, s)
		p.endStatement()
	}
	return out, nil
}

func (p *parser) peek() token {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	t := token{kind: tEOF, text: "end of script", nl: true}
	if len(p.toks) > 0 {
		t.pos = p.toks[len(p.toks)-1].pos
		t.off = len(p.src)
		t.end = len(p.src)
	}
	return t
}

func (p *parser) peekAt(k int) token {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return token{kind: tEOF, text: "end of script", nl: true}
}

func (p *parser) next() token {
	t := p.peek()
	if p.i < len(p.toks) {
		p.i++
	}
	return t
}

func (p *parser) isOp(op string) bool {
	t := p.peek()
	return t.kind == tOp && t.text == op
}

func (p *parser) isWord(w string) bool {
	t := p.peek()
	return t.kind == tIdent && t.text == w
}

func (p *parser) fail(t token, format string, args ...any) {
	panic(&Error{Pos: t.pos, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) refuse(at Pos, format string, args ...any) {
	panic(&Error{Pos: at, Msg: fmt.Sprintf(format, args...), Refused: true})
}

func (p *parser) expect(op string) token {
	t := p.next()
	if t.kind != tOp || t.text != op {
		p.fail(t, "expected %q, found %s", op, describe(t))
	}
	return t
}

func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "the end of the script"
	case tString, tGString:
		return "a string"
	case tChar:
		return "a character"
	}
	return fmt.Sprintf("%q", t.text)
}

// nlEnds reports whether a newline before the next token ends the
// current expression.
func (p *parser) nlEnds() bool {
	return p.d == Groovy && p.nlStack[len(p.nlStack)-1]
}

func (p *parser) push(nl bool) { p.nlStack = append(p.nlStack, nl) }
func (p *parser) pop()         { p.nlStack = p.nlStack[:len(p.nlStack)-1] }

// atLineBreak reports whether the next token starts a new statement
// because of a newline.
func (p *parser) atLineBreak() bool { return p.nlEnds() && p.peek().nl }

func (p *parser) endStatement() {
	t := p.peek()
	switch {
	case t.kind == tOp && t.text == ";":
		p.i++
	case t.kind == tEOF, t.kind == tOp && t.text == "}":
	case p.d == Groovy && t.nl:
	case p.i > 0 && p.toks[p.i-1].kind == tOp && p.toks[p.i-1].text == "}":
		// a statement ending with a block needs no ;
	default:
		p.fail(t, "unexpected %s", describe(t))
	}
}

var reserved = map[string]bool{
	"if": true, "else": true, "while": true, "do": true, "for": true, "return": true, "break": true,
	"continue": true, "throw": true, "try": true, "catch": true, "finally": true, "switch": true,
	"case": true, "default": true, "new": true, "import": true, "class": true, "interface": true,
	"enum": true, "instanceof": true, "in": true, "as": true, "def": true, "assert": true,
	"true": true, "false": true, "null": true, "this": true, "super": true, "package": true,
	"synchronized": true, "static": true, "final": true, "trait": true, "goto": true, "native": true,
}

var primitives = map[string]bool{
	"int": true, "long": true, "double": true, "float": true, "boolean": true, "char": true,
	"byte": true, "short": true, "void": true,
}

// statement parses one statement. top is true at the script's top level.
func (p *parser) statement(top bool) stmt {
	t := p.peek()
	if t.kind == tOp {
		switch t.text {
		case "{":
			return p.block()
		case ";":
			p.i++
			return &emptyStmt{at: t.pos}
		case "@":
			p.refuse(t.pos, "annotations")
		}
	}
	if t.kind == tIdent {
		switch t.text {
		case "if":
			return p.ifStmt()
		case "while":
			p.i++
			p.expect("(")
			p.push(false)
			cond := p.expr()
			p.pop()
			p.expect(")")
			return &whileStmt{at: t.pos, cond: cond, body: p.body()}
		case "do":
			p.i++
			body := p.body()
			if p.isOp(";") {
				p.i++
			}
			if !p.isWord("while") {
				p.fail(p.peek(), "expected while after do { … }")
			}
			p.i++
			p.expect("(")
			p.push(false)
			cond := p.expr()
			p.pop()
			p.expect(")")
			return &doStmt{at: t.pos, body: body, cond: cond}
		case "for":
			return p.forStmt()
		case "return":
			p.i++
			r := &returnStmt{at: t.pos}
			if !p.stmtEnds() {
				r.x = p.expr()
			}
			return r
		case "break", "continue":
			p.i++
			// Labels are refused: the translation writes no labelled statements.
			if nt := p.peek(); nt.kind == tIdent && !nt.nl {
				p.i++
				p.refuse(t.pos, "%s with a label", t.text)
			}
			if t.text == "break" {
				return &breakStmt{at: t.pos}
			}
			return &continueStmt{at: t.pos}
		case "throw":
			p.i++
			return &throwStmt{at: t.pos, x: p.expr()}
		case "try":
			return p.tryStmt()
		case "switch":
			return p.switchStmt()
		case "assert":
			return p.assertStmt()
		case "import":
			return p.importStmt()
		case "package":
			p.refuse(t.pos, "a package declaration")
		case "class", "interface", "enum", "trait":
			name := p.peekAt(1).text
			p.refuse(t.pos, "the %s definition %s (scripts defining classes need a JVM)", t.text, name)
		case "synchronized":
			p.refuse(t.pos, "synchronized blocks")
		case "static", "public", "private", "protected", "abstract":
			p.refuse(t.pos, "the modifier %s", t.text)
		case "else", "catch", "finally", "case", "default":
			p.fail(t, "unexpected %q", t.text)
		}
		// A label "name:" (Groovy and Java).
		if nt := p.peekAt(1); nt.kind == tOp && nt.text == ":" && !reserved[t.text] {
			p.refuse(t.pos, "the statement label %s:", t.text)
		}
		if s := p.declOrMethod(top); s != nil {
			return s
		}
	}
	x := p.exprStatement()
	return &exprStmt{at: t.pos, x: x}
}

// stmtEnds reports whether the statement ends here (return without value).
func (p *parser) stmtEnds() bool {
	t := p.peek()
	if t.kind == tEOF || t.kind == tOp && (t.text == ";" || t.text == "}") {
		return true
	}
	return p.atLineBreak()
}

func (p *parser) block() *blockStmt {
	t := p.expect("{")
	p.push(true)
	defer p.pop()
	b := &blockStmt{at: t.pos}
	for !p.isOp("}") {
		if p.peek().kind == tEOF {
			p.fail(p.peek(), "missing } (block opened on %s)", t.pos)
		}
		if p.isOp(";") {
			p.i++
			continue
		}
		b.stmts = append(b.stmts, p.statement(false))
		p.endStatement()
	}
	p.i++
	return b
}

// body parses the body of if/while/for: a block or one statement.
func (p *parser) body() stmt {
	if p.isOp("{") {
		return p.block()
	}
	if p.isOp(";") {
		t := p.next()
		return &emptyStmt{at: t.pos}
	}
	s := p.statement(false)
	return s
}

func (p *parser) ifStmt() stmt {
	t := p.next()
	p.expect("(")
	p.push(false)
	cond := p.expr()
	p.pop()
	p.expect(")")
	s := &ifStmt{at: t.pos, cond: cond, then: p.body()}
	// "else" may follow on a new line, after an optional ";".
	save := p.i
	if p.isOp(";") {
		p.i++
	}
	if p.isWord("else") {
		p.i++
		if p.isWord("if") {
			s.els_ = p.ifStmt()
		} else {
			s.els_ = p.body()
		}
	} else {
		p.i = save
	}
	return s
}

func (p *parser) forStmt() stmt {
	t := p.next()
	p.expect("(")
	p.push(false)
	defer p.pop()
	// for (x in xs), for (T x in xs), for (T x : xs)
	save := p.i
	var typ *typeRef
	if p.isWord("def") || p.isWord("var") && p.peekAt(1).kind == tIdent {
		p.i++
	} else if tr := p.tryType(); tr != nil && p.peek().kind == tIdent && (p.peekAt(1).text == ":" || p.peekAt(1).text == "in") {
		typ = tr
	} else {
		p.i = save
	}
	if nt := p.peek(); nt.kind == tIdent && !reserved[nt.text] {
		if at := p.peekAt(1); at.kind == tIdent && at.text == "in" || at.kind == tOp && at.text == ":" {
			p.i += 2
			iter := p.expr()
			p.expect(")")
			p.pop()
			p.push(true)
			body := p.body()
			return &forInStmt{at: t.pos, typ: typ, name: nt.text, iter: iter, body: body}
		}
	}
	p.i = save
	f := &forStmt{at: t.pos}
	if !p.isOp(";") {
		if d := p.declOrMethod(false); d != nil {
			f.init = []stmt{d}
		} else {
			for {
				x := p.expr()
				f.init = append(f.init, &exprStmt{at: x.pos(), x: x})
				if !p.isOp(",") {
					break
				}
				p.i++
			}
		}
	}
	p.expect(";")
	if !p.isOp(";") {
		f.cond = p.expr()
	}
	p.expect(";")
	if !p.isOp(")") {
		for {
			f.update = append(f.update, p.expr())
			if !p.isOp(",") {
				break
			}
			p.i++
		}
	}
	p.expect(")")
	p.pop()
	p.push(true)
	f.body = p.body()
	return f
}

func (p *parser) tryStmt() stmt {
	t := p.next()
	if p.isOp("(") {
		p.refuse(t.pos, "try-with-resources")
	}
	s := &tryStmt{at: t.pos, body: p.block()}
	for p.isWord("catch") {
		ct := p.next()
		p.expect("(")
		c := catchClause{at: ct.pos}
		if p.isWord("def") || p.isWord("final") {
			p.i++
		}
		if p.peekAt(1).kind == tOp && p.peekAt(1).text == ")" {
			c.name = p.next().text
		} else {
			for {
				c.types = append(c.types, p.typ())
				if !p.isOp("|") {
					break
				}
				p.i++
			}
			nt := p.next()
			if nt.kind != tIdent {
				p.fail(nt, "expected a name in catch")
			}
			c.name = nt.text
		}
		p.expect(")")
		c.body = p.block()
		s.catches = append(s.catches, c)
	}
	if p.isWord("finally") {
		p.i++
		s.finally = p.block()
	}
	if len(s.catches) == 0 && s.finally == nil {
		p.fail(t, "try without catch or finally")
	}
	return s
}

func (p *parser) switchStmt() stmt {
	t := p.next()
	p.expect("(")
	p.push(false)
	x := p.expr()
	p.pop()
	p.expect(")")
	p.expect("{")
	p.push(true)
	defer p.pop()
	s := &switchStmt{at: t.pos, x: x}
	for !p.isOp("}") {
		ct := p.peek()
		c := switchCase{at: ct.pos}
		for {
			if p.isWord("case") {
				p.i++
				c.exprs = append(c.exprs, p.ternary())
				p.expect(":")
			} else if p.isWord("default") {
				p.i++
				p.expect(":")
				c.dflt = true
			} else {
				break
			}
		}
		if len(c.exprs) == 0 && !c.dflt {
			p.fail(p.peek(), "expected case or default in switch, found %s", describe(p.peek()))
		}
		for !p.isWord("case") && !p.isWord("default") && !p.isOp("}") {
			if p.peek().kind == tEOF {
				p.fail(p.peek(), "missing } of switch")
			}
			if p.isOp(";") {
				p.i++
				continue
			}
			c.body = append(c.body, p.statement(false))
			p.endStatement()
		}
		s.cases = append(s.cases, c)
	}
	p.i++
	return s
}

func (p *parser) assertStmt() stmt {
	t := p.next()
	start := p.peek().off
	cond := p.expr()
	end := p.toks[p.i-1].end
	s := &assertStmt{at: t.pos, cond: cond, src: p.src[start:end]}
	if p.isOp(":") || p.isOp(",") {
		p.i++
		s.msg = p.expr()
	}
	return s
}

func (p *parser) importStmt() stmt {
	t := p.next()
	s := &importStmt{at: t.pos}
	if p.isWord("static") {
		p.i++
		s.static = true
	}
	var parts []string
	for {
		nt := p.next()
		if nt.kind == tOp && nt.text == "*" {
			s.star = true
			break
		}
		if nt.kind != tIdent {
			p.fail(nt, "bad import")
		}
		parts = append(parts, nt.text)
		if !p.isOp(".") {
			break
		}
		p.i++
	}
	s.path = strings.Join(parts, ".")
	if p.isWord("as") {
		p.i++
		s.alias = p.next().text
	}
	return s
}

// declOrMethod parses a declaration or a method definition, if one starts
// here; otherwise it leaves the position alone and returns nil.
func (p *parser) declOrMethod(top bool) stmt {
	start := p.i
	t := p.peek()
	final := false
	for p.isWord("final") {
		final = true
		p.i++
	}
	var typ *typeRef
	untyped := false
	switch {
	case p.isWord("def"):
		p.i++
		untyped = true
		if p.isOp("(") {
			p.refuse(t.pos, "multiple assignment def (a, b) = …")
		}
		afterDef := p.i
		if tr := p.tryType(); tr != nil && p.peek().kind == tIdent && !reserved[p.peek().text] && !p.peek().nl {
			typ = tr // "def String x" is legal Groovy
			untyped = false
		} else {
			p.i = afterDef
		}
	case p.isWord("var") && p.peekAt(1).kind == tIdent && !reserved[p.peekAt(1).text] && !p.peekAt(1).nl:
		p.i++
		untyped = true
	default:
		tr := p.tryType()
		if tr == nil {
			p.i = start
			if final {
				p.fail(t, "expected a declaration after final")
			}
			// BeanShell's untyped method: name(a, b) { … }
			if p.d == BeanShell && top {
				if m := p.tryUntypedMethod(); m != nil {
					return m
				}
			}
			return nil
		}
		nt := p.peek()
		if nt.kind != tIdent || reserved[nt.text] || (p.d == Groovy && nt.nl) {
			p.i = start
			return nil
		}
		if !looksLikeType(tr) {
			p.i = start
			return nil
		}
		// "Type name" must be followed by what ends a declarator.
		after := p.peekAt(1)
		if !(after.kind == tOp && (after.text == "=" || after.text == ";" || after.text == "," || after.text == "(" || after.text == "[" || after.text == "}")) &&
			after.kind != tEOF && !(p.d == Groovy && after.nl) {
			p.i = start
			return nil
		}
		typ = tr
	}
	nt := p.peek()
	if nt.kind != tIdent || reserved[nt.text] {
		p.fail(nt, "expected a name, found %s", describe(nt))
	}
	// A method definition: [def|Type] name( … ) {
	if p.peekAt(1).kind == tOp && p.peekAt(1).text == "(" {
		if !top {
			p.refuse(nt.pos, "the method %s defined inside a block", nt.text)
		}
		p.i++
		return p.methodRest(t.pos, nt.text, typ)
	}
	_ = untyped
	d := &declStmt{at: t.pos, typ: typ, final: final}
	for {
		nt := p.next()
		if nt.kind != tIdent || reserved[nt.text] {
			p.fail(nt, "expected a name, found %s", describe(nt))
		}
		dc := declarator{at: nt.pos, name: nt.text}
		for p.isOp("[") && p.peekAt(1).text == "]" {
			p.i += 2
			dc.dims++
		}
		if p.isOp("=") {
			p.i++
			if p.isOp("{") && (typ != nil && typ.dims+dc.dims > 0) {
				dc.init = p.arrayInit()
			} else {
				dc.init = p.expr()
			}
		}
		d.vars = append(d.vars, dc)
		if !p.isOp(",") {
			break
		}
		p.i++
	}
	return d
}

// looksLikeType tells a declaration's type from an expression: a
// primitive, a capitalised or qualified class name, generics or [].
func looksLikeType(t *typeRef) bool {
	if primitives[t.name] || len(t.args) > 0 || t.dims > 0 {
		return true
	}
	last := t.name
	if i := strings.LastIndexByte(last, '.'); i >= 0 {
		last = last[i+1:]
	}
	return last != "" && last[0] >= 'A' && last[0] <= 'Z'
}

func (p *parser) tryUntypedMethod() stmt {
	save := p.i
	nt := p.peek()
	if nt.kind != tIdent || reserved[nt.text] || p.peekAt(1).text != "(" {
		return nil
	}
	// scan to the matching ) and look for {
	depth := 0
	k := p.i + 1
	for ; k < len(p.toks); k++ {
		tk := p.toks[k]
		if tk.kind != tOp {
			continue
		}
		if tk.text == "(" {
			depth++
		} else if tk.text == ")" {
			depth--
			if depth == 0 {
				break
			}
		}
	}
	if k+1 >= len(p.toks) || p.toks[k+1].kind != tOp || p.toks[k+1].text != "{" {
		return nil
	}
	// every parameter must be a name or "Type name"
	p.i++
	defer func() {
		if r := recover(); r != nil {
			p.i = save
			if e, ok := r.(*Error); ok && e.Refused {
				panic(r)
			}
		}
	}()
	return p.methodRest(nt.pos, nt.text, nil)
}

func (p *parser) methodRest(at Pos, name string, ret *typeRef) stmt {
	p.expect("(")
	m := &methodDecl{at: at, name: name, ret: ret}
	for !p.isOp(")") {
		m.params = append(m.params, p.param())
		if !p.isOp(",") {
			break
		}
		p.i++
	}
	p.expect(")")
	if p.isWord("throws") {
		p.i++
		for {
			p.typ()
			if !p.isOp(",") {
				break
			}
			p.i++
		}
	}
	m.body = p.block()
	return m
}

func (p *parser) param() param {
	t := p.peek()
	pr := param{at: t.pos}
	if p.isWord("def") || p.isWord("final") {
		p.i++
	}
	save := p.i
	if tr := p.tryType(); tr != nil && p.peek().kind == tIdent {
		pr.typ = tr
	} else {
		p.i = save
	}
	nt := p.next()
	if nt.kind != tIdent || reserved[nt.text] {
		p.fail(nt, "expected a parameter name, found %s", describe(nt))
	}
	pr.name = nt.text
	if p.isOp("=") {
		p.i++
		pr.def = p.expr()
	}
	if p.isOp("...") {
		p.refuse(nt.pos, "variable arguments")
	}
	return pr
}

// tryType parses a type if one starts here; it returns nil (position
// unspecified) when none does.
func (p *parser) tryType() (t *typeRef) {
	save := p.i
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*Error); ok && !e.Refused {
				p.i = save
				t = nil
				return
			}
			panic(r)
		}
	}()
	nt := p.peek()
	if nt.kind != tIdent || reserved[nt.text] && nt.text != "def" {
		return nil
	}
	return p.typ()
}

// typ parses a type: a dotted name, type arguments, array dimensions.
func (p *parser) typ() *typeRef {
	nt := p.next()
	if nt.kind != tIdent {
		p.fail(nt, "expected a type, found %s", describe(nt))
	}
	t := &typeRef{at: nt.pos, name: nt.text}
	for p.isOp(".") && p.peekAt(1).kind == tIdent {
		p.i++
		t.name += "." + p.next().text
	}
	if p.isOp("<") {
		p.i++
		for {
			if p.isOp("?") {
				p.i++
				if p.isWord("extends") || p.isWord("super") {
					p.i++
					t.args = append(t.args, p.typ())
				} else {
					t.args = append(t.args, &typeRef{at: nt.pos, name: "Object"})
				}
			} else {
				t.args = append(t.args, p.typ())
			}
			if !p.isOp(",") {
				break
			}
			p.i++
		}
		p.closeAngle()
	}
	for p.isOp("[") && p.peekAt(1).kind == tOp && p.peekAt(1).text == "]" {
		p.i += 2
		t.dims++
	}
	return t
}

// closeAngle consumes one '>' of a type argument list, splitting >> and >>>.
func (p *parser) closeAngle() {
	t := p.peek()
	if t.kind != tOp {
		p.fail(t, "expected >")
	}
	switch t.text {
	case ">":
		p.i++
	case ">>", ">>>", ">=", ">>=":
		p.toks[p.i].text = t.text[1:]
		p.toks[p.i].off++
	default:
		p.fail(t, "expected >, found %s", describe(t))
	}
}

func (p *parser) arrayInit() expr {
	t := p.expect("{")
	p.push(false)
	defer p.pop()
	l := &listExpr{at: t.pos}
	for !p.isOp("}") {
		if p.isOp("{") {
			l.elems = append(l.elems, p.arrayInit())
		} else {
			l.elems = append(l.elems, p.expr())
		}
		if !p.isOp(",") {
			break
		}
		p.i++
	}
	p.expect("}")
	return l
}
