package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/gojm/gojm/engine"
	"github.com/gojm/gojm/internal/segment"
)

// scheduleFlags are gojm validate's --schedule and --segment: what the
// run would start, each thread's name and planned start and each
// arrival's instant, in the whole run or in one segment of a split one.
type scheduleFlags struct {
	on      bool
	segment string
	limit   int
}

func (s *scheduleFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&s.on, "schedule", false, "list each thread's name and planned start and each arrival's instant, per thread group, and the rows of shared data files")
	fs.StringVar(&s.segment, "segment", "", "with --schedule: list what segment i/n of a split run starts (0/4 is the first of four)")
	fs.IntVar(&s.limit, "schedule-limit", 100000, "with --schedule: at most this many starts per thread group")
}

// scheduleSeed seeds the random arrivals of Open Model groups without a
// seed of their own in the listing; a run draws them from its own seed.
const scheduleSeed = 1

func (s *scheduleFlags) print(w io.Writer, p *engine.Plan) error {
	seg := segment.Whole()
	if s.segment != "" {
		var err error
		if seg, err = segment.Parse(s.segment); err != nil {
			return &exitErr{exitUsage, err}
		}
	}
	for _, g := range p.Schedule(seg, scheduleSeed, "", s.limit) {
		switch {
		case g.Err != nil:
			fmt.Fprintf(w, "%s (%s): %v\n", g.Group, g.Phase, g.Err)
			continue
		}
		for _, st := range g.Starts {
			fmt.Fprintf(w, "%s (%s) %s\n", g.Group, g.Phase, st)
		}
		if g.More {
			fmt.Fprintf(w, "%s (%s): more than %d starts; --schedule-limit lists more\n", g.Group, g.Phase, s.limit)
		}
	}
	for _, d := range p.DataReads(seg, s.limit) {
		if d.Err != nil {
			fmt.Fprintf(w, "%s (%s): %v\n", d.Element, d.File, d.Err)
			continue
		}
		for _, r := range d.Reads {
			fmt.Fprintf(w, "%s read %d: row %d of %s\n", d.Element, r.Read, r.Row, d.File)
		}
		if d.More {
			fmt.Fprintf(w, "%s: the run may read more than the %d reads listed; --schedule-limit lists more\n", d.Element, s.limit)
		}
	}
	return nil
}
