package extract

import (
	"strings"
	"testing"

	"github.com/gojm/gojm/engine/internal/elementtest"
)

const storeJSON = `{"store":{"book":[
 {"category":"reference","author":"Nigel Rees","title":"Sayings","price":8.95,"url":"http://a/b"},
 {"category":"fiction","author":"Evelyn Waugh","title":"Sword","price":12.99,"isbn":"0-553"},
 {"category":"fiction","author":"Herman Melville","title":"Moby Dick","price":8,"isbn":"0-395"}],
 "bicycle":{"color":"red","price":19.95}},
 "token":"abc/def","n":null,"big":1e10,"one":1.0,"ok":true,"empty":[]}`

func TestJSONExtractor(t *testing.T) {
	cases := []struct {
		name  string
		props []string
		pre   map[string]string
		check []string
		want  string
	}{
		{"one value", []string{"JSONPostProcessor.referenceNames", "tok", "JSONPostProcessor.jsonPathExprs", "$.token", "JSONPostProcessor.match_numbers", "1"},
			nil, []string{"tok", "tok_matchNr"}, "tok=abc/def; tok_matchNr=1"},
		{"path without $", []string{"JSONPostProcessor.referenceNames", "c", "JSONPostProcessor.jsonPathExprs", "store.bicycle.color"},
			nil, []string{"c", "c_matchNr"}, "c=red; c_matchNr unset"},
		{"several variables", []string{"JSONPostProcessor.referenceNames", "a;b", "JSONPostProcessor.jsonPathExprs", "$.store.book[0].author; $.store.book[1].price",
			"JSONPostProcessor.defaultValues", "X;Y", "JSONPostProcessor.match_numbers", "1;1"},
			nil, []string{"a", "b"}, "a=Nigel Rees; b=12.99"},
		{"Java numbers", []string{"JSONPostProcessor.referenceNames", "a;b;c", "JSONPostProcessor.jsonPathExprs", "$.big;$.one;$.store.book[2].price",
			"JSONPostProcessor.defaultValues", ";;", "JSONPostProcessor.match_numbers", "1;1;1"},
			nil, []string{"a", "b", "c"}, "a=1.0E10; b=1.0; c=8"},
		{"all with concatenation", []string{"JSONPostProcessor.referenceNames", "t", "JSONPostProcessor.jsonPathExprs", "$..book[?(@.category == 'fiction')].title",
			"JSONPostProcessor.match_numbers", "-1", "JSONPostProcessor.compute_concat", "true"},
			map[string]string{"t_1": "old", "t_2": "old", "t_3": "old", "t_4": "old"}, []string{"t_matchNr", "t_1", "t_2", "t_3", "t_4", "t_ALL"}, "t_matchNr=2; t_1=Sword; t_2=Moby Dick; t_3 unset; t_4 unset; t_ALL=Sword,Moby Dick"},
		{"deep scan keeps document order", []string{"JSONPostProcessor.referenceNames", "p", "JSONPostProcessor.jsonPathExprs", "$..price",
			"JSONPostProcessor.match_numbers", "-1"},
			nil, []string{"p_matchNr", "p_1", "p_4"}, "p_matchNr=4; p_1=8.95; p_4=19.95"},
		{"match number past the end", []string{"JSONPostProcessor.referenceNames", "t", "JSONPostProcessor.jsonPathExprs", "$..title",
			"JSONPostProcessor.match_numbers", "7", "JSONPostProcessor.defaultValues", "NF"},
			nil, []string{"t", "t_matchNr"}, "t=NF; t_matchNr=3"},
		{"not found", []string{"JSONPostProcessor.referenceNames", "x", "JSONPostProcessor.jsonPathExprs", "$.nope",
			"JSONPostProcessor.match_numbers", "1", "JSONPostProcessor.defaultValues", "NF"},
			nil, []string{"x", "x_matchNr"}, "x=NF; x_matchNr=0"},
		{"null is the default", []string{"JSONPostProcessor.referenceNames", "x", "JSONPostProcessor.jsonPathExprs", "$.n",
			"JSONPostProcessor.match_numbers", "1", "JSONPostProcessor.defaultValues", "D"},
			nil, []string{"x"}, "x=D"},
		{"object as json-smart writes it", []string{"JSONPostProcessor.referenceNames", "o", "JSONPostProcessor.jsonPathExprs", "$.store.book[0]",
			"JSONPostProcessor.match_numbers", "1"},
			nil, []string{"o"}, `o={"category":"reference","title":"Sayings","author":"Nigel Rees","price":8.95,"url":"http:\/\/a\/b"}`},
		{"array", []string{"JSONPostProcessor.referenceNames", "o", "JSONPostProcessor.jsonPathExprs", "$.store.book[*].isbn",
			"JSONPostProcessor.match_numbers", "-1"},
			nil, []string{"o_1", "o_2"}, `o_1=0-553; o_2=0-395`},
		{"functions give the default, as in JMeter 5.6", []string{"JSONPostProcessor.referenceNames", "n", "JSONPostProcessor.jsonPathExprs", "$.store.book.length()",
			"JSONPostProcessor.match_numbers", "1", "JSONPostProcessor.defaultValues", "D"},
			nil, []string{"n"}, "n=D"},
		{"variable scope", []string{"JSONPostProcessor.referenceNames", "v", "JSONPostProcessor.jsonPathExprs", "$.a", "Sample.scope", "variable", "Scope.variable", "src"},
			map[string]string{"src": `{"a":"b"}`}, []string{"v"}, "v=b"},
		{"not JSON", []string{"JSONPostProcessor.referenceNames", "v", "JSONPostProcessor.jsonPathExprs", "$.a", "JSONPostProcessor.defaultValues", "D",
			"Sample.scope", "variable", "Scope.variable", "src"},
			map[string]string{"src": `<html>`}, []string{"v"}, "v=D"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			vu := runPost(t, elementtest.El("JSONPostProcessor", tc.props...), BuildJSON, elementtest.Response(storeJSON), tc.pre)
			if got := elementtest.Vars(vu, tc.check...); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestJSONExtractorRandomAndMismatch(t *testing.T) {
	vu := runPost(t, elementtest.El("JSONPostProcessor", "JSONPostProcessor.referenceNames", "t", "JSONPostProcessor.jsonPathExprs", "$..title"),
		BuildJSON, elementtest.Response(storeJSON), nil)
	if v, _ := vu.Vars.Get("t"); !strings.Contains("Sayings Sword Moby Dick", v) || v == "" {
		t.Errorf("random title %q", v)
	}
	c := elementtest.New(nil, "", "")
	_, err := BuildJSON(c, elementtest.El("JSONPostProcessor", "JSONPostProcessor.referenceNames", "a;b", "JSONPostProcessor.jsonPathExprs", "$.a"))
	if err == nil || !strings.Contains(err.Error(), "Mismatch between number of variables") {
		t.Errorf("err = %v", err)
	}
}

func TestPluginJSONExtractor(t *testing.T) {
	vu := runPost(t, elementtest.El("com.atlantbh.jmeter.plugins.jsonutils.jsonpathextractor.JSONPathExtractor",
		"VAR", "t", "JSONPATH", "$..title", "DEFAULT", "D", "SUBJECT", "BODY"), BuildPluginJSON, elementtest.Response(storeJSON), nil)
	if got := elementtest.Vars(vu, "t", "t_matchNr", "t_3"); got != `t=["Sayings","Sword","Moby Dick"]; t_matchNr=3; t_3=Moby Dick` {
		t.Errorf("got %s", got)
	}
	vu = runPost(t, elementtest.El("com.atlantbh.jmeter.plugins.jsonutils.jsonpathextractor.JSONPathExtractor",
		"VAR", "n", "JSONPATH", "$.store.book.length()", "SUBJECT", "BODY"), BuildPluginJSON, elementtest.Response(storeJSON), nil)
	if got := elementtest.Vars(vu, "n"); got != "n=3" {
		t.Errorf("got %s", got)
	}
	vu = runPost(t, elementtest.El("com.atlantbh.jmeter.plugins.jsonutils.jsonpathextractor.JSONPathExtractor",
		"VAR", "p", "JSONPATH", "$.big", "SUBJECT", "BODY"), BuildPluginJSON, elementtest.Response(storeJSON), nil)
	if got := elementtest.Vars(vu, "p"); got != "p=10000000000.0" {
		t.Errorf("got %s", got)
	}
	vu = runPost(t, elementtest.El("com.atlantbh.jmeter.plugins.jsonutils.jsonpathextractor.JSONPathExtractor",
		"VAR", "m", "JSONPATH", "$.missing", "DEFAULT", "D", "SUBJECT", "BODY"), BuildPluginJSON, elementtest.Response(storeJSON), map[string]string{"m_1": "old"})
	if got := elementtest.Vars(vu, "m", "m_matchNr", "m_1"); got != "m=D; m_matchNr=0; m_1 unset" {
		t.Errorf("got %s", got)
	}
}

// With the input format YAML the jp@gc extractor reads the body as YAML,
// into the tree its JSONPath walks.
func TestPluginJSONExtractorYAML(t *testing.T) {
	const body = "store:\n  book:\n    - title: Sayings\n      price: 8.95\n    - title: Sword\n      price: 12\n"
	const class = "com.atlantbh.jmeter.plugins.jsonutils.jsonpathextractor.JSONPathExtractor"
	for _, tc := range []struct {
		path, body string
		check      []string
		want       string
	}{
		{"$..title", body, []string{"t", "t_matchNr", "t_2"}, `t=["Sayings","Sword"]; t_matchNr=2; t_2=Sword`},
		{"$.store.book[0].price", body, []string{"t"}, "t=8.95"},
		{"$.store.book[1].price", body, []string{"t"}, "t=12"},
		{"$.store.book.length()", body, []string{"t"}, "t=2"},
		{"$.missing", body, []string{"t", "t_matchNr"}, "t=D; t_matchNr=0"},
		{"$.a", "a: [1, 2", []string{"t", "t_matchNr"}, "t=D; t_matchNr=0"},
	} {
		vu := runPost(t, elementtest.El(class, "VAR", "t", "JSONPATH", tc.path, "DEFAULT", "D", "SUBJECT", "BODY", "INPUT_FORMAT", "YAML"),
			BuildPluginJSON, elementtest.Response(tc.body), nil)
		if got := elementtest.Vars(vu, tc.check...); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.path, got, tc.want)
		}
	}
	c := elementtest.New(nil, "", "")
	if _, err := BuildPluginJSON(c, elementtest.El(class, "VAR", "t", "JSONPATH", "$", "INPUT_FORMAT", "TOML")); err == nil ||
		!strings.Contains(err.Error(), `input format "TOML" is unknown (JSON or YAML)`) {
		t.Errorf("an unknown input format: %v", err)
	}
}
