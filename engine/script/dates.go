package script

import (
	"time"

	"github.com/dop251/goja"
	"github.com/gojm/gojm/internal/java"
)

// The Go side of java.util.Date, SimpleDateFormat, TimeZone and
// MessageDigest (runtime_methods.js): times are milliseconds since the
// epoch, zones IANA names ("" is the system's, as the JVM's default).

// zoneOf is TimeZone.getTimeZone: an unknown ID is GMT, as in Java.
func zoneOf(id string) *time.Location {
	switch id {
	case "":
		return time.Local
	case "GMT", "UTC":
		return time.UTC
	}
	if loc, err := time.LoadLocation(id); err == nil {
		return loc
	}
	return time.UTC
}

// zoneID is a zone's ID as TimeZone.getID gives it.
func zoneID(id string) string {
	switch {
	case id == "":
		return time.Local.String()
	case id == "UTC" || id == "GMT":
		return id
	}
	if _, err := time.LoadLocation(id); err != nil {
		return "GMT"
	}
	return id
}

// dateHelpers adds the date and digest functions to the J object.
func (r *runtime) dateHelpers(set func(name string, f func(c goja.FunctionCall) goja.Value)) {
	vm := r.vm
	set("dateFormat", func(c goja.FunctionCall) goja.Value {
		f, err := java.TimeFormatOf(argStr(c, 0))
		if err != nil {
			r.throw("java.lang.IllegalArgumentException", err.Error())
		}
		return vm.ToValue(f.Format(time.UnixMilli(c.Argument(1).ToInteger()).In(zoneOf(argStr(c, 2)))))
	})
	set("dateParse", func(c goja.FunctionCall) goja.Value {
		f, err := java.TimeFormatOf(argStr(c, 0))
		if err != nil {
			r.throw("java.lang.IllegalArgumentException", err.Error())
		}
		t, err := f.Parse(argStr(c, 1), zoneOf(argStr(c, 2)))
		if err != nil {
			r.throw("java.text.ParseException", "Unparseable date: \""+argStr(c, 1)+"\"")
		}
		return vm.ToValue(t.UnixMilli())
	})
	set("zoneOffset", func(c goja.FunctionCall) goja.Value {
		_, off := time.UnixMilli(c.Argument(0).ToInteger()).In(zoneOf(argStr(c, 1))).Zone()
		return vm.ToValue(int64(off) * 1000)
	})
	set("zoneID", func(c goja.FunctionCall) goja.Value { return vm.ToValue(zoneID(argStr(c, 0))) })
	set("digestOK", func(c goja.FunctionCall) goja.Value { return vm.ToValue(newDigest(argStr(c, 0)) != nil) })
	set("digestBytes", func(c goja.FunctionCall) goja.Value {
		h := newDigest(argStr(c, 0))
		for _, b := range r.ints(c.Argument(1)) {
			h.Write([]byte{byte(b)})
		}
		sum := h.Sum(nil)
		out := make([]int, len(sum))
		for i, b := range sum {
			out[i] = int(int8(b))
		}
		return vm.ToValue(out)
	})
}

// Calendar's fields, by Java's numbers.
const (
	calYear        = 1
	calMonth       = 2
	calWeekOfYear  = 3
	calDate        = 5
	calDayOfYear   = 6
	calDayOfWeek   = 7
	calAmPm        = 9
	calHour        = 10
	calHourOfDay   = 11
	calMinute      = 12
	calSecond      = 13
	calMillisecond = 14
)

// calGet is Calendar.get: MONTH from 0, DAY_OF_WEEK from Sunday = 1.
// WEEK_OF_YEAR, which depends on the JVM's locale, is not there.
func calGet(t time.Time, field int) (int, bool) {
	switch field {
	case calYear:
		return t.Year(), true
	case calMonth:
		return int(t.Month()) - 1, true
	case calDate:
		return t.Day(), true
	case calDayOfYear:
		return t.YearDay(), true
	case calDayOfWeek:
		return int(t.Weekday()) + 1, true
	case calAmPm:
		return t.Hour() / 12, true
	case calHour:
		return t.Hour() % 12, true
	case calHourOfDay:
		return t.Hour(), true
	case calMinute:
		return t.Minute(), true
	case calSecond:
		return t.Second(), true
	case calMillisecond:
		return t.Nanosecond() / 1e6, true
	}
	return 0, false
}

// calAdd is Calendar.add (set: Calendar.set, lenient): a month or year
// added keeps the day within the month it lands in, as Java's does.
func calAdd(t time.Time, field, n int, set bool) (time.Time, bool) {
	y, mo, d := t.Date()
	h, mi, s := t.Clock()
	ms := t.Nanosecond() / 1e6
	if set {
		v, ok := calGet(t, field)
		if !ok {
			return t, false
		}
		n -= v
	}
	switch field {
	case calYear, calMonth:
		months := n
		if field == calYear {
			months = 12 * n
		}
		first := time.Date(y, mo+time.Month(months), 1, h, mi, s, ms*1e6, t.Location())
		last := first.AddDate(0, 1, -1).Day()
		return first.AddDate(0, 0, min(d, last)-1), true
	case calDate, calDayOfYear, calDayOfWeek:
		return time.Date(y, mo, d+n, h, mi, s, ms*1e6, t.Location()), true
	case calWeekOfYear:
		return time.Date(y, mo, d+7*n, h, mi, s, ms*1e6, t.Location()), true
	case calHour, calHourOfDay:
		return t.Add(time.Duration(n) * time.Hour), true
	case calAmPm:
		return t.Add(time.Duration(12*n) * time.Hour), true
	case calMinute:
		return t.Add(time.Duration(n) * time.Minute), true
	case calSecond:
		return t.Add(time.Duration(n) * time.Second), true
	case calMillisecond:
		return t.Add(time.Duration(n) * time.Millisecond), true
	}
	return t, false
}

// calendarHelpers adds Calendar's get, add and set to the J object.
func (r *runtime) calendarHelpers(set func(name string, f func(c goja.FunctionCall) goja.Value)) {
	vm := r.vm
	at := func(c goja.FunctionCall) time.Time {
		return time.UnixMilli(c.Argument(0).ToInteger()).In(zoneOf(argStr(c, 1)))
	}
	field := func(c goja.FunctionCall) int {
		f := int(c.Argument(2).ToInteger())
		if f < 0 || f > 16 {
			r.throw("java.lang.ArrayIndexOutOfBoundsException", "Index "+c.Argument(2).String()+" out of bounds for length 17")
		}
		return f
	}
	set("calGet", func(c goja.FunctionCall) goja.Value {
		v, ok := calGet(at(c), field(c))
		if !ok {
			r.throw("java.lang.IllegalArgumentException", "gojm: Calendar field "+c.Argument(2).String())
		}
		return vm.ToValue(v)
	})
	change := func(setting bool) func(c goja.FunctionCall) goja.Value {
		return func(c goja.FunctionCall) goja.Value {
			t, ok := calAdd(at(c), field(c), int(c.Argument(3).ToInteger()), setting)
			if !ok {
				r.throw("java.lang.IllegalArgumentException", "gojm: Calendar field "+c.Argument(2).String())
			}
			return vm.ToValue(t.UnixMilli())
		}
	}
	set("calAdd", change(false))
	set("calSet", change(true))
}
