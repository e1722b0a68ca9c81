//go:build !race

package httpx

import (
	"net"
	"syscall"
	"testing"
)

// A spin ends as its rules say: at once when another read spins or when
// spins are being skipped, when another connection's data arrives (and
// the backoff resets), after spinTries yields when nothing arrives (and
// the next 1, 2, 4 … spins skip); it reads at once when its own data
// arrives.
func TestArrivalsSpin(t *testing.T) {
	a := newArrivals()
	if a == nil {
		t.Fatal("no epoll instance")
	}
	defer syscall.Close(a.ep)
	c1, s1 := tcpPair(t)
	c2, s2 := tcpPair(t)
	fd1, fd2 := sysfd(t, c1), sysfd(t, c2)
	a.watch(fd1)
	a.watch(fd2)

	// spinUntilStop spins a read of fd until it stops and returns its yields.
	spinUntilStop := func(fd uintptr) int {
		tries, n := 0, 0
		for ; a.spin(&tries, fd); n++ {
			if n > spinTries {
				t.Fatalf("spin went on past %d yields", spinTries)
			}
		}
		if tries != -1 || a.spinning.Load() {
			t.Fatalf("a stopped spin left tries %d, spinning %v", tries, a.spinning.Load())
		}
		return n
	}

	// Nothing arrives: the spin stops after spinTries yields, and the
	// backoff doubles with each such spin, each skipped spin stopping at
	// once.
	for _, backoff := range []int{1, 2, 4} {
		if n := spinUntilStop(fd1); n != spinTries {
			t.Fatalf("a spin that saw nothing yielded %d times, want %d", n, spinTries)
		}
		if a.backoff != backoff || a.skip != backoff {
			t.Fatalf("after a spin that saw nothing: backoff %d, skip %d; want %d", a.backoff, a.skip, backoff)
		}
		for range backoff {
			if n := spinUntilStop(fd1); n != 0 {
				t.Fatalf("a spin to skip yielded %d times", n)
			}
		}
	}

	// Another connection's data arrives: the spin stops, and a spin paid.
	tries := 0
	if !a.spin(&tries, fd1) {
		t.Fatal("the spin did not start")
	}
	other := 0
	if a.spin(&other, fd2) || other != -1 {
		t.Fatal("a second read spun while one spins")
	}
	send(t, s2, c2)
	if a.spin(&tries, fd1) || tries != -1 {
		t.Fatalf("the spin went on after another connection's data arrived (tries %d)", tries)
	}
	if a.backoff != 0 || a.spinning.Load() {
		t.Fatalf("backoff %d, spinning %v after a spin that saw data arrive", a.backoff, a.spinning.Load())
	}
	drain(t, c2)

	// Its own data arrives: the read tries again at once, then ends the spin.
	tries = 0
	if !a.spin(&tries, fd1) {
		t.Fatal("the spin did not start")
	}
	send(t, s1, c1)
	if !a.spin(&tries, fd1) || tries != 2 {
		t.Fatalf("own data: spin stopped or yielded (tries %d)", tries)
	}
	a.found()
	if a.spinning.Load() || a.backoff != 0 {
		t.Fatal("found left the spin on")
	}

	var nilArrivals *arrivals
	tries = 0
	if nilArrivals.spin(&tries, fd1) {
		t.Error("a nil arrivals spun")
	}
}

// tcpPair returns both ends of a loopback TCP connection, closed when the
// test ends.
func tcpPair(t *testing.T) (client, server *net.TCPConn) {
	t.Helper()
	ln, err := net.ListenTCP("tcp", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := net.DialTCP("tcp", nil, ln.Addr().(*net.TCPAddr))
	if err != nil {
		t.Fatal(err)
	}
	s, err := ln.AcceptTCP()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(); s.Close() })
	return c, s
}

// sysfd returns c's socket.
func sysfd(t *testing.T, c *net.TCPConn) uintptr {
	t.Helper()
	rc, err := c.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var fd uintptr
	if err := rc.Control(func(s uintptr) { fd = s }); err != nil {
		t.Fatal(err)
	}
	return fd
}

// send writes a byte from one end and returns once it is readable at the
// other, without reading it.
func send(t *testing.T, from, to *net.TCPConn) {
	t.Helper()
	if _, err := from.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	rc, err := to.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var b [1]byte
	err = rc.Read(func(fd uintptr) bool {
		_, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		return err != syscall.EAGAIN
	})
	if err != nil {
		t.Fatal(err)
	}
}

// drain reads the byte send sent.
func drain(t *testing.T, c *net.TCPConn) {
	t.Helper()
	if _, err := c.Read(make([]byte, 1)); err != nil {
		t.Fatal(err)
	}
}
