package engine

import (
	"strings"

	"github.com/gojm/gojm/engine/internal/group"
	"github.com/gojm/gojm/jmx"
)

// The checks of this file find, as the plan compiles, what JMeter runs
// leniently and gojm runs the same way, with a warning.

// checkSchedule warns of a Thread Group's numbers JMeter reads as 0
// (checkNumbers), and of one whose scheduler, as the plan
// compiles, starts none of its threads (a duration of 0 or empty), as
// JMeter 5.6 runs such a plan: without the group.
func (c *compiler) checkSchedule(e *jmx.Element, g *group.Group) {
	c.checkNumbers(e, g)
	if g.Model != nil || !g.Scheduler {
		return
	}
	_, durOK := c.Static(g.Duration)
	_, delayOK := c.Static(g.Delay)
	if !durOK || !delayOK {
		return // known at run time: the group says so then
	}
	if why := g.NoSchedule(c.staticVU()); why != "" {
		c.Warn(e, why)
		g.ScheduleWarned = true
	}
}

// checkNumbers warns of a Thread Group's numbers that JMeter reads as 0
// (ramp-up "0.5", threads from an unset "${threads}"), evaluated as the
// group starts before any other group runs: with the properties and the
// plan's user-defined variables.
func (c *compiler) checkNumbers(e *jmx.Element, g *group.Group) {
	g.NumbersWarned = g.Notes(c.staticVU())
	for _, n := range g.NumbersWarned {
		c.Warn(e, n)
	}
}

// listenerClass reports whether a test class gojm does not know names a
// listener, by the names JMeter and its plugins give listeners (a
// ResultCollector, a Listener, a Visualizer): one that only reports.
func listenerClass(class string) bool {
	name := class[strings.LastIndexByte(class, '.')+1:]
	for _, suffix := range []string{"ResultCollector", "Listener", "Visualizer"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}
