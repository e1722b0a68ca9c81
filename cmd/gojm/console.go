package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
)

// console is stdout or stderr as gojm prints to it: a write that fails (a
// closed pipe after `| head`, a terminal gone with its ssh session, a full
// disk under a redirect) ends the printing and nothing else. The run, its
// results files and its end report go on; what the print would have said
// is in summary.txt. Writes never report an error, so no caller can end a
// run over its printing.
type console struct {
	w      io.Writer
	broken atomic.Bool
	// onBreak, when set, is told once of the first failed write.
	onBreak func(err error)
	once    sync.Once
}

func newConsole(w io.Writer) *console { return &console{w: w} }

func (c *console) Write(p []byte) (int, error) {
	if c.broken.Load() {
		return len(p), nil
	}
	if _, err := c.w.Write(p); err != nil {
		c.broken.Store(true)
		c.once.Do(func() {
			if c.onBreak != nil {
				c.onBreak(err)
			}
		})
	}
	return len(p), nil
}

// Fd is the file descriptor underneath, so that a terminal is still known
// for one (progress.IsTerminal).
func (c *console) Fd() uintptr {
	if f, ok := c.w.(interface{ Fd() uintptr }); ok {
		return f.Fd()
	}
	return ^uintptr(0)
}

// terminal is the file under a console, for the live progress block:
// its drawing library knows a terminal only by its *os.File (a terminal
// that goes away fails its writes with EIO, which kills nothing).
func terminal(w io.Writer) io.Writer {
	if c, ok := w.(*console); ok {
		if f, ok := c.w.(*os.File); ok {
			return f
		}
	}
	return w
}

// consoles wraps the process's stdout and stderr. When stdout breaks,
// stderr says so once: the results still go to the files.
func consoles(stdout, stderr *os.File) (out, errOut *console) {
	out, errOut = newConsole(stdout), newConsole(stderr)
	out.onBreak = func(err error) {
		fmt.Fprintf(errOut, "gojm: stdout closed (%v): printing stops; the run goes on and its results still go to the files\n", err)
	}
	return out, errOut
}
