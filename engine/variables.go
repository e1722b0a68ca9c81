package engine

import (
	"context"
	"fmt"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// setUserVariables sets the plan's user-defined variables on a virtual user
// as JMeter does when the test starts: element by element, in tree order,
// each element's values evaluated before any of them is set, so that a
// value sees the variables of earlier elements but not those of its own.
func setUserVariables(vu *element.VU, udvs []udv) {
	var vals []string
	for i := 0; i < len(udvs); {
		j := i + 1
		for j < len(udvs) && !udvs[j].first {
			j++
		}
		vals = vals[:0]
		for _, u := range udvs[i:j] {
			vals = append(vals, u.value.Eval(vu))
		}
		for k, u := range udvs[i:j] {
			vu.Vars.PutSlot(u.slot, vals[k])
		}
		i = j
	}
}

// udv is one user-defined variable, set once at the start of the run.
type udv struct {
	slot  int
	value *element.Template
	// first marks the first variable of its element: an element's values
	// are all evaluated before any is set (setUserVariables).
	first bool
}

// argumentsAtStart reads user-defined variables (an Arguments element).
func argumentsAtStart(c *compiler, e *jmx.Element) {
	c.userVariables(e.Prop("Arguments.arguments"), e)
}

// userVariables adds an Arguments collection to the variables set at the
// start of the run, element by element from top to bottom: a value can use
// the variables of the elements before its own.
func (c *compiler) userVariables(args *jmx.Prop, e *jmx.Element) {
	first := true
	for _, a := range args.Members() {
		name := a.Str("Argument.name")
		if name == "" {
			continue
		}
		t, err := c.tp.Compile(a.Str("Argument.value"))
		c.templateWarnings(e, fmt.Sprintf("variable %q", name))
		if err != nil {
			c.Fail(e, fmt.Errorf("variable %q: %w", name, err))
			continue
		}
		c.compiled.udv = append(c.compiled.udv, udv{slot: c.compiled.Var(name), value: t, first: first})
		first = false
	}
}

// Static evaluates a template while compiling, with the properties
// and the user-defined variables known so far, for checks such as "does
// the CSV file exist". It reports false when the value is not known before
// the run (it still holds a ${…} reference then).
func (c *compiler) Static(t *element.Template) (string, bool) {
	if t.Const() {
		return t.Raw(), true
	}
	s := t.Eval(c.staticVU())
	if containsRef(s) {
		return s, false
	}
	return s, true
}

func containsRef(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '$' && s[i+1] == '{' {
			return true
		}
	}
	return false
}

// staticVU is a virtual user for evaluating fields once, when the plan is
// compiled: it sees the properties and the plan's user-defined variables
// compiled so far, as JMeter's test-start replacement does.
func (c *compiler) staticVU() *element.VU {
	vu := element.NewVU(c.compiled.Plan, element.NewGroup(c.compiled.Plan), nil, 0, "", context.Background(), context.Background())
	setUserVariables(vu, c.compiled.udv)
	return vu
}
