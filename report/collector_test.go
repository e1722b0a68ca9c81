package report

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// countSink counts what reaches it.
type countSink struct{ n int }

func (c *countSink) Add(*Sample)  { c.n++ }
func (c *countSink) Close() error { return nil }

func TestBatcherHandsOver(t *testing.T) {
	tests := []struct {
		name    string
		samples int
		gap     time.Duration // between sample ends
		pending int           // samples still in the batcher afterwards
	}{
		// The first goes at once (a user's first sample counts as slow).
		{"a full batch", BatchSize + 3, time.Millisecond, 2},
		// The 27th ends 1 s after the 2nd: the 26 go; the other 3 wait.
		{"an old batch", 30, 40 * time.Millisecond, 3},
		{"a young batch", 5, 20 * time.Millisecond, 4},
		// More than SlowGap between samples: each goes at once, and the
		// user holds no batch while it waits for the next.
		{"a slow user", 5, 400 * time.Millisecond, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sink := &countSink{}
			c := NewCollector(0, sink)
			b := c.NewBatcher()
			for i := range tt.samples {
				b.Add(&Sample{Start: t0.Add(time.Duration(i) * tt.gap), Elapsed: ms(5)})
			}
			pending := 0
			if b.b != nil {
				pending = len(b.b.Samples)
			}
			if pending != tt.pending {
				t.Errorf("%d samples pending, want %d", pending, tt.pending)
			}
			b.Flush()
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			if sink.n != tt.samples {
				t.Errorf("%d samples reached the sink, want %d", sink.n, tt.samples)
			}
		})
	}
}

func BenchmarkBatcherAdd(b *testing.B) {
	c := NewCollector(0, Sinks{})
	bt := c.NewBatcher()
	s := &Sample{Start: t0, Elapsed: ms(5)}
	b.ReportAllocs()
	for b.Loop() {
		bt.Add(s)
	}
	bt.Flush()
	c.Close()
}

// A slow user's samples travel in batches of their own size, so that many
// slow users do not keep many full-size batches in flight; a fast user's
// fill batches of BatchSize.
func TestBatcherSizesBatches(t *testing.T) {
	c := &Collector{in: make(chan *Batch, 4)} // no loop: the test reads the channel
	c.free.New = func() any { return &Batch{Samples: make([]Sample, 0, BatchSize)} }
	c.one.New = func() any { return &Batch{Samples: make([]Sample, 0, 1)} }
	b := c.NewBatcher()
	at := t0
	add := func(gap time.Duration) {
		at = at.Add(gap)
		b.Add(&Sample{Start: at})
	}
	for _, gap := range []time.Duration{0, time.Second, time.Second} {
		add(gap)
		got := <-c.in
		if len(got.Samples) != 1 || cap(got.Samples) != 1 {
			t.Fatalf("slow user: batch of %d/%d", len(got.Samples), cap(got.Samples))
		}
	}
	for range BatchSize {
		add(time.Millisecond)
	}
	if got := <-c.in; len(got.Samples) != BatchSize || cap(got.Samples) != BatchSize {
		t.Fatalf("fast user: batch of %d/%d", len(got.Samples), cap(got.Samples))
	}
}

// Flush puts on disk every row handed over before it, without waiting for
// a tick or the end of the run, and is harmless once the collector is
// closed.
func TestCollectorFlush(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.jtl")
	w, err := OpenResultFile(path, DefaultSaveConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	c := NewCollector(0, w) // no ticks: only Flush and Close write
	b := c.NewBatcher()
	for i := range 10 {
		b.Add(&Sample{Start: t0.Add(time.Duration(i) * time.Millisecond), Elapsed: ms(1), Label: "x", Success: true})
	}
	b.Flush()
	rows := func() int {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return bytes.Count(data, []byte("\n"))
	}
	if n := rows(); n != 0 {
		t.Fatalf("%d lines on disk before Flush; the test needs them buffered", n)
	}
	c.Flush()
	if n := rows(); n != 11 {
		t.Errorf("%d lines on disk after Flush, want the header and 10 rows", n)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c.Flush()
}
