package thread

import (
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// Interleave style: with "ignore sub-controller blocks" a child controller
// gives one sampler per pass (and resumes where it was next time); without
// it, a child controller's whole pass counts as one.
const (
	ignoreSubControllers = 0
	useSubControllers    = 1
)

// interleaveCtl is JMeter's Interleave Controller (and, with random set,
// its Random Controller): each pass runs one child, the next one next time.
type interleaveCtl struct {
	Generic
	style       int
	across      bool
	random      bool
	skipNext    bool
	searchStart item
	atLeastOne  bool
	stillSame   bool
}

func BuildInterleave(c element.Builder, e *jmx.Element, d *ControllerDef) error {
	return buildInterleaveKind(c, e, d, false)
}

func BuildRandom(c element.Builder, e *jmx.Element, d *ControllerDef) error {
	return buildInterleaveKind(c, e, d, true)
}

func buildInterleaveKind(_ element.Builder, e *jmx.Element, d *ControllerDef, random bool) error {
	style := jmx.Int(e.Str("InterleaveControl.style"), 0)
	across := e.Bool("InterleaveControl.accrossThreads", false)
	d.Make = func(*Thread) Controller {
		return &interleaveCtl{style: style, across: across, random: random, stillSame: true}
	}
	return nil
}

func (c *interleaveCtl) ReInitialize(*element.VU) {
	c.first = true
	c.atLeastOne = false
	c.searchStart = item{}
	c.stillSame = true
	c.skipNext = false
	c.count++
}

func (c *interleaveCtl) Next(vu *element.VU) Item {
	if c.skipNext {
		c.self.ReInitialize(vu)
		return nil
	}
	return c.Generic.Next(vu)
}

func (c *interleaveCtl) NextIsAController(vu *element.VU, k Controller) Item {
	s := k.Next(vu)
	if s == nil {
		c.self.CurrentReturnedNull(vu, k)
		return c.self.Next(vu)
	}
	c.atLeastOne = true
	if c.style == ignoreSubControllers {
		c.self.IncrementCurrent(vu)
		c.skipNext = true
	} else {
		c.searchStart = item{}
	}
	return s
}

func (c *interleaveCtl) NextIsASampler(vu *element.VU, s *SamplerDef) Item {
	c.skipNext = true
	c.self.IncrementCurrent(vu)
	return s
}

func (c *interleaveCtl) NextIsNull(vu *element.VU) Item {
	c.self.ResetCurrent(vu)
	return c.self.Next(vu)
}

func (c *interleaveCtl) SetCurrentElement(vu *element.VU, it item) bool {
	if c.searchStart == (item{}) {
		c.searchStart = it
	} else if c.searchStart == it && !c.stillSame {
		c.self.ReInitialize(vu)
		return false
	}
	return true
}

func (c *interleaveCtl) CurrentReturnedNull(vu *element.VU, k Controller) {
	if k.IsDone(vu) {
		c.removeCurrent()
	} else if c.style == useSubControllers {
		c.self.IncrementCurrent(vu)
	}
}

func (c *interleaveCtl) IncrementCurrent(vu *element.VU) {
	if c.atLeastOne {
		c.skipNext = true
	}
	c.stillSame = false
	c.current++
	if c.random {
		c.current = vu.Rand.IntN(max(len(c.kids), 1))
	}
}

func (c *interleaveCtl) ResetCurrent(vu *element.VU) {
	if c.random && len(c.kids) > 0 {
		c.current = vu.Rand.IntN(len(c.kids))
		return
	}
	c.current = 0
}

func (c *interleaveCtl) Initialize(vu *element.VU) {
	c.Generic.Initialize(vu)
	if c.across && len(c.kids) > 0 {
		c.current = (vu.Num - 1) % len(c.kids)
	}
}

// randomOrderCtl is JMeter's Random Order Controller: all children once
// per pass, in a new random order each pass.
type randomOrderCtl struct{ Generic }

func BuildRandomOrder(_ element.Builder, _ *jmx.Element, d *ControllerDef) error {
	d.Make = func(*Thread) Controller { return &randomOrderCtl{} }
	return nil
}

func (r *randomOrderCtl) Initialize(vu *element.VU) {
	r.Generic.Initialize(vu)
	r.shuffle(vu)
}

func (r *randomOrderCtl) ReInitialize(vu *element.VU) {
	r.Generic.ReInitialize(vu)
	r.shuffle(vu)
}

func (r *randomOrderCtl) shuffle(vu *element.VU) {
	vu.Rand.Shuffle(len(r.kids), func(i, j int) { r.kids[i], r.kids[j] = r.kids[j], r.kids[i] })
}

// Throughput Controller styles.
const (
	byNumber  = 0
	byPercent = 1
)

// throughputCtl is JMeter's Throughput Controller. At each pass of its
// parent it decides whether to run: "total executions" runs the first N
// passes; "percent executions" runs a pass when (100·runs + 50)/(passes + 1)
// is below the percentage, which spreads the runs evenly and is the same
// sequence every time. Counts are per virtual user, or shared by the
// group's virtual users without "per user".
type throughputCtl struct {
	Generic
	t           *throughputDef
	shared      *throughputShared // the run's count, without "per user"
	numExec     int
	iteration   int
	runThisTime bool
}

type throughputDef struct {
	style     int
	perThread bool
	max, pct  *element.Template
}

// throughputShared is the count of a shared Throughput Controller, kept
// by the run.
type throughputShared struct {
	mu        sync.Mutex
	execs     int
	iteration int
}

func BuildThroughput(c element.Builder, e *jmx.Element, d *ControllerDef) error {
	t := &throughputDef{
		style:     jmx.Int(e.StrOr("ThroughputController.style", "0"), 0),
		perThread: e.Bool("ThroughputController.perThread", true),
		max:       c.Template(e, "ThroughputController.maxThroughput", e.StrOr("ThroughputController.maxThroughput", "1")),
		pct:       c.Template(e, "ThroughputController.percentThroughput", e.StrOr("ThroughputController.percentThroughput", "100")),
	}
	shared := element.NewShared(c.Plan(), func(*element.VU) *throughputShared { return &throughputShared{iteration: -1} })
	d.Make = func(th *Thread) Controller {
		return &throughputCtl{t: t, shared: shared.Get(th.VU), iteration: -1}
	}
	return nil
}

func (t *throughputCtl) maxThroughput(vu *element.VU) int {
	s := t.t.max.Eval(vu)
	n, err := strconv.Atoi(s)
	if err != nil {
		vu.Warnf("%s: maximum throughput %q is not a whole number: using 1", t.def.Path, s)
		return 1
	}
	return n
}

func (t *throughputCtl) percent(vu *element.VU) float64 {
	s := strings.TrimSpace(t.t.pct.Eval(vu))
	f, err := strconv.ParseFloat(strings.TrimRight(s, "fFdD"), 32)
	if err != nil {
		vu.Warnf("%s: percentage %q is not a number: using 100", t.def.Path, s)
		return 100
	}
	return float64(float32(f))
}

func (t *throughputCtl) executions() int {
	if !t.t.perThread {
		t.shared.mu.Lock()
		defer t.shared.mu.Unlock()
		return t.shared.execs
	}
	return t.numExec
}

func (t *throughputCtl) Next(vu *element.VU) Item {
	if t.runThisTime {
		return t.Generic.Next(vu)
	}
	return nil
}

func (t *throughputCtl) decide(vu *element.VU, execs, iterations int) bool {
	if t.t.style == byNumber {
		return execs < t.maxThroughput(vu)
	}
	return (100.0*float64(execs)+50.0)/float64(iterations+1) < t.percent(vu)
}

func (t *throughputCtl) IsDone(vu *element.VU) bool {
	if len(t.kids) == 0 {
		return true
	}
	if t.t.style == byNumber {
		m := t.maxThroughput(vu)
		return t.executions() >= m && t.current >= len(t.kids) || m == 0
	}
	return t.t.style == byPercent && t.percent(vu) == 0
}

func (t *throughputCtl) IterationStart(vu *element.VU, _ Controller, _ int) {
	if !t.t.perThread {
		s := t.shared
		s.mu.Lock()
		s.iteration++
		t.runThisTime = t.decide(vu, s.execs, s.iteration)
		if t.runThisTime {
			s.execs++
		}
		s.mu.Unlock()
		return
	}
	t.iteration++
	t.runThisTime = t.decide(vu, t.numExec, t.iteration)
	if t.runThisTime {
		t.numExec++
	}
}

// criticalCtl is JMeter's Critical Section Controller: one virtual user
// at a time runs its children; others with the same lock name wait. The
// lock is taken at the start of a pass and given back at its end (or when
// the virtual user ends). It is re-entrant, as Java's ReentrantLock.
type criticalCtl struct {
	Generic
	lockName *element.Template
	locks    *element.Shared[namedLocks]
	held     *namedLock
}

// criticalLocks is the plan's one table of named locks.
var criticalLocks = element.NewKey[*element.Shared[namedLocks]]("Critical Section locks")

func BuildCritical(c element.Builder, e *jmx.Element, d *ControllerDef) error {
	name := c.Prop(e, "CriticalSectionController.lockName")
	locks := element.Once(c.Plan(), criticalLocks, func() *element.Shared[namedLocks] {
		return element.NewShared(c.Plan(), func(*element.VU) *namedLocks { return &namedLocks{m: map[string]*namedLock{}} })
	})
	d.Make = func(*Thread) Controller { return &criticalCtl{lockName: name, locks: locks} }
	return nil
}

// namedLocks are a run's Critical Section locks, by name.
type namedLocks struct {
	mu sync.Mutex
	m  map[string]*namedLock
}

// get returns the lock called name, made the first time.
func (n *namedLocks) get(name string) *namedLock {
	n.mu.Lock()
	defer n.mu.Unlock()
	l := n.m[name]
	if l == nil {
		l = newNamedLock()
		n.m[name] = l
	}
	return l
}

func (c *criticalCtl) Next(vu *element.VU) Item {
	name := c.lockName.Eval(vu)
	if name == "" {
		vu.Warnf("Empty lock name in Critical Section Controller: %s", c.def.Path)
		return c.Generic.Next(vu)
	}
	if c.first {
		if c.held == nil {
			c.held = c.locks.Get(vu).get(name)
		}
		if !c.held.lock(vu) {
			return nil // the run was aborted while waiting
		}
	}
	return c.Generic.Next(vu)
}

func (c *criticalCtl) ReInitialize(vu *element.VU) {
	if c.held != nil {
		if c.held.owner.Load() == vu {
			c.held.unlock(vu)
		}
		c.held = nil
	}
	c.Generic.ReInitialize(vu)
}

// namedLock is a re-entrant lock shared by the Critical Section Controllers
// of one name.
type namedLock struct {
	ch    chan struct{}
	owner atomic.Pointer[element.VU]
	depth int // held count, touched by the owner only
}

func newNamedLock() *namedLock { return &namedLock{ch: make(chan struct{}, 1)} }

// lock takes the lock for vu, waiting if another holds it; it returns
// false when the run is aborted meanwhile.
func (l *namedLock) lock(vu *element.VU) bool {
	if l.owner.Load() == vu {
		l.depth++
		return true
	}
	select {
	case l.ch <- struct{}{}:
	case <-vu.Hard.Done():
		return false
	}
	l.owner.Store(vu)
	l.depth = 1
	return true
}

// unlock gives back one hold of vu's.
func (l *namedLock) unlock(vu *element.VU) {
	if l.owner.Load() != vu {
		return
	}
	l.depth--
	if l.depth == 0 {
		l.owner.Store(nil)
		<-l.ch
	}
}
