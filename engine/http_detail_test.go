package engine

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gojm/gojm/jmx"
	"github.com/gojm/gojm/report"
)

// With RunOptions.Detail, every HTTP sample and sub-sample carries what
// JMeter's XML results keep of it: the response head as it came, in the
// server's order (X-Z before Date), the
// request head as it went, the body, the cookies sent, the method, the
// query string and a redirect's Location. The container of followed
// redirects takes the last response's and the first one's Location, as
// JMeter's does.
func TestHTTPSampleDetail(t *testing.T) {
	w := hNewServer(t, func(rw http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/r/1":
			rw.Header().Set("Set-Cookie", "sid=abc")
			rw.Header().Set("Location", "/r/0")
			rw.WriteHeader(http.StatusFound)
		case "/r/0":
			rw.Header().Set("X-Z", "last")
			rw.Header().Set("Content-Type", "text/plain")
			io.WriteString(rw, "landed")
		default:
			rw.Header().Set("Content-Type", "text/plain")
			rw.WriteHeader(http.StatusUnauthorized)
			io.WriteString(rw, "no")
		}
	})
	plan := hPlan(hElement("CookieManager", "cookies"), 1,
		httpSpec{name: "go", props: []string{"path", "/r/1", "follow_redirects", "true"}},
		httpSpec{name: "form", props: []string{"path", "/form?x=1", "method", "POST"}, args: []string{harg("a", "b c", true)}},
		httpSpec{name: "query", props: []string{"path", "/q?x=1", "method", "GET"}})
	src, err := jmx.Read(strings.NewReader(plan), "plan.jmx", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p, err := Compile(src, Options{Props: w.props()})
	if err != nil {
		t.Fatal(err)
	}
	sink := &memSink{}
	if err := Start(context.Background(), p, sink, RunOptions{Detail: true}).Wait(); err != nil {
		t.Fatal(err)
	}
	if len(sink.samples) != 3 || len(sink.samples[0].Sub) != 2 {
		t.Fatalf("%d samples, want 3, the first with 2 sub-samples", len(sink.samples))
	}
	host := w.hostPort()
	// as sent: what HttpClient 4 adds where the plan sets none is there too
	const ua, ka = "User-Agent: Apache-HttpClient/4.5.14 (Java/17)\n", "Connection: keep-alive\n"
	for _, tc := range []struct {
		name string
		s    *report.Sample
		want report.Detail
	}{
		{"first hop", sink.samples[0].Sub[0], report.Detail{
			ResponseHeaders: "HTTP/1.1 302 Found\nLocation: /r/0\nSet-Cookie: sid=abc\nDate: D\nContent-Length: 0\n",
			RequestHeaders:  "Host: " + host + "\n" + ua + ka, Method: "GET", Redirect: "/r/0"}},
		{"second hop", sink.samples[0].Sub[1], report.Detail{
			ResponseHeaders: "HTTP/1.1 200 OK\nContent-Type: text/plain\nX-Z: last\nDate: D\nContent-Length: 6\n",
			RequestHeaders:  "Host: " + host + "\n" + ua + ka, ResponseData: []byte("landed"), Cookies: "sid=abc", Method: "GET"}},
		{"the container", &sink.samples[0], report.Detail{
			ResponseHeaders: "HTTP/1.1 200 OK\nContent-Type: text/plain\nX-Z: last\nDate: D\nContent-Length: 6\n",
			RequestHeaders:  "Host: " + host + "\n" + ua + ka, ResponseData: []byte("landed"), Method: "GET", Redirect: "/r/0"}},
		{"a form", &sink.samples[1], report.Detail{
			ResponseHeaders: "HTTP/1.1 401 Unauthorized\nContent-Type: text/plain\nDate: D\nContent-Length: 2\n",
			RequestHeaders: "Host: " + host + "\n" + ua + "Content-Length: 5\n" + ka +
				"Content-Type: application/x-www-form-urlencoded; charset=UTF-8\n",
			ResponseData: []byte("no"), Method: "POST", QueryString: "a=b+c"}}, // the cookie's path is /r
		{"a GET's URL query is no query string", &sink.samples[2], report.Detail{
			ResponseHeaders: "HTTP/1.1 401 Unauthorized\nContent-Type: text/plain\nDate: D\nContent-Length: 2\n",
			RequestHeaders:  "Host: " + host + "\n" + ua + ka, ResponseData: []byte("no"), Method: "GET"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.s.Detail
			if d == nil {
				t.Fatal("no detail")
			}
			got := *d
			if i := strings.Index(got.ResponseHeaders, "Date: "); i >= 0 {
				j := i + strings.IndexByte(got.ResponseHeaders[i:], '\n')
				got.ResponseHeaders = got.ResponseHeaders[:i] + "Date: D" + got.ResponseHeaders[j:]
			}
			if got.ResponseHeaders != tc.want.ResponseHeaders || got.RequestHeaders != tc.want.RequestHeaders ||
				string(got.ResponseData) != string(tc.want.ResponseData) || got.Cookies != tc.want.Cookies ||
				got.Method != tc.want.Method || got.QueryString != tc.want.QueryString || got.Redirect != tc.want.Redirect {
				t.Errorf("detail\n%#v\nwant\n%#v", got, tc.want)
			}
		})
	}
}
