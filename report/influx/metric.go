package influx

import (
	"math"
	"slices"
	"strings"

	"github.com/gojm/gojm/report"
)

// window keeps the latest values up to a size (Commons Math's
// DescriptiveStatistics with a window, as JMeter's metrics use): a ring
// that grows to its size, then overwrites the oldest value.
type window struct {
	v    []float64
	size int
	next int
}

func newWindow(size int) window { return window{size: size} }

func (w *window) add(x float64) {
	if len(w.v) < w.size {
		w.v = append(w.v, x)
		return
	}
	w.v[w.next] = x
	w.next = (w.next + 1) % w.size
}

func (w *window) clear() { w.v, w.next = w.v[:0], 0 }

// mean, min and max are NaN without values, as in Commons Math.
func (w *window) mean() float64 {
	if len(w.v) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range w.v {
		s += x
	}
	return s / float64(len(w.v))
}

func (w *window) min() float64 {
	if len(w.v) == 0 {
		return math.NaN()
	}
	return slices.Min(w.v)
}

func (w *window) max() float64 {
	if len(w.v) == 0 {
		return math.NaN()
	}
	return slices.Max(w.v)
}

// percentile is Commons Math's Percentile with the LEGACY estimation
// (JMeter's default): position p·(n+1)/100, interpolated between the two
// nearest values, clamped to the smallest and largest. scratch is reused.
func (w *window) percentile(p float64, scratch *[]float64) float64 {
	n := len(w.v)
	if n == 0 {
		return math.NaN()
	}
	s := append((*scratch)[:0], w.v...)
	slices.Sort(s)
	*scratch = s
	if n == 1 {
		return s[0]
	}
	pos := p * float64(n+1) / 100
	if pos < 1 {
		return s[0]
	}
	if pos >= float64(n) {
		return s[n-1]
	}
	f := math.Floor(pos)
	lower, upper := s[int(f)-1], s[int(f)]
	return lower + (pos-f)*(upper-lower)
}

// errorKey is JMeter's ErrorMetric: a failed sample's response code and
// message, or "Assertion failed" and the first assertion failure message.
type errorKey struct{ code, message string }

func errorOf(s *report.Sample) errorKey {
	if s.FailureMessage != "" {
		return errorKey{"Assertion failed", strings.TrimSpace(s.FailureMessage)}
	}
	k := errorKey{strings.TrimSpace(s.Code), strings.TrimSpace(s.Message)}
	if k.code == "" {
		k.code = "0"
	}
	if k.message == "" {
		k.message = "None"
	}
	return k
}

// metric is JMeter's SamplerMetric: per-interval counts (reset after each
// send) and windows of elapsed times. In fixed mode the ok, ko and all
// windows keep the latest Window samples across intervals; in timed mode
// they keep the interval's (up to LargeWindow). The percentile window of
// "all" always keeps the latest Window samples.
type metric struct {
	successes, failures, hits int64
	sent, received            int64
	errors                    []errorCount // first-seen order
	ok, ko, all, pct          window
}

func newMetric(c *Config) *metric {
	size := c.Window
	if c.Timed {
		size = c.LargeWindow
	}
	return &metric{ok: newWindow(size), ko: newWindow(size), all: newWindow(size), pct: newWindow(c.Window)}
}

// add counts a sample; cumulated is set for the "all" transaction, which
// skips the hits and bytes of a Transaction Controller sample without
// sub-results (its children were counted already).
func (m *metric) add(s *report.Sample, cumulated bool) {
	if s.Success {
		m.successes++
	} else {
		m.failures++
		m.addError(errorOf(s))
	}
	t := float64(s.Elapsed.Milliseconds())
	m.all.add(t)
	m.pct.add(t)
	if s.Success {
		m.ok.add(t)
	} else {
		m.ko.add(t)
	}
	m.addHits(s, cumulated, 0)
	if cumulated && isTransaction(s) && len(s.Sub) == 0 {
		return
	}
	m.sent += s.SentBytes
	m.received += s.Bytes
}

// addError counts an error; errors whose code and message differ only in
// case are one (JMeter's ErrorMetric compares them ignoring case), named
// as first seen.
func (m *metric) addError(k errorKey) {
	for i := range m.errors {
		e := &m.errors[i]
		if strings.EqualFold(e.code, k.code) && strings.EqualFold(e.message, k.message) {
			e.n++
			return
		}
	}
	m.errors = append(m.errors, errorCount{k, 1})
}

type errorCount struct {
	errorKey
	n int64
}

func (m *metric) addHits(s *report.Sample, cumulated bool, depth int) {
	tx := isTransaction(s)
	if cumulated && tx && len(s.Sub) == 0 {
		return
	}
	if !(tx && len(s.Sub) > 0) {
		m.hits++
	}
	if depth > 16 {
		return
	}
	for _, sub := range s.Sub {
		m.addHits(sub, cumulated, depth+1)
	}
}

func (m *metric) total() int64 { return m.successes + m.failures }

// reset starts a new interval.
func (m *metric) reset(timed bool) {
	if timed {
		m.ok.clear()
		m.ko.clear()
		m.all.clear()
	}
	m.errors = m.errors[:0]
	m.successes, m.failures, m.hits, m.sent, m.received = 0, 0, 0, 0, 0
}

// isTransaction is JMeter's TransactionController.isFromTransactionController.
func isTransaction(s *report.Sample) bool {
	return s.Transaction || strings.HasPrefix(s.Message, "Number of samples in transaction")
}
