package group

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/thread"
	"github.com/gojm/gojm/internal/java"
	"github.com/gojm/gojm/jmx"
)

// The BlazeMeter "Custom Thread Groups" of jmeter-plugins: Concurrency,
// Arrivals and Free-Form Arrivals. Their fields are TargetLevel, RampUp,
// Steps, Hold, Iterations (per thread), Unit ("M": RampUp, Hold and the
// Free-Form durations are minutes and rates per minute; otherwise
// seconds), and for the arrival groups ConcurrencyLimit. Their main
// controller is the plugin's VirtualUserController: a thread loops until
// the group's schedule is over, which it sees before each sampler.

// dynFields are the fields the dynamic groups share.
type dynFields struct {
	target, rampUp, steps, hold, iterations, unit *element.Template
	holdSet, targetSet                            bool // Hold and TargetLevel are in the plan (absent means 1)
	logFile                                       string
}

func readDynFields(c element.Builder, e *jmx.Element) dynFields {
	f := dynFields{
		target: c.Prop(e, "TargetLevel"), rampUp: c.Prop(e, "RampUp"), steps: c.Prop(e, "Steps"),
		hold: c.Prop(e, "Hold"), iterations: c.Prop(e, "Iterations"), unit: c.Prop(e, "Unit"),
		holdSet: e.Has("Hold"), targetSet: e.Has("TargetLevel"), logFile: e.Str("LogFilename"),
	}
	return f
}

// warnLog says that the group's LogFilename (the plugin's log of thread
// starts, stops and arrivals) is not written.
func (f *dynFields) warnLog(p *element.Plan, g *Group) {
	if strings.TrimSpace(f.logFile) != "" {
		p.Log.Warn("the thread group's LogFilename (a log of thread starts, stops and arrivals) is not written", "group", g.Path)
	}
}

// dynParams are a dynamic group's numbers at its start.
type dynParams struct {
	target     float64 // threads, or arrivals per second
	rampUp     float64 // seconds (whole, as the plugin rounds them)
	hold       float64
	steps      int64
	iterations int64
	unit       float64 // 60 for minutes
}

// eval reads the fields as the plugin does: TargetLevel with
// getPropertyAsInt (absent 1, blank or not a whole number 0), RampUp and
// Hold as Math.round(Double.parseDouble × unit) (blank 0, Hold absent 1
// unit), Steps with Long.parseLong (blank 0): the last three stop the
// group when they are not numbers. The Free-Form group (freeForm) reads
// none of them. Iterations is read with Long.parseLong at the end of each
// iteration: a thread whose read fails ends there, as after 1 iteration.
func (f *dynFields) eval(n *numbers, perUnit, freeForm bool) dynParams {
	p := dynParams{unit: 1}
	if u := n.text(f.unit); u == "M" {
		p.unit = 60
	}
	if !freeForm {
		p.target = float64(f.readTarget(n))
		if perUnit {
			p.target /= p.unit
		}
		p.rampUp = n.asSeconds("ramp-up time", f.rampUp, p.unit)
		if f.holdSet {
			p.hold = n.asSeconds("hold time", f.hold, p.unit)
		} else {
			p.hold = p.unit
		}
		p.steps = n.asLong("ramp-up steps", f.steps)
	}
	p.iterations = readIterations(n, f.iterations)
	return p
}

// readTarget reads TargetLevel as getPropertyAsInt(TargetLevel, 1).
func (f *dynFields) readTarget(n *numbers) int64 {
	if !f.targetSet {
		return 1
	}
	if n.text(f.target) == "" {
		n.notes = append(n.notes, "target is blank: the plugin reads it as 0, so the group starts no thread; write a whole number in the plan")
		return 0
	}
	return n.asInt("target", f.target, 0, "so the group starts no thread")
}

// readIterations reads Iterations (blank 0: no limit).
func readIterations(n *numbers, t *element.Template) int64 {
	s := n.text(t)
	if s == "" {
		return 0
	}
	v, ok := javaNumber(s, 64)
	switch {
	case !ok:
		n.note("thread iterations limit", s, t, "is not a whole number: the plugin's Long.parseLong fails at the end of each thread's first iteration, which ends the thread, as a limit of 1 does", "a whole number")
		return 1
	case v < 0:
		n.negative("thread iterations limit", v)
		return 0
	}
	return v
}

