package timer

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/internal/java"
	"github.com/gojm/gojm/jmx"
)

// Constant Throughput Timer calculation modes (calcMode), as JMeter numbers them.
const (
	cttThisThread = iota
	cttAllThreads
	cttGroupThreads
	cttAllShared
	cttGroupShared
)

// cttModeNames are the calcMode values JMeter 2.x saved as display text.
var cttModeNames = map[string]int{
	"this thread only":                                    cttThisThread,
	"all active threads":                                  cttAllThreads,
	"all active threads in current thread group":          cttGroupThreads,
	"all active threads (shared)":                         cttAllShared,
	"all active threads in current thread group (shared)": cttGroupShared,
}

// constantThroughputTimer is JMeter's Constant Throughput Timer: it delays
// each sample so that the thread (or, by calcMode, all active threads, or
// those of its group, alone or on one shared schedule) runs the target
// number of samples per minute. A thread that fell behind starts at once
// and the schedule restarts from there: it never catches up.
type constantThroughputTimer struct {
	perMin *element.Template
	mode   int
	prev   *element.Local[int64] // this thread's previous scheduled time (ms)
	// all and group are the shared schedules of the shared modes.
	all   *element.Shared[throughputInfo]
	group *element.GroupShared[throughputInfo]
}

// The shared modes' schedules: one for all the run's threads, one per
// thread group, shared by every Constant Throughput Timer of the plan as
// JMeter's are static.
var (
	cttAll   = element.NewKey[*element.Shared[throughputInfo]]("Constant Throughput Timer, all threads")
	cttGroup = element.NewKey[*element.GroupShared[throughputInfo]]("Constant Throughput Timer, per group")
)

func BuildConstantThroughput(c element.Builder, e *jmx.Element) (element.Timer, error) {
	t := &constantThroughputTimer{perMin: c.Prop(e, "throughput"), prev: element.NewLocal(c.Plan(), func(*element.VU) *int64 { return new(int64) })}
	t.all = element.Once(c.Plan(), cttAll, func() *element.Shared[throughputInfo] {
		return element.NewShared(c.Plan(), func(*element.VU) *throughputInfo { return &throughputInfo{} })
	})
	t.group = element.Once(c.Plan(), cttGroup, func() *element.GroupShared[throughputInfo] {
		return element.NewGroupShared(c.Plan(), func(*element.VU) *throughputInfo { return &throughputInfo{} })
	})
	// JMeter converts a display text saved by JMeter 2.x in the language
	// it runs in; any other text (another language's label) it reads as an
	// int, which fails to 0: "this thread only".
	m := strings.TrimSpace(e.Str("calcMode"))
	if n, err := strconv.Atoi(m); err == nil {
		t.mode = n
	} else if n, ok := cttModeNames[strings.ToLower(m)]; ok {
		t.mode = n
	} else if m != "" {
		c.Warn(e, fmt.Sprintf("calcMode %q is not a mode JMeter knows (a label saved in another language?): it is read as JMeter reads it, \"this thread only\"; choose the mode again in JMeter, or set calcMode to 0-4", m))
	}
	if t.mode < cttThisThread || t.mode > cttGroupShared {
		c.Warn(e, fmt.Sprintf("calcMode %d is not a mode JMeter knows (0-4): it is read as \"this thread only\"", t.mode))
		t.mode = cttThisThread
	}
	return t, nil
}

// throughputInfo is the shared schedule of the shared modes: one for all
// the run's threads, one per thread group (shared by every such timer, as
// JMeter's are static).
type throughputInfo struct {
	mu   sync.Mutex
	last int64 // last scheduled time, ms
}

func (t *constantThroughputTimer) Delay(vu *element.VU) time.Duration {
	now := vu.Now().UnixMilli()
	prev := t.prev.Get(vu)
	target := *prev + t.calculateDelay(vu, now)
	if now > target {
		*prev = now
		return 0
	}
	*prev = target
	return time.Duration(target-now) * time.Millisecond
}

func (t *constantThroughputTimer) calculateDelay(vu *element.VU, now int64) int64 {
	perMin, err := strconv.ParseFloat(strings.TrimSpace(t.perMin.Eval(vu)), 64)
	if err != nil {
		perMin = 0
	}
	msPerRequest := 60000.0 / perMin
	switch t.mode {
	case cttAllThreads:
		return java.Round(float64(vu.Run.Active.Load()) * msPerRequest)
	case cttGroupThreads:
		return java.Round(float64(vu.Group.Active.Load()) * msPerRequest)
	case cttAllShared:
		return t.all.Get(vu).sharedDelay(now, java.Round(msPerRequest))
	case cttGroupShared:
		return t.group.Get(vu).sharedDelay(now, java.Round(msPerRequest))
	}
	return java.Round(msPerRequest)
}

