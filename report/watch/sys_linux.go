//go:build linux

package watch

import (
	"encoding/binary"
	"syscall"
	"unsafe"
)

// procDir is an open directory (the /proc root) from which paths are opened
// relative to it, with reused buffers, so that a tick allocates nothing.
type procDir struct {
	fd int
}

func openProcDir(root string) (procDir, error) {
	fd, err := syscall.Open(root, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return procDir{fd: -1}, err
	}
	return procDir{fd: fd}, nil
}

func (d procDir) close() error {
	if d.fd < 0 {
		return nil
	}
	return syscall.Close(d.fd)
}

// open opens path (relative to d, terminated by a NUL byte) read-only.
func (d procDir) open(path []byte, dir bool) (int, error) {
	flags := syscall.O_RDONLY | syscall.O_CLOEXEC
	if dir {
		flags |= syscall.O_DIRECTORY
	}
	for {
		fd, _, errno := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(d.fd),
			uintptr(unsafe.Pointer(&path[0])), uintptr(flags), 0, 0, 0)
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 {
			return -1, errno
		}
		return int(fd), nil
	}
}

// readFile reads the file at path (NUL-terminated, relative to d) into buf
// and returns how many bytes it read; a file longer than buf is cut short.
func (d procDir) readFile(path, buf []byte) (int, error) {
	fd, err := d.open(path, false)
	if err != nil {
		return 0, err
	}
	n := 0
	for n < len(buf) {
		m, err := syscall.Read(fd, buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			syscall.Close(fd)
			return n, err
		}
		if m == 0 {
			break
		}
		n += m
	}
	return n, syscall.Close(fd)
}

// eachEntry calls fn with the name of every entry of the directory at path
// (NUL-terminated, relative to d; "." for d itself), using buf for the
// kernel's directory records. The name slice is only valid during the call.
func (d procDir) eachEntry(path, buf []byte, fn func(name []byte)) error {
	fd, err := d.open(path, true)
	if err != nil {
		return err
	}
	for {
		n, err := syscall.Getdents(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			syscall.Close(fd)
			return err
		}
		if n <= 0 {
			break
		}
		// struct linux_dirent64: ino u64, off s64, reclen u16, type u8, name.
		for off := 0; off+19 < n; {
			reclen := int(binary.NativeEndian.Uint16(buf[off+16:]))
			if reclen == 0 || off+reclen > n {
				break
			}
			name := buf[off+19 : off+reclen]
			for i, c := range name {
				if c == 0 {
					name = name[:i]
					break
				}
			}
			fn(name)
			off += reclen
		}
	}
	return syscall.Close(fd)
}
