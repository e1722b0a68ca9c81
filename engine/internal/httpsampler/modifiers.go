package httpsampler

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// This file holds JMeter's HTTP modifiers: pre-processors that change the
// request of the HTTP Request they run before (element.Modifier), as
// JMeter's change the running copy of the current sampler, which is
// restored once the sample is done. They, and the scripts that change the
// request, change the user's element.Request for the sampler's next
// sample (EditRequest); the sample is made from it (takeEdit) and it is
// dropped.

// editedRequest is the user's request the pre-processors changed.
type editedRequest struct {
	of *httpSampler // whose request it is; nil: none changed
	rq element.Request
}

// EditRequest returns the user's request for h's next sample: the
// sampler's own fields, each evaluated when first read, when no
// pre-processor changed them yet.
func (h *httpSampler) EditRequest(vu *element.VU) *element.Request {
	ed := &h.users.Get(vu).edited
	rq := &ed.rq
	if ed.of == h {
		return rq
	}
	ed.of = h
	*rq = element.Request{
		Method: element.FieldOf(h.method), Protocol: element.FieldOf(h.protocol), Domain: element.FieldOf(h.domain),
		Port: element.FieldOf(h.port), Path: element.FieldOf(h.path),
		HeaderManager: h.headerManager, Headers: rq.Headers[:0], Args: rq.Args[:0],
	}
	for _, hd := range h.headers {
		rq.Headers = append(rq.Headers, element.RequestHeader{Name: hd.name, Value: element.FieldOf(hd.value)})
	}
	for i := range h.args {
		a := &h.args[i]
		rq.Args = append(rq.Args, element.RequestArg{Name: element.FieldOf(a.name), Value: element.FieldOf(a.value),
			Encode: a.encode, Meta: a.meta, ContentType: a.contentType})
	}
	return rq
}

// RequestURL is the URL rq is sent to (element.RequestSampler).
func (h *httpSampler) RequestURL(vu *element.VU, rq *element.Request) string {
	u, _ := h.editedURL(vu, rq)
	return u
}

// editedURL is url of the fields of rq, as the pre-processors changed
// them.
func (h *httpSampler) editedURL(vu *element.VU, rq *element.Request) (string, error) {
	return h.urlOf(vu, rq.Protocol.Get(vu), rq.Domain.Get(vu), rq.Port.Get(vu), samplerPath(rq.Path.Get(vu)))
}

// fixedArg is a parameter the modifiers made (from a page, a session id).
func fixedArg(a evalArg) element.RequestArg {
	return element.RequestArg{Name: element.Fixed(a.name), Value: element.Fixed(a.value), Encode: a.encode,
		Meta: a.meta, ContentType: a.contentType}
}

// takeEdit returns the request the pre-processors changed for h's sample,
// or nil, and forgets it: the next sample starts from the sampler's own
// fields again.
func (st *httpState) takeEdit(h *httpSampler) *element.Request {
	ed := &st.edited
	if ed.of != h {
		ed.of = nil
		return nil
	}
	ed.of = nil
	return &ed.rq
}

// previousResponse is the user's last sample before this one (JMeter's
// previous result), or nil before its first.
func previousResponse(vu *element.VU) *element.Result {
	if vu.Res.Start.IsZero() && vu.Res.Label == "" {
		return nil
	}
	return &vu.Res
}

// httpOf is s when it is an HTTP Request.
func httpOf(s element.Sampler) (*httpSampler, bool) {
	h, ok := s.(*httpSampler)
	return h, ok
}

// regexUserParameters is JMeter's RegEx User Parameters: the matches of a
// Regular Expression Extractor (its reference name, with one group for
// parameter names and one for values) give values to the request's
// parameters of those names.
type regexUserParameters struct {
	ref, names, values *element.Template
	// found is the user's map of parameter names to values, cleared and
	// filled again at each sample.
	found *element.Local[map[string]string]
}

func BuildRegexUserParameters(c element.Builder, e *jmx.Element) (element.PreProcessor, error) {
	return &regexUserParameters{
		ref:    c.Prop(e, "RegExUserParameters.regex_ref_name"),
		names:  c.Prop(e, "RegExUserParameters.param_names_gr_nr"),
		values: c.Prop(e, "RegExUserParameters.param_values_gr_nr"),
		found: element.NewLocal(c.Plan(), func(*element.VU) *map[string]string {
			m := map[string]string{}
			return &m
		}),
	}, nil
}

// PreProcess does nothing: the modifier runs bound to its sampler.
func (*regexUserParameters) PreProcess(*element.VU) {}

// matches reads the extractor's matches into the user's map of parameter
// names to values; false when the reference was not found.
func (m *regexUserParameters) matches(vu *element.VU) (map[string]string, bool) {
	ref, gn, gv := m.ref.Eval(vu)+"_", "_g"+m.names.Eval(vu), "_g"+m.values.Eval(vu)
	count, ok1 := vu.Vars.Get(ref + "matchNr")
	_, ok2 := vu.Vars.Get(ref + "1" + gn)
	_, ok3 := vu.Vars.Get(ref + "1" + gv)
	n, err := strconv.Atoi(count)
	if !ok1 || !ok2 || !ok3 || err != nil || n <= 0 {
		return nil, false
	}
	values := *m.found.Get(vu)
	clear(values)
	for i := 1; i <= n; i++ {
		k := ref + strconv.Itoa(i)
		name, _ := vu.Vars.Get(k + gn)
		if v, ok := vu.Vars.Get(k + gv); ok {
			values[name] = v
		} else {
			delete(values, name) // a missing value is Java's null: no change
		}
	}
	return values, true
}

