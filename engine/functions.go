package engine

import (
	"crypto/rand"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// functions is the table of JMeter functions gojm runs, by name. A
// ${__name(…)} call of any other function is refused when the plan is
// compiled.
var functions map[string]funcDef

func init() {
	functions = map[string]funcDef{
		"__P":               {0, 2, buildP},
		"__property":        {1, 3, buildProperty},
		"__setProperty":     {2, 3, buildSetProperty},
		"__threadNum":       {0, 0, constFn(func(vu *VU) string { return strconv.Itoa(vu.Num) })},
		"__threadGroupName": {0, 0, constFn(func(vu *VU) string { return vu.group.name })},
		"__samplerName":     {0, 1, buildSamplerName},
		"__Random":          {2, 3, buildRandom},
		"__time":            {0, 2, buildTime},
		"__UUID":            {0, 0, constFn(func(*VU) string { return uuid4() })},
		"__counter":         {1, 2, buildCounter},
		"__V":               {1, 2, buildV},
	}
}

// constFn builds a function that takes no arguments.
func constFn(f func(vu *VU) string) func(*templater, []*Template) (Function, error) {
	return func(*templater, []*Template) (Function, error) { return FuncFunc(f), nil }
}

// storeAs returns f, also saving its value in the variable named by the
// optional argument v, as JMeter's functions with a "name of variable"
// argument do.
func storeAs(v *Template, f func(vu *VU) string) Function {
	if v == nil {
		return FuncFunc(f)
	}
	return FuncFunc(func(vu *VU) string {
		s := f(vu)
		if name := strings.TrimSpace(v.Eval(vu)); name != "" {
			vu.Vars.Put(name, s)
		}
		return s
	})
}

func optArg(args []*Template, i int) *Template {
	if i < len(args) {
		return args[i]
	}
	return nil
}

// ${__P(name,default)}: a property, or the default ("1" when none is given
// and the property is unset, as JMeter does).
func buildP(_ *templater, args []*Template) (Function, error) {
	if len(args) == 0 {
		return FuncFunc(func(*VU) string { return "1" }), nil
	}
	name, def := args[0], optArg(args, 1)
	return FuncFunc(func(vu *VU) string {
		if s, ok := vu.plan.Props.Get(name.Eval(vu)); ok {
			return s
		}
		if def != nil {
			return def.Eval(vu)
		}
		return "1"
	}), nil
}

// ${__property(name,var,default)}: a property, or the default (the
// property's name when none is given).
func buildProperty(_ *templater, args []*Template) (Function, error) {
	name, v, def := args[0], optArg(args, 1), optArg(args, 2)
	return storeAs(v, func(vu *VU) string {
		n := name.Eval(vu)
		if s, ok := vu.plan.Props.Get(n); ok {
			return s
		}
		if def != nil {
			return def.Eval(vu)
		}
		return n
	}), nil
}

// ${__setProperty(name,value,returnOriginal)}
func buildSetProperty(_ *templater, args []*Template) (Function, error) {
	name, value, ret := args[0], args[1], optArg(args, 2)
	return FuncFunc(func(vu *VU) string {
		n := name.Eval(vu)
		old, _ := vu.plan.Props.Get(n)
		vu.plan.Props.Set(n, value.Eval(vu))
		if ret != nil && strings.EqualFold(ret.Eval(vu), "true") {
			return old
		}
		return ""
	}), nil
}

func buildSamplerName(_ *templater, args []*Template) (Function, error) {
	return storeAs(optArg(args, 0), func(vu *VU) string { return vu.SamplerName }), nil
}

// ${__Random(min,max,var)}: an integer in [min, max].
func buildRandom(_ *templater, args []*Template) (Function, error) {
	lo, hi, v := args[0], args[1], optArg(args, 2)
	return storeAs(v, func(vu *VU) string {
		a, err1 := strconv.ParseInt(strings.TrimSpace(lo.Eval(vu)), 10, 64)
		b, err2 := strconv.ParseInt(strings.TrimSpace(hi.Eval(vu)), 10, 64)
		if err1 != nil || err2 != nil || b < a {
			vu.warnf("__Random(%s,%s): bounds are not integers with min <= max", lo.Eval(vu), hi.Eval(vu))
			return ""
		}
		span := uint64(b-a) + 1
		if span == 0 { // the whole int64 range
			return strconv.FormatInt(int64(vu.rng.Uint64()), 10)
		}
		return strconv.FormatInt(a+int64(vu.rng.Uint64N(span)), 10)
	}), nil
}

// ${__time(format,var)}: the current time in milliseconds, or formatted with
// a Java SimpleDateFormat pattern; "/1000" gives seconds.
func buildTime(_ *templater, args []*Template) (Function, error) {
	format, v := optArg(args, 0), optArg(args, 1)
	return storeAs(v, func(vu *VU) string {
		now := time.Now()
		f := ""
		if format != nil {
			f = format.Eval(vu)
		}
		switch {
		case f == "":
			return strconv.FormatInt(now.UnixMilli(), 10)
		case strings.HasPrefix(f, "/"):
			div, err := strconv.ParseInt(f[1:], 10, 64)
			if err != nil || div == 0 {
				return strconv.FormatInt(now.UnixMilli(), 10)
			}
			return strconv.FormatInt(now.UnixMilli()/div, 10)
		}
		return FormatJavaTime(now, f)
	}), nil
}

// ${__counter(perUser,var)}: 1, 2, 3… for each virtual user (TRUE) or for
// the whole run (FALSE).
func buildCounter(tp *templater, args []*Template) (Function, error) {
	perUser := strings.EqualFold(strings.TrimSpace(args[0].Raw()), "TRUE")
	v := optArg(args, 1)
	if perUser {
		slot := tp.c.newSlot()
		return storeAs(v, func(vu *VU) string {
			vu.state[slot]++
			return strconv.FormatInt(vu.state[slot], 10)
		}), nil
	}
	n := new(atomic.Int64)
	return storeAs(v, func(*VU) string { return strconv.FormatInt(n.Add(1), 10) }), nil
}

// ${__V(name,default)}: the variable whose name is itself computed.
func buildV(_ *templater, args []*Template) (Function, error) {
	name, def := args[0], optArg(args, 1)
	return FuncFunc(func(vu *VU) string {
		n := name.Eval(vu)
		if s, ok := vu.Vars.Get(n); ok {
			return s
		}
		if def != nil {
			return def.Eval(vu)
		}
		return n
	}), nil
}

// uuid4 returns a random (version 4) UUID.
func uuid4() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on Linux
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// FormatJavaTime formats t with a Java SimpleDateFormat pattern (the letters
// JMeter plans use: y M d H h m s S a E z Z, quoted text with '…').
func FormatJavaTime(t time.Time, pattern string) string {
	var b strings.Builder
	for i := 0; i < len(pattern); {
		c := pattern[i]
		if c == '\'' {
			j := strings.IndexByte(pattern[i+1:], '\'')
			if j < 0 {
				b.WriteString(pattern[i+1:])
				break
			}
			if j == 0 {
				b.WriteByte('\'')
			}
			b.WriteString(pattern[i+1 : i+1+j])
			i += j + 2
			continue
		}
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			b.WriteByte(c)
			i++
			continue
		}
		n := 1
		for i+n < len(pattern) && pattern[i+n] == c {
			n++
		}
		i += n
		pad := func(v, w int) { fmt.Fprintf(&b, "%0*d", w, v) }
		switch c {
		case 'y':
			if n == 2 {
				pad(t.Year()%100, 2)
			} else {
				pad(t.Year(), n)
			}
		case 'M':
			switch {
			case n >= 4:
				b.WriteString(t.Month().String())
			case n == 3:
				b.WriteString(t.Month().String()[:3])
			default:
				pad(int(t.Month()), n)
			}
		case 'd':
			pad(t.Day(), n)
		case 'H':
			pad(t.Hour(), n)
		case 'h':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			pad(h, n)
		case 'm':
			pad(t.Minute(), n)
		case 's':
			pad(t.Second(), n)
		case 'S':
			pad(t.Nanosecond()/1e6, int(math.Max(float64(n), 1)))
		case 'a':
			b.WriteString(t.Format("PM"))
		case 'E':
			if n >= 4 {
				b.WriteString(t.Weekday().String())
			} else {
				b.WriteString(t.Weekday().String()[:3])
			}
		case 'z':
			b.WriteString(t.Format("MST"))
		case 'Z':
			b.WriteString(t.Format("-0700"))
		case 'X':
			b.WriteString(t.Format("Z07:00"))
		default:
			b.WriteString(strings.Repeat(string(c), n))
		}
	}
	return b.String()
}
