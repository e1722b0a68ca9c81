package httpx

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// seen is what a loopback server saw of the requests it answered.
type seen struct {
	mu     sync.Mutex
	protos []string
	heads  []http.Header
}

func (s *seen) record(r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.protos = append(s.protos, r.Proto)
	s.heads = append(s.heads, r.Header.Clone())
}

func (s *seen) last() (string, http.Header) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.protos[len(s.protos)-1], s.heads[len(s.heads)-1]
}

// h2Server starts a loopback server: over TLS (a test certificate) with
// HTTP/2 offered by ALPN or not, or in clear text with HTTP/2 by prior
// knowledge accepted besides HTTP/1.1.
func h2Server(t *testing.T, tlsOn, http2On bool, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(h)
	p := new(http.Protocols)
	p.SetHTTP1(true)
	if tlsOn {
		p.SetHTTP2(http2On)
		srv.EnableHTTP2 = http2On
	} else {
		p.SetUnencryptedHTTP2(http2On)
	}
	srv.Config.Protocols = p
	if tlsOn {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return srv
}

func TestHTTP2Transport(t *testing.T) {
	for _, tc := range []struct {
		name          string
		tls, serverH2 bool
		proto         Protocol
		want          string // the protocol the server saw
	}{
		{name: "https, ALPN agrees", tls: true, serverH2: true, proto: HTTP2, want: "HTTP/2.0"},
		{name: "https, server without HTTP/2", tls: true, serverH2: false, proto: HTTP2, want: "HTTP/1.1"},
		{name: "http", tls: false, serverH2: true, proto: HTTP2, want: "HTTP/1.1"},
		{name: "http, prior knowledge", tls: false, serverH2: true, proto: H2C, want: "HTTP/2.0"},
		{name: "https, prior knowledge asked", tls: true, serverH2: true, proto: H2C, want: "HTTP/2.0"},
		{name: "HTTP/1.1 transport", tls: true, serverH2: true, proto: HTTP1, want: "HTTP/1.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s seen
			srv := h2Server(t, tc.tls, tc.serverH2, func(w http.ResponseWriter, r *http.Request) {
				s.record(r)
				http.SetCookie(w, &http.Cookie{Name: "sid", Value: "42"})
				w.Header().Set("Content-Type", "text/plain")
				w.Write([]byte("hello " + r.Method))
			})
			c := New(Options{Jar: &Jar{}})
			defer c.CloseIdle()
			req := &Request{Method: "GET", URL: srv.URL + "/a?b=1", Protocol: tc.proto,
				Header: []Header{{"X-Plan", "yes"}},
				// HTTP/1.1's: the HTTP/2 transport keeps its connections
				KeepAlive: tc.proto == HTTP1,
				KeepBody:  func(string) bool { return true }}
			var res Result
			for i := range 2 {
				c.Do(context.Background(), req, &res)
				if res.Err != nil {
					t.Fatalf("request %d: %v", i, res.Err)
				}
			}
			proto, head := s.last()
			if proto != tc.want || res.Proto != tc.want {
				t.Errorf("server saw %s, the result says %s; want %s", proto, res.Proto, tc.want)
			}
			if head.Get("X-Plan") != "yes" || head.Get("Cookie") != "sid=42" {
				t.Errorf("the second request's headers: %v", head)
			}
			// HttpClient 4's User-Agent over HTTP/1.1 only, and never Go's
			// Accept-Encoding
			wantUA := ""
			if tc.proto == HTTP1 {
				wantUA = jmeterUA[0]
			}
			if got := head.Get("User-Agent"); got != wantUA {
				t.Errorf("User-Agent %q, want %q", got, wantUA)
			}
			if v, ok := head["Accept-Encoding"]; ok {
				t.Errorf("the transport added Accept-Encoding: %q", v)
			}
			if string(res.Body) != "hello GET" || res.Status != 200 || res.Message != "OK" {
				t.Errorf("response %d %q %q", res.Status, res.Message, res.Body)
			}
			if res.Connect != 0 {
				t.Errorf("the second request connected again (%v)", res.Connect)
			}
			if res.Latency <= 0 || res.Latency > res.Elapsed {
				t.Errorf("latency %v, elapsed %v", res.Latency, res.Elapsed)
			}
			if tc.proto == HTTP1 {
				return
			}
			u, _ := url.Parse(srv.URL)
			wantSent := len("GET /a?b=1 HTTP/1.1\r\n") + len("Host: "+u.Host+"\r\n") + len("X-Plan: yes\r\n") +
				len("Cookie: sid=42\r\n") + len("\r\n")
			if res.SentBytes != int64(wantSent) {
				t.Errorf("sent %d bytes, want %d", res.SentBytes, wantSent)
			}
			fields := strings.ReplaceAll(res.Head.Text(), "\n", "\r\n")
			wantRead := len(res.Proto+" 200 OK\r\n") + len(fields) + len("\r\n") + len("hello GET")
			if res.Bytes != int64(wantRead) {
				t.Errorf("received %d bytes, want %d (head %q)", res.Bytes, wantRead, res.Head.Text())
			}
		})
	}
}

