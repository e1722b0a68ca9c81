package httpx

import (
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// A read that finds nothing may spin a little before it waits in the
// poller: yield to the other goroutines and look again, until data
// arrives on any connection. Why: when every virtual user waits,
// the process sleeps in the poller, and the server's next response has to
// wake it. On a virtual machine that means waking an idle virtual CPU,
// which the server pays for: against nginx on the loopback at 10 users,
// nginx spent a sixth of its time in that wake-up and became the
// bottleneck. When responses follow each other within microseconds, a
// short spin keeps the process awake from one to the next. Its own data
// the spinning read reads; for another connection's it steps aside, and
// the scheduler, which polls before it sleeps, runs that data's reader.
//
// Only one read spins at a time, and a spin that saw nothing arrive makes
// the next 1, 2, 4 … 64 spins skip, so that a slow server or a single
// user does not pay for spins that cannot succeed.
const (
	spinTries      = 5  // yields per spin
	spinBackoffMax = 64 // most spins skipped after spins that saw nothing
)

// arrivals watches every raw connection for data arriving. It is a second
// epoll instance beside the runtime's, edge-triggered, so that an event
// means "something arrived since the last look" (and, as epoll checks
// before it reports, is still unread); nothing is ever read through it.
type arrivals struct {
	ep       int
	spinning atomic.Bool // a read spins; it alone uses the fields below
	skip     int         // spins still to skip
	backoff  int         // spins the next spin that sees nothing makes skip
	events   [64]syscall.EpollEvent
}

// epollET is EPOLLET, which package syscall defines as a negative number.
const epollET = 1 << 31

// arrived returns the arrivals that serve every connection of the process
// (the spin is about the process sleeping, whatever client its
// connections belong to). The first raw connection makes it, so that a
// process that makes none (gojm report) opens no epoll instance;
// connections made at the same time share the one made. Nil when no
// epoll instance could be made: that is not tried again, and reads never
// spin, which loses only what spinning saves.
var arrived = sync.OnceValue(newArrivals)

// newArrivals makes an arrivals with an epoll instance of its own, or
// returns nil.
func newArrivals() *arrivals {
	ep, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil
	}
	return &arrivals{ep: ep}
}

// watch adds a connection's socket; closing the socket removes it. A
// socket that cannot be added only makes spins see less.
func (a *arrivals) watch(fd uintptr) {
	if a == nil {
		return
	}
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN | syscall.EPOLLRDHUP | epollET, Fd: int32(fd)}
	_ = syscall.EpollCtl(a.ep, syscall.EPOLL_CTL_ADD, int(fd), &ev)
}

// poll returns what arrived since the last look, without waiting.
func (a *arrivals) poll() []syscall.EpollEvent {
	n, _, e := syscall.RawSyscall6(syscall.SYS_EPOLL_PWAIT, uintptr(a.ep), uintptr(unsafe.Pointer(&a.events[0])), uintptr(len(a.events)), 0, 0, 0)
	if e != 0 {
		return nil
	}
	return a.events[:n]
}

// spin reports whether a read of socket fd that found nothing should try
// again: it yields until something arrives on any connection, and says
// yes when its own data arrived. *tries counts the read's yields: 0
// before its first, -1 once it waits in the poller. The read calls found
// when it ends after a yield.
func (a *arrivals) spin(tries *int, fd uintptr) bool {
	if a == nil || *tries < 0 {
		return false
	}
	if *tries == 0 {
		if !a.spinning.CompareAndSwap(false, true) {
			*tries = -1
			return false // another read spins
		}
		if a.skip > 0 {
			a.skip--
			return a.stop(tries)
		}
	}
	for *tries < spinTries {
		*tries++
		runtime.Gosched()
		mine, other := false, false
		for _, ev := range a.poll() {
			if uintptr(ev.Fd) == fd {
				mine = true
			} else {
				other = true
			}
		}
		switch {
		case other:
			a.backoff = 0
			return a.stop(tries)
		case mine:
			return true
		}
	}
	a.backoff = min(max(1, 2*a.backoff), spinBackoffMax)
	a.skip = a.backoff
	return a.stop(tries)
}

// stop ends a spin: the read waits in the poller.
func (a *arrivals) stop(tries *int) bool {
	*tries = -1
	a.spinning.Store(false)
	return false
}

// found ends a spin whose read got its data (or its error).
func (a *arrivals) found() {
	a.backoff = 0
	a.spinning.Store(false)
}
