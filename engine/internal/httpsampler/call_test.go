package httpsampler

import (
	"testing"

	"github.com/gojm/gojm/engine/httpx"
)

// queryString and sentCookies are what JMeter's HTTPSampleResult keeps of
// a request for its sampler data.
func TestSentRequest(t *testing.T) {
	parts := []httpx.Part{{Data: []byte("--b\r\nContent-Disposition: form-data; name=\"安\"\r\n\r\nv\r\n--b\r\n\r\n")}, {File: "/x/up.txt"}, {Data: []byte("\r\n--b--\r\n")}}
	for _, tt := range []struct {
		name string
		req  httpx.Request
		want string
	}{
		{"a body", httpx.Request{URL: "http://h/?q=1", Body: []byte("a=b")}, "a=b"},
		{"not the URL's query", httpx.Request{URL: "http://h/p?q=1&r=2#f"}, ""},
		{"none", httpx.Request{URL: "http://h/p"}, ""},
		{"multipart, a file hidden", httpx.Request{URL: "http://h/", Parts: parts},
			"--b\r\nContent-Disposition: form-data; name=\"安\"\r\n\r\nv\r\n--b\r\n\r\n<actual file content, not shown here>\r\n--b--\r\n"},
	} {
		if got := queryString(&tt.req); got != tt.want {
			t.Errorf("%s: query %q, want %q", tt.name, got, tt.want)
		}
	}
	plan := &httpx.Request{Header: []httpx.Header{{Name: "cookie", Value: "a=1"}}}
	if got := sentCookies(plan, &httpx.Result{}); got != "a=1" {
		t.Errorf("the plan's Cookie header: %q", got)
	}
	if got := sentCookies(plan, &httpx.Result{Cookies: "m=2"}); got != "m=2" {
		t.Errorf("the Cookie Manager's: %q", got)
	}
}
