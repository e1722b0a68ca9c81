package engine

import (
	"strconv"
	"strings"
	"sync"

	"github.com/gojm/gojm/internal/java"
	"github.com/gojm/gojm/jmx"
)

// counterConfig is JMeter's Counter config element: at each iteration of
// its controller it sets a variable to the next number, per virtual user
// or shared by all, from start by incr, back to start past end, formatted
// with a DecimalFormat pattern.
type counterConfig struct {
	start, end, incr *Template
	name             string
	slot             int
	format           *java.DecimalFormat
	perUser          bool
	resetOnGroupIter bool

	// per user: slots of the next value, whether it is set, and the thread
	// group iteration last seen
	cur, init, lastIter int

	mu     sync.Mutex // shared counter
	global int64
	begun  bool
}

func buildCounterConfig(c *compiler, e *jmx.Element) (iterationListener, error) {
	cc := &counterConfig{
		start:            c.prop(e, "CounterConfig.start"),
		end:              c.prop(e, "CounterConfig.end"),
		incr:             c.prop(e, "CounterConfig.incr"),
		name:             e.Str("CounterConfig.name"),
		perUser:          e.Bool("CounterConfig.per_user", false),
		resetOnGroupIter: e.Bool("CounterConfig.reset_on_tg_iteration", false),
	}
	if f := e.Str("CounterConfig.format"); f != "" {
		df, err := java.NewDecimalFormat(f)
		if err != nil {
			c.plan.log.Warn("counter format is not a DecimalFormat pattern: numbers are written plain", "element", e.Path(), "err", err)
		}
		cc.format = df
	}
	cc.slot = c.plan.syms.intern(cc.name)
	cc.cur, cc.init, cc.lastIter = c.newSlot(), c.newSlot(), c.newSlot()
	return cc, nil
}

// javaLong is getPropertyAsLong: blank or bad text is 0.
func javaLong(t *Template, vu *VU) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(t.Eval(vu)), 10, 64)
	if err != nil {
		return 0
	}
	return n
}

func (cc *counterConfig) endValue(vu *VU) int64 {
	s := strings.TrimSpace(cc.end.Eval(vu))
	if s == "" {
		return 1<<63 - 1
	}
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

func (cc *counterConfig) iterationStart(vu *VU) {
	start, end, incr := javaLong(cc.start, vu), cc.endValue(vu), javaLong(cc.incr, vu)
	var v int64
	if !cc.perUser {
		cc.mu.Lock()
		if !cc.begun || cc.global > end {
			cc.global, cc.begun = start, true
		}
		v = cc.global
		cc.global += incr
		cc.mu.Unlock()
	} else {
		st := vu.state
		if st[cc.init] == 0 {
			st[cc.cur], st[cc.init], st[cc.lastIter] = start, 1, 1
		}
		if cc.resetOnGroupIter {
			if it := int64(vu.Iteration); it != st[cc.lastIter] {
				st[cc.cur] = start
				st[cc.lastIter] = it
			}
		}
		v = st[cc.cur]
		next := v + incr
		if next > end {
			next = start
		}
		st[cc.cur] = next
	}
	vu.Vars.putSlot(cc.slot, cc.text(v))
}

func (cc *counterConfig) text(v int64) string {
	if cc.format != nil {
		return cc.format.Format(v)
	}
	return strconv.FormatInt(v, 10)
}
