package report

import (
	"fmt"
	"math"
	"time"
)

// StatsOptions configures Stats. The zero value gives JMeter's defaults.
type StatsOptions struct {
	// ApdexSatisfied and ApdexTolerated are the APDEX thresholds
	// (jmeter.reportgenerator.apdex_satisfied_threshold and
	// apdex_tolerated_threshold): 500 ms and 1500 ms by default.
	ApdexSatisfied time.Duration
	ApdexTolerated time.Duration
	// Percentiles are the three percentiles of the statistics table
	// (aggregate_rpt_pct1..3): 90, 95 and 99 by default.
	Percentiles [3]float64
	// SubResults counts each sub-result as a sample of its own label, as
	// the dashboard does when it reads a CSV JTL (where JMeter 5.6 writes
	// sub-results as rows). Off by default: a live run counts what the
	// summariser counts, the top-level samples.
	SubResults bool
}

func (o StatsOptions) withDefaults() StatsOptions {
	if o.ApdexSatisfied <= 0 {
		o.ApdexSatisfied = 500 * time.Millisecond
	}
	if o.ApdexTolerated <= 0 {
		o.ApdexTolerated = 1500 * time.Millisecond
	}
	if o.Percentiles == [3]float64{} {
		o.Percentiles = [3]float64{90, 95, 99}
	}
	return o
}

// LabelStats is the running summary of one label (or of the Total): the
// figures of JMeter's dashboard statistics table. Times are in ms.
type LabelStats struct {
	Label string
	// Transaction is set when the label's samples come from a Transaction
	// Controller.
	Transaction bool
	Count       int64
	Errors      int64 // failed samples, Aborted included
	// Aborted counts the failed samples that gojm itself cut short
	// (Sample.ClientAborted), not the server or the network.
	Aborted   int64
	Bytes     int64 // received
	SentBytes int64
	First     int64 // earliest start, ms since the epoch
	Last      int64 // latest end, ms since the epoch

	elapsed msHist
	// APDEX counts: samples judged, satisfied, tolerated.
	apdexN, apdexS, apdexT int64
}

func (l *LabelStats) add(start, end, elapsed int64, s *Sample) {
	if l.Count == 0 || start < l.First {
		l.First = start
	}
	if end > l.Last {
		l.Last = end
	}
	l.Count++
	if !s.Success {
		l.Errors++
		if s.ClientAborted() {
			l.Aborted++
		}
	}
	l.Bytes += s.Bytes
	l.SentBytes += s.SentBytes
	l.elapsed.Add(elapsed)
}

func (l *LabelStats) addApdex(elapsed int64, ok bool, satisfied, tolerated int64) {
	l.apdexN++
	if !ok {
		return
	}
	if elapsed <= satisfied {
		l.apdexS++
	} else if elapsed <= tolerated {
		l.apdexT++
	}
}

// ErrorPct is the share of failed samples in percent.
func (l *LabelStats) ErrorPct() float64 {
	if l.Count == 0 {
		return 0
	}
	return float64(l.Errors) * 100 / float64(l.Count)
}

// Mean is the mean elapsed time in ms (NaN without samples).
func (l *LabelStats) Mean() float64 { return l.elapsed.Mean() }

// Min is the shortest elapsed time in ms.
func (l *LabelStats) Min() int64 { return l.elapsed.min }

// Max is the longest elapsed time in ms.
func (l *LabelStats) Max() int64 { return l.elapsed.max }

// StdDev is the population standard deviation of the elapsed times in ms.
func (l *LabelStats) StdDev() float64 { return l.elapsed.StdDev() }

// Median is the 50th percentile of the elapsed times.
func (l *LabelStats) Median() float64 { return l.elapsed.Percentile(50) }

// Percentile is the p-th percentile of the elapsed times in ms, estimated
// as JMeter's dashboard does (see msHist.Percentile), exact to the
// millisecond over every sample.
func (l *LabelStats) Percentile(p float64) float64 { return l.elapsed.Percentile(p) }

// Duration is the time from the first start to the last end in ms.
func (l *LabelStats) Duration() int64 { return l.Last - l.First }

// Throughput is samples per second over Duration (+Inf for a zero span, as
// in JMeter).
func (l *LabelStats) Throughput() float64 {
	return float64(l.Count) / float64(l.Duration()) * 1000
}

// ReceivedKBPerSec is received KiB per second over Duration.
func (l *LabelStats) ReceivedKBPerSec() float64 {
	return float64(l.Bytes) / (float64(l.Duration()) / 1000) / 1024
}

// SentKBPerSec is sent KiB per second over Duration.
func (l *LabelStats) SentKBPerSec() float64 {
	return float64(l.SentBytes) / (float64(l.Duration()) / 1000) / 1024
}

