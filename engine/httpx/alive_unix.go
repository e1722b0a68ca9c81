//go:build unix

package httpx

import (
	"crypto/tls"
	"errors"
	"net"
	"syscall"
)

// alive reports whether an idle connection is still open at the other end,
// with one non-blocking peek at its socket: end of stream or an error means
// the server closed it; bytes waiting on a plain connection are a response
// nobody asked for (net/http drops such connections too). On a TLS
// connection waiting bytes are records (a session ticket), not a reply.
func alive(nc net.Conn) bool {
	plain := true
	var sc syscall.Conn
	for sc == nil {
		switch c := nc.(type) {
		case *countingConn:
			c.readDeadline(0) // a deadline past would fail the peek
			nc = c.Conn
		case *tls.Conn:
			nc, plain = c.NetConn(), false
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
	ok := true
	var b [1]byte
	err = rc.Read(func(fd uintptr) bool {
		n, _, rerr := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		switch {
		case errors.Is(rerr, syscall.EAGAIN), errors.Is(rerr, syscall.EINTR):
		case rerr != nil, n == 0:
			ok = false
		case plain:
			ok = false
		}
		return true
	})
	return ok && err == nil
}
