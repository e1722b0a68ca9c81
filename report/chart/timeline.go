package chart

import (
	"strings"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/gojm/gojm/report"
)

// TimelineConfig sets up a Timeline. The zero value is usable.
type TimelineConfig struct {
	// Title (a plan or run name, may be empty) is printed under each chart's title.
	Title string
	// Granularity is the initial width of a time bucket (default 125 ms,
	// which doubles to whole seconds). It doubles whenever the run outgrows
	// MaxBuckets buckets; charts draw neighbouring buckets together when
	// that makes a line more readable.
	Granularity time.Duration
	// MaxBuckets is the number of time buckets kept (default 600, at least 16).
	MaxBuckets int
	// MaxLabels is how many labels, the busiest, the per-label charts draw
	// individually (default 10); the others are drawn together as "Other".
	MaxLabels int
}

// Limits on what a Timeline tracks individually; beyond them new labels,
// response codes and thread groups are counted under "Other".
const (
	maxTrackedLabels = 64
	maxTrackedCodes  = 16
	maxTrackedGroups = 16
	threadBuckets    = 256 // buckets of the active-threads axis of time vs threads
)

// timeBucket holds run-wide counts of one time bucket.
type timeBucket struct {
	hits    int64 // sample rows, sub-samples included, Transaction Controller samples excluded
	top     int64 // top-level samples
	txn     int64 // Transaction Controller samples
	errors  int64 // failed top-level samples
	threads int64 // sum of AllThreads over top-level samples
}

func (a timeBucket) plus(b timeBucket) timeBucket {
	return timeBucket{a.hits + b.hits, a.top + b.top, a.txn + b.txn, a.errors + b.errors, a.threads + b.threads}
}

// labelBucket holds one label's sums in one time bucket, in microseconds.
type labelBucket struct {
	n                         int64
	elapsed, latency, connect int64
}

func (a labelBucket) plus(b labelBucket) labelBucket {
	return labelBucket{a.n + b.n, a.elapsed + b.elapsed, a.latency + b.latency, a.connect + b.connect}
}

// sumBucket is a count and a sum: response time per thread-count bucket,
// or thread counts per time bucket.
type sumBucket struct{ n, sum int64 }

func (a sumBucket) plus(b sumBucket) sumBucket { return sumBucket{a.n + b.n, a.sum + b.sum} }

// count is a counter that can be merged.
type count int64

func (a count) plus(b count) count { return a + b }

// halve merges neighbouring buckets pairwise with plus into the first half
// of s and clears the second half. plus is passed as a method expression
// (timeBucket.plus…) rather than required by a constraint, so every merge
// a bucket type takes part in is named where the buckets are compacted.
func halve[T any](s []T, plus func(a, b T) T) {
	for i := range len(s) / 2 {
		s[i] = plus(s[2*i], s[2*i+1])
	}
	clear(s[len(s)/2:])
}

// labelSeries is everything kept about one label.
type labelSeries struct {
	name    string
	n       int64
	time    []labelBucket
	threads []sumBucket // response time (µs) by active threads
	hist    *hdrhistogram.Histogram
}

// countSeries counts one response code per time bucket.
type countSeries struct {
	name string
	n    int64
	time []count
}

// groupSeries sums one thread group's active threads per time bucket.
type groupSeries struct {
	name string
	n    int64
	time []sumBucket
}

