package target

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
)

// get fetches path with a fresh Go client and reads the whole body.
func get(t *testing.T, ctx context.Context, s *Server, path string) (resp *http.Response, body string, err error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "GET", s.URL()+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err = newClient(t).Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, string(b), err
}

// TestFaultsGoClient asserts what Go's client observes for each fault.
func TestFaultsGoClient(t *testing.T) {
	s := start(t, Options{})
	tests := []struct {
		name     string
		path     string
		wantResp bool   // the response (headers) arrives
		wantBody string // what the body yields before the error
		wantErr  func(error) bool
	}{
		{"reset before the response", "/fault/reset-before", false, "", isReset},
		{"reset during the body", "/fault/reset-during?sent=5&length=10", true, "abcde", isReset},
		{"malformed status line", "/fault/bad-status", false, "", contains(`malformed HTTP status code "abc"`)},
		{"malformed header", "/fault/bad-header", false, "", contains(`malformed MIME header: missing colon: "this line has no colon"`)},
		{"broken chunked body", "/fault/bad-chunk", true, "hello", contains("invalid byte in chunk length")},
		{"slow headers", "/fault/slow-headers?ms=1", true, "ok\n", nil},
		{"trickled body", "/fault/trickle?bytes=5&every=1", true, "abcde", nil},
		{"closed after a keep-alive response", "/fault/close-keepalive", true, "ok\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body, err := get(t, context.Background(), s, tt.path)
			if (resp != nil) != tt.wantResp {
				t.Errorf("response received = %v, want %v (err %v)", resp != nil, tt.wantResp, err)
			}
			if body != tt.wantBody {
				t.Errorf("body = %q, want %q", body, tt.wantBody)
			}
			switch {
			case tt.wantErr == nil && err != nil:
				t.Errorf("unexpected error %v", err)
			case tt.wantErr != nil && (err == nil || !tt.wantErr(err)):
				t.Errorf("error = %v, not the expected kind", err)
			}
		})
	}
}

func isReset(err error) bool { return errors.Is(err, syscall.ECONNRESET) }
func contains(s string) func(error) bool {
	return func(err error) bool { return strings.Contains(err.Error(), s) }
}

// A client that gives up waiting (its response timeout) gets no response
// from slow-headers, and only the first byte of a trickled body. The test
// cancels at a known point instead of racing a deadline.
func TestFaultsGiveUp(t *testing.T) {
	s, arrived := startWithArrivals(t, Options{})
	client := newClient(t)

	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-arrived; cancel() }()
	req, _ := http.NewRequestWithContext(ctx, "GET", s.URL()+"/fault/slow-headers?ms=600000", nil)
	if resp, err := client.Do(req); !errors.Is(err, context.Canceled) {
		t.Errorf("slow headers: response %v, err %v; want context.Canceled and no response", resp, err)
	}

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	req, _ = http.NewRequestWithContext(ctx, "GET", s.URL()+"/fault/trickle?bytes=10&every=600000", nil)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	<-arrived
	defer resp.Body.Close()
	first := make([]byte, 10)
	n, err := io.ReadAtLeast(resp.Body, first, 1)
	if err != nil || string(first[:n]) != "a" {
		t.Fatalf("trickle: first read %q, err %v; want \"a\"", first[:n], err)
	}
	cancel()
	if rest, err := io.ReadAll(resp.Body); len(rest) != 0 || !errors.Is(err, context.Canceled) {
		t.Errorf("trickle after giving up: read %q, err %v; want nothing and context.Canceled", rest, err)
	}
}

// TestFaultsRaw asserts the exact bytes a raw client gets before each fault.
func TestFaultsRaw(t *testing.T) {
	s := start(t, Options{})
	tests := []struct {
		name    string
		path    string
		want    string // every byte received
		wantErr func(error) bool
	}{
		{"reset before", "/fault/reset-before", "", isReset},
		{"reset during", "/fault/reset-during?sent=3&length=8",
			"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 8\r\n\r\nabc", isReset},
		{"bad status", "/fault/bad-status", "HTTP/1.1 abc\r\n\r\n", nil},
		{"bad chunk", "/fault/bad-chunk", "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n" +
			"5\r\nhello\r\nzz\r\nworld\r\n0\r\n\r\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dial(t, hostPort(s))
			if _, err := io.WriteString(c, "GET "+tt.path+" HTTP/1.1\r\nHost: h\r\n\r\n"); err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(c)
			if string(got) != tt.want {
				t.Errorf("received %q, want %q", got, tt.want)
			}
			switch {
			case tt.wantErr == nil && err != nil:
				t.Errorf("unexpected error %v (want a clean close)", err)
			case tt.wantErr != nil && (err == nil || !tt.wantErr(err)):
				t.Errorf("error = %v, not the expected kind", err)
			}
		})
	}
}

