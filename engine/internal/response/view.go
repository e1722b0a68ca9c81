package engine

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
type scopeKind uint8

const (
	scopeParent scopeKind = iota
	scopeChildren
	scopeAll
	scopeVariable
)

// sampleScope is a compiled Sample.scope with its variable name.
type sampleScope struct {
	kind scopeKind
	name *Template // Scope.variable
}

func readScope(c element.Builder, e *jmx.Element) sampleScope {
	s := sampleScope{name: c.Prop(e, "Scope.variable")}
	switch e.StrOr("Sample.scope", "parent") {
	case "children":
		s.kind = scopeChildren
	case "all":
		s.kind = scopeAll
	case "variable":
		s.kind = scopeVariable
	}
	return s
}

// target is what an extractor or assertion sees of one sample. Sub-samples
// carry no body or headers yet (the HTTP sampler keeps only the main one's).
type sampleView struct {
	s       *report.Sample
	body    []byte
	head    *httpx.Head // nil for a sub-sample
	reqHead string
}

func mainTarget(r *Result) sampleView {
	return sampleView{s: &r.Sample, body: r.Body, head: &r.Head, reqHead: r.ReqHead}
}

// samples returns the samples the scope covers, in JMeter's order: the main
// sample, then its sub-samples and theirs (four levels down at most).
// scopeParent returns the main sample without allocating.
func (sc sampleScope) samples(r *Result, buf []sampleView) []sampleView {
	buf = buf[:0]
	if sc.kind == scopeParent || sc.kind == scopeAll {
		buf = append(buf, mainTarget(r))
	}
	if sc.kind == scopeChildren || sc.kind == scopeAll {
		buf = appendSubs(buf, r.Sub, 4)
	}
	return buf
}

func appendSubs(buf []sampleView, subs []*report.Sample, level int) []sampleView {
	for _, s := range subs {
		buf = append(buf, sampleView{s: s})
	}
	if level > 0 {
		for _, s := range subs {
			buf = appendSubs(buf, s.Sub, level-1)
		}
	}
	return buf
}

// field is the part of a sample an extractor or assertion reads.
type field uint8

const (
	fieldBody field = iota
	fieldBodyUnescaped
	fieldBodyDocument
	fieldHeaders
	fieldRequestHeaders
	fieldURL
	fieldCode
	fieldMessage
	fieldRequestData
)

// extractField reads the "field to check" of a Regular Expression or
// Boundary Extractor (the historic property name is useHeaders).
func extractField(e *jmx.Element, prop string) (field, error) {
	v := e.StrOr(prop, "false")
	switch strings.ToLower(v) {
	case "", "false":
		return fieldBody, nil
	case "true":
		return fieldHeaders, nil
	case "request_headers":
		return fieldRequestHeaders, nil
	case "unescaped":
		return fieldBodyUnescaped, nil
	case "url":
		return fieldURL, nil
	case "code":
		return fieldCode, nil
	case "message":
		return fieldMessage, nil
	case "as_document":
		return 0, fmt.Errorf("%s: the field \"Body (as a Document)\" needs Apache Tika, which gojm does not have", prop)
	}
	return fieldBody, nil
}

// bodyString views a body as a string without copying. The bytes are
// reused by the next sample: a value kept beyond this sample (a variable)
// must be copied with strings.Clone first.
func bodyString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// text returns the field of the sample as text; it may alias the body.
func (t *sampleView) text(f field) string {
	switch f {
	case fieldBody:
		return bodyString(t.body)
	case fieldBodyUnescaped:
		return html.UnescapeString(bodyString(t.body))
	case fieldHeaders:
		return t.responseHeaders()
	case fieldRequestHeaders:
		return t.reqHead
	case fieldURL:
		return t.s.URL
	case fieldCode:
		return t.s.Code
	case fieldMessage:
		return t.s.Message
	}
	return ""
}

// responseHeaders renders the response headers as JMeter shows them: the
// status line, then one "Name: value" line per header, each ending in \n,
// in the order and spelling they came in (sorted by name for a head
// net/http read, which keeps neither).
func (t *sampleView) responseHeaders() string {
	if (t.head == nil || t.head.None()) && t.s.Code == "" {
		return ""
	}
	if _, err := strconv.Atoi(t.s.Code); err != nil {
		return "" // no HTTP response: JMeter has no headers either
	}
	var b strings.Builder
	b.WriteString("HTTP/1.1 ")
	b.WriteString(t.s.Code)
	if t.s.Message != "" {
		b.WriteByte(' ')
		b.WriteString(t.s.Message)
	}
	b.WriteByte('\n')
	if t.head != nil {
		b.WriteString(t.head.Text())
	}
	return b.String()
}

// headersSize is JMeter's SampleResult.getHeadersSize for an HTTP sample:
// the header block as it travels, CRLF line ends and the blank line included.
func (t *sampleView) headersSize() int64 {
	h := t.responseHeaders()
	if h == "" {
		return 0
	}
	return int64(len(h) + strings.Count(h, "\n") + 2)
}

// bodySize is JMeter's getBodySizeAsLong: received bytes less the headers.
func (t *sampleView) bodySize() int64 {
	if t.s.Bytes == 0 {
		return int64(len(t.body))
	}
	return t.s.Bytes - t.headersSize()
}

// requestData is JMeter's HTTPSampleResult.getSamplerData for the main
// sample: the method and URL, the body of methods that may have one, and
// the cookies sent (gojm sees only a Cookie header the plan set itself).
func requestData(vu *VU, t *sampleView) string {
	var req *httpx.Request // gojm keeps no request for this: see below
	if t.s.URL == "" || t.s != &vu.Res.Sample || req == nil || req.Method == "" {
		return ""
	}
	var b strings.Builder
	b.WriteString(req.Method)
	b.WriteByte(' ')
	b.WriteString(t.s.URL)
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
