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

// EachRow calls f for every row of the statistics that s stands for: s
// itself and, with SubResults, its sub-results depth first, as a JTL holds
// them. A Transaction Controller's sample is a row of its own label with
// inTotal false: it is left out of the Total and of every figure over the
// whole run, which count its samplers instead (JMeter's dashboard's
// statistics table). A transaction without samples ("Number of samples in
// transaction : 0") is no row at all.
//
// This is gojm's one rule for which samples count: the statistics, the
// summariser, the error tables and every chart go through it.
func (o StatsOptions) EachRow(s *Sample, f func(row *Sample, inTotal bool)) {
	o.eachRow(s, f, 0)
}

func (o StatsOptions) eachRow(s *Sample, f func(row *Sample, inTotal bool), depth int) {
	tx := isTransaction(s)
	if !tx || !isEmptyTransaction(s) {
		f(s, !tx)
	}
	if !o.SubResults || depth > maxSubDepth { // as deep as the JTL writers go
		return
	}
	for _, sub := range s.Sub {
		o.eachRow(sub, f, depth+1)
	}
}

// LabelStats is the running summary of one label (or of the Total): the
// figures of JMeter's dashboard statistics table. Times are whole
// milliseconds, as a JTL holds them.
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

	elapsed Histogram
	// APDEX counts: samples judged, satisfied, tolerated.
	apdexN, apdexS, apdexT int64
	types                  typeCounts
}