// concurrencyModel is the Concurrency Thread Group: it keeps TargetLevel
// threads running (reached over RampUp, in Steps steps or smoothly) for
// Hold, starting a new thread whenever one ends (its Iterations done); a
// thread ends before its next sampler once the time is over, or after an
// iteration when there are more threads than the target. A TargetLevel
// that is not constant (${__tstFeedback(…)}, ${__P(…)}) is evaluated again
// every second, as the plugin re-reads it.
type concurrencyModel struct {
	f   dynFields
	dyn *element.GroupShared[dynState]
}

func BuildConcurrency(c element.Builder, e *jmx.Element, g *Group) (Model, error) {
	m := &concurrencyModel{f: readDynFields(c, e), dyn: newDynState(c.Plan())}
	g.Loops = nil
	g.MainLoop.Make = func(th *thread.Thread) thread.Controller {
		return &vuserCtl{st: m.dyn.Get(th.VU)}
	}
	return m, nil
}

func (*concurrencyModel) arrivalRate() bool { return false }

func (m *concurrencyModel) check(n *numbers) { m.f.eval(n, false, false) }

// dynState is a dynamic group's state in one run, shared by its users.
type dynState struct {
	ended      atomic.Bool  // the schedule is over: users stop before their next sampler
	target     atomic.Int64 // the Concurrency group's current target
	alive      atomic.Int64 // users started and not ended
	iterations int64
	// arrivals: a pooled user waits on arrive for its next arrival;
	// over closes when the schedule ends.
	arrive chan time.Time
	over   chan struct{}
	stats  *arrivalStats
}

// newDynState hands out the group's slot for its dynState.
func newDynState(p *element.Plan) *element.GroupShared[dynState] {
	return element.NewGroupShared(p, func(*element.VU) *dynState {
		return &dynState{arrive: make(chan time.Time), over: make(chan struct{})}
	})
}

// planned is the number of threads wanted t seconds after the start; -1
// once the schedule is over.
func (p *dynParams) planned(t float64) int64 {
	if t >= p.rampUp+p.hold {
		return -1
	}
	if p.rampUp == 0 || t >= p.rampUp {
		return java.Round(p.target)
	}
	if p.steps > 0 {
		size, length := p.target/float64(p.steps), p.rampUp/float64(p.steps)
		return java.Round(size * (math.Floor(t/length) + 1))
	}
	return java.Round(p.target / p.rampUp * t)
}

// nextChange is when planned may change next after t (seconds).
func (p *dynParams) nextChange(t float64) float64 {
	end := p.rampUp + p.hold
	if p.rampUp == 0 || t >= p.rampUp {
		return end
	}
	if p.steps > 0 {
		length := p.rampUp / float64(p.steps)
		return min((math.Floor(t/length)+1)*length, p.rampUp)
	}
	slope := p.target / p.rampUp
	level := float64(java.Round(slope * t))
	return min((level+0.5)/slope, p.rampUp)
}

func (m *concurrencyModel) run(gr *Run, base *element.VU, soft, hard context.Context) {
	g := gr.Group
	base = gr.groupVU(base, soft, hard)
	n := &numbers{vu: base, path: g.Path}
	p := m.f.eval(n, false, false)
	g.warnNotes(base, n.notes)
	if err := n.err(); err != nil {
		gr.fail(err)
		return
	}
	m.f.warnLog(gr.plan, g)
	st := m.dyn.Of(gr.el)
	st.iterations = p.iterations
	if n.stops {
		p.target = 0 // the plugin failed as the group started
	}
	// A split run's segment keeps its part of the concurrency: of the
	// thread slots below the target, those it owns.
	seg := gr.segment()
	part := func(n float64) int64 { return seg.Of(int64(math.Max(n, 0))) }
	st.target.Store(part(p.target))
	beginProgress(gr, base, int(java.Round(p.target)), time.Duration((p.rampUp+p.hold)*float64(time.Second)))
	defer gr.prog.ended.Store(true)
	defer st.ended.Store(true)
	if p.target <= 0 {
		return
	}
	l := &launcher{g: gr, base: base, soft: soft, hard: hard, threads: int(part(float64(java.Round(p.target))))}
	finished := make(chan struct{}, 1)
	after := func(*element.VU) {
		st.alive.Add(-1)
		select {
		case finished <- struct{}{}:
		default:
		}
	}
	dynamic := !m.f.target.Const()
	w := newWaiter(soft)
	t0 := time.Now()
	nextEval := t0.Add(time.Second)
	for soft.Err() == nil {
		now := time.Now()
		if dynamic && !now.Before(nextEval) {
			// read again, as the plugin does: what it makes of text
			// was told of at the start
			p.target = float64(m.f.readTarget(&numbers{vu: base, path: g.Path}))
			st.target.Store(part(p.target))
			nextEval = nextEval.Add(time.Second)
		}
		el := now.Sub(t0).Seconds()
		planned := p.planned(el)
		if planned < 0 {
			break
		}
		for st.alive.Load() < part(float64(planned)) {
			st.alive.Add(1)
			l.start(time.Time{}, nil, after)
		}
		wake := t0.Add(time.Duration(math.Ceil(p.nextChange(el)*1000)) * time.Millisecond)
		if !wake.After(now) {
			wake = now.Add(time.Millisecond)
		}
		if dynamic && nextEval.Before(wake) {
			wake = nextEval
		}
		w.until(wake, finished)
	}
	st.ended.Store(true)
	l.wg.Wait()
}

