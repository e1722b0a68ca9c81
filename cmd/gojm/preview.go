package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gojm/gojm/engine"
)

// checkPlan refuses, before anything starts, a plan whose thread groups
// cannot start: gojm run would otherwise open its outputs, start, and
// fail in the group. validate fails on the same.
func checkPlan(plan string, p *engine.Plan) error {
	if err := p.Check(); err != nil {
		return &exitErr{exitUnsupported, fmt.Errorf("cannot run %s:\n%s", plan, indent(err))}
	}
	return nil
}

// printPreview writes what the run will be, as gojm validate shows it:
// per thread group its users, ramp-up, loops or duration and the samples
// that makes where they are known; then the hosts and ports it will hit.
func printPreview(w io.Writer, p *engine.Plan) {
	fmt.Fprintln(w, "\nThe run:")
	total, known := int64(0), true
	for _, g := range p.Preview() {
		fmt.Fprintf(w, "  %s (%s): %s\n", g.Group, g.Phase, describeGroup(g))
		if g.Err != nil || g.Samples < 0 {
			known = false
		} else {
			total += g.Samples
		}
	}
	if known {
		fmt.Fprintf(w, "  in all: %s\n", plural(total, "sample"))
	}
	printFiles(w, p)
	targets := p.Targets()
	if len(targets) == 0 {
		return
	}
	fmt.Fprintln(w, "Hosts and ports (the HTTP Requests'):")
	for _, t := range targets {
		host := t.Host
		switch {
		case host == "":
			host = "(no host: the request fails)"
		case strings.Contains(host, "${"):
			host += " (set during the run)"
		}
		fmt.Fprintf(w, "  %s://%s:%s  %s in %s\n", t.Scheme, host, t.Port, plural(int64(t.Samplers), "sampler"), strings.Join(t.Groups, ", "))
	}
}

func describeGroup(g engine.GroupPreview) string {
	if g.Err != nil {
		if g.Settled {
			return "cannot start: " + g.Err.Error()
		}
		return "known when the group starts (an earlier group may set what its fields read); with the properties given: " + g.Err.Error()
	}
	if len(g.Notes) > 0 && !g.Settled {
		return "known when the group starts (an earlier group may set what its fields read); with the properties given: " + strings.Join(g.Notes, "; ")
	}
	if g.Model {
		switch {
		case g.Arrivals > 0:
			return plural(g.Arrivals, "arrival") + " on the group's schedule"
		case g.Arrivals < 0:
			return fmt.Sprintf("more than %d arrivals on the group's schedule", 1_000_000)
		case g.Threads >= 0:
			return plural(g.Threads, "user") + " on the group's schedule"
		}
		return "users on the group's schedule, more than can be counted here"
	}
	parts := []string{plural(g.Threads, "user"), "ramp-up " + g.Ramp.String()}
	switch {
	case g.Loops < 0:
		parts = append(parts, "looping for ever")
	case g.LoopsNote != "":
		parts = append(parts, "0 loops ("+g.LoopsNote+")")
	default:
		parts = append(parts, plural(int64(g.Loops), "loop")+" each")
	}
	if g.Scheduler {
		d := "for " + g.Duration.String()
		if g.Delay > 0 {
			d += " after a delay of " + g.Delay.String()
		}
		parts = append(parts, d)
	}
	s := strings.Join(parts, ", ")
	if g.Samples >= 0 {
		return s + ": " + plural(g.Samples, "sample")
	}
	return s + "; the samples are known only during the run"
}

func plural(n int64, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// printFiles lists the files the plan reads (those its fields name as
// text, found as the run will find them; a missing one is marked) and the
// results files its listeners write.
func printFiles(w io.Writer, p *engine.Plan) {
	if in := p.Plan.Files.Inputs(); len(in) > 0 {
		fmt.Fprintln(w, "Files it reads:")
		for _, f := range in {
			if _, err := os.Stat(f); err != nil {
				f += " (not there)"
			}
			fmt.Fprintf(w, "  %s\n", f)
		}
	}
	var out []string
	for _, l := range p.Listeners {
		if l.Filename != "" {
			out = append(out, fmt.Sprintf("  %s  (%s)", l.Filename, l.Path))
		}
	}
	if len(out) > 0 {
		fmt.Fprintln(w, "Files its listeners write:")
		fmt.Fprintln(w, strings.Join(out, "\n"))
	}
}
