package engine

import (
	"strconv"
	"strings"

	"github.com/gojm/gojm/jmx"
)

// sequence runs its children in order: JMeter's Simple (Generic)
// Controller, and the body of every other controller.
type sequence []node

func (s sequence) run(vu *VU) flow {
	for _, n := range s {
		if f := n.run(vu); f != flowNext {
			return f
		}
	}
	return flowNext
}

func buildSimple(_ *compiler, _ *jmx.Element, body []node) (node, error) {
	return sequence(body), nil
}

// A Test Fragment runs only when a Module or Include Controller brings it in;
// standing in a thread group it does nothing, as in JMeter.
func buildFragment(_ *compiler, _ *jmx.Element, _ []node) (node, error) {
	return nil, nil
}

// loop is JMeter's Loop Controller. JMeter's "continue_forever" flag on a
// nested loop means "run the loops again each time the parent iterates";
// without it the loop runs its count once in the thread's life, and the
// parent passes over it afterwards.
type loop struct {
	count *Template // loops; -1 is forever
	rearm bool
	done  int // slot: 1 once a non-rearming loop has finished
	body  sequence
}

func buildLoop(c *compiler, e *jmx.Element, body []node) (node, error) {
	return &loop{
		count: c.prop(e, "LoopController.loops"),
		rearm: e.Bool("LoopController.continue_forever", true),
		done:  c.newSlot(),
		body:  body,
	}, nil
}

func (l *loop) run(vu *VU) flow {
	if !l.rearm && vu.state[l.done] != 0 {
		return flowNext
	}
	txt := l.count.Eval(vu)
	n, ok := loopCount(txt)
	if !ok {
		vu.warnf("loop count %q is not a number: the loop runs 0 times", txt)
	}
	for i := 0; n < 0 || i < n; i++ {
		switch f := l.body.run(vu); f {
		case flowNext, flowContinue:
		case flowBreak:
			return l.finish(vu)
		default:
			return f
		}
		if len(l.body) == 0 {
			break // an empty loop would spin forever
		}
	}
	return l.finish(vu)
}

func (l *loop) finish(vu *VU) flow {
	if !l.rearm {
		vu.state[l.done] = 1
	}
	return flowNext
}

// loopCount parses a loop count as JMeter does: text that is not a number
// counts as 0 loops (the caller warns).
func loopCount(s string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, false
	}
	return n, true
}
