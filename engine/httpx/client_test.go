package httpx

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The example of RFC 2617, section 3.5.
func TestDigestResponseOfRFC2617(t *testing.T) {
	p := map[string]string{"realm": "testrealm@host.com", "nonce": "dcd98b7102dd2f0e8b11d0f600bfb0c093",
		"opaque": "5ccc069c403ebaf9f0171e9517f40e41", "qop": "auth,auth-int"}
	c := &Credentials{User: "Mufasa", Password: "Circle Of Life"}
	got := digestResponse(p, c, "GET", "/dir/index.html", "MD5", "auth", "0a4f113b")
	want := `Digest username="Mufasa", realm="testrealm@host.com", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", ` +
		`uri="/dir/index.html", response="6629fae49393a05397450978507c4ef1", qop=auth, nc=00000001, cnonce="0a4f113b", ` +
		`algorithm=MD5, opaque="5ccc069c403ebaf9f0171e9517f40e41"`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestChallenges(t *testing.T) {
	c := &Credentials{User: "u", Password: "p"}
	for _, tc := range []struct {
		name   string
		header []string
		cred   Credentials
		sent   string
		want   string // scheme of the answer, "" for none
	}{
		{name: "Basic", header: []string{`Basic realm="r"`}, cred: *c, want: "basic"},
		{name: "Digest preferred", header: []string{`Basic realm="r"`, `Digest realm="r", nonce="n", qop="auth"`}, cred: *c, want: "digest"},
		{name: "both in one header", header: []string{`Basic realm="r", Digest realm="r", nonce="n"`}, cred: *c, want: "digest"},
		{name: "auth-int only", header: []string{`Digest realm="r", nonce="n", qop="auth-int"`}, cred: *c, want: ""},
		{name: "SHA-256 only", header: []string{`Digest realm="r", nonce="n", algorithm=SHA-256`}, cred: *c, want: ""},
		{name: "the realm asked for", header: []string{`Basic realm="a"`}, cred: Credentials{User: "u", Realm: "b"}, want: ""},
		{name: "no second Basic", header: []string{`Basic realm="r"`}, cred: *c, sent: "basic", want: ""},
		{name: "Bearer", header: []string{`Bearer realm="r"`}, cred: *c, want: ""},
	} {
		h := http.Header{"Www-Authenticate": tc.header}
		got := schemeOf(answer(parseChallenges(h), &tc.cred, "GET", "/", tc.sent))
		if got != tc.want {
			t.Errorf("%s: answered %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := parseChallenges(http.Header{"Www-Authenticate": {`Digest realm="a \"q\"", nonce=abc, qop="auth,auth-int"`}}); len(got) != 1 ||
		got[0].params["realm"] != `a "q"` || got[0].params["nonce"] != "abc" || got[0].params["qop"] != "auth,auth-int" {
		t.Errorf("parsed %+v", got)
	}
	if got := basicAuth(&Credentials{User: "é", Password: "x"}); got != "Basic Pzp4" { // "?:x"
		t.Errorf("non-ASCII user: %s", got)
	}
}

func TestDecodedBodies(t *testing.T) {
	var gz, zl, raw bytes.Buffer
	zw := gzip.NewWriter(&gz)
	io.WriteString(zw, "hello gzip")
	zw.Close()
	lw := zlib.NewWriter(&zl)
	io.WriteString(lw, "hello zlib")
	lw.Close()
	fw, _ := flate.NewWriter(&raw, flate.DefaultCompression)
	io.WriteString(fw, "hello raw deflate")
	fw.Close()
	for _, tc := range []struct {
		enc  string
		body []byte
		want string
	}{
		{"gzip", gz.Bytes(), "hello gzip"},
		{"x-gzip", gz.Bytes(), "hello gzip"},
		{"deflate", zl.Bytes(), "hello zlib"},
		{"deflate", raw.Bytes(), "hello raw deflate"},
		{"gzip", nil, ""},
		{"br", []byte("as it came"), "as it came"},
	} {
		r, err := decoded(bytes.NewReader(tc.body), tc.enc)
		if err != nil {
			t.Errorf("%s: %v", tc.enc, err)
			continue
		}
		got, err := io.ReadAll(r)
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: %q %v, want %q", tc.enc, got, err, tc.want)
		}
	}
}

func TestPartsBody(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "f.txt")
	os.WriteFile(f, []byte("FILE"), 0o644)
	parts := []Part{{Data: []byte("head-")}, {File: f}, {Data: []byte("-tail")}}
	n, err := partsLength(parts)
	if err != nil || n != 14 {
		t.Fatalf("length %d %v", n, err)
	}
	var b partsBody
	b.reset(parts)
	got, err := io.ReadAll(&b)
	if err != nil || string(got) != "head-FILE-tail" {
		t.Errorf("read %q %v", got, err)
	}
	var fe *FileError
	if _, err := partsLength([]Part{{File: filepath.Join(dir, "missing")}}); !errors.As(err, &fe) {
		t.Errorf("a missing file: %v", err)
	}
}

// rawServer answers every request on a connection with a fixed response
// and hands over the bytes of each request head it read.
func rawServer(t *testing.T, response string) (addr string, heads chan string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	heads = make(chan string, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				// the head, then as many body bytes as Content-Length says
				var got []byte
				buf := make([]byte, 8192)
				for {
					n, err := c.Read(buf)
					got = append(got, buf[:n]...)
					if err != nil {
						return
					}
					head, body, ok := strings.Cut(string(got), "\r\n\r\n")
					if !ok {
						continue
					}
					want := 0
					for _, l := range strings.Split(head, "\r\n") {
						if v, ok := strings.CutPrefix(l, "Content-Length: "); ok {
							fmt.Sscan(v, &want)
						}
					}
					if len(body) >= want {
						break
					}
				}
				heads <- string(got)
				io.WriteString(c, response)
			}()
		}
	}()
	return ln.Addr().String(), heads
}

// The plan's headers go out, plus what JMeter's HttpClient 4 adds where the
// plan sets none: Connection and User-Agent, and no header of Go's own.
func TestRequestHeadersAreJMeters(t *testing.T) {
	const ua = "User-Agent: Apache-HttpClient/4.5.14 (Java/17)\r\n"
	for _, tc := range []struct {
		name      string
		keepAlive bool
		header    []Header
		want      string // the head between Host and the body
	}{
		{"keep-alive", true, nil,
			ua + "Content-Length: 5\r\nConnection: keep-alive\r\nContent-Type: text/plain\r\nX-One: 1\r\nX-One: 2\r\n"},
		{"no keep-alive", false, nil,
			ua + "Content-Length: 5\r\nConnection: close\r\nContent-Type: text/plain\r\nX-One: 1\r\nX-One: 2\r\n"},
		{"the plan's User-Agent and Connection", true, []Header{{"user-agent", "plan/1"}, {"Connection", "Upgrade"}},
			"User-Agent: plan/1\r\nContent-Length: 5\r\nConnection: Upgrade\r\nContent-Type: text/plain\r\nX-One: 1\r\nX-One: 2\r\n"},
		{"an empty User-Agent sends none", true, []Header{{"User-Agent", ""}},
			"Content-Length: 5\r\nConnection: keep-alive\r\nContent-Type: text/plain\r\nX-One: 1\r\nX-One: 2\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr, heads := rawServer(t, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
			c := New(Options{})
			var res Result
			header := append([]Header{{"X-One", "1"}, {"x-one", "2"}, {"Content-Type", "text/plain"}}, tc.header...)
			c.Do(context.Background(), &Request{Method: "POST", URL: "http://" + addr + "/p?q=1", KeepAlive: tc.keepAlive,
				Host: "example.test", Header: header, Body: []byte("hello")}, &res)
			if res.Err != nil || res.Status != 200 {
				t.Fatalf("%v %d", res.Err, res.Status)
			}
			want := "POST /p?q=1 HTTP/1.1\r\nHost: example.test\r\n" + tc.want + "\r\nhello"
			if got := <-heads; got != want {
				t.Errorf("sent\n%q\nwant\n%q", got, want)
			}
			if res.SentBytes != int64(len(want)) {
				t.Errorf("sent bytes %d, want %d", res.SentBytes, len(want))
			}
			if res.Bytes != int64(len("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")) {
				t.Errorf("received bytes %d", res.Bytes)
			}
		})
	}
}

// Lanes share connections: each request must still count its own bytes.
func TestLanesCountTheirOwnBytes(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Date", "Mon, 02 Jan 2006 15:04:05 GMT")
		io.WriteString(w, strings.Repeat("x", len(r.URL.Path)*100))
	}))
	defer srv.Close()
	c := New(Options{})
	paths := []string{"/a", "/bbbb", "/cccccccc"}
	want := map[string][2]int64{}
	for _, p := range paths {
		var res Result
		c.Do(context.Background(), &Request{Method: "GET", URL: srv.URL + p, KeepAlive: true}, &res)
		want[p] = [2]int64{res.Bytes, res.SentBytes}
	}
	var wg sync.WaitGroup
	errs := make(chan string, 100)
	for i := 0; i < 4; i++ {
		l := c.NewLane()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 30; j++ {
				p := paths[(i+j)%len(paths)]
				var res Result
				l.Do(context.Background(), &Request{Method: "GET", URL: srv.URL + p, KeepAlive: true}, &res)
				if got := [2]int64{res.Bytes, res.SentBytes}; got != want[p] || res.Err != nil {
					errs <- fmt.Sprintf("%s: bytes %v, want %v (%v)", p, got, want[p], res.Err)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestRedirectsFollowedOnlyWhenAsked(t *testing.T) {
	var mu sync.Mutex
	var referers []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		referers = append(referers, r.Header.Get("Referer"))
		mu.Unlock()
		if r.URL.Path == "/from" {
			http.Redirect(w, r, "/to", http.StatusFound)
			return
		}
		io.WriteString(w, "here")
	}))
	defer srv.Close()
	c := New(Options{})
	var res Result
	c.Do(context.Background(), &Request{Method: "GET", URL: srv.URL + "/from"}, &res)
	if res.Status != 302 || res.URL != srv.URL+"/from" {
		t.Errorf("not asked: %d %s", res.Status, res.URL)
	}
	c.Do(context.Background(), &Request{Method: "GET", URL: srv.URL + "/from", AutoRedirects: true}, &res)
	if res.Status != 200 || res.URL != srv.URL+"/to" {
		t.Errorf("asked: %d %s", res.Status, res.URL)
	}
	if strings.Join(referers, ",") != ",," {
		t.Errorf("Referer sent: %q", referers)
	}
}

// A body file that cannot be opened fails the request with its own error,
// not as a body shorter than announced.
func TestUnreadableUploadFile(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "s") // stat works, open does not
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Skip("no unix sockets:", err)
	}
	defer ln.Close()
	addr, _ := rawServer(t, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
	c := New(Options{})
	var res Result
	c.Do(context.Background(), &Request{Method: "POST", URL: "http://" + addr + "/",
		Parts: []Part{{File: sock}, {Data: []byte("abc")}}}, &res)
	var fe *FileError
	if !errors.As(res.Err, &fe) || fe.Path != sock {
		t.Errorf("error %v, want the file's", res.Err)
	}
}

// A failed exchange names its URL without the password, as http.Client
// does, and still names its host.
func TestFailureHidesThePassword(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens: the connection is refused
	c := New(Options{})
	var res Result
	c.Do(context.Background(), &Request{Method: "GET", URL: "http://user:s3cret@" + addr + "/"}, &res)
	var ue *url.Error
	if !errors.As(res.Err, &ue) {
		t.Fatalf("error %v, want a url.Error", res.Err)
	}
	if msg := res.Err.Error(); strings.Contains(msg, "s3cret") || !strings.Contains(msg, addr) {
		t.Errorf("error %q: want the host, not the password", msg)
	}
}

// With a cookie jar, a response that sets a cookie keeps its header lines
// as they came (order, spelling, Connection).
func TestCookiesKeepTheHeadAsItCame(t *testing.T) {
	head := "HTTP/1.1 200 OK\r\nx-lower: 1\r\nSet-Cookie: a=b\r\nContent-Length: 2\r\nConnection: close\r\n\r\n"
	addr, _ := rawServer(t, head+"ok")
	c := New(Options{Jar: &Jar{}})
	var res Result
	c.Do(context.Background(), &Request{Method: "GET", URL: "http://" + addr + "/"}, &res)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	want := "x-lower: 1\nSet-Cookie: a=b\nContent-Length: 2\nConnection: close\n"
	if got := res.Head.Text(); got != want {
		t.Errorf("head\n%q\nwant\n%q", got, want)
	}
	c.Do(context.Background(), &Request{Method: "GET", URL: "http://" + addr + "/"}, &res)
	if res.Cookies != "a=b" {
		t.Errorf("cookie sent %q, want a=b", res.Cookies)
	}
}

// Lanes may be made from several goroutines at once (the branches of a
// Parallel Controller), and CloseIdle reaches them all.
func TestNewLaneConcurrently(t *testing.T) {
	c := New(Options{})
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.NewLane()
		}()
	}
	wg.Wait()
	c.CloseIdle()
	if n := len(c.lanes); n != 9 {
		t.Errorf("%d lanes, want 9", n)
	}
}

// loopback resolves every name to 127.0.0.1.
type loopback struct{}

func (loopback) Resolve(context.Context, string) ([]string, error) { return []string{"127.0.0.1"}, nil }

// The TLS handshake is bounded by the connect timeout, as HttpClient reads
// it with the connect timeout as its socket timeout: a port that accepts
// and never answers fails the request instead of holding the user.
func TestTLSHandshakeTimesOut(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			defer conn.Close() // accepted, never answered
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := time.AfterFunc(30*time.Second, cancel) // only if the handshake were unbounded
	defer stop.Stop()
	c := New(Options{})
	var res Result
	c.Do(ctx, &Request{Method: "GET", URL: "https://" + ln.Addr().String() + "/", ConnectTimeout: 50 * time.Millisecond}, &res)
	if !errors.Is(res.Err, context.DeadlineExceeded) {
		t.Errorf("error %v, want the handshake's timeout", res.Err)
	}
}

// The TLS server name is the host in ASCII, as net/http sends it.
func TestTLSServerNameIsASCII(t *testing.T) {
	names := make(chan string, 1)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	srv.TLS = &tls.Config{GetConfigForClient: func(hi *tls.ClientHelloInfo) (*tls.Config, error) {
		names <- hi.ServerName
		return nil, nil
	}}
	srv.StartTLS()
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	c := New(Options{})
	var res Result
	c.Do(context.Background(), &Request{Method: "GET", URL: "https://bücher.example:" + port + "/", Resolve: loopback{}}, &res)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if got := <-names; got != "xn--bcher-kva.example" {
		t.Errorf("server name %q, want xn--bcher-kva.example", got)
	}
}

// A POST of empty parts that a 307 sends on goes out with no body again,
// as the first time (Content-Length: 0, not chunked).
func TestEmptyPartsAfterA307(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, fmt.Sprintf("%s %s %d %v", r.Method, r.URL.Path, r.ContentLength, r.TransferEncoding))
		mu.Unlock()
		if r.URL.Path == "/from" {
			http.Redirect(w, r, "/to", http.StatusTemporaryRedirect)
		}
	}))
	defer srv.Close()
	empty := filepath.Join(t.TempDir(), "empty")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c := New(Options{})
	var res Result
	c.Do(context.Background(), &Request{Method: "POST", URL: srv.URL + "/from", AutoRedirects: true,
		Parts: []Part{{File: empty}}}, &res)
	if res.Err != nil || res.Status != 200 {
		t.Fatalf("%d %v", res.Status, res.Err)
	}
	if want := "POST /from 0 [],POST /to 0 []"; strings.Join(got, ",") != want {
		t.Errorf("server saw %q, want %q", strings.Join(got, ","), want)
	}
}

// A body longer than MaxBody is kept up to MaxBody exactly; the rest is
// read, counted and dropped.
func TestMaxBodyIsExact(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.Repeat("x", 5000))
	}))
	defer srv.Close()
	c := New(Options{MaxBody: 1000})
	var res Result
	c.Do(context.Background(), &Request{Method: "GET", URL: srv.URL, KeepAlive: true,
		KeepBody: func(string) bool { return true }}, &res)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if len(res.Body) != 1000 || res.Bytes < 5000 {
		t.Errorf("kept %d bytes (want 1000), counted %d (want at least 5000)", len(res.Body), res.Bytes)
	}
}

// TestSourceAddress connects from the address a request names, and keeps
// a connection for the requests from that address only.
func TestSourceAddress(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.RemoteAddr)
	}))
	defer srv.Close()
	c := New(Options{})
	from := func(src string) (host string, reused bool) {
		t.Helper()
		var res Result
		req := &Request{Method: "GET", URL: srv.URL, KeepAlive: true, KeepBody: func(string) bool { return true }}
		if src != "" {
			req.Source = netip.MustParseAddr(src)
		}
		c.Do(context.Background(), req, &res)
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		h, _, _ := net.SplitHostPort(string(res.Body))
		return h, res.Connect == 0
	}
	for i, tt := range []struct {
		src, host string
		reused    bool
	}{
		{"127.0.0.2", "127.0.0.2", false},
		{"127.0.0.2", "127.0.0.2", true},
		{"127.0.0.3", "127.0.0.3", false},
		{"", "127.0.0.1", false},
		{"", "127.0.0.1", true},
		{"127.0.0.2", "127.0.0.2", true}, // the pool kept the first one
	} {
		host, reused := from(tt.src)
		if host != tt.host || reused != tt.reused {
			t.Errorf("request %d from %q: the server saw %s (reused %t), want %s (reused %t)", i, tt.src, host, reused, tt.host, tt.reused)
		}
	}
}
