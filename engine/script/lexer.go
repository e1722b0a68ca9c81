package script

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Dialect is the source language of a script.
type Dialect uint8

const (
	// Groovy is Groovy 2/3 as JMeter's JSR223 elements run it.
	Groovy Dialect = iota
	// BeanShell is BeanShell 2 (Java syntax, loosely typed variables).
	BeanShell
)

func (d Dialect) String() string {
	if d == BeanShell {
		return "BeanShell"
	}
	return "Groovy"
}

// tokKind is the kind of a token.
type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tInt     // int literal (no suffix)
	tLong    // 10L
	tDouble  // Java 1.5, Groovy 1.5d
	tFloat   // 1.5f
	tDecimal // Groovy 1.5 (BigDecimal)
	tString  // a string without interpolation
	tGString // a Groovy string with $ interpolation
	tChar    // a Java/BeanShell character literal
	tOp      // operator or punctuation
)

// token is one lexical token. For strings val is the decoded value; for a
// GString parts hold the literal pieces and the embedded expressions.
type token struct {
	kind  tokKind
	text  string // source text (operators, identifiers, numbers)
	val   string // decoded string or character value; number digits
	parts []strPart
	pos   Pos
	nl    bool // a newline precedes the token
	off   int  // byte offsets of the token in the source
	end   int
}

// strPart is a piece of a GString: literal text, or the tokens of an
// embedded ${expression} or $dotted.name.
type strPart struct {
	lit    string
	toks   []token // nil for a literal piece
	isExpr bool
	src    string // the embedded expression's source, for messages
	// hole is a ${…} of the element's text standing in the string, as
	// HoleMarker wrote it; isHole marks such a part.
	hole   int
	isHole bool
}

// HoleOpen and HoleClose delimit a hole in a script: the place of a
// ${…} of JMeter's, whose text is known only when the script runs.
const (
	HoleOpen  = "\uE000"
	HoleClose = "\uE001"
)

// HoleMarker marks hole i in a script's text.
func HoleMarker(i int) string { return HoleOpen + strconv.Itoa(i) + HoleClose }

// ErrHoleInCode: a hole stands outside a string literal, so the script
// must be translated again for each text.
var ErrHoleInCode = errors.New("a ${…} stands outside a string literal")

// Pos is a position in the script source (1-based line and column).
type Pos struct {
	Line, Col int
	Off       int // byte offset in the source
}

func (p Pos) String() string { return fmt.Sprintf("line %d", p.Line) }

// Error is a problem with a script at a position: a syntax error, or a
// construct gojm refuses.
type Error struct {
	Pos Pos
	Msg string
	// Refused marks a well-formed construct that gojm does not run.
	Refused bool
}

func (e *Error) Error() string {
	if e.Pos.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("line %d: %s", e.Pos.Line, e.Msg)
}

// ops are the operators, longest first.
var ops = []string{
	">>>=", "<<=", ">>=", ">>>", "...", "..<", "<=>", "===", "!==", "==~", "**=", "?.", "?:", "*.", ".&", "..",
	"==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
	"<<", "->", "::", "=~", "**",
	"+", "-", "*", "/", "%", "=", "<", ">", "!", "~", "?", ":", ".", ",", ";", "(", ")", "[", "]", "{", "}",
	"&", "|", "^", "@",
}

type lexer struct {
	src     string
	d       Dialect
	i       int
	line    int
	lineAt  int // offset where the current line starts
	toks    []token
	nl      bool
	depth   int // nesting inside a GString ${…}: stop at the matching }
	braces  int
	stopped bool
	// forbid holds, by hole, the characters a hole's text must not have to
	// read as plain text in its string literal.
	forbid map[int]string
}

// lexHoles splits a script into tokens and tells, for each hole, what
// its text must not contain.
func lexHoles(src string, d Dialect) ([]token, map[int]string, error) {
	l := &lexer{src: src, d: d, line: 1, forbid: map[int]string{}}
	if d == Groovy && strings.HasPrefix(src, "#!") {
		for l.i < len(src) && src[l.i] != '\n' {
			l.i++
		}
	}
	if err := l.run(); err != nil {
		return nil, nil, err
	}
	return l.toks, l.forbid, nil
}

