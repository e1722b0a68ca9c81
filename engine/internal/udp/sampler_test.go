package udp

import (
	"context"
	"net"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/elementtest"
)

// echo is a UDP server on the loopback that answers each datagram with
// "re:" and the datagram, except "quiet", and counts the addresses it
// hears from.
type echo struct {
	port    string
	got     chan string
	senders atomic.Int32
}

func serveEcho(t *testing.T) *echo {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	e := &echo{got: make(chan string, 100)}
	_, e.port, _ = net.SplitHostPort(pc.LocalAddr().String())
	go func() {
		seen := map[string]bool{}
		buf := make([]byte, 65536)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			if !seen[from.String()] {
				seen[from.String()] = true
				e.senders.Add(1)
			}
			e.got <- string(buf[:n])
			if string(buf[:n]) != "quiet" {
				pc.WriteTo(append([]byte("re:"), buf[:n]...), from)
			}
		}
	}()
	return e
}

func TestUDPRequest(t *testing.T) {
	srv := serveEcho(t)
	closed := func() string { // a port nobody listens on
		pc, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		_, p, _ := net.SplitHostPort(pc.LocalAddr().String())
		pc.Close()
		return p
	}()
	for _, tt := range []struct {
		name                string
		kv                  []string
		code, message, body string
		sent                string
		success             bool
	}{
		{"raw text", []string{"waitresponse", "true", "timeout", "2000", "data", "héllo€"}, "200", "", "re:h\xe9llo\x80", "h\xe9llo\x80", true},
		{"a character Windows-1252 lacks", []string{"waitresponse", "true", "data", "a→b"}, "200", "", "re:a?b", "a?b", true},
		{"hex", []string{"waitresponse", "true", "encodeclass", hexEncoder, "data", "0aFF"}, "200", "", "72653a0aff", "\x0a\xff", true},
		{"no wait", []string{"waitresponse", "false", "data", "fire"}, "200", "", "", "fire", true},
		{"timeout", []string{"waitresponse", "true", "timeout", "50", "data", "quiet"}, "500",
			"java.net.SocketTimeoutException: Timeout exceeded while reading from socket",
			"java.net.SocketTimeoutException: Timeout exceeded while reading from socket\r\n", "quiet", false},
		{"bad hex", []string{"waitresponse", "true", "encodeclass", hexEncoder, "data", "0g"}, "500",
			"java.lang.IllegalArgumentException: Hex-encoded binary string contains an invalid hex digit in '0g'",
			"java.lang.IllegalArgumentException: Hex-encoded binary string contains an invalid hex digit in '0g'\r\n", "", false},
		{"bad port", []string{"port", "", "data", "x"}, "500", `java.lang.NumberFormatException: For input string: ""`,
			"java.lang.NumberFormatException: For input string: \"\"\r\n", "", false},
		{"port unreachable", []string{"port", closed, "waitresponse", "true", "timeout", "2000", "data", "x"}, "500",
			"java.net.PortUnreachableException", "java.net.PortUnreachableException\r\n", "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			kv := append(append([]string{}, tt.kv...), "hostname", "127.0.0.1", "port", srv.port)
			b := elementtest.New(nil, "", "")
			s, err := Build(b, elementtest.El(Class, kv...), element.InScope{})
			if err != nil {
				t.Fatal(err)
			}
			vu := b.VU(1)
			defer vu.End()
			var r element.Result
			s.Sample(vu, &r)
			if r.Code != tt.code || r.Message != tt.message || string(r.Body) != tt.body || r.Success != tt.success ||
				r.DataType != "bin" || r.Bytes != int64(len(tt.body)) {
				t.Errorf("got %q %q %q %v %q %d", r.Code, r.Message, r.Body, r.Success, r.DataType, r.Bytes)
			}
			if tt.sent != "" {
				if got := <-srv.got; got != tt.sent {
					t.Errorf("the server got %q, want %q", got, tt.sent)
				}
			}
		})
	}
}

// A user keeps its channel between samples unless the sampler closes it;
// users have channels of their own.
func TestUDPChannels(t *testing.T) {
	for _, tt := range []struct {
		name    string
		close   string
		users   int
		senders int32
	}{{"kept", "false", 1, 1}, {"closed", "true", 1, 3}, {"per user", "false", 2, 2}} {
		t.Run(tt.name, func(t *testing.T) {
			srv := serveEcho(t)
			b := elementtest.New(nil, "", "")
			s, err := Build(b, elementtest.El(Class, "hostname", "127.0.0.1", "port", srv.port, "waitresponse", "true",
				"closechannel", tt.close, "data", "${n}"), element.InScope{})
			if err != nil {
				t.Fatal(err)
			}
			for u := 1; u <= tt.users; u++ {
				vu := b.VU(u)
				for i := range 3 / tt.users {
					vu.Vars.Put("n", strconv.Itoa(i))
					var r element.Result
					s.Sample(vu, &r)
					if string(r.Body) != "re:"+strconv.Itoa(i) {
						t.Errorf("user %d sample %d: %q %q", u, i, r.Message, r.Body)
					}
				}
				vu.End()
			}
			if n := srv.senders.Load(); n != tt.senders {
				t.Errorf("%d channels, want %d", n, tt.senders)
			}
		})
	}
}

// A run stopped now closes the channel being read.
func TestUDPHardStop(t *testing.T) {
	srv := serveEcho(t)
	b := elementtest.New(nil, "", "")
	s, err := Build(b, elementtest.El(Class, "hostname", "127.0.0.1", "port", srv.port, "waitresponse", "true",
		"timeout", "0", "data", "quiet"), element.InScope{})
	if err != nil {
		t.Fatal(err)
	}
	hard, stop := context.WithCancel(context.Background())
	defer stop()
	vu := element.NewVU(b.Plan(), element.NewGroup(b.Plan()), b.Run(), 1, "TG 1-1", context.Background(), hard)
	defer vu.End()
	go func() { <-srv.got; stop() }()
	var r element.Result
	s.Sample(vu, &r)
	if r.Code != "500" || r.Success {
		t.Errorf("%q %q %v", r.Code, r.Message, r.Success)
	}
}
