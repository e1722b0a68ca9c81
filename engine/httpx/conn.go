package httpx

import (
	"net"
	"sync/atomic"
	"time"
)

// counters totals the bytes moved over every connection of one client. The
// client runs one request at a time, so the difference across a request is
// exactly that request's traffic.
type counters struct {
	read, written atomic.Int64
	// readTimeout, when non-zero, bounds each read while a request is in
	// flight: JMeter's response timeout is a socket read timeout.
	readTimeout atomic.Int64
}

// countingConn counts the bytes that cross a connection.
type countingConn struct {
	net.Conn
	c *counters
}

func (cc *countingConn) Read(p []byte) (int, error) {
	if t := cc.c.readTimeout.Load(); t > 0 {
		cc.Conn.SetReadDeadline(time.Now().Add(time.Duration(t)))
	}
	n, err := cc.Conn.Read(p)
	cc.c.read.Add(int64(n))
	return n, err
}

func (cc *countingConn) Write(p []byte) (int, error) {
	n, err := cc.Conn.Write(p)
	cc.c.written.Add(int64(n))
	return n, err
}

// clearDeadline lifts the read deadline once a request is over, so an idle
// keep-alive connection is not timed out while it waits for the next one.
func (cc *countingConn) clearDeadline() { cc.Conn.SetReadDeadline(time.Time{}) }
