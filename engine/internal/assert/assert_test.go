package assert

import (
	"strings"
	"testing"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/elementtest"
	"github.com/gojm/gojm/jmx"
	"github.com/gojm/gojm/report"
)

func runAssert(t *testing.T, e *jmx.Element, build func(element.Builder, *jmx.Element) (element.Assertion, error), r *element.Result, pre map[string]string) *element.Result {
	t.Helper()
	a, vu := elementtest.Build(t, build, e)
	for k, v := range pre {
		vu.Vars.Put(k, v)
	}
	a.Assert(vu, r)
	return r
}

type assertCase struct {
	name    string
	body    string
	props   []string
	pre     map[string]string
	success bool
	msg     string
}

func runAssertCases(t *testing.T, class string, build func(element.Builder, *jmx.Element) (element.Assertion, error), cases []assertCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := runAssert(t, elementtest.El(class, tc.props...), build, elementtest.Response(tc.body), tc.pre)
			if r.Success != tc.success || r.FailureMessage != tc.msg {
				t.Errorf("success=%v message=%q\nwant success=%v message=%q", r.Success, r.FailureMessage, tc.success, tc.msg)
			}
			if len(r.Assertions) != 1 || r.Assertions[0].Name != class {
				t.Errorf("assertion results = %+v", r.Assertions)
			}
		})
	}
}

func TestResponseAssertion(t *testing.T) {
	const data = "Assertion.response_data"
	runAssertCases(t, "ResponseAssertion", BuildResponse, []assertCase{
		{"contains passes", "Hello World", []string{"Assertion.test_field", data, "Assertion.test_type", "2", "Asserion.test_strings", elementtest.Strs("W.rld")}, nil, true, ""},
		{"contains fails", "Hello World", []string{"Assertion.test_field", data, "Assertion.test_type", "2", "Asserion.test_strings", elementtest.Strs("Hello", "foo")}, nil,
			false, "Test failed: text expected to contain /foo/"},
		{"not contains fails", "Hello World", []string{"Assertion.test_field", data, "Assertion.test_type", "6", "Asserion.test_strings", elementtest.Strs("World")}, nil,
			false, "Test failed: text expected not to contain /World/"},
		{"matches is anchored", "Hello World", []string{"Assertion.test_field", data, "Assertion.test_type", "1", "Asserion.test_strings", elementtest.Strs("World")}, nil,
			false, "Test failed: text expected to match /World/"},
		{"matches passes", "Hello World", []string{"Assertion.test_field", data, "Assertion.test_type", "1", "Asserion.test_strings", elementtest.Strs("Hello.*")}, nil, true, ""},
		{"equals shows the difference", "Hello World", []string{"Assertion.test_field", data, "Assertion.test_type", "8", "Asserion.test_strings", elementtest.Strs("Hello Moon")}, nil,
			false, "Test failed: text expected to equal /\n\n****** received  : Hello [[[World]]]\n\n****** comparison: Hello [[[Moon ]]]\n\n/"},
		{"equals with a common tail", "abcXYZdef", []string{"Assertion.test_field", data, "Assertion.test_type", "8", "Asserion.test_strings", elementtest.Strs("abcQdef")}, nil,
			false, "Test failed: text expected to equal /\n\n****** received  : abc[[[XYZ]]]def\n\n****** comparison: abc[[[Q  ]]]def\n\n/"},
		{"not equals", "x", []string{"Assertion.test_field", data, "Assertion.test_type", "12", "Asserion.test_strings", elementtest.Strs("x")}, nil,
			false, "Test failed: text expected not to equal /\n\n****** received  : x[[[]]]\n\n****** comparison: x[[[]]]\n\n/"},
		{"substring is literal", "a.c", []string{"Assertion.test_field", data, "Assertion.test_type", "16", "Asserion.test_strings", elementtest.Strs("a.c", "b")}, nil,
			false, "Test failed: text expected to contain /b/"},
		{"or: one passing is enough", "abc", []string{"Assertion.test_field", data, "Assertion.test_type", "48", "Asserion.test_strings", elementtest.Strs("x", "b")}, nil, true, ""},
		{"or: all failing, JMeter's odd wording", "abc", []string{"Assertion.test_field", data, "Assertion.test_type", "48", "Asserion.test_strings", elementtest.Strs("x", "y")}, nil,
			false, "Test failed: text expected something using /x/\tTest failed: text expected something using /y/\t"},
		{"custom message", "abc", []string{"Assertion.test_field", data, "Assertion.test_type", "16", "Asserion.test_strings", elementtest.Strs("zzz"), "Assertion.custom_message", "no ${w}"},
			map[string]string{"w": "zzz"}, false, "no zzz"},
		{"empty body", "", []string{"Assertion.test_field", data, "Assertion.test_type", "2", "Asserion.test_strings", elementtest.Strs("a")}, nil, false, "Response was null"},
		{"empty body, not", "", []string{"Assertion.test_field", data, "Assertion.test_type", "6", "Asserion.test_strings", elementtest.Strs("a")}, nil, true, ""},
		{"code", "", []string{"Assertion.test_field", "Assertion.response_code", "Assertion.test_type", "8", "Asserion.test_strings", elementtest.Strs("201")}, nil,
			false, "Test failed: code expected to equal /\n\n****** received  : 20[[[0]]]\n\n****** comparison: 20[[[1]]]\n\n/"},
		{"message", "", []string{"Assertion.test_field", "Assertion.response_message", "Assertion.test_type", "2", "Asserion.test_strings", elementtest.Strs("^OK$")}, nil, true, ""},
		{"headers", "", []string{"Assertion.test_field", "Assertion.response_headers", "Assertion.test_type", "16", "Asserion.test_strings", elementtest.Strs("Content-Type: text/html\n")}, nil, true, ""},
		{"request headers", "", []string{"Assertion.test_field", "Assertion.request_headers", "Assertion.test_type", "16", "Asserion.test_strings", elementtest.Strs("Accept: text")}, nil,
			false, "Test failed: request headers expected to contain /Accept: text/"},
		{"URL by default", "", []string{"Assertion.test_type", "16", "Asserion.test_strings", elementtest.Strs("/logout")}, nil,
			false, "Test failed: URL expected to contain //logout/"},
		{"variable", "", []string{"Assertion.test_type", "8", "Asserion.test_strings", elementtest.Strs("b"), "Assertion.scope", "variable", "Scope.variable", "x"},
			map[string]string{"x": "a"}, false, "Test failed: variable(x) expected to equal /\n\n****** received  : [[[a]]]\n\n****** comparison: [[[b]]]\n\n/"},
		{"pattern from a variable", "id=42", []string{"Assertion.test_field", data, "Assertion.test_type", "2", "Asserion.test_strings", elementtest.Strs("id=${n}")},
			map[string]string{"n": "4\\d"}, true, ""},
		{"bad pattern at run time", "abc", []string{"Assertion.test_field", data, "Assertion.test_type", "2", "Asserion.test_strings", elementtest.Strs("*global*")}, nil,
			false, "Bad test configuration org.apache.oro.text.MalformedCachePatternException: Invalid expression: *global*\nregular expression \"*global*\": error parsing regexp: missing argument to repetition operator: `*`"},
	})
}

