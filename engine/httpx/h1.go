package httpx

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/netip"
	"net/textproto"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/net/http/httpguts"
	"golang.org/x/net/idna"
)

// h1 is the client's HTTP/1.1 transport. Each exchange runs start to end
// on the goroutine that asks for it (the virtual user's, or a lane's), on a
// connection kept for the next one: nothing runs in the background.
//
// net/http's Transport gives every connection a reader and a writer
// goroutine and hands each request between three goroutines; for a load
// generator that is most of its cost per request (CPU and about 40
// allocations) and most of its memory per virtual user (two more goroutine
// stacks and 8 KiB of buffers per connection). h1 writes what net/http
// writes, byte for byte, and reads responses with net/http's own parser
// (http.ReadResponse), so status lines, headers, chunked and
// length-delimited bodies and their errors are exactly net/http's.
//
// It never sends a request twice: a connection that fails is reported, not
// retried, as JMeter's HttpClient does (retrycount 0). An idle connection
// the server has closed is noticed before it is reused (a non-blocking
// peek after a pause, see alive), as net/http's background reader and
// HttpClient's stale-connection check do.
//
// Only the trace hooks GotConn, GotFirstResponseByte and Got1xxResponse
// are called.
type h1 struct {
	dial        func(ctx context.Context, network, addr string) (net.Conn, error)
	tlsConfig   *tls.Config
	idleTimeout time.Duration // an idle connection older than this is closed, not reused
	maxIdle     int           // idle connections kept per host
	// staleAfter is how long a connection may sit idle before its
	// liveness is checked on reuse (one non-blocking peek): back-to-back
	// requests skip the check.
	staleAfter time.Duration
	// quietFor is how long a connection may have been idle, unchecked,
	// for its next request to go out with the read of the response (send).
	quietFor time.Duration
	// closeCheck is how long a read on one of the transport's raw
	// connections waits before it looks whether the server has closed
	// its end (countingConn.readChecked); zero leaves the default, the
	// constant closeCheck. Per transport, so that a test can shorten it
	// for the client it makes.
	closeCheck time.Duration

	mu   sync.Mutex
	idle []*h1conn // shared idle connections, most recently used last
}

// staleAfter and quietFor are the transport's defaults.
const (
	staleAfter = 100 * time.Millisecond
	quietFor   = time.Millisecond
)

// maxHead caps a response head, as net/http's MaxResponseHeaderBytes
// default does.
const maxHead = 10 << 20

// h1ReadBuffer is the size of a connection's read buffer: a response head
// up to this size is parsed straight from it (longer ones still work).
const h1ReadBuffer = 4 << 10

// readers are the read buffers of connections reading a response. A
// connection takes one when its response comes (readResponse: a request
// sent with its read waits without one, rawIO.await) and gives it back
// when it goes idle with nothing buffered (dropReader): a virtual user
// waiting for a slow server, in a timer, or between iterations keeps no
// 4 KiB buffer. A Get and a Put of a pool per request cost no allocation
// and no global lock.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, h1ReadBuffer) }}

// h1conn is one connection and what it needs between requests.
type h1conn struct {
	t      *h1
	scheme string
	addr   string        // host:port dialled
	src    netip.Addr    // the local address asked for; zero: any
	nc     net.Conn      // what requests go over (a *tls.Conn for https)
	br     *bufio.Reader // reads through the connection's Read; nil until a response comes (readers)
	limit  int64         // bytes the connection may still read (response heads are capped)
	wbuf   []byte        // the request head, and a small body with it
	idleAt time.Time
	reused bool
	// ctx is the context whose end aborts the connection's exchange;
	// stop unregisters that.
	ctx  context.Context
	stop func() bool
	// quiet: the connection is new, was checked, or was idle only briefly
	// (see send); sentWithRead: the request goes out with the response's
	// first read
	quiet, sentWithRead bool
}

