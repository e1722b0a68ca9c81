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