// hole reads a hole marker in a string literal whose special characters
// are forbid.
func (l *lexer) hole(forbid string) (strPart, error) {
	j := l.i + len(HoleOpen)
	k := strings.Index(l.src[j:], HoleClose)
	if k < 0 {
		return strPart{}, l.errf("bad hole marker")
	}
	n, err := strconv.Atoi(l.src[j : j+k])
	if err != nil {
		return strPart{}, l.errf("bad hole marker")
	}
	l.i = j + k + len(HoleClose)
	for _, c := range forbid {
		if !strings.ContainsRune(l.forbid[n], c) {
			l.forbid[n] += string(c)
		}
	}
	return strPart{hole: n, isHole: true}, nil
}

func (l *lexer) pos() Pos { return Pos{Line: l.line, Col: l.i - l.lineAt + 1, Off: l.i} }

func (l *lexer) errf(format string, args ...any) error {
	return &Error{Pos: l.pos(), Msg: fmt.Sprintf(format, args...)}
}

func (l *lexer) emit(t token, start int) {
	t.nl = l.nl
	t.off, t.end = start, l.i
	l.nl = false
	l.toks = append(l.toks, t)
}

// regexAllowed reports whether a '/' here starts a Groovy slashy string:
// where an operand is expected, not after one.
func (l *lexer) regexAllowed() bool {
	if l.d != Groovy {
		return false
	}
	if len(l.toks) == 0 {
		return true
	}
	t := l.toks[len(l.toks)-1]
	switch t.kind {
	case tIdent:
		switch t.text {
		case "return", "in", "case", "assert", "else":
			return true
		}
		return false
	case tOp:
		switch t.text {
		case ")", "]", "}", "++", "--":
			return false
		}
		return true
	}
	return false
}

func (l *lexer) run() error {
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case c == '\n':
			l.i++
			l.line++
			l.lineAt = l.i
			l.nl = true
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			l.i++
		case c == '\\' && l.i+1 < len(l.src) && (l.src[l.i+1] == '\n' || l.src[l.i+1] == '\r'):
			l.i++ // a line continuation
			if l.src[l.i] == '\r' {
				l.i++
			}
			if l.i < len(l.src) && l.src[l.i] == '\n' {
				l.i++
				l.line++
				l.lineAt = l.i
			}
		case c == '/' && l.i+1 < len(l.src) && l.src[l.i+1] == '/':
			for l.i < len(l.src) && l.src[l.i] != '\n' {
				l.i++
			}
		case c == '/' && l.i+1 < len(l.src) && l.src[l.i+1] == '*':
			end := strings.Index(l.src[l.i+2:], "*/")
			if end < 0 {
				return l.errf("unterminated comment")
			}
			body := l.src[l.i : l.i+2+end+2]
			for k := 0; k < len(body); k++ {
				if body[k] == '\n' {
					l.line++
					l.lineAt = l.i + k + 1
					l.nl = true
				}
			}
			l.i += len(body)
		case c == '"' || c == '\'':
			if err := l.str(); err != nil {
				return err
			}
		case c == '/' && l.regexAllowed():
			if err := l.slashy(); err != nil {
				return err
			}
		case c == '$' && l.d == Groovy && strings.HasPrefix(l.src[l.i:], "$/"):
			return l.errf("dollar-slashy strings ($/…/$) are not supported")
		case c >= '0' && c <= '9' || c == '.' && l.i+1 < len(l.src) && isDigit(l.src[l.i+1]) && !l.afterDot():
			if err := l.number(); err != nil {
				return err
			}
		case strings.HasPrefix(l.src[l.i:], HoleOpen):
			return ErrHoleInCode
		case isIdentStart(c) || c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(l.src[l.i:])
			if c >= utf8.RuneSelf && !unicode.IsLetter(r) {
				return l.errf("unexpected character %q", r)
			}
			start := l.i
			l.i += n
			for l.i < len(l.src) {
				r, n := utf8.DecodeRuneInString(l.src[l.i:])
				if r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r) {
					l.i += n
					continue
				}
				break
			}
			p := Pos{Line: l.line, Col: start - l.lineAt + 1, Off: start}
			l.emit(token{kind: tIdent, text: l.src[start:l.i], pos: p}, start)
		default:
			op := ""
			for _, o := range ops {
				if strings.HasPrefix(l.src[l.i:], o) {
					op = o
					break
				}
			}
			if op == "" {
				return l.errf("unexpected character %q", c)
			}
			if l.depth > 0 {
				switch op {
				case "{":
					l.braces++
				case "}":
					if l.braces == 0 {
						l.i++
						l.stopped = true
						return nil
					}
					l.braces--
				}
			}
			p := l.pos()
			start := l.i
			l.i += len(op)
			l.emit(token{kind: tOp, text: op, pos: p}, start)
		}
	}
	if l.depth > 0 {
		return l.errf("unterminated ${…} in a string")
	}
	return nil
}

