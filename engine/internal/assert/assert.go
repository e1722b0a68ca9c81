package assert

//lint:file-ignore ST1005 some error texts here are JMeter's (or Java's) own, word for word: they end up in results files, where plans and JMeter's users compare them

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/response"
	"github.com/gojm/gojm/jmx"
	"github.com/gojm/gojm/report"
)

// This file runs assertions the way JMeter's JMeterThread does, and holds
// the assertions that look at text and sizes: Response, Duration, Size,
// MD5Hex and XML (well-formedness).

// verdict is one assertion's outcome on one sample: JMeter's
// AssertionResult. JMeter tells a message that was never set (null) from
// an empty one, and the JTL's failureMessage is the first message set by
// any assertion of the sample — even a passing one, even an empty one.
type Verdict struct {
	Failure, Error bool
	Message        string
	MessageSet     bool
}

func Failed(msg string) Verdict  { return Verdict{Failure: true, Message: msg, MessageSet: true} }
func Errored(msg string) Verdict { return Verdict{Error: true, Message: msg, MessageSet: true} }
func passed() Verdict            { return Verdict{} }

// passedWith is a passing verdict that still carries a message (JMeter
// assertions that set an empty or informative message up front).
func passedWith(msg string) Verdict { return Verdict{Message: msg, MessageSet: true} }

// responseWasNull is AssertionResult.setResultForNull.
func responseWasNull() Verdict { return Failed("Response was null") }

// checker is the test of one assertion on one sample.
type checker interface {
	check(vu *element.VU, t response.View) Verdict
}

// assertNode is a compiled assertion: its name (for the JTL), its scope
// and its test. It implements the engine's assertion interface.
type assertNode struct {
	name  string
	scope response.ScopeKind
	check checker
	// rename is the name JMeter gives the result instead, when not "".
	rename string
}

func newAssert(c element.Builder, e *jmx.Element, ch checker) *assertNode {
	return &assertNode{name: e.Name, scope: response.ReadAssertionScope(c, e).Kind, check: ch}
}

// assertSample applies the assertion to a finished sample and, as its scope
// says, to the sub-samples, recording each verdict on the sample it judged.
func (a *assertNode) Assert(vu *element.VU, r *element.Result) {
	if a.scope != response.ScopeChildren {
		t := response.Main(r)
		v := a.check.check(vu, t)
		a.record(&r.Sample, v, &r.MsgSet)
	}
	if a.scope == response.ScopeChildren || a.scope == response.ScopeAll {
		a.recurse(vu, &r.Sample, 3, &r.MsgSet)
	}
}

// recurse judges the sub-samples of s, down to level more levels, and
// fails s when one of them failed (JMeter's "One or more sub-samples failed").
func (a *assertNode) recurse(vu *element.VU, s *report.Sample, level int, msgSet *bool) {
	if level < 0 {
		return
	}
	childFailed := false
	for _, sub := range s.Sub {
		t := response.View{Sample: sub}
		set := sub.FailureMessage != ""
		a.record(sub, a.check.check(vu, t), &set)
		a.recurse(vu, sub, level-1, &set)
		if !sub.Success {
			childFailed = true
		}
	}
	if childFailed && s.Success {
		a.record(s, Failed("One or more sub-samples failed"), msgSet)
	}
}

func (a *assertNode) record(s *report.Sample, v Verdict, msgSet *bool) {
	s.Success = s.Success && !v.Failure && !v.Error
	name := a.name
	if a.rename != "" {
		name = a.rename
	}
	if cap(s.Assertions) == 0 {
		// Plans put several assertions on a sampler: one allocation for
		// the first four results rather than one per result as append grows.
		s.Assertions = make([]report.AssertionResult, 0, 4)
	}
	s.Assertions = append(s.Assertions, report.AssertionResult{Name: name, Failure: v.Failure, Error: v.Error, Message: v.Message})
	if v.MessageSet && !*msgSet {
		s.FailureMessage = v.Message
		*msgSet = true
	}
}

// groupedInt formats n as Java's MessageFormat does in an English locale.
func groupedInt(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, ch := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(ch)
	}
	return b.String()
}

// Response Assertion ---------------------------------------------------

// Assertion.test_type bits.
const (
	rtMatch     = 1
	rtContains  = 1 << 1
	rtNot       = 1 << 2
	rtEquals    = 1 << 3
	rtSubstring = 1 << 4
	rtOr        = 1 << 5
)

