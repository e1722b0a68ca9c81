package sampler

import (
	"fmt"
	"strconv"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// Flow Control Action (TestAction) actions and targets, as JMeter numbers them.
const (
	taStop                 = 0
	taPause                = 1
	taStopNow              = 2
	taRestartNextLoop      = 3
	taNextIterationCurrent = 4
	taBreakCurrentLoop     = 5

	taTargetThread = 0
	taTargetTest   = 2
)

// testAction is JMeter's Flow Control Action: a sampler that makes no
// sample. It pauses, stops the thread or the test (now: aborting what runs),
// or asks the thread to start its next iteration, or to continue or break
// the innermost loop. Pre-processors and timers in its scope run before it
// as before any sampler.
type testAction struct {
	action, target int
	duration       *element.Template
}

func BuildFlowControl(c element.Builder, e *jmx.Element, _ element.InScope) (element.Sampler, error) {
	a := &testAction{
		action:   jmx.Int(e.Str("ActionProcessor.action"), 0),
		target:   jmx.Int(e.Str("ActionProcessor.target"), 0),
		duration: c.Prop(e, "ActionProcessor.duration"),
	}
	if a.action < taStop || a.action > taBreakCurrentLoop {
		// JMeter's TestAction does nothing for an action it does not know.
		c.Warn(e, fmt.Sprintf("action %d is not one JMeter knows (0-5): the Flow Control Action does nothing, as in JMeter", a.action))
	}
	return a, nil
}

func (a *testAction) Sample(vu *element.VU, r *element.Result) {
	r.None = true
	switch a.action {
	case taPause:
		s := a.duration.Eval(vu)
		ms, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			if s != "" {
				vu.Warnf("Flow Control Action: could not parse number %q: no pause", s)
			}
			ms = 0
		}
		if ms > 0 {
			vu.Pause(time.Duration(ms) * time.Millisecond)
		}
	case taStop, taStopNow:
		switch {
		case a.target == taTargetThread:
			r.Next = element.StopThread
		case a.target == taTargetTest && a.action == taStopNow:
			r.Next = element.StopTestNow
		case a.target == taTargetTest:
			r.Next = element.StopTest
		}
	case taRestartNextLoop:
		r.Next = element.NextThreadLoop
	case taNextIterationCurrent:
		r.Next = element.NextIterationLoop
	case taBreakCurrentLoop:
		r.Next = element.BreakLoop
	}
}
