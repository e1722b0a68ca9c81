package engine

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/thread"
	"github.com/gojm/gojm/jmx"
)

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
	file  string // the plan file the group is in, for errors
	kind  groupKind
	index int // JMeter's group number in thread names ("Users 2-7"), per phase

	threads, ramp, duration, delay *Template
	scheduler                      bool
	delayedStart                   bool
	sameUser                       bool // same user on next iteration: keep cookies and connections
	cookies                        bool // a Cookie Manager is in scope
	clearCookies                   bool // the Cookie Manager clears cookies each iteration
	onError                        Next
	// main is the group's main loop (a Loop Controller named after the
	// group), holding the group's children; ctls counts the controllers
	// of the group, main included.
	main *thread.ControllerDef
	ctls int
	// loops and forever are the main loop's settings.
	loops   *Template
	forever bool

	// model starts the users of a group that is not JMeter's Thread Group
	// (jmeter-plugins groups, Open Model: tg_plugins.go); nil otherwise.
	model groupModel
}

// groupRun is one thread group in one run: its counts, its stop switches
// and the state its users share (GroupShared). A plan run twice gets new
// ones, so nothing of one run leaks into the next.
type groupRun struct {
	g    *group
	el   *element.Group // the group as its users see it
	prog groupProgress  // what it set out to do, for Run.Groups (progress.go)
	// arrivals counts an arrival-rate group's arrivals (arrivals.go).
	arrivals arrivalStats
}

func newGroupRun(g *group, p *Plan) *groupRun {
	el := element.NewGroup(p.Plan)
	el.Name, el.Index, el.OnError = g.name, g.index, g.onError
	el.SameUser, el.Cookies, el.ClearCookies = g.sameUser, g.cookies, g.clearCookies
	return &groupRun{g: g, el: el}
}

func (c *compiler) threadGroup(e *jmx.Element, planFrame frame) {
	c.recordAt(e, 1, Runs, "")
	g := &group{
		name:         e.Name,
		path:         e.Path(),
		file:         e.File,
		kind:         mainGroup,
		threads:      c.Prop(e, "ThreadGroup.num_threads"),
		ramp:         c.Prop(e, "ThreadGroup.ramp_time"),
		duration:     c.Prop(e, "ThreadGroup.duration"),
		delay:        c.Prop(e, "ThreadGroup.delay"),
		scheduler:    e.Bool("ThreadGroup.scheduler", false),
		delayedStart: e.Bool("ThreadGroup.delayedStart", false),
		sameUser:     e.Bool("ThreadGroup.same_user_on_next_iteration", true),
		onError:      element.ParseOnError(e.StrOr("ThreadGroup.on_sample_error", "continue")),
	}
	d, _ := c.lookup(e)
	g.kind = d.phase
	mc := e.Prop("ThreadGroup.main_controller")
	if mc == nil {
		c.Fail(e, errors.New("no main controller (ThreadGroup.main_controller)"))
		return
	}
	c.fl.ctls = nil
	c.fl.parentTx = nil
	// The main loop: JMeter copies the group's name into it, so its index
	// variable is __jm__<group name>__idx.
	loops := c.Template(e, "LoopController.loops", mc.Str("LoopController.loops"))
	forever := mc.Bool("LoopController.continue_forever", true)
	main := &thread.ControllerDef{Class: "LoopController", Name: c.Template(e, "name", e.Name), Path: e.Path(), Index: 0}
	main.IdxSlot = c.indexSlot(main.Name)
	main.Make = thread.NewLoop(loops, forever)
	g.loops, g.forever = loops, forever
	c.fl.ctls = append(c.fl.ctls, main)
	c.children(main, e.Children, planFrame, nil, 2)
	g.main, g.ctls = main, len(c.fl.ctls)
	c.fl.ctls = nil
	// What the users keep (a Cookie Manager's jar) is decided by the
	// configs at plan level and anywhere in the group.
	users := func(x *jmx.Element) {
		if xd, ok := c.lookup(x); ok && xd.users != nil {
			xd.users(x, g)
		}
	}
	for _, x := range planFrame {
		users(x)
	}
	e.Walk(func(x *jmx.Element) bool { users(x); return true })
	if d.model != nil {
		m, err := d.model(c, e, g)
		if err != nil {
			c.Fail(e, err)
			return
		}
		g.model = m
	}
	c.compiled.groups = append(c.compiled.groups, g)
}

// cookieUsers gives each user of a group with a Cookie Manager a cookie
// jar of its own, emptied each iteration when the manager says so.
func cookieUsers(e *jmx.Element, g *group) {
	g.cookies = true
	g.clearCookies = g.clearCookies || e.Bool("CookieManager.clearEachIteration", false)
}

// orderGroups puts setUp groups first and tearDown groups last, keeping
// tree order within each, and numbers them as JMeter does: from 1 within
// each phase.
func orderGroups(gs []*group) []*group {
	var out []*group
	for _, k := range []groupKind{setUpGroup, mainGroup, tearDownGroup} {
		n := 0
		for _, g := range gs {
			if g.kind == k {
				n++
				g.index = n
				out = append(out, g)
			}
		}
	}
	return out
}

// settings are a group's numbers, evaluated when the group starts.
type settings struct {
	threads  int
	rampMs   int64
	delayMs  int64
	duration int64 // ms; 0: none
}

// evaluate reads the group's numbers as JMeter does when it starts the
// group: blank is 0; with the scheduler, a negative delay or a duration that
// is not positive keeps the group from starting.
func (g *group) evaluate(vu *VU) (settings, error) {
	var s settings
	var errs []error
	num := func(field string, t *Template) int64 {
		txt := strings.TrimSpace(t.Eval(vu))
		if txt == "" {
			return 0
		}
		n, err := strconv.ParseInt(txt, 10, 64)
		if err != nil {
			if f, ferr := strconv.ParseFloat(txt, 64); ferr == nil && f == math.Trunc(f) {
				return int64(f)
			}
			if raw := t.Raw(); raw != txt {
				// Say where the text came from: ${__P(users,abc)} gives "abc".
				errs = append(errs, fmt.Errorf("%s %q (from %s) is not a whole number", field, txt, raw))
			} else {
				errs = append(errs, fmt.Errorf("%s %q is not a whole number", field, txt))
			}
		}
		return n
	}
	s.threads = int(num("number of threads", g.threads))
	s.rampMs = num("ramp-up period", g.ramp) * 1000
	if s.threads < 0 {
		errs = append(errs, fmt.Errorf("number of threads %d is negative", s.threads))
	}
	if g.scheduler {
		s.delayMs = num("startup delay", g.delay) * 1000
		s.duration = num("duration", g.duration) * 1000
		if s.delayMs < 0 {
			errs = append(errs, fmt.Errorf("invalid delay %d s", s.delayMs/1000))
		}
		if s.duration <= 0 && !g.delayedStart {
			errs = append(errs, fmt.Errorf("invalid duration %d s: with \"Specify thread lifetime\" the duration must be positive", s.duration/1000))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return s, &jmx.Error{File: g.file, Path: g.path,
			Err: fmt.Errorf("%w; set it in the plan, or with -J name=value when the field reads a property", err)}
	}
	return s, nil
}
