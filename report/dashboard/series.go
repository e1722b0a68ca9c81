package dashboard

import (
	"strings"
	"time"

	"github.com/gojm/gojm/report"
)

// widths is the ladder of interval widths in ms: round times, each a
// multiple of the one before, so that intervals aligned on the clock merge
// into intervals aligned on the clock.
var widths = [...]int64{100, 200, 1000, 2000, 10_000, 30_000, 60_000, 300_000, 600_000, 1_800_000, 3_600_000,
	7_200_000, 21_600_000, 43_200_000, 86_400_000}

// width is the interval width in ms at a step of the ladder: past a day,
// the widths double.
func width(step int) int64 {
	if step < len(widths) {
		return widths[step]
	}
	return widths[len(widths)-1] << (step - len(widths) + 1)
}

// Limits on what Series tracks one by one; past them, new labels, codes and
// thread groups are counted together under "Other".
const (
	maxLabels    = 64
	maxCodes     = 32
	maxGroups    = 32
	threadSlots  = 256 // slots of the active-threads axis of Time Vs Threads
	maxIntervals = 240 // points of an over-time chart
	otherName    = "Other"
)

// totals is what one interval holds over the rows the Total counts.
type totals struct {
	ok, ko   int64 // rows by outcome: their sum is the interval's hits
	received int64
	sent     int64
	// Elapsed and latency times by outcome: percentiles over time, and
	// the medians of Response Time Vs Request and Latency Vs Request.
	okElapsed, koElapsed, okLatency, koLatency msCounts
}

func (t *totals) merge(o *totals) {
	t.ok += o.ok
	t.ko += o.ko
	t.received += o.received
	t.sent += o.sent
	t.okElapsed.merge(&o.okElapsed)
	t.koElapsed.merge(&o.koElapsed)
	t.okLatency.merge(&o.okLatency)
	t.koLatency.merge(&o.koLatency)
}

// labelSums is what one interval holds of one label, times in ms.
type labelSums struct {
	n, errors                 int64
	elapsed, latency, connect int64
}

func (a *labelSums) merge(b *labelSums) {
	a.n += b.n
	a.errors += b.errors
	a.elapsed += b.elapsed
	a.latency += b.latency
	a.connect += b.connect
}

// sum is a count and a sum.
type sum struct{ n, total int64 }

func (a *sum) merge(b *sum) { a.n += b.n; a.total += b.total }

// labelSeries is everything kept about one label.
type labelSeries struct {
	name     string
	time     []labelSums
	byThread []sum // elapsed by active threads: Time Vs Threads
}

// named is a series kept per interval under a name: a response code's
// count, or a thread group's active threads.
type named struct {
	name string
	time []sum
}

// Series is a report.Sink keeping what the over-time charts of JMeter's
// dashboard draw, which the run's statistics (report.Stats) do not hold:
// per interval, the response times, latencies, connect times and
// transactions of each label, the Total's samples by outcome, bytes and
// response codes, each thread group's active threads, and the elapsed and
// latency times of the interval's samples by outcome (for percentiles over
// time and the medians against the request rate); over the whole run, each
// label's times by active threads and the counts of the Response Time
// Overview. The charts over the whole run (percentiles, distribution) are
// drawn from the statistics' own histograms.
//
// It counts the rows the statistics count (report.StatsOptions.EachRow),
// in the same whole milliseconds: per label every row, in the run-wide
// series (hits, transactions per second, codes, bytes, overview) the rows
// of the Total, which leaves out Transaction Controller samples; its
// percentiles are report.Histogram's. A thread group's active threads and
// a sample's active threads for Time Vs Threads are the top-level
// sample's, as its sub-results ran on the same thread.
//
// Intervals are aligned on the clock. Their width starts at 100 ms and
// steps up a ladder of round widths (200 ms, 1 s, 2 s, 10 s, 30 s, 1 min…)
// whenever the run outgrows 240 intervals, merging them, so memory is
// bounded however long the run; labels, codes and groups are bounded too
// (the rest counted as "Other").
type Series struct {
	stats    *report.Stats
	opt      report.StatsOptions
	sat, tol int64

	step     int   // index into widths
	lo       int64 // clock index (ms / width) of slot 0
	first    int64 // lowest slot in use, -1 before any sample
	last     int64 // highest slot in use
	started  bool
	total    []totals
	labels   tracked[labelSeries]
	codes    tracked[named]
	groups   tracked[named]
	threadW  int // active threads per thread slot
	overview [4]int64
}

