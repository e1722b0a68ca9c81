package extract

import (
	"strings"
	"testing"

	"github.com/gojm/gojm/engine/internal/assert"
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/elementtest"
	"github.com/gojm/gojm/jmx"
)

func runPost(t *testing.T, e *jmx.Element, build func(element.Builder, *jmx.Element) (element.PostProcessor, error), r *element.Result, pre map[string]string) *element.VU {
	t.Helper()
	p, vu := elementtest.Build(t, build, e)
	for k, v := range pre {
		vu.Vars.Put(k, v)
	}
	p.PostProcess(vu, r)
	return vu
}

func TestRegexExtractor(t *testing.T) {
	body := `<a id="12">x</a><a id="34">y</a><a id="56">z</a>`
	cases := []struct {
		name  string
		props []string
		pre   map[string]string
		check []string
		want  string
	}{
		{"first match with groups", []string{"RegexExtractor.regex", `id="(\d+)"`, "RegexExtractor.template", "$1$", "RegexExtractor.match_number", "1", "RegexExtractor.refname", "v"},
			nil, []string{"v", "v_g", "v_g0", "v_g1", "v_matchNr"}, `v=12; v_g=1; v_g0=id="12"; v_g1=12; v_matchNr unset`},
		{"second match", []string{"RegexExtractor.regex", `id="(\d+)"`, "RegexExtractor.template", "[$1$]", "RegexExtractor.match_number", "2", "RegexExtractor.refname", "v"},
			nil, []string{"v"}, `v=[34]`},
		{"all matches", []string{"RegexExtractor.regex", `id="(\d+)">(\w)`, "RegexExtractor.template", "$2$$1$", "RegexExtractor.match_number", "-1", "RegexExtractor.refname", "v"},
			map[string]string{"v_matchNr": "5", "v_4": "old", "v_5": "old", "v_g": "1", "v_g0": "old", "v_g1": "old"},
			[]string{"v_matchNr", "v_1", "v_2", "v_3", "v_4", "v_5", "v_1_g2", "v_g0", "v_g"}, `v_matchNr=3; v_1=x12; v_2=y34; v_3=z56; v_4 unset; v_5 unset; v_1_g2=x; v_g0 unset; v_g unset`},
		{"no match keeps default", []string{"RegexExtractor.regex", `nope(\d)`, "RegexExtractor.template", "$1$", "RegexExtractor.match_number", "1", "RegexExtractor.refname", "v", "RegexExtractor.default", "NOT_FOUND"},
			map[string]string{"v_g": "1", "v_g1": "old"}, []string{"v", "v_g", "v_g1"}, `v=NOT_FOUND; v_g unset; v_g1 unset`},
		{"no match, no default: previous value stays", []string{"RegexExtractor.regex", `nope`, "RegexExtractor.template", "$0$", "RegexExtractor.match_number", "1", "RegexExtractor.refname", "v"},
			map[string]string{"v": "before"}, []string{"v"}, `v=before`},
		{"empty default requested", []string{"RegexExtractor.regex", `nope`, "RegexExtractor.template", "$0$", "RegexExtractor.match_number", "1", "RegexExtractor.refname", "v", "RegexExtractor.default_empty_value", "true"},
			map[string]string{"v": "before"}, []string{"v"}, `v=`},
		{"unmatched group renders null", []string{"RegexExtractor.regex", `id="(\d+)"(z)?`, "RegexExtractor.template", "$1$-$2$-$9$", "RegexExtractor.match_number", "1", "RegexExtractor.refname", "v"},
			nil, []string{"v", "v_g2"}, `v=12-null-null; v_g2 unset`},
		{"headers", []string{"RegexExtractor.regex", `Set-Cookie: sid=(\w+)`, "RegexExtractor.template", "$1$", "RegexExtractor.match_number", "1", "RegexExtractor.refname", "v", "RegexExtractor.useHeaders", "true"},
			nil, []string{"v"}, `v=abc`},
		{"status line in headers", []string{"RegexExtractor.regex", `^HTTP/1.1 (\d+) (\w+)\n`, "RegexExtractor.template", "$1$ $2$", "RegexExtractor.match_number", "1", "RegexExtractor.refname", "v", "RegexExtractor.useHeaders", "true"},
			nil, []string{"v"}, `v=200 OK`},
		{"URL", []string{"RegexExtractor.regex", `x=(\d)`, "RegexExtractor.template", "$1$", "RegexExtractor.match_number", "1", "RegexExtractor.refname", "v", "RegexExtractor.useHeaders", "URL"},
			nil, []string{"v"}, `v=1`},
		{"code and message", []string{"RegexExtractor.regex", `\d+`, "RegexExtractor.template", "$0$", "RegexExtractor.match_number", "1", "RegexExtractor.refname", "v", "RegexExtractor.useHeaders", "code"},
			nil, []string{"v"}, `v=200`},
		{"request headers", []string{"RegexExtractor.regex", `Accept: (.*)`, "RegexExtractor.template", "$1$", "RegexExtractor.match_number", "1", "RegexExtractor.refname", "v", "RegexExtractor.useHeaders", "request_headers"},
			nil, []string{"v"}, `v=*/*`},
		{"unescaped body", []string{"RegexExtractor.regex", `<b>(.)`, "RegexExtractor.template", "$1$", "RegexExtractor.match_number", "1", "RegexExtractor.refname", "v", "RegexExtractor.useHeaders", "unescaped"},
			nil, []string{"v"}, `v=Q`},
		{"variable scope", []string{"RegexExtractor.regex", `(\w+)@`, "RegexExtractor.template", "$1$", "RegexExtractor.match_number", "1", "RegexExtractor.refname", "v", "Sample.scope", "variable", "Scope.variable", "mail"},
			map[string]string{"mail": "joe@example.com"}, []string{"v"}, `v=joe`},
		{"pattern from a variable", []string{"RegexExtractor.regex", `${p}="(\d+)"`, "RegexExtractor.template", "$1$", "RegexExtractor.match_number", "3", "RegexExtractor.refname", "v"},
			map[string]string{"p": "id"}, []string{"v"}, `v=56`},
		{"POSIX class", []string{"RegexExtractor.regex", `id="(\p{Digit}+)"`, "RegexExtractor.template", "$1$", "RegexExtractor.match_number", "1", "RegexExtractor.refname", "v"},
			nil, []string{"v"}, `v=12`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := elementtest.Response(body)
			if tc.name == "unescaped body" {
				r = elementtest.Response("&lt;b&gt;Q")
			}
			vu := runPost(t, elementtest.El("RegexExtractor", tc.props...), BuildRegex, r, tc.pre)
			if got := elementtest.Vars(vu, tc.check...); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestRegexExtractorRandomMatchIsOneOfThem(t *testing.T) {
	seen := map[string]bool{}
	c := elementtest.New(nil, "", "")
	p, err := BuildRegex(c, elementtest.El("RegexExtractor", "RegexExtractor.regex", `\d`, "RegexExtractor.template", "$0$",
		"RegexExtractor.match_number", "0", "RegexExtractor.refname", "v"))
	if err != nil {
		t.Fatal(err)
	}
	vu := c.VU(1)
	for range 50 {
		p.PostProcess(vu, elementtest.Response("1 2 3"))
		v, _ := vu.Vars.Get("v")
		seen[v] = true
	}
	if len(seen) != 3 || !seen["1"] || !seen["2"] || !seen["3"] {
		t.Errorf("random matches seen: %v", seen)
	}
}

func TestRegexExtractorRefusesLookaheadAtCompileTime(t *testing.T) {
	c := elementtest.New(nil, "", "")
	_, err := BuildRegex(c, elementtest.El("RegexExtractor", "RegexExtractor.regex", `id=(?=\d)`, "RegexExtractor.refname", "v"))
	if err == nil || !strings.Contains(err.Error(), "RE2") || !strings.Contains(err.Error(), "look-ahead") {
		t.Fatalf("err = %v, want a refusal naming RE2 and the look-ahead", err)
	}
	if _, err := BuildRegex(c, elementtest.El("RegexExtractor", "RegexExtractor.useHeaders", "as_document")); err == nil {
		t.Error("Body as a Document accepted")
	}
}

func TestBoundaryExtractor(t *testing.T) {
	cases := []struct {
		name  string
		body  string
		props []string
		pre   map[string]string
		check []string
		want  string
	}{
		{"first", `<a>1</a><a>2</a>`, []string{"BoundaryExtractor.lboundary", "<a>", "BoundaryExtractor.rboundary", "</a>", "BoundaryExtractor.match_number", "1"},
			nil, []string{"v"}, "v=1"},
		{"second", `<a>1</a><a>2</a>`, []string{"BoundaryExtractor.lboundary", "<a>", "BoundaryExtractor.rboundary", "</a>", "BoundaryExtractor.match_number", "2"},
			nil, []string{"v"}, "v=2"},
		{"all, overlapping as JMeter finds them", `<x<y>`, []string{"BoundaryExtractor.lboundary", "<", "BoundaryExtractor.rboundary", ">", "BoundaryExtractor.match_number", "-1"},
			map[string]string{"v_3": "old", "v_matchNr": "3"}, []string{"v_matchNr", "v_1", "v_2", "v_3"}, "v_matchNr=2; v_1=x<y; v_2=y; v_3 unset"},
		{"none, default", `abc`, []string{"BoundaryExtractor.lboundary", "[", "BoundaryExtractor.rboundary", "]", "BoundaryExtractor.match_number", "1", "BoundaryExtractor.default", "NF"},
			nil, []string{"v"}, "v=NF"},
		{"blank default is not set", `abc`, []string{"BoundaryExtractor.lboundary", "[", "BoundaryExtractor.rboundary", "]", "BoundaryExtractor.match_number", "1", "BoundaryExtractor.default", " "},
			map[string]string{"v": "keep"}, []string{"v"}, "v=keep"},
		{"empty left boundary", `token;rest`, []string{"BoundaryExtractor.lboundary", "", "BoundaryExtractor.rboundary", ";", "BoundaryExtractor.match_number", "1"},
			nil, []string{"v"}, "v=token"},
		{"empty right boundary", `x=token`, []string{"BoundaryExtractor.lboundary", "=", "BoundaryExtractor.rboundary", "", "BoundaryExtractor.match_number", "1"},
			nil, []string{"v"}, "v=token"},
		{"headers", `x`, []string{"BoundaryExtractor.lboundary", "sid=", "BoundaryExtractor.rboundary", "\n", "BoundaryExtractor.match_number", "1", "BoundaryExtractor.useHeaders", "true"},
			nil, []string{"v"}, "v=abc"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			props := append([]string{"BoundaryExtractor.refname", "v"}, tc.props...)
			vu := runPost(t, elementtest.El("BoundaryExtractor", props...), BuildBoundary, elementtest.Response(tc.body), tc.pre)
			if got := elementtest.Vars(vu, tc.check...); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// A response body's buffer is reused by the next sample: a value an
// extractor keeps must be a copy.
func TestExtractedValuesDoNotAliasTheBody(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func(element.Builder, *jmx.Element) (element.PostProcessor, error)
		e     *jmx.Element
		body  string
		want  string
	}{
		{"regex", BuildRegex, elementtest.El("RegexExtractor", "RegexExtractor.regex", `id=(\d+)`, "RegexExtractor.template", "$1$",
			"RegexExtractor.match_number", "1", "RegexExtractor.refname", "v"), `id=12`, "v=12; v_g1=12"},
		{"boundary", BuildBoundary, elementtest.El("BoundaryExtractor", "BoundaryExtractor.lboundary", "id=", "BoundaryExtractor.rboundary", ";",
			"BoundaryExtractor.match_number", "1", "BoundaryExtractor.refname", "v"), `id=12;`, "v=12"},
		{"JSON", BuildJSON, elementtest.El("JSONPostProcessor", "JSONPostProcessor.referenceNames", "v", "JSONPostProcessor.jsonPathExprs", "$.id",
			"JSONPostProcessor.match_numbers", "1", "JSONPostProcessor.defaultValues", "NF"), `{"id":"abcdef"}`, "v=abcdef"},
		{"JSON, all", BuildJSON, elementtest.El("JSONPostProcessor", "JSONPostProcessor.referenceNames", "v", "JSONPostProcessor.jsonPathExprs", "$.id",
			"JSONPostProcessor.match_numbers", "-1", "JSONPostProcessor.defaultValues", "NF", "JSONPostProcessor.compute_concat", "true"), `{"id":"abcdef"}`, "v_1=abcdef; v_ALL=abcdef"},
		{"jp@gc JSON", BuildPluginJSON, elementtest.El("JSONPathExtractor", "VAR", "v", "JSONPATH", "$.id", "SUBJECT", "BODY"), `{"id":"abcdef"}`, "v=abcdef"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := elementtest.Response(tc.body)
			vu := runPost(t, tc.e, tc.build, r, nil)
			copy(r.Body, strings.Repeat("X", len(r.Body)))
			names := []string{}
			for _, kv := range strings.Split(tc.want, "; ") {
				names = append(names, kv[:strings.IndexByte(kv, '=')])
			}
			if got := elementtest.Vars(vu, names...); got != tc.want {
				t.Errorf("after the body buffer was reused: %s, want %s", got, tc.want)
			}
		})
	}
}

// Hot path: one extractor and one assertion per sample on a 10 kB body.
func BenchmarkRegexExtractorAndAssertion(b *testing.B) {
	c := elementtest.New(nil, "", "")
	x, err := BuildRegex(c, elementtest.El("RegexExtractor", "RegexExtractor.regex", `"token":"([^"]+)"`, "RegexExtractor.template", "$1$",
		"RegexExtractor.match_number", "1", "RegexExtractor.refname", "token"))
	if err != nil {
		b.Fatal(err)
	}
	a, err := assert.BuildResponse(c, elementtest.El("ResponseAssertion", "Assertion.test_field", "Assertion.response_data", "Assertion.test_type", "16",
		"Asserion.test_strings", elementtest.Strs(`"user":"demo"`)))
	if err != nil {
		b.Fatal(err)
	}
	body := strings.Repeat("x", 10000) + `{"user":"demo","token":"tok-0123456789"}`
	vu := c.VU(1)
	r := elementtest.Response(body)
	b.ReportAllocs()
	for b.Loop() {
		r.Assertions, r.MsgSet = r.Assertions[:0], false
		x.PostProcess(vu, r)
		a.Assert(vu, r)
	}
}
