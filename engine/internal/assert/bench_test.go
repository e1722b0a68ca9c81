package assert

import (
	"testing"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/elementtest"
	"github.com/gojm/gojm/jmx"
)

// Each assertion as a real plan uses it, on a realistic 1.5 KB body
// (elementtest.JSONBody or HTMLBody), passing:
//
//	go test -run '^$' -bench . -benchmem ./engine/internal/assert
func benchAssertion(b *testing.B, build func(element.Builder, *jmx.Element) (element.Assertion, error), e *jmx.Element, body string) {
	b.Helper()
	a, vu := elementtest.Build(b, build, e)
	r := elementtest.Response(body)
	a.Assert(vu, r)
	if !r.Success {
		b.Fatalf("the assertion failed: %s", r.FailureMessage)
	}
	b.ReportAllocs()
	for b.Loop() {
		r.Assertions, r.MsgSet = r.Assertions[:0], false
		a.Assert(vu, r)
	}
}

func BenchmarkResponseAssertionContains(b *testing.B) {
	benchAssertion(b, BuildResponse, elementtest.El("ResponseAssertion", "Assertion.test_field", "Assertion.response_data", "Assertion.test_type", "16",
		"Asserion.test_strings", elementtest.Strs(`Sign in to your account`)), elementtest.HTMLBody)
}

func BenchmarkResponseAssertionRegex(b *testing.B) {
	benchAssertion(b, BuildResponse, elementtest.El("ResponseAssertion", "Assertion.test_field", "Assertion.response_data", "Assertion.test_type", "2",
		"Asserion.test_strings", elementtest.Strs(`"status":"(ok|shipped)"`)), elementtest.JSONBody)
}

func BenchmarkResponseAssertionCode(b *testing.B) {
	benchAssertion(b, BuildResponse, elementtest.El("ResponseAssertion", "Assertion.test_field", "Assertion.response_code", "Assertion.test_type", "8",
		"Asserion.test_strings", elementtest.Strs(`200`)), elementtest.HTMLBody)
}

func BenchmarkJSONAssertion(b *testing.B) {
	benchAssertion(b, BuildJSON, elementtest.El("JSONPathAssertion", "JSON_PATH", "$.user.login", "JSONVALIDATION", "true", "ISREGEX", "false",
		"EXPECTED_VALUE", "alice"), elementtest.JSONBody)
}

func BenchmarkDurationAssertion(b *testing.B) {
	benchAssertion(b, BuildDuration, elementtest.El("DurationAssertion", "DurationAssertion.duration", "2000"), elementtest.JSONBody)
}

func BenchmarkSizeAssertion(b *testing.B) {
	benchAssertion(b, BuildSize, elementtest.El("SizeAssertion", "SizeAssertion.size", "100000", "SizeAssertion.operator", "6"), elementtest.JSONBody)
}
