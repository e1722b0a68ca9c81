//go:build unix

package httpx

import (
	"crypto/tls"
	"errors"
	"net"
	"syscall"
	"time"
)

// alive reports whether an idle connection is still open at the other end,
// with one non-blocking peek at its socket: end of stream or an error means
// the server closed it; bytes waiting on a plain connection are a response
// nobody asked for (net/http drops such connections too). On a TLS
// connection waiting bytes are records, which the TLS layer reads (tlsAlive).
func alive(nc net.Conn) bool {
	var tc *tls.Conn
	var sc syscall.Conn
	for sc == nil {
		switch c := nc.(type) {
		case *countingConn:
			c.readDeadline(0) // a deadline past would fail the peek
			nc = c.Conn
		case *tls.Conn:
			tc, nc = c, c.NetConn()
		case syscall.Conn:
			sc = c
		default:
			return true
		}
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	ok, waiting := true, false
	var b [1]byte
	err = rc.Read(func(fd uintptr) bool {
		n, _, rerr := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		switch {
		case errors.Is(rerr, syscall.EAGAIN), errors.Is(rerr, syscall.EINTR):
		case rerr != nil, n == 0:
			ok = false
		default:
			waiting = true
		}
		return true
	})
	switch {
	case err != nil || !ok:
		return false
	case !waiting:
		return true
	case tc == nil:
		return false
	}
	return tlsAlive(tc)
}

// tlsAlive reads the records waiting on an idle TLS connection, as
// HttpClient's stale-connection check reads through its SSL socket. A
// record the TLS layer consumes itself (a session ticket) leaves the
// connection usable; the server's close_notify alert (sent before its FIN
// when it closes an idle connection), an error, or application data
// nobody asked for mean it is done. The read waits at most a millisecond
// for more records: bytes are waiting, so it rarely waits at all.
func tlsAlive(tc *tls.Conn) bool {
	tc.SetReadDeadline(time.Now().Add(time.Millisecond))
	var b [1]byte
	n, err := tc.Read(b[:])
	tc.SetReadDeadline(time.Time{})
	var ne net.Error
	return n == 0 && errors.As(err, &ne) && ne.Timeout()
}