// NewSeries returns an empty Series that counts as st counts and reads the
// figures over the whole run from it; st is fed the same samples.
func NewSeries(st *report.Stats) *Series {
	opt := st.Options()
	s := &Series{
		stats:   st,
		opt:     opt,
		sat:     opt.ApdexSatisfied.Milliseconds(),
		tol:     opt.ApdexTolerated.Milliseconds(),
		total:   make([]totals, maxIntervals),
		threadW: 1,
		first:   -1,
		last:    -1,
	}
	s.labels = newTracked(maxLabels, func(name string) *labelSeries {
		return &labelSeries{name: name, time: make([]labelSums, maxIntervals), byThread: make([]sum, threadSlots)}
	})
	fresh := func(name string) *named { return &named{name: name, time: make([]sum, maxIntervals)} }
	s.codes = newTracked(maxCodes, fresh)
	s.groups = newTracked(maxGroups, fresh)
	return s
}

// Add counts the rows of one sample (report.StatsOptions.EachRow).
func (s *Series) Add(smp *report.Sample) {
	i := s.slot(smp.Start.UnixMilli())
	g := s.groups.get(groupName(smp.ThreadName))
	g.time[i].n++
	g.time[i].total += int64(smp.GrpThreads)
	th := s.threadSlot(smp.AllThreads)
	s.opt.EachRow(smp, func(row *report.Sample, inTotal bool) { s.row(row, inTotal, th) })
}

// row counts one row: in its label's series always, in the run-wide
// series when the Total counts it. th is the thread slot of its sample.
func (s *Series) row(smp *report.Sample, inTotal bool, th int) {
	i := s.slot(smp.Start.UnixMilli())
	elapsed := smp.Elapsed.Milliseconds()
	latency := smp.Latency.Milliseconds()
	l := s.labels.get(smp.Label)
	ls := &l.time[i]
	ls.n++
	ls.elapsed += elapsed
	ls.latency += latency
	ls.connect += smp.Connect.Milliseconds()
	if !smp.Success {
		ls.errors++
	}
	l.byThread[th].n++
	l.byThread[th].total += elapsed
	if !inTotal {
		return
	}
	t := &s.total[i]
	s.codes.get(smp.Code).time[i].n++
	t.received += smp.Bytes
	t.sent += smp.SentBytes
	switch {
	case !smp.Success:
		t.ko++
		t.koElapsed.add(elapsed)
		t.koLatency.add(latency)
		s.overview[3]++
	default:
		t.ok++
		t.okElapsed.add(elapsed)
		t.okLatency.add(latency)
		switch {
		case elapsed <= s.sat:
			s.overview[0]++
		case elapsed <= s.tol:
			s.overview[1]++
		default:
			s.overview[2]++
		}
	}
}

// Close does nothing: the series stay readable.
func (s *Series) Close() error { return nil }

// Width is the current width of an interval.
func (s *Series) Width() time.Duration { return time.Duration(width(s.step)) * time.Millisecond }

// slot returns the slot of the interval holding the clock time ms,
// shifting or merging intervals so that it fits.
func (s *Series) slot(ms int64) int {
	if !s.started {
		s.started = true
		// Room before the first sample for samples that started earlier
		// and ended later (they reach the sinks in order of their ends).
		s.lo = ms/width(s.step) - maxIntervals/8
		s.first, s.last = -1, -1
	}
	for {
		idx := ms/width(s.step) - s.lo
		switch {
		case idx >= 0 && idx < maxIntervals:
			if s.first < 0 || idx < s.first {
				s.first = idx
			}
			s.last = max(s.last, idx)
			return int(idx)
		case idx < 0 && s.last-idx < maxIntervals:
			s.shift(-idx)
		case idx >= maxIntervals && idx-s.first < maxIntervals:
			s.shift(-s.first) // make room after by dropping empty slots before
		default:
			s.coarsen()
		}
	}
}

