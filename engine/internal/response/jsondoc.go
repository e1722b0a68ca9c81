package response

import (
	"unicode/utf16"
	"unicode/utf8"
)

// A JSON document as the extractors and assertions read it: most plans
// read one or two values by a definite path ($.token, $.data[0].id) from a
// response of a few kilobytes, and building the whole tree for that costs
// some two hundred allocations. A definite path is therefore followed
// through the text itself: the parts it does not reach are skipped (but
// still checked, so a document ParseJSON refuses is refused here too) and
// only the value it reaches is parsed. Anything else — an indefinite path,
// a missing value, a value of the wrong type, a text that is not JSON —
// takes the tree, parsed once per document, which also gives Jayway's and
// json-smart's messages.

// JSONDoc is one JSON text: the body of a sample or a variable's value.
// The tree is parsed on first need and kept.
type JSONDoc struct {
	Text string
	// Parse reads a text of another format (YAML) into the same tree; nil
	// reads JSON, a definite path straight through the text.
	Parse  func(string) (any, error)
	tree   any
	err    error
	parsed bool
	valid  bool // the text was checked and is JSON
}

// Tree returns the whole document, parsed once.
func (d *JSONDoc) Tree() (any, error) {
	if !d.parsed {
		parse := d.Parse
		if parse == nil {
			parse = ParseJSON
		}
		d.tree, d.err = parse(d.Text)
		d.parsed = true
		d.valid = d.err == nil
	}
	return d.tree, d.err
}

// Err is the parse error for the text, nil when it reads; a JSON text is
// checked without building the tree.
func (d *JSONDoc) Err() error {
	if d.Valid() {
		return nil
	}
	_, err := d.Tree() // for ParseJSON's own message
	return err
}

// Valid says whether the text is JSON, as ParseJSON reads it, without
// building the tree or an error (a text of another format is parsed).
func (d *JSONDoc) Valid() bool {
	if d.valid || d.parsed {
		return d.valid
	}
	if d.Parse != nil {
		_, err := d.Tree()
		return err == nil
	}
	s := jsonScan{s: d.Text}
	s.ws()
	d.valid = s.skip(0) && s.ws() == len(s.s)
	return d.valid
}

// AppendAll appends every value the path selects in the document to dst,
// as All does; err is the document's parse error.
func (p *JSONPath) AppendAll(dst []any, d *JSONDoc) ([]any, error) {
	if p.fn != "" {
		return dst, d.Err()
	}
	if p.lazy {
		if v, ok := p.lazyWalk(d); ok {
			return append(dst, v), nil
		}
	}
	tree, err := d.Tree()
	if err != nil {
		return dst, err
	}
	return append(dst, p.All(tree)...), nil
}

// ReadDoc is Read over a document. A parse error wraps ErrNotJSON; the
// walk of a definite path checks the document as it goes, so Err costs
// nothing after it.
func (p *JSONPath) ReadDoc(d *JSONDoc) (any, error) {
	if p.lazy {
		if v, ok := p.lazyWalk(d); ok {
			if p.fn == "" {
				return v, nil
			}
			return jaywayFunction(p.fn, v, p.Source)
		}
	}
	tree, err := d.Tree()
	if err != nil {
		return nil, err
	}
	return p.Read(tree)
}

// step is one step of a definite path: a key, or an index when isNth.
type step struct {
	key   string
	nth   int
	isNth bool
}

// lazyWalk follows the path's steps through the text and parses only the
// value they reach. ok is false when the text is not JSON or the path
// leads nowhere (the tree then says why), or when the tree is built.
func (p *JSONPath) lazyWalk(d *JSONDoc) (any, bool) {
	if d.parsed || d.Parse != nil { // the tree is built, or the text is not JSON
		return nil, false
	}
	s := jsonScan{s: d.Text}
	s.ws()
	start, end, found := s.walk(p.steps, 0)
	if start < 0 {
		return nil, false
	}
	if s.ws() != len(s.s) {
		return nil, false
	}
	d.valid = true
	if !found {
		return nil, false
	}
	v, err := ParseJSON(d.Text[start:end])
	return v, err == nil
}

// jsonScan moves through a JSON text without building anything, accepting
// exactly what jsonParser accepts.
type jsonScan struct {
	s string
	i int
}

// ws moves past white space and returns where it stops.
func (s *jsonScan) ws() int {
	for s.i < len(s.s) {
		switch s.s[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return s.i
		}
	}
	return s.i
}

