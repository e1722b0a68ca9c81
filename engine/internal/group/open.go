package group

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/thread"
	"github.com/gojm/gojm/internal/java"
	"github.com/gojm/gojm/jmx"
)

// openModel is JMeter's Open Model Thread Group (5.5+): a schedule of
// arrivals, each of which starts a new thread that runs the group's
// children once. The schedule (OpenModelThreadGroup.schedule) is read when
// the group starts, ${…} and all:
//
//	rate(10/sec) random_arrivals(1 min) rate(20/sec) pause(5 s) even_arrivals(30 s)
//
// rate(N/unit) (also "N per unit"; rate(0) needs no unit) sets the rate at
// the start or end of the arrivals steps around it: from the rate before a
// step to the rate after it, linearly, the same rate when none follows;
// the rate starts at 0. random_arrivals(d) draws the step's arrivals at
// random (floor of the mean rate × d of them, JMeter's generator: with a
// non-zero OpenModelThreadGroup.random_seed, JMeter's very times),
// even_arrivals(d) spaces them evenly, pause(d) is d without arrivals.
// Durations add up "1 min 30 sec"; units ms, s/sec…, m/min…, h/hour…,
// d/day…. /* comments */ and // line comments are skipped. A bare number N
// means N arrivals over one second, then up to an hour for them to end.
// concurrency(N) (JMeter 6) caps the threads running at once from there
// on: an arrival over the cap waits, in order, for a thread to end, and is
// dropped if the schedule ends first (Run.Dropped).
//
// When the schedule ends, threads still running are interrupted, as in
// JMeter (end the schedule with a pause to let them finish). gojm starts
// the schedule when the group starts (JMeter: at the test start, so that a
// setUp group's time is taken from it).
type openModel struct {
	schedule, seed *element.Template
}

