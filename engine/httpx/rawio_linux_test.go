package httpx

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Virtual users at once, each with two lanes, get their own responses
// over raw connections: requests go out with the reads of their
// responses, and reads that find nothing spin while other users'
// responses arrive. In a race-detector build this is the spin's shared
// state, the lanes' shared pool and the connections' handover from lane to
// lane under the detector's eye.
func TestRawConnectionsOfUsersAtOnce(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.URL.Path)
	}))
	defer srv.Close()
	const users, requests = 4, 200
	keep := func(string) bool { return true }
	var wg sync.WaitGroup
	for u := range users {
		c := New(Options{})
		defer c.CloseIdle()
		for _, l := range []*Lane{c.Main(), c.NewLane()} {
			wg.Go(func() {
				var res Result
				for i := range requests {
					path := fmt.Sprintf("/user%d/lane%p/%d", u, l, i)
					l.Do(context.Background(), &Request{Method: "GET", URL: srv.URL + path, KeepAlive: true, KeepBody: keep}, &res)
					if res.Err != nil || res.Status != 200 || string(res.Body) != path {
						t.Errorf("%s: %d %q %v", path, res.Status, res.Body, res.Err)
						return
					}
					if cc, ok := l.idle.nc.(*countingConn); !ok || cc.sender == nil {
						t.Errorf("%s went out on a connection that is not raw", path)
						return
					}
				}
			})
		}
	}
	wg.Wait()
}

// rawIO gives what net.TCPConn's Read and Write give, data and errors
// alike (the engine names failures from the errors), and so it does
// without arrivals to spin on, as in a process that could not make them.
func TestRawIOActsAsTCPConn(t *testing.T) {
	for _, tc := range []struct {
		name string
		// server does this with its end of the connection
		server func(c *net.TCPConn)
		// client does this with its end, through rw (the TCPConn or the rawIO)
		client func(c *net.TCPConn, rw io.ReadWriter) string
	}{
		{"data, then the end", func(c *net.TCPConn) {
			c.Write([]byte("hello"))
			c.Close()
		}, func(c *net.TCPConn, rw io.ReadWriter) string {
			return readAll(rw)
		}},
		{"reset", resetAfterAByte, func(c *net.TCPConn, rw io.ReadWriter) string {
			c.Write([]byte("x"))
			return readAll(rw)
		}},
		{"deadline passed", func(c *net.TCPConn) {}, func(c *net.TCPConn, rw io.ReadWriter) string {
			c.SetReadDeadline(time.Now().Add(-time.Second))
			return readAll(rw)
		}},
		{"deadline reached while waiting", func(c *net.TCPConn) {}, func(c *net.TCPConn, rw io.ReadWriter) string {
			c.SetReadDeadline(time.Now().Add(10 * time.Millisecond))
			return readAll(rw)
		}},
		{"closed here", func(c *net.TCPConn) {}, func(c *net.TCPConn, rw io.ReadWriter) string {
			c.Close()
			return readAll(rw) + " / " + writeOnce(rw, []byte("x"))
		}},
		{"written, echoed", func(c *net.TCPConn) {
			io.CopyN(c, c, 1<<20)
		}, func(c *net.TCPConn, rw io.ReadWriter) string {
			big := []byte(strings.Repeat("0123456789abcdef", 1<<16)) // more than a send buffer
			go io.Copy(io.Discard, io.LimitReader(rw, 1<<20))
			return writeOnce(rw, big)
		}},
		{"write after a reset", resetAfterAByte, func(c *net.TCPConn, rw io.ReadWriter) string {
			c.Write([]byte("x"))
			readAll(rw) // the reset has arrived
			return writeOnce(rw, []byte("x"))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := func(raw, spins bool) string {
				return overLoopback(t, tc.server, func(c *net.TCPConn) string {
					var rw io.ReadWriter = c
					if raw {
						rw = rawIOOf(t, c, spins)
					}
					return tc.client(c, rw)
				})
			}
			want := run(false, false)
			for _, spins := range []bool{true, false} {
				if got := run(true, spins); got != want {
					t.Errorf("rawIO (arrivals %v)\n%s\nTCPConn\n%s", spins, got, want)
				}
			}
		})
	}
}

// rawIOOf returns c's rawIO; without the process's arrivals unless spins.
func rawIOOf(t *testing.T, c *net.TCPConn, spins bool) *rawIO {
	t.Helper()
	r, ok := newRawIO(c).(*rawIO)
	if !ok {
		t.Fatal("a TCP connection without a rawIO")
	}
	if !spins {
		r.arr = nil
	}
	return r
}

