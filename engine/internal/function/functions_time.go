package function

import (
	"strconv"
	"strings"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/internal/java"
)

// This file holds the date functions and the subset of Java's
// DateTimeFormatter (and SimpleDateFormat) patterns they need.

// timeAliases are __time's named formats (JMeter's time.YMD… properties).
var timeAliases = map[string]string{"YMD": "yyyyMMdd", "HMS": "HHmmss", "YMDHMS": "yyyyMMdd-HHmmss"}

// ${__time(format,var)}: the current time in milliseconds, "/N" for
// milliseconds divided by N, or formatted with a Java pattern (YMD, HMS,
// YMDHMS, USER1 and USER2 name patterns, overridable by time.NAME
// properties).
func fnTime(c *Compiler, args []*element.Template) (element.Function, error) {
	format, v := Arg(args, 0), Arg(args, 1)
	var last *element.Local[lastMilli]
	if c != nil && c.plan != nil && !c.runtime { // a template compiled while the plan runs may add no slot
		last = element.Once(c.plan, lastMilliKey, func() *element.Local[lastMilli] {
			return element.NewLocal(c.plan, func(*element.VU) *lastMilli { return &lastMilli{} })
		})
	}
	if v == nil || v.Const() && strings.TrimSpace(v.Raw()) == "" {
		if f := ""; format == nil || format.Const() {
			if format != nil {
				f = strings.TrimSpace(format.Raw())
			}
			if f == "" {
				return nowMillis{div: 1, last: last}, nil
			}
			if len(f) > 1 && f[0] == '/' {
				if div, err := strconv.ParseInt(f[1:], 10, 64); err == nil && div > 0 {
					return nowMillis{div: div}, nil
				}
			}
		}
	}
	return StoreAs(v, func(vu *element.VU) string {
		now := time.Now()
		f := strings.TrimSpace(EvalOr(format, vu, ""))
		if f == "" {
			ms := now.UnixMilli()
			if last == nil || vu == nil {
				return strconv.FormatInt(ms, 10)
			}
			l := last.Get(vu)
			if l.s == "" || l.ms != ms {
				l.ms, l.s = ms, strconv.FormatInt(ms, 10)
			}
			return l.s
		}
		if def, ok := timeAliases[f]; ok || f == "USER1" || f == "USER2" {
			f = propDefault(vu, "time."+f, def)
		}
		if len(f) > 1 && f[0] == '/' {
			if div, err := strconv.ParseInt(f[1:], 10, 64); err == nil && div > 0 {
				return strconv.FormatInt(now.UnixMilli()/div, 10)
			}
		}
		jf, err := java.TimeFormatOf(f)
		if err != nil {
			vu.Warnf("__time: %v", err)
			return ""
		}
		return jf.Format(now)
	}), nil
}

// nowMillis is ${__time()} or ${__time(/div)} saved in no variable: the
// time in milliseconds, divided by div, written in place in a template.
type nowMillis struct {
	div  int64
	last *element.Local[lastMilli] // nil: no string kept (div > 1)
}

func (t nowMillis) Eval(vu *element.VU) string {
	n := time.Now().UnixMilli() / t.div
	if t.last == nil || vu == nil {
		return strconv.FormatInt(n, 10)
	}
	l := t.last.Get(vu)
	if l.s == "" || l.ms != n {
		l.ms, l.s = n, strconv.FormatInt(n, 10)
	}
	return l.s
}

func (t nowMillis) Append(_ *element.VU, dst []byte) []byte {
	return strconv.AppendInt(dst, time.Now().UnixMilli()/t.div, 10)
}

// lastMilli is a user's last ${__time()}: the URL and the headers of one
// sample usually ask for it within the same millisecond, and get one
// string rather than one each.
type lastMilli struct {
	ms int64
	s  string
}

var lastMilliKey = element.NewKey[*element.Local[lastMilli]]("__time's last value")