func BuildOpenModel(c element.Builder, e *jmx.Element, g *Group) (Model, error) {
	m := &openModel{schedule: c.Prop(e, "OpenModelThreadGroup.schedule"), seed: c.Prop(e, "OpenModelThreadGroup.random_seed")}
	g.MainLoop.Make = func(*thread.Thread) thread.Controller { return &openCtl{} }
	g.Loops = nil
	if s := m.schedule; s.Const() {
		if _, err := parseOpenSchedule(s.Raw()); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (*openModel) arrivalRate() bool { return true }

// read evaluates the group's schedule and the random source of its
// arrivals: the plan's seed, or else one of the run's own for this group
// (the same in every segment of a split run, which share the run's seed).
func (m *openModel) read(gr *Run, base *element.VU) (*openSchedule, java.Random, error) {
	sched, err := parseOpenSchedule(m.schedule.Eval(base))
	var seed int64
	if s := strings.TrimSpace(m.seed.Eval(base)); s != "" && err == nil {
		if seed, err = strconv.ParseInt(s, 10, 64); err != nil {
			err = fmt.Errorf("random seed %q is not a whole number", s)
		}
	}
	if err != nil {
		return nil, java.Random{}, fmt.Errorf("%s: %w", gr.Group.Path, err)
	}
	if seed == 0 {
		seed = int64(gr.run.SeedFor(gr.Group.Path))
	}
	return sched, java.NewRandom(seed), nil
}

// openCtl is the Open Model group's main controller: one pass, then done.
type openCtl struct{ thread.Generic }

func (o *openCtl) NextIsNull(vu *element.VU) thread.Item {
	o.ReInitialize(vu)
	o.SetDone(true)
	return nil
}

func (o *openCtl) StartNextLoop(*element.VU) { o.SetDone(true) }
func (o *openCtl) BreakLoop(*element.VU)     { o.SetDone(true) }

// openStep is one step of a parsed schedule.
type openStep struct {
	kind  byte    // 'r' rate, 'a' arrivals, 'c' concurrency
	value float64 // rate per second, duration in seconds, or the limit
	even  bool    // arrivals: evenly spaced
}

// openSchedule is a parsed schedule.
type openSchedule struct {
	steps []openStep
	total float64 // seconds
}

// check: the Open Model reports its schedule's problems as it reads it.
func (*openModel) check(*numbers) {}

func (m *openModel) run(gr *Run, base *element.VU, soft, hard context.Context) {
	base = gr.groupVU(base, soft, hard)
	sched, rnd, err := m.read(gr, base)
	if err != nil {
		gr.fail(err)
		return
	}
	limits := sched.limits()
	beginProgress(gr, base, 0, time.Duration(sched.total*float64(time.Second)))
	defer gr.prog.ended.Store(true)
	stats := &gr.arrivals
	gen := newOpenGen(sched, &rnd)
	l := &launcher{g: gr, base: base, soft: soft, hard: hard}
	running := 0
	ended := make(chan struct{})
	done := func(*element.VU) {
		select {
		case ended <- struct{}{}:
		case <-soft.Done():
		}
	}
	w := newWaiter(soft)
	t0 := time.Now()
	end := t0.Add(time.Duration(sched.total * float64(time.Second)))
	var queue []time.Time // arrivals due and not begun, in order
	seg := gr.segment()
	var j int64 // arrivals so far: a split run's segment takes those it owns
	next, more := gen.next()
	for soft.Err() == nil {
		// threads that ended
		for drained := false; !drained; {
			select {
			case <-ended:
				running--
			default:
				drained = true
			}
		}
		now := time.Now()
		for more && !t0.Add(secs(next)).After(now) {
			if seg.Owns(j) {
				queue = append(queue, t0.Add(secs(next)))
				stats.due.Add(1)
			}
			j++
			next, more = gen.next()
		}
		limit, change := limits.at(now.Sub(t0).Seconds())
		if seg.Split() && limit > 0 && limit < math.MaxInt {
			limit = int(max(seg.Of(int64(limit)), 1))
		}
		for len(queue) > 0 && running < limit {
			due := queue[0]
			queue = queue[1:]
			running++
			l.start(end, func(th *thread.Thread) {
				th.StartIteration(due)
				stats.begin(th.Lag)
			}, done)
		}
		if !now.Before(end) {
			break
		}
		wake := end
		if more {
			wake = minTime(wake, t0.Add(secs(next)))
		}
		if len(queue) > 0 && !math.IsInf(change, 1) {
			wake = minTime(wake, t0.Add(secs(change)))
		}
		w.t.Reset(max(time.Until(wake), 0))
		select {
		case <-w.t.C:
		case <-ended:
			w.t.Stop()
			running--
		case <-soft.Done():
			w.t.Stop()
		}
	}
	stats.dropped.Add(int64(len(queue)))
	if soft.Err() == nil {
		gr.el.Abort(errScheduleEnded)
	}
	go func() {
		for range ended {
		}
	}()
	l.wg.Wait()
	close(ended)
}

// errScheduleEnded is the cause when a group's schedule is over: gojm's
// own abort of the requests still running, as JMeter interrupts them.
var errScheduleEnded = &element.ClientAbort{Reason: "the Open Model schedule ended"}

func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// openLimits is the concurrency cap over time: limit[i] from from[i] seconds.
type openLimits struct {
	from  []float64
	limit []int
}

func (s *openSchedule) limits() openLimits {
	var l openLimits
	t := 0.0
	for _, st := range s.steps {
		switch st.kind {
		case 'c':
			if n := len(l.from); n > 0 && l.from[n-1] == t {
				l.limit[n-1] = int(st.value)
			} else {
				l.from = append(l.from, t)
				l.limit = append(l.limit, int(st.value))
			}
		case 'a':
			t += st.value
		}
	}
	return l
}

// at returns the cap at t seconds and when it changes next (+Inf: never).
func (l openLimits) at(t float64) (int, float64) {
	limit := math.MaxInt
	for i, from := range l.from {
		if from > t {
			return limit, from
		}
		limit = l.limit[i]
	}
	return limit, math.Inf(1)
}

// openGen yields the schedule's arrival times, in seconds from its start.
type openGen struct {
	s      *openSchedule
	rnd    *java.Random
	pos    int     // index of the current arrivals step
	offset float64 // start of the current step
	// the current step: random times sorted, or even spacing
	events     []float64
	ev         int
	even       bool
	n, count   int64
	begin, acc float64
	mean       float64
}

func newOpenGen(s *openSchedule, rnd *java.Random) *openGen {
	return &openGen{s: s, rnd: rnd, pos: -1}
}

// next returns the next arrival; false when there is none.
func (g *openGen) next() (float64, bool) {
	for {
		if g.pos >= 0 {
			if g.even && g.n < g.count {
				t := g.evenAt(g.n)
				g.n++
				return g.offset + t, true
			}
			if !g.even && g.ev < len(g.events) {
				g.ev++
				return g.offset + g.events[g.ev-1], true
			}
			g.offset += g.s.steps[g.pos].value
		}
		if !g.nextStep() {
			return 0, false
		}
	}
}

// nextStep moves to the next arrivals step and prepares its events.
func (g *openGen) nextStep() bool {
	begin := 0.0
	for i := 0; i <= g.pos && i < len(g.s.steps); i++ {
		if g.s.steps[i].kind == 'r' {
			begin = g.s.steps[i].value
		}
	}
	for {
		g.pos++
		if g.pos >= len(g.s.steps) {
			return false
		}
		st := g.s.steps[g.pos]
		if st.kind == 'r' {
			begin = st.value
		}
		if st.kind == 'a' {
			break
		}
	}
	end := begin
	if g.pos+1 < len(g.s.steps) && g.s.steps[g.pos+1].kind == 'r' {
		end = g.s.steps[g.pos+1].value
	}
	dur := g.s.steps[g.pos].value
	g.even = g.s.steps[g.pos].even
	if g.even {
		g.prepareEven(begin, end, dur)
	} else {
		g.prepareRandom(begin, end, dur)
	}
	return true
}

// prepareEven spaces floor(mean rate × duration) arrivals so that the
// rate goes from begin to end; the first is at the step's start.
func (g *openGen) prepareEven(begin, end, dur float64) {
	g.begin = begin
	g.mean = (begin + end) / 2
	g.count = int64(g.mean * dur)
	g.n = 0
	g.acc = 0
	if math.Abs(end-begin) >= 0.0001*g.mean {
		g.acc = (end - begin) / dur
	}
}

func (g *openGen) evenAt(n int64) float64 {
	switch {
	case n == 0:
		return 0
	case g.acc == 0:
		return float64(n) / g.mean
	}
	return (math.Sqrt(g.begin*g.begin+2*g.acc*float64(n)) - g.begin) / g.acc
}

// prepareRandom draws floor(mean rate × duration) arrivals: uniformly for
// the constant part, and with a linear density for the ramp above it.
func (g *openGen) prepareRandom(begin, end, dur float64) {
	low := min(begin, end)
	n := int((begin + end) / 2 * dur)
	flat := int(low * dur)
	g.events = g.events[:0]
	if low > 0 {
		for range flat {
			g.events = append(g.events, g.rnd.NextDouble()*dur)
		}
	}
	if left := n - flat; begin != end && left != 0 {
		for range left {
			t := math.Sqrt(g.rnd.NextDouble())
			if begin > end {
				t = 1 - t
			}
			g.events = append(g.events, t*dur)
		}
	}
	slices.Sort(g.events)
	g.ev = 0
}

// parseOpenSchedule parses the Open Model schedule language.
func parseOpenSchedule(src string) (*openSchedule, error) {
	if n, err := strconv.Atoi(strings.TrimSpace(src)); err == nil {
		// JMeter's undocumented "validation" form: N arrivals in a second,
		// then an hour for them to end.
		r := float64(n)
		return newOpenSchedule([]openStep{{'r', r, false}, {'a', 1, true}, {'r', r, false}, {'r', 0, false}, {'a', 3600, true}}), nil
	}
	toks, err := openTokens(src)
	if err != nil {
		return nil, err
	}
	p := &openParser{src: src, toks: toks}
	return p.parse()
}

func newOpenSchedule(steps []openStep) *openSchedule {
	s := &openSchedule{steps: steps}
	for _, st := range steps {
		if st.kind == 'a' {
			s.total += st.value
		}
	}
	return s
}

type openToken struct {
	pos  int
	kind byte // 'i' identifier, 'n' number, or the character ( ) /
	text string
}

// openTokens splits a schedule into tokens, skipping spaces and comments.
func openTokens(src string) ([]openToken, error) {
	var out []openToken
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case strings.HasPrefix(src[i:], "/*"):
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				return nil, scheduleError(src, i, "unclosed comment")
			}
			i += j + 4
		case strings.HasPrefix(src[i:], "//"):
			j := strings.IndexAny(src[i:], "\r\n")
			if j < 0 {
				j = len(src) - i
			}
			i += j
		case c == '(' || c == ')' || c == '/':
			out = append(out, openToken{pos: i, kind: c, text: string(c)})
			i++
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			j := i
			for j < len(src) && src[j] >= '0' && src[j] <= '9' {
				j++
			}
			if j < len(src) && src[j] == '.' && j+1 < len(src) && src[j+1] >= '0' && src[j+1] <= '9' {
				j++
				for j < len(src) && src[j] >= '0' && src[j] <= '9' {
					j++
				}
			}
			out = append(out, openToken{pos: i, kind: 'n', text: src[i:j]})
			i = j
		case c < 0x80 && unicode.IsLetter(rune(c)):
			j := i + 1
			for j < len(src) && src[j] < 0x80 && (unicode.IsLetter(rune(src[j])) || unicode.IsDigit(rune(src[j])) || src[j] == '_') {
				j++
			}
			out = append(out, openToken{pos: i, kind: 'i', text: src[i:j]})
			i = j
		default:
			return nil, scheduleError(src, i, "unexpected input")
		}
	}
	return out, nil
}

