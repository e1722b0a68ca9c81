package extract

import (
	"strconv"
	"strings"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// How extractors leave variables behind.

// putVar sets a variable, copying the value so that it never aliases a
// response body. A variable that already holds the same text keeps it: a
// session id or user id extracted on every sample is copied once, not once
// per sample.
func putVar(vu *element.VU, name, value string) {
	if old, ok := vu.Vars.Get(name); ok && old == value {
		return
	}
	vu.Vars.Put(name, strings.Clone(value))
}

// matchNr is the "_matchNr" suffix every extractor uses.
const matchNrSuffix = "_matchNr"

// countVar reads an integer variable such as name_matchNr; 0 when absent.
func countVar(vu *element.VU, name string) int {
	s, ok := vu.Vars.Get(name)
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0
	}
	return n
}

// intProp evaluates an integer field as JMeter's getPropertyAsInt does:
// blank or non-numeric text gives def.
func intProp(vu *element.VU, t *element.Template, def int) int {
	return jmx.Int(t.Eval(vu), def)
}

// nthName is name_n.
func nthName(name string, n int) string {
	return name + "_" + strconv.Itoa(n)
}

// pick returns the index of the match a match number selects among n
// matches (1-based numbers, 0 for a random one), or -1 when there is none.
func pick(vu *element.VU, number, n int) int {
	if n <= 0 || number > n {
		return -1
	}
	if number == 0 {
		return vu.Rand.IntN(n)
	}
	return number - 1
}