// vuserCtl is the plugin's VirtualUserController for one virtual user of
// a Concurrency or Arrivals Thread Group: the group's main loop.
type vuserCtl struct {
	thread.Generic
	st      *dynState
	arrival bool      // an Arrivals group: each pass starts with an arrival
	pending time.Time // the arrival the user holds
	passes  int64     // iterations begun
	arrived bool
}

func (c *vuserCtl) Next(vu *element.VU) thread.Item {
	if c.st.ended.Load() {
		c.SetDone(true)
		return nil
	}
	if !c.arrived {
		c.arrived = true
		c.passes++
		if c.arrival {
			c.Thread().StartIteration(c.pending)
			c.st.stats.begin(c.Thread().Lag)
		}
	}
	return c.Generic.Next(vu)
}

func (c *vuserCtl) NextIsNull(vu *element.VU) thread.Item {
	switch {
	case c.st.ended.Load(),
		c.st.iterations > 0 && c.passes >= c.st.iterations:
		c.SetDone(true)
		return nil
	case !c.arrival && c.st.alive.Load() > c.st.target.Load():
		c.SetDone(true) // too many threads for the target
		return nil
	case c.arrival:
		c.ReInitialize(vu)
		if !c.awaitArrival(vu) {
			c.SetDone(true)
		}
		return nil
	}
	c.ReInitialize(vu)
	return c.Self().Next(vu)
}

func (c *vuserCtl) ReInitialize(vu *element.VU) {
	c.Generic.ReInitialize(vu)
	c.arrived = false
}

// awaitArrival waits in the group's pool for the next arrival; false when
// the schedule or the run ends first. A pooled user does not count as an
// active thread (the JTL's thread counts), as in the plugin.
func (c *vuserCtl) awaitArrival(vu *element.VU) bool {
	vu.Group.Active.Add(-1)
	vu.Run.Active.Add(-1)
	defer func() {
		vu.Group.Active.Add(1)
		vu.Run.Active.Add(1)
	}()
	select {
	case at := <-c.st.arrive:
		c.pending = at
		return true
	case <-c.st.over:
	case <-vu.Soft.Done():
	}
	return false
}

// startNextLoop and breakLoop end the pass: a Concurrency thread starts
// its next one, an Arrivals thread waits for its next arrival.
func (c *vuserCtl) StartNextLoop(vu *element.VU) {
	c.ReInitialize(vu)
	if c.arrival && !c.awaitArrival(vu) {
		c.SetDone(true)
	}
}

func (c *vuserCtl) BreakLoop(vu *element.VU) { c.StartNextLoop(vu) }

// arrivalsModel is the Arrivals Thread Group (TargetLevel arrivals per
// unit, reached over RampUp in Steps steps or smoothly, held for Hold) and
// the Free-Form Arrivals Thread Group (rows of start rate, end rate,
// duration in the unit; the JMeter property named by the group, default
// arrivals.schedule, "spawn(start, end, duration) …", replaces them).
// Each arrival starts one iteration on an idle thread of the group's pool,
// or on a new thread while fewer than ConcurrencyLimit run (no limit when
// blank or 0); with every thread busy at the limit the arrival is dropped,
// as the plugin does, and counted (Run.Dropped). Arrivals follow the
// plugin's clock: the next one comes 1/rate after the last, the rate taken
// where the last one fell (a zero rate waits 200 ms and looks again); a
// smooth ramp without steps places arrival k at √(2k/slope) (the hold's
// arrivals follow from the end of the ramp), which is the ramp the plugin
// describes (its own formula gives a zero rate for the
// first arrival and starts nothing until the hold). When the schedule is
// over, idle threads end and busy ones end before their next sampler.
type arrivalsModel struct {
	dyn      *element.GroupShared[dynState]
	f        dynFields
	limit    *element.Template
	freeForm bool
	rows     [][3]*element.Template
	propName string
}

