package target

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestCheckLoopback(t *testing.T) {
	tests := []struct {
		addr string
		ok   bool
	}{
		{"127.0.0.1:8080", true},
		{"127.1.2.3:0", true},
		{"[::1]:8080", true},
		{"localhost:8080", true},
		{":8080", false},
		{"0.0.0.0:8080", false},
		{"[::]:8080", false},
		{"192.168.1.10:8080", false},
		{"example.com:80", false},
		{"127.0.0.1", false}, // no port
	}
	for _, tt := range tests {
		if err := checkLoopback(tt.addr); (err == nil) != tt.ok {
			t.Errorf("checkLoopback(%q) = %v, want ok %v", tt.addr, err, tt.ok)
		}
	}
}

func TestStartRefusesRemote(t *testing.T) {
	s := NewServer(Options{})
	defer s.Close()
	err := s.Start("0.0.0.0:0")
	if err == nil || !strings.Contains(err.Error(), "non-loopback") {
		t.Errorf("Start(0.0.0.0:0) = %v, want a refusal", err)
	}
	if s.URL() != "" {
		t.Errorf("URL = %q after a refused Start", s.URL())
	}
}

func TestStartTwice(t *testing.T) {
	s := start(t, Options{})
	if err := s.Start("127.0.0.1:0"); err == nil {
		t.Error("second Start succeeded")
	}
}

// Close ends handlers that are waiting and waits for them; the client
// sees its connection end, not a response.
func TestCloseEndsSlowHandlers(t *testing.T) {
	for _, path := range []string{"/sleep?ms=600000", "/fault/slow-headers?ms=600000",
		"/fault/trickle?bytes=5&every=600000", "/?x", "/fault/close-keepalive?wait=next"} {
		t.Run(path, func(t *testing.T) {
			s, arrived := startWithArrivals(t, Options{})
			c := dial(t, hostPort(s))
			head := "GET " + path + " HTTP/1.1\r\nHost: h\r\n"
			if path == "/?x" {
				head += "X-Sleep: 600000\r\n"
			}
			if _, err := io.WriteString(c, head+"\r\n"); err != nil {
				t.Fatal(err)
			}
			<-arrived
			if path == "/fault/close-keepalive?wait=next" {
				c.read(t, "GET") // the handler now waits for the next request
			}
			if err := s.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			b, err := io.ReadAll(c.br)
			if err != nil || completeResponse(b) {
				t.Errorf("after Close the client read %q, err %v; want a clean end with no complete response", b, err)
			}
			if err := s.Close(); err != nil {
				t.Errorf("second Close: %v", err)
			}
		})
	}
}

// completeResponse reports whether b holds a whole response, body included.
func completeResponse(b []byte) bool {
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(b)), nil)
	if err != nil {
		return false
	}
	_, err = io.ReadAll(resp.Body)
	return err == nil
}

func TestTLS(t *testing.T) {
	s := start(t, Options{TLS: true})
	if !strings.HasPrefix(s.URL(), "https://127.0.0.1:") {
		t.Fatalf("URL = %q", s.URL())
	}
	pool := x509.NewCertPool()
	pool.AddCert(s.Certificate())
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	defer client.CloseIdleConnections()
	req, _ := http.NewRequest("GET", s.URL()+"/mirror/tls", nil)
	req.Header["x-first"] = []string{"1"} // sent as spelled
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.ProtoMajor != 1 || !strings.HasPrefix(string(b), "GET /mirror/tls HTTP/1.1\r\nHost: ") {
		t.Errorf("%s answered %q", resp.Proto, b)
	}
	reqs := s.Requests()
	if len(reqs) != 1 || reqs[0].Conn != 1 || len(reqs[0].Headers) < 3 || reqs[0].Headers[2] != (Header{"x-first", "1"}) {
		t.Errorf("recorded %+v, want exact headers on connection 1", reqs)
	}

	// Go's default client does not trust the self-signed certificate.
	if _, err := http.Get(s.URL() + "/fast"); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("untrusted GET: err = %v, want a certificate error", err)
	}
}
