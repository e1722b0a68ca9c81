package engine

import (
	"context"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/group"
	"github.com/gojm/gojm/internal/segment"
)

// Planned is one start a thread group plans: a thread's or an arrival's.
type Planned = group.Planned

// GroupSchedule is what one thread group plans to start.
type GroupSchedule struct {
	Group string // the group's name
	Phase string // "setUp", "main" or "tearDown"
	// Starts are the planned starts, in order; More reports that the
	// list was cut at the limit Schedule was given.
	Starts []Planned
	More   bool
	// Err is what keeps the group's plan from being known (numbers that
	// are not numbers).
	Err error
}

// Schedule works out, without running anything, what each thread group
// of the plan would start in segment seg of a run whose random sources
// are seeded with seed: each thread's name and start, each arrival's
// instant, at most max per group. A split run's segments list together
// what the whole run lists. setUp and tearDown groups belong to
// segment 0.
func (p *Plan) Schedule(seg segment.Segment, seed uint64, threadPrefix string, max int) []GroupSchedule {
	r := element.NewRun(p.Plan, seed, func(error) {}, func(error) {})
	r.Segment, r.ThreadPrefix = seg, threadPrefix
	ctx := context.Background()
	base := group.NewRun(&group.Group{Path: p.Name}, p.Plan, r, nil).NewVU(0, ctx, ctx)
	setUserVariables(base, p.udv)
	var out []GroupSchedule
	for _, g := range p.groups {
		gs := GroupSchedule{Group: g.Name, Phase: g.Phase.String()}
		if g.Phase == group.Main || seg.Index == 0 {
			gs.Starts, gs.More, gs.Err = group.NewRun(g, p.Plan, r, nil).Schedule(base, max)
		}
		out = append(out, gs)
	}
	return out
}

// DataFileReads is what one shared data file hands a segment: its reads.
type DataFileReads struct {
	Element, File string
	Reads         []element.DataRead
	More          bool
	Err           error
}

// DataReads lists, for each data file several threads read in turn, the
// reads segment seg makes of it among the run's first max: together the
// segments make the whole run's reads, each once.
func (p *Plan) DataReads(seg segment.Segment, max int) []DataFileReads {
	var out []DataFileReads
	for _, d := range p.Plan.DataFiles {
		r := DataFileReads{Element: d.Element, File: d.File}
		r.Reads, r.More, r.Err = d.Reads(seg.Owns, max)
		out = append(out, r)
	}
	return out
}
