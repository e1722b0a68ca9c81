package httpsampler

import (
	"regexp"
	"testing"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/elementtest"
)

// The expressions built from texts known only when a sample runs are
// compiled once: a second sample gets the same ones.
func TestRegexpsCompiledOnce(t *testing.T) {
	vu := elementtest.New(nil, "", "").VU(1)
	rq := &element.Request{Protocol: element.Fixed("https"), Domain: element.Fixed("example.test"), Path: element.Fixed("/item.*"),
		Args: []element.RequestArg{{Name: element.Fixed("id"), Value: element.Fixed(".*")}}}
	for _, tc := range []struct {
		name string
		re   func() []*regexp.Regexp
	}{
		{"a link parser's fields", func() []*regexp.Regexp {
			p := patternsOf(vu, rq)
			return []*regexp.Regexp{p.protocol.re, p.domain.re, p.pathRe, p.names[0].re, p.found[0]}
		}},
		{"an expression that does not compile", func() []*regexp.Regexp { return []*regexp.Regexp{patternOf("a(").re} }},
		{"a session id's pattern", func() []*regexp.Regexp {
			return []*regexp.Regexp{(&urlRewriting{}).pattern("jsessionid")}
		}},
		{"a session id's pattern in the path", func() []*regexp.Regexp {
			return []*regexp.Regexp{(&urlRewriting{pathExt: true, noEquals: true}).pattern("sid")}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := tc.re(), tc.re()
			for i := range a {
				if a[i] != b[i] {
					t.Errorf("expression %d compiled again: %p, then %p", i, a[i], b[i])
				}
			}
		})
	}
}

// RegEx User Parameters reads the extractor's matches into the user's own
// map, cleared at each sample (the second sample's has only its own).
func TestRegexUserParametersMatches(t *testing.T) {
	b := elementtest.New(nil, "", "")
	pp, err := BuildRegexUserParameters(b, elementtest.El("RegExUserParameters",
		"RegExUserParameters.regex_ref_name", "p", "RegExUserParameters.param_names_gr_nr", "1",
		"RegExUserParameters.param_values_gr_nr", "2"))
	if err != nil {
		t.Fatal(err)
	}
	m := pp.(*regexUserParameters)
	vu := b.VU(1)
	var seen []map[string]string
	for i, tc := range []struct {
		vars map[string]string
		want map[string]string
	}{
		{map[string]string{"p_matchNr": "2", "p_1_g1": "a", "p_1_g2": "1", "p_2_g1": "b", "p_2_g2": "2"},
			map[string]string{"a": "1", "b": "2"}},
		{map[string]string{"p_matchNr": "1", "p_1_g1": "c", "p_1_g2": "3"}, map[string]string{"c": "3"}},
	} {
		for k, v := range tc.vars {
			vu.Vars.Put(k, v)
		}
		got, ok := m.matches(vu)
		if !ok || len(got) != len(tc.want) {
			t.Fatalf("sample %d: %v, %v, want %v", i+1, got, ok, tc.want)
		}
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("sample %d: %v, want %v", i+1, got, tc.want)
			}
		}
		seen = append(seen, got)
	}
	seen[1]["mark"] = "x"
	if seen[0]["mark"] != "x" {
		t.Errorf("each sample makes a map of its own")
	}
}
