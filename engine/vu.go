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
	plan  *Plan
	group *group
	grun  *groupRun // the group in this run
	// Num is the thread's number within its group, from 1 (__threadNum).
	Num int
	// Name is the JMeter thread name, e.g. "Thread Group 1-1".
	Name string
	Vars *Vars
	// SamplerName is the sampler being run (__samplerName).
	SamplerName string
	// Iteration counts the thread group's loop iterations, from 1.
	Iteration int

	rng *rand.Rand
	// locals are the elements' per-user state (Local), by slot.
	locals []any
	// parent is the user a Parallel Controller branch runs for; forkMu
	// is the parent's, for its branches to take its Local values.
	parent *VU
	forkMu sync.Mutex
	tbuf   []byte // scratch space for template evaluation
	res    result // the sample being made; reused

	// onIter run when the user starts a new iteration of its group (after
	// the first), onEnd when it ends: hooks of its elements' Local state.
	onIter, onEnd []func(*VU)

	run        *Run
	soft, hard context.Context // soft: start nothing new; hard: abort what runs
	stopAt     time.Time       // scheduler end; zero when none
	timer      *time.Timer
	log        *slog.Logger

	stopped bool // the thread ends (JMeter's running = false)
}

// result is a sample being made, with what post-processors and assertions
// may look at besides the JTL row.
type result struct {
	report.Sample
	body    []byte
	head    httpx.Head // the response header, when the sample has one
	reqHead string
	// samplerData is what the sampler says it sent, for XML results
	// (JMeter's samplerData); "" for none.
	samplerData string
	// msgSet records that an assertion has set the failure message: the
	// JTL keeps the first one set, even an empty one.
	msgSet bool
	// none: the sampler made no sample (a Flow Control Action); ignore: a
	// post-processor asked that the sample be dropped.
	none, ignore bool
	// next is what the sample asks of the thread (a Result Status Action
	// Handler, a script, a Flow Control Action).
	next Next
}

// fork makes a virtual user for a Parallel Controller's branch: the same
// user (number, group, run), with variables, a random source and element
// state of its own; a Local with Fork set derives its value from vu's.
func (vu *VU) fork() *VU {
	return &VU{
		plan: vu.plan, group: vu.group, grun: vu.grun, run: vu.run, Num: vu.Num,
		Vars:   newVars(vu.plan.syms),
		rng:    vu.run.newRand(vu.Num),
		locals: make([]any, vu.plan.nlocals),
		parent: vu,
		log:    vu.log,
	}
}

// onIteration has f called when the user starts each later iteration of
// its group, as JMeter tells its test iteration listeners.
func (vu *VU) onIteration(f func(*VU)) { vu.onIter = append(vu.onIter, f) }

// atEnd has f called when the user's thread ends.
func (vu *VU) atEnd(f func(*VU)) { vu.onEnd = append(vu.onEnd, f) }

// running reports whether the thread goes on (JMeter's running flag):
// neither it nor the run has been stopped.
func (vu *VU) running() bool { return !vu.stopped && vu.soft.Err() == nil }

// stopThread ends the thread after what it is doing.
func (vu *VU) stopThread() { vu.stopped = true }

// details reports whether samples carry their report.Detail (a results
// file saves headers or data; RunOptions.Detail).
func (vu *VU) details() bool { return vu.run != nil && vu.run.detail }

// now is the virtual user's clock.
func (vu *VU) now() time.Time { return time.Now() }

// pause sleeps d, no further than the scheduler's end time (a Flow Control
// Action's pause).
func (vu *VU) pause(d time.Duration) {
	if !vu.stopAt.IsZero() {
		if left := vu.stopAt.Sub(vu.now()); d > left {
			d = left
		}
	}
	vu.sleep(d)
}

// sleep waits d; it returns false when the run stopped meanwhile.
func (vu *VU) sleep(d time.Duration) bool {
	if d <= 0 {
		return vu.soft.Err() == nil
	}
	if vu.timer == nil {
		vu.timer = time.NewTimer(d)
	} else {
		vu.timer.Reset(d)
	}
	select {
	case <-vu.timer.C:
		return true
	case <-vu.soft.Done():
		vu.timer.Stop()
		return false
	}
}

func (vu *VU) warnf(format string, args ...any) {
	vu.log.Warn(fmt.Sprintf(format, args...), "thread", vu.Name)
}
