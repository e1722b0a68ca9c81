package group

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/thread"
	"github.com/gojm/gojm/jmx"
)

// Thread groups beyond JMeter's own: the jmeter-plugins load shapes
// (Ultimate, Stepping, Concurrency, Arrivals, Free-Form Arrivals) and
// JMeter's Open Model Thread Group. They compile like a Thread Group (the
// same children, scope and on-error setting); what differs is when their
// virtual users start and stop, which a Model decides when the group
// runs. Every numeric field may hold ${…}: it is compiled once and
// evaluated when the group starts (with the plan's user-defined variables
// and the properties), as JMeter reads them then.

// Model starts and stops a group's virtual users.
type Model interface {
	// run starts the group's users and returns when they have all ended.
	run(gr *Run, base *element.VU, soft, hard context.Context)
	// arrivalRate reports whether the group starts iterations on a
	// schedule of arrivals (an open model), whose samples are timed from
	// each arrival's intended start.
	arrivalRate() bool
	// starts lists the starts run would make (Run.Schedule): those of
	// the threads or arrivals owns says are this segment's, until emit
	// returns false.
	starts(gr *Run, base *element.VU, owns func(int64) bool, emit func(Planned) bool) error
	// check evaluates the model's fields into n, for what it reads
	// leniently (Group.Notes).
	check(n *numbers)
}

// contexts gives the group contexts of its own below the run's, so that
// it can be stopped alone (a Throughput Shaping Timer at the end of its
// schedule, an Open Model group at the end of its own); the returned
// function releases them.
func (gr *Run) contexts(soft, hard context.Context) (context.Context, context.Context, func()) {
	hard, abort := context.WithCancelCause(hard)
	soft, stop := context.WithCancelCause(soft)
	both := func(cause error) { stop(cause); abort(cause) }
	gr.el.SetStops(func(cause error) { stop(cause) }, both)
	return soft, hard, func() { both(nil) }
}

// launcher starts a group's virtual users and waits for them.
type launcher struct {
	g          *Run
	base       *element.VU
	soft, hard context.Context
	threads    int // the group's thread count as the users see it (Synchronizing Timer)
	wg         sync.WaitGroup
	n          int // users started so far
}

// start starts the next virtual user (numbered from 1); before runs in
// its goroutine first, after once it has ended.
func (l *launcher) start(stopAt time.Time, before func(th *thread.Thread), after func(vu *element.VU)) *element.VU {
	l.n++
	// The segment's n-th user is the run's user Nth(n-1)+1: numbers stay
	// unique across the segments of a split run.
	return l.startNum(int(l.g.segment().Nth(int64(l.n-1)))+1, stopAt, before, after)
}

// startNum starts virtual user num.
func (l *launcher) startNum(num int, stopAt time.Time, before func(th *thread.Thread), after func(vu *element.VU)) *element.VU {
	vu := l.g.NewVU(num, l.soft, l.hard)
	vu.Vars.CopyFrom(l.base.Vars)
	vu.StopAt = stopAt
	th := thread.New(vu, l.g.Group.MainLoop, l.g.Group.Ctls)
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		if before != nil {
			before(th)
		}
		th.Run()
		if after != nil {
			after(vu)
		}
	}()
	return vu
}

// waiter sleeps until a time unless the group is stopped.
type waiter struct {
	t    *time.Timer
	soft context.Context
}

func newWaiter(soft context.Context) *waiter {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &waiter{t: t, soft: soft}
}

// until waits until at (or until wake, when not nil, receives); it reports
// whether the group is still running.
func (w *waiter) until(at time.Time, wake <-chan struct{}) bool {
	if d := time.Until(at); d > 0 {
		w.t.Reset(d)
		select {
		case <-w.t.C:
		case <-wake:
			w.t.Stop()
		case <-w.soft.Done():
			w.t.Stop()
		}
	} else if wake != nil {
		select {
		case <-wake:
		default:
		}
	}
	return w.soft.Err() == nil
}

