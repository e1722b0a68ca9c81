package target

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestMirror(t *testing.T) {
	s := start(t, Options{})
	tests := []struct {
		name       string
		req        string // sent as is
		wantStatus int
		wantBody   string // "" means: the request itself
		wantHeader map[string]string
	}{
		{
			name:       "headers in received order with exact names",
			req:        "GET /test?a=b HTTP/1.1\r\nx-lower: 1\r\nHost: h\r\nX-UPPER: 2\r\nx-lower: 3\r\n\r\n",
			wantStatus: 200,
			wantHeader: map[string]string{"Content-Type": "text/plain"},
		},
		{
			name:       "body after the head",
			req:        "POST /mirror/p HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}",
			wantStatus: 200,
		},
		{
			name:       "chunked body is de-chunked, head kept",
			req:        "POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n",
			wantStatus: 200,
			wantBody:   "POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nabcde",
		},
		{
			name:       "non-canonical path is mirrored, not redirected",
			req:        "GET //a/../b HTTP/1.1\r\nHost: h\r\n\r\n",
			wantStatus: 200,
		},
		{
			name:       "X-ResponseStatus and X-SetHeaders",
			req:        "GET /r HTTP/1.1\r\nHost: h\r\nX-ResponseStatus: 302 Moved\r\nX-SetHeaders: Location: http://localhost:8081/redirect|x-odd:v\r\n\r\n",
			wantStatus: 302,
			wantHeader: map[string]string{"Location": "http://localhost:8081/redirect", "x-odd": "v"},
		},
		{
			name:       "status query overrides the header",
			req:        "GET /q?status=404 HTTP/1.1\r\nHost: h\r\nX-ResponseStatus: 302\r\n\r\n",
			wantStatus: 404,
		},
		{
			name:       "redirect query",
			req:        "GET /q?redirect=/elsewhere HTTP/1.1\r\nHost: h\r\n\r\n",
			wantStatus: 302,
			wantHeader: map[string]string{"Location": "/elsewhere"},
		},
		{
			name:       "X-ResponseLength cuts the body, X-SetCookie sets a cookie",
			req:        "GET /q HTTP/1.1\r\nHost: h\r\nX-ResponseLength: 10\r\nX-SetCookie: a=b\r\n\r\n",
			wantStatus: 200,
			wantBody:   "GET /q HTT",
			wantHeader: map[string]string{"Set-Cookie": "a=b"},
		},
		{
			name:       "X-Sleep of zero answers at once",
			req:        "GET /z HTTP/1.1\r\nHost: h\r\nX-Sleep: 0\r\n\r\n",
			wantStatus: 200,
		},
		{
			name:       "204 has no body",
			req:        "GET /q HTTP/1.1\r\nHost: h\r\nX-ResponseStatus: 204\r\n\r\n",
			wantStatus: 204,
			wantBody:   "-",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dial(t, hostPort(s))
			resp, body := c.roundTrip(t, tt.req)
			if resp.StatusCode != tt.wantStatus {
				t.Errorf("status = %d, want %d", resp.StatusCode, tt.wantStatus)
			}
			want := tt.wantBody
			switch want {
			case "":
				want = tt.req
			case "-":
				want = ""
			}
			if body != want {
				t.Errorf("body = %q, want %q", body, want)
			}
			for k, v := range tt.wantHeader {
				if got := resp.Header.Values(k); len(got) != 1 || got[0] != v {
					t.Errorf("header %s = %q, want [%q]", k, got, v)
				}
			}
		})
	}
}

func TestMirrorPipelined(t *testing.T) {
	s := start(t, Options{})
	c := dial(t, hostPort(s))
	reqs := []string{
		"POST /one HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc",
		"POST /two HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nGET\r\n0\r\n\r\n",
		"GET /three HTTP/1.1\r\nHost: h\r\nA: 1\r\n\r\n",
	}
	if _, err := io.WriteString(c, strings.Join(reqs, "")); err != nil {
		t.Fatal(err)
	}
	want := []string{reqs[0], "POST /two HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nGET", reqs[2]}
	for i := range reqs {
		_, body := c.read(t, "GET")
		if body != want[i] {
			t.Errorf("response %d = %q, want %q", i, body, want[i])
		}
	}
}

func TestMirrorHead(t *testing.T) {
	s := start(t, Options{})
	c := dial(t, hostPort(s))
	if _, err := io.WriteString(c, "HEAD /h HTTP/1.1\r\nHost: h\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, body := c.read(t, "HEAD")
	if resp.StatusCode != 200 || body != "" || resp.ContentLength != int64(len("HEAD /h HTTP/1.1\r\nHost: h\r\n\r\n")) {
		t.Errorf("HEAD: status %d, body %q, length %d", resp.StatusCode, body, resp.ContentLength)
	}
}

// Mounted on another server, the mirror rebuilds the head: Host first, then
// the headers sorted by canonical name.
func TestHandlerElsewhere(t *testing.T) {
	ts := httptest.NewServer(NewServer(Options{}).Handler())
	defer ts.Close()
	req, err := http.NewRequest("GET", ts.URL+"/x", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Zed", "1")
	req.Header.Set("alpha", "2")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	want := "GET /x HTTP/1.1\r\nHost: " + ts.Listener.Addr().String() +
		"\r\nAccept-Encoding: gzip\r\nAlpha: 2\r\nUser-Agent: Go-http-client/1.1\r\nZed: 1\r\n\r\n"
	if string(b) != want {
		t.Errorf("body = %q, want %q", b, want)
	}
}
