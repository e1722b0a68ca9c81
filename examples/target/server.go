package target

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Options configures a Server. The zero value records every request and
// serves plain HTTP on loopback only.
type Options struct {
	// CountOnly keeps only the request counter, not the requests themselves:
	// memory stays flat however long a load test runs.
	CountOnly bool
	// MaxBody is how many bytes of each request body the recorder keeps
	// (the rest is read and counted, not kept). 0 means 1 MiB.
	MaxBody int
	// AllowRemote lets Start listen on addresses other than loopback.
	AllowRemote bool
	// TLS makes Start serve HTTPS with a self-signed certificate for
	// 127.0.0.1, ::1 and localhost (see Server.Certificate).
	TLS bool
	// ErrorLog receives net/http's own errors; nil discards them.
	ErrorLog *log.Logger
	// BookQuery is how long the book list's database query takes
	// (/grails-slc/book/list runs it on every request, listCached once a
	// minute); 0 means DefaultBookQuery, a negative value none.
	BookQuery time.Duration
}

// DefaultBookQuery is the book list's query time unless Options say.
const DefaultBookQuery = 2 * time.Millisecond

// Server is the example and test target. Its zero value is not usable; call
// NewServer. It is an http.Handler, so it can be mounted anywhere, but the
// exact header order and connection ids of recorded requests are only known
// when it serves its own listener (Start): elsewhere headers come from
// http.Request.Header, sorted by canonical name, and Conn is 0.
//
// Endpoints (any method unless stated):
//
//	/, /mirror/...           the raw request back as text/plain, status 200
//	/fast                    a fixed 383-byte HTML page
//	/sleep?ms=N              waits N ms, then answers
//	/big?kb=N                N KiB of generated text
//	/status/{code}           that status code (200-599)
//	/json                    a JSON document with a token and a list of books
//	/login                   POST form user, pass (pass must be "secret"):
//	                         JSON {"token":…} and a session cookie
//	/books                   the books as JSON; needs "Authorization: Bearer
//	                         <token>" or the session cookie, else 401
//	/grails-slc/book/list    an HTML book list page, rendered from a query of
//	                         the books (Options.BookQuery) on every request
//	/grails-slc/book/listCached  the same page from a second-level cache
//	                         that queries once a minute, with ETag,
//	                         Last-Modified and Cache-Control, answering 304
//	                         to revalidations
//	/redirect/{n}            302 to /redirect/{n-1}; /redirect/0 answers 200
//	/redirect-loop           302 to itself, forever
//
// Faults (what a Go client observes is asserted in faults_test.go):
//
//	/fault/reset-before      RST, no response byte (ECONNRESET)
//	/fault/reset-during?sent=100&length=1000
//	                         headers for length bytes, sent of them
//	                         (a…z repeating), then RST
//	/fault/close-keepalive[?wait=next]
//	                         a keep-alive 200 "ok\n", then FIN; with
//	                         wait=next, first read (and record) the next
//	                         request on the connection, never answered
//	/fault/slow-headers?ms=1000   answers "ok\n" after ms
//	/fault/trickle?bytes=10&every=100
//	                         headers at once, then one body byte every ms
//	/fault/bad-status        "HTTP/1.1 abc", then FIN
//	/fault/bad-header        a header line with no colon
//	/fault/bad-chunk         chunked body "hello", then a non-hex size
//	/fault/huge?mb=100       mb MiB streamed from one 64 KiB block
//
// A handler that waits (sleep, slow-headers, trickle, X-Sleep) closes the
// connection without finishing the response when the client goes away or
// the server closes.
//
// A path that is not in canonical form (//x, /a/../b) is mirrored, not
// redirected.
type Server struct {
	*Recorder

	opts    Options
	mux     *http.ServeMux
	tokens  sync.Map // token → user, filled by /login
	connSeq atomic.Uint64
	done    chan struct{}

	bookCache bookCache // listCached's second-level cache

	mu       sync.Mutex
	closed   bool
	active   sync.WaitGroup // handlers in flight
	hijacked map[net.Conn]struct{}
	hs       *http.Server
	url      string
	cert     *x509.Certificate

	arrived func(*http.Request) // test hook: called once a request is recorded
}

