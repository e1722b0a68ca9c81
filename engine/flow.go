package engine

// flow is what running a node tells its parent to do next. It replaces
// exceptions and iterator state: every controller returns one up the stack.
type flow uint8

const (
	flowNext          flow = iota // carry on with the next element
	flowBreak                     // leave the innermost loop (Flow Control Action "break")
	flowContinue                  // next iteration of the innermost loop
	flowNextIteration             // start the thread group's next iteration
	flowStopThread                // this virtual user ends
	flowStopTest                  // every virtual user ends after its current sample
	flowStopTestNow               // every virtual user ends now, aborting requests
)

// node is one runnable element of the compiled tree: a controller or a
// sampler. Nodes are shared read-only by every virtual user; anything a
// node remembers per user lives in VU.state at the node's slot.
type node interface {
	run(vu *VU) flow
}

// onError is a thread group's "action to be taken after a sampler error".
type onError uint8

const (
	errContinue onError = iota
	errNextLoop
	errStopThread
	errStopTest
	errStopTestNow
)

func parseOnError(s string) onError {
	switch s {
	case "startnextloop":
		return errNextLoop
	case "stopthread":
		return errStopThread
	case "stoptest":
		return errStopTest
	case "stoptestnow":
		return errStopTestNow
	}
	return errContinue
}

func (a onError) flow() flow {
	switch a {
	case errNextLoop:
		return flowNextIteration
	case errStopThread:
		return flowStopThread
	case errStopTest:
		return flowStopTest
	case errStopTestNow:
		return flowStopTestNow
	}
	return flowNext
}
