package httpx

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// captureConn is a connection that keeps what is written to it.
type captureConn struct {
	net.Conn
	buf bytes.Buffer
}

func (c *captureConn) Write(p []byte) (int, error) { return c.buf.Write(p) }

// The transport writes a request byte for byte as net/http does.
func TestH1WritesWhatNetHTTPWrites(t *testing.T) {
	withHeader := func(r *http.Request, kv ...string) *http.Request {
		for i := 0; i < len(kv); i += 2 {
			r.Header.Add(kv[i], kv[i+1])
		}
		return r
	}
	newReq := func(method, url string, body io.Reader) *http.Request {
		r, err := http.NewRequest(method, url, body)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	identity := func(r *http.Request) *http.Request {
		r.TransferEncoding = []string{"identity"}
		return r
	}
	hostOverride := func(r *http.Request) *http.Request { r.Host = "example.test:8080"; return r }
	closing := func(r *http.Request) *http.Request { r.Close = true; return r }
	for _, tc := range []struct {
		name string
		req  func() *http.Request
	}{
		{"GET, headers out of order, one name twice", func() *http.Request {
			return withHeader(newReq("GET", "http://h:81/a/b?q=1&r=%20", nil), "X-B", "2", "Accept", "*/*", "X-A", "1", "X-A", "again")
		}},
		{"no User-Agent sent when empty", func() *http.Request {
			return withHeader(newReq("GET", "http://h/", nil), "User-Agent", "")
		}},
		{"a User-Agent of spaces", func() *http.Request {
			return withHeader(newReq("GET", "http://h/", nil), "User-Agent", "  ")
		}},
		{"the plan's User-Agent first", func() *http.Request {
			return withHeader(newReq("GET", "http://h/", nil), "Zed", "z", "User-Agent", "JMeter")
		}},
		{"POST with a body", func() *http.Request {
			return withHeader(newReq("POST", "http://h/p", strings.NewReader("a=1&b=2")), "Content-Type", "application/x-www-form-urlencoded")
		}},
		{"POST without a body", func() *http.Request { return newReq("POST", "http://h/p", nil) }},
		{"DELETE with an empty entity", func() *http.Request { return identity(newReq("DELETE", "http://h/d", http.NoBody)) }},
		{"GET with an empty entity", func() *http.Request { return identity(newReq("GET", "http://h/g", http.NoBody)) }},
		{"PUT of unknown length", func() *http.Request {
			return newReq("PUT", "http://h/u", io.NopCloser(strings.NewReader("hello")))
		}},
		{"Host header", func() *http.Request { return hostOverride(newReq("GET", "http://h/", nil)) }},
		{"Connection: close", func() *http.Request { return closing(newReq("GET", "http://h/", nil)) }},
		{"IPv6 host with a zone", func() *http.Request { return newReq("GET", "http://[fe80::1%25en0]:8080/", nil) }},
		{"HEAD", func() *http.Request { return newReq("HEAD", "http://h/", nil) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want bytes.Buffer
			if err := tc.req().Write(&want); err != nil {
				t.Fatal(err)
			}
			c := &captureConn{}
			pc := &h1conn{nc: c}
			req := tc.req()
			n, err := pc.write(req, new(exchange).targetOf(req))
			if err != nil {
				t.Fatal(err)
			}
			if got := c.buf.String(); got != want.String() {
				t.Errorf("wrote\n%q\nnet/http writes\n%q", got, want.String())
			}
			// what the head was, for a results file that keeps it
			if head, _, _ := strings.Cut(want.String(), "\r\n\r\n"); string(pc.wbuf[:n]) != head+"\r\n\r\n" {
				t.Errorf("head %q, want %q", pc.wbuf[:n], head+"\r\n\r\n")
			}
		})
	}
}

// Header fields net/http refuses are refused with its words, before
// anything is sent.
func TestH1RefusesBadHeaders(t *testing.T) {
	tr := &h1{}
	for _, tc := range []struct {
		h    http.Header
		want string
	}{
		{http.Header{"X-Bad": {"a\r\nInjected: yes"}}, `net/http: invalid header field value for "X-Bad"`},
		{http.Header{"Bad Name": {"v"}}, `net/http: invalid header field name "Bad Name"`},
	} {
		r, _ := http.NewRequest("GET", "http://h/", nil)
		r.Header = tc.h
		if err := tr.check(r); err == nil || err.Error() != tc.want {
			t.Errorf("%v: %v, want %s", tc.h, err, tc.want)
		}
	}
}

// connCounter is a test server that counts the connections it accepts.
func connCounter(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, &conns
}

// One connection serves every request of a lane; a response that says
// "Connection: close" ends it, and the next request opens another.
func TestH1KeepsTheConnection(t *testing.T) {
	srv, conns := connCounter(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/close" {
			w.Header().Set("Connection", "close")
		}
		io.WriteString(w, strings.Repeat("x", 100))
	})
	c := New(Options{})
	var res Result
	for _, p := range []string{"/a", "/b", "/a", "/close", "/a", "/b"} {
		c.Do(context.Background(), &Request{Method: "GET", URL: srv.URL + p, KeepAlive: true}, &res)
		if res.Err != nil || res.Status != 200 {
			t.Fatalf("%s: %d %v", p, res.Status, res.Err)
		}
	}
	if n := conns.Load(); n != 2 {
		t.Errorf("%d connections, want 2", n)
	}
	// A request asking for "Connection: close" is not followed by another
	// on the same connection.
	c.Do(context.Background(), &Request{Method: "GET", URL: srv.URL + "/a"}, &res)
	c.Do(context.Background(), &Request{Method: "GET", URL: srv.URL + "/a", KeepAlive: true}, &res)
	if n := conns.Load(); n != 3 {
		t.Errorf("%d connections after a request with Connection: close, want 3", n)
	}
}

