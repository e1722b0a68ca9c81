package group

import (
	"sync"
	"sync/atomic"
	"time"
)

// Coordinated omission.
//
// In the arrival-rate groups (Open Model Thread Group, Arrivals and
// Free-Form Arrivals Thread Groups) each iteration has an intended start:
// the time its arrival was due. A free virtual user may pick it up later
// (every user busy up to the concurrency limit, or simply the dispatcher's
// own delay); that wait is part of what a real user would have seen, so it
// is not left out of the figures:
//
//   - the first sample an iteration hands over (and any Transaction
//     Controller sample that began with it, so encloses it) is moved back by
//     the wait: its timeStamp is when it would have started had the
//     arrival been picked up on time (its actual start minus the wait), its
//     elapsed and, when it got a response, its Latency grow by the wait;
//     its end, Connect and IdleTime are as measured;
//   - the other samples of the iteration are timed as usual (they were not
//     delayed by the tool: they followed the first one as the user's
//     script does).
//
// The JTL format is unchanged. An arrival that could not start at all (the
// concurrency limit held until the schedule ended, or the Arrivals Thread
// Group's limit was reached: JMeter drops those) is counted as dropped, per
// group, and reported by Run.Dropped and Run.Arrivals.
//
// Closed-model groups (Thread Group, Ultimate, Stepping, Concurrency) have
// no intended start: their samples are timed as measured.

// arrivalStats counts a group's arrivals: those due, those begun (late or
// not), and those dropped; delayed counts the ones that began more than a
// millisecond late, maxDelay the longest wait.
type arrivalStats struct {
	due, begun, delayed, dropped atomic.Int64
	mu                           sync.Mutex
	maxDelay, totalDelay         time.Duration
}

// begin records an arrival that a virtual user took up wait after it was due.
func (a *arrivalStats) begin(wait time.Duration) {
	a.begun.Add(1)
	if wait <= time.Millisecond {
		return
	}
	a.delayed.Add(1)
	a.mu.Lock()
	a.totalDelay += wait
	a.maxDelay = max(a.maxDelay, wait)
	a.mu.Unlock()
}

// ArrivalStatus is what an arrival-rate group did with its arrivals.
type ArrivalStatus struct {
	Group string
	// Due counts the arrivals the schedule asked for so far; Begun those
	// a virtual user took up; Dropped those that never began (the
	// concurrency limit held until the schedule ended, or was reached
	// where the group drops, as the Arrivals Thread Groups do).
	Due, Begun, Dropped int64
	// Delayed counts the arrivals that began more than 1 ms late, MaxDelay
	// and TotalDelay their longest and summed waits (included in their
	// first sample's elapsed time).
	Delayed              int64
	MaxDelay, TotalDelay time.Duration
}

// ArrivalStatus is what the group did with its arrivals so far; false
// for a group that is not arrival-rate or has not started.
func (gr *Run) ArrivalStatus() (ArrivalStatus, bool) {
	g := gr.Group
	if g.Model == nil || !g.Model.arrivalRate() || gr.prog.plan.Load() == nil {
		return ArrivalStatus{}, false
	}
	a := &gr.arrivals
	st := ArrivalStatus{Group: g.Name, Due: a.due.Load(), Begun: a.begun.Load(), Dropped: a.dropped.Load(), Delayed: a.delayed.Load()}
	a.mu.Lock()
	st.MaxDelay, st.TotalDelay = a.maxDelay, a.totalDelay
	a.mu.Unlock()
	return st, true
}
