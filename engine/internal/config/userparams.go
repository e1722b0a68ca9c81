package config

import (
	"strconv"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// userParameters is JMeter's User Parameters pre-processor: a table of
// variables with one column of values per user (user n takes column
// (n-1) mod columns). The values are set, in order, before each sampler in
// its scope, or, with "update once per iteration", when its controller
// starts an iteration.
type userParameters struct {
	slots []int
	cols  [][]*element.Template // [column][variable]
}

// userParametersPerIteration is User Parameters set once per iteration.
type userParametersPerIteration struct{ *userParameters }

func BuildUserParameters(c element.Builder, e *jmx.Element) (element.PreProcessor, error) {
	up := &userParameters{}
	for _, n := range e.Prop("UserParameters.names").Members() {
		up.slots = append(up.slots, c.Plan().Var(n.Value))
	}
	for i, col := range e.Prop("UserParameters.thread_values").Members() {
		var vals []*element.Template
		for j, v := range col.Members() {
			vals = append(vals, c.Template(e, "user "+strconv.Itoa(i+1)+" value "+strconv.Itoa(j+1), v.Value))
		}
		up.cols = append(up.cols, vals)
	}
	if e.Bool("UserParameters.per_iteration", false) {
		return userParametersPerIteration{up}, nil
	}
	return up, nil
}

func (up *userParameters) PreProcess(vu *element.VU) { up.set(vu) }

func (up *userParameters) set(vu *element.VU) {
	if len(up.cols) == 0 {
		return
	}
	n := vu.Num - 1 // JMeter's 0-based thread number
	if n < 0 {
		n = 0
	}
	col := up.cols[n%len(up.cols)]
	for i, slot := range up.slots {
		if i < len(col) {
			vu.Vars.PutSlot(slot, col[i].Eval(vu))
		}
	}
}

// pre does nothing: the values are set when the iteration starts.
func (userParametersPerIteration) PreProcess(*element.VU) {}

func (u userParametersPerIteration) IterationStart(vu *element.VU) {
	u.set(vu)
}
