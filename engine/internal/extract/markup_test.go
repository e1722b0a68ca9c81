package extract

import (
	"testing"

	"github.com/gojm/gojm/engine/internal/elementtest"
)

const page = `<html><head><title>Shop</title></head><body>
<form action="/buy"><input type="hidden" name="csrf" value="t0k3n"/>
<select name="toPort"><option value="LON">London</option><option value="ROM">Rome</option><option value="BER">Berlin</option></select>
</form>
<div class="msg"><p>Hello   <b>big</b>
 world</p><p>second</p></div>
</body></html>`

func TestCSSExtractor(t *testing.T) {
	cases := []struct {
		name  string
		props []string
		pre   map[string]string
		check []string
		want  string
	}{
		{"attribute", []string{"HtmlExtractor.expr", "input[name=csrf]", "HtmlExtractor.attribute", "value", "HtmlExtractor.match_number", "1"},
			nil, []string{"v"}, "v=t0k3n"},
		{"text, JSoup's whitespace", []string{"HtmlExtractor.expr", "div.msg", "HtmlExtractor.match_number", "1"},
			nil, []string{"v"}, "v=Hello big world second"},
		{"second option", []string{"HtmlExtractor.expr", "select[name=toPort] option", "HtmlExtractor.attribute", "value", "HtmlExtractor.match_number", "2"},
			nil, []string{"v"}, "v=ROM"},
		{"all", []string{"HtmlExtractor.expr", "option", "HtmlExtractor.match_number", "-1"},
			map[string]string{"v_matchNr": "4", "v_4": "old"}, []string{"v_matchNr", "v_1", "v_3", "v_4"}, "v_matchNr=3; v_1=London; v_3=Berlin; v_4 unset"},
		{"JSoup's :eq", []string{"HtmlExtractor.expr", "option:eq(2)", "HtmlExtractor.match_number", "1"},
			nil, []string{"v"}, "v=Berlin"},
		{"missing attribute is empty", []string{"HtmlExtractor.expr", "option", "HtmlExtractor.attribute", "nope", "HtmlExtractor.match_number", "1", "HtmlExtractor.default", "D"},
			nil, []string{"v"}, "v="},
		{"no match", []string{"HtmlExtractor.expr", "table", "HtmlExtractor.match_number", "1", "HtmlExtractor.default", "NOT_FOUND"},
			nil, []string{"v"}, "v=NOT_FOUND"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			props := append([]string{"HtmlExtractor.refname", "v"}, tc.props...)
			vu := runPost(t, elementtest.El("HtmlExtractor", props...), BuildCSS, elementtest.Response(page), tc.pre)
			if got := elementtest.Vars(vu, tc.check...); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// JSoup takes an attribute selector's unquoted value as all the text up to
// the ], spaces included; it is quoted before cascadia reads it.
func TestQuoteAttrValues(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"article[class=esh-orders-items row]", `article[class="esh-orders-items row"]`},
		{"input[name=csrf]", `input[name="csrf"]`},
		{"a[href^=/shop] b", `a[href^="/shop"] b`},
		{"td[data-id=123]", `td[data-id="123"]`},
		{`a[title="x y"]`, `a[title="x y"]`},
		{`a[title='x]y']`, `a[title='x]y']`},
		{"a[href]", "a[href]"},
		{`p:contains([x=y])`, `p:contains([x="y"])`},
		{`a[title=say "hi"]`, `a[title="say \"hi\""]`},
		{"a[x=", "a[x="},
	} {
		if got := quoteAttrValues(tc.in); got != tc.want {
			t.Errorf("quoteAttrValues(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	html := `<section><article class="esh-orders-items row">42</article><article class="other">0</article></section>`
	vu := runPost(t, elementtest.El("HtmlExtractor", "HtmlExtractor.refname", "v", "HtmlExtractor.expr", "article[class=esh-orders-items row]",
		"HtmlExtractor.match_number", "1"), BuildCSS, elementtest.Response(html), nil)
	if got := elementtest.Vars(vu, "v"); got != "v=42" {
		t.Errorf("got %s, want v=42", got)
	}
}

const feed = `<?xml version="1.0"?>
<response xmlns:m="urn:m"><status>OK</status><items><item id="1">a</item><item id="2">b</item><item id="3"><x/>c</item></items><m:code>7</m:code></response>`

func TestXPathExtractors(t *testing.T) {
	cases := []struct {
		class string
		props []string
		check []string
		want  string
	}{
		{"XPathExtractor", []string{"XPathExtractor.xpathQuery", "/response/status"}, []string{"v", "v_matchNr", "v_1"}, "v=OK; v_matchNr=1; v_1=OK"},
		{"XPathExtractor", []string{"XPathExtractor.xpathQuery", "//item/@id"}, []string{"v", "v_matchNr", "v_3"}, "v=1; v_matchNr=3; v_3=3"},
		{"XPathExtractor", []string{"XPathExtractor.xpathQuery", "//item", "XPathExtractor.matchNumber", "2"}, []string{"v", "v_matchNr", "v_1"}, "v=b; v_matchNr=1; v_1=b"},
		{"XPathExtractor", []string{"XPathExtractor.xpathQuery", "//item[3]"}, []string{"v", "v_matchNr", "v_1"}, "v=D; v_matchNr=1; v_1 unset"},
		{"XPathExtractor", []string{"XPathExtractor.xpathQuery", "count(//item)"}, []string{"v"}, "v=3"},
		{"XPathExtractor", []string{"XPathExtractor.xpathQuery", "//nope"}, []string{"v", "v_matchNr"}, "v=D; v_matchNr=0"},
		{"XPathExtractor", []string{"XPathExtractor.xpathQuery", "//item[1]", "XPathExtractor.fragment", "true"}, []string{"v"}, `v=<item id="1">a</item>`},
		{"XPathExtractor", []string{"XPathExtractor.xpathQuery", "//m:code"}, []string{"v"}, "v=7"},
		{"XPath2Extractor", []string{"XPathExtractor2.xpathQuery", "//item[3]", "XPathExtractor2.matchNumber", "1"}, []string{"v"}, "v=c"},
		{"XPath2Extractor", []string{"XPathExtractor2.xpathQuery", "//item", "XPathExtractor2.matchNumber", "-1"}, []string{"v_matchNr", "v_2"}, "v_matchNr=3; v_2=b"},
		{"XPath2Extractor", []string{"XPathExtractor2.xpathQuery", "//n:code", "XPathExtractor2.namespaces", "n=urn:m", "XPathExtractor2.matchNumber", "1"}, []string{"v"}, "v=7"},
	}
	for _, tc := range cases {
		t.Run(tc.class+" "+tc.props[1], func(t *testing.T) {
			prefix := "XPathExtractor."
			if tc.class == "XPath2Extractor" {
				prefix = "XPathExtractor2."
			}
			props := append([]string{prefix + "refname", "v", prefix + "default", "D"}, tc.props...)
			build := BuildXPath
			if tc.class == "XPath2Extractor" {
				build = BuildXPath2
			}
			vu := runPost(t, elementtest.El(tc.class, props...), build, elementtest.Response(feed), nil)
			if got := elementtest.Vars(vu, tc.check...); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestXPathExtractorBadDocument(t *testing.T) {
	r := elementtest.Response("<a><b></a>")
	runPost(t, elementtest.El("XPathExtractor", "XPathExtractor.refname", "v", "XPathExtractor.xpathQuery", "//b"), BuildXPath, r, nil)
	if !r.Success || len(r.Assertions) != 1 || !r.Assertions[0].Failure || r.FailureMessage == "" {
		t.Errorf("success=%v message=%q results=%+v", r.Success, r.FailureMessage, r.Assertions)
	}
	r = elementtest.Response("<html><body><p>loose<br></body>")
	vu := runPost(t, elementtest.El("XPathExtractor", "XPathExtractor.refname", "v", "XPathExtractor.xpathQuery", "//p", "XPathExtractor.tolerant", "true"), BuildXPath, r, nil)
	if got := elementtest.Vars(vu, "v"); got != "v=loose" || !r.Success {
		t.Errorf("tolerant: %s, success %v", got, r.Success)
	}
}
