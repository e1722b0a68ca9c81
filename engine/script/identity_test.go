package script

import (
	"strings"
	"testing"
)

// TestBshStringEqWarning: BeanShell's == between strings runs; it warns
// where gojm's identity may part from Java's, once per script: where
// neither side is a literal, and against the empty literal, which every
// empty string is in gojm and a variable's empty value is not in Java.
func TestBshStringEqWarning(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		warn      bool
	}{
		{"literal", `String s = vars.get("a").trim(); if (s == "x") { Failure = true; }`, false},
		{"literal left", `if ("x" != vars.get("a")) { Failure = true; }`, false},
		{"null", `String s = vars.get("a"); if (s == null) { Failure = true; }`, false},
		{"two strings", `String a = vars.get("a"); String b = vars.get("b"); if (a == b || b != a) { Failure = true; }`, true},
		{"empty literal", `if (vars.get("a") == "") { Failure = true; }`, true},
		{"empty literal left", `String s = vars.get("a"); if ("" != s) { Failure = true; }`, true},
		{"empty and two strings", `String a = vars.get("a"); if (a == "" || a == vars.get("b")) { Failure = true; }`, true},
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

// TestBshStringIdentityAcrossScripts: a literal one script puts is the
// same object as the equal literal of another, whichever path runs them;
// a concatenation is a new object even with an empty side.
func TestBshStringIdentityAcrossScripts(t *testing.T) {
	h := newTestHost()
	run := func(src string, direct bool) {
		t.Helper()
		p, err := CompileFresh(src, BeanShell)
		if err != nil {
			t.Fatal(err)
		}
		if p.Direct() != direct {
			t.Fatalf("%s: direct path %v, want %v", src, p.Direct(), direct)
		}
		if _, err := p.Run(&Env{Host: h}); err != nil {
			t.Fatal(err)
		}
	}
	run(`vars.put("lit", "abc"); String e = ""; vars.put("cat", e + "abc"); String c = "abc"; c += ""; vars.put("pluseq", c);`, true)
	run(`vars.put("r", "" + (vars.get("lit") == "abc") + (vars.get("cat") == "abc") + (vars.get("pluseq") == "abc"));`, false)
	if got := h.vars["r"]; got != "truefalsefalse" {
		t.Errorf("r = %q, want truefalsefalse", got)
	}
}