// ${__timeShift(format,date,shift,locale,var)}: date (now when blank;
// milliseconds when there is no format) moved by an ISO-8601 duration
// such as P1DT2H or -PT30M.
func fnTimeShift(_ *Compiler, args []*element.Template) (element.Function, error) {
	format, date, shift := args[0], args[1], args[2]
	v := args[3]
	if len(args) == 5 {
		v = args[4]
	}
	return StoreAs(v, func(vu *element.VU) string {
		f := strings.TrimSpace(format.Eval(vu))
		var jf java.TimeFormat
		if f != "" {
			var err error
			if jf, err = java.TimeFormatOf(f); err != nil {
				vu.Warnf("__timeShift: %v", err)
				return ""
			}
		}
		t := time.Now()
		if d := strings.TrimSpace(date.Eval(vu)); d != "" {
			if jf != nil {
				if p, err := jf.Parse(d, time.Local); err == nil {
					t = p
				} else {
					vu.Warnf("__timeShift: date %q does not match %q: %v", d, f, err)
				}
			} else if ms, err := strconv.ParseInt(d, 10, 64); err == nil {
				t = time.UnixMilli(ms)
			} else {
				vu.Warnf("__timeShift: date %q is not milliseconds", d)
			}
		}
		if s := strings.TrimSpace(shift.Eval(vu)); s != "" {
			d, err := java.ParseDuration(s)
			if err != nil {
				vu.Warnf("__timeShift: %v", err)
			} else {
				t = t.Add(d)
			}
		}
		if jf == nil {
			return strconv.FormatInt(t.UnixMilli(), 10)
		}
		return jf.Format(t)
	}), nil
}

// ${__dateTimeConvert(date,sourceFormat,targetFormat,var)}: date (in
// milliseconds when sourceFormat is blank) in targetFormat.
func fnDateTimeConvert(_ *Compiler, args []*element.Template) (element.Function, error) {
	date, src, dst, v := args[0], args[1], args[2], Arg(args, 3)
	return StoreAs(v, func(vu *element.VU) string {
		d, sf := date.Eval(vu), src.Eval(vu)
		tf, err := java.TimeFormatOf(dst.Eval(vu))
		if err != nil {
			vu.Warnf("__dateTimeConvert: %v", err)
			return ""
		}
		var t time.Time
		if sf == "" {
			ms, err := strconv.ParseInt(d, 10, 64)
			if err != nil {
				vu.Warnf("__dateTimeConvert: %q is not milliseconds", d)
				return ""
			}
			t = time.UnixMilli(ms)
		} else {
			jf, err := java.TimeFormatOf(sf)
			if err == nil {
				t, err = jf.Parse(d, time.Local)
			}
			if err != nil {
				vu.Warnf("__dateTimeConvert: %v", err)
				return ""
			}
		}
		return tf.Format(t.In(time.Local))
	}), nil
}

// ${__RandomDate(format,start,end,locale,var)}: a random day in [start,
// end) (start defaults to today), both read and written with format
// (default yyyy-MM-dd).
func fnRandomDate(_ *Compiler, args []*element.Template) (element.Function, error) {
	format, start, end, v := args[0], args[1], args[2], Arg(args, 4)
	return StoreAs(v, func(vu *element.VU) string {
		f := strings.TrimSpace(format.Eval(vu))
		if f == "" {
			f = "yyyy-MM-dd"
		}
		jf, err := java.TimeFormatOf(f)
		if err != nil {
			vu.Warnf("__RandomDate: %v", err)
			return ""
		}
		day := func(s string) (int64, error) {
			t, err := jf.Parse(s, time.UTC)
			if err != nil {
				return 0, err
			}
			return t.Unix() / 86400, nil
		}
		var from int64
		if s := strings.TrimSpace(start.Eval(vu)); s != "" {
			if from, err = day(s); err != nil {
				vu.Warnf("__RandomDate: start date %q: %v", s, err)
			}
		} else {
			y, m, d := time.Now().Date()
			from = time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400
		}
		to, err := day(strings.TrimSpace(end.Eval(vu)))
		if err != nil {
			vu.Warnf("__RandomDate: end date %q: %v", end.Eval(vu), err)
		}
		if to < from {
			vu.Warnf("__RandomDate: end date %q must not be before the start date", end.Eval(vu))
			return ""
		}
		pick := from
		if to > from {
			pick = from + vu.Rand.Int64N(to-from)
		}
		return jf.Format(time.Unix(pick*86400, 0).UTC())
	}), nil
}