// walk moves past one value, checking it as jsonParser.value does, and
// follows steps into it. It returns the span of the value the steps reach
// (the value itself when there are none) and whether they reach one;
// start is -1 when the text is not JSON. A repeated key's last value is
// the one followed, as the tree keeps the last one.
func (s *jsonScan) walk(steps []step, depth int) (start, end int, found bool) {
	if depth > 1000 || s.i >= len(s.s) {
		return -1, 0, false
	}
	follow := len(steps) > 0
	var st step
	if follow {
		st = steps[0]
	}
	from := s.i
	switch c := s.s[s.i]; {
	case c == '{':
		s.i++
		if s.ws() < len(s.s) && s.s[s.i] == '}' {
			s.i++
			break
		}
		for more := true; more; {
			if s.ws() >= len(s.s) || s.s[s.i] != '"' {
				return -1, 0, false
			}
			k := s.i
			escaped, ok := s.skipStr()
			if !ok || s.ws() >= len(s.s) || s.s[s.i] != ':' {
				return -1, 0, false
			}
			match := follow && !st.isNth && s.keyIs(k, escaped, st.key)
			s.i++
			s.ws()
			if match {
				start, end, found = s.walk(steps[1:], depth+1)
				ok = start >= 0
			} else {
				ok = s.skip(depth + 1)
			}
			if more, ok = s.member(ok, '}'); !ok {
				return -1, 0, false
			}
		}
	case c == '[':
		s.i++
		if s.ws() < len(s.s) && s.s[s.i] == ']' {
			s.i++
			break
		}
		for n, more := 0, true; more; n++ {
			s.ws()
			var ok bool
			if follow && st.isNth && n == st.nth {
				start, end, found = s.walk(steps[1:], depth+1)
				ok = start >= 0
			} else {
				ok = s.skip(depth + 1)
			}
			if more, ok = s.member(ok, ']'); !ok {
				return -1, 0, false
			}
		}
	case c == '"':
		if _, ok := s.skipStr(); !ok {
			return -1, 0, false
		}
	case c == 't' && s.word("true"), c == 'f' && s.word("false"), c == 'n' && s.word("null"):
	case c == '-' || c >= '0' && c <= '9':
		p := jsonParser{s: s.s, i: s.i}
		if !p.numberOK() {
			return -1, 0, false
		}
		s.i = p.i
	default:
		return -1, 0, false
	}
	if !follow {
		return from, s.i, true
	}
	// A scalar or the wrong container has nothing to follow: the tree says
	// so in Jayway's words.
	return start, end, found
}

// member ends a member or element that was walked (ok) and says whether
// another one follows or the container ends with close.
func (s *jsonScan) member(ok bool, close byte) (more, good bool) {
	if !ok || s.ws() >= len(s.s) {
		return false, false
	}
	switch s.s[s.i] {
	case ',':
		s.i++
		return true, true
	case close:
		s.i++
		return false, true
	}
	return false, false
}

// keyIs says whether the string at k is the key.
func (s *jsonScan) keyIs(k int, escaped bool, key string) bool {
	if !escaped {
		return s.s[k+1:s.i-1] == key // s.i is past the closing quote
	}
	p := jsonParser{s: s.s, i: k}
	got, _ := p.str()
	return got == key
}

// skip moves past one value, checking it as jsonParser.value does.
func (s *jsonScan) skip(depth int) bool {
	start, _, _ := s.walk(nil, depth)
	return start >= 0
}

func (s *jsonScan) word(w string) bool {
	if len(s.s)-s.i >= len(w) && s.s[s.i:s.i+len(w)] == w {
		s.i += len(w)
		return true
	}
	return false
}

// skipStr moves past a string, checking its escapes as jsonParser.str
// does; escaped says whether it has any.
func (s *jsonScan) skipStr() (escaped, ok bool) {
	s.i++ // opening quote
	for s.i < len(s.s) && s.s[s.i] != '"' && s.s[s.i] != '\\' {
		s.i++
	}
	if s.i < len(s.s) && s.s[s.i] == '"' {
		s.i++
		return false, true
	}
	for s.i < len(s.s) {
		switch c := s.s[s.i]; {
		case c == '"':
			s.i++
			return true, true
		case c == '\\' && s.i+1 < len(s.s):
			s.i++
			if s.s[s.i] == 'u' {
				if s.i+4 >= len(s.s) {
					return true, false
				}
				r, ok := hex4(s.s[s.i+1 : s.i+5])
				if !ok {
					return true, false
				}
				s.i += 4
				if utf16.IsSurrogate(r) && s.i+6 < len(s.s) && s.s[s.i+1] == '\\' && s.s[s.i+2] == 'u' {
					if m, ok := hex4(s.s[s.i+3 : s.i+7]); ok && utf16.DecodeRune(r, m) != utf8.RuneError {
						s.i += 6
					}
				}
			}
			s.i++
		default:
			s.i++
		}
	}
	return true, false
}

// hex4 reads four hexadecimal digits, as strconv.ParseUint(h, 16, 16).
func hex4(h string) (rune, bool) {
	var r rune
	for i := 0; i < 4; i++ {
		c := h[i]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
