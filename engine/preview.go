package engine

import (
	"context"
	"errors"
	"slices"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/group"
	"github.com/gojm/gojm/engine/internal/thread"
	"github.com/gojm/gojm/internal/segment"
)

// GroupPreview is what one thread group of the plan will do (see
// group.Preview), worked out before the run with the properties the plan
// was compiled with.
type GroupPreview struct {
	Group, Path, Phase string
	group.Preview
	// Err is what would keep the group from starting (numbers that are
	// not numbers). Settled reports that it holds whatever the run does:
	// the group's fields are written as they are, or no other group runs
	// before it, which could set the properties they read.
	Err     error
	Settled bool
}

// previewLimit bounds the starts counted of a plugin group.
const previewLimit = 1_000_000

// Preview works out, sending nothing, what each thread group will do.
func (p *Plan) Preview() []GroupPreview {
	base := p.previewVU()
	var out []GroupPreview
	for i, g := range p.groups {
		pv, err := group.NewRun(g, p.Plan, base.Run, nil).Preview(base, previewLimit)
		out = append(out, GroupPreview{
			Group: g.Name, Path: g.Path, Phase: g.Phase.String(), Preview: pv, Err: err,
			Settled: g.Constant() || !p.runsBefore(i),
		})
	}
	return out
}

// runsBefore reports whether another group may run before group i: a
// setUp group before the main ones, the main ones before tearDown, an
// earlier group of the same phase when the plan runs them one by one.
func (p *Plan) runsBefore(i int) bool {
	for _, h := range p.groups[:i] {
		if h.Phase != p.groups[i].Phase || p.Serial {
			return true
		}
	}
	return false
}

// previewVU is a virtual user of a run of its own that evaluates fields as
// the run's first user does before any group starts: with the
// properties and the plan's user-defined variables.
func (p *Plan) previewVU() *element.VU {
	r := element.NewRun(p.Plan, 1, func(error) {}, func(error) {})
	r.Segment = segment.Whole()
	ctx := context.Background()
	base := group.NewRun(&group.Group{Path: p.Name}, p.Plan, r, nil).NewVU(0, ctx, ctx)
	setUserVariables(base, p.udv)
	return base
}

// Check is what run would refuse once started: the thread groups whose
// numbers cannot be read, when nothing the run does can change them. A
// plan that passes Check can still fail in a group whose fields read what
// an earlier group sets.
func (p *Plan) Check() error {
	var errs []error
	for _, g := range p.Preview() {
		if g.Err != nil && g.Settled {
			errs = append(errs, g.Err)
		}
	}
	return errors.Join(errs...)
}

// Target is a scheme, host and port the plan's samplers send to, with
// how many samplers send there and from which groups.
type Target struct {
	Scheme, Host, Port string
	Samplers           int
	Groups             []string
}

// Targets lists where the plan's HTTP Requests send, in the order the
// plan first names them, their fields evaluated as Preview evaluates a
// group's (a host a variable sets during the run shows as ${name}).
func (p *Plan) Targets() []Target {
	base := p.previewVU()
	var out []Target
	for _, g := range p.groups {
		seen := map[*thread.ControllerDef]bool{}
		var walk func(c *thread.ControllerDef)
		walk = func(c *thread.ControllerDef) {
			if seen[c] {
				return // a Module Controller runs it again
			}
			seen[c] = true
			for _, k := range c.Kids {
				if k.Controller != nil {
					walk(k.Controller)
					continue
				}
				t, ok := k.Sampler.Sampler.(element.Targeted)
				if !ok {
					continue
				}
				scheme, host, port := t.Target(base)
				i := slices.IndexFunc(out, func(o Target) bool { return o.Scheme == scheme && o.Host == host && o.Port == port })
				if i < 0 {
					out = append(out, Target{Scheme: scheme, Host: host, Port: port})
					i = len(out) - 1
				}
				out[i].Samplers++
				if !slices.Contains(out[i].Groups, g.Name) {
					out[i].Groups = append(out[i].Groups, g.Name)
				}
			}
		}
		walk(g.MainLoop)
	}
	return out
}
