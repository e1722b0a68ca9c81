package httpx

import (
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/net/http/httpguts"
)

// write sends the request head and body as net/http's Request.write does:
// request line, Host, User-Agent (only when the header has a non-empty
// one), Content-Length or chunked Transfer-Encoding by net/http's rules,
// then the other headers sorted by name, values in order.
func (pc *h1conn) write(req *http.Request, tg *target) (head int, err error) {
	host, ruri := tg.host, tg.ruri
	method := req.Method
	if method == "" {
		method = "GET"
	}
	b := pc.wbuf[:0]
	b = append(b, method...)
	b = append(b, ' ')
	b = append(b, ruri...)
	b = append(b, " HTTP/1.1\r\nHost: "...)
	b = append(b, host...)
	b = append(b, "\r\n"...)
	if ua, ok := req.Header["User-Agent"]; ok && len(ua) > 0 {
		if ua[0] != "" { // net/http trims a value only once it has chosen to send it
			b = append(b, "User-Agent: "...)
			b = append(b, cleanValue(ua[0])...)
			b = append(b, "\r\n"...)
		}
	} else if !ok {
		b = append(b, "User-Agent: Go-http-client/1.1\r\n"...)
	}

	// the body and how its length is told (net/http's transferWriter)
	body := req.Body
	n := req.ContentLength
	if body == nil || body == http.NoBody {
		body, n = nil, 0
	} else if n == 0 {
		n = -1 // a body of unknown length
	}
	chunked := n < 0
	if len(req.TransferEncoding) > 0 && req.TransferEncoding[0] == "chunked" {
		chunked = true
	}
	identity := len(req.TransferEncoding) == 0 || len(req.TransferEncoding) == 1 && req.TransferEncoding[0] == "identity"
	if req.Close && !httpguts.HeaderValuesContainsToken(req.Header["Connection"], "close") {
		b = append(b, "Connection: close\r\n"...)
	}
	switch {
	case chunked:
		b = append(b, "Transfer-Encoding: chunked\r\n"...)
	case n > 0,
		method == "POST" || method == "PUT" || method == "PATCH",
		identity && len(req.TransferEncoding) == 1 && method != "GET" && method != "HEAD":
		b = append(b, "Content-Length: "...)
		b = strconv.AppendInt(b, n, 10)
		b = append(b, "\r\n"...)
	}
	b = appendHeaders(b, req.Header)
	b = append(b, "\r\n"...)
	head = len(b) // pc.wbuf[:head] holds the head after any path below

	if body == nil {
		pc.wbuf = b
		return head, pc.send(b)
	}
	defer body.Close()
	// A small body of known length goes out with the head, in one write.
	if !chunked && n <= 16<<10 && int64(cap(b)-len(b)) >= n || !chunked && n <= 1<<10 {
		m := len(b)
		b = slices.Grow(b, int(n))[:m+int(n)]
		got, err := io.ReadFull(body, b[m:])
		pc.wbuf = b[:0]
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return head, fmt.Errorf("http: ContentLength=%d with Body length %d", n, got)
		}
		if err != nil {
			return head, err // the body's own failure (an upload that cannot be read)
		}
		return head, pc.send(b)
	}
	pc.wbuf = b
	if _, err := pc.nc.Write(b); err != nil {
		return head, err
	}
	buf := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(buf)
	if chunked {
		return head, writeChunked(pc.nc, body, *buf)
	}
	got, err := io.CopyBuffer(onlyWriter{pc.nc}, io.LimitReader(body, n), *buf)
	if err != nil {
		return head, err
	}
	if got != n {
		return head, fmt.Errorf("http: ContentLength=%d with Body length %d", n, got)
	}
	return head, nil
}

// send sends b, a whole request. On a raw connection the first read of
// the response writes it (rawIO.writeThenRead), and its failure is that
// read's. That read no longer looks at the socket before it waits, so it
// misses what arrived while the connection was idle: a server that closed
// it in full answers the request with a reset, which ends the wait, but
// one that only stopped sending (a half close) leaves it waiting until the
// read next looks (countingConn.readChecked, within ten seconds). So that
// this stays rare, the request goes out this way only on a connection
// that is new, passed the liveness check, or was idle under quietFor (a
// server that half closes so soon after a response it did not mark as
// the last one is not speaking HTTP/1.1).
func (pc *h1conn) send(b []byte) error {
	if cc, ok := pc.nc.(*countingConn); ok && pc.quiet && pc.br == nil && cc.writeThenRead(b) {
		pc.sentWithRead = true
		return nil
	}
	_, err := pc.nc.Write(b)
	return err
}

var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// onlyWriter hides a writer's ReadFrom, so that io.CopyBuffer uses the
// buffer it is given.
type onlyWriter struct{ w io.Writer }

func (o onlyWriter) Write(p []byte) (int, error) { return o.w.Write(p) }

// writeChunked sends body in chunked transfer coding.
func writeChunked(w io.Writer, body io.Reader, buf []byte) error {
	const room = 12 // chunk size line
	for {
		n, err := body.Read(buf[room : len(buf)-2])
		if n > 0 {
			head := strconv.AppendInt(buf[:0:room], int64(n), 16)
			head = append(head, "\r\n"...)
			start := room - len(head)
			copy(buf[start:], head)
			end := room + n
			buf[end], buf[end+1] = '\r', '\n'
			if _, werr := w.Write(buf[start : end+2]); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			_, werr := io.WriteString(w, "0\r\n\r\n")
			return werr
		}
		if err != nil {
			return err
		}
	}
}

// excluded are the headers net/http writes itself, or never.
func excluded(k string) bool {
	switch k {
	case "Host", "User-Agent", "Content-Length", "Transfer-Encoding", "Trailer":
		return true
	}
	return false
}

// appendHeaders appends h's fields sorted by name, as http.Header.Write
// does, without allocating for a header of up to 16 names.
func appendHeaders(b []byte, h http.Header) []byte {
	var arr [16]string
	keys := arr[:0]
	for k := range h {
		if !excluded(k) {
			keys = append(keys, k)
		}
	}
	// insertion sort: a handful of names
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	for _, k := range keys {
		for _, v := range h[k] {
			b = append(b, k...)
			b = append(b, ": "...)
			b = append(b, cleanValue(v)...)
			b = append(b, "\r\n"...)
		}
	}
	return b
}

// cleanValue is a header value as net/http writes it: line breaks as
// spaces, surrounding white space trimmed.
func cleanValue(v string) string {
	if strings.ContainsAny(v, "\r\n") {
		v = strings.NewReplacer("\n", " ", "\r", " ").Replace(v)
	}
	return textproto.TrimString(v)
}

// removeZone drops an IPv6 zone from a Host header (RFC 6874).
func removeZone(host string) string {
	if !strings.HasPrefix(host, "[") {
		return host
	}
	i := strings.LastIndex(host, "]")
	if i < 0 {
		return host
	}
	j := strings.LastIndex(host[:i], "%")
	if j < 0 {
		return host
	}
	return host[:j] + host[i:]
}
