package httpx

import (
	"maps"
	"net/http"
	"slices"
	"strings"
)

// Head is the header of a response. A head the transport parsed itself
// (fastHead) stays the lines that came over the wire, already checked,
// and becomes a map only when something asks for one: most samples need a
// value or two (the Content-Type), and making a map of every header cost
// more than the rest of reading the response. A head net/http parsed is
// its map.
type Head struct {
	lines string // "Name: value\r\n"… as received; "" for none or a map's
	// noConn: the Connection field said close and, as net/http does,
	// the header leaves it out.
	noConn bool
	m      http.Header // made by Map, or net/http's
	edited bool        // Set changed the map: the lines are no longer the header
	// block is what Block made last, kept for the next reader of the
	// same sample
	block string
}

// HeadOf is the Head of a header net/http parsed.
func HeadOf(h http.Header) Head { return Head{m: h} }

// None reports whether there is no header at all (no response).
func (h *Head) None() bool { return h.lines == "" && h.m == nil }

// Get returns the first value of the field called name (in any case), or
// "" when there is none: http.Header.Get, without making the map.
func (h *Head) Get(name string) string {
	if h.m != nil || h.lines == "" {
		return h.m.Get(name)
	}
	v, _ := h.find(name)
	return v
}

// Last returns the last value of the field called name, or "": what
// HttpClient's getLastHeader gives, which JMeter reads.
func (h *Head) Last(name string) string {
	if h.m != nil || h.lines == "" {
		v := h.m.Values(name)
		if len(v) == 0 {
			return ""
		}
		return v[len(v)-1]
	}
	last := ""
	h.scan(name, func(v string) bool {
		last = v
		return true
	})
	return last
}

// Has reports whether the head has a field called name.
func (h *Head) Has(name string) bool {
	if h.m != nil || h.lines == "" {
		return len(h.m.Values(name)) > 0
	}
	_, ok := h.find(name)
	return ok
}

// find is the first field called name in the lines.
func (h *Head) find(name string) (value string, ok bool) {
	h.scan(name, func(v string) bool {
		value, ok = v, true
		return false
	})
	return value, ok
}

// scan calls f with the value of each field called name in the lines, in
// order, while f returns true.
func (h *Head) scan(name string, f func(v string) bool) {
	for rest := h.lines; rest != ""; {
		line, more, _ := strings.Cut(rest, "\n")
		rest = more
		k, v, _ := strings.Cut(line[:len(line)-1], ":")
		if len(k) != len(name) || !strings.EqualFold(k, name) || h.noConn && strings.EqualFold(k, "Connection") {
			continue
		}
		if !f(trimOWS(v)) {
			return
		}
	}
}

// each calls f with each value of the field called name, in order.
func (h *Head) each(name string, f func(v string)) {
	if h.m != nil || h.lines == "" {
		for _, v := range h.m.Values(name) {
			f(v)
		}
		return
	}
	h.scan(name, func(v string) bool {
		f(v)
		return true
	})
}

// Map returns the header as net/http's Response.Header would hold it; it
// is made on the first call and the same map is returned after that. It
// is nil when there is no header (None).
func (h *Head) Map() http.Header {
	if h.m != nil || h.lines == "" {
		return h.m
	}
	n := strings.Count(h.lines, "\n")
	m := make(http.Header, n)
	strs := make([]string, n) // one slab for the values of names seen once
	for rest := h.lines; rest != ""; {
		line, more, _ := strings.Cut(rest, "\n")
		rest = more
		k, v, _ := strings.Cut(line[:len(line)-1], ":")
		key := canonicalKey(k)
		if h.noConn && key == "Connection" {
			continue
		}
		v = trimOWS(v)
		if old, ok := m[key]; ok {
			m[key] = append(old, v)
			continue
		}
		vv := strs[:1:1]
		strs = strs[1:]
		vv[0] = v
		m[key] = vv
	}
	h.m = m
	return m
}

// trimOWS drops the spaces and tabs around a field value.
func trimOWS(v string) string {
	for v != "" && (v[0] == ' ' || v[0] == '\t') {
		v = v[1:]
	}
	for v != "" && (v[len(v)-1] == ' ' || v[len(v)-1] == '\t') {
		v = v[:len(v)-1]
	}
	return v
}

