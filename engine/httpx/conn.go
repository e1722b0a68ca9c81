package httpx

import (
	"io"
	"net"
	"sync/atomic"
	"time"
)

// countingConn counts the bytes that cross a connection and credits them to
// the lane whose request is using it (its owner). Bytes that move before a
// lane takes the connection (the TLS handshake of a fresh connection) wait
// in pending counters and go to the first lane that takes it.
type countingConn struct {
	net.Conn
	owner            atomic.Pointer[Lane]
	pendRead, pendWr atomic.Int64
	err              atomic.Pointer[error] // the first read or write error
}

func (cc *countingConn) Read(p []byte) (int, error) {
	if o := cc.owner.Load(); o != nil {
		// JMeter's response timeout is a socket read timeout: it bounds
		// each read, not the whole response.
		if t := o.readTimeout.Load(); t > 0 {
			cc.Conn.SetReadDeadline(time.Now().Add(time.Duration(t)))
		}
	}
	n, err := cc.Conn.Read(p)
	// The transport's reader waits in Read before the request is even
	// sent: credit whoever owns the connection once the bytes are in.
	if o := cc.owner.Load(); o != nil {
		o.read.Add(int64(n))
	} else {
		cc.pendRead.Add(int64(n))
	}
	if err != nil && n == 0 {
		cc.fail(err)
	}
	return n, err
}

func (cc *countingConn) Write(p []byte) (int, error) {
	// Count before writing: the server may answer, and the request end,
	// before this goroutine is back from the write.
	o := cc.owner.Load()
	counter := &cc.pendWr
	if o != nil {
		counter = &o.written
	}
	counter.Add(int64(len(p)))
	n, err := cc.Conn.Write(p)
	if n < len(p) {
		counter.Add(int64(n - len(p)))
	}
	if o != nil {
		// The response timeout runs from the end of the request, as a
		// socket read timeout does: the read already waiting for the
		// response (the transport starts it early) takes the new deadline.
		if t := o.readTimeout.Load(); t > 0 {
			cc.Conn.SetReadDeadline(time.Now().Add(time.Duration(t)))
		}
	}
	if err != nil {
		cc.fail(err)
	}
	return n, err
}

// failure is the connection's first read or write error; io.EOF (the
// server closed it without a word) when there was none.
func (cc *countingConn) failure() error {
	if cc != nil {
		if e := cc.err.Load(); e != nil {
			return *e
		}
	}
	return io.EOF
}

// fail keeps the connection's first read or write error: the cause to
// report when the transport gives up on the connection and would quietly
// send the request again on another one (see the GotConn trace in
// NewLane).
func (cc *countingConn) fail(err error) {
	cc.err.CompareAndSwap(nil, &err)
}

// take makes l the connection's owner, crediting it with the bytes that
// moved while the connection had none.
func (cc *countingConn) take(l *Lane) {
	cc.owner.Store(l)
	l.read.Add(cc.pendRead.Swap(0))
	l.written.Add(cc.pendWr.Swap(0))
}

// release lifts the read deadline once a request is over, so that an idle
// keep-alive connection is not timed out while it waits for the next one.
func (cc *countingConn) release() { cc.Conn.SetReadDeadline(time.Time{}) }
