package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"time"
)

// DefaultSummariserInterval is JMeter's summariser.interval default.
const DefaultSummariserInterval = 30 * time.Second

// summariserWindow is JMeter's slack (in seconds) after an interval
// boundary during which a report may still be printed.
const summariserWindow = 5

// running is JMeter's SummariserRunningSample: counts and times of a
// period, times in ms. first and last are the earliest start and the
// latest end of its samples.
type running struct {
	count, errors, sum int64
	min, max           int64
	start, end         int64
	first, last        int64
}

func (r *running) reset(now int64) {
	*r = running{min: math.MaxInt64, max: math.MinInt64, start: now, end: now}
}

func (r *running) add(start, elapsed int64, ok bool, now int64) {
	if r.count == 0 || start < r.first {
		r.first = start
	}
	if r.count == 0 || start+elapsed > r.last {
		r.last = start + elapsed
	}
	r.count++
	if !ok {
		r.errors++
	}
	r.sum += elapsed
	r.min = min(r.min, elapsed)
	r.max = max(r.max, elapsed)
	r.end = now
}

func (r *running) merge(o *running, now int64) {
	if o.count > 0 {
		if r.count == 0 || o.first < r.first {
			r.first = o.first
		}
		if r.count == 0 || o.last > r.last {
			r.last = o.last
		}
	}
	r.count += o.count
	r.errors += o.errors
	r.sum += o.sum
	r.min = min(r.min, o.min)
	r.max = max(r.max, o.max)
	r.end = now
}

// Summariser is a Sink and Ticker printing JMeter's non-GUI summary lines:
//
//	summary +     42 in 00:00:29 =    1.4/s Avg:    12 Min:     3 Max:    80 Err:     0 (0.00%) Active: 2 Started: 2 Finished: 0
//	summary =    100 in 00:01:05 =    1.5/s Avg:    11 Min:     2 Max:    80 Err:     1 (1.00%)
//
// A "+" line covers the samples since the previous one and a "=" line all
// samples so far (printed only once it differs from the "+" line). The
// samples are the rows the statistics count (StatsOptions.EachRow: the
// Transaction Controller samples left out, sub-results counted with
// SubResults), and a "=" line gives the Total's figures: its time is from
// the first sample's start to the last one's end, its rate the samples over
// that time (where JMeter's summariser counts from the test's start to the
// last report), its Avg the mean rounded to the millisecond (JMeter's
// truncates). As in JMeter 5.6 a report is due when the time in whole seconds since the
// epoch is more than 5 s after the last report and within 5 s after a
// multiple of the interval; it is checked when a sample arrives and on
// each Tick while samples are pending. Close prints the last "+" line (if
// some samples are pending and some were reported before) and the final
// "=" line.
//
// The time is never read from the clock: it is the latest of the sample
// end times and the Tick times seen, so replaying a JTL prints what the
// live run printed and tests need no sleeping. Call Tick just before Close
// to date the final line.
type Summariser struct {
	// Name starts every line: JMeter's summariser.name, "summary".
	Name string
	// IncludeTransactions counts Transaction Controller samples, i.e.
	// summariser.ignore_transaction_controller_sample_result=false.
	IncludeTransactions bool
	// SubResults counts sub-results as samples of their own, as the
	// statistics do (StatsOptions.SubResults).
	SubResults bool

	w        io.Writer
	interval int64 // seconds
	threads  func() (active, started, finished int)
	delta    running
	total    running
	now      int64 // ms
	started  bool
	last     int64 // seconds of the last report
	line     []byte
	err      error
}

// NewSummariser returns a summariser writing to w every interval
// (DefaultSummariserInterval when 0). threads reports JMeter's thread
// counts for the "+" lines; when nil that part is left out.
func NewSummariser(w io.Writer, interval time.Duration, threads func() (active, started, finished int)) *Summariser {
	sec := int64(interval / time.Second)
	if interval <= 0 {
		sec = int64(DefaultSummariserInterval / time.Second)
	}
	return &Summariser{Name: "summary", w: w, interval: max(sec, 1), threads: threads}
}

// Start sets the beginning of the first period (the test start). Without
// it the first sample's start or the first tick, whichever comes first,
// is used.
func (sm *Summariser) Start(t time.Time) {
	sm.begin(t.UnixMilli())
}

func (sm *Summariser) begin(ms int64) {
	if sm.started {
		return
	}
	sm.started = true
	sm.now = max(sm.now, ms)
	sm.delta.reset(ms)
	sm.total.reset(ms)
}