// overLoopback connects client to server over the loopback and returns
// what client returns, addresses spelled LOCAL and REMOTE.
func overLoopback(t *testing.T, server func(c *net.TCPConn), client func(c *net.TCPConn) string) string {
	t.Helper()
	ln, err := net.ListenTCP("tcp", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		c, err := ln.AcceptTCP()
		if err != nil {
			return
		}
		server(c)
		c.Close()
	}()
	nc, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	c := nc.(*net.TCPConn)
	got := client(c)
	c.Close()
	<-done
	return strings.NewReplacer(c.LocalAddr().String(), "LOCAL", c.RemoteAddr().String(), "REMOTE").Replace(got)
}

// A request written with the read of its response (writeThenRead) gives
// what a Write and then Reads give, data and errors alike, with arrivals
// to spin on and without.
func TestRawIOWriteThenRead(t *testing.T) {
	big := []byte(strings.Repeat("0123456789abcdef", 1<<12)) // more than a send buffer takes at once
	for _, tc := range []struct {
		name    string
		server  func(c *net.TCPConn)
		request []byte
		// before runs on the client's connection before the exchange
		before func(c *net.TCPConn)
	}{
		{"answered", echoLine, []byte("ping\n"), nil},
		{"answered, then the end", func(c *net.TCPConn) { echoLine(c); c.Close() }, []byte("ping\n"), nil},
		{"more than a send buffer", func(c *net.TCPConn) { io.CopyN(c, c, int64(len(big))) }, big, nil},
		{"reset before the request", resetAfterAByte, []byte("x"), func(c *net.TCPConn) {
			c.Write([]byte("x"))
			readAll(c) // the reset has arrived
		}},
		{"closed here", echoLine, []byte("ping\n"), func(c *net.TCPConn) { c.Close() }},
		{"read deadline passed", echoLine, []byte("ping\n"), func(c *net.TCPConn) {
			c.SetReadDeadline(time.Now().Add(-time.Second))
		}},
		{"no answer within the deadline", func(c *net.TCPConn) { io.Copy(io.Discard, c) }, []byte("ping\n"), func(c *net.TCPConn) {
			c.SetReadDeadline(time.Now().Add(10 * time.Millisecond))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := func(raw, spins bool) string {
				return overLoopback(t, tc.server, func(c *net.TCPConn) string {
					rw := rawIOOf(t, c, spins)
					if tc.before != nil {
						tc.before(c)
					}
					var got string
					if raw {
						rw.writeThenRead(tc.request)
						got = readAll(rw)
					} else if _, err := c.Write(tc.request); err != nil {
						got = fmt.Sprintf("read %q, then %s", "", describe(err))
					} else {
						got = readAll(c)
					}
					if len(got) > 200 {
						got = got[:100] + "…" + got[len(got)-100:]
					}
					return got
				})
			}
			want := run(false, false)
			for _, spins := range []bool{true, false} {
				if got := run(true, spins); got != want {
					t.Errorf("writeThenRead (arrivals %v)\n%s\nWrite, Read\n%s", spins, got, want)
				}
			}
		})
	}
}

// echoLine sends back the first line it reads.
func echoLine(c *net.TCPConn) {
	line, _ := bufio.NewReader(c).ReadBytes('\n')
	c.Write(line)
}

// resetAfterAByte waits for the client's first byte (its connection is
// set up by then), then closes with a reset.
func resetAfterAByte(c *net.TCPConn) {
	io.ReadFull(c, make([]byte, 1))
	c.SetLinger(0)
	c.Close()
}

// readAll reads until an error and describes what it read and the error.
func readAll(r io.Reader) string {
	var b strings.Builder
	buf := make([]byte, 3)
	for {
		n, err := r.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			return fmt.Sprintf("read %q, then %s", b.String(), describe(err))
		}
	}
}

func writeOnce(w io.Writer, p []byte) string {
	n, err := w.Write(p)
	return fmt.Sprintf("wrote %d of %d, %s", n, len(p), describe(err))
}

// describe spells out an error's structure as the engine reads it.
func describe(err error) string {
	if err == nil {
		return "no error"
	}
	var ne net.Error
	timeout := errors.As(err, &ne) && ne.Timeout()
	s := fmt.Sprintf("%T %q timeout=%v closed=%v eof=%v", err, err.Error(), timeout, errors.Is(err, net.ErrClosed), err == io.EOF)
	if oe, ok := err.(*net.OpError); ok {
		s += fmt.Sprintf(" op=%s net=%s source=%v addr=%v inner=%T", oe.Op, oe.Net, oe.Source, oe.Addr, oe.Err)
	}
	return s
}