// scheduleError says where a schedule goes wrong, as JMeter's parser does.
func scheduleError(src string, pos int, msg string) error {
	end := min(pos+20, len(src))
	return fmt.Errorf("schedule: %s at position %d: '%s' in '%s'", msg, pos, src[pos:end], src)
}

type openParser struct {
	src  string
	toks []openToken
	i    int
	last float64 // the last rate set
}

func (p *openParser) tok() *openToken {
	if p.i < len(p.toks) {
		return &p.toks[p.i]
	}
	return nil
}

func (p *openParser) fail(msg string) error {
	pos := len(p.src)
	if t := p.tok(); t != nil {
		pos = t.pos
	}
	if pos >= len(p.src) {
		return fmt.Errorf("schedule: %s at the end of '%s'", msg, p.src)
	}
	return scheduleError(p.src, pos, msg)
}

func (p *openParser) expect(kind byte, what string) (*openToken, error) {
	t := p.tok()
	if t == nil || t.kind != kind {
		got := "the end"
		if t != nil {
			got = "'" + t.text + "'"
		}
		return nil, p.fail(fmt.Sprintf("expected %s, got %s", what, got))
	}
	p.i++
	return t, nil
}

func (p *openParser) parse() (*openSchedule, error) {
	var steps []openStep
	for p.tok() != nil {
		t := p.tok()
		if t.kind != 'i' {
			return nil, p.fail("unexpected input (expecting rate, concurrency, random_arrivals, even_arrivals, or pause)")
		}
		name := strings.ToLower(t.text)
		p.i++
		if _, err := p.expect('(', "'('"); err != nil {
			return nil, err
		}
		switch name {
		case "rate":
			n, err := p.number("a number for the rate")
			if err != nil {
				return nil, err
			}
			unit := 1.0
			if !(n == 0 && p.tok() != nil && p.tok().kind == ')') {
				if t := p.tok(); t != nil && (t.kind == '/' || t.kind == 'i' && strings.EqualFold(t.text, "per")) {
					p.i++
				} else {
					return nil, p.fail("expected / or per after the rate (only rate(0) goes without a time unit)")
				}
				if unit, err = p.unit(); err != nil {
					return nil, err
				}
			}
			p.last = n / unit
			steps = append(steps, openStep{kind: 'r', value: p.last})
		case "concurrency":
			n, err := p.number("a whole number for concurrency")
			if err != nil {
				return nil, err
			}
			if n < 1 || n != math.Floor(n) {
				return nil, p.fail(fmt.Sprintf("concurrency must be a positive whole number, got %v", n))
			}
			steps = append(steps, openStep{kind: 'c', value: n})
		case "random_arrivals", "even_arrivals":
			d, err := p.duration()
			if err != nil {
				return nil, err
			}
			steps = append(steps, openStep{kind: 'a', value: d, even: name == "even_arrivals"})
		case "pause":
			d, err := p.duration()
			if err != nil {
				return nil, err
			}
			pause := openStep{kind: 'a', value: d, even: true}
			if p.last == 0 {
				steps = append(steps, pause, openStep{kind: 'r', value: 0})
			} else {
				last := openStep{kind: 'r', value: p.last}
				zero := openStep{kind: 'r'}
				steps = append(steps, last, zero, pause, zero, last)
			}
		default:
			p.i--
			return nil, p.fail("unexpected input (expecting rate, concurrency, random_arrivals, even_arrivals, or pause)")
		}
		if _, err := p.expect(')', "')'"); err != nil {
			return nil, err
		}
	}
	return newOpenSchedule(steps), nil
}

