package report

import (
	"sync"
	"time"
)

// BatchSize is how many samples a virtual user gathers before handing them
// to the collector: large enough that the channel hand-off is rare, small
// enough that the periodic summary is never more than a few samples late.
const BatchSize = 64

// MaxBatchAge bounds how long a batch gathers: a virtual user hands its
// batch over once a sample ends this long after the batch's first one did,
// so that a slow user (one sample a second) is not a minute late in the
// live views (progress, summariser, thresholds, metrics). It is judged on
// the samples' own times: no clock is read.
const MaxBatchAge = time.Second

// SlowGap is the pause between two samples of a virtual user past which
// its sample is handed over at once, in a batch of its own size: a user
// that samples slowly (waiting on a slow server, or on its timers) holds
// no batch while it waits, its samples reach the live views without delay,
// and thousands of such users do not keep thousands of full-size batches
// (BatchSize samples are about 20 KiB, more than the rest of a waiting
// user) in flight. A user's first sample counts as slow. A user that
// samples faster fills its batches, for MaxBatchAge at most.
const SlowGap = 50 * time.Millisecond

// Batch is a group of samples from one producer.
type Batch struct {
	Samples []Sample
}

// Collector moves samples from many producers (virtual users) to sinks on
// one goroutine, so sinks need no locks and producers never wait on a sink
// except when the channel is full (back-pressure instead of unbounded memory).
type Collector struct {
	sinks Sinks
	in    chan *Batch
	flush chan chan struct{} // Flush's requests, each closed when done
	free  sync.Pool          // batches of BatchSize
	one   sync.Pool          // batches of one, for slow producers
	done  chan struct{}
	tick  time.Duration
	now   func() time.Time
	err   error
}

// NewCollector starts a collector feeding sinks. tick is how often Ticker
// sinks are told the time (0 disables ticks).
func NewCollector(tick time.Duration, sinks ...Sink) *Collector {
	c := &Collector{
		sinks: sinks,
		in:    make(chan *Batch, 256),
		flush: make(chan chan struct{}),
		done:  make(chan struct{}),
		tick:  tick,
		now:   time.Now,
	}
	c.free.New = func() any { return &Batch{Samples: make([]Sample, 0, BatchSize)} }
	c.one.New = func() any { return &Batch{Samples: make([]Sample, 0, 1)} }
	go c.loop()
	return c
}

func (c *Collector) loop() {
	defer close(c.done)
	var tc <-chan time.Time
	if c.tick > 0 {
		t := time.NewTicker(c.tick)
		defer t.Stop()
		tc = t.C
	}
	for {
		select {
		case b, ok := <-c.in:
			if !ok {
				// The end of the run is a moment too: the last summary
				// covers up to now, not just to the last sample.
				c.sinks.Tick(c.now())
				c.err = c.sinks.Close()
				return
			}
			c.take(b)
		case now := <-tc:
			c.sinks.Tick(now)
		case done := <-c.flush:
			// The batches handed over before Flush was called go first:
			// they are in the channel now (and never its close, which
			// comes only after every batch).
			for n := len(c.in); n > 0; n-- {
				c.take(<-c.in)
			}
			c.sinks.Flush() // an error stays in the sink for Close to return
			close(done)
		}
	}
}

// take feeds a batch's samples to the sinks and recycles the batch.
func (c *Collector) take(b *Batch) {
	for i := range b.Samples {
		c.sinks.Add(&b.Samples[i])
	}
	clear(b.Samples) // drop references to strings and sub-samples
	b.Samples = b.Samples[:0]
	if cap(b.Samples) == BatchSize {
		c.free.Put(b)
	} else {
		c.one.Put(b)
	}
}

// NewBatcher returns a producer-side buffer. Each virtual user owns one;
// it is not safe for concurrent use.
func (c *Collector) NewBatcher() *Batcher { return &Batcher{c: c} }

// Flush has every sink that is a Flusher write out what the samples
// handed over so far left in its buffers, and returns once they have. It
// may be called from any goroutine but the collector's own (a sink's
// calls), and does nothing once the collector is closed.
func (c *Collector) Flush() {
	done := make(chan struct{})
	select {
	case c.flush <- done:
		<-done
	case <-c.done:
	}
}

// Close waits for every batch sent so far to reach the sinks, then closes
// them. All Batchers must have been flushed first.
func (c *Collector) Close() error {
	close(c.in)
	<-c.done
	return c.err
}

// Batcher gathers one producer's samples into batches.
type Batcher struct {
	c    *Collector
	b    *Batch
	last time.Time // when the previous sample ended
}

// Add copies s into the current batch and hands the batch over when full,
// when s ended MaxBatchAge or more after the batch's first sample, or more
// than SlowGap after the previous sample.
// Slices inside s (Sub, Vars, Assertions) are handed over too: the caller
// must not modify them afterwards.
func (b *Batcher) Add(s *Sample) {
	end := s.End()
	slow := b.last.IsZero() || end.Sub(b.last) > SlowGap
	b.last = end
	if b.b == nil {
		if slow {
			b.b = b.c.one.Get().(*Batch)
		} else {
			b.b = b.c.free.Get().(*Batch)
		}
	}
	b.b.Samples = append(b.b.Samples, *s)
	if slow || len(b.b.Samples) == cap(b.b.Samples) || end.Sub(b.b.Samples[0].End()) >= MaxBatchAge {
		b.Flush()
	}
}

// Flush hands over the current partial batch, if any.
func (b *Batcher) Flush() {
	if b.b == nil || len(b.b.Samples) == 0 {
		return
	}
	b.c.in <- b.b
	b.b = nil
}