// canonicalKey is http.CanonicalHeaderKey, without allocating for a name
// already in canonical form or one servers commonly send in another case.
func canonicalKey(k string) string {
	canonical := true
	for i := 0; i < len(k); i++ {
		c := k[i]
		upper := i == 0 || k[i-1] == '-'
		if upper && 'a' <= c && c <= 'z' || !upper && 'A' <= c && c <= 'Z' {
			canonical = false
			break
		}
	}
	if canonical {
		return k
	}
	switch k {
	case "ETag":
		return "Etag"
	case "WWW-Authenticate":
		return "Www-Authenticate"
	case "Content-MD5":
		return "Content-Md5"
	case "X-XSS-Protection":
		return "X-Xss-Protection"
	case "X-UA-Compatible":
		return "X-Ua-Compatible"
	}
	return http.CanonicalHeaderKey(k)
}

// Set sets a field, as a script may (setContentType): the head becomes a
// map, made now if there was no header at all. The first Set edits a copy:
// a Head copied after Map (or net/http's map) shares that map, and the
// other copy keeps the header it had.
func (h *Head) Set(name, value string) {
	if !h.edited {
		h.m = h.Map().Clone()
		if h.m == nil {
			h.m = http.Header{}
		}
	}
	h.m.Set(name, value)
	h.edited = true
	h.block = ""
}

// Text is the header as JMeter shows it after the status line: a
// "Name: value" line per field, each ending in "\n", in the order and
// spelling they came in; sorted by name when only a map is known.
func (h *Head) Text() string {
	var b strings.Builder
	b.Grow(h.textLen())
	h.writeText(&b)
	return b.String()
}

// Block is the status line made of proto, code and message (left out
// when empty), a "\n", then Text: the header block JMeter's
// SampleResult.getResponseHeaders holds. It is made on the first call and
// kept: every extractor and assertion reading the headers of one sample
// shares one string, until Set changes the head or another status line
// is asked for.
func (h *Head) Block(proto, code, message string) string {
	if h.block != "" && h.hasStatus(proto, code, message) {
		return h.block
	}
	var b strings.Builder
	n := len(proto) + 1 + len(code) + 1
	if message != "" {
		n += 1 + len(message)
	}
	b.Grow(n + h.textLen())
	b.WriteString(proto)
	b.WriteByte(' ')
	b.WriteString(code)
	if message != "" {
		b.WriteByte(' ')
		b.WriteString(message)
	}
	b.WriteByte('\n')
	h.writeText(&b)
	h.block = b.String()
	return h.block
}

// hasStatus reports whether the kept block's first line is exactly the
// status line of proto, code and message. (A message with a line end in it
// never matches: the block is then made again on every call.)
func (h *Head) hasStatus(proto, code, message string) bool {
	end := strings.IndexByte(h.block, '\n')
	want := len(proto) + 1 + len(code) + 1
	if message != "" {
		want += 1 + len(message)
	}
	if end+1 != want {
		return false
	}
	line := h.block[:want]
	rest, ok := strings.CutPrefix(line, proto)
	if !ok || rest[0] != ' ' {
		return false
	}
	if rest, ok = strings.CutPrefix(rest[1:], code); !ok {
		return false
	}
	if message != "" {
		if rest[0] != ' ' {
			return false
		}
		if rest, ok = strings.CutPrefix(rest[1:], message); !ok {
			return false
		}
	}
	return rest == "\n"
}

// textLen is the length of Text, so that it is made in one allocation.
func (h *Head) textLen() int {
	n := 0
	if h.lines != "" && !h.edited {
		for rest := h.lines; rest != ""; {
			line, more, _ := strings.Cut(rest, "\n")
			rest = more
			k, v, _ := strings.Cut(line[:len(line)-1], ":")
			n += len(k) + 2 + len(trimOWS(v)) + 1
		}
		return n
	}
	for k, vv := range h.m {
		for _, v := range vv {
			n += len(k) + 2 + len(v) + 1
		}
	}
	return n
}

// writeText writes Text to b.
func (h *Head) writeText(b *strings.Builder) {
	if h.lines != "" && !h.edited {
		for rest := h.lines; rest != ""; {
			line, more, _ := strings.Cut(rest, "\n")
			rest = more
			k, v, _ := strings.Cut(line[:len(line)-1], ":")
			b.WriteString(k)
			b.WriteString(": ")
			b.WriteString(trimOWS(v))
			b.WriteByte('\n')
		}
		return
	}
	for _, k := range slices.Sorted(maps.Keys(h.m)) {
		for _, v := range h.m[k] {
			b.WriteString(k)
			b.WriteString(": ")
			b.WriteString(v)
			b.WriteByte('\n')
		}
	}
}
