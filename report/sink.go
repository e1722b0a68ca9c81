package report

import "time"

// Sink consumes samples. Sinks are fed by a single goroutine (the Collector,
// or a JTL decoder), so they need no locks. The *Sample passed to Add is
// only valid during the call: a sink that keeps anything copies it.
type Sink interface {
	Add(s *Sample)
	Close() error
}

// Ticker is implemented by sinks that act on the passage of time even when
// no sample arrives (the summariser's periodic line, live progress).
type Ticker interface {
	Tick(now time.Time)
}

// Flusher is implemented by sinks that buffer output (the results files):
// Flush writes out what is buffered, so that a stop asked for now is not
// a tick late on disk.
type Flusher interface {
	Flush() error
}

// Sinks fans samples out to several sinks in order.
type Sinks []Sink

// Add passes s to every sink.
func (ss Sinks) Add(s *Sample) {
	for _, k := range ss {
		k.Add(s)
	}
}

// Tick passes the time to every sink that is a Ticker.
func (ss Sinks) Tick(now time.Time) {
	for _, k := range ss {
		if t, ok := k.(Ticker); ok {
			t.Tick(now)
		}
	}
}

// Flush flushes every sink that is a Flusher and returns the first error.
func (ss Sinks) Flush() error {
	var first error
	for _, k := range ss {
		if f, ok := k.(Flusher); ok {
			if err := f.Flush(); err != nil && first == nil {
				first = err
			}
		}
	}
	return first
}

// Close closes every sink and returns the first error.
func (ss Sinks) Close() error {
	var first error
	for _, k := range ss {
		if err := k.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
