package element

import "strings"

// Next is what the thread does once the current sampler is done: carry
// on, one of JMeter's loop actions (TestLogicalAction), or a stop. A Flow
// Control Action, a Result Status Action Handler, a script, a thread
// group's "action to be taken after a sampler error" and a CSV Data Set at
// the end of its file all ask for one. The stops come last and in rising
// strength: a sample that asks for several stops gets the strongest, and a
// stop outweighs any loop action.
type Next uint8

const (
	Continue          Next = iota // carry on
	NextThreadLoop                // start the thread group's next iteration
	NextIterationLoop             // "continue" the innermost loop
	BreakLoop                     // "break" the innermost loop
	StopThread                    // this virtual user ends
	StopTest                      // the test ends gently: no new sample starts
	StopTestNow                   // the test ends now: running samples are aborted
)

// IsStop reports whether n ends the thread.
func (n Next) IsStop() bool { return n >= StopThread }

// Then combines two requests: the stronger stop, else the later loop action.
func (n Next) Then(m Next) Next {
	switch {
	case n.IsStop() || m.IsStop():
		return max(n, m)
	case m != Continue:
		return m
	}
	return n
}

// ParseOnError reads ThreadGroup.on_sample_error as JMeter does: the value
// is compared ignoring case and anything unknown means continue.
func ParseOnError(s string) Next {
	switch {
	case strings.EqualFold(s, "startnextloop"):
		return NextThreadLoop
	case strings.EqualFold(s, "stopthread"):
		return StopThread
	case strings.EqualFold(s, "stoptest"):
		return StopTest
	case strings.EqualFold(s, "stoptestnow"):
		return StopTestNow
	}
	return Continue
}
