package script

import (
	"strings"
	"unique"
	"unsafe"

	"github.com/dop251/goja"
)

// BeanShell's == on two strings compares object references, as Java's
// does. gojm keeps that identity in the Go string beneath a value: two
// strings are one object when they share their bytes (the same data
// pointer and length). A value keeps its bytes as it goes through
// variables, vars.put and vars.get, so what Java hands back unchanged is
// the same object here too. Java interns string literals, so the
// translation makes each BeanShell literal the canonical copy of its text
// (unique.Make), the same for every script of the run; what Java makes
// anew (concatenation, new String) gets bytes of its own (fresh).
//
// Where Go and Java still part: an empty string is always the same object
// (Java's are mostly the literal ""); a substring that starts where its
// string starts shares that string's bytes, so two such substrings of one
// string are one object; a non-ASCII string made inside the script is
// another object each time it is read.

// identityHelpers adds intern, same and fresh to J.
func (r *runtime) identityHelpers(set func(string, func(goja.FunctionCall) goja.Value)) {
	vm := r.vm
	set("intern", func(c goja.FunctionCall) goja.Value {
		return vm.ToValue(unique.Make(argStr(c, 0)).Value())
	})
	set("same", func(c goja.FunctionCall) goja.Value {
		return vm.ToValue(sameString(c.Argument(0), c.Argument(1)))
	})
	set("fresh", func(c goja.FunctionCall) goja.Value {
		return vm.ToValue(strings.Clone(argStr(c, 0)))
	})
}

// sameString reports whether two string values are one Java object.
func sameString(a, b goja.Value) bool {
	x, ok1 := a.Export().(string)
	y, ok2 := b.Export().(string)
	if !ok1 || !ok2 || len(x) != len(y) {
		return false
	}
	return len(x) == 0 || unsafe.StringData(x) == unsafe.StringData(y)
}

// internLiterals holds the canonical copy of each string literal of a
// BeanShell script for as long as its program lives, so that a literal's
// text stays one object for the whole run.
func internLiterals(lits []string) []unique.Handle[string] {
	if len(lits) == 0 {
		return nil
	}
	h := make([]unique.Handle[string], len(lits))
	for i, s := range lits {
		h[i] = unique.Make(s)
	}
	return h
}

// bshAdd is BeanShell's + on the direct path: a concatenation is a new
// String, where Go's hands back a side the other adds nothing to.
func bshAdd(a, b val) val {
	if a.k == vString || b.k == vString {
		x, y := a.str(), b.str()
		if x == "" || y == "" {
			return strVal(strings.Clone(x + y))
		}
		return strVal(x + y)
	}
	return add(a, b)
}
