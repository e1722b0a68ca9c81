package httpx

import (
	"bytes"
	"context"
	"net"
	"testing"
)

// cannedResponse is what benchServer answers to every request.
var cannedResponse = []byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok")

// benchServer answers every request head it reads with cannedResponse,
// on the loopback, and returns its URL. It does as little as a server
// can, so that the client's work is most of what a benchmark measures.
func benchServer(b *testing.B) string { return benchServerOf(b, cannedResponse) }

// benchServerOf is benchServer answering resp.
func benchServerOf(b *testing.B, resp []byte) string {
	b.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				buf := make([]byte, 8192)
				have := 0
				for {
					n, err := conn.Read(buf[have:])
					if err != nil {
						return
					}
					have += n
					for {
						end := bytes.Index(buf[:have], crlfcrlf)
						if end < 0 {
							break
						}
						if _, err := conn.Write(resp); err != nil {
							return
						}
						have = copy(buf, buf[end+4:have])
					}
					if have == len(buf) {
						return // a head this long is not a benchmark's
					}
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String() + "/x"
}

// benchGET sends a GET on a kept-alive connection, the body discarded, as
// for a virtual user whose responses nothing reads, and reports whether
// it succeeded (an error is reported to b).
func benchGET(b *testing.B, c *Client, req *Request, res *Result) bool {
	c.Do(context.Background(), req, res)
	if res.Err != nil || res.Status != 200 {
		b.Errorf("GET: %d %v", res.Status, res.Err)
		return false
	}
	return true
}

// One virtual user: each request waits for its response, nothing else
// runs (go test -run ^$ -bench Client -benchmem ./engine/httpx).
func BenchmarkClientGET(b *testing.B) {
	url := benchServer(b)
	c := New(Options{})
	defer c.CloseIdle()
	req := &Request{Method: "GET", URL: url, KeepAlive: true}
	var res Result
	b.ReportAllocs()
	for b.Loop() {
		if !benchGET(b, c, req, &res) {
			return
		}
	}
}

// Several virtual users at once, each with its own client and connection:
// responses arrive while other users wait, which is when a read spins.
func BenchmarkClientGETParallel(b *testing.B) {
	url := benchServer(b)
	b.SetParallelism(4)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		c := New(Options{})
		defer c.CloseIdle()
		req := &Request{Method: "GET", URL: url, KeepAlive: true}
		var res Result
		for pb.Next() {
			if !benchGET(b, c, req, &res) {
				return
			}
		}
	})
}

// One virtual user with a cookie jar, whose server sets the same two
// cookies on every response, as a session server does: the jar renews
// them and sends them back without allocating.
func BenchmarkClientGETCookies(b *testing.B) {
	url := benchServerOf(b, []byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"+
		"Set-Cookie: SESSION=8F2A1C9D3E4B5F60; Path=/; HttpOnly\r\nSet-Cookie: lang=en; Max-Age=3600\r\nContent-Length: 2\r\n\r\nok"))
	c := New(Options{Jar: &Jar{}})
	defer c.CloseIdle()
	req := &Request{Method: "GET", URL: url, KeepAlive: true}
	var res Result
	benchGET(b, c, req, &res)
	b.ReportAllocs()
	for b.Loop() {
		if !benchGET(b, c, req, &res) {
			return
		}
	}
	if res.Cookies != "SESSION=8F2A1C9D3E4B5F60; lang=en" {
		b.Errorf("cookies sent %q", res.Cookies)
	}
}
