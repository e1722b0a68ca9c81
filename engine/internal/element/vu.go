package element

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"log/slog"
)

// VU is one virtual user (a JMeter thread) as its elements see it: its
// variables, random source, place in its group and run, the sample being
// made. It belongs to one goroutine, so nothing in it is locked; what an
// element keeps per user is a Local, never a field of VU.
type VU struct {
	Plan  *Plan
	Group *Group
	Run   *Run
	// Num is the thread's number within its group, from 1 (__threadNum).
	Num int
	// Name is the JMeter thread name, e.g. "Thread Group 1-1".
	Name string
	Vars *Vars
	// SamplerName is the sampler being run (__samplerName).
	SamplerName string
	// Iteration counts the thread group's loop iterations, from 1.
	Iteration int
	Rand      *rand.Rand
	// Res is the sample being made; reused.
	Res Result
	// Soft ends when the user must start nothing new; Hard when what runs
	// must be aborted.
	Soft, Hard context.Context
	// StopAt is the scheduler's end; zero when none.
	StopAt time.Time
	Log    *slog.Logger

	stopped bool // the thread ends (JMeter's running = false)
	timer   *time.Timer
	tbuf    []byte // scratch space for template evaluation
	// locals are the elements' per-user state (Local), by slot.
	locals []any
	// parent is the user a Parallel Controller branch runs for; forkMu
	// is the parent's, for its branches to take its Local values.
	parent *VU
	forkMu sync.Mutex
	// onIter run when the user starts a new iteration of its group (after
	// the first), onEnd when it ends: hooks of its elements' Local state.
	onIter, onEnd []func(*VU)
}

// NewVU returns user num of group g in run r (nil while the plan
// compiles), called name, whose contexts are soft and hard.
func NewVU(p *Plan, g *Group, r *Run, num int, name string, soft, hard context.Context) *VU {
	vu := &VU{Plan: p, Group: g, Run: r, Num: num, Name: name, Vars: NewVars(p.syms),
		Soft: soft, Hard: hard, Log: p.Log, locals: make([]any, p.nlocals)}
	if r != nil {
		vu.Rand = r.Rand(num)
	} else {
		vu.Rand = rand.New(rand.NewPCG(1, 2))
	}
	return vu
}

// Fork makes a virtual user for a Parallel Controller's branch: the same
// user (number, group, run), with variables, a random source and element
// state of its own; a Local with Fork set derives its value from vu's.
func (vu *VU) Fork() *VU {
	return &VU{
		Plan: vu.Plan, Group: vu.Group, Run: vu.Run, Num: vu.Num,
		Vars:   NewVars(vu.Plan.syms),
		Rand:   vu.Run.Rand(vu.Num),
		locals: make([]any, vu.Plan.nlocals),
		parent: vu,
		Log:    vu.Log,
	}
}

// Branch makes vu, a Parallel Controller's branch, ready for a run of
// its branch by its user.
func (vu *VU) Branch() {
	p := vu.parent
	vu.Vars.CopyFrom(p.Vars)
	vu.Iteration = p.Iteration
	vu.Soft, vu.Hard, vu.StopAt = p.Soft, p.Hard, p.StopAt
	vu.stopped = false
}

// OnIteration has f called when the user starts each later iteration of
// its group, as JMeter tells its test iteration listeners.
func (vu *VU) OnIteration(f func(*VU)) { vu.onIter = append(vu.onIter, f) }

// AtEnd has f called when the user's thread ends.
func (vu *VU) AtEnd(f func(*VU)) { vu.onEnd = append(vu.onEnd, f) }

// NextIteration counts the user's new iteration of its group, telling
// the hooks of OnIteration from the second one on.
func (vu *VU) NextIteration() {
	vu.Iteration++
	vu.Group.Iterations.Add(1)
	if vu.Iteration > 1 {
		for _, f := range vu.onIter {
			f(vu)
		}
	}
}

// End tells the hooks of AtEnd that the user's thread ended.
func (vu *VU) End() {
	for _, f := range vu.onEnd {
		f(vu)
	}
}

// Running reports whether the thread goes on (JMeter's running flag):
// neither it nor the run has been stopped.
func (vu *VU) Running() bool { return !vu.stopped && vu.Soft.Err() == nil }

// StopThread ends the thread after what it is doing.
func (vu *VU) StopThread() { vu.stopped = true }

// Stopped reports whether the thread was stopped.
func (vu *VU) Stopped() bool { return vu.stopped }

// Details reports whether samples carry their report.Detail (a results
// file saves headers or data).
func (vu *VU) Details() bool { return vu.Run != nil && vu.Run.Detail }

// Now is the virtual user's clock.
func (vu *VU) Now() time.Time { return time.Now() }

// SchedulerEnded reports whether the scheduler's end time has come.
func (vu *VU) SchedulerEnded() bool {
	return !vu.StopAt.IsZero() && !vu.Now().Before(vu.StopAt)
}

// Pause sleeps d, no further than the scheduler's end time (a Flow
// Control Action's pause).
func (vu *VU) Pause(d time.Duration) {
	if !vu.StopAt.IsZero() {
		if left := vu.StopAt.Sub(vu.Now()); d > left {
			d = left
		}
	}
	vu.Sleep(d)
}

// Sleep waits d; it returns false when the run stopped meanwhile.
func (vu *VU) Sleep(d time.Duration) bool {
	if d <= 0 {
		return vu.Soft.Err() == nil
	}
	if vu.timer == nil {
		vu.timer = time.NewTimer(d)
	} else {
		vu.timer.Reset(d)
	}
	select {
	case <-vu.timer.C:
		return true
	case <-vu.Soft.Done():
		vu.timer.Stop()
		return false
	}
}

// Timer returns the user's timer, stopped, for a wait of the element's
// own (a Synchronizing Timer's); one timer serves all the user's waits.
func (vu *VU) Timer() *time.Timer {
	if vu.timer == nil {
		vu.timer = time.NewTimer(time.Hour)
		vu.timer.Stop()
	}
	return vu.timer
}

// Warnf logs a warning of the user's.
func (vu *VU) Warnf(format string, args ...any) {
	vu.Log.Warn(fmt.Sprintf(format, args...), "thread", vu.Name)
}

// SetLastOK sets JMeterThread.last_sample_ok.
func (vu *VU) SetLastOK(ok bool) {
	if ok {
		vu.Vars.PutSlot(vu.Plan.lastOK, "true")
	} else {
		vu.Vars.PutSlot(vu.Plan.lastOK, "false")
	}
}

// LastSampleOK is JMeterThread.last_sample_ok == "true", as the thread
// loop reads it.
func (vu *VU) LastSampleOK() bool {
	s, _ := vu.Vars.Slot(vu.Plan.lastOK)
	return s == "true"
}

// LastSampleFailed reads JMeterThread.last_sample_ok as JMeter's
// controllers do: only the text "false", in any case, is a failure.
func (vu *VU) LastSampleFailed() bool {
	s, _ := vu.Vars.Slot(vu.Plan.lastOK)
	return strings.EqualFold(s, "false")
}

// SampleVars are the values of the sample_variables property's variables
// when a sample is handed over ("null" for one not set, as JMeter writes
// it).
func (vu *VU) SampleVars() []string {
	names := vu.Plan.SampleVars
	if len(names) == 0 {
		return nil
	}
	vals := make([]string, len(names))
	for i, n := range names {
		v, ok := vu.Vars.Get(n)
		if !ok {
			v = "null"
		}
		vals[i] = v
	}
	return vals
}
