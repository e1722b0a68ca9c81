package element

import (
	"hash/fnv"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gojm/gojm/internal/segment"
	"github.com/gojm/gojm/report"
)

// Run is one run of a plan as its elements see it: when it started, its
// counts, where samples go, the state its elements share (Shared) and the
// switches that stop it.
type Run struct {
	// Start is when the run started (JMeter's test start time, which the
	// throughput timers schedule from).
	Start time.Time
	// Detail makes samples carry their report.Detail (a results file
	// saves headers or data).
	Detail bool
	// Active counts the running users of all groups (the JTL's
	// allThreads); Started and Finished those begun and ended.
	Active, Started, Finished atomic.Int64
	// Out is where the users' samples go, through a batcher each.
	Out *report.Collector
	// Segment is the part of a split run this process runs: the thread
	// groups start only the threads and arrivals it owns.
	Segment segment.Segment
	// ThreadPrefix starts every thread name: the host's name and "-" in
	// a split run, so that names are unique across its segments.
	ThreadPrefix string
	// OutDir is the run's output folder, where elements that write files
	// of their own (Save Responses to a file) write; "" for none.
	OutDir string

	cells   []cell
	base    uint64 // the seed the run was made with
	seed    atomic.Uint64
	stop    func(cause error)
	stopNow func(cause error)

	endMu sync.Mutex
	atEnd []func() // what the run's end undoes (servers a script started)
}

// NewRun returns a run of p whose users draw from seed; stop ends it
// gently, stopNow aborts running samples too.
func NewRun(p *Plan, seed uint64, stop, stopNow func(cause error)) *Run {
	r := &Run{Start: time.Now(), cells: make([]cell, p.nshared), stop: stop, stopNow: stopNow, Segment: segment.Whole()}
	r.seed.Store(seed)
	r.base = seed
	return r
}

// SeedFor is a seed of the run's for key, the same however many seeds
// the run drew before: the segments of a split run, which share the
// run's seed but start other users, draw the same schedules from it.
func (r *Run) SeedFor(key string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(key))
	x := r.base ^ h.Sum64()
	// splitmix64's finaliser, so that near keys give far seeds
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// StopTest ends the test gently: no new sample starts (a sampler error
// with "Stop Test", a Flow Control Action).
func (r *Run) StopTest(cause error) { r.stop(cause) }

// StopTestNow ends the test now: running samples are aborted.
func (r *Run) StopTestNow(cause error) { r.stopNow(cause) }

// Rand returns a random source of its own for user num.
func (r *Run) Rand(num int) *rand.Rand {
	return rand.New(rand.NewPCG(r.Seed(), uint64(num)))
}

// Seed returns a new seed from the run's sequence.
func (r *Run) Seed() uint64 { return r.seed.Add(0x9E3779B97F4A7C15) }

// AtEnd has f called once the run ends, after its tearDown groups: what a
// script started for the run (JMeter's HTTP Mirror Server) stops there
// if the plan does not stop it itself.
func (r *Run) AtEnd(f func()) {
	r.endMu.Lock()
	r.atEnd = append(r.atEnd, f)
	r.endMu.Unlock()
}

// End calls what AtEnd registered, latest first.
func (r *Run) End() {
	r.endMu.Lock()
	fs := r.atEnd
	r.atEnd = nil
	r.endMu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}
