package progress

import (
	"math"
	"sync"
	"time"

	"github.com/gojm/gojm/report"
)

// Interval is what happened between two ticks.
type Interval struct {
	Start, End time.Time
	Samples    int64
	Errors     int64
	// P95 is the interval's 95th percentile elapsed time in ms, by the
	// statistics' one definition (report.Histogram), NaN without samples.
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
// the collector's goroutine; Add is constant work without allocation once
// the interval's times have been seen. Last may be called from any
// goroutine: each Tick publishes the closed interval under a lock (once
// per tick, never per sample).
//
// It counts the rows the statistics' Total counts (report.StatsOptions.EachRow),
// in the same whole milliseconds: Transaction Controller samples are left
// out and sub-results count as samples where the statistics count them, so
// the live totals are the summariser's and statistics.json's.
type Meter struct {
	opt    report.StatsOptions
	hist   report.Histogram
	cur    Interval
	totals Totals

	mu         sync.Mutex
	last       Interval
	lastTotals Totals
}

// NewMeter returns a meter whose first interval starts at start, counting
// the rows statistics with opt count.
func NewMeter(start time.Time, opt report.StatsOptions) *Meter {
	m := &Meter{opt: opt}
	m.cur.Start = start
	m.last = Interval{Start: start, End: start, P95: math.NaN()}
	return m
}

// Add counts the rows of one sample in the current interval.
func (m *Meter) Add(s *report.Sample) { m.opt.EachRow(s, m.row) }

func (m *Meter) row(s *report.Sample, inTotal bool) {
	if !inTotal {
		return
	}
	m.cur.Samples++
	m.totals.Samples++
	if !s.Success {
		m.cur.Errors++
		m.totals.Errors++
	}
	m.hist.Add(s.Elapsed.Milliseconds())
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
		iv.P95 = m.hist.Percentile(95)
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