// h1body is a response body on a connection: when it has been read to its
// end, or closed, the connection goes back to the pool (or is closed when
// the exchange said so).
type h1body struct {
	pc *h1conn
	// rc is the body of a response http.ReadResponse parsed; nil for a
	// response fastHead parsed, whose body is the next left bytes.
	rc    io.ReadCloser
	left  int64
	keep  bool // the connection may carry another request
	done  bool
	owner *Lane // the lane the connection goes back to
}

func (b *h1body) Read(p []byte) (int, error) {
	if b.done {
		return 0, io.EOF
	}
	if b.rc != nil {
		n, err := b.rc.Read(p)
		if err != nil {
			b.finish(err == io.EOF)
		}
		return n, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.pc.br.Read(p)
	b.left -= int64(n)
	switch {
	case b.left == 0:
		b.finish(true)
		return n, io.EOF
	case err == io.EOF:
		err = io.ErrUnexpectedEOF // as net/http's body says
	}
	if err != nil {
		b.finish(false)
	}
	return n, err
}

// Close drains what is left of the body, so that the connection can be
// reused, as HttpClient does when a response is released (net/http's
// Transport would close the connection instead).
func (b *h1body) Close() error {
	if b.done {
		return nil
	}
	if b.rc == nil {
		_, err := io.Copy(io.Discard, b)
		return err
	}
	err := b.rc.Close()
	b.finish(err == nil)
	return err
}

func (b *h1body) finish(clean bool) {
	b.done = true
	pc := b.pc
	if clean && b.keep {
		pc.t.put(b.owner, pc)
		return
	}
	pc.close()
}

// RoundTrip sends req for the http.Client the client keeps for redirects
// it follows itself.
func (t *h1) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	l, _ := ctx.Value(laneKey{}).(*Lane)
	x := new(exchange)
	resp, err := t.roundTrip(ctx, req, l, httptrace.ContextClientTrace(ctx), x)
	if err != nil {
		return nil, err
	}
	if resp.Header == nil { // fastHead's: net/http's Client reads the map
		resp.Header = x.head.Map()
	}
	return resp, nil
}

// exchange holds a response and its body: a lane reuses its own from one
// request to the next, with what it worked out from the last request's URL.
type exchange struct {
	resp http.Response
	head Head // resp's header, when fastHead read it
	body h1body
	tgt  target
	// keepHead asks for the request head written, in sent: a view of
	// sentBuf, which the lane reuses.
	keepHead bool
	sent     string
	sentBuf  []byte
}

// target is what a request's URL and Host give: the address to dial, the
// Host header and the request URI, worked out once per URL.
type target struct {
	u          *url.URL // the URL and Host it was worked out for
	reqHost    string
	addr, host string
	ruri       string
	err        error
}

// targetOf works out (or recalls, for the same URL and Host) where req goes.
func (x *exchange) targetOf(req *http.Request) *target {
	t := &x.tgt
	if t.u == req.URL && t.reqHost == req.Host && t.u != nil {
		return t
	}
	*t = target{u: req.URL, reqHost: req.Host, addr: canonicalAddr(req.URL)}
	host := req.Host
	if host == "" {
		host = req.URL.Host
	}
	host, err := httpguts.PunycodeHostPort(host)
	if err != nil {
		t.err = err
		return t
	}
	if !httpguts.ValidHostHeader(host) {
		host = ""
	}
	t.host = removeZone(host)
	t.ruri = req.URL.RequestURI()
	if strings.IndexFunc(t.ruri, func(r rune) bool { return r < ' ' || r == 0x7f }) >= 0 {
		t.err = errors.New("net/http: can't write control character in Request.URL")
	}
	return t
}