// An idle connection the server closed is not used again: the next
// request goes out on a new one and succeeds.
func TestH1DropsAConnectionTheServerClosed(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan int, 4)
	closed := make(chan struct{}, 4)
	go func() {
		for i := 1; ; i++ {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- i
			// one response, kept alive as far as the client knows; then
			// the server closes the connection while it is idle
			br := bufio.NewReader(conn)
			if _, err := http.ReadRequest(br); err == nil {
				io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
			}
			conn.Close()
			closed <- struct{}{}
		}
	}()
	c := New(Options{})
	c.tr.staleAfter = 0 // check on every reuse
	var res Result
	for i := 1; i <= 3; i++ {
		c.Do(context.Background(), &Request{Method: "GET", URL: "http://" + ln.Addr().String() + "/", KeepAlive: true}, &res)
		if res.Err != nil || res.Status != 200 {
			t.Fatalf("request %d: %d %v", i, res.Status, res.Err)
		}
		if got := <-accepted; got != i {
			t.Fatalf("request %d went out on connection %d", i, got)
		}
		// Once the server has closed the connection, the client's end
		// sees it closed as soon as the kernel has passed the FIN on.
		<-closed
		for n := 0; alive(c.main.idle.nc); n++ {
			if n > 1e6 {
				t.Fatal("the client's end never saw the connection closed")
			}
			runtime.Gosched()
		}
	}
}

// A connection the server closed while it was idle, unchecked, fails the
// next request with the end of the stream, whether that request went out
// before the read of its response or with it (h1conn.send). A server that
// only stopped sending (a half close) is noticed at once when the request
// goes out before the read, and after the transport's closeCheck when it
// goes with it.
func TestH1RequestOnAConnectionClosedWhileIdle(t *testing.T) {
	for _, tc := range []struct {
		name     string
		half     bool
		quietFor time.Duration
		timeout  time.Duration // the response timeout
	}{
		{"closed, request with the read", false, time.Hour, 0},
		{"closed, request before the read", false, 0, 0},
		{"half closed, request before the read", true, 0, 0},
		{"half closed, request with the read", true, time.Hour, 0},
		{"half closed, request with the read, timeout", true, time.Hour, time.Minute},
		{"half closed, request with the read, short timeout", true, time.Hour, 5 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			closed := make(chan struct{})
			go func() {
				conn, err := ln.Accept()
				if err != nil {
					return
				}
				defer conn.Close()
				br := bufio.NewReader(conn)
				if _, err := http.ReadRequest(br); err == nil {
					io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
				}
				if tc.half {
					conn.(*net.TCPConn).CloseWrite()
					close(closed)
					io.Copy(io.Discard, br) // until the client closes
					return
				}
				conn.Close()
				close(closed)
			}()
			c := New(Options{})
			c.tr.staleAfter = time.Hour // no liveness check
			c.tr.quietFor = tc.quietFor
			c.tr.closeCheck = 20 * time.Millisecond
			url := "http://" + ln.Addr().String() + "/"
			var res Result
			c.Do(context.Background(), &Request{Method: "GET", URL: url, KeepAlive: true}, &res)
			if res.Err != nil || res.Status != 200 {
				t.Fatalf("first request: %d %v", res.Status, res.Err)
			}
			<-closed
			for n := 0; alive(c.main.idle.nc); n++ {
				if n > 1e6 {
					t.Fatal("the client's end never saw the connection closed")
				}
				runtime.Gosched()
			}
			c.Do(context.Background(), &Request{Method: "GET", URL: url, KeepAlive: true, ResponseTimeout: tc.timeout}, &res)
			if !errors.Is(res.Err, io.EOF) {
				t.Errorf("second request: %d %v, want the end of the stream", res.Status, res.Err)
			}
		})
	}
}

