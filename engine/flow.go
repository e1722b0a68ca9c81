package engine

import "strings"

// logicalAction is what a Flow Control Action or a Result Status Action
// Handler asks of the thread once the current sampler is done (JMeter's
// TestLogicalAction): the thread loop applies it to the controllers between
// the sampler and the thread group.
type logicalAction uint8

const (
	actContinue          logicalAction = iota // nothing: carry on
	actNextThreadLoop                         // start the thread group's next iteration
	actNextIterationLoop                      // "continue" the innermost loop
	actBreakLoop                              // "break" the innermost loop
)

// onError is a thread group's "action to be taken after a sampler error".
type onError uint8

const (
	errContinue onError = iota
	errNextLoop
	errStopThread
	errStopTest
	errStopTestNow
)

// parseOnError reads ThreadGroup.on_sample_error as JMeter does: the value
// is compared ignoring case and anything unknown means continue.
func parseOnError(s string) onError {
	switch {
	case strings.EqualFold(s, "startnextloop"):
		return errNextLoop
	case strings.EqualFold(s, "stopthread"):
		return errStopThread
	case strings.EqualFold(s, "stoptest"):
		return errStopTest
	case strings.EqualFold(s, "stoptestnow"):
		return errStopTestNow
	}
	return errContinue
}

// flow is what an iteration listener tells its controller: carry on, or
// end the virtual user (a CSV Data Set at the end of its file with "stop
// thread on EOF").
type flow uint8

const (
	flowNext       flow = iota // carry on
	flowStopThread             // this virtual user ends
)
