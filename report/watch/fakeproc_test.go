package watch

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeProc is a directory laid out like the parts of /proc the watcher
// reads, so that scans see exactly the processes a test describes.
type fakeProc struct {
	t   *testing.T
	dir string
}

// fakeP describes one fake process. Times are in clock ticks (the fake has
// no auxv, so CLK_TCK is 100); rss is in pages.
type fakeP struct {
	pid, ppid     int
	comm, cmdline string // cmdline: NUL-separated arguments
	u, s, cu, cs  uint64
	threads       int
	start         uint64
	rssPages      int64
	fds           int
	state         byte
}

func newFakeProc(t *testing.T) *fakeProc {
	t.Helper()
	f := &fakeProc{t: t, dir: t.TempDir()}
	f.machine("0.50 0.40 0.30 1/123 4567\n", 2048000)
	return f
}

func (f *fakeProc) write(rel, content string) {
	f.t.Helper()
	path := filepath.Join(f.dir, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

// machine sets /proc/loadavg and MemAvailable (in kB).
func (f *fakeProc) machine(loadavg string, memAvailableKB int64) {
	f.write("loadavg", loadavg)
	f.write("meminfo", fmt.Sprintf("MemTotal:        8000000 kB\nMemFree:         1000000 kB\nMemAvailable:    %d kB\nBuffers:          100000 kB\n", memAvailableKB))
}

// set creates or replaces a process.
func (f *fakeProc) set(p fakeP) {
	f.t.Helper()
	if p.state == 0 {
		p.state = 'S'
	}
	if p.threads == 0 {
		p.threads = 1
	}
	// Fields 1-24 of proc(5), then a few more as the kernel writes them.
	stat := fmt.Sprintf("%d (%s) %c %d %d %d 0 -1 4194560 100 0 0 0 %d %d %d %d 20 0 %d 0 %d 123456789 %d 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n",
		p.pid, p.comm, p.state, p.ppid, p.pid, p.pid, p.u, p.s, p.cu, p.cs, p.threads, p.start, p.rssPages)
	pd := filepath.Join(f.dir, fmt.Sprint(p.pid))
	os.RemoveAll(filepath.Join(pd, "fd"))
	f.write(filepath.Join(fmt.Sprint(p.pid), "stat"), stat)
	f.write(filepath.Join(fmt.Sprint(p.pid), "cmdline"), p.cmdline)
	if err := os.MkdirAll(filepath.Join(pd, "fd"), 0o755); err != nil {
		f.t.Fatal(err)
	}
	for i := range p.fds {
		f.write(filepath.Join(fmt.Sprint(p.pid), "fd", fmt.Sprint(i)), "")
	}
}

// remove makes a process disappear (it exited and was reaped).
func (f *fakeProc) remove(pid int) {
	f.t.Helper()
	if err := os.RemoveAll(filepath.Join(f.dir, fmt.Sprint(pid))); err != nil {
		f.t.Fatal(err)
	}
}

// argv joins arguments as /proc/PID/cmdline holds them.
func argv(args ...string) string { return strings.Join(args, "\x00") + "\x00" }