// roundTrip sends req on a connection of the lane's (or the pool's, or a
// new one) and reads the response head into x.
func (t *h1) roundTrip(ctx context.Context, req *http.Request, l *Lane, trace *httptrace.ClientTrace, x *exchange) (*http.Response, error) {
	if err := t.check(req); err != nil {
		closeReqBody(req)
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		closeReqBody(req)
		return nil, err
	}
	tg := x.targetOf(req)
	if tg.err != nil {
		closeReqBody(req)
		return nil, tg.err
	}
	pc, err := t.conn(ctx, l, req.URL.Scheme, tg.addr)
	if err != nil {
		closeReqBody(req)
		return nil, err
	}
	if trace != nil && trace.GotConn != nil {
		// WasIdle without IdleTime: the lanes' trace does not read it, and
		// a clock read per request is not free.
		trace.GotConn(httptrace.GotConnInfo{Conn: pc.nc, Reused: pc.reused, WasIdle: pc.reused})
	}
	n, err := pc.write(req, tg)
	if err != nil {
		pc.close()
		return nil, pc.failure(ctx, err)
	}
	if x.keepHead {
		x.sentBuf = append(x.sentBuf[:0], pc.wbuf[:n]...)
		x.sent = unsafe.String(unsafe.SliceData(x.sentBuf), len(x.sentBuf))
	}
	resp, err := pc.readResponse(req, trace, &x.resp, &x.head)
	if err != nil {
		pc.close()
		return nil, pc.failure(ctx, err)
	}
	body := &x.body
	// After 101 Switching Protocols the connection speaks another protocol.
	keep := resp.StatusCode != http.StatusSwitchingProtocols && !resp.Close && !req.Close &&
		!httpguts.HeaderValuesContainsToken(req.Header["Connection"], "close")
	*body = h1body{pc: pc, rc: resp.Body, owner: l, keep: keep}
	if resp.Body == nil { // fastHead's
		body.left = resp.ContentLength
		if body.left == 0 {
			resp.Body = http.NoBody
		}
	}
	if resp.Body == http.NoBody {
		body.finish(true)
		return resp, nil
	}
	resp.Body = body
	return resp, nil
}

// check refuses what net/http refuses before sending anything.
func (t *h1) check(req *http.Request) error {
	if req.URL == nil {
		return errors.New("http: nil Request.URL")
	}
	if req.Header == nil {
		return errors.New("http: nil Request.Header")
	}
	if s := req.URL.Scheme; s != "http" && s != "https" {
		return fmt.Errorf("unsupported protocol scheme %q", s)
	}
	if req.URL.Host == "" {
		return errors.New("http: no Host in request URL")
	}
	for k, vv := range req.Header {
		if !httpguts.ValidHeaderFieldName(k) {
			return fmt.Errorf("net/http: invalid header field name %q", k)
		}
		for _, v := range vv {
			if !httpguts.ValidHeaderFieldValue(v) {
				return fmt.Errorf("net/http: invalid header field value for %q", k)
			}
		}
	}
	return nil
}

// failure is what a broken exchange reports: the end of the run when the
// context ended (the connection was closed under the request), else err.
func (pc *h1conn) failure(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	return err
}

func closeReqBody(req *http.Request) {
	if req.Body != nil && req.Body != http.NoBody {
		req.Body.Close()
	}
}

