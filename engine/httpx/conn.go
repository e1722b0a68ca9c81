package httpx

import (
	"errors"
	"io"
	"net"
	"os"
	"sync/atomic"
	"time"
)

// countingConn counts the bytes that cross a connection above TLS (what
// HTTP sends and receives) and credits them to the lane whose request is
// using it (its owner, set when the lane gets the connection).
type countingConn struct {
	net.Conn
	owner atomic.Pointer[Lane]

	// the read deadline: when it was last set and for what timeout (only
	// the goroutine running the exchange touches these)
	dlSet time.Time
	dlFor time.Duration

	// rw is what reads and writes go through: Conn, or for a plain TCP
	// connection its socket's raw system calls (rawio_linux.go).
	rw io.ReadWriter
	// sender is rw when it can write a request with the read of its
	// response (rawIO), else nil.
	sender sender
	// closeCheck is the longest a read through sender waits before it
	// looks whether the server has closed its end (readChecked): the
	// transport's, set when it makes the connection.
	closeCheck time.Duration
}

// sender writes a request with the next read, the first of its response,
// and can tell whether the server has closed its end (peerClosed).
type sender interface {
	writeThenRead(p []byte)
	peerClosed() bool
	await() error
}

// newCountingConn counts the bytes of c.
func newCountingConn(c net.Conn) *countingConn {
	cc := &countingConn{Conn: c, rw: c, closeCheck: closeCheck}
	if raw := newRawIO(c); raw != nil {
		cc.rw = raw
		cc.sender, _ = raw.(sender)
	}
	return cc
}

// wrap makes c, a layer over the connection (TLS), what is read, written
// and counted.
func (cc *countingConn) wrap(c net.Conn) { cc.Conn, cc.rw, cc.sender = c, c, nil }

// readDeadline keeps the read deadline at now + t, JMeter's socket timeout
// (each read may wait t), or none for t = 0. Moving a deadline is a timer
// update in the runtime; a busy connection would pay one per read. So
// the deadline moves only when t changed or it was last set more
// than t/64 ago: a read may time out up to t/64 (1.6 %) early. Only reads
// move it: the deadline bounds nothing else, and the first read after the
// request, like any other, finds a stale one and moves it. An idle
// connection keeps its deadline; the liveness check lifts it first (alive).
func (cc *countingConn) readDeadline(t time.Duration) {
	if t <= 0 {
		if !cc.dlSet.IsZero() {
			cc.Conn.SetReadDeadline(time.Time{})
			cc.dlSet, cc.dlFor = time.Time{}, 0
		}
		return
	}
	if t == cc.dlFor && time.Since(cc.dlSet) < t/64 { // the monotonic clock only
		return
	}
	now := time.Now()
	cc.Conn.SetReadDeadline(now.Add(t))
	cc.dlSet, cc.dlFor = now, t
}

func (cc *countingConn) Read(p []byte) (int, error) {
	o := cc.owner.Load()
	if o == nil {
		return cc.rw.Read(p)
	}
	// JMeter's response timeout is a socket read timeout: it bounds each
	// read, not the whole response.
	t := time.Duration(o.readTimeout.Load())
	var n int
	var err error
	if cc.sender == nil {
		cc.readDeadline(t)
		n, err = cc.rw.Read(p)
	} else {
		n, err = cc.readChecked(p, t)
	}
	o.read.Add(int64(n))
	return n, err
}

// closeCheck is how long a read on a raw connection waits, by default,
// before it looks whether the server has closed its end. Each look costs
// a wake-up and a system call; at 1 s, against an endpoint that answers
// in 1 s, 10,000 users took a quarter more CPU.
const closeCheck = 10 * time.Second

// readChecked reads from a raw connection within the timeout t (0 for
// none), in waits of at most cc.closeCheck; with p nil it only waits for
// something to read (await). A request sent with the read
// (h1conn.send) does not see a close that came before it; a server that
// closed in full answers it with a reset, which ends the wait, but one
// that only stopped sending (a half close) would leave the read waiting
// until t, or for ever. So a wait that ends early looks at the socket
// once: the end of the stream ends the read, as a read before the wait
// would have ended it. Other reads on the connection wait the same way,
// to share its deadline (moving a deadline is a timer update).
func (cc *countingConn) readChecked(p []byte, t time.Duration) (int, error) {
	wait := cc.closeCheck
	if t > 0 && t < wait {
		wait = t
	}
	cc.readDeadline(wait)
	waited := time.Duration(0)
	for {
		var n int
		var err error
		if p == nil {
			err = cc.sender.await()
		} else {
			n, err = cc.rw.Read(p)
		}
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			return n, err
		}
		if cc.sender.peerClosed() {
			return 0, io.EOF
		}
		waited += wait
		if t > 0 && waited >= t {
			return n, err
		}
		if t > 0 {
			wait = min(wait, t-waited)
		}
		cc.readDeadline(wait) // the last one has passed: it moves
	}
}

// await waits, as a Read of the response would, until the raw
// connection has something to read, with no buffer to read into
// (rawIO.await); the Read that follows reads it. Only for a connection
// whose request goes out with the read (writeThenRead).
func (cc *countingConn) await() error {
	var t time.Duration
	if o := cc.owner.Load(); o != nil {
		t = time.Duration(o.readTimeout.Load())
	}
	_, err := cc.readChecked(nil, t)
	return err
}

func (cc *countingConn) Write(p []byte) (int, error) {
	n, err := cc.rw.Write(p)
	if o := cc.owner.Load(); o != nil {
		o.written.Add(int64(n))
	}
	return n, err
}

// writeThenRead has the next Read write p first, when the connection
// can (see rawIO.writeThenRead), and reports whether it will. A write that
// fails is the Read's error. p counts as written.
func (cc *countingConn) writeThenRead(p []byte) bool {
	if cc.sender == nil {
		return false
	}
	cc.sender.writeThenRead(p)
	if o := cc.owner.Load(); o != nil {
		o.written.Add(int64(len(p)))
	}
	return true
}

// take makes l the connection's owner.
func (cc *countingConn) take(l *Lane) { cc.owner.Store(l) }
