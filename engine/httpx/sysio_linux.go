//go:build !race

package httpx

import (
	"syscall"
	"unsafe"
)

// sysRead and sysWrite are rawIO's read and write of a socket: raw system
// calls, which the scheduler does not hear of (see rawIO for what that
// saves). p is not empty. On an error the count is meaningless.

func sysRead(fd uintptr, p []byte) (int, syscall.Errno) {
	n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	return int(n), e
}

func sysWrite(fd uintptr, p []byte) (int, syscall.Errno) {
	n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	return int(n), e
}
