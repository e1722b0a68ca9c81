package engine

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/gojm/gojm/engine/httpx"
	"github.com/gojm/gojm/report"
)

// VU is one virtual user (a JMeter thread): a goroutine with its own
// variables, HTTP client, random source and per-node memory. Nothing in it
// is shared, so nothing in it is locked.
type VU struct {
	Plan  *Plan
	group *group
	Group *groupRun // the group in this run
	// Num is the thread's number within its group, from 1 (__threadNum).
	Num int
	// Name is the JMeter thread name, e.g. "Thread Group 1-1".
	Name string
	Vars *Vars
	// SamplerName is the sampler being run (__samplerName).
	SamplerName string
	// Iteration counts the thread group's loop iterations, from 1.
	Iteration int

	Rand *rand.Rand
	// locals are the elements' per-user state (Local), by slot.
	locals []any
	// parent is the user a Parallel Controller branch runs for; forkMu
	// is the parent's, for its branches to take its Local values.
	parent *VU
	forkMu sync.Mutex
	tbuf   []byte // scratch space for template evaluation
	Res    Result // the sample being made; reused

	// onIter run when the user starts a new iteration of its group (after
	// the first), onEnd when it ends: hooks of its elements' Local state.
	onIter, onEnd []func(*VU)

	Run        *Run
	Soft, Hard context.Context // soft: start nothing new; hard: abort what runs
	StopAt     time.Time       // scheduler end; zero when none
	timer      *time.Timer
	Log        *slog.Logger

	stopped bool // the thread ends (JMeter's running = false)
}

// result is a sample being made, with what post-processors and assertions
// may look at besides the JTL row.
type Result struct {
	report.Sample
	Body    []byte
	Head    httpx.Head // the response header, when the sample has one
	ReqHead string
	// samplerData is what the sampler says it sent, for XML results
	// (JMeter's samplerData); "" for none.
	SamplerData string
	// msgSet records that an assertion has set the failure message: the
	// JTL keeps the first one set, even an empty one.
	MsgSet bool
	// none: the sampler made no sample (a Flow Control Action); ignore: a
	// post-processor asked that the sample be dropped.
	None, Ignore bool
	// next is what the sample asks of the thread (a Result Status Action
	// Handler, a script, a Flow Control Action).
	Next Next
}

// fork makes a virtual user for a Parallel Controller's branch: the same
// user (number, group, run), with variables, a random source and element
// state of its own; a Local with Fork set derives its value from vu's.
func (vu *VU) Fork() *VU {
	return &VU{
		Plan: vu.Plan, group: vu.group, Group: vu.Group, Run: vu.Run, Num: vu.Num,
		Vars:   newVars(vu.Plan.syms),
		Rand:   vu.Run.newRand(vu.Num),
		locals: make([]any, vu.Plan.nlocals),
		parent: vu,
		Log:    vu.Log,
	}
}

// onIteration has f called when the user starts each later iteration of
// its group, as JMeter tells its test iteration listeners.
func (vu *VU) OnIteration(f func(*VU)) { vu.onIter = append(vu.onIter, f) }

// atEnd has f called when the user's thread ends.
func (vu *VU) AtEnd(f func(*VU)) { vu.onEnd = append(vu.onEnd, f) }

// running reports whether the thread goes on (JMeter's running flag):
// neither it nor the run has been stopped.
func (vu *VU) Running() bool { return !vu.stopped && vu.Soft.Err() == nil }

// stopThread ends the thread after what it is doing.
func (vu *VU) StopThread() { vu.stopped = true }

// details reports whether samples carry their report.Detail (a results
// file saves headers or data; RunOptions.Detail).
func (vu *VU) Details() bool { return vu.Run != nil && vu.Run.detail }

// now is the virtual user's clock.
func (vu *VU) Now() time.Time { return time.Now() }

// pause sleeps d, no further than the scheduler's end time (a Flow Control
// Action's pause).
func (vu *VU) Pause(d time.Duration) {
	if !vu.StopAt.IsZero() {
		if left := vu.StopAt.Sub(vu.Now()); d > left {
			d = left
		}
	}
	vu.Sleep(d)
}

// sleep waits d; it returns false when the run stopped meanwhile.
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

func (vu *VU) Warnf(format string, args ...any) {
	vu.Log.Warn(fmt.Sprintf(format, args...), "thread", vu.Name)
}
