package response

import (
	"testing"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/report"
)

// RequestData is JMeter's getSamplerData: HTTPSampleResult's for an HTTP
// sample, the sampler's own for another.
func TestRequestData(t *testing.T) {
	tests := []struct {
		name        string
		url         string
		sent        element.Sent
		samplerData string
		want        string
	}{
		{"a GET with the Cookie Manager's cookies", "http://localhost:8081/", element.Sent{Method: "GET", Cookies: "a=1; b=2"}, "",
			"GET http://localhost:8081/\n\nGET data:\n\n\nCookie Data:\na=1; b=2\n"},
		{"a POST without cookies", "http://h/p?x=1", element.Sent{Method: "POST", Query: "name=value"}, "",
			"POST http://h/p?x=1\n\nPOST data:\nname=value\n\n[no cookies]\n"},
		{"a HEAD has no data", "http://h/", element.Sent{Method: "HEAD"}, "", "HEAD http://h/\n\n[no cookies]\n"},
		{"a JDBC request", "", element.Sent{}, "[Select Statement] select 1", "[Select Statement] select 1"},
		{"nothing sent", "", element.Sent{}, "", ""},
	}
	for _, tt := range tests {
		r := &element.Result{Sample: report.Sample{URL: tt.url}, Sent: tt.sent, SamplerData: tt.samplerData}
		v := Main(r)
		if got := RequestData(&v); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
	// a sub-sample has none
	if got := RequestData(&View{Sample: &report.Sample{URL: "http://h/"}}); got != "" {
		t.Errorf("a sub-sample: %q", got)
	}
}
