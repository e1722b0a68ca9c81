package assert

import (
	"strconv"
	"strings"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/response"
	"github.com/gojm/gojm/jmx"
)

// Compare Assertion ----------------------------------------------------

// JMeter's messages (comparison_differ_content, comparison_differ_time and
// comparison_unit).
const (
	differContent = "Responses differ in content"
	differTime    = "Responses differ in response time by more than "
)

// compareAssertion is JMeter's CompareAssertion: each sample in its scope
// is compared with the samples before it in the same iteration of its
// controller, by content (filtered by its substitutions) and by response
// time. JMeter keeps every response of the iteration and compares each one
// with the next, stopping at the first pair that differs; so a pair that
// differed fails every later sample of the iteration, and the last
// response and two flags are all a user needs to keep.
type compareAssertion struct {
	content bool
	maxDiff int64 // ms; negative: times are not compared
	skips   []substitution
	state   *element.Local[compareState]
}

// substitution is one of the Compare Assertion's strings to skip: what
// matches the regular expression is replaced by the literal text, as ORO's
// StringSubstitution does.
type substitution struct {
	re  *response.RegexField
	sub *element.Template
}

type compareState struct {
	seen                      int
	last                      string
	lastTime                  int64
	contentDiffers, timeDiffs bool
}

// compareNode is the compiled Compare Assertion: an assertion that its
// controller also tells when an iteration starts.
type compareNode struct {
	*assertNode
	cmp *compareAssertion
}

// IterationStart forgets the iteration's responses (JMeter's iterationStart).
func (n *compareNode) IterationStart(vu *element.VU) { *n.cmp.state.Get(vu) = compareState{} }

// BuildCompare compiles a Compare Assertion.
func BuildCompare(c element.Builder, e *jmx.Element) (element.Assertion, error) {
	a := &compareAssertion{content: e.Bool("compareContent", true), maxDiff: -1}
	if s := strings.TrimSpace(e.Str("compareTime")); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, err
		}
		a.maxDiff = n
	}
	for _, m := range e.Prop("stringsToSkip").Members() {
		re, err := response.NewRegexField(c.Template(e, "regex", m.Str("regex")), false)
		if err != nil {
			return nil, err
		}
		a.skips = append(a.skips, substitution{re: re, sub: c.Template(e, "substitute", m.Str("substitute"))})
	}
	a.state = element.NewLocal(c.Plan(), func(*element.VU) *compareState { return &compareState{} })
	node := &assertNode{name: e.Name, scope: response.ScopeParent, check: a}
	return &compareNode{assertNode: node, cmp: a}, nil
}

func (a *compareAssertion) check(vu *element.VU, t *response.View) Verdict {
	st := a.state.Get(vu)
	st.seen++
	took := t.Sample.Elapsed.Milliseconds()
	var content string
	if a.content {
		var err error
		if content, err = a.filter(vu, response.BodyString(t.Body)); err != nil {
			return Errored(err.Error())
		}
	}
	if st.seen > 1 {
		if a.content && content != st.last {
			st.contentDiffers = true
		}
		if d := took - st.lastTime; a.maxDiff >= 0 && (d > a.maxDiff || -d > a.maxDiff) {
			st.timeDiffs = true
		}
	}
	if a.content {
		st.last = strings.Clone(content)
	}
	st.lastTime = took
	switch {
	case st.timeDiffs: // JMeter compares times last, and its message wins
		return Failed(differTime + strconv.FormatInt(a.maxDiff, 10) + " ms")
	case st.contentDiffers:
		return Failed(differContent)
	}
	return passed()
}

// filter applies the strings to skip to a response.
func (a *compareAssertion) filter(vu *element.VU, s string) (string, error) {
	for _, sk := range a.skips {
		re, _, err := sk.re.Get(vu)
		if err != nil {
			return "", err
		}
		s = re.ReplaceAllLiteralString(s, sk.sub.Eval(vu))
	}
	return s, nil
}
