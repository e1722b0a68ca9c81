package engine

import "testing"

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
			vu := runPost(t, el("HtmlExtractor", props...), buildCSSExtractor, fakeResult(page), tc.pre)
			if got := vars(vu, tc.check...); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
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
			build := buildXPathExtractor
			if tc.class == "XPath2Extractor" {
				build = buildXPath2Extractor
			}
			vu := runPost(t, el(tc.class, props...), build, fakeResult(feed), nil)
			if got := vars(vu, tc.check...); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestXPathExtractorBadDocument(t *testing.T) {
	r := fakeResult("<a><b></a>")
	runPost(t, el("XPathExtractor", "XPathExtractor.refname", "v", "XPathExtractor.xpathQuery", "//b"), buildXPathExtractor, r, nil)
	if !r.Success || len(r.Assertions) != 1 || !r.Assertions[0].Failure || r.FailureMessage == "" {
		t.Errorf("success=%v message=%q results=%+v", r.Success, r.FailureMessage, r.Assertions)
	}
	r = fakeResult("<html><body><p>loose<br></body>")
	vu := runPost(t, el("XPathExtractor", "XPathExtractor.refname", "v", "XPathExtractor.xpathQuery", "//p", "XPathExtractor.tolerant", "true"), buildXPathExtractor, r, nil)
	if got := vars(vu, "v"); got != "v=loose" || !r.Success {
		t.Errorf("tolerant: %s, success %v", got, r.Success)
	}
}

func TestXPathAssertions(t *testing.T) {
	runAssertCases(t, "XPathAssertion", buildXPathAssertion, []assertCase{
		{"found", feed, []string{"XPath.xpath", "/response/status"}, nil, true, ""},
		{"not found", feed, []string{"XPath.xpath", "/response/nope"}, nil, false, "No Nodes Matched /response/nope"},
		{"negated, not found: passes but says so", feed, []string{"XPath.xpath", "/response/nope", "XPath.negate", "true"}, nil, true, "No Nodes Matched /response/nope"},
		{"negated, found", feed, []string{"XPath.xpath", "/response/status", "XPath.negate", "true"}, nil, false,
			"Specified XPath was found... Turn off negate if this is not desired"},
		{"boolean true still carries a message", feed, []string{"XPath.xpath", "count(//item)=3"}, nil, true, "No Nodes Matched for count(//item)=3"},
		{"boolean false", feed, []string{"XPath.xpath", "count(//item)=2"}, nil, false, "No Nodes Matched for count(//item)=2"},
		{"number", feed, []string{"XPath.xpath", "count(//item)"}, nil, false, "Cannot understand: count(//item)"},
		{"empty", "", []string{"XPath.xpath", "/"}, nil, false, "Response was null"},
	})
	runAssertCases(t, "XPath2Assertion", buildXPath2Assertion, []assertCase{
		{"found", feed, []string{"XPath.xpath", "//n:code", "XPath.namespaces", "n=urn:m"}, nil, true, "No Nodes Matched for //n:code"},
		{"not found", feed, []string{"XPath.xpath", "//nope"}, nil, false, "No Nodes Matched for //nope"},
		{"negated", feed, []string{"XPath.xpath", "//item", "XPath.negate", "true"}, nil, false, "Nodes Matched for //item"},
		{"boolean", feed, []string{"XPath.xpath", "count(//item) = 3"}, nil, true, "No Nodes Matched for count(//item) = 3"},
	})
}
