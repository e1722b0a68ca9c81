package script

import (
	"strings"
	"testing"
)

// TestBshStringEqWarning: BeanShell's == between strings runs; it warns
// only where neither side is a literal, where gojm's identity may part
// from Java's, and once per script.
func TestBshStringEqWarning(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		warn      bool
	}{
		{"literal", `String s = vars.get("a").trim(); if (s == "x") { Failure = true; }`, false},
		{"literal left", `if ("x" != vars.get("a")) { Failure = true; }`, false},
		{"null", `String s = vars.get("a"); if (s == null) { Failure = true; }`, false},
		{"two strings", `String a = vars.get("a"); String b = vars.get("b"); if (a == b || b != a) { Failure = true; }`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := CompileFresh(tc.src, BeanShell)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, w := range p.Warnings {
				if strings.Contains(w, "object references") {
					n++
				}
			}
			if want := map[bool]int{false: 0, true: 1}[tc.warn]; n != want {
				t.Errorf("%d identity warnings, want %d: %q", n, want, p.Warnings)
			}
		})
	}
}