// groupVU is the virtual user a model evaluates its fields with and
// copies its users' variables from: its own copy of the run's base user,
// so that groups starting together share nothing.
func (gr *Run) groupVU(base *element.VU, soft, hard context.Context) *element.VU {
	vu := gr.NewVU(0, soft, hard)
	vu.Vars.CopyFrom(base.Vars)
	return vu
}

// beginProgress records the group's plan for Run.Groups.
func beginProgress(g *Run, base *element.VU, threads int, d time.Duration) {
	g.el.Threads = threads
	g.prog.begin(g.Group, settings{threads: threads}, base)
	if gp := g.prog.plan.Load(); gp != nil {
		p := *gp
		p.duration = d
		g.prog.plan.Store(&p)
	}
}

// threadSpan is one scheduled thread's start and end, from the group's start.
type threadSpan struct {
	start, end time.Duration
}

// scheduledModel runs a fixed set of threads, each from its start to its
// end time (JMeter's scheduler end: checked after each sample, and no
// timer sleeps past it), as the Ultimate and Stepping Thread Groups do.
type scheduledModel struct {
	spans func(n *numbers) []threadSpan
}

func (*scheduledModel) arrivalRate() bool { return false }

func (m *scheduledModel) check(n *numbers) { m.spans(n) }

func (m *scheduledModel) run(gr *Run, base *element.VU, soft, hard context.Context) {
	base = gr.groupVU(base, soft, hard)
	n := &numbers{vu: base, path: gr.Group.Path}
	spans := m.spans(n)
	gr.Group.warnNotes(base, n.notes)
	if err := n.err(); err != nil {
		gr.fail(err)
		return
	}
	var last time.Duration
	for _, s := range spans {
		last = max(last, s.end)
	}
	beginProgress(gr, base, len(spans), last)
	defer gr.prog.ended.Store(true)
	seg := gr.segment()
	var order []int // the threads this segment owns, by start
	for i := range spans {
		if seg.Owns(int64(i)) {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return int(spans[a].start - spans[b].start) })
	l := &launcher{g: gr, base: base, soft: soft, hard: hard, threads: int(seg.Of(int64(len(spans))))}
	w := newWaiter(soft)
	t0 := time.Now()
	for _, i := range order {
		if !w.until(t0.Add(spans[i].start), nil) {
			break
		}
		l.startNum(i+1, t0.Add(spans[i].end), nil, nil)
	}
	l.wg.Wait()
}

// ultimateRow is one row of an Ultimate Thread Group's schedule.
type ultimateRow [5]*element.Template

// ultimateModel reads an Ultimate Thread Group: rows of start threads,
// initial delay, startup time, hold load for, shutdown time (seconds). As
// the plugin schedules them, the threads of a row start over its startup
// time, the first one numbered last (k = n…1 of n: at delay + startup·k/n),
// hold together until delay + startup + hold, and stop over the shutdown
// time in the same order (at that point + shutdown·k/n); rows overlap
// freely. The JMeter property threads_schedule ("spawn(threads, delay,
// startup, hold, shutdown) …", times like 1m30s) replaces the rows.
func BuildUltimate(c element.Builder, e *jmx.Element, _ *Group) (Model, error) {
	data := e.Prop("ultimatethreadgroupdata")
	if data == nil || data.Kind != "collection" {
		if alt := e.Prop("threads_schedule"); alt != nil && alt.Kind == "collection" {
			data = alt // the property's old, misnamed form
		}
	}
	var rows []ultimateRow
	for i, cells := range data.Table(5) {
		if len(cells) < 5 {
			return nil, fmt.Errorf("schedule row %d has %d columns, want 5 (start threads, initial delay, startup time, hold load for, shutdown time)", i+1, len(cells))
		}
		var r ultimateRow
		for j := range r {
			r[j] = c.Template(e, fmt.Sprintf("schedule row %d", i+1), cells[j].Value)
		}
		rows = append(rows, r)
	}
	return &scheduledModel{spans: func(n *numbers) []threadSpan {
		var vals [][5]int64
		if p, ok := n.vu.Plan.Props.Get("threads_schedule"); ok && strings.TrimSpace(p) != "" {
			for _, r := range spawnRows(n, "threads_schedule", p, 5) {
				vals = append(vals, [5]int64(r))
			}
		} else {
			for i, r := range rows {
				var v [5]int64
				for j := range v {
					v[j] = n.asInt(fmt.Sprintf("row %d %s", i+1, ultimateFields[j].name), r[j], 0, ultimateFields[j].zero)
				}
				vals = append(vals, v)
			}
		}
		return ultimateSpans(vals)
	}}, nil
}

