package engine

import (
	"io"
	"net/http"
	"testing"
)

// An HTTP sample's request data is JMeter 5.6's getSamplerData: the
// method and URL, the query string HTTPHC4Impl sets from a body only (a
// GET's or a body-less PUT's URL query is not repeated), and the cookies
// the first request sent, the container of followed redirects included.
func TestHTTPRequestData(t *testing.T) {
	w := hNewServer(t, func(rw http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/r/1":
			rw.Header().Set("Set-Cookie", "sid=abc; Path=/")
			rw.Header().Set("Location", "/r/0")
			rw.WriteHeader(http.StatusFound)
		default:
			rw.Header().Set("Content-Type", "text/plain")
			io.WriteString(rw, "ok")
		}
	})
	base := "http://" + w.hostPort()
	// equals is a Response Assertion that the request data is want.
	equals := func(want string) string {
		return `<ResponseAssertion guiclass="AssertionGui" testclass="ResponseAssertion" testname="data">` +
			`<collectionProp name="Asserion.test_strings"><stringProp name="1">` + hEsc(want) + `</stringProp></collectionProp>` +
			hprop("Assertion.test_field", "Assertion.request_data") + `<intProp name="Assertion.test_type">8</intProp></ResponseAssertion><hashTree/>`
	}
	for _, tt := range []struct {
		name string
		spec httpSpec
		want string
	}{
		{"a GET's URL query", httpSpec{props: []string{"path", "/q?x=1", "method", "GET"}},
			"GET " + base + "/q?x=1\n\nGET data:\n\n\n[no cookies]\n"},
		{"a GET's arguments", httpSpec{props: []string{"path", "/q", "method", "GET"}, args: []string{harg("a", "1", true)}},
			"GET " + base + "/q?a=1\n\nGET data:\n\n\n[no cookies]\n"},
		{"a PUT without body", httpSpec{props: []string{"path", "/p?x=1", "method", "PUT"}},
			"PUT " + base + "/p?x=1\n\nPUT data:\n\n\n[no cookies]\n"},
		{"a POST's form", httpSpec{props: []string{"path", "/f?x=1", "method", "POST"}, args: []string{harg("a", "b c", true)}},
			"POST " + base + "/f?x=1\n\nPOST data:\na=b+c\n\n[no cookies]\n"},
		{"followed redirects: the first request's cookies", httpSpec{props: []string{"path", "/r/1", "method", "GET", "follow_redirects", "true"}},
			"GET " + base + "/r/0\n\nGET data:\n\n\n[no cookies]\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.spec.name = "s"
			tt.spec.children = equals(tt.want)
			sink := hRun(t, hPlan(hElement("CookieManager", "cookies"), 1, tt.spec), w.props(), nil)
			if len(sink.samples) != 1 {
				t.Fatalf("%d samples, want 1", len(sink.samples))
			}
			if s := sink.samples[0]; !s.Success {
				t.Errorf("request data is not %q: %s", tt.want, s.Message)
			}
		})
	}
}
