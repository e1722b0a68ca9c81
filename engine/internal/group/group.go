package group

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/thread"
	"github.com/gojm/gojm/internal/segment"
	"github.com/gojm/gojm/jmx"
)

// Phase is when a thread group runs. Main is the zero value: a group is a
// main group unless its row in the element table says otherwise.
type Phase uint8

const (
	Main Phase = iota
	SetUp
	TearDown
)

// String is the phase as gojm names it: "setUp", "main" or "tearDown".
func (p Phase) String() string {
	return [...]string{SetUp: "setUp", Main: "main", TearDown: "tearDown"}[p]
}

// Group is a compiled Thread Group (or setUp / tearDown Thread Group).
type Group struct {
	Name  string
	Path  string
	File  string // the plan file the group is in, for errors
	Phase Phase
	Index int // JMeter's group number in thread names ("Users 2-7"), per phase

	Threads, Ramp, Duration, Delay *element.Template
	Scheduler                      bool
	ScheduleWarned                 bool     // NoSchedule was warned of when the plan compiled
	NumbersWarned                  []string // the Notes warned of when the plan compiled
	DelayedStart                   bool
	SameUser                       bool                 // same user on next iteration: keep cookies and connections
	Cookies                        bool                 // a Cookie Manager is in scope
	ClearCookies                   bool                 // the Cookie Manager clears cookies each iteration
	UserCookies                    []element.UserCookie // the Cookie Managers' own cookies
	OnError                        element.Next
	// main is the group's main loop (a Loop Controller named after the
	// group), holding the group's children; ctls counts the controllers
	// of the group, main included.
	MainLoop *thread.ControllerDef
	Ctls     int
	// loops and forever are the main loop's settings.
	Loops   *element.Template
	Forever bool

	// model starts the users of a group that is not JMeter's Thread Group
	// (jmeter-plugins groups, Open Model); nil otherwise.
	Model Model
}

// GroupRun is one thread group in one run: its counts, its stop switches
// and the state its users share (GroupShared). A plan run twice gets new
// ones, so nothing of one run leaks into the next.
type Run struct {
	Group *Group
	el    *element.Group // the group as its users see it
	plan  *element.Plan
	run   *element.Run
	fail  func(error)   // reports what kept the group from running
	prog  groupProgress // what it set out to do, for Status
	// arrivals counts an arrival-rate group's arrivals.
	arrivals arrivalStats
}

func NewRun(g *Group, p *element.Plan, run *element.Run, fail func(error)) *Run {
	el := element.NewGroup(p)
	el.Name, el.Index, el.OnError = g.Name, g.Index, g.OnError
	el.SameUser, el.Cookies, el.ClearCookies = g.SameUser, g.Cookies, g.ClearCookies
	el.UserCookies = g.UserCookies
	return &Run{Group: g, el: el, plan: p, run: run, fail: fail}
}

// CookieUsers gives each user of a group with a Cookie Manager a cookie
// jar of its own, emptied each iteration when the manager says so, that
// starts with the manager's user-defined cookies (CookieManager.cookies,
// each an elementProp named after its cookie).
func CookieUsers(c element.Builder, e *jmx.Element, g *Group) {
	g.Cookies = true
	g.ClearCookies = g.ClearCookies || e.Bool("CookieManager.clearEachIteration", false)
	for _, ck := range e.Prop("CookieManager.cookies").Members() {
		field := func(f string) *element.Template {
			return c.Template(e, "cookie "+ck.Name+" "+f, ck.Str("Cookie."+f))
		}
		g.UserCookies = append(g.UserCookies, element.UserCookie{
			Name: c.Template(e, "cookie "+ck.Name, ck.Name), Value: field("value"),
			Domain: field("domain"), Path: field("path"),
			Secure:  ck.Bool("Cookie.secure", false),
			Expires: expires(ck.Str("Cookie.expires")),
			// JMeter's GUI always writes it true.
			DomainSpecified: ck.Bool("Cookie.domain_specified", true),
		})
	}
}

// expires reads a cookie's expiry as JMeter's getPropertyAsLong does:
// blank or non-numeric text is 0, a session cookie.
func expires(s string) int64 {
	n, _ := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return n
}

