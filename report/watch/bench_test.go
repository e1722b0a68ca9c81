package watch

import (
	"io"
	"os"
	"strconv"
	"testing"
	"time"
)

// BenchmarkTick is one tick against the real /proc, watching this process:
// the whole scan of the machine's processes plus one row. Run with
// -benchmem: once the process table is warm a tick allocates nothing.
func BenchmarkTick(b *testing.B) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		b.Skip("no /proc here:", err)
	}
	s, err := newSampler("/proc", []string{strconv.Itoa(os.Getpid())})
	if err != nil {
		b.Fatal(err)
	}
	defer s.close()
	w := &Watcher{s: s, out: nil, line: make([]byte, 0, 256), acc: newAccumulator()}
	w.start = time.Now()
	w.last = w.start
	w.tick(time.Now()) // warm the table
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		w.tick(time.Now())
	}
	b.StopTimer()
	if w.err != nil {
		b.Fatal(w.err)
	}
	b.ReportMetric(float64(len(s.procs)), "procs")
}

// BenchmarkAppendRow is writing one server.csv row.
func BenchmarkAppendRow(b *testing.B) {
	r := row{unixMilli: 1717000000000, elapsed: 12.345, pid: 4321, name: "nginx", userPct: 55.5, sysPct: 12.25,
		rss: 123456789, threads: 12, fds: 57, load1: 1.5, memAvailable: 8 << 30}
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		buf = appendRow(buf[:0], &r)
	}
	io.Discard.Write(buf)
}