// Apdex is (satisfied + tolerated/2) / samples; failed samples count as
// frustrated. NaN without samples.
func (l *LabelStats) Apdex() float64 {
	if l.apdexN == 0 {
		return math.NaN()
	}
	return (float64(l.apdexS) + float64(l.apdexT)/2) / float64(l.apdexN)
}

// Stats is a Sink computing JMeter's statistics table per label (in
// first-seen order) and in total, with constant work per sample and no
// allocation once every label and value range has been seen.
//
// It follows JMeter's dashboard: a transaction without samples ("Number of
// samples in transaction : 0") is left out; a Transaction Controller's
// sample has its own label row but is not counted in the Total, except for
// the Total's APDEX, which JMeter computes over all samples. The Total also
// keeps what the ab-style report needs: connect, latency and processing
// times, non-2xx responses, the largest thread count and the first URL.
type Stats struct {
	opt    StatsOptions
	sat    int64
	tol    int64
	labels []*LabelStats
	byName map[string]*LabelStats
	last   *LabelStats
	total  LabelStats

	connect, latency, processing msHist
	non2xx                       int64
	maxThreads                   int
	firstURL                     string
	interrupted                  *Interruption
}

// Interruption says that a run was stopped before its plan ended.
type Interruption struct {
	Signal string        // what stopped it, e.g. "SIGINT"
	After  time.Duration // how long after the start
}

// String is "interrupted after 0:13 by SIGINT".
func (i Interruption) String() string {
	sec := int64(i.After.Round(time.Second) / time.Second)
	at := fmt.Sprintf("%d:%02d", sec/60, sec%60)
	if sec >= 3600 {
		at = fmt.Sprintf("%d:%02d:%02d", sec/3600, sec%3600/60, sec%60)
	}
	return "interrupted after " + at + " by " + i.Signal
}

// SetInterrupted records that the run was stopped before its plan ended;
// the end report, statistics.json and the dashboard say so.
func (st *Stats) SetInterrupted(i Interruption) { st.interrupted = &i }

// Interrupted is how the run was interrupted, or nil when it ran to its
// end.
func (st *Stats) Interrupted() *Interruption { return st.interrupted }

// NewStats returns an empty Stats.
func NewStats(opt StatsOptions) *Stats {
	opt = opt.withDefaults()
	return &Stats{
		opt:    opt,
		sat:    millis(opt.ApdexSatisfied),
		tol:    millis(opt.ApdexTolerated),
		byName: make(map[string]*LabelStats),
		total:  LabelStats{Label: "Total"},
	}
}

// Options returns the options in effect, defaults filled in.
func (st *Stats) Options() StatsOptions { return st.opt }

func (st *Stats) lookup(label string) *LabelStats {
	if l := st.last; l != nil && l.Label == label {
		return l
	}
	l, ok := st.byName[label]
	if !ok {
		l = &LabelStats{Label: label}
		st.byName[label] = l
		st.labels = append(st.labels, l)
	}
	st.last = l
	return l
}

// Add counts s (and, with StatsOptions.SubResults, its sub-results).
func (st *Stats) Add(s *Sample) {
	st.one(s)
	if st.opt.SubResults && len(s.Sub) > 0 {
		st.subs(s, 0)
	}
}

func (st *Stats) subs(s *Sample, depth int) {
	if depth > maxSubDepth {
		return
	}
	for _, sub := range s.Sub {
		st.one(sub)
		st.subs(sub, depth+1)
	}
}

func (st *Stats) one(s *Sample) {
	tx := isTransaction(s)
	if tx && isEmptyTransaction(s) {
		return
	}
	start := s.Start.UnixMilli()
	elapsed := millis(s.Elapsed)
	end := start + elapsed
	l := st.lookup(s.Label)
	l.add(start, end, elapsed, s)
	l.addApdex(elapsed, s.Success, st.sat, st.tol)
	if tx {
		l.Transaction = true
	}
	st.total.addApdex(elapsed, s.Success, st.sat, st.tol)
	if tx {
		return
	}
	st.total.add(start, end, elapsed, s)
	conn := millis(s.Connect)
	st.connect.Add(conn)
	st.latency.Add(millis(s.Latency))
	st.processing.Add(elapsed - conn)
	if c := s.Code; len(c) != 3 || c[0] != '2' {
		st.non2xx++
	}
	if s.AllThreads > st.maxThreads {
		st.maxThreads = s.AllThreads
	}
	if st.firstURL == "" && s.URL != "" {
		st.firstURL = s.URL
	}
}

// Close does nothing: the figures stay readable.
func (st *Stats) Close() error { return nil }

// Labels returns the per-label statistics in first-seen order.
func (st *Stats) Labels() []*LabelStats { return st.labels }

// Label returns the statistics of one label, or nil.
func (st *Stats) Label(name string) *LabelStats { return st.byName[name] }

// Total returns the statistics over all samples but transactions.
func (st *Stats) Total() *LabelStats { return &st.total }
