package mirror

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

func start(t *testing.T) string {
	t.Helper()
	s, err := Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s.Addr().String()
}

// exchange sends a raw request and reads the answer to the end.
func exchange(t *testing.T, addr, req string) string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	c.(*net.TCPConn).CloseWrite() // the request is all there is
	b, err := io.ReadAll(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestMirror(t *testing.T) {
	addr := start(t)
	const plain = "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n"
	for _, tt := range []struct {
		name, req, want string
	}{
		{"echo", "GET /a HTTP/1.1\r\nHost: x\r\n\r\n", plain + "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"},
		{"a body by its length", "POST /p HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello",
			plain + "POST /p HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello"},
		{"status header", "GET / HTTP/1.1\r\nx-responsestatus: 404 Not Here\r\n\r\n",
			"HTTP/1.0 404 Not Here\r\nContent-Type: text/plain\r\n\r\nGET / HTTP/1.1\r\nx-responsestatus: 404 Not Here\r\n\r\n"},
		{"status and redirect parameters", "GET /r?redirect=/next&status=301%20Moved HTTP/1.1\r\n\r\n",
			"HTTP/1.0 301 Moved\r\nContent-Type: text/plain\r\nLocation: /next\r\n\r\nGET /r?redirect=/next&status=301%20Moved HTTP/1.1\r\n\r\n"},
		{"redirect", "GET /r?redirect=http://h/x HTTP/1.1\r\n\r\n",
			"HTTP/1.0 302 Temporary Redirect\r\nContent-Type: text/plain\r\nLocation: http://h/x\r\n\r\nGET /r?redirect=http://h/x HTTP/1.1\r\n\r\n"},
		{"headers, cookie and length", "GET / HTTP/1.1\r\nX-SetHeaders: A: 1|B: 2\r\nX-SetCookie: c=d\r\nX-ResponseLength: 6\r\n\r\n",
			"HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nA: 1\r\nB: 2\r\nSet-Cookie: c=d\r\n\r\nGET / "},
		{"no CR: no answer", "GET /\n\n", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := exchange(t, addr, tt.req); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// An HTTP client reads the mirror's answer: its own request, echoed.
func TestMirrorHTTPClient(t *testing.T) {
	addr := start(t)
	req, _ := http.NewRequest("POST", "http://"+addr+"/form?x=1", strings.NewReader(strings.Repeat("b", 3000)))
	req.Header.Set("X-SetHeaders", "X-Echo: yes")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || resp.Header.Get("X-Echo") != "yes" || !strings.HasPrefix(string(body), "POST /form?x=1 HTTP/1.1\r\n") ||
		!strings.HasSuffix(string(body), "\r\n\r\n"+strings.Repeat("b", 3000)) {
		t.Errorf("status %d, headers %v, body %q…", resp.StatusCode, resp.Header, body[:min(len(body), 80)])
	}
}

// lateListener is a listener the test controls: Accept hands out the
// connections sent on conns, and Close hands out late (when set) before the
// listener reports itself closed, as a connection accepted while the
// server's Close runs would be.
type lateListener struct {
	conns chan net.Conn
	late  net.Conn
	done  chan struct{}
}

func (l *lateListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *lateListener) Close() error {
	if l.late != nil {
		l.conns <- l.late // taken by the accept loop before Accept fails
	}
	close(l.done)
	return nil
}

func (l *lateListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)} }

// Close closes every connection, also one accepted while it runs, and
// returns: what the client of each reads is the end, with no answer.
func TestMirrorCloseClosesEveryConnection(t *testing.T) {
	for _, tc := range []struct {
		name string
		late bool // accepted while Close runs, after it closed the open ones
	}{
		{"open when Close begins", false},
		{"accepted while Close runs", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := &lateListener{conns: make(chan net.Conn), done: make(chan struct{})}
			s := serveOn(l)
			client, server := net.Pipe()
			defer client.Close()
			got := make(chan string, 1)
			if tc.late {
				l.late = server
				go func() { // a whole request, which a served connection would answer
					io.WriteString(client, "GET / HTTP/1.0\r\n\r\n")
					b, _ := io.ReadAll(client)
					got <- string(b)
				}()
			} else {
				l.conns <- server
				// Half a request: once the server has read it, the
				// connection is open and being served.
				if _, err := io.WriteString(client, "GET / HTTP/1.0\r\n"); err != nil {
					t.Fatal(err)
				}
				go func() {
					b, _ := io.ReadAll(client)
					got <- string(b)
				}()
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if b := <-got; b != "" {
				t.Errorf("the client read %q, want the end at once", b)
			}
		})
	}
}