func (sm *Summariser) advance(ms int64) {
	if ms > sm.now {
		sm.now = ms
	}
}

// Add counts the rows of s and prints the due lines.
func (sm *Summariser) Add(s *Sample) {
	StatsOptions{SubResults: sm.SubResults}.EachRow(s, sm.row)
}

func (sm *Summariser) row(s *Sample, inTotal bool) {
	if !inTotal && !sm.IncludeTransactions {
		return
	}
	start := s.Start.UnixMilli()
	sm.begin(start)
	elapsed := millis(s.Elapsed)
	sm.advance(start + elapsed)
	sm.delta.add(start, elapsed, s.Success, sm.now)
	sm.check()
}

// Tick advances the time to now and prints the due lines.
func (sm *Summariser) Tick(now time.Time) {
	sm.begin(now.UnixMilli())
	sm.advance(now.UnixMilli())
	if sm.delta.count > 0 {
		sm.check()
	}
}

func (sm *Summariser) check() {
	sec := sm.now / 1000
	if sec <= sm.last+summariserWindow || sec%sm.interval > summariserWindow {
		return
	}
	delta := sm.delta
	sm.total.merge(&sm.delta, sm.now)
	sm.delta.reset(sm.now)
	sm.last = sec
	sm.print(&delta, '+')
	if sm.total.count != delta.count {
		sm.print(&sm.total, '=')
	}
}

// Close prints the final lines and returns the first write error.
func (sm *Summariser) Close() error {
	if !sm.started {
		sm.begin(0)
	}
	sm.delta.end = sm.now
	if sm.delta.count > 0 && sm.total.count > 0 {
		sm.print(&sm.delta, '+')
	}
	sm.total.merge(&sm.delta, sm.now)
	sm.delta.reset(sm.now)
	sm.print(&sm.total, '=')
	return sm.err
}

func (sm *Summariser) print(r *running, kind byte) {
	if sm.err != nil {
		return
	}
	sm.line = formatSummary(sm.line[:0], sm.Name, r, kind)
	if kind == '+' && sm.threads != nil {
		a, s, f := sm.threads()
		sm.line = fmt.Appendf(sm.line, " Active: %d Started: %d Finished: %d", a, s, f)
	}
	sm.line = append(sm.line, '\n')
	if _, err := sm.w.Write(sm.line); err != nil {
		sm.err = fmt.Errorf("summariser: %w", err)
	}
}

// formatSummary appends one line in JMeter 5.6's layout (without the
// thread counts and the line end).
func formatSummary(b []byte, name string, r *running, kind byte) []byte {
	b = append(b, name...)
	b = append(b, ' ', kind, ' ')
	b = appendRight(b, strconv.FormatInt(r.count, 10), 6)
	b = append(b, " in "...)
	var elapsed int64
	switch {
	case r.count == 0:
	case kind == '=':
		elapsed = r.last - r.first
	default:
		elapsed = r.end - r.start
	}
	sec := (elapsed + 500) / 1000
	b = fmt.Appendf(b, "%02d:%02d:%02d", sec/3600, sec%3600/60, sec%60)
	b = append(b, " = "...)
	if elapsed > 0 {
		rate := float64(r.count) / float64(elapsed) * 1000
		b = appendRight(b, strconv.FormatFloat(rate, 'f', 1, 64), 6)
	} else {
		b = append(b, "******"...)
	}
	var avg int64
	if r.count > 0 {
		avg = (2*r.sum + r.count) / (2 * r.count) // rounded half up
	}
	b = append(b, "/s Avg: "...)
	b = appendRight(b, strconv.FormatInt(avg, 10), 5)
	b = append(b, " Min: "...)
	b = appendRight(b, strconv.FormatInt(r.min, 10), 5)
	b = append(b, " Max: "...)
	b = appendRight(b, strconv.FormatInt(r.max, 10), 5)
	b = append(b, " Err: "...)
	b = appendRight(b, strconv.FormatInt(r.errors, 10), 5)
	b = append(b, " ("...)
	var pct float64
	if r.count > 0 {
		pct = float64(r.errors) / float64(r.count) * 100
	}
	b = strconv.AppendFloat(b, pct, 'f', 2, 64)
	return append(b, "%)"...)
}

// appendRight appends s right-aligned in width columns (never truncated).
func appendRight(b []byte, s string, width int) []byte {
	for i := len(s); i < width; i++ {
		b = append(b, ' ')
	}
	return append(b, s...)
}
