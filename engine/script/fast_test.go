package script

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// The direct path against the translation, case by case: each script runs
// on both from the same start, and everything a script can change must
// come out the same. Cases marked bail reach something the direct path
// does not carry after a side effect, so the direct run must leave no trace
// before the translation runs it again.
func TestDirectMatchesTranslation(t *testing.T) {
	cases := []struct {
		name string
		d    Dialect
		src  string
		bail bool
	}{
		{"arith int wraps", Groovy, `def a = 2147483647; a = a + 1; vars.put("a", a.toString()); a * 3`, false},
		{"literals", Groovy, `vars.put("l", "" + 010 + 0x1F + 3000000000 + (-5) + 2L)`, false},
		{"arith long", Groovy, `long a = 5; a = a * 1000000000000L; vars.put("a", String.valueOf(a - 1))`, false},
		{"double text", BeanShell, `double x = 1.0 / 3; vars.put("x", "" + x); vars.put("y", "" + (x * 3e20));`, false},
		{"bsh int division", BeanShell, `int a = 7; int b = -2; vars.put("q", "" + (a / b) + "," + (a % b));`, false},
		{"groovy division bails", Groovy, `vars.put("a", "1"); log.info("before"); def x = 7 / 2; vars.put("x", x.toString())`, true},
		{"null method bails", Groovy, `vars.put("a", "1"); log.info("x"); def s = vars.get("missing"); s.length()`, true},
		{"parse bails", BeanShell, `prev.setResponseCode("599"); props.put("p", "v"); int n = Integer.parseInt("abc");`, true},
		{"substring range bails", Groovy, `vars.put("s", "abc".substring(1)); "abc".substring(2, 9)`, true},
		{"compare and truth", Groovy, `def c = vars.get("n"); if (c && c > "3") { vars.put("big", "yes") } else { vars.put("big", "no") }; c ?: "none"`, false},
		{"null compare", Groovy, `def m = vars.get("missing"); "" + (m == null) + (m < "a") + (m >= null)`, false},
		{"elvis and ternary", Groovy, `def v = vars.get("missing") ?: "dflt"; vars.put("v", v); v.length() > 3 ? "long" : "short"`, false},
		{"gstring", Groovy, `def id = vars.get("id"); vars.put("p", "/x/${id}/${vars.getIteration() + 1}/${1.5d}/${null}")`, false},
		{"result setters", Groovy, `prev.setSuccessful(false); prev.setResponseMessage("bad " + prev.getResponseCode()); prev.setResponseCodeOK()`, false},
		{"props", Groovy, `def old = props.put("k", "v1"); props.put("k", "v2"); vars.put("old", props.getProperty("k") + old); props.remove("k")`, false},
		{"vars remove", BeanShell, `vars.put("t", "1"); String o = vars.remove("t"); vars.put("o", o + vars.get("t"));`, false},
		{"string methods", Groovy, `def s = " Mixed Case "; vars.put("s", s.trim().toLowerCase().replace("c", "k") + s.indexOf("C") + s.contains("Case") + s.endsWith(" "))`, false},
		{"inc dec", BeanShell, `int i = 0; i++; ++i; i--; i += 10; vars.put("i", Integer.toString(i));`, false},
		{"error count", Groovy, `vars.put("e", "" + prev.getErrorCount() + prev.getSampleCount() + prev.isSuccessful())`, false},
		{"log levels", Groovy, `log.debug("d"); log.error("e " + 1); log.warn(null); log.isDebugEnabled()`, false},
		{"bsh typed null", BeanShell, `String s = vars.get("missing"); vars.put("s", "" + s); s == null`, false},
		{"bsh condition not boolean bails", BeanShell, `vars.put("a", "1"); if (vars.get("n")) { vars.put("b", "2"); }`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := CompileFresh(c.src, c.d)
			if err != nil {
				t.Fatal(err)
			}
			if !p.Direct() {
				t.Fatalf("not on the direct path:\n%s", c.src)
			}
			run := func(direct bool) string {
				h, prev := shortScriptEnv()
				env := &Env{Host: h, Prev: prev}
				var v Value
				var err error
				if direct {
					var ok bool
					v, ok = p.direct.run(env, p.dialect)
					if ok == c.bail {
						t.Errorf("direct run ok = %v, want %v", ok, !c.bail)
					}
					if !ok {
						if !reflect.DeepEqual(h, func() *testHost { h0, _ := shortScriptEnv(); return h0 }()) {
							t.Errorf("a bailed run changed the host: %+v", h)
						}
						v, err = p.Run(env)
					}
				} else {
					v, err = p.runTranslated(env)
				}
				return fmt.Sprintf("value %+v\nerror %v\nvars %v\nprops %v\nlog %s\nprev %+v", v, err, h.vars, h.props, strings.Join(h.logs, "|"), *prev)
			}
			if got, want := run(true), run(false); got != want {
				t.Errorf("direct path:\n%s\ntranslation:\n%s", got, want)
			}
		})
	}
}
