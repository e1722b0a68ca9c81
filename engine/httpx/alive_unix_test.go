//go:build unix

package httpx

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
)

// An idle TLS connection the server closed is not used again: the server's
// close_notify alert waits on the socket, which a peek alone would take for
// a live connection's records.
func TestH1DropsATLSConnectionTheServerClosed(t *testing.T) {
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok")
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.StartTLS()
	defer srv.Close()
	c := New(Options{})
	c.tr.staleAfter = 0 // check on every reuse
	var res Result
	for i := 1; i <= 3; i++ {
		c.Do(context.Background(), &Request{Method: "GET", URL: srv.URL + "/", KeepAlive: true}, &res)
		if res.Err != nil || res.Status != 200 {
			t.Fatalf("request %d: %d %v", i, res.Status, res.Err)
		}
		if n := conns.Load(); n != int64(i) {
			t.Fatalf("request %d went out on connection %d", i, n)
		}
		// close_notify, then FIN (or the FIN alone, when the server's
		// goroutine is still inside its Write: tls.Conn.Close skips the alert)
		srv.CloseClientConnections()
		for n := 0; !readable(t, c.main.idle.nc); n++ {
			if n > 1e6 {
				t.Fatal("the server's close never reached the client")
			}
			runtime.Gosched()
		}
	}
}

// A live TLS connection stays usable through the check.
func TestAliveKeepsALiveTLSConnection(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	c := New(Options{})
	c.tr.staleAfter = 0
	var res Result
	for i := 1; i <= 3; i++ {
		c.Do(context.Background(), &Request{Method: "GET", URL: srv.URL + "/", KeepAlive: true}, &res)
		if res.Err != nil || res.Status != 200 {
			t.Fatalf("request %d: %d %v", i, res.Status, res.Err)
		}
		if !alive(c.main.idle.nc) {
			t.Fatalf("after request %d: a live connection taken for closed", i)
		}
	}
}

// readable reports whether bytes or the end of the stream wait on the
// socket under an idle TLS connection of the client.
func readable(t *testing.T, nc net.Conn) bool {
	t.Helper()
	tc := nc.(*countingConn).Conn.(*tls.Conn).NetConn().(*net.TCPConn)
	rc, err := tc.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var perr error
	rc.Read(func(fd uintptr) bool {
		var b [1]byte
		_, _, perr = syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		return true
	})
	return perr == nil
}