// ultimateFields are the columns of an Ultimate Thread Group's row, and
// what a cell the plugin reads as 0 means.
var ultimateFields = [5]struct{ name, zero string }{
	{"start threads", "and a row of 0 threads still runs one thread on its times, which the last rows then lack, as the plugin schedules"},
	{"initial delay", "no delay"},
	{"startup time", "so the row's threads start at once"},
	{"hold load for", "no time"},
	{"shutdown time", "so the row's threads stop at once"},
}

// ultimateSpans computes the Ultimate Thread Group's threads from its rows
// as the plugin schedules them: the group has as many threads as the rows'
// start threads add up to, and each takes its times from the row in use,
// the next one once the row's count is used up. A row of 0 threads is used
// up by one thread (which runs on the row's times, from its initial delay
// to the end of its hold): that thread is one the last rows then lack.
func ultimateSpans(rows [][5]int64) []threadSpan {
	var total int64
	for _, r := range rows {
		total += r[0]
	}
	var out []threadSpan
	var r [5]int64
	left := int64(0) // the row's threads still to schedule, counting down
	for next := 0; int64(len(out)) < total; {
		if left < 1 {
			if next == len(rows) {
				break
			}
			r, next = rows[next], next+1
			left = r[0]
		}
		threads, delay, startup, hold, shutdown := r[0], r[1], r[2], r[3], r[4]
		// k/n of the row's times: NaN for a row of 0 threads, which Java's
		// (int) cast makes 0
		part := func(secs int64) time.Duration {
			v := math.Floor(float64(1000*secs) * float64(left) / float64(threads))
			if math.IsNaN(v) {
				v = 0
			}
			return time.Duration(v) * time.Millisecond
		}
		ascent := time.Duration(delay) * time.Second
		descent := ascent + time.Duration(startup+hold)*time.Second
		out = append(out, threadSpan{start: ascent + part(startup), end: descent + part(shutdown)})
		left--
	}
	return out
}

// spawnRows parses the plugins' schedule properties: "spawn(a, b, …)"
// chunks of cols numbers, the first a whole number (Integer.parseInt), the
// others times as seconds or with units (1h2m3s); the Free-Form group's
// (cols 3) reads its second with Integer.parseInt too, untrimmed. As in the
// plugins, a chunk they cannot read is left out, with a note.
func spawnRows(n *numbers, prop, s string, cols int) [][]int64 {
	var rows [][]int64
	for _, chunk := range strings.Split(s, ")") {
		if strings.TrimSpace(chunk) == "" {
			continue
		}
		row, err := spawnRow(chunk, cols)
		if err != nil {
			n.notes = append(n.notes, fmt.Sprintf("property %s: %q is left out, as the plugin does: %v", prop, strings.TrimSpace(chunk)+")", err))
			continue
		}
		rows = append(rows, row)
	}
	return rows
}

func spawnRow(chunk string, cols int) ([]int64, error) {
	parts := strings.FieldsFunc(chunk, func(r rune) bool { return r == '(' || r == ',' })
	if len(parts) < cols+1 || !strings.EqualFold(strings.TrimSpace(parts[0]), "spawn") {
		return nil, fmt.Errorf("it is not spawn(…) with %d values", cols)
	}
	row := make([]int64, cols)
	for i, p := range parts[1 : cols+1] {
		var err error
		switch {
		case i == 0 || i == 1 && cols == 3:
			if i == 0 {
				p = strings.TrimSpace(p)
			}
			v, ok := javaNumber(p, 32)
			if !ok {
				err = fmt.Errorf("%q is not a whole number", p)
			}
			row[i] = v
		default:
			row[i], err = element.PluginSeconds(p)
		}
		if err != nil {
			return nil, err
		}
	}
	return row, nil
}

