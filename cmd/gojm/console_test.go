package main

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// A console whose pipe's reader has gone reports no error to its callers,
// says so once on the other stream, and writes nothing after.
func TestConsoleClosedPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	er, ew, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer er.Close()
	r.Close() // `| head` has read its line and gone
	out, errOut := consoles(w, ew)
	for i := range 3 {
		if n, err := out.Write([]byte("summary +  1 in 00:00:01\n")); err != nil || n != 25 {
			t.Fatalf("write %d: %d, %v; want the whole line taken without an error", i, n, err)
		}
	}
	if !out.broken.Load() {
		t.Error("the console does not know its pipe is closed")
	}
	if _, err := errOut.Write([]byte("still here\n")); err != nil {
		t.Fatal(err)
	}
	ew.Close()
	w.Close()
	buf := make([]byte, 4096)
	n, _ := er.Read(buf)
	got := string(buf[:n])
	if strings.Count(got, "gojm: stdout closed") != 1 || !strings.Contains(got, "broken pipe") ||
		!strings.HasSuffix(got, "still here\n") {
		t.Errorf("stderr: %q; want one notice naming the broken pipe, then the next line", got)
	}
}

type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) { f.n++; return 0, errors.New("input/output error") }

// After the first failed write the writer underneath is not tried again,
// and a console that is not a file is no terminal.
func TestConsoleStopsWriting(t *testing.T) {
	f := &failWriter{}
	c := newConsole(f)
	breaks := 0
	c.onBreak = func(error) { breaks++ }
	for range 5 {
		c.Write([]byte("x\n"))
	}
	if f.n != 1 || breaks != 1 {
		t.Errorf("%d writes tried and %d breaks told; want 1 and 1", f.n, breaks)
	}
	if c.Fd() != ^uintptr(0) || terminal(c) != c {
		t.Error("a console over a non-file claims a file descriptor")
	}
}