func (m *regexUserParameters) Modify(vu *element.VU, s element.Sampler) {
	h, ok := httpOf(s)
	if !ok {
		return
	}
	values, ok := m.matches(vu)
	if !ok {
		return // JMeter logs that the reference was not found and changes nothing
	}
	rq := h.EditRequest(vu)
	for i := range rq.Args {
		a := &rq.Args[i]
		a.Value.Get(vu) // JMeter reads every value (to log it)
		if v, ok := values[a.Name.Get(vu)]; ok {
			a.Value.Set(v)
		}
	}
}

// urlRewriting is JMeter's HTTP URL Re-writing Modifier: it finds the
// session id in the previous response (a ;name=value in a URL, a
// ?name=/&name= parameter, or a form field of that name) and adds it to
// the request as a parameter, or with "path extension" to the path
// (;name=value, or ;namevalue without the equals sign). With "cache" a
// user keeps the last id found for the responses that have none.
type urlRewriting struct {
	name               *element.Template
	pathExt, noEquals  bool
	noQuestion, encode bool
	cache              bool
	re                 *regexp.Regexp // the name is fixed: compiled once
	saved              *element.Local[string]
}

func BuildURLRewriting(c element.Builder, e *jmx.Element) (element.PreProcessor, error) {
	m := &urlRewriting{
		name:       c.Prop(e, "argument_name"),
		pathExt:    e.Bool("path_extension", false),
		noEquals:   e.Bool("path_extension_no_equals", false),
		noQuestion: e.Bool("path_extension_no_questionmark", false),
		encode:     e.Bool("encode", false),
		cache:      e.Bool("cache_value", true),
		saved:      element.NewLocal(c.Plan(), func(*element.VU) *string { return new(string) }),
	}
	if m.name.Const() {
		m.re = m.pattern(m.name.Raw())
	}
	return m, nil
}

// pattern is the expression that finds the session id named name, as the
// modifier's options choose it (the name is quoted: it always compiles).
func (m *urlRewriting) pattern(name string) *regexp.Regexp {
	q := regexp.QuoteMeta(name)
	switch {
	case m.pathExt && m.noEquals && m.noQuestion:
		return compiled(`;` + q + `([^"'<>&\s;?]*)`)
	case m.pathExt && m.noEquals:
		return compiled(`;` + q + `([^"'<>&\s;]*)`)
	case m.pathExt && m.noQuestion:
		return compiled(`;` + q + `=([^"'<>&\s;?]*)`)
	case m.pathExt:
		return compiled(`;` + q + `=([^"'<>&\s;]*)`)
	}
	return compiled(`[;?&]` + q + `=([^"'<>&\s;\\]*)` +
		`|\s[Nn][Aa][Mm][Ee]\s*=\s*["']` + q + `["'][^>]*\s[vV][Aa][Ll][Uu][Ee]\s*=\s*["']([^"']*)["']` +
		`|\s[vV][Aa][Ll][Uu][Ee]\s*=\s*["']([^"']*)["'][^>]*\s[Nn][Aa][Mm][Ee]\s*=\s*["']` + q + `["']`)
}

// PreProcess does nothing: the modifier runs bound to its sampler.
func (*urlRewriting) PreProcess(*element.VU) {}

func (m *urlRewriting) Modify(vu *element.VU, s element.Sampler) {
	h, ok := httpOf(s)
	if !ok {
		return
	}
	prev := previousResponse(vu)
	if prev == nil {
		return
	}
	name := m.name.Eval(vu)
	re := m.re
	if re == nil {
		re = m.pattern(name)
	}
	value := ""
	if at := re.FindSubmatchIndex(prev.Body); at != nil {
		for i := 2; i < len(at); i += 2 {
			if at[i] >= 0 { // the first group that took part
				value = string(prev.Body[at[i]:at[i+1]])
				break
			}
		}
	}
	if m.cache {
		saved := m.saved.Get(vu)
		if value == "" {
			value = *saved
		} else {
			*saved = value
		}
	}
	rq := h.EditRequest(vu)
	if m.pathExt {
		path := rq.Path.Get(vu)
		if at := strings.Index(path, ";"+name); at >= 0 {
			if q := strings.IndexByte(path, '?'); q < 0 {
				path = path[:at]
			} else {
				path = path[:at] + path[q:]
			}
		}
		if m.noEquals {
			rq.Path.Set(path + ";" + name + value)
		} else {
			rq.Path.Set(path + ";" + name + "=" + value)
		}
		return
	}
	args := rq.Args[:0]
	for _, a := range rq.Args {
		if a.Name.Get(vu) != name {
			args = append(args, a)
		}
	}
	// JMeter's HTTPArgument(name, value, !encode): without "encode" the
	// value is taken as encoded already (decoded here, encoded when sent).
	if !m.encode {
		if d, err := urlDecode(value, utf8Charset); err == nil {
			value = d
		}
	}
	rq.Args = append(args, fixedArg(evalArg{name: name, value: value, encode: true, meta: "=", contentType: "text/plain"}))
}

// removedWhy is why the HTML Parameter Mask (ParamModifier) and the HTTP
// User Parameter Modifier are refused.
const removedWhy = "JMeter deprecated it in 2.3 and 5.6 no longer has it (a plan with it does not load): " +
	"use a Counter or User Parameters for the values, and remove or disable this element"

// BuildRemoved refuses a modifier JMeter no longer has; with unsupported
// elements skipped it changes nothing.
func BuildRemoved(c element.Builder, e *jmx.Element) (element.PreProcessor, error) {
	c.Refuse(e, removedWhy)
	return removed{}, nil
}

type removed struct{}

func (removed) PreProcess(*element.VU) {}