// A POST's body and Content-Length, a redirect the client follows itself
// and the response timeout over the HTTP/2 transport.
func TestHTTP2TransportBodiesRedirectsTimeouts(t *testing.T) {
	var s seen
	var bodies []string
	var mu sync.Mutex
	srv := h2Server(t, true, true, func(w http.ResponseWriter, r *http.Request) {
		s.record(r)
		switch r.URL.Path {
		case "/post":
			b := new(strings.Builder)
			io.Copy(b, r.Body)
			mu.Lock()
			bodies = append(bodies, b.String())
			mu.Unlock()
			w.Write([]byte("ok"))
		case "/from":
			http.Redirect(w, r, "/to", http.StatusFound)
		case "/to":
			w.Write([]byte("arrived"))
		case "/slow":
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
		}
	})
	c := New(Options{})
	defer c.CloseIdle()
	var res Result
	c.Do(context.Background(), &Request{Method: "POST", URL: srv.URL + "/post", Protocol: HTTP2, Body: []byte("a=1&b=2"),
		Header: []Header{{"Content-Type", "application/x-www-form-urlencoded"}}}, &res)
	if res.Err != nil || res.Proto != "HTTP/2.0" {
		t.Fatalf("POST: %v over %s", res.Err, res.Proto)
	}
	if _, h := s.last(); len(bodies) != 1 || bodies[0] != "a=1&b=2" || h.Get("Content-Type") != "application/x-www-form-urlencoded" {
		t.Errorf("the server read %q with %v", bodies, h)
	}
	c.Do(context.Background(), &Request{Method: "GET", URL: srv.URL + "/from", Protocol: HTTP2, AutoRedirects: true,
		KeepBody: func(string) bool { return true }}, &res)
	if res.Err != nil || string(res.Body) != "arrived" || !strings.HasSuffix(res.URL, "/to") || res.Proto != "HTTP/2.0" {
		t.Errorf("redirect: %v, %q at %s over %s", res.Err, res.Body, res.URL, res.Proto)
	}
	c.Do(context.Background(), &Request{Method: "GET", URL: srv.URL + "/slow", Protocol: HTTP2, ResponseTimeout: 50 * time.Millisecond}, &res)
	if !errors.Is(res.Err, context.DeadlineExceeded) {
		t.Errorf("a response slower than the timeout: %v", res.Err)
	}
}

// A request that cannot connect sends and receives nothing.
func TestHTTP2TransportRefused(t *testing.T) {
	srv := h2Server(t, true, true, func(http.ResponseWriter, *http.Request) {})
	addr := srv.URL
	srv.Close()
	c := New(Options{})
	var res Result
	c.Do(context.Background(), &Request{Method: "POST", URL: addr + "/x", Protocol: HTTP2, Body: []byte("body")}, &res)
	if res.Err == nil || res.SentBytes != 0 || res.Bytes != 0 || res.Status != 0 {
		t.Errorf("refused: %v, sent %d, received %d, status %d", res.Err, res.SentBytes, res.Bytes, res.Status)
	}
}

// ResponseHeadSize is the length of a response's head as HTTP/1.1 text.
func TestResponseHeadSize(t *testing.T) {
	for _, tc := range []struct {
		name string
		resp *http.Response
		head string // as it reads on the wire
	}{
		{"no fields", &http.Response{Proto: "HTTP/1.1", Status: "204 No Content", Header: http.Header{}},
			"HTTP/1.1 204 No Content\r\n\r\n"},
		{"a WebSocket upgrade", &http.Response{Proto: "HTTP/1.1", Status: "101 Switching Protocols",
			Header: http.Header{"Upgrade": {"websocket"}, "Connection": {"Upgrade"}, "Sec-Websocket-Accept": {"s3pPLMBiTxaQ9kYGzzhZRbK+xOo="}}},
			"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-Websocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"},
		{"a field twice", &http.Response{Proto: "HTTP/2.0", Status: "200 OK", Header: http.Header{"Set-Cookie": {"a=1", "b=2"}}},
			"HTTP/2.0 200 OK\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ResponseHeadSize(tc.resp); got != int64(len(tc.head)) {
				t.Errorf("ResponseHeadSize = %d, want %d", got, len(tc.head))
			}
		})
	}
}
