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