// Timeline is a sink that keeps the time series of JMeter's dashboard in
// time buckets: response times, latencies and connect times per label,
// hits, transactions and errors per second, response codes per second,
// active threads per thread group, response time against active threads,
// and response-time histograms for percentiles and distribution.
//
// Memory is bounded: a fixed number of time buckets whose width doubles as
// the run grows, at most 64 labels, 16 codes and 16 thread groups tracked
// individually (the rest under "Other"), 256 thread-count buckets.
// Samples starting before the first sample seen count in the first bucket.
type Timeline struct {
	cfg     TimelineConfig
	started bool
	origin  time.Time     // start of the first sample
	width   time.Duration // bucket width
	used    int           // buckets in use: highest index + 1
	latest  time.Time     // latest sample start

	buckets []timeBucket

	labels tracked[labelSeries]
	codes  tracked[countSeries]
	groups tracked[groupSeries] // by thread group (groupName)

	threadWidth int         // active threads per thread bucket
	threadsAll  []sumBucket // response time by active threads, all labels

	n, txnSeen int64
	hist       *hdrhistogram.Histogram // every top-level sample, µs
	failHist   *hdrhistogram.Histogram // failed top-level samples, µs
}

// NewTimeline returns an empty Timeline.
func NewTimeline(cfg TimelineConfig) *Timeline {
	if cfg.Granularity <= 0 {
		cfg.Granularity = 125 * time.Millisecond
	}
	if cfg.MaxBuckets <= 0 {
		cfg.MaxBuckets = 600
	}
	cfg.MaxBuckets = max(cfg.MaxBuckets, 16)
	cfg.MaxBuckets += cfg.MaxBuckets % 2
	if cfg.MaxLabels <= 0 {
		cfg.MaxLabels = 10
	}
	t := &Timeline{
		cfg:         cfg,
		width:       cfg.Granularity,
		buckets:     make([]timeBucket, cfg.MaxBuckets),
		threadWidth: 1,
		threadsAll:  make([]sumBucket, threadBuckets),
		hist:        newHistogram(3),
		failHist:    newHistogram(2),
	}
	t.labels = newTracked(maxTrackedLabels, t.newLabel)
	t.codes = newTracked(maxTrackedCodes, func(name string) *countSeries {
		return &countSeries{name: name, time: make([]count, len(t.buckets))}
	})
	t.groups = newTracked(maxTrackedGroups, func(name string) *groupSeries {
		return &groupSeries{name: name, time: make([]sumBucket, len(t.buckets))}
	})
	return t
}

// Add records one sample and its sub-samples.
func (t *Timeline) Add(s *report.Sample) {
	if !t.started {
		t.started = true
		t.origin = s.Start
		t.latest = s.Start
	}
	if s.Start.After(t.latest) {
		t.latest = s.Start
	}
	i := t.timeIndex(s.Start)
	t.used = max(t.used, i+1)
	b := &t.buckets[i]
	t.n++
	b.top++
	if s.Transaction {
		b.txn++
		t.txnSeen++
	}
	if !s.Success {
		b.errors++
	}
	b.threads += int64(s.AllThreads)
	t.hits(s, i)

	el := micros(s.Elapsed)
	_ = t.hist.RecordValue(el)
	if !s.Success {
		_ = t.failHist.RecordValue(el)
	}

	ls := t.labels.get(s.Label)
	ls.n++
	lb := &ls.time[i]
	lb.n++
	lb.elapsed += el
	lb.latency += micros(s.Latency)
	lb.connect += micros(s.Connect)
	_ = ls.hist.RecordValue(el)

	th := t.threadIndex(s.AllThreads)
	ls.threads[th].n++
	ls.threads[th].sum += el
	t.threadsAll[th].n++
	t.threadsAll[th].sum += el

	g := t.groups.get(groupName(s.ThreadName))
	g.n++
	g.time[i].n++
	g.time[i].sum += int64(s.GrpThreads)
}

// hits counts s and its sub-samples, Transaction Controller samples
// excepted, as hits and by response code.
func (t *Timeline) hits(s *report.Sample, i int) {
	if !s.Transaction {
		t.buckets[i].hits++
		c := t.codes.get(s.Code)
		c.n++
		c.time[i]++
	}
	for _, sub := range s.Sub {
		t.hits(sub, i)
	}
}

// Close implements report.Sink; the charts stay available.
func (t *Timeline) Close() error { return nil }