// steppingModel reads a Stepping Thread Group: after "Threads initial
// delay", "Start users count" threads start every "Start users period"
// seconds, each batch spread over "rampUp" seconds ("Start users count
// burst" threads first, at once when set); all hold for "flighttime"
// seconds after the last has started, then "Stop users count" threads stop
// every "Stop users period" seconds. The times are the plugin's, thread by
// thread.
func BuildStepping(c element.Builder, e *jmx.Element, _ *Group) (Model, error) {
	f := func(name string) *element.Template { return c.Prop(e, name) }
	threads, delay := f("ThreadGroup.num_threads"), f("Threads initial delay")
	inCount, inBurst, inPeriod := f("Start users count"), f("Start users count burst"), f("Start users period")
	outCount, outPeriod := f("Stop users count"), f("Stop users period")
	flight, ramp := f("flighttime"), f("rampUp")
	return &scheduledModel{spans: func(n *numbers) []threadSpan {
		// getPropertyAsInt, every one: text that is not a whole number is 0
		p := steppingParams{
			threads:   n.asInt("number of threads", threads, 0, "so the group starts no thread"),
			delay:     n.asInt("threads initial delay", delay, 0, "no delay"),
			inCount:   n.asInt("start users count", inCount, 0, "so every thread starts in the first batch"),
			burst:     n.asInt("start users count burst", inBurst, 0, "no burst"),
			inPeriod:  n.asInt("start users period", inPeriod, 0, "so no pause comes between batches"),
			outCount:  n.asInt("stop users count", outCount, 0, "so every thread stops at once"),
			outPeriod: n.asInt("stop users period", outPeriod, 0, "so the threads stop at once"),
			flight:    n.asInt("flight time", flight, 0, "so the load is held for no time"),
			ramp:      n.asInt("ramp-up", ramp, 0, "so each batch's threads start at once"),
		}
		return p.spans()
	}}, nil
}

type steppingParams struct {
	threads, delay, inCount, burst, inPeriod, outCount, outPeriod, flight, ramp int64
}

// spans computes each thread's start and end in milliseconds, as the
// Stepping Thread Group does (integer arithmetic included).
func (p steppingParams) spans() []threadSpan {
	n := p.threads
	if n <= 0 {
		return nil
	}
	in, out := p.inCount, p.outCount
	if in == 0 {
		in = n
	}
	if out == 0 {
		out = n
	}
	burst := min(p.burst, n)
	if burst <= 0 {
		burst = in
	}
	ascent := 1000 * p.delay
	iterDur := 1000*p.inPeriod + 1000*p.ramp
	iterTotal := int64(1)
	if n >= burst {
		iterTotal = int64(math.Ceil(float64(n-burst) / float64(in)))
	}
	lastCount := (n - burst) % in
	if lastCount == 0 {
		lastCount = in
	}
	descent := ascent + iterTotal*iterDur + (1000*p.ramp/in)*lastCount + 1000*p.flight
	out2 := make([]threadSpan, n)
	for t := int64(0); t < n; t++ {
		bucket, bucketCount, pos := int64(0), burst, t
		if t >= burst {
			bucket, bucketCount, pos = 1+(t-burst)/in, in, (t-burst)%in
		}
		start := ascent + bucket*iterDur + pos*(1000*p.ramp/bucketCount)
		end := descent + 1000*p.outPeriod*(t/out)
		out2[t] = threadSpan{start: time.Duration(start) * time.Millisecond, end: time.Duration(end) * time.Millisecond}
	}
	return out2
}
