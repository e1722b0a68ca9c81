package target

import (
	"bytes"
	"maps"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// net/http parses headers into a map and loses their order and spelling, so
// the server keeps the raw bytes it reads on each connection and, when a
// request reaches a handler, cuts that request's head (request line, header
// lines, blank line) out of them. net/http serves one request at a time per
// HTTP/1.x connection, so the head is already there and belongs to it.
//
// Body bytes are dropped as they arrive when the request declares a
// Content-Length. A chunked body stays until the next request line is found
// after it (a body that contains that very request line would confuse the
// cut); at most maxPending bytes are kept per connection.

const maxPending = 1<<20 + 64<<10 // net/http's default header limit plus slack

type connKey struct{}

// captureListener numbers its connections and keeps what they read.
type captureListener struct {
	net.Listener
	seq *atomic.Uint64
}

func (l *captureListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &captureConn{Conn: c, id: l.seq.Add(1)}, nil
}

// captureConn keeps the bytes read from the peer that are not yet matched to
// a request.
type captureConn struct {
	net.Conn
	id uint64

	mu   sync.Mutex
	buf  []byte
	skip int64 // body bytes of the last request still to arrive, not kept
}

func (c *captureConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.keep(p[:n])
	}
	return n, err
}

// NetConn returns the wrapped connection.
func (c *captureConn) NetConn() net.Conn { return c.Conn }

func (c *captureConn) keep(b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.skip > 0 {
		k := min(int64(len(b)), c.skip)
		b = b[k:]
		c.skip -= k
	}
	c.buf = append(c.buf, b...)
	if len(c.buf) > 2*maxPending {
		c.buf = append(c.buf[:0], c.buf[len(c.buf)-maxPending:]...)
	}
}

// takeHead cuts r's head out of the bytes read so far, or returns nil if it
// is not there.
func (c *captureConn) takeHead(r *http.Request) []byte {
	line := []byte(r.Method + " " + r.RequestURI + " " + r.Proto)
	c.mu.Lock()
	defer c.mu.Unlock()
	i := bytes.Index(c.buf, line)
	if i < 0 {
		return nil
	}
	n := headLen(c.buf[i:])
	if n < 0 {
		return nil
	}
	head := bytes.Clone(c.buf[i : i+n])
	rest := c.buf[i+n:]
	if r.ContentLength > 0 {
		k := min(int64(len(rest)), r.ContentLength)
		rest = rest[k:]
		c.skip = r.ContentLength - k
	}
	c.buf = append(c.buf[:0], rest...)
	return head
}

// headLen is the length of the head at the start of b, up to and including
// the first empty line (CRLF or bare LF), or -1 if it is incomplete.
func headLen(b []byte) int {
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			return -1
		}
		end := i + j + 1
		if line := b[i : i+j]; i > 0 && (len(line) == 0 || string(line) == "\r") {
			return end
		}
		i = end
	}
}

// reconstructHead writes a head from the parsed request when the raw bytes
// are unknown: Host first, then the headers sorted by canonical name.
func reconstructHead(r *http.Request) []byte {
	var b bytes.Buffer
	b.WriteString(r.Method + " " + r.RequestURI + " " + r.Proto + "\r\n")
	if r.Host != "" {
		b.WriteString("Host: " + r.Host + "\r\n")
	}
	for _, name := range slices.Sorted(maps.Keys(r.Header)) {
		for _, v := range r.Header[name] {
			b.WriteString(name + ": " + v + "\r\n")
		}
	}
	b.WriteString("\r\n")
	return b.Bytes()
}

// parseHead splits a head into its header lines, keeping order and the
// exact names. Obsolete folded lines are joined to the previous value.
func parseHead(head []byte) []Header {
	lines := strings.Split(string(head), "\n")
	var hs []Header
	for _, l := range lines[1:] {
		l = strings.TrimSuffix(l, "\r")
		if l == "" {
			break
		}
		if (l[0] == ' ' || l[0] == '\t') && len(hs) > 0 {
			hs[len(hs)-1].Value += " " + strings.Trim(l, " \t")
			continue
		}
		name, value, _ := strings.Cut(l, ":")
		hs = append(hs, Header{Name: name, Value: strings.Trim(value, " \t")})
	}
	return hs
}

// tcpConn unwraps c down to its *net.TCPConn, or returns nil.
func tcpConn(c net.Conn) *net.TCPConn {
	for c != nil {
		if t, ok := c.(*net.TCPConn); ok {
			return t
		}
		u, ok := c.(interface{ NetConn() net.Conn })
		if !ok {
			return nil
		}
		c = u.NetConn()
	}
	return nil
}
