package response

import (
	"fmt"
	"html"
	"strconv"
	"strings"
	"unsafe"

	"github.com/gojm/gojm/engine/httpx"
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
	"github.com/gojm/gojm/report"
)

// This file holds what every extractor and scoped assertion shares: which
// samples they look at (JMeter's Sample.scope) and which part of a sample
// (the "field to check").

// scopeKind is JMeter's Sample.scope: the main sample, its sub-samples,
// both, or a variable instead of a sample.
type ScopeKind uint8

const (
	ScopeParent ScopeKind = iota
	ScopeChildren
	ScopeAll
	ScopeVariable
)

// sampleScope is a compiled Sample.scope with its variable name.
type Scope struct {
	Kind ScopeKind
	Var  *element.Template // Scope.variable
}

func ReadScope(c element.Builder, e *jmx.Element) Scope {
	s := Scope{Var: c.Prop(e, "Scope.variable")}
	switch e.StrOr("Sample.scope", "parent") {
	case "children":
		s.Kind = ScopeChildren
	case "all":
		s.Kind = ScopeAll
	case "variable":
		s.Kind = ScopeVariable
	}
	return s
}

// target is what an extractor or assertion sees of one sample. Sub-samples
// carry no body or headers yet (the HTTP sampler keeps only the main one's).
type View struct {
	Sample *report.Sample
	Body   []byte
	Head   *httpx.Head     // nil for a sub-sample
	res    *element.Result // nil for a sub-sample
}

func Main(r *element.Result) View {
	return View{Sample: &r.Sample, Body: r.Body, Head: &r.Head, res: r}
}

// samples returns the samples the scope covers, in JMeter's order: the main
// sample, then its sub-samples and theirs (four levels down at most).
// scopeParent returns the main sample without allocating.
func (sc Scope) Samples(r *element.Result, buf []View) []View {
	buf = buf[:0]
	if sc.Kind == ScopeParent || sc.Kind == ScopeAll {
		buf = append(buf, Main(r))
	}
	if sc.Kind == ScopeChildren || sc.Kind == ScopeAll {
		buf = appendSubs(buf, r.Sub, 4)
	}
	return buf
}

func appendSubs(buf []View, subs []*report.Sample, level int) []View {
	for _, s := range subs {
		buf = append(buf, View{Sample: s})
	}
	if level > 0 {
		for _, s := range subs {
			buf = appendSubs(buf, s.Sub, level-1)
		}
	}
	return buf
}

// field is the part of a sample an extractor or assertion reads.
type Field uint8

const (
	FieldBody Field = iota
	FieldBodyUnescaped
	FieldBodyDocument
	FieldHeaders
	FieldRequestHeaders
	FieldURL
	FieldCode
	FieldMessage
	FieldRequestData
)

// extractField reads the "field to check" of a Regular Expression or
// Boundary Extractor (the historic property name is useHeaders).
func ReadField(e *jmx.Element, prop string) (Field, error) {
	v := e.StrOr(prop, "false")
	switch strings.ToLower(v) {
	case "", "false":
		return FieldBody, nil
	case "true":
		return FieldHeaders, nil
	case "request_headers":
		return FieldRequestHeaders, nil
	case "unescaped":
		return FieldBodyUnescaped, nil
	case "url":
		return FieldURL, nil
	case "code":
		return FieldCode, nil
	case "message":
		return FieldMessage, nil
	case "as_document":
		return 0, fmt.Errorf("%s: the field \"Body (as a Document)\" needs Apache Tika, which gojm does not have", prop)
	}
	return FieldBody, nil
}

// bodyString views a body as a string without copying. The bytes are
// reused by the next sample: a value kept beyond this sample (a variable)
// must be copied with strings.Clone first.
func BodyString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// text returns the field of the sample as text; it may alias the body.
func (t *View) Text(f Field) string {
	switch f {
	case FieldBody:
		return BodyString(t.Body)
	case FieldBodyUnescaped:
		return html.UnescapeString(BodyString(t.Body))
	case FieldBodyDocument:
		return DocumentText(t.Body)
	case FieldHeaders:
		return t.ResponseHeaders()
	case FieldRequestHeaders:
		if t.res == nil {
			return ""
		}
		return t.res.RequestHeaders()
	case FieldURL:
		return t.Sample.URL
	case FieldCode:
		return t.Sample.Code
	case FieldMessage:
		return t.Sample.Message
	}
	return ""
}

// responseHeaders renders the response headers as JMeter shows them: the
// status line, then one "Name: value" line per header, each ending in \n,
// in the order and spelling they came in (sorted by name for a head
// net/http read, which keeps neither).
func (t *View) ResponseHeaders() string {
	if (t.Head == nil || t.Head.None()) && t.Sample.Code == "" {
		return ""
	}
	if !isInt(t.Sample.Code) {
		return "" // no HTTP response: JMeter has no headers either
	}
	if t.Head == nil { // a sub-sample: its status line only
		var none httpx.Head
		return none.Block("HTTP/1.1", t.Sample.Code, t.Sample.Message)
	}
	// made once per sample, whichever element reads it first
	return t.Head.Block("HTTP/1.1", t.Sample.Code, t.Sample.Message)
}

// isInt reports whether strconv.Atoi reads s, without the error it would
// make of the "Non HTTP response code: …" of every failed connection.
func isInt(s string) bool {
	digits := strings.TrimLeft(s, "+-")
	if len(s)-len(digits) > 1 || digits == "" || strings.TrimLeft(digits, "0123456789") != "" {
		return false
	}
	if len(digits) > 18 { // may not fit
		_, err := strconv.Atoi(s)
		return err == nil
	}
	return true
}

// headersSize is JMeter's SampleResult.getHeadersSize for an HTTP sample:
// the header block as it travels, CRLF line ends and the blank line included.
func (t *View) HeadersSize() int64 {
	h := t.ResponseHeaders()
	if h == "" {
		return 0
	}
	return int64(len(h) + strings.Count(h, "\n") + 2)
}

// bodySize is JMeter's getBodySizeAsLong: received bytes less the headers.
func (t *View) BodySize() int64 {
	if t.Sample.Bytes == 0 {
		return int64(len(t.Body))
	}
	return t.Sample.Bytes - t.HeadersSize()
}

// requestData is JMeter's HTTPSampleResult.getSamplerData for the main
// sample: the method and URL, the body of methods that may have one, and
// the cookies sent (gojm sees only a Cookie header the plan set itself).
func RequestData(vu *element.VU, t *View) string {
	var req *httpx.Request // gojm keeps no request for this: see below
	if t.Sample.URL == "" || t.Sample != &vu.Res.Sample || req == nil || req.Method == "" {
		return ""
	}
	var b strings.Builder
	b.WriteString(req.Method)
	b.WriteByte(' ')
	b.WriteString(t.Sample.URL)
	b.WriteByte('\n')
	switch req.Method {
	case "HEAD", "OPTIONS", "TRACE":
	default:
		b.WriteString("\n" + req.Method + " data:\n")
		b.Write(req.Body)
		b.WriteByte('\n')
	}
	cookie := ""
	for _, h := range req.Header {
		if strings.EqualFold(h.Name, "Cookie") {
			cookie = h.Value
		}
	}
	if cookie != "" {
		b.WriteString("\nCookie Data:\n" + cookie)
	} else {
		b.WriteString("\n[no cookies]")
	}
	b.WriteByte('\n')
	return b.String()
}