func BuildArrivals(c element.Builder, e *jmx.Element, g *Group) (Model, error) {
	return buildArrivals(c, e, g, false)
}

// BuildFreeForm builds a Free-Form Arrivals Thread Group: arrivals on
// a schedule of rows (start rate, end rate, duration).
func BuildFreeForm(c element.Builder, e *jmx.Element, g *Group) (Model, error) {
	return buildArrivals(c, e, g, true)
}

func buildArrivals(c element.Builder, e *jmx.Element, g *Group, freeForm bool) (Model, error) {
	m := &arrivalsModel{f: readDynFields(c, e), limit: c.Prop(e, "ConcurrencyLimit"), freeForm: freeForm, dyn: newDynState(c.Plan())}
	if m.freeForm {
		for i, cells := range e.Prop("Schedule").Table(3) {
			if len(cells) < 3 {
				return nil, fmt.Errorf("schedule row %d has %d columns, want 3 (start rate, end rate, duration)", i+1, len(cells))
			}
			var r [3]*element.Template
			for j := range r {
				r[j] = c.Template(e, "Schedule", cells[j].Value)
			}
			m.rows = append(m.rows, r)
		}
		m.propName = "arrivals.schedule"
		if e.Bool("UseIdentifier", false) && e.Str("Identifier") != "" {
			m.propName = e.Str("Identifier")
		}
	}
	g.Loops = nil
	g.MainLoop.Make = func(th *thread.Thread) thread.Controller {
		return &vuserCtl{st: m.dyn.Get(th.VU), arrival: true, pending: th.Due}
	}
	return m, nil
}

func (*arrivalsModel) arrivalRate() bool { return true }

func (m *arrivalsModel) check(n *numbers) { m.eval(n) }

// eval reads the group's fields: a field the plugin fails on (n.stops)
// leaves a schedule without arrivals.
func (m *arrivalsModel) eval(n *numbers) (dynParams, []freeRow, int64) {
	p := m.f.eval(n, true, m.freeForm)
	var rows []freeRow
	if m.freeForm {
		rows = m.freeRows(n, p.unit)
	}
	limit := readLimit(n, m.limit)
	if n.stops {
		p.target, p.rampUp, p.hold, rows = 0, 0, 0, nil // no arrival, and the schedule is over
	}
	return p, rows, limit
}

// readLimit reads ConcurrencyLimit as the plugin does, with Long.parseLong
// in a try: blank, 0, negative or text that is not a whole number is no
// limit.
func readLimit(n *numbers, t *element.Template) int64 {
	s := n.text(t)
	if s == "" {
		return 0
	}
	v, ok := javaNumber(s, 64)
	if !ok {
		n.note("concurrency limit", s, t, "is not a whole number: the plugin reads it as no limit", "a whole number")
	}
	return max(v, 0)
}

// freeRow is a Free-Form row in seconds and arrivals per second.
type freeRow struct{ from, to, dur float64 }

// rateAt is the Free-Form rate t seconds in; -1 past the last row.
func freeRate(rows []freeRow, t float64) float64 {
	offset := 0.0
	for _, r := range rows {
		progress := (t - offset) / r.dur
		offset += r.dur
		if t <= offset {
			return r.from + progress*(r.to-r.from)
		}
	}
	return -1
}

func (m *arrivalsModel) run(gr *Run, base *element.VU, soft, hard context.Context) {
	g := gr.Group
	base = gr.groupVU(base, soft, hard)
	n := &numbers{vu: base, path: g.Path}
	p, rows, limit := m.eval(n)
	g.warnNotes(base, n.notes)
	if err := n.err(); err != nil {
		gr.fail(err)
		return
	}
	m.f.warnLog(gr.plan, g)
	st := m.dyn.Of(gr.el)
	st.iterations = p.iterations
	st.stats = &gr.arrivals
	var total float64
	if m.freeForm {
		for _, row := range rows {
			total += row.dur
		}
	} else {
		total = p.rampUp + p.hold
	}
	beginProgress(gr, base, int(limit), time.Duration(total*float64(time.Second)))
	defer gr.prog.ended.Store(true)
	seg := gr.segment()
	if limit > 0 {
		limit = max(seg.Of(limit), 1)
	}
	l := &launcher{g: gr, base: base, soft: soft, hard: hard, threads: int(limit)}
	w := newWaiter(soft)
	t0 := time.Now()
	times := m.times(p, rows)
	// j counts the arrivals: a split run's segment takes those it owns.
	for j := int64(0); ; j++ {
		off, ok := times.next()
		if !w.until(t0.Add(off), nil) || !ok {
			break // the schedule ends at off: the last arrival had until then to begin
		}
		if seg.Owns(j) {
			m.dispatch(l, st, t0.Add(off), limit)
		}
	}
	st.ended.Store(true)
	close(st.over)
	l.wg.Wait()
}

