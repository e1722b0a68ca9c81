package chart

import (
	"strings"
	"time"

	"github.com/gojm/gojm/report"
)

// TimelineConfig sets up a Timeline.
type TimelineConfig struct {
	// Title (a plan or run name, may be empty) is printed under each chart's title.
	Title string
	// Stats is the run's one statistics source, fed the same samples as the
	// Timeline: the charts count the rows it counts (StatsOptions.EachRow),
	// take every figure of their legends and notes from it, and draw the
	// percentiles and the distribution from its histograms. Nil means an
	// empty one with JMeter's defaults (for a Timeline nobody reads).
	Stats *report.Stats
	// Location is the time zone of the time axes; nil means local time.
	Location *time.Location
	// Granularity is the initial width of a time bucket (default 1 ms). As
	// the run outgrows MaxBuckets buckets, neighbouring buckets merge into
	// ones of the next round width (1, 2, 10, 20, 100, 200 ms, 1, 2, 10,
	// 20 s, 1, 2, 10, 20 min, 1, 2, 6, 12 h, then days); charts draw
	// neighbouring buckets together when that makes a line more readable.
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
	hits    int64 // rows counted in the Total
	elapsed int64 // their elapsed times, ms
	txn     int64 // Transaction Controller samples
	errors  int64 // failed rows counted in the Total
	top     int64 // top-level samples, whose thread counts are summed
	threads int64 // sum of AllThreads over top-level samples
}

func (a timeBucket) plus(b timeBucket) timeBucket {
	return timeBucket{a.hits + b.hits, a.elapsed + b.elapsed, a.txn + b.txn, a.errors + b.errors, a.top + b.top, a.threads + b.threads}
}

// labelBucket holds one label's sums in one time bucket, in milliseconds.
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

// merge folds every f neighbouring buckets of s into one, in place, with
// plus into the first len(s)/f buckets, and clears the rest. plus is passed
// as a method expression (timeBucket.plus…) rather than required by a
// constraint, so every merge a bucket type takes part in is named where the
// buckets are compacted.
func merge[T any](s []T, f int, plus func(a, b T) T) {
	var zero T
	for i := range (len(s) + f - 1) / f {
		acc := zero
		for j := i * f; j < min((i+1)*f, len(s)); j++ {
			acc = plus(acc, s[j])
		}
		s[i] = acc
	}
	clear(s[(len(s)+f-1)/f:])
}

// nextWidth is the bucket width after w: the next round width that w
// divides.
func nextWidth(w time.Duration) time.Duration {
	for _, r := range []time.Duration{
		time.Millisecond, 2 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond,
		100 * time.Millisecond, 200 * time.Millisecond, time.Second, 2 * time.Second, 10 * time.Second,
		20 * time.Second, time.Minute, 2 * time.Minute, 10 * time.Minute, 20 * time.Minute, time.Hour,
		2 * time.Hour, 6 * time.Hour, 12 * time.Hour, 24 * time.Hour,
	} {
		if r > w && r%w == 0 {
			return r
		}
	}
	return 2 * w
}

