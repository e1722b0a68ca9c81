package engine

import (
	"crypto/tls"
	"fmt"
	"html"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gojm/gojm/engine/httpx"
	"github.com/gojm/gojm/examples/target"
)

// faultSampler is one HTTP Request of a generated fault plan.
type faultSampler struct {
	name, method, url string
	responseTimeout   string // ms; "" for none
	auto              bool   // "Redirect Automatically"
}

// faultPlan writes a plan with one thread group (one user, one loop, the
// given action on a sampler error) running the samplers in order, and
// returns its path.
func faultPlan(t *testing.T, onError string, samplers ...faultSampler) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>
<jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3"><hashTree>
<TestPlan testclass="TestPlan" testname="Faults"/><hashTree>
<ThreadGroup testclass="ThreadGroup" testname="Users">
  <elementProp name="ThreadGroup.main_controller" elementType="LoopController" testclass="LoopController">
    <boolProp name="LoopController.continue_forever">false</boolProp>
    <stringProp name="LoopController.loops">1</stringProp></elementProp>
  <stringProp name="ThreadGroup.num_threads">1</stringProp>
  <stringProp name="ThreadGroup.ramp_time">0</stringProp>
  <stringProp name="ThreadGroup.on_sample_error">%s</stringProp>
</ThreadGroup><hashTree>
`, onError)
	for _, s := range samplers {
		u, err := url.Parse(s.url)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, `<HTTPSamplerProxy testclass="HTTPSamplerProxy" testname="%s">
  <elementProp name="HTTPsampler.Arguments" elementType="Arguments"><collectionProp name="Arguments.arguments"/></elementProp>
  <stringProp name="HTTPSampler.protocol">%s</stringProp>
  <stringProp name="HTTPSampler.domain">%s</stringProp>
  <stringProp name="HTTPSampler.port">%s</stringProp>
  <stringProp name="HTTPSampler.path">%s</stringProp>
  <stringProp name="HTTPSampler.method">%s</stringProp>
  <stringProp name="HTTPSampler.response_timeout">%s</stringProp>
  <boolProp name="HTTPSampler.auto_redirects">%v</boolProp>
  <boolProp name="HTTPSampler.use_keepalive">true</boolProp>