// canonicalAddr is the host:port to dial for u, the port filled in from
// the scheme and the name in ASCII (net/http's canonicalAddr).
func canonicalAddr(u *url.URL) string {
	port := u.Port()
	if port != "" && !strings.Contains(u.Host, "%") && isASCII(u.Host) {
		return u.Host // already host:port: no allocation
	}
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	host := u.Hostname()
	if !isASCII(host) {
		if v, err := idna.Lookup.ToASCII(host); err == nil {
			host = v
		}
	}
	return net.JoinHostPort(host, port)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// conn returns a connection to addr: the lane's own idle one, one from the
// pool, or a new one.
func (t *h1) conn(ctx context.Context, l *Lane, scheme, addr string) (*h1conn, error) {
	now := time.Time{} // a lane's exchange began just now; else read the clock once
	if l != nil {
		now = l.start
	}
	if now.IsZero() {
		now = time.Now()
	}
	var src netip.Addr
	if l != nil {
		if p := l.source.Load(); p != nil {
			src = *p
		}
		if pc := l.idle; pc != nil && pc.scheme == scheme && pc.addr == addr && pc.src == src {
			l.idle = nil
			if pc.usable(now) {
				pc.arm(ctx)
				return pc, nil
			}
			pc.close()
		}
	}
	for {
		pc := t.take(scheme, addr, src)
		if pc == nil {
			break
		}
		if pc.usable(now) {
			pc.arm(ctx)
			return pc, nil
		}
		pc.close()
	}
	nc, err := t.dial(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	cc, counting := nc.(*countingConn)
	if counting && t.closeCheck > 0 {
		cc.closeCheck = t.closeCheck
	}
	if scheme == "https" {
		cfg := t.tlsConfig.Clone()
		if cfg.ServerName == "" {
			// the name dialled, in ASCII (punycode), as net/http sends it
			cfg.ServerName, _, _ = net.SplitHostPort(addr)
		}
		// Bytes are counted above TLS, as JMeter counts them (what HTTP
		// sends and receives, not the records and the handshake).
		raw := nc
		if counting {
			raw = cc.Conn
		}
		tc := tls.Client(raw, cfg)
		hctx := ctx
		if l != nil {
			// HttpClient reads the handshake with the connect timeout as
			// its socket timeout (when no other is set).
			if to := l.dialTimeout.Load(); to > 0 {
				var cancel context.CancelFunc
				hctx, cancel = context.WithTimeout(ctx, time.Duration(to))
				defer cancel()
			}
		}
		if err := tc.HandshakeContext(hctx); err != nil {
			nc.Close()
			return nil, err
		}
		if counting {
			cc.wrap(tc)
		} else {
			nc = tc
		}
	}
	pc := &h1conn{t: t, scheme: scheme, addr: addr, src: src, nc: nc, limit: math.MaxInt64, quiet: true}
	pc.arm(ctx)
	return pc, nil
}

// take removes and returns the pool's most recently used idle connection
// to addr from src, or nil.
func (t *h1) take(scheme, addr string, src netip.Addr) *h1conn {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i := len(t.idle) - 1; i >= 0; i-- {
		if pc := t.idle[i]; pc.scheme == scheme && pc.addr == addr && pc.src == src {
			t.idle = slices.Delete(t.idle, i, i+1)
			return pc
		}
	}
	return nil
}

// put makes pc idle: the lane keeps it for its next request, and the
// connection the lane kept before, if any, goes to the pool.
func (t *h1) put(l *Lane, pc *h1conn) {
	// Idle since its response's first byte, when the lane has that time:
	// a body's worth early, which only makes the idle checks careful.
	if l != nil && !l.firstB.IsZero() {
		pc.idleAt = l.firstB
	} else {
		pc.idleAt = time.Now()
	}
	pc.reused = true
	pc.dropReader()
	if l != nil {
		old := l.idle
		l.idle = pc
		if old == nil {
			return
		}
		pc = old
	}
	t.mu.Lock()
	n := 0
	for _, p := range t.idle {
		if p.scheme == pc.scheme && p.addr == pc.addr {
			n++
		}
	}
	if n < t.maxIdle {
		t.idle = append(t.idle, pc)
		pc = nil
	}
	t.mu.Unlock()
	if pc != nil {
		pc.close()
	}
}

// CloseIdleConnections closes the pool's idle connections; the lanes'
// own are closed by Client.CloseIdle.
func (t *h1) CloseIdleConnections() {
	t.mu.Lock()
	idle := t.idle
	t.idle = nil
	t.mu.Unlock()
	for _, pc := range idle {
		pc.close()
	}
}

// usable reports whether an idle connection may carry another request at
// now: not idle too long, and still open at the other end.
func (pc *h1conn) usable(now time.Time) bool {
	idle := now.Sub(pc.idleAt) // the monotonic clock only
	if pc.t.idleTimeout > 0 && idle > pc.t.idleTimeout {
		return false
	}
	if pc.br != nil { // kept by dropReader: bytes nobody asked for
		return false // the exchange is out of step
	}
	pc.quiet = idle < pc.t.quietFor
	if idle < pc.t.staleAfter {
		return true
	}
	pc.quiet = true // checked just now
	return alive(pc.nc)
}

// arm makes the end of ctx abort the connection's exchange, by closing it.
func (pc *h1conn) arm(ctx context.Context) {
	if pc.ctx == ctx {
		return
	}
	if pc.stop != nil {
		pc.stop()
		pc.stop = nil
	}
	pc.ctx = ctx
	if ctx.Done() != nil {
		nc := pc.nc
		pc.stop = context.AfterFunc(ctx, func() { nc.Close() })
	}
}

// Read reads from the connection for its buffered reader, within the
// limit set while a response head is read.
func (pc *h1conn) Read(p []byte) (int, error) {
	if pc.limit <= 0 {
		return 0, errHeadTooLong
	}
	if int64(len(p)) > pc.limit {
		p = p[:pc.limit]
	}
	n, err := pc.nc.Read(p)
	pc.limit -= int64(n)
	return n, err
}

var errHeadTooLong = fmt.Errorf("net/http: server response headers exceeded %d bytes; aborted", maxHead)

func (pc *h1conn) close() {
	if pc.stop != nil {
		pc.stop()
		pc.stop = nil
	}
	pc.nc.Close()
	if pc.br != nil { // what it holds is of no use now
		pc.putReader()
	}
}

// takeReader gives the connection a read buffer for an exchange.
func (pc *h1conn) takeReader() {
	if pc.br == nil {
		pc.br = readers.Get().(*bufio.Reader)
		pc.br.Reset(pc)
	}
}

// dropReader gives an idle connection's read buffer back, unless it holds
// bytes (which make the connection unusable, see usable).
func (pc *h1conn) dropReader() {
	if pc.br != nil && pc.br.Buffered() == 0 {
		pc.putReader()
	}
}

func (pc *h1conn) putReader() {
	pc.br.Reset(nil)
	readers.Put(pc.br)
	pc.br = nil
}

// readResponse reads the response head, skipping informational (1xx)
// responses as net/http does.
func (pc *h1conn) readResponse(req *http.Request, trace *httptrace.ClientTrace, into *http.Response, head *Head) (*http.Response, error) {
	// Nothing at all (the server closed the connection): io.EOF, which
	// JMeter calls "failed to respond"; http.ReadResponse would say
	// io.ErrUnexpectedEOF.
	if pc.sentWithRead && pc.br == nil {
		// Wait for the response without a read buffer: a user waiting
		// for a slow server keeps none.
		if err := pc.nc.(*countingConn).await(); err != nil {
			pc.sentWithRead = false
			return nil, err
		}
	}
	pc.takeReader()
	pc.limit = maxHead + int64(pc.br.Buffered())
	defer func() { pc.limit = math.MaxInt64 }()
	if pc.br.Buffered() == 0 && !pc.sentWithRead {
		// Just after the request went out the response is rarely there:
		// reading at once costs a failed read, a park in the poller and a
		// wake-up. Other virtual users run first instead; by the time
		// this one is back its response has mostly arrived. Alone, it
		// goes on at once. (A request sent with the read waits in the
		// poller at no such cost.)
		runtime.Gosched()
	}
	pc.sentWithRead = false
	if _, err := pc.br.Peek(1); err != nil {
		return nil, err
	}
	if trace != nil && trace.GotFirstResponseByte != nil {
		trace.GotFirstResponseByte()
	}
	if resp := pc.fastHead(req, into, head); resp != nil {
		return resp, nil
	}
	for n1xx := 0; ; n1xx++ {
		resp, err := http.ReadResponse(pc.br, req)
		if err != nil {
			if pc.limit <= 0 {
				err = errHeadTooLong
			}
			return nil, err
		}
		if c := resp.StatusCode; c >= 100 && c < 200 && c != http.StatusSwitchingProtocols {
			if n1xx >= 5 {
				return nil, errors.New("net/http: too many 1xx informational responses")
			}
			if trace != nil && trace.Got1xxResponse != nil {
				if err := trace.Got1xxResponse(c, textproto.MIMEHeader(resp.Header)); err != nil {
					return nil, err
				}
			}
			pc.limit = maxHead + int64(pc.br.Buffered()) // each head has its own cap, as in net/http
			continue
		}
		return resp, nil
	}
}

// fastHead parses the response head when all of it is in the read buffer
// already and it has the usual shape: HTTP/1.1, a status whose response
// has a body (not 1xx, 204 or 304, not to a HEAD), one Content-Length, no
// Transfer-Encoding, Trailer or Pragma, every line ending in CRLF, names
// that are tokens, values without control bytes, no folded lines. It
// returns the response http.ReadResponse would return, but without a
// Header (its fields go to head, as the lines they came in, one string for
// the whole head) and without a Body (the caller reads ContentLength
// bytes). For any other head it returns nil and leaves the buffer as it
// was, for http.ReadResponse, whose errors gojm knows how to name.
func (pc *h1conn) fastHead(req *http.Request, into *http.Response, head *Head) *http.Response {
	if req.Method == "HEAD" {
		return nil
	}
	buf, _ := pc.br.Peek(pc.br.Buffered())
	end := bytes.Index(buf, crlfcrlf)
	if end < 0 {
		return nil
	}
	whole := string(buf[:end+2]) // every line with its CRLF
	line, fields, _ := strings.Cut(whole, "\n")
	if !strings.HasPrefix(line, "HTTP/1.1 ") || !strings.HasSuffix(line, "\r") {
		return nil
	}
	status := strings.TrimLeft(line[len("HTTP/1.1 "):len(line)-1], " ")
	if len(status) < 3 || len(status) > 3 && status[3] != ' ' {
		return nil
	}
	code := 0
	for i := 0; i < 3; i++ {
		c := status[i]
		if c < '0' || c > '9' {
			return nil
		}
		code = code*10 + int(c-'0')
	}
	if code < 200 || code == http.StatusNoContent || code == http.StatusNotModified {
		return nil
	}
	length := int64(-1)
	closing := false
	for rest := fields; rest != ""; {
		kv, more, _ := strings.Cut(rest, "\n")
		rest = more
		if len(kv) < 2 || kv[len(kv)-1] != '\r' || kv[0] == ' ' || kv[0] == '\t' {
			return nil // a bare LF, an empty or a folded line
		}
		k, v, ok := strings.Cut(kv[:len(kv)-1], ":")
		if !ok || k == "" {
			return nil
		}
		for i := 0; i < len(k); i++ {
			if !httpguts.IsTokenRune(rune(k[i])) {
				return nil
			}
		}
		if !httpguts.ValidHeaderFieldValue(v) {
			return nil
		}
		// the fields that change how the response is read (by length,
		// which rules out most names at once)
		switch len(k) {
		case len("Pragma"), len("Trailer"), len("Transfer-Encoding"):
			if strings.EqualFold(k, "Pragma") || strings.EqualFold(k, "Trailer") || strings.EqualFold(k, "Transfer-Encoding") {
				return nil
			}
		case len("Connection"):
			if strings.EqualFold(k, "Connection") {
				one := [1]string{v}
				closing = closing || httpguts.HeaderValuesContainsToken(one[:], "close")
			}
		case len("Content-Length"):
			if !strings.EqualFold(k, "Content-Length") {
				break
			}
			v = trimOWS(v)
			if length >= 0 || v == "" || len(v) > 18 {
				return nil
			}
			length = 0
			for i := 0; i < len(v); i++ {
				if v[i] < '0' || v[i] > '9' {
					return nil
				}
				length = length*10 + int64(v[i]-'0')
			}
		}
	}
	if length < 0 {
		return nil
	}
	pc.br.Discard(end + 4)
	*head = Head{lines: fields, noConn: closing}
	*into = http.Response{Status: status, StatusCode: code, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		ContentLength: length, Close: closing, Request: req}
	return into
}

var crlfcrlf = []byte("\r\n\r\n")