// A read on a raw connection waits in spans of the transport's
// closeCheck, each ending in a look at the socket; together they wait for
// a slow response as long as the response timeout allows, and no longer.
func TestH1WaitsAcrossCloseChecks(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/never" {
			<-release
			return
		}
		time.Sleep(30 * time.Millisecond) // a slow server
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	defer close(release)
	c := New(Options{})
	c.tr.closeCheck = 5 * time.Millisecond
	var res Result
	c.Do(context.Background(), &Request{Method: "GET", URL: srv.URL + "/slow", KeepAlive: true}, &res)
	if res.Err != nil || res.Status != 200 {
		t.Fatalf("slow response without a timeout: %d %v", res.Status, res.Err)
	}
	c.Do(context.Background(), &Request{Method: "GET", URL: srv.URL + "/slow", KeepAlive: true, ResponseTimeout: time.Second}, &res)
	if res.Err != nil || res.Status != 200 {
		t.Fatalf("slow response within its timeout: %d %v", res.Status, res.Err)
	}
	const timeout = 40 * time.Millisecond
	start := time.Now()
	c.Do(context.Background(), &Request{Method: "GET", URL: srv.URL + "/never", KeepAlive: true, ResponseTimeout: timeout}, &res)
	var ne net.Error
	if !errors.As(res.Err, &ne) || !ne.Timeout() {
		t.Fatalf("no response: %d %v, want a timeout", res.Status, res.Err)
	}
	if waited := time.Since(start); waited < timeout*63/64 {
		t.Errorf("timed out after %v, before the response timeout of %v", waited, timeout)
	}
}

// Lanes running at the same time each get a connection of their own and
// keep it for their next request; CloseIdle closes them all.
func TestH1LanesKeepTheirConnections(t *testing.T) {
	release := make(chan struct{})
	srv, conns := connCounter(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/wait" {
			<-release
		}
		io.WriteString(w, "ok")
	})
	c := New(Options{})
	a, b := c.Main(), c.NewLane()
	get := func(l *Lane, path string) {
		var res Result
		l.Do(context.Background(), &Request{Method: "GET", URL: srv.URL + path, KeepAlive: true}, &res)
		if res.Err != nil || res.Status != 200 {
			t.Errorf("%s: %d %v", path, res.Status, res.Err)
		}
	}
	done := make(chan struct{})
	go func() {
		get(b, "/wait")
		close(done)
	}()
	// the main lane cannot have b's connection while b waits on it
	for conns.Load() < 2 {
		get(a, "/")
	}
	close(release)
	<-done
	get(a, "/")
	get(b, "/")
	if n := conns.Load(); n != 2 {
		t.Errorf("%d connections for two lanes", n)
	}
	c.CloseIdle()
	get(a, "/")
	get(b, "/")
	if n := conns.Load(); n != 4 {
		t.Errorf("%d connections after CloseIdle, want 4", n)
	}
}

// A lane sending to two servers in turn reuses a connection to each: the
// one it is not using waits in the client's pool.
func TestH1PoolKeepsTheOtherHost(t *testing.T) {
	one, n1 := connCounter(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "1") })
	two, n2 := connCounter(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "2") })
	c := New(Options{})
	var res Result
	for i := 0; i < 6; i++ {
		u := one.URL
		if i%2 == 1 {
			u = two.URL
		}
		c.Do(context.Background(), &Request{Method: "GET", URL: u + "/", KeepAlive: true}, &res)
		if res.Err != nil {
			t.Fatal(res.Err)
		}
	}
	if n1.Load() != 1 || n2.Load() != 1 {
		t.Errorf("connections: %d and %d, want one each", n1.Load(), n2.Load())
	}
}

