//go:build !race

package httpx

import (
	"io"
	"net"
	"os"
	"syscall"
	"unsafe"
)

// rawIO reads and writes a plain TCP connection's socket with raw system
// calls, waiting in the connection's poller (syscall.RawConn) as
// net.TCPConn does, with the same results and errors, but without telling
// the scheduler about each call. The socket is non-blocking, so no call
// blocks. What that saves: the scheduler's bookkeeping around each call,
// and above all its monitor taking the processor away from a goroutine
// whose write into the loopback takes longer than 20 µs (the write does
// the receiving end's TCP work too), which wakes another thread and parks
// this one when the write returns. With one processor (a load generator
// pinned to a core) that was 10 % of the CPU per request at 10 users.
//
// A read that finds nothing may spin a little first (spin_linux.go).
//
// Not in race-detector builds (rawio_other.go): the detector learns from
// net.Conn's system calls that what one end wrote before sending happened
// before what the other end does after receiving; raw calls do not tell it,
// and tests would report races that are not there.
type rawIO struct {
	rc            syscall.RawConn
	local, remote net.Addr
	// the read and the write in flight (one of each may run at a time, as
	// on a net.Conn): buffer, bytes done, error
	rd, wr rawCall
	arr    *arrivals // where a read that finds nothing spins
	// the callbacks, made once: a closure per call would be an allocation
	readFn, writeFn func(uintptr) bool
}

// rawCall is a read or a write in flight.
type rawCall struct {
	p     []byte
	n     int // bytes read or written
	errno syscall.Errno
	tries int // a read's yields while spinning (arrivals.spin)
}

// newRawIO returns c's socket as a rawIO, or nil when c is not a TCP
// connection.
func newRawIO(c net.Conn) io.ReadWriter {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return nil
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return nil
	}
	r := &rawIO{rc: rc, local: tc.LocalAddr(), remote: tc.RemoteAddr(), arr: arrived}
	r.readFn, r.writeFn = r.readOnce, r.writeAll
	if rc.Control(r.arr.watch) != nil {
		return nil
	}
	return r
}

// readOnce is the poller's callback for a read: false asks it to wait
// until the socket is readable and call again.
func (r *rawIO) readOnce(fd uintptr) bool {
	c := &r.rd
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&c.p[0])), uintptr(len(c.p)))
		switch e {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			if r.arr.spin(&c.tries, fd) {
				continue
			}
			return false // wait in the poller
		case 0:
			c.n = int(n)
		default:
			c.errno = e
		}
		if c.tries > 0 {
			r.arr.found()
		}
		return true
	}
}

// writeAll is the poller's callback for a write: it writes all it can,
// and returns false to wait until the socket is writable again.
func (r *rawIO) writeAll(fd uintptr) bool {
	c := &r.wr
	for c.n < len(c.p) {
		n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&c.p[c.n])), uintptr(len(c.p)-c.n))
		switch e {
		case 0:
			c.n += int(n)
			continue
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false // the send buffer is full: wait in the poller
		}
		c.errno = e
		return true
	}
	return true
}

// Read is net.TCPConn's Read.
func (r *rawIO) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	c := &r.rd
	*c = rawCall{p: p}
	err := r.rc.Read(r.readFn)
	n, errno := c.n, c.errno
	c.p = nil
	switch {
	case err != nil:
		return 0, r.opError("read", err)
	case errno != 0:
		return 0, r.opError("read", os.NewSyscallError("read", errno))
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// Write is net.TCPConn's Write.
func (r *rawIO) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	c := &r.wr
	*c = rawCall{p: p}
	err := r.rc.Write(r.writeFn)
	n, errno := c.n, c.errno
	c.p = nil
	switch {
	case err != nil:
		return n, r.opError("write", err)
	case errno != 0:
		return n, r.opError("write", os.NewSyscallError("write", errno))
	}
	return n, nil
}

// opError is the error net.TCPConn returns: a raw call's error (a
// deadline, a closed connection) named after the call it stood for.
func (r *rawIO) opError(op string, err error) error {
	if oe, ok := err.(*net.OpError); ok {
		err = oe.Err
	}
	return &net.OpError{Op: op, Net: "tcp", Source: r.local, Addr: r.remote, Err: err}
}
