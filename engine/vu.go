package engine

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
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
	// Num is the thread's number within its group, from 1 (__threadNum).
	Num int
	// Name is the JMeter thread name, e.g. "Thread Group 1-1".
	Name string
	Vars *Vars
	// SamplerName is the sampler being run (__samplerName).
	SamplerName string
	// Iteration counts the thread group's loop iterations, from 1.
	Iteration int

	rng   *rand.Rand
	http  *httpx.Client
	batch *report.Batcher
	state []int64 // per-node memory, indexed by slots handed out at compile time
	ext   vuExt   // per-user state of functions and config elements (functions_file.go)
	tbuf  []byte  // scratch space for template evaluation
	res   result  // the sample being made; reused
	req   httpx.Request
	hres  httpx.Result
	// prev is the last sample's outcome (JMeterThread.last_sample_ok).
	prevOK bool

	soft, hard context.Context // soft: start nothing new; hard: abort what runs
	stopAt     time.Time       // scheduler end; zero when none
	timer      *time.Timer
	log        *slog.Logger
}

// result is a sample being made, with what post-processors and assertions
// may look at besides the JTL row.
type result struct {
	report.Sample
	body    []byte
	header  http.Header
	reqHead string
	// msgSet records that an assertion has set the failure message: the
	// JTL keeps the first one set, even an empty one.
	msgSet bool
}

// sleep waits d, returning false when the virtual user must stop instead:
// the run is stopping, or the wait would end past the scheduler's end time
// (JMeter stops the thread rather than sleep past the end).
func (vu *VU) sleep(d time.Duration) bool {
	if d <= 0 {
		return vu.soft.Err() == nil
	}
	if !vu.stopAt.IsZero() && time.Now().Add(d).After(vu.stopAt) {
		return false
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

// stopping reports whether the virtual user must start no new sample.
func (vu *VU) stopping() bool {
	if vu.soft.Err() != nil {
		return true
	}
	return !vu.stopAt.IsZero() && !time.Now().Before(vu.stopAt)
}

func (vu *VU) warnf(format string, args ...any) {
	vu.log.Warn(fmt.Sprintf(format, args...), "thread", vu.Name)
}