// The server closes a keep-alive connection after answering: a raw client
// reads the whole response, then EOF; with wait=next the next request
// arrives, is recorded with a note, and gets EOF.
func TestCloseKeepAliveRaw(t *testing.T) {
	for _, wait := range []bool{false, true} {
		s := start(t, Options{})
		c := dial(t, hostPort(s))
		path := "/fault/close-keepalive"
		if wait {
			path += "?wait=next"
		}
		resp, body := c.roundTrip(t, "GET "+path+" HTTP/1.1\r\nHost: h\r\n\r\n")
		if resp.StatusCode != 200 || body != "ok\n" || resp.Close {
			t.Errorf("wait=%v: status %d, body %q, close %v; want a keep-alive 200 ok", wait, resp.StatusCode, body, resp.Close)
		}
		if wait {
			if _, err := io.WriteString(c, "GET /next HTTP/1.1\r\nHost: h\r\nX-N: 2\r\n\r\n"); err != nil {
				t.Fatal(err)
			}
		}
		if n, err := c.br.Read(make([]byte, 1)); n != 0 || err != io.EOF {
			t.Errorf("wait=%v: after the response read %d bytes, err %v; want io.EOF", wait, n, err)
		}
		reqs := s.Requests()
		if !wait {
			if len(reqs) != 1 {
				t.Errorf("recorded %d requests, want 1", len(reqs))
			}
			continue
		}
		if len(reqs) != 2 || reqs[1].Target != "/next" || reqs[1].Note == "" || reqs[1].Conn != reqs[0].Conn ||
			len(reqs[1].Headers) != 2 || reqs[1].Headers[1] != (Header{"X-N", "2"}) {
			t.Errorf("recorded %+v, want the dropped /next with a note on the same connection", reqs)
		}
	}
}

// Go's transport retries a GET sent on a keep-alive connection the server
// closed, but not a POST: engines built on it must know which they get.
func TestCloseKeepAliveGoClient(t *testing.T) {
	s := start(t, Options{})
	client := newClient(t)
	for _, tt := range []struct {
		method  string
		wantErr bool
	}{{"GET", false}, {"POST", true}} {
		resp, err := client.Get(s.URL() + "/fault/close-keepalive?wait=next")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		req, _ := http.NewRequest(tt.method, s.URL()+"/fast", strings.NewReader(""))
		if tt.method == "POST" {
			req.Body = io.NopCloser(strings.NewReader("x")) // not replayable
			req.ContentLength = 1
		}
		resp, err = client.Do(req)
		if resp != nil {
			resp.Body.Close()
		}
		if (err != nil) != tt.wantErr {
			t.Errorf("%s on the closed connection: err = %v, want error %v", tt.method, err, tt.wantErr)
		}
	}
	// GET: first, dropped, retried; POST: first, dropped.
	if got := s.Count(); got != 5 {
		t.Errorf("Count = %d, want 5", got)
	}
}

func TestHuge(t *testing.T) {
	s := start(t, Options{})
	resp, err := newClient(t).Get(s.URL() + "/fault/huge?mb=100")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil || n != 100<<20 || resp.ContentLength != 100<<20 {
		t.Errorf("read %d bytes (Content-Length %d), err %v; want 100 MiB", n, resp.ContentLength, err)
	}
}

func TestFaultUnknown(t *testing.T) {
	s := start(t, Options{})
	resp, body, err := get(t, context.Background(), s, "/fault/nope")
	if err != nil || resp.StatusCode != 404 || !strings.Contains(body, "reset-before") {
		t.Errorf("status %v, body %q, err %v; want 404 listing the faults", resp, body, err)
	}
}