// shift moves every interval by k slots (k > 0 later, k < 0 earlier: only
// over empty slots).
func (s *Series) shift(k int64) {
	moveAll(s.total, k)
	for _, l := range s.labels.all() {
		moveAll(l.time, k)
	}
	for _, c := range append(s.codes.all(), s.groups.all()...) {
		moveAll(c.time, k)
	}
	s.lo -= k
	s.first += k
	s.last += k
}

func moveAll[T any](v []T, k int64) {
	var zero T
	if k > 0 {
		copy(v[k:], v[:int64(len(v))-k])
		for i := range k {
			v[i] = zero
		}
		return
	}
	copy(v, v[-k:])
	for i := int64(len(v)) + k; i < int64(len(v)); i++ {
		v[i] = zero
	}
}

// coarsen steps up the ladder of widths, merging intervals.
func (s *Series) coarsen() {
	r := width(s.step+1) / width(s.step)
	newLo := floorDiv(s.lo, r)
	move := func(i int64) int64 { return floorDiv(s.lo+i, r) - newLo }
	mergeAll(s.total, move, (*totals).merge)
	for _, l := range s.labels.all() {
		mergeAll(l.time, move, (*labelSums).merge)
	}
	for _, c := range append(s.codes.all(), s.groups.all()...) {
		mergeAll(c.time, move, (*sum).merge)
	}
	if s.first >= 0 {
		s.first, s.last = move(s.first), move(s.last)
	}
	s.lo = newLo
	s.step++
}

// mergeAll merges slot i into slot to(i) (never a later slot) and clears
// the emptied slots.
func mergeAll[T any](v []T, to func(int64) int64, merge func(a, b *T)) {
	var zero T
	for i := range int64(len(v)) {
		j := to(i)
		if j == i {
			continue
		}
		merge(&v[j], &v[i])
		v[i] = zero
	}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// threadSlot is the slot of n active threads, merging slots if needed.
func (s *Series) threadSlot(n int) int {
	n = max(n, 0)
	for n/s.threadW >= threadSlots {
		for _, l := range s.labels.all() {
			mergeAll(l.byThread, func(i int64) int64 { return i / 2 }, (*sum).merge)
		}
		s.threadW *= 2
	}
	return n / s.threadW
}

// groupName is the thread group part of a JMeter thread name: "Users 1-3"
// (group "Users", group number 1, thread 3) gives "Users"; a name without
// that suffix is kept whole.
func groupName(thread string) string {
	sp := strings.LastIndexByte(thread, ' ')
	if sp < 0 {
		return thread
	}
	a, b, ok := strings.Cut(thread[sp+1:], "-")
	if !ok || !digits(a) || !digits(b) {
		return thread
	}
	return thread[:sp]
}

func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// tracked holds a series for each of the first limit names and one
// "Other" series for the rest, remembering the series of the last name
// asked for: a run's samples mostly repeat their names, and a compare is
// cheaper than a lookup.
type tracked[S any] struct {
	limit int
	fresh func(name string) *S
	idx   map[string]int
	list  []*S
	names []string // list's names, the map's own copies
	other *S
	last  string // one of names
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
		name = strings.Clone(name) // a sample's strings may be on loan
		v := t.fresh(name)
		t.idx[name] = len(t.list)
		t.list = append(t.list, v)
		t.names = append(t.names, name)
		t.last, t.lastS = name, v
		return v
	}
	if t.other == nil {
		t.other = t.fresh(otherName)
	}
	return t.other
}

// all returns every series in first-seen order, "Other" last.
func (t *tracked[S]) all() []*S {
	if t.other != nil {
		return append(t.list[:len(t.list):len(t.list)], t.other)
	}
	return t.list
}

var _ report.Sink = (*Series)(nil)