func (p *openParser) number(what string) (float64, error) {
	t, err := p.expect('n', what)
	if err != nil {
		return 0, err
	}
	return strconv.ParseFloat(t.text, 64)
}

// duration reads "N unit [N unit …]" (a lone 0 needs no unit), in seconds.
func (p *openParser) duration() (float64, error) {
	total := 0.0
	for {
		n, err := p.number("a number for the duration")
		if err != nil {
			return 0, err
		}
		if n == 0 && p.tok() != nil && p.tok().kind == ')' {
			return total, nil
		}
		unit, err := p.unit()
		if err != nil {
			return 0, err
		}
		total += n * unit
		if t := p.tok(); t == nil || t.kind != 'n' {
			return total, nil
		}
	}
}

// unit reads a time unit, in seconds.
func (p *openParser) unit() (float64, error) {
	t, err := p.expect('i', "a time unit (ms, sec, min, hour, day)")
	if err != nil {
		return 0, err
	}
	u := strings.ToLower(t.text)
	switch {
	case u == "ms":
		return 0.001, nil
	case u == "s" || strings.HasPrefix(u, "sec"):
		return 1, nil
	case u == "m" || strings.HasPrefix(u, "min"):
		return 60, nil
	case u == "h" || strings.HasPrefix(u, "hour"):
		return 3600, nil
	case u == "d" || strings.HasPrefix(u, "day"):
		return 86400, nil
	}
	p.i--
	return 0, p.fail("unexpected time unit " + t.text)
}