// rate is the Arrivals group's rate t seconds in (per second); -1 once
// the schedule is over.
func (p *dynParams) rate(t float64) float64 {
	if t >= p.rampUp+p.hold {
		return -1
	}
	if p.rampUp == 0 || t >= p.rampUp {
		return p.target
	}
	if p.steps > 0 {
		size, length := p.target/float64(p.steps), p.rampUp/float64(p.steps)
		return size * (math.Floor(t/length) + 1)
	}
	return p.target / p.rampUp * t // a smooth ramp's arrivals are placed by run
}

// dispatch hands an arrival due at to an idle thread, or a new one, or
// drops it.
// arrivalClock yields an Arrivals group's arrival instants, from its
// start: on a smooth ramp arrival k falls at √(2k/slope); elsewhere they
// follow one another at the rate of the moment, and a rate of 0 is looked
// at again 200 ms later. When the schedule is over, next gives its end.
type arrivalClock struct {
	m    *arrivalsModel
	p    dynParams
	rows []freeRow
	at   time.Duration
	k    int64 // arrivals so far on a smooth ramp
}

func (m *arrivalsModel) times(p dynParams, rows []freeRow) *arrivalClock {
	return &arrivalClock{m: m, p: p, rows: rows}
}

func (a *arrivalClock) next() (time.Duration, bool) {
	p := &a.p
	for {
		el := a.at.Seconds()
		var rate float64
		if a.m.freeForm {
			rate = freeRate(a.rows, el)
		} else {
			rate = p.rate(el)
		}
		switch {
		case rate < 0:
			return a.at, false // the end
		case !a.m.freeForm && p.steps == 0 && p.rampUp > 0 && p.target > 0 && el < p.rampUp:
			at := a.at
			a.k++
			next := min(math.Sqrt(2*float64(a.k)/(p.target/p.rampUp)), p.rampUp)
			a.at = time.Duration(next * float64(time.Second))
			return at, true
		case rate == 0:
			a.at += 200 * time.Millisecond
		default:
			at := a.at
			a.at += time.Duration(float64(time.Second) / rate)
			return at, true
		}
	}
}

func (m *arrivalsModel) dispatch(l *launcher, st *dynState, at time.Time, limit int64) {
	st.stats.due.Add(1)
	select {
	case st.arrive <- at:
		return
	default:
	}
	if limit > 0 && st.alive.Load() >= limit {
		st.stats.dropped.Add(1)
		return
	}
	st.alive.Add(1)
	l.start(time.Time{}, func(th *thread.Thread) { th.Due = at }, func(*element.VU) { st.alive.Add(-1) })
}

// freeRows evaluates the Free-Form schedule (or the property replacing it).
func (m *arrivalsModel) freeRows(n *numbers, unit float64) []freeRow {
	var rows []freeRow
	if s, ok := n.vu.Plan.Props.Get(m.propName); ok && s != "" {
		for _, r := range spawnRows(n, m.propName, s, 3) {
			rows = append(rows, freeRow{from: float64(r[0]), to: float64(r[1]), dur: float64(r[2])})
		}
	} else {
		for i, r := range m.rows {
			rows = append(rows, freeRow{
				// getDoubleValue: text that is not a number is 0
				from: n.asDouble(fmt.Sprintf("row %d start rate", i+1), r[0], "a rate of 0"),
				to:   n.asDouble(fmt.Sprintf("row %d end rate", i+1), r[1], "a rate of 0"),
				dur:  n.asDouble(fmt.Sprintf("row %d duration", i+1), r[2], "so the row is left out"),
			})
		}
	}
	out := rows[:0]
	for _, r := range rows {
		if r.dur <= 0 {
			continue
		}
		out = append(out, freeRow{from: r.from / unit, to: r.to / unit, dur: r.dur * unit})
	}
	return out
}
