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
		if p.isOp("(") && !p.peek().nl {
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
			if p.isOp("(") && !p.peek().nl {
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
