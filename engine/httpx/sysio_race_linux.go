//go:build race

package httpx

import "syscall"

// In race-detector builds rawIO reads and writes a socket through package
// syscall's Read and Write, the calls net.Conn makes, instead of raw
// system calls; everything around them (the poller's callbacks, the
// request sent with the read, the spin) is the same code as in other
// builds. Why: the detector cannot see bytes cross a socket. Read and
// Write tell it what they imply: that a write to a socket happens before
// any later read (so what a server's goroutine did before answering
// happens before what the client does with the answer), and which bytes
// of the buffer the kernel wrote or read. A raw system call tells it
// nothing, and the tests would report races that are not there. Those
// annotations live in internal/race, which no package outside the
// standard library can call. The price is the scheduler's bookkeeping
// around each call, which only the speed of a race build pays.

func sysRead(fd uintptr, p []byte) (int, syscall.Errno) {
	n, err := syscall.Read(int(fd), p)
	return n, errnoOf(err)
}

func sysWrite(fd uintptr, p []byte) (int, syscall.Errno) {
	n, err := syscall.Write(int(fd), p)
	return n, errnoOf(err)
}

// errnoOf is the system call's error number: package syscall reports
// every failure of Read and Write as a syscall.Errno.
func errnoOf(err error) syscall.Errno {
	if err == nil {
		return 0
	}
	if e, ok := err.(syscall.Errno); ok {
		return e
	}
	return syscall.EIO // a failure all the same
}
