package config

import (
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// udvValues are name/value pairs evaluated together, then set: a value
// sees the variables as they were before any of the pairs was set (the
// plugins' Arguments.getArgumentsAsMap; a repeated name keeps the last).
type Variables struct {
	names  []string
	values []*element.Template
	// direct: the values need not wait for each other (one value, or no
	// value reads a variable), so they are set as they are evaluated.
	direct bool
}

func NewVariables(c element.Builder, e *jmx.Element, prop string) *Variables {
	u := &Variables{}
	for _, a := range e.Prop(prop).Prop("Arguments.arguments").Members() {
		name := a.Str("Argument.name")
		if name == "" {
			continue
		}
		u.names = append(u.names, name)
		u.values = append(u.values, c.Template(e, "variable "+name, a.Str("Argument.value")))
	}
	u.direct = len(u.values) <= 1
	if !u.direct {
		u.direct = true
		for _, t := range u.values {
			u.direct = u.direct && t.Const()
		}
	}
	return u
}

func (u *Variables) Set(vu *element.VU) {
	if len(u.names) == 0 {
		return
	}
	if u.direct {
		for i, n := range u.names {
			vu.Vars.Put(n, u.values[i].Eval(vu))
		}
		return
	}
	vals := make([]string, len(u.values))
	for i, t := range u.values {
		vals[i] = t.Eval(vu)
	}
	for i, n := range u.names {
		vu.Vars.Put(n, vals[i])
	}
}
