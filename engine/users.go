package engine

import (
	"strconv"
	"strings"

	"github.com/gojm/gojm/engine/internal/group"
)

// Users is the most virtual users the plan's thread groups run at once, as
// far as it is known when the plan compiles: the thread counts of JMeter's
// Thread Groups (and setUp and tearDown groups) that are text, properties
// or user-defined variables, summed over the groups of a phase that run
// together (the largest one, with serialized groups), the largest phase.
// Groups of the plugins, with schedules of their own, are not counted.
func (p *Plan) Users() int {
	return max(p.users[group.SetUp], p.users[group.Main], p.users[group.TearDown])
}

// countUsers adds a group's thread count, when it is known now, to its
// phase's (Users).
func (c *compiler) countUsers(g *group.Group) {
	if g.Model != nil {
		return
	}
	s, ok := c.Static(g.Threads)
	if !ok {
		return
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n <= 0 {
		return
	}
	if c.compiled.Serial {
		c.compiled.users[g.Phase] = max(c.compiled.users[g.Phase], n)
	} else {
		c.compiled.users[g.Phase] += n
	}
}
