package target

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// start starts a Server on a free loopback port, closed when the test ends.
func start(t *testing.T, opts Options) *Server {
	t.Helper()
	s := NewServer(opts)
	if err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// startWithArrivals is start, plus a channel that receives each request as
// it reaches a handler.
func startWithArrivals(t *testing.T, opts Options) (*Server, <-chan *http.Request) {
	t.Helper()
	ch := make(chan *http.Request, 16)
	s := NewServer(opts)
	s.arrived = func(r *http.Request) { ch <- r }
	if err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, ch
}

func hostPort(s *Server) string {
	u := s.URL()
	return u[strings.Index(u, "//")+2:]
}

// rawConn is a plain TCP connection to a server, for exact bytes.
type rawConn struct {
	net.Conn
	br *bufio.Reader
}

func dial(t *testing.T, addr string) *rawConn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &rawConn{Conn: c, br: bufio.NewReader(c)}
}

// roundTrip writes req as is and reads one response and its whole body.
func (c *rawConn) roundTrip(t *testing.T, req string) (*http.Response, string) {
	t.Helper()
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	return c.read(t, "GET")
}

// read reads one response (to a request with the given method).
func (c *rawConn) read(t *testing.T, method string) (*http.Response, string) {
	t.Helper()
	resp, err := http.ReadResponse(c.br, &http.Request{Method: method})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

// newClient is a Go client with a transport of its own.
func newClient(t *testing.T) *http.Client {
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}
