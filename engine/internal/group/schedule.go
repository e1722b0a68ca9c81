package group

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
)

// Planned is one start a group plans: a thread's, or an arrival's.
type Planned struct {
	// At is the start, from the group's start (after the run's setUp).
	At time.Duration
	// Thread is the thread's name; "" for an arrival of an arrival-rate
	// group, which the group's next free thread takes.
	Thread string
	// Arrival numbers an arrival in the whole run, from 1.
	Arrival int64
}

// Schedule is what the group plans to start in this segment of the run,
// worked out without running anything: each thread's name and start,
// each arrival's instant, in order of start, at most max of them (more
// reports that the list was cut). A group whose numbers are known only
// during the run (a target a function sets each second) is planned from
// their first values.
func (gr *Run) Schedule(base *element.VU, max int) (planned []Planned, more bool, err error) {
	emit := func(p Planned) bool {
		if len(planned) == max {
			more = true
			return false
		}
		planned = append(planned, p)
		return true
	}
	seg := gr.segment()
	if m := gr.Group.Model; m != nil {
		err = m.starts(gr, gr.groupVU(base, nil, nil), seg.Owns, emit)
		return planned, more, err
	}
	s, _ := gr.Group.evaluate(base)
	if gr.Group.noSchedule(s) != "" {
		return nil, false, nil // JMeter starts none of the group's threads
	}
	start := time.Duration(max64(s.delayMs, 0)) * time.Millisecond
	if !gr.Group.DelayedStart {
		perThread := int64(float32(s.rampMs)/float32(s.threads) + 0.5)
		for i := 0; i < s.threads; i++ {
			if seg.Owns(int64(i)) && !emit(Planned{At: start + time.Duration(perThread*int64(i))*time.Millisecond, Thread: gr.threadName(i + 1)}) {
				break
			}
		}
		return planned, more, nil
	}
	// With delayed creation JMeter spaces each start over what is left of
	// the ramp-up: planned as if every start took no time.
	var at int64
	for i := 0; i < s.threads; i++ {
		if i > 0 {
			at += max64(int64(float32(float64(s.rampMs-at)/float64(s.threads-i))+0.5), 0)
		}
		if gr.Group.Scheduler && at > s.duration {
			break
		}
		if seg.Owns(int64(i)) && !emit(Planned{At: start + time.Duration(at)*time.Millisecond, Thread: gr.threadName(i + 1)}) {
			break
		}
	}
	return planned, more, nil
}

func max64(a, b int64) int64 { return max(a, b) }

// threadName is the name of the group's thread num.
func (gr *Run) threadName(num int) string {
	g := gr.Group
	name := g.Name + " " + strconv.Itoa(g.Index) + "-" + strconv.Itoa(num)
	if gr.run != nil {
		name = gr.run.ThreadPrefix + name
	}
	return name
}

// String writes a planned start as gojm validate --schedule lists it:
// the start in seconds, then the thread or the arrival.
func (p Planned) String() string {
	s := "+" + strconv.FormatFloat(p.At.Seconds(), 'f', 3, 64) + "s "
	if p.Thread != "" {
		return s + p.Thread
	}
	return s + "arrival " + strconv.FormatInt(p.Arrival, 10)
}

// starts lists a scheduled model's threads by their start.
func (m *scheduledModel) starts(gr *Run, base *element.VU, owns func(int64) bool, emit func(Planned) bool) error {
	n := &numbers{vu: base, path: gr.Group.Path}
	spans := m.spans(n)
	if err := n.err(); err != nil {
		return err
	}
	var order []int
	for i := range spans {
		if owns(int64(i)) {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(spans[a].start, spans[b].start) })
	for _, i := range order {
		if !emit(Planned{At: spans[i].start, Thread: gr.threadName(i + 1)}) {
			break
		}
	}
	return nil
}

// starts lists a Concurrency group's thread slots by the instant the
// target first reaches them: slot k is the run's thread k+1.
func (m *concurrencyModel) starts(gr *Run, base *element.VU, owns func(int64) bool, emit func(Planned) bool) error {
	n := &numbers{vu: base, path: gr.Group.Path}
	p := m.f.eval(n, false, false)
	if err := n.err(); err != nil {
		return err
	}
	if n.stops {
		return nil // the plugin fails as the group starts
	}
	var slots int64
	for t := 0.0; ; {
		planned := p.planned(t)
		if planned < 0 {
			return nil
		}
		for ; slots < planned; slots++ {
			if owns(slots) && !emit(Planned{At: time.Duration(math.Ceil(t*1000)) * time.Millisecond, Thread: gr.threadName(int(slots) + 1)}) {
				return nil
			}
		}
		next := p.nextChange(t)
		if next <= t {
			return nil
		}
		t = next
	}
}

// starts lists an Arrivals group's arrivals.
func (m *arrivalsModel) starts(gr *Run, base *element.VU, owns func(int64) bool, emit func(Planned) bool) error {
	n := &numbers{vu: base, path: gr.Group.Path}
	p, rows, _ := m.eval(n)
	if err := n.err(); err != nil {
		return err
	}
	times := m.times(p, rows)
	for j := int64(0); ; j++ {
		off, ok := times.next()
		if !ok {
			return nil
		}
		if owns(j) && !emit(Planned{At: off, Arrival: j + 1}) {
			return nil
		}
	}
}

// starts lists an Open Model group's arrivals.
func (m *openModel) starts(gr *Run, base *element.VU, owns func(int64) bool, emit func(Planned) bool) error {
	sched, rnd, err := m.read(gr, base)
	if err != nil {
		return err
	}
	gen := newOpenGen(sched, &rnd)
	for j := int64(0); ; j++ {
		at, more := gen.next()
		if !more {
			return nil
		}
		if owns(j) && !emit(Planned{At: time.Duration(at * float64(time.Second)), Arrival: j + 1}) {
			return nil
		}
	}
}
