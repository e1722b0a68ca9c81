package progress

import (
	"math"
	"sync"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gojm/gojm/report"
)

// maxMs is the largest elapsed time the interval histogram tells apart (1 h);
// longer samples count as 1 h.
const maxMs = int64(time.Hour / time.Millisecond)

// Interval is what happened between two ticks.
type Interval struct {
	Start, End time.Time
	Samples    int64
	Errors     int64
	// P95 is the interval's 95th percentile elapsed time in ms (within 1%,
	// from an HDR histogram), NaN without samples.
	P95 float64
}

// Rate is samples per second over the interval (0 for an empty one).
func (iv Interval) Rate() float64 {
	d := iv.End.Sub(iv.Start).Seconds()
	if d <= 0 {
		return 0
	}
	return float64(iv.Samples) / d
}

// ErrorPct is the share of failed samples in percent.
func (iv Interval) ErrorPct() float64 {
	if iv.Samples == 0 {
		return 0
	}
	return float64(iv.Errors) * 100 / float64(iv.Samples)
}

// Totals are the counts since the start.
type Totals struct {
	Samples, Errors int64
}

// Meter is a Sink and Ticker measuring the last interval between ticks:
// samples per second, error share and 95th percentile. Add and Tick run on
// the collector's goroutine; Add is constant work without allocation. Last
// may be called from any goroutine: each Tick publishes the closed
// interval under a lock (once per tick, never per sample).
//
// Transaction Controller samples are left out, as in the summariser.
type Meter struct {
	hist   *hdrhistogram.Histogram
	cur    Interval
	totals Totals

	mu         sync.Mutex
	last       Interval
	lastTotals Totals
}

// NewMeter returns a meter whose first interval starts at start.
func NewMeter(start time.Time) *Meter {
	m := &Meter{hist: hdrhistogram.New(1, maxMs, 2)}
	m.cur.Start = start
	m.last = Interval{Start: start, End: start, P95: math.NaN()}
	return m
}

// Add counts one sample in the current interval.
func (m *Meter) Add(s *report.Sample) {
	if s.Transaction {
		return
	}
	m.cur.Samples++
	m.totals.Samples++
	if !s.Success {
		m.cur.Errors++
		m.totals.Errors++
	}
	v := int64(s.Elapsed / time.Millisecond)
	m.hist.RecordValue(min(max(v, 0), maxMs)) // in range: cannot fail
}

// minInterval is the shortest interval Tick closes: the run's last tick,
// moments after the one before, would otherwise show a rate and a
// percentile of a handful of samples.
const minInterval = 250 * time.Millisecond

// Tick closes the current interval at now and starts the next, unless the
// interval is shorter than minInterval: then only the totals are published
// and the interval goes on.
func (m *Meter) Tick(now time.Time) {
	if now.Sub(m.cur.Start) < minInterval {
		m.mu.Lock()
		m.lastTotals = m.totals
		m.mu.Unlock()
		return
	}
	iv := m.cur
	iv.End = now
	iv.P95 = math.NaN()
	if iv.Samples > 0 {
		iv.P95 = float64(m.hist.ValueAtQuantile(95))
	}
	m.hist.Reset()
	m.cur = Interval{Start: now}
	m.mu.Lock()
	m.last, m.lastTotals = iv, m.totals
	m.mu.Unlock()
}

// Last returns the last closed interval and the totals at its end.
func (m *Meter) Last() (Interval, Totals) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.last, m.lastTotals
}

// Close does nothing.
func (m *Meter) Close() error { return nil }