type responseAssertion struct {
	scope      response.Scope
	field      response.Field
	fieldName  string // as failure messages name it
	testType   int
	patterns   []*element.Template
	regexes    []*response.RegexField // for contains and matches
	assume     bool
	custom     *element.Template
	diffLen    int
	deltaStart string
	deltaEnd   string
}

func BuildResponse(c element.Builder, e *jmx.Element) (element.Assertion, error) {
	a := &responseAssertion{
		scope:      response.ReadAssertionScope(c, e),
		testType:   jmx.Int(e.Str("Assertion.test_type"), rtContains),
		assume:     e.Bool("Assertion.assume_success", false),
		custom:     c.Prop(e, "Assertion.custom_message"),
		diffLen:    100,
		deltaStart: "[[[",
		deltaEnd:   "]]]",
	}
	if !e.Has("Assertion.test_type") {
		a.testType = rtContains
	}
	if v, ok := c.Plan().Props.Get("assertion.equals_section_diff_len"); ok {
		a.diffLen = jmx.Int(v, 100)
	}
	if v, ok := c.Plan().Props.Get("assertion.equals_diff_delta_start"); ok {
		a.deltaStart = v
	}
	if v, ok := c.Plan().Props.Get("assertion.equals_diff_delta_end"); ok {
		a.deltaEnd = v
	}
	switch e.Str("Assertion.test_field") {
	case "Assertion.response_data":
		a.field, a.fieldName = response.FieldBody, "text"
	case "Assertion.response_data_as_document":
		a.field, a.fieldName = response.FieldBodyDocument, "document"
		c.Warn(e, "the field \"Document (text)\": gojm tests the text of text documents (HTML's text, XML's character data, JSON and plain text as they are), "+
			"as JMeter's Apache Tika extracts it; a binary document (PDF, Office, images) is not extracted, and reads as JMeter's message for a document without text")
	case "Assertion.response_code":
		a.field, a.fieldName = response.FieldCode, "code"
	case "Assertion.response_message":
		a.field, a.fieldName = response.FieldMessage, "message"
	case "Assertion.request_headers":
		a.field, a.fieldName = response.FieldRequestHeaders, "request headers"
	case "Assertion.request_data":
		a.field, a.fieldName = response.FieldRequestData, "request data"
	case "Assertion.response_headers":
		a.field, a.fieldName = response.FieldHeaders, "headers"
	default: // Assertion.sample_label and anything else: the URL
		a.field, a.fieldName = response.FieldURL, "URL"
	}
	if a.scope.Kind == response.ScopeVariable {
		a.fieldName = "" // computed per sample from the variable's name
	}
	regex := a.testType&(rtContains|rtEquals|rtSubstring) == 0 || a.testType&rtContains != 0
	for _, p := range e.Prop("Asserion.test_strings").Members() {
		t := c.Template(e, "test string", p.Value)
		a.patterns = append(a.patterns, t)
		if regex {
			rf, err := response.NewRegexField(t, a.testType&rtContains == 0)
			if err != nil {
				return nil, err
			}
			a.regexes = append(a.regexes, rf)
		}
	}
	n := newAssert(c, e, a)
	return n, nil
}

func (a *responseAssertion) check(vu *element.VU, t response.View) Verdict {
	if a.assume {
		t.Sample.Success = true
	}
	var toCheck string
	var isSet bool
	if a.scope.Kind == response.ScopeVariable {
		toCheck, isSet = vu.Vars.Get(a.scope.Var.Eval(vu))
		_ = isSet
	} else if a.field == response.FieldRequestData {
		toCheck = response.RequestData(&t)
	} else {
		toCheck = t.Text(a.field)
	}
	not := a.testType&rtNot != 0
	or := a.testType&rtOr != 0
	if toCheck == "" {
		if not {
			return passed()
		}
		return responseWasNull()
	}
	var orMsgs []string
	for i, pt := range a.patterns {
		pattern := pt.Eval(vu)
		var found bool
		switch {
		case a.testType&rtContains != 0, a.testType&(rtEquals|rtSubstring) == 0:
			re, p, err := a.regexes[i].Get(vu)
			if err != nil {
				return Errored("Bad test configuration org.apache.oro.text.MalformedCachePatternException: Invalid expression: " + p + "\n" + err.Error())
			}
			found = re.MatchString(toCheck)
		case a.testType&rtEquals != 0:
			found = toCheck == pattern
		default:
			found = strings.Contains(toCheck, pattern)
		}
		pass := found != not
		if or {
			if pass {
				return passed()
			}
			orMsgs = append(orMsgs, a.failText(vu, pattern, toCheck))
			continue
		}
		if !pass {
			if msg := a.custom.Eval(vu); msg != "" {
				return Failed(msg)
			}
			return Failed(a.failText(vu, pattern, toCheck))
		}
	}
	if or && len(a.patterns) > 0 {
		if msg := a.custom.Eval(vu); msg != "" {
			return Failed(msg)
		}
		return Failed(strings.Join(orMsgs, "\t") + "\t")
	}
	return passed()
}