// Informational responses are skipped; the final response is the result.
func TestH1SkipsInformationalResponses(t *testing.T) {
	addr, _ := rawServer(t, "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </s.css>\r\n\r\n"+
		"HTTP/1.1 201 Created\r\nContent-Length: 4\r\nConnection: close\r\n\r\ndone")
	c := New(Options{})
	var res Result
	c.Do(context.Background(), &Request{Method: "GET", URL: "http://" + addr + "/", KeepAlive: true,
		KeepBody: func(string) bool { return true }}, &res)
	if res.Err != nil || res.Status != 201 || string(res.Body) != "done" {
		t.Errorf("%d %q %v", res.Status, res.Body, res.Err)
	}
}

// Ending the context aborts a request waiting for its response.
func TestH1AbortsWithTheContext(t *testing.T) {
	arrived := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		<-r.Context().Done()
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-arrived
		cancel()
	}()
	c := New(Options{})
	var res Result
	c.Do(ctx, &Request{Method: "GET", URL: srv.URL + "/", KeepAlive: true}, &res)
	if !errors.Is(res.Err, context.Canceled) {
		t.Errorf("error %v, want the context's", res.Err)
	}
}

// A response head larger than net/http's limit is refused.
func TestH1CapsTheResponseHead(t *testing.T) {
	ln := answerOnce(t, func(conn net.Conn, _ *bufio.Reader) {
		io.WriteString(conn, "HTTP/1.1 200 OK\r\n")
		line := "X-Long: " + strings.Repeat("y", 1<<20) + "\r\n"
		for i := 0; i < 11; i++ {
			if _, err := io.WriteString(conn, line); err != nil {
				return
			}
		}
	})
	c := New(Options{})
	var res Result
	c.Do(context.Background(), &Request{Method: "GET", URL: "http://" + ln.Addr().String() + "/", KeepAlive: true,
		ResponseTimeout: 10 * time.Second}, &res)
	if res.Err == nil || !strings.Contains(res.Err.Error(), "server response headers exceeded") {
		t.Errorf("error %v", res.Err)
	}
}

// fastHeadOf runs fastHead on raw as the start of a response to a request
// with the given method, and http.ReadResponse on the same bytes.
func fastHeadOf(raw, method string) (fast, std *http.Response, stdErr error) {
	req := &http.Request{Method: method}
	pc := &h1conn{}
	pc.br = bufio.NewReaderSize(strings.NewReader(raw), 64<<10)
	pc.br.Peek(1)
	var head Head
	fast = pc.fastHead(req, new(http.Response), &head)
	std, stdErr = http.ReadResponse(bufio.NewReader(strings.NewReader(raw)), req)
	if fast != nil && stdErr == nil {
		// Get and Has read the lines as the map would be read.
		for k := range std.Header {
			for _, name := range []string{k, strings.ToLower(k), strings.ToUpper(k)} {
				if got, want := head.Get(name), std.Header.Get(name); got != want || !head.Has(name) {
					return fast, std, fmt.Errorf("Get(%q) = %q, net/http %q", name, got, want)
				}
			}
		}
		for _, name := range []string{"Connection", "X-None"} {
			if got, want := head.Get(name), std.Header.Get(name); got != want || head.Has(name) != (want != "" || len(std.Header[name]) > 0) {
				return fast, std, fmt.Errorf("Get(%q) = %q, net/http %q", name, got, want)
			}
		}
		fast.Header = head.Map()
	}
	return fast, std, stdErr
}

