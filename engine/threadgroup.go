package engine

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/gojm/gojm/jmx"
)

type atomicCount = atomic.Int64

type groupKind uint8

const (
	setUpGroup groupKind = iota
	mainGroup
	tearDownGroup
)

// group is a compiled Thread Group (or setUp / tearDown Thread Group).
type group struct {
	name  string
	path  string
	kind  groupKind
	index int // JMeter's group number in thread names ("Users 2-7")

	threads, ramp, loops, duration, delay *Template
	scheduler                             bool
	sameUser                              bool // same user on next iteration: keep cookies and connections
	cookies                               bool // a Cookie Manager is in scope
	clearCookies                          bool // the Cookie Manager clears cookies each iteration
	onError                               onError
	body                                  sequence

	active atomicCount
}

func (c *compiler) threadGroup(e *jmx.Element, frames []frame) {
	c.recordAt(e, 1, Runs, "")
	g := &group{
		name:      e.Name,
		path:      e.Path(),
		kind:      mainGroup,
		threads:   c.prop(e, "ThreadGroup.num_threads"),
		ramp:      c.prop(e, "ThreadGroup.ramp_time"),
		duration:  c.prop(e, "ThreadGroup.duration"),
		delay:     c.prop(e, "ThreadGroup.delay"),
		scheduler: e.Bool("ThreadGroup.scheduler", false),
		sameUser:  e.Bool("ThreadGroup.same_user_on_next_iteration", true),
		onError:   parseOnError(e.Str("ThreadGroup.on_sample_error")),
	}
	switch e.Class {
	case "SetupThreadGroup":
		g.kind = setUpGroup
	case "PostThreadGroup":
		g.kind = tearDownGroup
	}
	mc := e.Prop("ThreadGroup.main_controller")
	if mc == nil {
		c.fail(e, errors.New("no main controller (ThreadGroup.main_controller)"))
		return
	}
	loops := mc.Str("LoopController.loops")
	if mc.Prop("LoopController.loops") == nil {
		loops = "1"
	}
	g.loops = c.template(e, "LoopController.loops", loops)
	g.body = sequence(c.children(e, frames, 2))
	// One cookie jar per virtual user when a Cookie Manager stands at plan
	// level or anywhere in the group.
	cookieManager := func(x *jmx.Element) {
		if x.Class == "CookieManager" {
			g.cookies = true
			g.clearCookies = g.clearCookies || x.Bool("CookieManager.clearEachIteration", false)
		}
	}
	for _, f := range frames {
		for _, x := range f {
			cookieManager(x)
		}
	}
	e.Walk(func(x *jmx.Element) bool { cookieManager(x); return true })
	c.plan.groups = append(c.plan.groups, g)
}

// orderGroups puts setUp groups first and tearDown groups last, keeping tree
// order within each, and numbers them as JMeter does.
func orderGroups(gs []*group) []*group {
	var out []*group
	for _, k := range []groupKind{setUpGroup, mainGroup, tearDownGroup} {
		for _, g := range gs {
			if g.kind == k {
				out = append(out, g)
			}
		}
	}
	for i, g := range out {
		g.index = i + 1
	}
	return out
}

// settings are a group's numbers, evaluated when the group starts.
type settings struct {
	threads  int
	rampMs   int64
	loops    int // -1: forever
	delayMs  int64
	duration int64 // ms; 0: none
}

func (g *group) evaluate(vu *VU) (settings, error) {
	var s settings
	var errs []error
	num := func(field string, t *Template, def int64) int64 {
		txt := strings.TrimSpace(t.Eval(vu))
		if txt == "" {
			return def
		}
		n, err := strconv.ParseInt(txt, 10, 64)
		if err != nil {
			if f, ferr := strconv.ParseFloat(txt, 64); ferr == nil && f == math.Trunc(f) {
				return int64(f)
			}
			errs = append(errs, fmt.Errorf("%s %q is not a whole number", field, txt))
		}
		return n
	}
	s.threads = int(num("number of threads", g.threads, 0))
	s.rampMs = num("ramp-up period", g.ramp, 0) * 1000
	s.loops = int(num("loop count", g.loops, 1))
	if s.threads < 0 {
		errs = append(errs, fmt.Errorf("number of threads %d is negative", s.threads))
	}
	if g.scheduler {
		s.delayMs = num("startup delay", g.delay, 0) * 1000
		s.duration = num("duration", g.duration, 0) * 1000
	}
	if err := errors.Join(errs...); err != nil {
		return s, fmt.Errorf("%s: %w", g.path, err)
	}
	return s, nil
}
