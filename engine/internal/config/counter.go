package config

import (
	"strconv"
	"strings"
	"sync"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/internal/java"
	"github.com/gojm/gojm/jmx"
)

// counterConfig is JMeter's Counter config element: at each iteration of
// its controller it sets a variable to the next number, per virtual user
// or shared by all, from start by incr, back to start past end, formatted
// with a DecimalFormat pattern.
type counterConfig struct {
	start, end, incr *element.Template
	name             string
	slot             int
	format           *java.DecimalFormat
	perUser          bool
	resetOnGroupIter bool

	users  *element.Local[userCount]    // per user
	shared *element.Shared[sharedCount] // shared by all users
}

// userCount is a virtual user's Counter: its next value and the thread
// group iteration it last saw.
type userCount struct {
	begun    bool
	cur      int64
	lastIter int64
}

// sharedCount is a run's Counter shared by all users.
type sharedCount struct {
	mu     sync.Mutex
	global int64
	begun  bool
	draws  int64 // values drawn in the whole run, every segment's
}

func BuildCounter(c element.Builder, e *jmx.Element) (element.IterationListener, error) {
	cc := &counterConfig{
		start:            c.Prop(e, "CounterConfig.start"),
		end:              c.Prop(e, "CounterConfig.end"),
		incr:             c.Prop(e, "CounterConfig.incr"),
		name:             e.Str("CounterConfig.name"),
		perUser:          e.Bool("CounterConfig.per_user", false),
		resetOnGroupIter: e.Bool("CounterConfig.reset_on_tg_iteration", false),
	}
	if f := e.Str("CounterConfig.format"); f != "" {
		df, err := java.NewDecimalFormat(f)
		if err != nil {
			c.Plan().Log.Warn("counter format is not a DecimalFormat pattern: numbers are written plain", "element", e.Path(), "err", err)
		}
		cc.format = df
	}
	cc.slot = c.Plan().Var(cc.name)
	cc.users = element.NewLocal(c.Plan(), func(*element.VU) *userCount { return &userCount{} })
	cc.shared = element.NewShared(c.Plan(), func(*element.VU) *sharedCount { return &sharedCount{} })
	return cc, nil
}

// javaLong is getPropertyAsLong: blank or bad text is 0.
func javaLong(t *element.Template, vu *element.VU) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(t.Eval(vu)), 10, 64)
	if err != nil {
		return 0
	}
	return n
}

func (cc *counterConfig) endValue(vu *element.VU) int64 {
	s := strings.TrimSpace(cc.end.Eval(vu))
	if s == "" {
		return 1<<63 - 1
	}
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

func (cc *counterConfig) IterationStart(vu *element.VU) {
	start, end, incr := javaLong(cc.start, vu), cc.endValue(vu), javaLong(cc.incr, vu)
	var v int64
	if !cc.perUser {
		sh := cc.shared.Get(vu)
		seg := vu.Run.Segment
		sh.mu.Lock()
		// A segment of a split run takes its stripe of the values one
		// process would draw, so that no two segments draw the same.
		for {
			if !sh.begun || sh.global > end {
				sh.global, sh.begun = start, true
			}
			v = sh.global
			sh.global += incr
			sh.draws++
			if seg.Owns(sh.draws - 1) {
				break
			}
		}
		sh.mu.Unlock()
	} else {
		st := cc.users.Get(vu)
		if !st.begun {
			st.cur, st.begun, st.lastIter = start, true, 1
		}
		if cc.resetOnGroupIter {
			if it := int64(vu.Iteration); it != st.lastIter {
				st.cur = start
				st.lastIter = it
			}
		}
		v = st.cur
		next := v + incr
		if next > end {
			next = start
		}
		st.cur = next
	}
	vu.Vars.PutSlot(cc.slot, cc.text(v))
}

func (cc *counterConfig) text(v int64) string {
	if cc.format != nil {
		return cc.format.Format(v)
	}
	return strconv.FormatInt(v, 10)
}
