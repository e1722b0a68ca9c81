package httpx

import (
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

	// the read deadline: when it was last set and for what timeout (only
	// the goroutine running the exchange touches these)
	dlSet time.Time
	dlFor time.Duration
}

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
	if o := cc.owner.Load(); o != nil {
		// JMeter's response timeout is a socket read timeout: it bounds
		// each read, not the whole response.
		cc.readDeadline(time.Duration(o.readTimeout.Load()))
	}
	n, err := cc.Conn.Read(p)
	// The transport's reader waits in Read before the request is even
	// sent: credit whoever owns the connection once the bytes are in.
	if o := cc.owner.Load(); o != nil {
		o.read.Add(int64(n))
	} else {
		cc.pendRead.Add(int64(n))
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
	return n, err
}

// take makes l the connection's owner, crediting it with the bytes that
// moved while the connection had none.
func (cc *countingConn) take(l *Lane) {
	cc.owner.Store(l)
	l.read.Add(cc.pendRead.Swap(0))
	l.written.Add(cc.pendWr.Swap(0))
}