func (i *throughputInfo) sharedDelay(now, msPerRequest int64) int64 {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.last = max(now, i.last+msPerRequest)
	return max(i.last-now, 0)
}

// preciseThroughputTimer is JMeter's Precise Throughput Timer: the thread
// group's samples follow a schedule of random (Poisson) arrivals drawn for
// the whole test, "throughput" per "throughputPeriod" seconds, generated in
// chunks of "duration" seconds; a sample whose turn would come after the
// thread's end time stops the thread. With a random seed the schedule is
// JMeter's own for that seed. Every Precise Throughput Timer of a thread
// group shares one schedule (the first one's settings), as in JMeter.
type preciseThroughputTimer struct {
	throughput *element.Template
	period     *element.Template
	duration   *element.Template
	batchSize  int
	seed       int64
	schedule   *element.GroupShared[preciseSchedule]
}

func BuildPreciseThroughput(c element.Builder, e *jmx.Element) (element.Timer, error) {
	t := &preciseThroughputTimer{
		throughput: c.Prop(e, "throughput"),
		period:     c.Template(e, "throughputPeriod", e.StrOr("throughputPeriod", "3600")),
		duration:   c.Template(e, "duration", e.StrOr("duration", "3600")),
		batchSize:  jmx.Int(e.StrOr("batchSize", "1"), 1),
	}
	if s := strings.TrimSpace(e.Str("randomSeed")); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			// A TestBean's long field: JOrphan's Converter.getLong gives 0.
			c.Warn(e, fmt.Sprintf("randomSeed %q is not a whole number: JMeter reads it as 0, a seed of its own each run; write a whole number in the plan", s))
		}
		t.seed = n
	}
	t.schedule = element.Once(c.Plan(), preciseSchedules, func() *element.GroupShared[preciseSchedule] {
		return element.NewGroupShared(c.Plan(), func(*element.VU) *preciseSchedule { return &preciseSchedule{} })
	})
	return t, nil
}

// preciseSchedules holds each group's one schedule, which every Precise
// Throughput Timer of the group shares.
var preciseSchedules = element.NewKey[*element.GroupShared[preciseSchedule]]("Precise Throughput Timer schedules")

// preciseSchedule is a group's schedule, made by the first of its timers
// to run, with that timer's settings.
type preciseSchedule struct {
	once     sync.Once
	arrivals *poissonArrivals
}

func (t *preciseThroughputTimer) rate(vu *element.VU) float64 {
	tp, err := strconv.ParseFloat(strings.TrimSpace(t.throughput.Eval(vu)), 64)
	if err != nil {
		tp = 0
	}
	p, err := strconv.Atoi(strings.TrimSpace(t.period.Eval(vu)))
	if err != nil || p == 0 {
		return math.Inf(1)
	}
	return tp / float64(p)
}

func (t *preciseThroughputTimer) Delay(vu *element.VU) time.Duration {
	sched := t.schedule.Get(vu)
	sched.once.Do(func() {
		d, err := strconv.ParseInt(strings.TrimSpace(t.duration.Eval(vu)), 10, 64)
		if err != nil {
			d = 0
		}
		p := &poissonArrivals{rate: func() float64 { return t.rate(vu) }, batch: t.batchSize, duration: d}
		if t.seed != 0 {
			p.rnd = java.NewRandom(t.seed)
		} else {
			p.rnd = java.NewRandom(int64(vu.Rand.Uint64()))
		}
		sched.arrivals = p
	})
	g := sched.arrivals
	g.mu.Lock()
	next, ok := g.next()
	g.mu.Unlock()
	if !ok {
		vu.Log.Error("Precise Throughput Timer: no arrival to schedule (throughput 0 or duration 0): the thread stops", "thread", vu.Name)
		vu.StopThread()
		return 0
	}
	now := vu.Now().UnixMilli()
	d := max(int64(next*1000+float64(vu.Run.Start.UnixMilli()-now)), 0)
	if !vu.StopAt.IsZero() && now+d > vu.StopAt.UnixMilli() {
		vu.StopThread()
		return 0
	}
	return time.Duration(d) * time.Millisecond
}

// poissonArrivals is JMeter's ConstantPoissonProcessGenerator: the arrival
// times (seconds from the test start) of one thread group.
type poissonArrivals struct {
	mu             sync.Mutex
	rnd            java.Random
	rate           func() float64
	batch          int
	duration       int64
	events         []float64
	pos            int
	batchItem      int
	lastRate       float64
	lastFinish     float64
	generatedAtAll bool
}