// afterDot reports whether the previous token is '.', as in list.0 (never
// a number): Groovy's "1..2" is handled by number itself.
func (l *lexer) afterDot() bool {
	if len(l.toks) == 0 {
		return false
	}
	t := l.toks[len(l.toks)-1]
	return t.kind == tOp && (t.text == "." || t.text == "?.")
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// number reads a numeric literal with Java's and Groovy's suffixes.
func (l *lexer) number() error {
	start := l.i
	p := l.pos()
	s := l.src
	digits := func(ok func(byte) bool) {
		for l.i < len(s) && (ok(s[l.i]) || s[l.i] == '_' && l.i+1 < len(s) && ok(s[l.i+1])) {
			l.i++
		}
	}
	kind := tInt
	if s[l.i] == '0' && l.i+1 < len(s) && (s[l.i+1] == 'x' || s[l.i+1] == 'X') {
		l.i += 2
		digits(isHex)
	} else if s[l.i] == '0' && l.i+1 < len(s) && (s[l.i+1] == 'b' || s[l.i+1] == 'B') {
		l.i += 2
		digits(func(c byte) bool { return c == '0' || c == '1' })
	} else {
		digits(isDigit)
		// "1..2" is a range: the dot belongs to the operator.
		if l.i+1 < len(s) && s[l.i] == '.' && isDigit(s[l.i+1]) {
			l.i++
			digits(isDigit)
			kind = tDecimal
		}
		if l.i < len(s) && (s[l.i] == 'e' || s[l.i] == 'E') {
			k := l.i + 1
			if k < len(s) && (s[k] == '+' || s[k] == '-') {
				k++
			}
			if k < len(s) && isDigit(s[k]) {
				l.i = k
				digits(isDigit)
				kind = tDecimal
			}
		}
	}
	text := strings.ReplaceAll(s[start:l.i], "_", "")
	if l.i < len(s) {
		switch s[l.i] {
		case 'l', 'L':
			if kind == tDecimal {
				return l.errf("bad number %q", s[start:l.i+1])
			}
			kind = tLong
			l.i++
		case 'd', 'D':
			kind = tDouble
			l.i++
		case 'f', 'F':
			kind = tFloat
			l.i++
		case 'g', 'G', 'i', 'I':
			return &Error{Pos: p, Msg: fmt.Sprintf("the number suffix in %s (BigInteger/BigDecimal literal)", s[start:l.i+1]), Refused: true}
		}
	}
	if l.i < len(s) && (isIdentStart(s[l.i]) || isDigit(s[l.i])) {
		return l.errf("bad number %q", s[start:l.i+1])
	}
	if kind == tDecimal && l.d == BeanShell {
		kind = tDouble
	}
	l.emit(token{kind: kind, text: text, val: text, pos: p}, start)
	return nil
}

// str reads a quoted literal: Java strings and characters, Groovy's
// '…', "…", ”'…”' and """…""".
func (l *lexer) str() error {
	p := l.pos()
	start := l.i
	s := l.src
	q := s[l.i]
	triple := l.d == Groovy && strings.HasPrefix(s[l.i:], strings.Repeat(string(q), 3))
	if l.d == BeanShell && q == '\'' {
		return l.char(p, start)
	}
	delim := string(q)
	if triple {
		delim = strings.Repeat(delim, 3)
	}
	l.i += len(delim)
	interp := l.d == Groovy && q == '"'
	var parts []strPart
	var b strings.Builder
	for {
		if l.i >= len(s) {
			return &Error{Pos: p, Msg: "unterminated string literal"}
		}
		if strings.HasPrefix(s[l.i:], delim) {
			l.i += len(delim)
			break
		}
		c := s[l.i]
		switch {
		case c == '\n':
			if !triple {
				return &Error{Pos: p, Msg: "unterminated string literal"}
			}
			b.WriteByte('\n')
			l.i++
			l.line++
			l.lineAt = l.i
		case c == '\\':
			if err := l.escape(&b, q); err != nil {
				return err
			}
		case strings.HasPrefix(s[l.i:], HoleOpen):
			forbid := "\\" + string(q)
			if !triple {
				forbid += "\r\n"
			}
			if interp {
				forbid += "$"
			}
			part, err := l.hole(forbid)
			if err != nil {
				return err
			}
			if b.Len() > 0 {
				parts = append(parts, strPart{lit: b.String()})
				b.Reset()
			}
			parts = append(parts, part)
		case c == '$' && interp:
			part, ok, err := l.interpolation()
			if err != nil {
				return err
			}
			if !ok {
				return l.errf("illegal string body character after dollar sign")
			}
			if b.Len() > 0 {
				parts = append(parts, strPart{lit: b.String()})
				b.Reset()
			}
			parts = append(parts, part)
		default:
			r, n := utf8.DecodeRuneInString(s[l.i:])
			b.WriteRune(r)
			l.i += n
		}
	}
	if len(parts) == 0 {
		l.emit(token{kind: tString, val: b.String(), text: "string", pos: p}, start)
		return nil
	}
	if b.Len() > 0 {
		parts = append(parts, strPart{lit: b.String()})
	}
	l.emit(token{kind: tGString, parts: parts, text: "GString", pos: p}, start)
	return nil
}

// char reads a Java character literal.
func (l *lexer) char(p Pos, start int) error {
	s := l.src
	l.i++
	var b strings.Builder
	if l.i < len(s) && s[l.i] == '\\' {
		if err := l.escape(&b, '\''); err != nil {
			return err
		}
	} else if l.i < len(s) {
		r, n := utf8.DecodeRuneInString(s[l.i:])
		b.WriteRune(r)
		l.i += n
	}
	if l.i >= len(s) || s[l.i] != '\'' {
		// BeanShell also reads '…' of several characters as a String.
		for l.i < len(s) && s[l.i] != '\'' && s[l.i] != '\n' {
			if s[l.i] == '\\' {
				if err := l.escape(&b, '\''); err != nil {
					return err
				}
				continue
			}
			r, n := utf8.DecodeRuneInString(s[l.i:])
			b.WriteRune(r)
			l.i += n
		}
		if l.i >= len(s) || s[l.i] != '\'' {
			return &Error{Pos: p, Msg: "unterminated character literal"}
		}
		l.i++
		l.emit(token{kind: tString, val: b.String(), text: "string", pos: p}, start)
		return nil
	}
	l.i++
	v := b.String()
	if utf8.RuneCountInString(v) != 1 || len(utf16Of(v)) != 1 {
		return &Error{Pos: p, Msg: "bad character literal"}
	}
	l.emit(token{kind: tChar, val: v, text: "char", pos: p}, start)
	return nil
}

func utf16Of(s string) []uint16 {
	var out []uint16
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			out = append(out, uint16(0xD800+(r>>10)), uint16(0xDC00+(r&0x3FF)))
			continue
		}
		out = append(out, uint16(r))
	}
	return out
}