// failText is JMeter's "Test failed: text expected to contain /foo/".
func (a *responseAssertion) failText(vu *element.VU, pattern, toCheck string) string {
	var b strings.Builder
	b.WriteString("Test failed: ")
	if a.scope.Kind == response.ScopeVariable {
		b.WriteString("variable(" + a.scope.Var.Eval(vu) + ")")
	} else {
		b.WriteString(a.fieldName)
	}
	switch a.testType {
	case rtContains, rtSubstring:
		b.WriteString(" expected to contain ")
	case rtNot | rtContains, rtNot | rtSubstring:
		b.WriteString(" expected not to contain ")
	case rtMatch:
		b.WriteString(" expected to match ")
	case rtNot | rtMatch:
		b.WriteString(" expected not to match ")
	case rtEquals:
		b.WriteString(" expected to equal ")
	case rtNot | rtEquals:
		b.WriteString(" expected not to equal ")
	default:
		b.WriteString(" expected something using ")
	}
	b.WriteByte('/')
	if a.testType&rtEquals != 0 {
		b.WriteString(a.equalsDiff(toCheck, pattern))
	} else {
		b.WriteString(pattern)
	}
	b.WriteByte('/')
	return b.String()
}

// equalsDiff is JMeter's comparison text for a failed Equals: the common
// head and tail around the differing middle of each string, each section
// cut to assertion.equals_section_diff_len characters.
func (a *responseAssertion) equalsDiff(received, comparison string) string {
	rec, cmp := []rune(received), []rune(comparison)
	trunc := func(right bool, s []rune) string {
		if len(s) <= a.diffLen {
			return string(s)
		}
		if right {
			return string(s[:a.diffLen]) + "..."
		}
		return "..." + string(s[len(s)-a.diffLen:])
	}
	first := 0
	for first < len(rec) && first < len(cmp) && rec[first] == cmp[first] {
		first++
	}
	head := ""
	if first > 0 {
		head = trunc(false, rec[:first])
	}
	lastRec, lastCmp := len(rec)-1, len(cmp)-1
	for lastRec > first && lastCmp > first && rec[lastRec] == cmp[lastCmp] {
		lastRec--
		lastCmp--
	}
	tail := trunc(true, rec[lastRec+1:])
	var recDelta, cmpDelta string
	if tail == "" {
		recDelta, cmpDelta = trunc(true, rec[first:]), trunc(true, cmp[first:])
	} else {
		recDelta, cmpDelta = trunc(true, rec[first:lastRec+1]), trunc(true, cmp[first:lastCmp+1])
	}
	rl, cl := len([]rune(recDelta)), len([]rune(cmpDelta))
	if rl > cl {
		cmpDelta += strings.Repeat(" ", rl-cl)
	} else {
		recDelta += strings.Repeat(" ", cl-rl)
	}
	return "\n\n****** received  : " + head + a.deltaStart + recDelta + a.deltaEnd + tail +
		"\n\n****** comparison: " + head + a.deltaStart + cmpDelta + a.deltaEnd + tail + "\n\n"
}

// Duration Assertion ---------------------------------------------------

type durationAssertion struct{ max *element.Template }

func BuildDuration(c element.Builder, e *jmx.Element) (element.Assertion, error) {
	return newAssert(c, e, &durationAssertion{max: c.Prop(e, "DurationAssertion.duration")}), nil
}

func (d *durationAssertion) check(vu *element.VU, t response.View) Verdict {
	max, err := strconv.ParseInt(strings.TrimSpace(d.max.Eval(vu)), 10, 64)
	if err != nil || max <= 0 {
		return passed()
	}
	took := t.Sample.Elapsed.Milliseconds()
	if took > max {
		return Failed("The operation lasted too long: It took " + groupedInt(took) +
			" milliseconds, but should not have lasted longer than " + groupedInt(max) + " milliseconds.")
	}
	return passed()
}

// Size Assertion -------------------------------------------------------

type sizeAssertion struct {
	scope response.Scope
	what  string
	size  *element.Template
	op    int
}