// sameResponse reports how fast differs from net/http's std, if it does.
func sameResponse(fast, std *http.Response) string {
	switch {
	case fast.Status != std.Status || fast.StatusCode != std.StatusCode:
		return fmt.Sprintf("status %q %d, net/http %q %d", fast.Status, fast.StatusCode, std.Status, std.StatusCode)
	case fast.Proto != std.Proto || fast.ProtoMajor != std.ProtoMajor || fast.ProtoMinor != std.ProtoMinor:
		return fmt.Sprintf("proto %q, net/http %q", fast.Proto, std.Proto)
	case fast.ContentLength != std.ContentLength || fast.Close != std.Close:
		return fmt.Sprintf("length %d close %v, net/http %d %v", fast.ContentLength, fast.Close, std.ContentLength, std.Close)
	case !reflect.DeepEqual(fast.Header, std.Header):
		return fmt.Sprintf("header %q, net/http %q", fast.Header, std.Header)
	case len(std.TransferEncoding) > 0 || std.Trailer != nil:
		return "net/http saw a transfer coding or trailers"
	}
	return ""
}

// manyHeaders is twenty header lines, X-0 to X-19.
var manyHeaders = func() string {
	var b strings.Builder
	for i := range 20 {
		fmt.Fprintf(&b, "X-%d: %d\r\n", i, i)
	}
	return b.String()
}()