// escape decodes one backslash escape into b.
func (l *lexer) escape(b *strings.Builder, q byte) error {
	s := l.src
	if l.i+1 >= len(s) {
		return l.errf("bad escape at the end of the script")
	}
	e := s[l.i+1]
	l.i += 2
	switch e {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 's':
		b.WriteByte(' ')
	case '\\', '\'', '"', '$':
		if e == '$' && l.d != Groovy {
			return l.errf("illegal escape \\$")
		}
		b.WriteByte(e)
	case '\n':
		if l.d != Groovy {
			return l.errf("illegal escape at end of line")
		}
		l.line++
		l.lineAt = l.i
	case 'u':
		for l.i < len(s) && s[l.i] == 'u' {
			l.i++
		}
		if l.i+4 > len(s) {
			return l.errf("bad \\u escape")
		}
		var v rune
		for _, c := range []byte(s[l.i : l.i+4]) {
			if !isHex(c) {
				return l.errf("bad \\u escape")
			}
			v = v*16 + rune(hexVal(c))
		}
		l.i += 4
		// A surrogate pair written as two escapes.
		if v >= 0xD800 && v < 0xDC00 && strings.HasPrefix(s[l.i:], "\\u") && l.i+6 <= len(s) {
			var lo rune
			ok := true
			for _, c := range []byte(s[l.i+2 : l.i+6]) {
				if !isHex(c) {
					ok = false
					break
				}
				lo = lo*16 + rune(hexVal(c))
			}
			if ok && lo >= 0xDC00 && lo < 0xE000 {
				l.i += 6
				v = 0x10000 + (v-0xD800)<<10 + (lo - 0xDC00)
			}
		}
		b.WriteRune(v)
	case '0', '1', '2', '3', '4', '5', '6', '7':
		v := int(e - '0')
		max := 2
		if e > '3' {
			max = 1
		}
		for k := 0; k < max && l.i < len(s) && s[l.i] >= '0' && s[l.i] <= '7'; k++ {
			v = v*8 + int(s[l.i]-'0')
			l.i++
		}
		b.WriteRune(rune(v))
	default:
		return l.errf("illegal escape \\%c", e)
	}
	_ = q
	return nil
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

// interpolation reads $name.path or ${expr} inside a GString.
func (l *lexer) interpolation() (strPart, bool, error) {
	s := l.src
	if l.i+1 >= len(s) {
		return strPart{}, false, nil
	}
	if s[l.i+1] == '{' {
		start := l.i + 2
		sub := &lexer{src: s, d: l.d, i: start, line: l.line, lineAt: l.lineAt, depth: 1, forbid: l.forbid}
		if err := sub.run(); err != nil {
			return strPart{}, false, err
		}
		if !sub.stopped {
			return strPart{}, false, l.errf("unterminated ${…} in a string")
		}
		src := s[start : sub.i-1]
		l.i, l.line, l.lineAt = sub.i, sub.line, sub.lineAt
		return strPart{toks: sub.toks, isExpr: true, src: src}, true, nil
	}
	c := s[l.i+1]
	if !isIdentStart(c) || c == '$' {
		return strPart{}, false, nil
	}
	// $a.b.c: identifiers joined by dots (a dot not followed by an
	// identifier ends the path).
	p := l.pos()
	j := l.i + 1
	var toks []token
	for {
		k := j
		for k < len(s) && (isIdentStart(s[k]) && s[k] != '$' || isDigit(s[k])) {
			k++
		}
		toks = append(toks, token{kind: tIdent, text: s[j:k], pos: Pos{Line: p.Line, Col: p.Col + j - l.i, Off: j}, off: j, end: k})
		j = k
		if j+1 < len(s) && s[j] == '.' && isIdentStart(s[j+1]) && s[j+1] != '$' {
			toks = append(toks, token{kind: tOp, text: ".", pos: p, off: j, end: j + 1})
			j++
			continue
		}
		break
	}
	src := s[l.i+1 : j]
	l.i = j
	return strPart{toks: toks, isExpr: true, src: src}, true, nil
}

// slashy reads a Groovy /regex/ string: only \/ is an escape.
func (l *lexer) slashy() error {
	p := l.pos()
	start := l.i
	s := l.src
	l.i++
	var parts []strPart
	var b strings.Builder
	for {
		if l.i >= len(s) {
			return &Error{Pos: p, Msg: "unterminated /…/ string"}
		}
		c := s[l.i]
		if c == '/' {
			l.i++
			break
		}
		switch {
		case strings.HasPrefix(s[l.i:], HoleOpen):
			part, err := l.hole("/$\\")
			if err != nil {
				return err
			}
			if b.Len() > 0 {
				parts = append(parts, strPart{lit: b.String()})
				b.Reset()
			}
			parts = append(parts, part)
		case c == '\\' && l.i+1 < len(s) && s[l.i+1] == '/':
			b.WriteByte('/')
			l.i += 2
		case c == '$' && l.i+1 < len(s) && (s[l.i+1] == '{' || isIdentStart(s[l.i+1]) && s[l.i+1] != '$'):
			part, ok, err := l.interpolation()
			if err != nil {
				return err
			}
			if !ok {
				b.WriteByte('$')
				l.i++
				continue
			}
			if b.Len() > 0 {
				parts = append(parts, strPart{lit: b.String()})
				b.Reset()
			}
			parts = append(parts, part)
		case c == '\n':
			b.WriteByte('\n')
			l.i++
			l.line++
			l.lineAt = l.i
		default:
			r, n := utf8.DecodeRuneInString(s[l.i:])
			b.WriteRune(r)
			l.i += n
		}
	}
	if len(parts) == 0 {
		l.emit(token{kind: tString, val: b.String(), text: "string", pos: p}, start)
		return nil
	}
	if b.Len() > 0 {
		parts = append(parts, strPart{lit: b.String()})
	}
	l.emit(token{kind: tGString, parts: parts, text: "GString", pos: p}, start)
	return nil
}
