package script

import (
	"strings"
	"sync"
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
// Where Go and Java still part: an empty string is always the same object,
// the literal "". In Java some empty strings are that object (a CSV field,
// an extracted group, on Java 17) and others are not (an extractor's
// default, a function's result, a concatenation, new String("")), so
// == "" warns. A substring that starts where its
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

// internLiterals makes each string literal of a BeanShell script the
// canonical copy of its text; the program holds the handles while it
// lives, and a run's Literals for the whole run.
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

// Literals holds the canonical copies of a run's BeanShell literals for
// the whole run. A program alone is not enough: a text made at run time
// has its program in a bounded cache, and once no handle of a literal is
// left its next unique.Make is another object, so that a value stored
// earlier (vars.put of the literal) would no longer be == the literal.
// It holds at most MaxLiterals texts; the plan's own literals are far
// fewer, and past that a literal is one object while a program holding
// it lives.
type Literals struct {
	mu   sync.Mutex
	held map[unique.Handle[string]]struct{}
}

// MaxLiterals bounds the literals a run holds.
const MaxLiterals = 1 << 16

// Hold keeps p's literals for as long as l lives.
func (l *Literals) Hold(p *Program) {
	if p == nil || len(p.lits) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held == nil {
		l.held = make(map[unique.Handle[string]]struct{}, len(p.lits))
	}
	for _, h := range p.lits {
		if len(l.held) >= MaxLiterals {
			return
		}
		l.held[h] = struct{}{}
	}
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
