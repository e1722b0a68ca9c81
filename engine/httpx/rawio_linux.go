package httpx

import (
	"io"
	"net"
	"os"
	"syscall"
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
// A request may go out inside the read of its response (writeThenRead),
// and a read that finds nothing may spin a little first (spin_linux.go).
//
// Race-detector builds run all of this too; only the read and write
// system calls themselves differ (sysRead and sysWrite, sysio_*.go).
type rawIO struct {
	rc            syscall.RawConn
	local, remote net.Addr
	// the read and the write in flight (one of each may run at a time, as
	// on a net.Conn): buffer, bytes done, error
	rd, wr rawCall
	arr    *arrivals // where a read that finds nothing spins
	// sendFirst: the next Read writes wr first (writeThenRead)
	sendFirst bool
	// looked: await's callback has looked at the socket once; peek is
	// what it looks with
	looked bool
	peek   [1]byte
	// the callbacks, made once: a closure per call would be an allocation
	readFn, writeFn, sendFn, awaitFn func(uintptr) bool
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
	r := &rawIO{rc: rc, local: tc.LocalAddr(), remote: tc.RemoteAddr(), arr: arrived()}
	r.readFn, r.writeFn, r.sendFn, r.awaitFn = r.readOnce, r.writeAll, r.sendThenRead, r.awaitOnce
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
		n, e := sysRead(fd, c.p)
		switch e {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			if r.arr.spin(&c.tries, fd) {
				continue
			}
			return false // wait in the poller
		case 0:
			c.n = n
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
		n, e := sysWrite(fd, c.p[c.n:])
		switch e {
		case 0:
			c.n += n
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

// writeThenRead has the next Read write p before it reads: a request
// whose response the Read is for. It saves a system call per request.
// A read that waits in the poller must look at the socket once after the
// poller has begun to listen, as the poller forgets what arrived before;
// right after a request that look finds nothing (the server has not
// answered yet) and costs a failed read. Written once the poller listens,
// the request itself is that look: nothing of its response can arrive
// before it. p must stay as it is until the Read.
func (r *rawIO) writeThenRead(p []byte) {
	r.wr = rawCall{p: p}
	r.sendFirst = true
}

// sendThenRead is the poller's callback for a Read after writeThenRead:
// the first call writes the request and, unless a spin sees the response
// arrive, waits for it; later calls read. A write that cannot finish, or
// fails, ends the call: Read finishes it or reports it.
func (r *rawIO) sendThenRead(fd uintptr) bool {
	if !r.sendFirst {
		return r.readOnce(fd)
	}
	r.sendFirst = false
	if !r.writeAll(fd) || r.wr.errno != 0 {
		return true
	}
	r.wr.p = nil
	return r.arr.spin(&r.rd.tries, fd) && r.readOnce(fd)
}

// await waits until the socket has something to read (data, its end or
// an error) without a buffer to read into; the Read that follows reads
// it. After writeThenRead it writes the request first, as that Read
// would have. Why: a virtual user waiting for a slow response then keeps
// no read buffer (h1conn.readResponse takes one once the response is
// there), and the system calls are the same, the write and, after the
// wake-up, the read.
func (r *rawIO) await() error {
	r.rd = rawCall{}
	r.looked = false
	err := r.rc.Read(r.awaitFn)
	if r.sendFirst || r.wr.p != nil {
		// The request did not go out whole (or the poller failed before
		// it went): finish it, then wait.
		r.sendFirst = false
		if _, werr := r.finishWrite(); werr != nil {
			return werr
		}
		r.looked = false
		err = r.rc.Read(r.awaitFn)
	}
	if err != nil {
		return r.opError("read", err)
	}
	return nil
}

// awaitOnce is the poller's callback for await. Its first call writes the
// request (after writeThenRead: the request is the look, as in
// sendThenRead) or looks at the socket with a non-blocking peek; a later
// call comes after the poller saw the socket readable.
func (r *rawIO) awaitOnce(fd uintptr) bool {
	if r.looked {
		return true
	}
	r.looked = true
	if r.sendFirst {
		r.sendFirst = false
		if !r.writeAll(fd) || r.wr.errno != 0 {
			return true
		}
		r.wr.p = nil
		if r.arr.spin(&r.rd.tries, fd) {
			r.arr.found()
			return true
		}
		return false // wait in the poller
	}
	for {
		_, _, err := syscall.Recvfrom(int(fd), r.peek[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		switch err {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false // wait in the poller
		}
		return true // data, the end, or an error the Read will report
	}
}

// Read is net.TCPConn's Read.
func (r *rawIO) Read(p []byte) (int, error) {
	if len(p) == 0 {
		if r.sendFirst { // nothing to read with: the request goes out alone
			r.sendFirst = false
			_, err := r.finishWrite()
			return 0, err
		}
		return 0, nil
	}
	c := &r.rd
	*c = rawCall{p: p}
	var err error
	if r.sendFirst {
		err = r.rc.Read(r.sendFn)
		if r.sendFirst || r.wr.p != nil {
			// The request did not go out whole (or the poller failed
			// before it went): as a Write and a Read would.
			r.sendFirst = false
			if _, werr := r.finishWrite(); werr != nil {
				c.p = nil
				return 0, werr
			}
			*c = rawCall{p: p}
			err = r.rc.Read(r.readFn)
		}
	} else {
		err = r.rc.Read(r.readFn)
	}
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
	r.wr = rawCall{p: p}
	return r.finishWrite()
}

// finishWrite writes what is left of r.wr.
func (r *rawIO) finishWrite() (int, error) {
	c := &r.wr
	var err error
	if c.errno == 0 {
		err = r.rc.Write(r.writeFn)
	}
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

// peerClosed reports whether the server's end of the stream waits on the
// socket, with nothing before it: one non-blocking peek.
func (r *rawIO) peerClosed() bool {
	closed := false
	r.rc.Control(func(fd uintptr) {
		var b [1]byte
		n, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		closed = n == 0 && err == nil
	})
	return closed
}

// opError is the error net.TCPConn returns: a raw call's error (a
// deadline, a closed connection) named after the call it stood for.
func (r *rawIO) opError(op string, err error) error {
	if oe, ok := err.(*net.OpError); ok {
		err = oe.Err
	}
	return &net.OpError{Op: op, Net: "tcp", Source: r.local, Addr: r.remote, Err: err}
}
