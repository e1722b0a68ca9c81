package httpx

import (
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"testing"
)

// The process's arrivals, and their epoll instance, are made by the first
// raw connection, not when the package is loaded (a process that only
// reads results files has no use for them), and connections made at the
// same time share them. Looked at in a process of its own, so that no
// other test has made a connection first.
func TestArrivalsMadeByTheFirstRawConnection(t *testing.T) {
	const child = "GOJM_HTTPX_ARRIVALS_CHILD"
	if os.Getenv(child) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestArrivalsMadeByTheFirstRawConnection$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), child+"=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("in a process of its own: %v\n%s", err, out)
		}
		return
	}
	before := epollInstances(t)
	c1, _ := tcpPair(t)
	c2, _ := tcpPair(t)
	raws := make([]*rawIO, 2)
	var wg sync.WaitGroup
	for i, c := range []*net.TCPConn{c1, c2} {
		wg.Go(func() { raws[i], _ = newRawIO(c).(*rawIO) })
	}
	wg.Wait()
	if raws[0] == nil || raws[1] == nil {
		t.Fatal("a TCP connection without a rawIO")
	}
	a := raws[0].arr
	if a == nil {
		t.Fatal("no arrivals: no epoll instance could be made")
	}
	if raws[1].arr != a || arrived() != a {
		t.Fatal("connections have arrivals of their own")
	}
	if before[a.ep] {
		t.Fatalf("the arrivals' epoll instance (fd %d) was open before the first raw connection", a.ep)
	}
	if !epollInstances(t)[a.ep] {
		t.Fatalf("the arrivals' fd %d is not an epoll instance", a.ep)
	}
}

// epollInstances returns the process's open epoll instances, by fd.
func epollInstances(t *testing.T) map[int]bool {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	eps := map[int]bool{}
	for _, e := range ents {
		fd, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if target, err := os.Readlink("/proc/self/fd/" + e.Name()); err == nil && target == "anon_inode:[eventpoll]" {
			eps[fd] = true
		}
	}
	return eps
}

// A spin ends as its rules say: at once when another read spins or when
// spins are being skipped; when another connection's data arrives (and
// the backoff resets); after spinTries yields when nothing arrives (and
// the next 1, 2, 4 … spins skip). When its own data arrives the read
// tries again. Data read before the spin began does not count: epoll
// reports only what is still there, so a spin needs no look beforehand.
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

	stopped := func(what string, again bool, tries int) {
		t.Helper()
		if again || tries != -1 || a.spinning.Load() {
			t.Fatalf("%s: try again %v, tries %d, spinning %v; want a stop", what, again, tries, a.spinning.Load())
		}
	}

	// Data that arrived and was read before the spin began.
	send(t, s2, c2)
	drain(t, c2)

	// Nothing arrives: each spin stops and doubles the backoff; the spins
	// it makes skip stop at once.
	for _, backoff := range []int{1, 2, 4} {
		tries := 0
		stopped("nothing arrives", a.spin(&tries, fd1), tries)
		if a.backoff != backoff || a.skip != backoff {
			t.Fatalf("after a spin that saw nothing: backoff %d, skip %d; want %d", a.backoff, a.skip, backoff)
		}
		for range backoff {
			tries = 0
			stopped("a spin to skip", a.spin(&tries, fd1), tries)
		}
		if a.skip != 0 {
			t.Fatalf("skip %d after the skipped spins", a.skip)
		}
	}

	// One read spins (as the first yield of a spin leaves it): another
	// read does not.
	a.spinning.Store(true)
	other := 0
	if a.spin(&other, fd2) || other != -1 || !a.spinning.Load() {
		t.Fatalf("a second read: tries %d, spinning %v", other, a.spinning.Load())
	}

	// Another connection's data arrives: the spin stops, and a spin paid.
	send(t, s2, c2)
	tries := 1
	stopped("another connection's data", a.spin(&tries, fd1), tries)
	if a.backoff != 0 {
		t.Fatalf("backoff %d after a spin that saw data arrive", a.backoff)
	}
	drain(t, c2)

	// Its own data arrives: the read tries again, then ends the spin, and
	// a spin paid.
	a.spinning.Store(true)
	a.backoff = 4
	send(t, s1, c1)
	tries = 1
	if !a.spin(&tries, fd1) {
		t.Fatal("own data: the spin stopped")
	}
	a.found()
	if a.spinning.Load() || a.backoff != 0 {
		t.Fatalf("after found: spinning %v, backoff %d", a.spinning.Load(), a.backoff)
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
