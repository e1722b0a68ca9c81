package group

import (
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
)

// GroupStatus is a thread group's state during a run, for progress
// displays and metrics: read at any time from any goroutine.
type Status struct {
	Name  string
	Phase string // "setUp", "main" or "tearDown"
	// Begun is set once the group has started (its numbers are known);
	// Ended once all its virtual users have finished.
	Begun, Ended bool
	// Since is when the group started.
	Since time.Time
	// Threads is the number of virtual users the group starts.
	Threads int
	// Loops is each virtual user's loop count; -1 for ever (or not a number).
	Loops int
	// Duration is the scheduler's end after Since (startup delay plus
	// duration); 0 without the scheduler.
	Duration time.Duration
	// Active, Started and Finished count the group's virtual users.
	Active, Started, Finished int
	// Iterations counts the iterations its virtual users have begun.
	Iterations int64
}

// groupProgress is a group's counts, updated by its virtual users with
// atomic adds (once per virtual user start and end, and per iteration).
type groupProgress struct {
	plan  atomic.Pointer[groupPlan]
	ended atomic.Bool
}

// groupPlan is what a group set out to do, known when it starts.
type groupPlan struct {
	since    time.Time
	threads  int
	loops    int
	duration time.Duration
}

// begin records the group's evaluated numbers as it starts.
func (p *groupProgress) begin(g *Group, s settings, base *element.VU) {
	p.ended.Store(false)
	gp := &groupPlan{since: time.Now(), threads: s.threads, loops: plannedLoops(g, base)}
	if g.Scheduler {
		gp.duration = time.Duration(s.delayMs+s.duration) * time.Millisecond
	}
	p.plan.Store(gp)
}

// plannedLoops is the group's loop count, -1 when it loops for ever (or
// its main controller is not a loop).
func plannedLoops(g *Group, base *element.VU) int {
	if g.Loops == nil || g.Forever {
		return -1
	}
	n, err := strconv.Atoi(strings.TrimSpace(g.Loops.Eval(base)))
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// Status is the group's state now.
func (gr *Run) Status() Status {
	g := gr.Group
	st := Status{
		Name:   g.Name,
		Phase:  g.Phase.String(),
		Active: int(gr.el.Active.Load()),
		Loops:  -1,
	}
	if gp := gr.prog.plan.Load(); gp != nil {
		st.Begun = true
		st.Ended = gr.prog.ended.Load()
		st.Since, st.Threads, st.Loops, st.Duration = gp.since, gp.threads, gp.loops, gp.duration
		st.Started = int(gr.el.Started.Load())
		st.Finished = int(gr.el.Finished.Load())
		st.Iterations = gr.el.Iterations.Load()
	}
	return st
}
