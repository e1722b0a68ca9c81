package config

import (
	"strconv"
	"strings"
	"sync"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/internal/java"
	"github.com/gojm/gojm/jmx"
)

// randomVariable is JMeter's Random Variable config element: at each
// iteration of its controller it sets a variable to a random whole number
// in [min, max], formatted with a DecimalFormat pattern. With a seed it
// draws JMeter's exact sequence (java.util.Random), one generator per
// virtual user or one shared.
type randomVariable struct {
	slot      int
	format    *java.DecimalFormat
	min       int64
	rng       int32 // max-min+1; 0 when the bounds are wrong
	seeded    bool
	seed      int64
	perThread bool

	shared *element.Shared[lockedRandom] // one for all users, with a seed
	users  *element.Local[java.Random]   // per user, with a seed
}

// lockedRandom is a seeded generator the run's users share.
type lockedRandom struct {
	mu sync.Mutex
	r  java.Random
}

func BuildRandomVariable(c element.Builder, e *jmx.Element) (element.IterationListener, error) {
	rv := &randomVariable{perThread: e.Bool("perThread", false)}
	rv.slot = c.Plan().Var(e.Str("variableName"))
	eval := func(name string) string {
		s, _ := c.Static(c.Prop(e, name))
		return strings.TrimSpace(s)
	}
	if f := eval("outputFormat"); f != "" {
		if df, err := java.NewDecimalFormat(f); err == nil {
			rv.format = df
		}
	}
	lo, err1 := strconv.ParseInt(eval("minimumValue"), 10, 64)
	hi, err2 := strconv.ParseInt(eval("maximumValue"), 10, 64)
	if err1 != nil || err2 != nil || hi < lo {
		c.Plan().Log.Warn("random variable: minimum and maximum are not whole numbers with minimum <= maximum; the variable is not set", "element", e.Path())
	} else {
		rv.min = lo
		span := hi - lo + 1
		if span > 1<<31-1 || span <= 0 {
			span = 1<<31 - 1 // JMeter's limit
		}
		rv.rng = int32(span)
	}
	if s := eval("randomSeed"); s != "" {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			rv.seeded, rv.seed = true, n
		}
	}
	rv.users = element.NewLocal(c.Plan(), func(*element.VU) *java.Random { return new(java.NewRandom(rv.seed)) })
	rv.shared = element.NewShared(c.Plan(), func(*element.VU) *lockedRandom { return &lockedRandom{r: java.NewRandom(rv.seed)} })
	return rv, nil
}

func (rv *randomVariable) IterationStart(vu *element.VU) {
	if rv.rng <= 0 {
		return
	}
	var n int32
	switch {
	case rv.perThread && rv.seeded:
		n = rv.users.Get(vu).NextInt(rv.rng)
	case rv.seeded:
		sh := rv.shared.Get(vu)
		sh.mu.Lock()
		n = sh.r.NextInt(rv.rng)
		sh.mu.Unlock()
	default:
		n = vu.Rand.Int32N(rv.rng)
	}
	v := rv.min + int64(n)
	if rv.format != nil {
		vu.Vars.PutSlot(rv.slot, rv.format.Format(v))
	} else {
		vu.Vars.PutSlot(rv.slot, strconv.FormatInt(v, 10))
	}
}