func (p *poissonArrivals) generate() {
	rate := p.rate()
	p.lastRate = rate
	if p.batch > 1 {
		rate /= float64(p.batch)
	}
	p.batchItem = 0
	n := int(math.Ceil(rate * float64(p.duration)))
	p.events = p.events[:0]
	for range max(n, 0) {
		p.events = append(p.events, p.lastFinish+p.rnd.NextDouble()*float64(p.duration))
	}
	slices.Sort(p.events)
	p.pos = 0
	p.lastFinish += float64(p.duration)
	p.generatedAtAll = true
}

// next returns the next arrival; false when there is none to give.
func (p *poissonArrivals) next() (float64, bool) {
	if !p.generatedAtAll || p.batchItem == 0 && p.pos >= len(p.events) || math.Abs(p.rate()-p.lastRate) >= 0.00001 {
		p.generate()
	}
	if p.batch == 1 {
		if p.pos >= len(p.events) {
			return 0, false
		}
		p.pos++
		return p.events[p.pos-1], true
	}
	p.batchItem++
	if p.batchItem == 1 {
		if p.pos >= len(p.events) {
			return 0, false
		}
		p.pos++
		return p.events[p.pos-1], true
	}
	if p.batchItem == p.batch {
		p.batchItem = 0
	}
	if p.pos == 0 {
		return 0, false
	}
	return p.events[p.pos-1], true
}

// syncTimer is JMeter's Synchronizing Timer: threads wait at it until
// groupSize of them (the group's thread count for 0) are there, then go
// together; with a timeout, or at the thread's end time, a waiting thread
// gives up and lets all the others go. Its own delay is then 0 (the other
// timers in scope still add theirs).
type syncTimer struct {
	groupSize int
	timeout   time.Duration
	barrier   *element.Shared[barrier]
}

func BuildSynchronizing(c element.Builder, e *jmx.Element) (element.Timer, error) {
	t := &syncTimer{groupSize: jmx.Int(e.Str("groupSize"), 0)}
	t.barrier = element.NewShared(c.Plan(), func(vu *element.VU) *barrier {
		n := t.groupSize
		if n == 0 {
			n = vu.Group.Threads
		}
		return newBarrier(n)
	})
	txt := strings.TrimSpace(e.StrOr("timeoutInMs", "0"))
	ms, err := strconv.ParseInt(txt, 10, 64)
	switch {
	case err != nil && txt != "":
		// A TestBean's long field: JOrphan's Converter.getLong gives 0.
		c.Warn(e, fmt.Sprintf("timeoutInMs %q is not a whole number: JMeter reads it as 0, so each user waits for the group without a timeout; write a whole number of milliseconds in the plan", txt))
		ms = 0
	case ms < 0:
		return nil, fmt.Errorf("timeoutInMs %d is negative", ms)
	}
	t.timeout = time.Duration(ms) * time.Millisecond
	return t, nil
}

func (t *syncTimer) Delay(vu *element.VU) time.Duration {
	if t.groupSize < 0 {
		return 0
	}
	b := t.barrier.Get(vu)
	wait := t.timeout
	if wait == 0 {
		wait = math.MaxInt64
	}
	if !vu.StopAt.IsZero() {
		wait = min(wait, vu.StopAt.Sub(vu.Now()))
	}
	b.await(vu, wait)
	return 0
}

// barrier is Java's CyclicBarrier as the Synchronizing Timer uses it.
type barrier struct {
	mu      sync.Mutex
	parties int
	waiting int
	gen     chan struct{} // closed when the current generation trips or breaks
}

func newBarrier(parties int) *barrier {
	return &barrier{parties: max(parties, 1), gen: make(chan struct{})}
}

// await waits for the others; when it gives up (timeout, stop) it breaks
// the barrier for everyone waiting, as JMeter's reset on timeout does.
func (b *barrier) await(vu *element.VU, wait time.Duration) {
	b.mu.Lock()
	b.waiting++
	if b.waiting >= b.parties {
		b.trip()
		b.mu.Unlock()
		return
	}
	gen := b.gen
	b.mu.Unlock()
	if wait <= 0 {
		b.breakGen(gen)
		return
	}
	t := vu.Timer()
	t.Reset(wait)
	select {
	case <-gen:
		t.Stop()
	case <-t.C:
		vu.Warnf("Synchronizing Timer timed out waiting for users after %v", wait)
		b.breakGen(gen)
	case <-vu.Soft.Done():
		t.Stop()
		b.breakGen(gen)
	}
}

// trip releases the current generation and starts the next; b.mu is held.
func (b *barrier) trip() {
	close(b.gen)
	b.gen = make(chan struct{})
	b.waiting = 0
}

// breakGen releases gen's waiters if it is still the current generation.
func (b *barrier) breakGen(gen chan struct{}) {
	b.mu.Lock()
	if b.gen == gen {
		b.trip()
	}
	b.mu.Unlock()
}
