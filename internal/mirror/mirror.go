package mirror

import (
	"bytes"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Server is a running mirror.
type Server struct {
	ln      net.Listener
	wg      sync.WaitGroup
	mu      sync.Mutex
	open    map[net.Conn]struct{} // guarded by mu
	closing bool                  // guarded by mu: Close has begun
}

// Start listens on addr ("127.0.0.1:8081") and serves until Close.
func Start(addr string) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return serveOn(ln), nil
}

// serveOn serves the connections ln accepts until Close.
func serveOn(ln net.Listener) *Server {
	s := &Server{ln: ln, open: map[net.Conn]struct{}{}}
	s.wg.Add(1)
	go s.accept()
	return s
}

// Addr is the address the server listens on.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Close stops the server and closes the connections it is serving. A
// connection accepted after it closed those is closed at once (accept
// sees closing), so that none is left to keep Close waiting.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closing = true
	for c := range s.open {
		c.Close()
	}
	s.mu.Unlock()
	err := s.ln.Close()
	s.wg.Wait()
	return err
}

func (s *Server) accept() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		if s.closing {
			s.mu.Unlock()
			c.Close()
			continue // the listener is closed or closing: Accept fails next
		}
		s.open[c] = struct{}{}
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			serve(c)
			c.Close()
			s.mu.Lock()
			delete(s.open, c)
			s.mu.Unlock()
		}()
	}
}

// bodyStart finds the empty line ending the head (JMeter's multi-line
// "^\r$"): the offset of its '\r', or -1.
func bodyStart(b []byte) int {
	for p, c := range b {
		if c == '\r' && (p == 0 || b[p-1] == '\n') && (p+1 == len(b) || b[p+1] == '\n') {
			return p
		}
	}
	return -1
}

// header is the value of a request header, as JMeter finds it: the first
// line starting "Name:", any case, with blanks after the colon.
func header(head, name string) (string, bool) {
	re := headerRE(name)
	m := re.FindStringSubmatch(head)
	if m == nil {
		return "", false
	}
	return m[1], true
}

var headerREs sync.Map

func headerRE(name string) *regexp.Regexp {
	if re, ok := headerREs.Load(name); ok {
		return re.(*regexp.Regexp)
	}
	re := regexp.MustCompile(`(?im)^` + regexp.QuoteMeta(name) + `:\s+([^\r\n]+)`)
	headerREs.Store(name, re)
	return re
}

// serve answers one request on c (HttpMirrorThread.run).
func serve(c net.Conn) {
	buf := make([]byte, 1024)
	var got []byte
	pos := -1
	for pos <= 0 {
		n, err := c.Read(buf)
		got = append(got, buf[:n]...)
		pos = bodyStart(got)
		if err != nil {
			break
		}
	}
	head := string(got) // ISO-8859-1 in JMeter: one char a byte, as far as the regexps care
	if head == "" || !strings.Contains(head, "\r") {
		return // JMeter logs an invalid request and closes
	}
	first := head[:strings.IndexByte(head, '\r')]
	parts := strings.Fields(first)
	params := map[string]string{}
	if len(parts) >= 2 && parts[0] == "GET" {
		if q := strings.IndexByte(parts[1], '?'); q >= 0 {
			query := parts[1][q+1:]
			if u, err := url.Parse(parts[1]); err == nil {
				// Java's URI.getQuery decodes the escapes.
				if dq, err := url.PathUnescape(u.RawQuery); err == nil {
					query = dq
				}
			}
			if i := strings.IndexByte(query, '#'); i >= 0 {
				query = query[:i]
			}
			for _, p := range strings.Split(query, "&") {
				k, v, _ := strings.Cut(p, "=")
				params[k] = v
			}
		}
	}
	status, ok := header(head, "X-ResponseStatus")
	if !ok {
		status = "200 OK"
	}
	if _, ok := params["redirect"]; ok {
		status = "302 Temporary Redirect"
	}
	if v, ok := params["status"]; ok {
		status = v
	}
	var out bytes.Buffer
	out.WriteString("HTTP/1.0 " + status + "\r\nContent-Type: text/plain\r\n")
	if v, ok := params["redirect"]; ok {
		out.WriteString("Location: " + v + "\r\n")
	}
	if v, ok := header(head, "X-SetHeaders"); ok {
		for _, h := range strings.Split(v, "|") {
			out.WriteString(h + "\r\n")
		}
	}
	cut := -1
	if v, ok := header(head, "X-ResponseLength"); ok {
		n, err := strconv.Atoi(v)
		if err != nil {
			c.Write(out.Bytes()) // JMeter's thread dies here; closing flushes what it wrote
			return
		}
		cut = n
	}
	if v, ok := header(head, "X-SetCookie"); ok {
		out.WriteString("Set-Cookie: " + v + "\r\n")
	}
	out.WriteString("\r\n")
	echo := got
	if cut >= 0 && cut < len(echo) {
		echo = echo[:cut]
	}
	out.Write(echo)
	if _, err := c.Write(out.Bytes()); err != nil {
		return
	}
	length := -1
	if v, ok := header(head, "Content-Length"); ok {
		if length, ok = atoi(v); !ok {
			return
		}
	}
	if v, ok := header(head, "X-Sleep"); ok {
		ms, ok := atoi(v)
		if !ok {
			return
		}
		time.Sleep(time.Duration(ms) * time.Millisecond)
	}
	switch {
	case length > 0:
		// What of the body came with the head: JMeter counts it as the
		// head's length less the empty line's offset and its CR LF.
		read := len(got) - pos - 2
		for read < length {
			n, err := c.Read(buf)
			if n > 0 {
				if _, werr := c.Write(buf[:n]); werr != nil {
					return
				}
				read += n
			}
			if err != nil {
				return
			}
		}
	default:
		// A chunked body (which JMeter does not decode), or none: JMeter
		// echoes what is already there without waiting
		// (InputStream.available).
		for {
			c.SetReadDeadline(time.Now().Add(time.Millisecond))
			n, err := c.Read(buf)
			if n > 0 {
				c.Write(buf[:n])
			}
			if err != nil {
				return
			}
		}
	}
}

// atoi is Integer.parseInt; false where it would throw.
func atoi(s string) (int, bool) {
	n, err := strconv.ParseInt(s, 10, 32)
	return int(n), err == nil
}
