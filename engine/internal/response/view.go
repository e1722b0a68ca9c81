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

// ReadScope reads an extractor's scope (Sample.scope).
func ReadScope(c element.Builder, e *jmx.Element) Scope { return readScope(c, e, "Sample.scope") }

// ReadAssertionScope reads an assertion's scope, which JMeter's
// AbstractScopedAssertion keeps in Assertion.scope.
func ReadAssertionScope(c element.Builder, e *jmx.Element) Scope {
	return readScope(c, e, "Assertion.scope")
}

func readScope(c element.Builder, e *jmx.Element, prop string) Scope {
	s := Scope{Var: c.Prop(e, "Scope.variable")}
	switch e.StrOr(prop, "parent") {
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
	Head   *httpx.Head // nil for a sub-sample
	// Sent and SamplerData are what the main sample sent (nil and "" for
	// a sub-sample).
	Sent        *element.Sent
	SamplerData string
	res         *element.Result // nil for a sub-sample: its request headers, made when read
}

func Main(r *element.Result) View {
	return View{Sample: &r.Sample, Body: r.Body, Head: &r.Head, Sent: &r.Sent, SamplerData: r.SamplerData, res: r}
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

// RequestData is JMeter's getSamplerData for the main sample: for an
// HTTP sample (HTTPSampleResult's) the method and URL, the query string of
// methods that may have a body, and the cookies sent; for another sampler
// what it says it sent.
func RequestData(t *View) string {
	s := t.Sent
	if s == nil || s.Method == "" {
		return t.SamplerData
	}
	var b strings.Builder
	query := s.QueryString()
	b.Grow(len(s.Method) + len(t.Sample.URL) + len(query) + len(s.Cookies) + 32)
	b.WriteString(s.Method)
	if t.Sample.URL != "" {
		b.WriteByte(' ')
		b.WriteString(t.Sample.URL)
		b.WriteByte('\n')
		switch s.Method {
		case "HEAD", "OPTIONS", "TRACE": // JMeter's METHODS_WITHOUT_BODY
		default:
			b.WriteString("\n" + s.Method + " data:\n")
			b.WriteString(query)
			b.WriteByte('\n')
		}
		if s.Cookies != "" {
			b.WriteString("\nCookie Data:\n")
			b.WriteString(s.Cookies)
		} else {
			b.WriteString("\n[no cookies]")
		}
		b.WriteByte('\n')
	}
	b.WriteString(t.SamplerData)
	return b.String()
}
