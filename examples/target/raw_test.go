package target

import (
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
)

func TestRefusedAddr(t *testing.T) {
	addr, err := RefusedAddr()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := net.Dial("tcp", addr); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("dial %s: %v, want ECONNREFUSED", addr, err)
	}
	if _, err := http.Get("http://" + addr + "/"); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("GET %s: %v, want ECONNREFUSED", addr, err)
	}
}

func TestBadTLS(t *testing.T) {
	s, err := StartBadTLS("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = tls.Dial("tcp", s.Addr(), &tls.Config{ServerName: "localhost"})
	var rhe tls.RecordHeaderError
	if !errors.As(err, &rhe) || !strings.HasPrefix(string(rhe.RecordHeader[:]), "HTTP/") {
		t.Errorf("TLS handshake: %v, want a tls.RecordHeaderError showing the plain HTTP answer", err)
	}
	// Go's transport recognises the plain HTTP answer.
	_, err = http.Get("https://" + s.Addr() + "/")
	if err == nil || !strings.Contains(err.Error(), "server gave HTTP response to HTTPS client") {
		t.Errorf("GET over TLS: %v, want the transport's HTTP-to-HTTPS error", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

func TestStartRawRefusesRemote(t *testing.T) {
	if s, err := StartRaw("0.0.0.0:0", func(net.Conn) {}); err == nil {
		s.Close()
		t.Error("StartRaw on 0.0.0.0 succeeded")
	}
}
