package group

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/thread"
)

// Preview is what a group will do, worked out without running anything
// (gojm validate shows it). A count that is not known before the run is
// -1.
type Preview struct {
	Threads   int64
	Ramp      time.Duration
	Scheduler bool          // the group stops at Delay + Duration
	Delay     time.Duration // with the scheduler: the startup delay
	Duration  time.Duration // with the scheduler: how long the group runs
	Loops     int           // each thread's iterations; -1 for ever
	// LoopsNote says why a loop count that is not a number is 0, as the
	// run warns.
	LoopsNote string
	// Notes say which numbers JMeter reads as 0 (Group.Notes).
	Notes []string
	// Samples is how many samples the group makes (samplers run, as the
	// end report's "Complete requests" counts them): known when every
	// thread runs its loops to the end through samplers and simple or
	// Transaction Controllers only.
	Samples int64
	// Arrivals is an arrival-rate group's arrivals (-1 past the limit);
	// 0 for the other groups.
	Arrivals int64
	Model    bool // a group of the plugins or the Open Model, with a schedule of its own
}

// Preview works out the group's numbers as Execute evaluates them when
// the group starts; a group of the plugins is counted from its schedule,
// at most limit starts. The error is what would keep it from starting.
func (gr *Run) Preview(base *element.VU, limit int) (Preview, error) {
	g := gr.Group
	pv := Preview{Threads: -1, Loops: -1, Samples: -1}
	if g.Model != nil {
		pv.Model = true
		pv.Notes = g.Notes(base)
		starts, more, err := gr.Schedule(base, limit)
		if err != nil {
			return pv, err
		}
		var threads, arrivals int64
		for _, s := range starts {
			if s.Thread != "" {
				threads++
			} else {
				arrivals++
			}
		}
		switch {
		case more && arrivals > 0:
			pv.Arrivals = -1
		case more:
		case arrivals > 0:
			pv.Arrivals = arrivals
		default:
			pv.Threads = threads
		}
		return pv, nil
	}
	s, notes := g.evaluate(base)
	pv.Notes = notes
	pv.Threads = int64(s.threads)
	pv.Ramp = time.Duration(s.rampMs) * time.Millisecond
	pv.Scheduler = g.Scheduler
	pv.Delay = time.Duration(s.delayMs) * time.Millisecond
	pv.Duration = time.Duration(s.duration) * time.Millisecond
	pv.Loops, pv.LoopsNote = loopCount(g, base)
	if perPass, ok := samplesPerPass(g.MainLoop); ok && pv.Loops >= 0 && !g.Scheduler {
		pv.Samples = pv.Threads * int64(pv.Loops) * perPass
	}
	return pv, nil
}

// loopCount is the main loop's count as the run's Loop Controller reads
// it: -1 (or less) loops for ever, blank none, and text that is not a
// number none, with the note the run warns with.
func loopCount(g *Group, base *element.VU) (int, string) {
	if g.Loops == nil || g.Forever {
		return -1, ""
	}
	txt := g.Loops.Eval(base)
	n, err := strconv.Atoi(txt)
	switch {
	case err != nil && strings.TrimSpace(txt) == "":
		return 0, ""
	case err != nil:
		return 0, fmt.Sprintf("loop count %q is not a number: the loop runs 0 times", txt)
	case n < 0:
		return -1, ""
	}
	return n, ""
}

// samplesPerPass counts the samples one pass of a controller makes, when
// the controller runs each of its children once: the samplers, simple
// controllers and Transaction Controllers (whose own samples the end
// report does not count) below it.
func samplesPerPass(c *thread.ControllerDef) (int64, bool) {
	var n int64
	for _, k := range c.Kids {
		switch {
		case k.Sampler != nil:
			n++
		case k.Controller.Class == "GenericController" || k.Controller.Class == "TransactionController":
			m, ok := samplesPerPass(k.Controller)
			if !ok {
				return 0, false
			}
			n += m
		default:
			return 0, false
		}
	}
	return n, true
}

// Constant reports whether the group's numbers are written in the plan
// as they are, so that nothing the run does can change them.
func (g *Group) Constant() bool {
	if g.Model != nil {
		return false
	}
	for _, t := range []*element.Template{g.Threads, g.Ramp, g.Delay, g.Duration} {
		if t != nil && !t.Const() {
			return false
		}
	}
	return true
}
