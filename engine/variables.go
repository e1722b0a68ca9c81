package engine

import "github.com/gojm/gojm/engine/internal/element"

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