// NewServer returns a Server that is not listening yet.
func NewServer(opts Options) *Server {
	if opts.MaxBody <= 0 {
		opts.MaxBody = 1 << 20
	}
	switch {
	case opts.BookQuery == 0:
		opts.BookQuery = DefaultBookQuery
	case opts.BookQuery < 0:
		opts.BookQuery = 0
	}
	s := &Server{
		Recorder: newRecorder(opts.CountOnly, opts.MaxBody),
		opts:     opts,
		mux:      http.NewServeMux(),
		done:     make(chan struct{}),
		hijacked: map[net.Conn]struct{}{},
	}
	s.routes()
	return s
}

func (s *Server) routes() {
	m := s.mux
	m.HandleFunc("/", s.mirror)
	m.HandleFunc("/fast", s.fast)
	m.HandleFunc("/sleep", s.sleep)
	m.HandleFunc("/big", s.big)
	m.HandleFunc("/status/{code}", s.status)
	m.HandleFunc("/json", s.jsonDoc)
	m.HandleFunc("/login", s.login)
	m.HandleFunc("/books", s.books)
	m.HandleFunc("/grails-slc/book/list", s.bookList)
	m.HandleFunc("/grails-slc/book/listCached", s.bookListCached)
	m.HandleFunc("/redirect/{n}", s.redirect)
	m.HandleFunc("/redirect-loop", s.redirectLoop)
	m.HandleFunc("/fault/", s.faultIndex)
	m.HandleFunc("/fault/reset-before", s.faultResetBefore)
	m.HandleFunc("/fault/reset-during", s.faultResetDuring)
	m.HandleFunc("/fault/close-keepalive", s.faultCloseKeepAlive)
	m.HandleFunc("/fault/slow-headers", s.faultSlowHeaders)
	m.HandleFunc("/fault/trickle", s.faultTrickle)
	m.HandleFunc("/fault/bad-status", s.faultBadStatus)
	m.HandleFunc("/fault/bad-header", s.faultBadHeader)
	m.HandleFunc("/fault/bad-chunk", s.faultBadChunk)
	m.HandleFunc("/fault/huge", s.faultHuge)
}

// Handler returns the server as an http.Handler (see Server for what is lost
// when it is not serving its own listener).
func (s *Server) Handler() http.Handler { return s }

// ServeHTTP records the request, then routes it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		http.Error(w, "server closed", http.StatusServiceUnavailable)
		return
	}
	s.active.Add(1)
	s.mu.Unlock()
	defer s.active.Done()

	ex := &exchange{}
	if c, ok := r.Context().Value(connKey{}).(*captureConn); ok {
		ex.conn = c.id
		ex.head = c.takeHead(r)
	}
	if ex.head == nil {
		ex.head = reconstructHead(r)
	}
	r = r.WithContext(context.WithValue(r.Context(), exchangeKey{}, ex))

	idx, tap := s.begin(r, ex)
	if s.arrived != nil {
		s.arrived(r)
	}
	if tap != nil {
		rw := &recordingWriter{ResponseWriter: w, settle: func(drain bool) {
			if drain {
				_, _ = io.Copy(io.Discard, tap)
			}
			s.finish(idx, tap)
		}}
		defer func() { rw.settleOnce(!ex.hijacked) }()
		w = rw
	}
	if p := r.URL.Path; p != "" && p != cleanPath(p) {
		s.mirror(w, r)
	} else {
		s.mux.ServeHTTP(w, r)
	}
}

// recordingWriter completes a request's record before the first byte of
// its response is written, so a client that has seen a response finds its
// request fully recorded: the body the handler left unread is read and
// counted first (a client waiting on "Expect: 100-continue" gets its
// 100 Continue then). Flush and Hijack reach the real writer via Unwrap.
type recordingWriter struct {
	http.ResponseWriter
	settle  func(drain bool)
	settled bool
}

func (w *recordingWriter) settleOnce(drain bool) {
	if !w.settled {
		w.settled = true
		w.settle(drain)
	}
}

func (w *recordingWriter) WriteHeader(code int) {
	w.settleOnce(true)
	w.ResponseWriter.WriteHeader(code)
}

func (w *recordingWriter) Write(b []byte) (int, error) {
	w.settleOnce(true)
	return w.ResponseWriter.Write(b)
}

