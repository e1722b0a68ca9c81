package engine

import "github.com/gojm/gojm/engine/internal/element"

// Iteration listeners: JMeter's LoopIterationListener. A CSV Data Set,
// Counter, Random Variable or per-iteration User Parameters element
// registers with the nearest controller above it (for one standing under a
// sampler, the sampler's controller; for one at plan level, each thread
// group), and that controller tells it each time it starts an iteration,
// before it runs any child. The elements are compiled once into c.built,
// where the controllers (ctl_compile.go) find them.

// staticEval evaluates a template while compiling, with the properties
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