// sizeOps are the Size Assertion's operators, 1-based, with the words of
// JMeter's failure message.
var sizeOps = [...]string{"", "been equal to", "not been equal to", "been greater than", "been less than",
	"been greater or equal to", "been less than or equal to"}

func BuildSize(c element.Builder, e *jmx.Element) (element.Assertion, error) {
	s := &sizeAssertion{
		scope: response.ReadAssertionScope(c, e),
		what:  e.Str("Assertion.test_field"),
		size:  c.Prop(e, "SizeAssertion.size"),
		op:    jmx.Int(e.Str("SizeAssertion.operator"), 0),
	}
	return newAssert(c, e, s), nil
}

func (s *sizeAssertion) check(vu *element.VU, t response.View) Verdict {
	var got int64
	if s.scope.Kind == response.ScopeVariable {
		name := s.scope.Var.Eval(vu)
		v, ok := vu.Vars.Get(name)
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			if !ok {
				v = "null"
			}
			return Failed("Error parsing variable name: " + name + " value: " + v)
		}
		got = n
	} else {
		switch s.what {
		case "SizeAssertion.response_headers":
			got = t.HeadersSize()
		case "SizeAssertion.response_data":
			got = t.BodySize()
		case "SizeAssertion.response_code":
			got = int64(len([]rune(t.Sample.Code)))
		case "SizeAssertion.response_message":
			got = int64(len([]rune(t.Sample.Message)))
		default:
			got = t.Sample.Bytes
		}
	}
	raw := s.size.Eval(vu)
	want, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		v := Errored(fmt.Sprintf("java.lang.NumberFormatException: For input string: %q", raw))
		return v
	}
	var ok bool
	switch s.op {
	case 1:
		ok = got == want
	case 2:
		ok = got != want
	case 3:
		ok = got > want
	case 4:
		ok = got < want
	case 5:
		ok = got >= want
	case 6:
		ok = got <= want
	}
	if ok {
		return passed()
	}
	words := "ERROR - invalid condition"
	if s.op >= 1 && s.op <= 6 {
		words = sizeOps[s.op]
	}
	return Failed("The result was the wrong size: It was " + groupedInt(got) + " bytes, but should have " +
		words + " " + groupedInt(want) + " bytes.")
}

// MD5Hex Assertion -----------------------------------------------------

type md5Assertion struct{ want *element.Template }

func BuildMD5(c element.Builder, e *jmx.Element) (element.Assertion, error) {
	return newAssert(c, e, &md5Assertion{want: c.Prop(e, "MD5HexAssertion.size")}), nil
}

func (m *md5Assertion) check(vu *element.VU, t response.View) Verdict {
	if len(t.Body) == 0 {
		return responseWasNull()
	}
	want := m.want.Eval(vu)
	if want == "" {
		return Failed("MD5Hex to test against is empty")
	}
	sum := md5.Sum(t.Body)
	got := hex.EncodeToString(sum[:])
	if !strings.EqualFold(got, want) {
		return Failed("Error asserting MD5 sum : got " + got + " but should have been " + want)
	}
	return passed()
}

// XML Assertion --------------------------------------------------------

type xmlAssertion struct{}

func BuildXML(c element.Builder, e *jmx.Element) (element.Assertion, error) {
	return newAssert(c, e, xmlAssertion{}), nil
}

// check tests that the body is well-formed XML. The failure message is Go's
// parser's, not Xerces'.
func (xmlAssertion) check(_ *element.VU, t response.View) Verdict {
	if len(t.Body) == 0 {
		return responseWasNull()
	}
	if err := wellFormed(t.Body); err != nil {
		return Verdict{Failure: true, Error: true, Message: err.Error(), MessageSet: true}
	}
	return passed()
}

// wellFormed reports the first well-formedness error of an XML document.
func wellFormed(b []byte) error {
	d := xml.NewDecoder(strings.NewReader(response.BodyString(b)))
	d.Strict = true
	root := 0
	depth := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				root++
				if root > 1 {
					return errors.New("The markup in the document following the root element must be well-formed.")
				}
			}
			depth++
		case xml.EndElement:
			depth--
		case xml.CharData:
			if depth == 0 && strings.TrimSpace(string(tok)) != "" {
				if root == 0 {
					return errors.New("Content is not allowed in prolog.")
				}
				return errors.New("Content is not allowed in trailing section.")
			}
		}
	}
	if root == 0 {
		return errors.New("Premature end of file.")
	}
	if depth != 0 {
		return errors.New("XML document structures must start and end within the same entity.")
	}
	return nil
}
