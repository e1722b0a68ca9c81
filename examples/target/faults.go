package target

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"
)

// Each fault handler produces one failure a client must survive and report.
// Those net/http cannot produce take the connection over (hijack) and write
// raw bytes. What a Go client observes is noted on each handler and asserted
// in faults_test.go.

func (s *Server) faultIndex(w http.ResponseWriter, r *http.Request) {
	http.Error(w, "unknown fault; known: reset-before, reset-during, close-keepalive, "+
		"slow-headers, trickle, bad-status, bad-header, bad-chunk, huge", http.StatusNotFound)
}

// pattern returns n bytes of a repeating a…z, so a prefix shows how far a
// body got.
func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'a' + byte(i%26)
	}
	return b
}

// reset closes c with an RST instead of a FIN (SO_LINGER 0), under TLS too.
func reset(c net.Conn) {
	if t := tcpConn(c); t != nil {
		_ = t.SetLinger(0)
		_ = t.Close()
	}
	_ = c.Close()
}

// raw hijacks the connection and writes b; it closes the connection with
// an RST if rst is set, else normally. Writes go straight to the socket
// (TCP_NODELAY), so the peer has them before the RST.
func (s *Server) raw(w http.ResponseWriter, r *http.Request, b []byte, rst bool) {
	c, release, err := s.hijack(w, r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	defer release()
	if len(b) > 0 {
		if _, err := c.Write(b); err != nil {
			return
		}
	}
	if rst {
		reset(c)
	}
}

// faultResetBefore resets the connection without a byte of response.
// Go: the round trip fails with syscall.ECONNRESET.
func (s *Server) faultResetBefore(w http.ResponseWriter, r *http.Request) {
	s.raw(w, r, nil, true)
}

// faultResetDuring (?sent=100&length=1000) sends headers declaring length
// body bytes, the first sent of them, then resets.
// Go: the response arrives; reading its body yields sent bytes, then
// syscall.ECONNRESET.
func (s *Server) faultResetDuring(w http.ResponseWriter, r *http.Request) {
	sent, err1 := intParam(r, "sent", 100)
	length, err2 := intParam(r, "length", 1000)
	if err := errors.Join(err1, err2); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	length = max(length, sent+1)
	head := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n", length)
	s.raw(w, r, append([]byte(head), pattern(sent)...), true)
}

// faultCloseKeepAlive answers "ok\n" as a keep-alive response, then closes
// the connection (FIN). With ?wait=next it first reads the client's next
// request on that connection (recorded with a Note), then closes without
// answering it: that request surely fails.
// Raw client: the next read gets io.EOF. Go: a GET is silently retried on
// a new connection (the transport's rule for idle connections closed by the
// server); a POST fails with "http: server closed idle connection".
func (s *Server) faultCloseKeepAlive(w http.ResponseWriter, r *http.Request) {
	c, release, err := s.hijack(w, r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	defer release()
	resp := "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n"
	if !r.ProtoAtLeast(1, 1) {
		resp += "Connection: keep-alive\r\n"
	}
	if _, err := c.Write([]byte(resp + "\r\nok\n")); err != nil {
		return
	}
	if r.URL.Query().Get("wait") != "next" {
		return
	}
	next, err := http.ReadRequest(bufio.NewReader(c))
	if err != nil {
		return
	}
	cc, _ := r.Context().Value(connKey{}).(*captureConn)
	var head []byte
	var id uint64
	if cc != nil {
		head, id = cc.takeHead(next), cc.id
	}
	if head == nil {
		head = reconstructHead(next)
	}
	s.add(next, id, head, "closed without response")
}

// faultSlowHeaders (?ms=1000) waits ms before answering "ok\n": a response
// timeout shorter than that fires before any header arrives.
func (s *Server) faultSlowHeaders(w http.ResponseWriter, r *http.Request) {
	ms, err := intParam(r, "ms", 1000)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if !s.wait(r.Context(), time.Duration(ms)*time.Millisecond) {
		s.abort(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/plain")
	_, _ = w.Write([]byte("ok\n"))
}

// faultTrickle (?bytes=10&every=100) sends headers at once, then the body
// one byte at a time, waiting every ms between bytes. If the wait is cut
// short the connection closes with the body incomplete.
func (s *Server) faultTrickle(w http.ResponseWriter, r *http.Request) {
	n, err1 := intParam(r, "bytes", 10)
	every, err2 := intParam(r, "every", 100)
	if err := errors.Join(err1, err2); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/plain")
	w.Header().Set("Content-Length", strconv.Itoa(n))
	w.WriteHeader(http.StatusOK)
	body := pattern(n)
	for i := range body {
		if i > 0 && !s.wait(r.Context(), time.Duration(every)*time.Millisecond) {
			s.abort(w, r)
			return
		}
		if _, err := w.Write(body[i : i+1]); err != nil {
			return
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
}

// faultBadStatus answers "HTTP/1.1 abc" and closes.
// Go: `malformed HTTP status code "abc"`.
func (s *Server) faultBadStatus(w http.ResponseWriter, r *http.Request) {
	s.raw(w, r, []byte("HTTP/1.1 abc\r\n\r\n"), false)
}

// faultBadHeader answers a status line, then a header line with no colon.
// Go: `malformed MIME header: missing colon: "this line has no colon"`.
func (s *Server) faultBadHeader(w http.ResponseWriter, r *http.Request) {
	s.raw(w, r, []byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nthis line has no colon\r\n"+
		"Content-Length: 3\r\n\r\nok\n"), false)
}

// faultBadChunk answers a chunked body whose second chunk size is not hex.
// Go: the response arrives; its body yields "hello", then an error
// "invalid byte in chunk length".
func (s *Server) faultBadChunk(w http.ResponseWriter, r *http.Request) {
	s.raw(w, r, []byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"+
		"5\r\nhello\r\nzz\r\nworld\r\n0\r\n\r\n"), false)
}

// faultHuge (?mb=100) streams mb MiB from one reused 64 KiB block, with a
// Content-Length: the server holds no more than the block.
func (s *Server) faultHuge(w http.ResponseWriter, r *http.Request) {
	mb, err := intParam(r, "mb", 100)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Length", strconv.FormatInt(int64(mb)<<20, 10))
	if r.Method == http.MethodHead {
		return
	}
	for range mb * 16 {
		if _, err := w.Write(hugeBlock); err != nil {
			return
		}
	}
}

var hugeBlock = pattern(64 << 10)