// Unwrap returns the real writer, for http.ResponseController.
func (w *recordingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// exchange is what the server knows about one request beyond http.Request.
type exchange struct {
	conn     uint64 // connection id, 0 when unknown
	head     []byte // request line, header lines and the blank line, as received
	hijacked bool   // a fault handler took the connection over
}

type exchangeKey struct{}

func exchangeOf(r *http.Request) *exchange {
	if ex, ok := r.Context().Value(exchangeKey{}).(*exchange); ok {
		return ex
	}
	return &exchange{head: reconstructHead(r)}
}

// cleanPath is path.Clean keeping a trailing slash.
func cleanPath(p string) string {
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c
}

// Start listens on addr (host:port; port 0 picks a free one) and serves in
// the background until Close. It refuses non-loopback hosts unless
// Options.AllowRemote is set.
func (s *Server) Start(addr string) error {
	if !s.opts.AllowRemote {
		if err := checkLoopback(addr); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("target: listen on %s: %w", addr, err)
	}
	scheme := "http"
	var inner net.Listener = ln
	if s.opts.TLS {
		cert, leaf, err := selfSigned()
		if err != nil {
			ln.Close()
			return fmt.Errorf("target: %w", err)
		}
		s.cert = leaf
		inner = tls.NewListener(ln, &tls.Config{
			Certificates: []tls.Certificate{cert},
			NextProtos:   []string{"http/1.1"},
		})
		scheme = "https"
	}
	errLog := s.opts.ErrorLog
	if errLog == nil {
		errLog = log.New(io.Discard, "", 0)
	}
	hs := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: time.Minute,
		ErrorLog:          errLog,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			return context.WithValue(ctx, connKey{}, c)
		},
	}
	s.mu.Lock()
	if s.closed || s.hs != nil {
		s.mu.Unlock()
		ln.Close()
		return errors.New("target: server already started or closed")
	}
	s.hs = hs
	s.url = scheme + "://" + ln.Addr().String()
	s.mu.Unlock()
	go hs.Serve(&captureListener{Listener: inner, seq: &s.connSeq})
	return nil
}

// checkLoopback reports an error unless addr's host is a loopback address
// or "localhost". An empty host means every interface and is refused.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("target: address %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("target: refusing to listen on non-loopback address %q (set AllowRemote to override)", addr)
}

// URL is the server's base URL, like "http://127.0.0.1:43127", with no
// trailing slash; empty before Start.
func (s *Server) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.url
}

// Certificate is the self-signed certificate of a TLS server (nil without
// Options.TLS or before Start). Trust it with x509.CertPool.AddCert.
func (s *Server) Certificate() *x509.Certificate {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cert
}

// Close stops listening, closes every connection (hijacked ones too), ends
// slow handlers and waits for all handlers to return. It is safe to call
// more than once.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.done)
	hs := s.hs
	for c := range s.hijacked {
		c.Close()
	}
	s.mu.Unlock()
	var err error
	if hs != nil {
		err = hs.Close()
	}
	s.active.Wait()
	if err != nil {
		return fmt.Errorf("target: close: %w", err)
	}
	return nil
}

// wait waits for d, or until the request is cancelled or the server closes;
// it reports whether the whole delay passed.
func (s *Server) wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-s.done:
		return false
	}
}

// abort ends the exchange without a response: the connection is closed, so
// the client sees it end rather than an empty 200.
func (s *Server) abort(w http.ResponseWriter, r *http.Request) {
	if _, release, err := s.hijack(w, r); err == nil {
		release()
	}
}

// hijack takes the connection over from net/http for a fault. The server
// closes it on Close if the handler has not.
func (s *Server) hijack(w http.ResponseWriter, r *http.Request) (net.Conn, func(), error) {
	if rec, ok := w.(*recordingWriter); ok {
		rec.settleOnce(false) // the record is complete before any fault byte
	}
	c, rw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return nil, nil, fmt.Errorf("target: hijack: %w", err)
	}
	exchangeOf(r).hijacked = true
	if n := rw.Reader.Buffered(); n > 0 {
		// Bytes net/http read ahead belong to the next request; keep them.
		c = &prefixConn{Conn: c, r: io.MultiReader(io.LimitReader(rw.Reader, int64(n)), c)}
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		c.Close()
		return nil, nil, errors.New("target: server closed")
	}
	s.hijacked[c] = struct{}{}
	s.mu.Unlock()
	release := func() {
		s.mu.Lock()
		delete(s.hijacked, c)
		s.mu.Unlock()
		c.Close()
	}
	return c, release, nil
}

// prefixConn is a net.Conn whose reads come from r first.
type prefixConn struct {
	net.Conn
	r io.Reader
}

func (c *prefixConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// NetConn returns the wrapped connection.
func (c *prefixConn) NetConn() net.Conn { return c.Conn }