func TestResponseAssertionAssumeSuccess(t *testing.T) {
	for _, assume := range []bool{false, true} {
		r := elementtest.Response("not found")
		r.Code, r.Success = "404", false
		e := elementtest.El("ResponseAssertion", "Assertion.test_field", "Assertion.response_code", "Assertion.test_type", "8",
			"Asserion.test_strings", elementtest.Strs("404"), "Assertion.assume_success", map[bool]string{false: "false", true: "true"}[assume])
		runAssert(t, e, BuildResponse, r, nil)
		if r.Success != assume {
			t.Errorf("assume_success=%v: success=%v", assume, r.Success)
		}
	}
}

// "Document (text)" tests the text JMeter's Tika extracts from a text
// document (HTML's text, not its markup), with a warning that binary
// documents are not extracted.
func TestResponseAssertionDocument(t *testing.T) {
	const doc = "Assertion.response_data_as_document"
	page := "<html><head><title>T</title></head><body><p>Hello <b>big</b> world</p></body></html>"
	runAssertCases(t, "ResponseAssertion", BuildResponse, []assertCase{
		{"HTML's text", page, []string{"Assertion.test_field", doc, "Assertion.test_type", "16", "Asserion.test_strings", elementtest.Strs("Hello big world")}, nil, true, ""},
		{"not its markup", page, []string{"Assertion.test_field", doc, "Assertion.test_type", "16", "Asserion.test_strings", elementtest.Strs("<b>")}, nil,
			false, "Test failed: document expected to contain /<b>/"},
		{"JSON as it is", `{"ok": true}`, []string{"Assertion.test_field", doc, "Assertion.test_type", "8", "Asserion.test_strings", elementtest.Strs(`{"ok": true}`)}, nil, true, ""},
	})
	c := elementtest.New(nil, "", "")
	if _, err := BuildResponse(c, elementtest.El("ResponseAssertion", "Assertion.test_field", doc)); err != nil {
		t.Fatal(err)
	}
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "a binary document (PDF, Office, images) is not extracted") {
		t.Errorf("warnings %q", c.Warnings)
	}
}

func TestResponseAssertionRefusesLookaround(t *testing.T) {
	c := elementtest.New(nil, "", "")
	_, err := BuildResponse(c, elementtest.El("ResponseAssertion", "Assertion.test_field", "Assertion.response_data", "Assertion.test_type", "2",
		"Asserion.test_strings", elementtest.Strs("a(?!b)")))
	if err == nil || !strings.Contains(err.Error(), "look-ahead") {
		t.Errorf("err = %v", err)
	}
}

