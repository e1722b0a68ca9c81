package assert

import (
	"testing"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/elementtest"
	"github.com/gojm/gojm/jmx"
)

// compareEl is a Compare Assertion with strings to skip as regex,
// substitute pairs.
func compareEl(content, compareTime string, skips ...string) *jmx.Element {
	e := elementtest.El("CompareAssertion", "compareContent", content, "compareTime", compareTime)
	e.Name = "cmp"
	p := &jmx.Prop{Kind: "collection", Name: "stringsToSkip"}
	for i := 0; i+1 < len(skips); i += 2 {
		p.Props = append(p.Props, &jmx.Prop{Kind: "element", Props: []*jmx.Prop{
			{Kind: "string", Name: "regex", Value: skips[i]}, {Kind: "string", Name: "substitute", Value: skips[i+1]}}})
	}
	e.Props = append(e.Props, p)
	return e
}

type cmpSample struct {
	body string
	ms   int
	iter bool // an iteration starts before this sample
}

func TestCompareAssertion(t *testing.T) {
	for _, tt := range []struct {
		name    string
		el      *jmx.Element
		samples []cmpSample
		want    []string // each sample's failure message, "" for a pass
	}{
		{"same content", compareEl("true", "-1"), []cmpSample{{"a", 1, false}, {"a", 9, false}}, []string{"", ""}},
		{"content differs, and keeps failing", compareEl("true", "-1"),
			[]cmpSample{{"a", 1, false}, {"b", 1, false}, {"b", 1, false}}, []string{"", differContent, differContent}},
		{"a new iteration forgets", compareEl("true", "-1"),
			[]cmpSample{{"a", 1, false}, {"b", 1, false}, {"c", 1, true}, {"c", 1, false}}, []string{"", differContent, "", ""}},
		{"content not compared", compareEl("false", "-1"), []cmpSample{{"a", 1, false}, {"b", 1, false}}, []string{"", ""}},
		{"strings skipped", compareEl("true", "-1", `id=\d+`, "id=N", "[ \t]+", " "),
			[]cmpSample{{"id=1  x", 1, false}, {"id=22 x", 1, false}}, []string{"", ""}},
		{"times within", compareEl("false", "10"), []cmpSample{{"", 100, false}, {"", 110, false}, {"", 100, false}}, []string{"", "", ""}},
		{"times differ, its message wins", compareEl("true", "10"), []cmpSample{{"a", 100, false}, {"b", 111, false}},
			[]string{"", differTime + "10 ms"}},
		{"times differ either way", compareEl("false", "0"), []cmpSample{{"", 5, false}, {"", 4, false}}, []string{"", differTime + "0 ms"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := elementtest.New(nil, "", "")
			a, err := BuildCompare(c, tt.el)
			if err != nil || len(c.Errs) > 0 {
				t.Fatal(err, c.Errs)
			}
			vu := c.VU(1)
			for i, s := range tt.samples {
				if s.iter {
					a.(element.IterationListener).IterationStart(vu)
				}
				r := elementtest.Response(s.body)
				r.Elapsed = time.Duration(s.ms) * time.Millisecond
				a.Assert(vu, r)
				if r.FailureMessage != tt.want[i] || r.Success != (tt.want[i] == "") || len(r.Assertions) != 1 || r.Assertions[0].Name != "cmp" {
					t.Errorf("sample %d: success %v, message %q, assertions %+v; want %q", i, r.Success, r.FailureMessage, r.Assertions, tt.want[i])
				}
			}
		})
	}
}