// Order puts setUp groups first and tearDown groups last, keeping
// tree order within each, and numbers them as JMeter does: from 1 within
// each phase.
func Order(gs []*Group) []*Group {
	var out []*Group
	for _, k := range []Phase{SetUp, Main, TearDown} {
		n := 0
		for _, g := range gs {
			if g.Phase == k {
				n++
				g.Index = n
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
// group: blank is 0, and so is text that is not a whole number (JMeter's
// getPropertyAsInt and getPropertyAsLong), each with a note of what
// JMeter made of it; with the scheduler, a negative delay or a duration
// that is not positive keeps the group from starting.
func (g *Group) evaluate(vu *element.VU) (settings, []string) {
	var s settings
	var notes []string
	num := func(field string, t *element.Template, bits int, meaning string) int64 {
		txt := strings.TrimSpace(t.Eval(vu))
		if txt == "" {
			return 0
		}
		n, ok := javaNumber(txt, bits)
		if !ok {
			from := ""
			if raw := t.Raw(); raw != txt {
				// Say where the text came from: ${__P(users,abc)} gives "abc".
				from = " (from " + raw + ")"
			}
			notes = append(notes, fmt.Sprintf("%s %q%s is not a whole number: JMeter reads it as 0, %s; %s",
				field, txt, from, meaning, numberHint(t.Raw(), "a whole number")))
		}
		return n
	}
	s.threads = int(num("number of threads", g.Threads, 32, "so the group starts no user"))
	s.rampMs = num("ramp-up period", g.Ramp, 32, "so every user starts at once") * 1000
	if s.threads < 0 {
		notes = append(notes, fmt.Sprintf("number of threads %d is negative: the group starts no user, as in JMeter", s.threads))
		s.threads = 0
	}
	if g.Scheduler {
		s.delayMs = num("startup delay", g.Delay, 64, "no delay") * 1000
		s.duration = num("duration", g.Duration, 64, "which the scheduler takes as no time at all") * 1000
	}
	return s, notes
}

// Notes says what of the group's numbers JMeter reads leniently (text
// that is not a whole number is 0; a plugin's group reads each field its
// own way), evaluated with vu; the engine warns of them when the plan
// compiles and NumbersWarned holds them then, so that the run warns only
// of what it evaluates differently.
func (g *Group) Notes(vu *element.VU) []string {
	if g.Model != nil {
		n := &numbers{vu: vu, path: g.Path}
		g.Model.check(n)
		return n.notes
	}
	_, notes := g.evaluate(vu)
	return notes
}

// warnNotes warns of the group's lenient numbers at its start, but those
// the plan's compilation warned of.
func (g *Group) warnNotes(base *element.VU, notes []string) {
	for _, n := range notes {
		if !slices.Contains(g.NumbersWarned, n) {
			base.Warnf("%s: %s", g.Path, n)
		}
	}
}

// NoSchedule says why a group with the scheduler on starts none of its
// threads, or "" when it starts them: JMeter 5.6 throws "Invalid
// duration" or "Invalid delay" from ThreadGroup.start, which the engine logs
// before it runs the other groups; with delayed start a duration that is
// not positive ends the thread starter at once, and a negative delay is
// none.
func (g *Group) NoSchedule(vu *element.VU) string {
	s, _ := g.evaluate(vu)
	return g.noSchedule(s)
}

func (g *Group) noSchedule(s settings) string {
	const then = ": none of the group's threads starts, as in JMeter 5.6 (\"Invalid %s\"); set a positive duration, or turn the scheduler off"
	switch {
	case !g.Scheduler:
		return ""
	case s.duration <= 0:
		return fmt.Sprintf("the scheduler's duration is %d s (empty is 0)"+then, s.duration/1000, "duration")
	case s.delayMs < 0 && !g.DelayedStart:
		return fmt.Sprintf("the scheduler's startup delay is %d s"+then, s.delayMs/1000, "delay")
	}
	return ""
}

// Execute starts a group's virtual users as JMeter's ThreadGroup does and
// waits for them to end. Virtual user i (from 0) starts i·round(ramp/N)
// after the group (after the startup delay with the scheduler), and with
// the scheduler every one of them stops at start + delay + duration. JMeter
// creates every thread at once and lets each wait for its turn; gojm starts
// each goroutine at its turn, which is the same to the plan. With
// delayedStart JMeter spaces the starts over what is left of the ramp-up
// and starts none past the end.
func (gr *Run) Execute(base *element.VU, soft, hard context.Context) {
	soft, hard, endGroup := gr.contexts(soft, hard) // tg_plugins.go
	defer endGroup()
	g := gr.Group
	if g.Model != nil {
		g.Model.run(gr, base, soft, hard)
		return
	}
	s, notes := g.evaluate(base)
	g.warnNotes(base, notes)
	if why := g.noSchedule(s); why != "" {
		if !g.ScheduleWarned {
			base.Warnf("%s: %s", g.Path, why)
		}
		s.threads = 0
	}
	seg := gr.segment()
	gr.el.Threads = int(seg.Of(int64(s.threads)))
	gr.prog.begin(g, s, base) // for Status
	defer gr.prog.ended.Store(true)
	if s.threads == 0 {
		return
	}
	wait := time.NewTimer(0)
	<-wait.C
	defer wait.Stop()
	sleepUntil := func(at time.Time) bool {
		if d := time.Until(at); d > 0 {
			wait.Reset(d)
			select {
			case <-wait.C:
			case <-soft.Done():
				wait.Stop()
			}
		}
		return soft.Err() == nil
	}
	var wg sync.WaitGroup
	// startVU starts global thread i when this segment of the run owns
	// it; the others start it in theirs, at the same instant.
	startVU := func(i int, stopAt time.Time) {
		if !seg.Owns(int64(i)) {
			return
		}
		vu := gr.NewVU(i+1, soft, hard)
		vu.Vars.CopyFrom(base.Vars)
		vu.StopAt = stopAt
		wg.Add(1)
		go func() {
			defer wg.Done()
			thread.New(vu, g.MainLoop, g.Ctls).Run()
		}()
	}
	start := time.Now()
	if !g.DelayedStart {
		perThread := int64(float32(s.rampMs)/float32(s.threads) + 0.5)
		first := start.Add(time.Duration(s.delayMs) * time.Millisecond)
		var stopAt time.Time
		if g.Scheduler {
			stopAt = first.Add(time.Duration(s.duration) * time.Millisecond)
		}
		for i := 0; i < s.threads; i++ {
			if !seg.Owns(int64(i)) {
				continue
			}
			if !sleepUntil(first.Add(time.Duration(perThread*int64(i)) * time.Millisecond)) {
				break
			}
			startVU(i, stopAt)
		}
		wg.Wait()
		return
	}
	var stopAt time.Time
	if g.Scheduler {
		if !sleepUntil(start.Add(time.Duration(s.delayMs) * time.Millisecond)) {
			return
		}
		stopAt = time.Now().Add(time.Duration(s.duration) * time.Millisecond)
	}
	t0 := time.Now()
	for i := 0; i < s.threads; i++ {
		if i > 0 {
			elapsed := time.Since(t0).Milliseconds()
			d := int64(float32(float64(s.rampMs-elapsed)/float64(s.threads-i)) + 0.5)
			if !sleepUntil(time.Now().Add(time.Duration(max(d, 0)) * time.Millisecond)) {
				break
			}
		}
		if g.Scheduler && time.Now().After(stopAt) {
			break
		}
		startVU(i, stopAt)
	}
	wg.Wait()
}

// NewVU makes virtual user num of the group (0: the user the group
// evaluates its fields with).
func (gr *Run) NewVU(num int, soft, hard context.Context) *element.VU {
	g := gr.Group
	name := fmt.Sprintf("%s %d-%d", g.Name, g.Index, num)
	if gr.run != nil {
		name = gr.run.ThreadPrefix + name
	}
	return element.NewVU(gr.plan, gr.el, gr.run, num, name, soft, hard)
}

// segment is the part of the run this process runs.
func (gr *Run) segment() segment.Segment {
	if gr.run == nil {
		return segment.Whole()
	}
	return gr.run.Segment
}
