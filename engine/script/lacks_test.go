package script

import (
	"errors"
	"strings"
	"testing"
)

// A call to a method JMeter's class does not have compiles with a warning
// and fails when it runs, with the interpreter's exception; a method the
// class has and gojm lacks is refused; Groovy's own object methods are no
// such call.
func TestMethodJMeterLacks(t *testing.T) {
	for _, c := range []struct {
		src     string
		d       Dialect
		warn    string // "" none
		refused bool
		class   string // the exception the run throws, "" none
	}{
		{"int n = prev.getTotal();", BeanShell, "line 1: SampleResult has no method getTotal() with 0 argument(s) in JMeter", false, "bsh.EvalError"},
		{"vars.nope(1)", Groovy, "line 1: JMeterVariables has no method nope() with 1 argument(s) in JMeter", false, "groovy.lang.MissingMethodException"},
		{"ctx.getTestLogicalAction()", Groovy, "", true, ""},
		{"prev.getGroupThreads()", BeanShell, "", true, ""},
		{"prev.getTime()", Groovy, "", false, ""},
	} {
		p, err := Compile(c.src, c.d)
		var se *Error
		if c.refused {
			if !errors.As(err, &se) || !se.Refused {
				t.Errorf("%q: %v, want a refusal", c.src, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		got := strings.Join(p.Warnings, "; ")
		if c.warn == "" && got != "" || !strings.HasPrefix(got, c.warn) {
			t.Errorf("%q: warnings %q, want %q", c.src, got, c.warn)
		}
		_, err = p.Run(&Env{Host: newTestHost(), Prev: &Result{Label: "p"}})
		var ex *ScriptError
		switch {
		case c.class == "" && err != nil:
			t.Errorf("%q: %v", c.src, err)
		case c.class != "" && (!errors.As(err, &ex) || ex.Class != c.class):
			t.Errorf("%q: %v, want %s", c.src, err, c.class)
		}
	}
}
