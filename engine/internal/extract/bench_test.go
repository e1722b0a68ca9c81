package extract

import (
	"net/http"
	"testing"

	"github.com/gojm/gojm/engine/httpx"
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/elementtest"
	"github.com/gojm/gojm/jmx"
)

// Each extractor as a real plan uses it, on a realistic 1.5 KB body
// (elementtest.JSONBody or HTMLBody), one variable, the first match:
//
//	go test -run '^$' -bench . -benchmem ./engine/internal/extract
func benchExtractor(b *testing.B, build func(element.Builder, *jmx.Element) (element.PostProcessor, error), e *jmx.Element, body, check, want string) {
	b.Helper()
	x, vu := elementtest.Build(b, build, e)
	r := elementtest.Response(body)
	x.PostProcess(vu, r)
	if got := elementtest.Vars(vu, check); got != want {
		b.Fatalf("got %s, want %s", got, want)
	}
	b.ReportAllocs()
	for b.Loop() {
		x.PostProcess(vu, r)
	}
}

func BenchmarkRegexExtractorHTML(b *testing.B) {
	benchExtractor(b, BuildRegex, elementtest.El("RegexExtractor", "RegexExtractor.regex", `name="csrf_token" value="([^"]+)"`,
		"RegexExtractor.template", "$1$", "RegexExtractor.match_number", "1", "RegexExtractor.refname", "csrf", "RegexExtractor.default", "NOT_FOUND"),
		elementtest.HTMLBody, "csrf", "csrf=b7e1c2d3-4f5a-6789-abcd-ef0123456789")
}

func BenchmarkRegexExtractorJSON(b *testing.B) {
	benchExtractor(b, BuildRegex, elementtest.El("RegexExtractor", "RegexExtractor.regex", `"token":"([^"]+)"`,
		"RegexExtractor.template", "$1$", "RegexExtractor.match_number", "1", "RegexExtractor.refname", "token"),
		elementtest.JSONBody, "token", "token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJl")
}

func BenchmarkBoundaryExtractor(b *testing.B) {
	benchExtractor(b, BuildBoundary, elementtest.El("BoundaryExtractor", "BoundaryExtractor.lboundary", `jsessionid=`,
		"BoundaryExtractor.rboundary", `"`, "BoundaryExtractor.match_number", "1", "BoundaryExtractor.refname", "sid"),
		elementtest.HTMLBody, "sid", "sid=8F2A1C9D3E4B5F60718293A4B5C6D7E8")
}

func BenchmarkJSONExtractor(b *testing.B) {
	benchExtractor(b, BuildJSON, elementtest.El("JSONPostProcessor", "JSONPostProcessor.referenceNames", "userId",
		"JSONPostProcessor.jsonPathExprs", "$.user.id", "JSONPostProcessor.match_numbers", "1", "JSONPostProcessor.defaultValues", "NOT_FOUND"),
		elementtest.JSONBody, "userId", "userId=42")
}

// Two variables from one document, as login responses are read.
func BenchmarkJSONExtractorTwoPaths(b *testing.B) {
	benchExtractor(b, BuildJSON, elementtest.El("JSONPostProcessor", "JSONPostProcessor.referenceNames", "token;firstOrder",
		"JSONPostProcessor.jsonPathExprs", "$.token;$.orders[0].id", "JSONPostProcessor.match_numbers", "1;1", "JSONPostProcessor.defaultValues", "NF;NF"),
		elementtest.JSONBody, "firstOrder", "firstOrder=A-1001")
}

func BenchmarkCSSExtractor(b *testing.B) {
	benchExtractor(b, BuildCSS, elementtest.El("HtmlExtractor", "HtmlExtractor.expr", "input[name=csrf_token]", "HtmlExtractor.attribute", "value",
		"HtmlExtractor.match_number", "1", "HtmlExtractor.refname", "csrf"),
		elementtest.HTMLBody, "csrf", "csrf=b7e1c2d3-4f5a-6789-abcd-ef0123456789")
}

func BenchmarkXPathExtractor(b *testing.B) {
	benchExtractor(b, BuildXPath, elementtest.El("XPathExtractor", "XPathExtractor.xpathQuery", "//input[@name='csrf_token']/@value",
		"XPathExtractor.tolerant", "true", "XPathExtractor.refname", "csrf"),
		elementtest.HTMLBody, "csrf", "csrf=b7e1c2d3-4f5a-6789-abcd-ef0123456789")
}

// A Regular Expression Extractor on the response headers (useHeaders),
// as plans take a session cookie: the header text JMeter's field reads.
func BenchmarkRegexExtractorHeaders(b *testing.B) {
	x, vu := elementtest.Build(b, BuildRegex, elementtest.El("RegexExtractor", "RegexExtractor.useHeaders", "true",
		"RegexExtractor.regex", `SESSION=(\w+)`, "RegexExtractor.template", "$1$", "RegexExtractor.match_number", "1",
		"RegexExtractor.refname", "session", "RegexExtractor.default", "NO_SESSION"))
	r := elementtest.Response(elementtest.JSONBody)
	head := httpx.HeadOf(http.Header{"Server": {"nginx/1.22.1"}, "Date": {"Mon, 30 Nov 2026 00:00:00 GMT"},
		"Content-Type": {"application/json"}, "Content-Length": {"1517"}, "Connection": {"keep-alive"},
		"Set-Cookie": {"SESSION=8F2A1C9D3E4B5F60; Path=/; HttpOnly"}, "Cache-Control": {"no-store"}})
	r.Head = head
	x.PostProcess(vu, r)
	if got := elementtest.Vars(vu, "session"); got != "session=8F2A1C9D3E4B5F60" {
		b.Fatalf("got %s", got)
	}
	b.ReportAllocs()
	for b.Loop() {
		r.Head = head // each sample has a head of its own
		x.PostProcess(vu, r)
	}
}