// labelSeries is everything kept about one label.
type labelSeries struct {
	name    string
	n       int64
	time    []labelBucket
	threads []sumBucket // response time (ms) by active threads
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
// active threads per thread group, response time against active threads;
// the percentile and distribution charts come from the statistics. It
// counts the rows the statistics count (StatsOptions.EachRow), in whole
// milliseconds: per label every row, in the run-wide series (hits, errors,
// codes, "All samples") the rows of the Total, which leaves out
// Transaction Controller samples.
//
// Memory is bounded: a fixed number of time buckets whose width grows as
// the run does, at most 64 labels, 16 codes and 16 thread groups tracked
// individually (the rest under "Other"), 256 thread-count buckets.
// Samples starting before the first sample seen count in the first bucket.
type Timeline struct {
	cfg     TimelineConfig
	stats   *report.Stats
	opt     report.StatsOptions
	started bool
	origin  int64         // start of bucket 0, ms since the epoch: the first row's start
	width   time.Duration // bucket width
	used    int           // buckets in use: highest index + 1

	// The span of every row and of the Transaction Controller rows, ms
	// since the epoch: the time axis covers the first, the transactions'
	// rate is over the second.
	first, last     int64
	latest          int64 // the latest start: the last drawn bucket is the one that holds it
	txFirst, txLast int64

	buckets []timeBucket

	labels tracked[labelSeries]
	codes  tracked[countSeries]
	groups tracked[groupSeries] // by thread group (groupName)

	threadWidth int         // active threads per thread bucket
	threadsAll  []sumBucket // response time by active threads, rows of the Total

	n, txnSeen int64            // rows, and Transaction Controller rows among them
	failed     report.Histogram // elapsed times of the failed rows of the Total
}

// NewTimeline returns an empty Timeline.
func NewTimeline(cfg TimelineConfig) *Timeline {
	if cfg.Granularity <= 0 {
		cfg.Granularity = time.Millisecond
	}
	if cfg.MaxBuckets <= 0 {
		cfg.MaxBuckets = 600
	}
	cfg.MaxBuckets = max(cfg.MaxBuckets, 16)
	if cfg.MaxLabels <= 0 {
		cfg.MaxLabels = 10
	}
	if cfg.Location == nil {
		cfg.Location = time.Local
	}
	if cfg.Stats == nil {
		cfg.Stats = report.NewStats(report.StatsOptions{})
	}
	t := &Timeline{
		cfg:         cfg,
		stats:       cfg.Stats,
		opt:         cfg.Stats.Options(),
		width:       cfg.Granularity,
		buckets:     make([]timeBucket, cfg.MaxBuckets),
		threadWidth: 1,
		threadsAll:  make([]sumBucket, threadBuckets),
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

// Add records the rows of one sample.
func (t *Timeline) Add(s *report.Sample) {
	start := s.Start.UnixMilli()
	if !t.started {
		t.started = true
		t.origin = start
		t.first, t.last, t.latest = start, start, start
	}
	i := t.timeIndex(start)
	t.used = max(t.used, i+1)
	b := &t.buckets[i]
	b.top++
	b.threads += int64(s.AllThreads)
	g := t.groups.get(groupName(s.ThreadName))
	g.n++
	g.time[i].n++
	g.time[i].sum += int64(s.GrpThreads)
	th := t.threadIndex(s.AllThreads)
	t.opt.EachRow(s, func(row *report.Sample, inTotal bool) { t.row(row, inTotal, th) })
}

// row records one row: its label's series always, the run-wide series
// when it is counted in the Total. th is the thread bucket of its sample.
func (t *Timeline) row(s *report.Sample, inTotal bool, th int) {
	start := s.Start.UnixMilli()
	elapsed := s.Elapsed.Milliseconds()
	end := start + elapsed
	t.first, t.last, t.latest = min(t.first, start), max(t.last, end), max(t.latest, start)
	i := t.timeIndex(start)
	t.used = max(t.used, i+1)
	t.n++

	ls := t.labels.get(s.Label)
	ls.n++
	lb := &ls.time[i]
	lb.n++
	lb.elapsed += elapsed
	lb.latency += s.Latency.Milliseconds()
	lb.connect += s.Connect.Milliseconds()
	ls.threads[th].n++
	ls.threads[th].sum += elapsed

	b := &t.buckets[i]
	if !inTotal {
		if t.txnSeen == 0 || start < t.txFirst {
			t.txFirst = start
		}
		if t.txnSeen == 0 || end > t.txLast {
			t.txLast = end
		}
		t.txnSeen++
		b.txn++
		return
	}
	b.hits++
	b.elapsed += elapsed
	if !s.Success {
		b.errors++
		t.failed.Add(elapsed)
	}
	c := t.codes.get(s.Code)
	c.n++
	c.time[i]++
	t.threadsAll[th].n++
	t.threadsAll[th].sum += elapsed
}

// Close implements report.Sink; the charts stay available.
func (t *Timeline) Close() error { return nil }

// Count is the number of rows added.
func (t *Timeline) Count() int64 { return t.n }

// BucketWidth is the current width of a time bucket.
func (t *Timeline) BucketWidth() time.Duration { return t.width }

// timeIndex is the bucket of a start time (ms since the epoch), merging
// buckets if needed.
func (t *Timeline) timeIndex(start int64) int {
	d := time.Duration(max(start-t.origin, 0)) * time.Millisecond
	for d/t.width >= time.Duration(len(t.buckets)) {
		t.compactTime()
	}
	return int(d / t.width)
}

// compactTime merges time buckets into buckets of the next round width.
func (t *Timeline) compactTime() {
	next := nextWidth(t.width)
	f := int(next / t.width)
	merge(t.buckets, f, timeBucket.plus)
	for _, l := range t.labels.all() {
		merge(l.time, f, labelBucket.plus)
	}
	for _, c := range t.codes.all() {
		merge(c.time, f, count.plus)
	}
	for _, g := range t.groups.all() {
		merge(g.time, f, sumBucket.plus)
	}
	t.width = next
	t.used = (t.used + f - 1) / f
}

// threadIndex is the thread bucket of n active threads, compacting if needed.
func (t *Timeline) threadIndex(n int) int {
	n = max(n, 0)
	for n/t.threadWidth >= threadBuckets {
		merge(t.threadsAll, 2, sumBucket.plus)
		for _, l := range t.labels.all() {
			merge(l.threads, 2, sumBucket.plus)
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
