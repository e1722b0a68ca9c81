package response

import (
	"net/http"
	"strconv"
	"testing"
	"unsafe"

	"github.com/gojm/gojm/engine/httpx"
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/report"
)

// The response headers field as JMeter's getResponseHeaders holds it; the
// elements reading one sample's headers share one text, made once.
func TestResponseHeaders(t *testing.T) {
	head := httpx.HeadOf(http.Header{"Set-Cookie": {"SESSION=1"}, "Content-Type": {"text/plain"}})
	for _, tc := range []struct {
		name, code, msg string
		head            httpx.Head
		want            string
	}{
		{"an HTTP response", "200", "OK", head, "HTTP/1.1 200 OK\nContent-Type: text/plain\nSet-Cookie: SESSION=1\n"},
		{"no message", "302", "", head, "HTTP/1.1 302\nContent-Type: text/plain\nSet-Cookie: SESSION=1\n"},
		{"no header", "200", "OK", httpx.Head{}, "HTTP/1.1 200 OK\n"},
		{"not an HTTP code", "Non HTTP response code: java.net.ConnectException", "refused", head, ""},
		{"no response", "", "", httpx.Head{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &element.Result{Sample: report.Sample{Code: tc.code, Message: tc.msg}, Head: tc.head}
			extractor, assertion := Main(r), Main(r)
			got := extractor.Text(FieldHeaders)
			if got != tc.want {
				t.Fatalf("headers %q, want %q", got, tc.want)
			}
			if again := assertion.ResponseHeaders(); got != "" && unsafe.StringData(again) != unsafe.StringData(got) {
				t.Error("a second element reading the headers made them again")
			}
			if n := testing.AllocsPerRun(10, func() { assertion.HeadersSize() }); n != 0 {
				t.Errorf("HeadersSize allocates %v times", n)
			}
		})
	}
}

func TestIsInt(t *testing.T) {
	for _, s := range []string{"", "200", "+200", "-1", "0", "2OO", "+-1", "--1", "+", "Non HTTP response code: x", "1 ", "99999999999999999999", "999999999999999999", "9223372036854775807", "9223372036854775808"} {
		_, err := strconv.Atoi(s)
		if got := isInt(s); got != (err == nil) {
			t.Errorf("isInt(%q) = %v, Atoi's error %v", s, got, err)
		}
	}
}

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
		{"a query made when read", "http://h/p", element.Sent{Method: "PUT", QueryOf: func() string { return "made" }}, "",
			"PUT http://h/p\n\nPUT data:\nmade\n\n[no cookies]\n"},
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