func (l *LabelStats) add(start, end, elapsed int64, s *Sample) {
	if l.Count == 0 || start < l.First {
		l.First = start
	}
	if l.Count == 0 || end > l.Last {
		l.Last = end
	}
	l.Count++
	if !s.Success {
		l.Errors++
		if s.ClientAborted() {
			l.Aborted++
		}
		l.types.add(errorKey(s), 1)
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

// merge adds o's counts to l.
func (l *LabelStats) merge(o *LabelStats) {
	if o.Count > 0 {
		if l.Count == 0 || o.First < l.First {
			l.First = o.First
		}
		if l.Count == 0 || o.Last > l.Last {
			l.Last = o.Last
		}
	}
	l.Transaction = l.Transaction || o.Transaction
	l.Count += o.Count
	l.Errors += o.Errors
	l.Aborted += o.Aborted
	l.Bytes += o.Bytes
	l.SentBytes += o.SentBytes
	l.elapsed.Merge(&o.elapsed)
	l.apdexN += o.apdexN
	l.apdexS += o.apdexS
	l.apdexT += o.apdexT
	l.types.merge(&o.types)
}

// Elapsed is the histogram of the elapsed times, for figures the methods
// below do not give (the percentile curves, the distribution). It belongs
// to l: read it, never change it.
func (l *LabelStats) Elapsed() *Histogram { return &l.elapsed }

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
// as JMeter's dashboard does (see Histogram.Percentile), exact to the
// millisecond over every sample.
func (l *LabelStats) Percentile(p float64) float64 { return l.elapsed.Percentile(p) }

// Percentiles returns the percentiles ps (increasing) in one pass, each as
// Percentile gives it.
func (l *LabelStats) Percentiles(ps []float64) []float64 { return l.elapsed.Percentiles(ps) }

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

// Failures sorts the Total's failed samples by what went wrong, for the
// end report: every failed sample is in exactly one field.
type Failures struct {
	HTTP      int64 `json:"http"`      // an HTTP response with a status that is not 2xx or 3xx
	NonHTTP   int64 `json:"nonHTTP"`   // no HTTP response: connection, timeout, protocol and other samplers' errors
	Assertion int64 `json:"assertion"` // a 2xx or 3xx response (or none) that an assertion failed
	Aborted   int64 `json:"aborted"`   // cut short by gojm itself (Sample.ClientAborted)
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

// Stats is a Sink computing JMeter's statistics table per label (in
// first-seen order) and in total, with constant work per sample and no
// allocation once every label and value range has been seen. It is the
// one statistics source of a run: the end report, statistics.json, the
// dashboard, thresholds and comparisons read their figures from it, and
// the summariser and the charts count the same rows (StatsOptions.EachRow)
// in the same whole milliseconds.
//
// It follows JMeter's dashboard: a transaction without samples is left out;
// a Transaction Controller's sample has its own label row but is not
// counted in the Total, except for the Total's APDEX, which JMeter
// computes over all samples. The Total also keeps what the ab-style report
// needs: connect, latency and processing times, non-2xx responses, failures
// by kind, the largest thread count and the URL.
//
// Stats of disjoint parts of one run (the segments of a split run) merge
// exactly (Merge, WriteState and ReadState): every figure is a count, a sum,
// an extreme or a histogram.
type Stats struct {
	opt    StatsOptions
	sat    int64
	tol    int64
	labels []*LabelStats
	byName map[string]*LabelStats
	last   *LabelStats
	total  LabelStats

	connect, latency, processing Histogram
	non2xx                       int64
	failures                     Failures
	maxThreads                   int
	firstURL                     string
	oneURL                       bool // every sample with a URL had firstURL

	interrupted *Interruption
}

// NewStats returns an empty Stats.
func NewStats(opt StatsOptions) *Stats {
	opt = opt.withDefaults()
	return &Stats{
		opt:    opt,
		sat:    millis(opt.ApdexSatisfied),
		tol:    millis(opt.ApdexTolerated),
		byName: make(map[string]*LabelStats),
		total:  LabelStats{Label: "Total"},
		oneURL: true,
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

// Add counts the rows of s (StatsOptions.EachRow).
func (st *Stats) Add(s *Sample) { st.opt.EachRow(s, st.row) }

func (st *Stats) row(s *Sample, inTotal bool) {
	start := s.Start.UnixMilli()
	elapsed := millis(s.Elapsed)
	end := start + elapsed
	l := st.lookup(s.Label)
	l.add(start, end, elapsed, s)
	l.addApdex(elapsed, s.Success, st.sat, st.tol)
	if !inTotal {
		l.Transaction = true
	}
	st.total.addApdex(elapsed, s.Success, st.sat, st.tol)
	if !inTotal {
		return
	}
	st.total.add(start, end, elapsed, s)
	conn := millis(s.Connect)
	st.connect.Add(conn)
	st.latency.Add(millis(s.Latency))
	st.processing.Add(elapsed - conn)
	if httpCode(s.Code) && s.Code[0] != '2' {
		st.non2xx++
	}
	if !s.Success {
		switch {
		case s.ClientAborted():
			st.failures.Aborted++
		case errorKey(s).assertion:
			st.failures.Assertion++
		case httpCode(s.Code):
			st.failures.HTTP++
		default:
			st.failures.NonHTTP++
		}
	}
	if s.AllThreads > st.maxThreads {
		st.maxThreads = s.AllThreads
	}
	if s.URL != "" {
		switch {
		case st.firstURL == "":
			st.firstURL = s.URL
		case st.oneURL && s.URL != st.firstURL:
			st.oneURL = false
		}
	}
}

// httpCode reports whether code is a three-digit HTTP status code.
func httpCode(code string) bool {
	return len(code) == 3 && code[0] >= '1' && code[0] <= '5' &&
		code[1] >= '0' && code[1] <= '9' && code[2] >= '0' && code[2] <= '9'
}

// Close does nothing: the figures stay readable.
func (st *Stats) Close() error { return nil }

// Labels returns the per-label statistics in first-seen order.
func (st *Stats) Labels() []*LabelStats { return st.labels }

// Label returns the statistics of one label, or nil.
func (st *Stats) Label(name string) *LabelStats { return st.byName[name] }

// Total returns the statistics over all samples but transactions.
func (st *Stats) Total() *LabelStats { return &st.total }

// Failures sorts the Total's failed samples by what went wrong.
func (st *Stats) Failures() Failures { return st.failures }

// MaxThreads is the largest number of active threads a sample saw.
func (st *Stats) MaxThreads() int { return st.maxThreads }

// SetInterrupted records that the run was stopped before its plan ended;
// the end report, statistics.json and the dashboard say so.
func (st *Stats) SetInterrupted(i Interruption) { st.interrupted = &i }

// Interrupted is how the run was interrupted, or nil when it ran to its
// end (or nobody said: a JTL does not tell).
func (st *Stats) Interrupted() *Interruption { return st.interrupted }

// Merge adds the statistics of o, counted over samples disjoint from st's
// (another segment of the same run), to st: afterwards every figure is what
// one Stats fed all the samples would give, labels in st's order followed
// by o's new ones. Both must have the same options.
func (st *Stats) Merge(o *Stats) error {
	if st.opt != o.opt {
		return fmt.Errorf("merge statistics: options differ (%+v and %+v)", st.opt, o.opt)
	}
	for _, ol := range o.labels {
		l := st.lookup(ol.Label)
		l.merge(ol)
	}
	st.total.merge(&o.total)
	st.connect.Merge(&o.connect)
	st.latency.Merge(&o.latency)
	st.processing.Merge(&o.processing)
	st.non2xx += o.non2xx
	st.failures.HTTP += o.failures.HTTP
	st.failures.NonHTTP += o.failures.NonHTTP
	st.failures.Assertion += o.failures.Assertion
	st.failures.Aborted += o.failures.Aborted
	st.maxThreads = max(st.maxThreads, o.maxThreads)
	switch {
	case o.firstURL == "":
	case st.firstURL == "":
		st.firstURL, st.oneURL = o.firstURL, o.oneURL
	default:
		st.oneURL = st.oneURL && o.oneURL && o.firstURL == st.firstURL
	}
	if st.interrupted == nil && o.interrupted != nil {
		i := *o.interrupted
		st.interrupted = &i
	}
	return nil
}