// The fast head parser gives what net/http's gives, and leaves every head
// it does not fully understand to net/http.
func TestFastHead(t *testing.T) {
	const body = "\r\nhello"
	for _, tc := range []struct {
		name, head, method string
		fast               bool
	}{
		{"nginx", "HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: Mon, 30 Nov 2026 00:00:00 GMT\r\nContent-Type: text/html\r\n" +
			"Content-Length: 5\r\nConnection: keep-alive\r\nETag: \"6a\"\r\nAccept-Ranges: bytes\r\n", "GET", true},
		{"names not canonical, a name twice, odd spaces", "HTTP/1.1 404  Not Found\r\ncontent-length:5\r\nx-a: 1 \r\nX-A:\t2\r\n" +
			"SET-COOKIE: a=b\r\nEmpty:\r\n", "GET", true},
		{"Connection: close", "HTTP/1.1 500 Internal Server Error\r\nConnection: close\r\nContent-Length: 5\r\n", "POST", true},
		{"no reason", "HTTP/1.1 201\r\nContent-Length: 5\r\n", "GET", true},
		{"many names, some repeated", "HTTP/1.1 200 OK\r\n" + manyHeaders + "X-1: again\r\nX-17: again\r\nContent-Length: 5\r\n", "GET", true},
		{"zero length", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n", "GET", true},
		{"HEAD", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n", "HEAD", false},
		{"204", "HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n", "GET", false},
		{"304", "HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n", "GET", false},
		{"100", "HTTP/1.1 100 Continue\r\n", "GET", false},
		{"HTTP/1.0", "HTTP/1.0 200 OK\r\nContent-Length: 5\r\n", "GET", false},
		{"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n", "GET", false},
		{"no length", "HTTP/1.1 200 OK\r\nX: y\r\n", "GET", false},
		{"two lengths", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n", "GET", false},
		{"length with a sign", "HTTP/1.1 200 OK\r\nContent-Length: +5\r\n", "GET", false},
		{"Pragma", "HTTP/1.1 200 OK\r\nPragma: no-cache\r\nContent-Length: 5\r\n", "GET", false},
		{"Trailer", "HTTP/1.1 200 OK\r\nTrailer: X\r\nContent-Length: 5\r\n", "GET", false},
		{"folded", "HTTP/1.1 200 OK\r\nX: a\r\n b\r\nContent-Length: 5\r\n", "GET", false},
		{"bare LF", "HTTP/1.1 200 OK\nContent-Length: 5\r\n", "GET", false},
		{"space before colon", "HTTP/1.1 200 OK\r\nX : a\r\nContent-Length: 5\r\n", "GET", false},
		{"control byte", "HTTP/1.1 200 OK\r\nX: a\x01b\r\nContent-Length: 5\r\n", "GET", false},
		{"bad status", "HTTP/1.1 abc OK\r\nContent-Length: 5\r\n", "GET", false},
		{"status with a sign", "HTTP/1.1 +20 OK\r\nContent-Length: 5\r\n", "GET", false},
		{"not HTTP", "SSH-2.0-OpenSSH_9.2\r\nContent-Length: 5\r\n", "GET", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fast, std, err := fastHeadOf(tc.head+body, tc.method)
			if (fast != nil) != tc.fast {
				t.Fatalf("fast path taken: %v, want %v", fast != nil, tc.fast)
			}
			if fast == nil {
				return
			}
			if err != nil {
				t.Fatalf("net/http: %v", err)
			}
			if d := sameResponse(fast, std); d != "" {
				t.Error(d)
			}
		})
	}
}

// Whatever the bytes, a head the fast parser takes is one net/http reads
// the same way.
func FuzzFastHead(f *testing.F) {
	f.Add("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello", false)
	f.Add("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nX-A: 1\r\nx-a: 2\r\n\r\n", true)
	f.Add("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", false)
	f.Fuzz(func(t *testing.T, raw string, head bool) {
		method := "GET"
		if head {
			method = "HEAD"
		}
		fast, std, err := fastHeadOf(raw, method)
		if fast == nil {
			return
		}
		if err != nil {
			t.Fatalf("fast path took a head net/http refuses (%v): %q", err, raw)
		}
		if d := sameResponse(fast, std); d != "" {
			t.Fatalf("%s: %q", d, raw)
		}
	})
}

// After 101 Switching Protocols the connection speaks another protocol:
// the next request goes out on a new one.
func TestH1DoesNotReuseAnUpgradedConnection(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var conns atomic.Int64
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			go func() {
				defer conn.Close()
				br := bufio.NewReader(conn)
				for {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					if req.URL.Path == "/up" {
						io.WriteString(conn, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n")
						io.Copy(io.Discard, br) // another protocol from here on
						return
					}
					io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
				}
			}()
		}
	}()
	c := New(Options{})
	var res Result
	for i, p := range []string{"/", "/up", "/", "/"} {
		// a request on the upgraded connection would get no answer
		c.Do(context.Background(), &Request{Method: "GET", URL: "http://" + ln.Addr().String() + p, KeepAlive: true,
			ResponseTimeout: 5 * time.Second}, &res)
		if res.Err != nil {
			t.Fatalf("request %d (%s): %v", i+1, p, res.Err)
		}
	}
	if n := conns.Load(); n != 2 {
		t.Errorf("%d connections, want 2 (a new one after the upgrade)", n)
	}
}

// A connection holds a read buffer only while it reads a response: one
// that went idle with nothing unread gave it back to the pool, and takes
// one again for its next response; one with bytes nobody asked for (a
// server that sent more than its response) keeps them and is not reused.
func TestH1ReadBufferOnlyWhileReading(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	c := New(Options{})
	keepAll := func(string) bool { return true }
	var res Result
	for i := range 3 {
		c.Do(context.Background(), &Request{Method: "GET", URL: srv.URL + "/", KeepAlive: true, KeepBody: keepAll}, &res)
		if res.Err != nil || res.Status != 200 || string(res.Body) != "ok" {
			t.Fatalf("request %d: %d %q %v", i, res.Status, res.Body, res.Err)
		}
		pc := c.main.idle
		if pc == nil {
			t.Fatalf("request %d: no idle connection kept", i)
		}
		if pc.br != nil {
			t.Errorf("request %d: the idle connection keeps its read buffer", i)
		}
	}

	// A response followed by bytes of no request's.
	ln := answerOnce(t, func(conn net.Conn, br *bufio.Reader) {
		io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA")
		io.Copy(io.Discard, br) // until the client closes
	})
	c2 := New(Options{})
	url := "http://" + ln.Addr().String() + "/"
	c2.Do(context.Background(), &Request{Method: "GET", URL: url, KeepAlive: true, KeepBody: keepAll}, &res)
	if res.Err != nil || string(res.Body) != "ok" {
		t.Fatalf("extra bytes: %d %q %v", res.Status, res.Body, res.Err)
	}
	pc := c2.main.idle
	if pc == nil || pc.br == nil {
		// The extra bytes came in a read of their own, after the response.
		t.Skip("the extra bytes did not arrive with the response; nothing to check")
	}
	if pc.br.Buffered() == 0 {
		t.Fatal("an idle connection keeps an empty read buffer")
	}
	if pc.usable(time.Now()) {
		t.Error("a connection with unread bytes is reused")
	}
}

// answerOnce listens on the loopback, and answers the first request of
// the first connection with answer; the listener closes with the test.
func answerOnce(t *testing.T, answer func(conn net.Conn, br *bufio.Reader)) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		br := bufio.NewReader(conn)
		if _, err := http.ReadRequest(br); err != nil {
			return
		}
		answer(conn, br)
	}()
	return ln
}
