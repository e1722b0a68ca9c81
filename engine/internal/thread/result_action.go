package thread

import (
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// resultAction is JMeter's Result Status Action Handler: a listener that,
// when a sample in its scope fails, asks the thread to stop (itself, the
// test, the test now) or to start its next iteration, or to continue or
// break the innermost loop. It sees the sample after the assertions.
type resultAction struct{ action int }

// Result Status Action Handler actions (OnError.action).
const (
	raContinue = iota
	raStopThread
	raStopTest
	raStopTestNow
	raNextThreadLoop
	raNextIterationCurrent
	raBreakCurrentLoop
)

// resultActions are what each OnError.action asks of the thread.
var resultActions = [...]element.Next{
	raContinue: element.Continue, raStopThread: element.StopThread, raStopTest: element.StopTest, raStopTestNow: element.StopTestNow,
	raNextThreadLoop: element.NextThreadLoop, raNextIterationCurrent: element.NextIterationLoop, raBreakCurrentLoop: element.BreakLoop,
}

func BuildResultAction(_ element.Builder, e *jmx.Element) (element.SampleListener, error) {
	return &resultAction{action: jmx.Int(e.Str("OnError.action"), 0)}, nil
}

func (a *resultAction) SampleOccurred(_ *element.VU, r *element.Result) {
	if r.Success {
		return
	}
	if a.action > raContinue && a.action <= raBreakCurrentLoop {
		r.Next = r.Next.Then(resultActions[a.action])
	}
}