</HTTPSamplerProxy><hashTree/>
`, html.EscapeString(s.name), u.Scheme, u.Hostname(), u.Port(), html.EscapeString(u.RequestURI()),
			s.method, s.responseTimeout, s.auto)
	}
	b.WriteString("</hashTree></hashTree></hashTree></jmeterTestPlan>\n")
	path := filepath.Join(t.TempDir(), "faults.jmx")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// faultTargets starts the fault server, a port that refuses connections, a
// server whose TLS handshake fails and one that rejects the handshake with
// an alert (it demands a client certificate).
func faultTargets(t *testing.T) (srv *target.Server, refused, badTLS, alertTLS string) {
	t.Helper()
	srv = target.NewServer(target.Options{})
	if err := srv.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	refused, err := target.RefusedAddr()
	if err != nil {
		t.Fatal(err)
	}
	bad, err := target.StartBadTLS("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bad.Close() })
	alert := httptest.NewUnstartedServer(http.NotFoundHandler())
	alert.TLS = &tls.Config{ClientAuth: tls.RequireAnyClientCert}
	alert.Config.ErrorLog = log.New(io.Discard, "", 0)
	alert.StartTLS()
	t.Cleanup(alert.Close)
	return srv, refused, bad.Addr(), strings.TrimPrefix(alert.URL, "https://")
}

// want is what a fault's sample must show; bytes and latency are checked
// only for being zero or not. As in JMeter, latency ends when the body
// starts to be read: a failure before that has none.
type want struct {
	code, msg  string
	success    bool
	bytes      bool // some bytes arrived
	latency    bool // a first response byte arrived
	toServer   int  // requests the fault server receives for this sample
	noteServer bool // the server read the request but answered nothing
}

// Every fault a server can inflict becomes one failed sample in JMeter's
// "Non HTTP response code: <Java exception>" form, and the user goes on to
// its next sample (on_sample_error=continue). The server's count of
// requests matches the samples that went to it: nothing is retried behind
// the plan's back. A response timeout bounds each read (a trickle that
// never pauses that long succeeds, as in JMeter).
func TestServerFaults(t *testing.T) {
	srv, refused, badTLS, alertTLS := faultTargets(t)
	base := srv.URL()
	hostPort := strings.TrimPrefix(base, "http://")
	const np = "Non HTTP response code: "
	const nm = "Non HTTP response message: "
	tests := []struct {
		s faultSampler
		w want
	}{
		{faultSampler{name: "refused", url: "http://" + refused + "/fast"},
			want{code: np + "org.apache.http.conn.HttpHostConnectException",
				msg: nm + "Connect to " + refused + " [/127.0.0.1] failed: Connection refused"}},
		{faultSampler{name: "reset before the response", url: base + "/fault/reset-before"},
			want{code: np + "java.net.SocketException", msg: nm + "Connection reset", toServer: 1}},
		{faultSampler{name: "reset during the body", url: base + "/fault/reset-during?sent=100&length=1000"},
			want{code: np + "java.net.SocketException", msg: nm + "Connection reset", bytes: true, latency: true, toServer: 1}},
		{faultSampler{name: "keep-alive response", url: base + "/fault/close-keepalive?wait=next"},
			want{code: "200", msg: "OK", success: true, bytes: true, latency: true, toServer: 1}},
		{faultSampler{name: "GET on the closed connection", url: base + "/fast"},
			want{code: np + "org.apache.http.NoHttpResponseException", msg: nm + hostPort + " failed to respond",
				toServer: 1, noteServer: true}},
		{faultSampler{name: "keep-alive response again", url: base + "/fault/close-keepalive?wait=next"},
			want{code: "200", msg: "OK", success: true, bytes: true, latency: true, toServer: 1}},
		{faultSampler{name: "POST on the closed connection", method: "POST", url: base + "/fast"},
			want{code: np + "org.apache.http.NoHttpResponseException", msg: nm + hostPort + " failed to respond",
				toServer: 1, noteServer: true}},
		{faultSampler{name: "headers slower than the timeout", url: base + "/fault/slow-headers?ms=600000", responseTimeout: "200"},
			want{code: np + "java.net.SocketTimeoutException", msg: nm + "Read timed out", toServer: 1}},
		{faultSampler{name: "body pausing past the timeout", url: base + "/fault/trickle?bytes=5&every=600000", responseTimeout: "200"},
			want{code: np + "java.net.SocketTimeoutException", msg: nm + "Read timed out", bytes: true, latency: true, toServer: 1}},
		{faultSampler{name: "body trickling within the timeout", url: base + "/fault/trickle?bytes=4&every=100", responseTimeout: "2000"},
			want{code: "200", msg: "OK", success: true, bytes: true, latency: true, toServer: 1}},
		{faultSampler{name: "malformed status line", url: base + "/fault/bad-status"},
			want{code: np + "org.apache.http.client.ClientProtocolException", msg: nm + "Status line contains invalid status code: abc", bytes: true, toServer: 1}},
		{faultSampler{name: "malformed header", url: base + "/fault/bad-header"},
			want{code: np + "org.apache.http.client.ClientProtocolException", msg: nm + "Invalid header: this line has no colon", bytes: true, toServer: 1}},
		{faultSampler{name: "broken chunked body", url: base + "/fault/bad-chunk"},
			want{code: np + "org.apache.http.MalformedChunkCodingException", msg: nm + "Bad chunk header: invalid byte in chunk length",
				bytes: true, latency: true, toServer: 1}},
		{faultSampler{name: "redirect loop", url: base + "/redirect-loop", auto: true},
			want{code: np + "org.apache.http.client.ClientProtocolException", msg: nm + "Circular redirect to '" + base + "/redirect-loop'",
				bytes: true, toServer: 2}},
		{faultSampler{name: "too many redirects", url: base + "/redirect/30", auto: true},
			want{code: np + "org.apache.http.client.ClientProtocolException", msg: nm + fmt.Sprintf("Maximum redirects (%d) exceeded", httpx.MaxRedirects),
				bytes: true, toServer: httpx.MaxRedirects + 1}},
		{faultSampler{name: "100 MB body", url: base + "/fault/huge?mb=100"},
			want{code: "200", msg: "OK", success: true, bytes: true, latency: true, toServer: 1}},
		{faultSampler{name: "not TLS", url: "https://" + badTLS + "/fast"},
			want{code: np + "javax.net.ssl.SSLException", msg: nm + "Unsupported or unrecognized SSL message"}},
		{faultSampler{name: "TLS alert", url: "https://" + alertTLS + "/fast"},
			want{code: np + "javax.net.ssl.SSLHandshakeException", msg: nm + "Received fatal alert: certificate_required"}},
		{faultSampler{name: "after all faults", url: base + "/fast"},
			want{code: "200", msg: "OK", success: true, bytes: true, latency: true, toServer: 1}},
	}
	var samplers []faultSampler
	toServer := 0
	for _, tt := range tests {
		s := tt.s
		if s.method == "" {
			s.method = "GET"
		}
		samplers = append(samplers, s)
		toServer += tt.w.toServer
	}
	sink := runPlan(t, faultPlan(t, "continue", samplers...), nil)
	if len(sink.samples) != len(tests) {
		t.Fatalf("%d samples for %d samplers", len(sink.samples), len(tests))
	}
	for i, tt := range tests {
		s := sink.samples[i]
		t.Run(tt.s.name, func(t *testing.T) {
			if s.Label != tt.s.name {
				t.Fatalf("sample %d is %q", i, s.Label)
			}
			if s.Code != tt.w.code || s.Message != tt.w.msg || s.Success != tt.w.success {
				t.Errorf("got %q / %q / success=%v\nwant %q / %q / success=%v",
					s.Code, s.Message, s.Success, tt.w.code, tt.w.msg, tt.w.success)
			}
			if (s.Bytes > 0) != tt.w.bytes {
				t.Errorf("bytes %d; want some: %v", s.Bytes, tt.w.bytes)
			}
			if (s.Latency > 0) != tt.w.latency {
				t.Errorf("latency %v; want one: %v", s.Latency, tt.w.latency)
			}
			if s.Elapsed <= 0 || s.Latency > s.Elapsed || s.Start.IsZero() {
				t.Errorf("start %v elapsed %v latency %v", s.Start, s.Elapsed, s.Latency)
			}
			if !tt.w.success && s.DataType != "text" {
				t.Errorf("data type %q, want text", s.DataType)
			}
		})
	}
	for _, s := range sink.samples {
		if s.Label == "100 MB body" && s.Bytes < 100<<20 {
			t.Errorf("100 MB body counted as %d bytes", s.Bytes)
		}
	}
	if n := srv.Count(); n != int64(toServer) {
		t.Errorf("the server received %d requests for the %d the samples sent", n, toServer)
	}
	notes := 0
	for _, r := range srv.Requests() {
		if r.Note != "" {
			notes++
		}
	}
	if notes != 2 {
		t.Errorf("%d requests read and dropped by the server, want 2 (one GET, one POST, neither sent twice)", notes)
	}
}

// A sampler error stops the thread or the test when the thread group says
// so; the failed sample is still recorded.
func TestServerFaultOnSampleError(t *testing.T) {
	srv, refused, _, _ := faultTargets(t)
	for _, tt := range []struct {
		action string
		want   int
	}{{"continue", 3}, {"stopthread", 1}, {"stoptest", 1}, {"startnextloop", 1}} {
		t.Run(tt.action, func(t *testing.T) {
			sink := runPlan(t, faultPlan(t, tt.action,
				faultSampler{name: "refused", method: "GET", url: "http://" + refused + "/"},
				faultSampler{name: "reset", method: "GET", url: srv.URL() + "/fault/reset-before"},
				faultSampler{name: "fine", method: "GET", url: srv.URL() + "/fast"}), nil)
			if len(sink.samples) != tt.want {
				t.Fatalf("%d samples, want %d", len(sink.samples), tt.want)
			}
			if s := sink.samples[0]; s.Success || !strings.HasPrefix(s.Code, "Non HTTP response code: ") {
				t.Errorf("first sample %+v", s)
			}
		})
	}
}
