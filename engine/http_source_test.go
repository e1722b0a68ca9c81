package engine

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
)

// TestSourceAddress sends an HTTP Request from the Source address it
// names: an address, a host name, a network interface; one that names
// nothing fails the sample before it connects, as JMeter's does.
func TestSourceAddress(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.RemoteAddr)
		mu.Lock()
		seen = append(seen, host)
		mu.Unlock()
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	props := map[string]string{"host": u.Hostname(), "port": u.Port()}
	for _, tt := range []struct {
		name, source, kind string
		code, msg          string // the sample's, when it fails
		from               string // the address the server saw
	}{
		{name: "none", from: "127.0.0.1"},
		{name: "an address", source: "127.0.0.7", from: "127.0.0.7"},
		{name: "a variable", source: "${__P(src,127.0.0.9)}", from: "127.0.0.9"},
		{name: "a host name", source: "localhost", from: "127.0.0.1"},
		{name: "an interface's IPv4 address", source: "lo", kind: "2", from: "127.0.0.1"},
		{name: "an unknown host", source: "no-such-host.invalid", code: "Non HTTP response code: java.net.UnknownHostException",
			msg: "Non HTTP response message: no-such-host.invalid: Name or service not known"},
		{name: "an unknown interface", source: "nosuch0", kind: "1", code: "Non HTTP response code: java.net.UnknownHostException",
			msg: "Non HTTP response message: interface nosuch0 not found"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mu.Lock()
			seen = nil
			mu.Unlock()
			p := []string{"path", "/"}
			if tt.source != "" {
				p = append(p, "ipSource", tt.source)
			}
			if tt.kind != "" {
				p = append(p, "ipSourceType", tt.kind)
			}
			m := hRun(t, hPlan("", 1, httpSpec{name: "s", props: p}), props, nil)
			if len(m.samples) != 1 {
				t.Fatalf("%d samples", len(m.samples))
			}
			s := m.samples[0]
			if tt.code != "" {
				if s.Success || s.Code != tt.code || s.Message != tt.msg {
					t.Errorf("sample %t %q %q, want a failure %q %q", s.Success, s.Code, s.Message, tt.code, tt.msg)
				}
				return
			}
			if !s.Success {
				t.Fatalf("the sample failed: %s %s", s.Code, s.Message)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(seen) != 1 || seen[0] != tt.from {
				t.Errorf("the server saw requests from %v, want one from %s", seen, tt.from)
			}
		})
	}
}