// Count is the number of top-level samples added.
func (t *Timeline) Count() int64 { return t.n }

// BucketWidth is the current width of a time bucket.
func (t *Timeline) BucketWidth() time.Duration { return t.width }

// timeIndex is the bucket of time at, compacting buckets if needed.
func (t *Timeline) timeIndex(at time.Time) int {
	d := at.Sub(t.origin)
	if d < 0 {
		d = 0
	}
	for d/t.width >= time.Duration(len(t.buckets)) {
		t.compactTime()
	}
	return int(d / t.width)
}

// compactTime merges time buckets pairwise and doubles their width.
func (t *Timeline) compactTime() {
	halve(t.buckets, timeBucket.plus)
	for _, l := range t.labels.all() {
		halve(l.time, labelBucket.plus)
	}
	for _, c := range t.codes.all() {
		halve(c.time, count.plus)
	}
	for _, g := range t.groups.all() {
		halve(g.time, sumBucket.plus)
	}
	t.width *= 2
	t.used = (t.used + 1) / 2
}

// threadIndex is the thread bucket of n active threads, compacting if needed.
func (t *Timeline) threadIndex(n int) int {
	n = max(n, 0)
	for n/t.threadWidth >= threadBuckets {
		halve(t.threadsAll, sumBucket.plus)
		for _, l := range t.labels.all() {
			halve(l.threads, sumBucket.plus)
		}
		t.threadWidth *= 2
	}
	return n / t.threadWidth
}

func (t *Timeline) newLabel(name string) *labelSeries {
	return &labelSeries{
		name:    name,
		time:    make([]labelBucket, len(t.buckets)),
		threads: make([]sumBucket, threadBuckets),
		hist:    newHistogram(2),
	}
}

// groupName is the thread group part of a JMeter thread name: "Users 1-3"
// (group "Users", group number 1, thread 3) gives "Users". A name without
// that suffix is kept whole.
func groupName(thread string) string {
	sp := strings.LastIndexByte(thread, ' ')
	if sp < 0 {
		return thread
	}
	suffix := thread[sp+1:]
	dash := strings.IndexByte(suffix, '-')
	if dash <= 0 || dash == len(suffix)-1 || !allDigits(suffix[:dash]) || !allDigits(suffix[dash+1:]) {
		return thread
	}
	return thread[:sp]
}

func allDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// tracked holds a series for each of the first limit names and one
// "Other" series for the rest. It remembers the series the previous
// sample went to, with its name (the map's own copy: a sample's strings
// may be on loan): a run's samples mostly repeat their names, and a
// compare is cheaper than a lookup.
type tracked[S any] struct {
	limit int
	fresh func(name string) *S
	idx   map[string]int
	list  []*S     // in the order first seen
	names []string // list's names
	other *S       // nil until a name beyond the limit
	last  string
	lastS *S
}

func newTracked[S any](limit int, fresh func(name string) *S) tracked[S] {
	return tracked[S]{limit: limit, fresh: fresh, idx: make(map[string]int)}
}

// get returns the series of name, or "Other" once limit names are tracked.
func (t *tracked[S]) get(name string) *S {
	if t.lastS != nil && name == t.last {
		return t.lastS
	}
	if i, ok := t.idx[name]; ok {
		t.last, t.lastS = t.names[i], t.list[i]
		return t.lastS
	}
	if len(t.list) < t.limit {
		name = strings.Clone(name)
		t.idx[name] = len(t.list)
		t.list = append(t.list, t.fresh(name))
		t.names = append(t.names, name)
		t.last, t.lastS = name, t.list[len(t.list)-1]
		return t.lastS
	}
	if t.other == nil {
		t.other = t.fresh("Other")
	}
	return t.other
}

// all returns every series, "Other" last.
func (t *tracked[S]) all() []*S {
	if t.other != nil {
		return append(t.list[:len(t.list):len(t.list)], t.other)
	}
	return t.list
}