func TestFirstMessageWinsAndFailedSamplesStillGetIt(t *testing.T) {
	// A 500 that also fails an assertion: JMeter's failureMessage is the
	// assertion's, although the sample had failed already.
	r := elementtest.Response("oops")
	r.Code, r.Success = "500", false
	c := elementtest.New(nil, "", "")
	vu := c.VU(1)
	a1, _ := BuildResponse(c, elementtest.El("ResponseAssertion", "Assertion.test_field", "Assertion.response_code", "Assertion.test_type", "8", "Asserion.test_strings", elementtest.Strs("200")))
	a2, _ := BuildResponse(c, elementtest.El("ResponseAssertion", "Assertion.test_field", "Assertion.response_data", "Assertion.test_type", "16", "Asserion.test_strings", elementtest.Strs("ok")))
	a1.Assert(vu, r)
	a2.Assert(vu, r)
	want := "Test failed: code expected to equal /\n\n****** received  : [[[5]]]00\n\n****** comparison: [[[2]]]00\n\n/"
	if r.FailureMessage != want || len(r.Assertions) != 2 || !r.Assertions[1].Failure {
		t.Errorf("message %q, results %+v", r.FailureMessage, r.Assertions)
	}
}

func TestSubSampleScope(t *testing.T) {
	r := elementtest.Response("parent")
	r.Sub = []*report.Sample{{Label: "req-0", Code: "302", Success: true}, {Label: "req-1", Code: "500", Success: true}}
	e := elementtest.El("ResponseAssertion", "Assertion.test_field", "Assertion.response_code", "Assertion.test_type", "16",
		"Asserion.test_strings", elementtest.Strs("30"), "Assertion.scope", "children")
	runAssert(t, e, BuildResponse, r, nil)
	if !r.Sub[0].Success || r.Sub[1].Success || r.Sub[1].FailureMessage != "Test failed: code expected to contain /30/" {
		t.Errorf("subs: %+v %+v", *r.Sub[0], *r.Sub[1])
	}
	if r.Success || r.FailureMessage != "One or more sub-samples failed" {
		t.Errorf("parent: success=%v message=%q", r.Success, r.FailureMessage)
	}
}

func TestDurationAssertion(t *testing.T) {
	runAssertCases(t, "DurationAssertion", BuildDuration, []assertCase{
		{"within", "", []string{"DurationAssertion.duration", "2000"}, nil, true, ""},
		{"too long", "", []string{"DurationAssertion.duration", "1000"}, nil, false,
			"The operation lasted too long: It took 1,500 milliseconds, but should not have lasted longer than 1,000 milliseconds."},
		{"blank", "", []string{"DurationAssertion.duration", ""}, nil, true, ""},
	})
}

func TestSizeAssertion(t *testing.T) {
	runAssertCases(t, "SizeAssertion", BuildSize, []assertCase{
		{"network size less than", "abc", []string{"SizeAssertion.size", "2000", "SizeAssertion.operator", "4"}, nil, true, ""},
		{"network size equal fails", "abc", []string{"SizeAssertion.size", "5000", "SizeAssertion.operator", "1"}, nil, false,
			"The result was the wrong size: It was 103 bytes, but should have been equal to 5,000 bytes."},
		{"code length", "", []string{"Assertion.test_field", "SizeAssertion.response_code", "SizeAssertion.size", "3", "SizeAssertion.operator", "2"}, nil, false,
			"The result was the wrong size: It was 3 bytes, but should have not been equal to 3 bytes."},
		{"no operator", "", []string{"SizeAssertion.size", "3"}, nil, false,
			"The result was the wrong size: It was 100 bytes, but should have ERROR - invalid condition 3 bytes."},
		{"variable", "", []string{"Assertion.scope", "variable", "Scope.variable", "n", "SizeAssertion.size", "3", "SizeAssertion.operator", "5"},
			map[string]string{"n": "x"}, false, "Error parsing variable name: n value: x"},
		{"bad size", "", []string{"SizeAssertion.size", "big", "SizeAssertion.operator", "1"}, nil, false,
			`java.lang.NumberFormatException: For input string: "big"`},
	})
}

func TestMD5AndXMLAssertions(t *testing.T) {
	runAssertCases(t, "MD5HexAssertion", BuildMD5, []assertCase{
		{"match, any case", "abc", []string{"MD5HexAssertion.size", "900150983CD24FB0D6963F7D28E17F72"}, nil, true, ""},
		{"mismatch", "abd", []string{"MD5HexAssertion.size", "900150983cd24fb0d6963f7d28e17f72"}, nil, false,
			"Error asserting MD5 sum : got 4911e516e5aa21d327512e0c8b197616 but should have been 900150983cd24fb0d6963f7d28e17f72"},
		{"empty", "", []string{"MD5HexAssertion.size", "x"}, nil, false, "Response was null"},
	})
	runAssertCases(t, "XMLAssertion", BuildXML, []assertCase{
		{"well-formed", "<a><b/></a>", nil, nil, true, ""},
		{"prolog", "hello", nil, nil, false, "Content is not allowed in prolog."},
		{"two roots", "<a/><b/>", nil, nil, false, "The markup in the document following the root element must be well-formed."},
	})
}
