package function

import (
	"strings"
	"testing"

	"github.com/gojm/gojm/engine/internal/element"
)

// JavaScript conditions as JMeter's engine answers them (true, false, or
// an error that makes the If Controller take the condition as false).
func TestJSConditionsEvaluateAsJavaScript(t *testing.T) {
	tests := []struct {
		src  string
		want bool
		err  bool
	}{
		{src: "true", want: true},
		{src: "false", want: false},
		{src: "TRUE", err: true}, // a name JavaScript does not know
		{src: `"abc" == "abc"`, want: true},
		{src: `'abc' == "abc"`, want: true},
		{src: `"abc" === 'abc'`, want: true},
		{src: `"abc" != "abd"`, want: true},
		{src: `"abc" !== "abc"`, want: false},
		{src: `3 == "3"`, want: true}, // loose equality converts the string
		{src: `3 === "3"`, want: false},
		{src: `"" == 0`, want: true},
		{src: `"1e3" == 1000`, want: true},
		{src: `"0x10" == 16`, want: true},
		{src: `"abc" == 0`, want: false}, // NaN
		{src: `null == undefined`, want: true},
		{src: `null === undefined`, want: false},
		{src: `null == 0`, want: false},
		{src: `true == 1`, want: true},
		{src: `"true" == true`, want: false}, // "true" → NaN, true → 1
		{src: `10 > 9`, want: true},
		{src: `"10" > "9"`, want: false}, // two strings compare as text
		{src: `"10" > 9`, want: true},
		{src: `2 >= 2 && 1 <= 1`, want: true},
		{src: `1 < 2 < 3`, want: true},
		{src: `3 > 2 > 1`, want: false}, // (3 > 2) is true, true > 1 is false
		{src: `!false`, want: true},
		{src: `!!"x"`, want: true},
		{src: `!""`, want: true},
		{src: `!0 && !NaN`, want: true},
		{src: `false || true && false`, want: false}, // && binds tighter
		{src: `(false || true) && true`, want: true},
		{src: `1 + 1 == 2`, want: true},
		{src: `"1" + 1 == "11"`, want: true},
		{src: `7 % 4 == 3 && 6 / 4 == 1.5 && 2 * -3 == -6`, want: true},
		{src: `-"2" == -2`, want: true},
		{src: `Infinity > 1e308`, want: true},
		{src: `NaN == NaN`, want: false},
		{src: `"a\"b" == 'a"b'`, want: true},
		{src: `"\u0041" == "A"`, want: true},
		{src: `1 == 1;`, want: true},
		{src: `"true"`, want: true}, // the text "true" is what JMeter checks
		{src: `1 && "false"`, want: false},
		{src: `0 || "true"`, want: true},
		{src: `3`, err: true}, // neither true nor false
		{src: `"yes"`, err: true},
		{src: `null`, err: true},
	}
	for _, tt := range tests {
		c, err := compileJSCondition(element.Text(tt.src))
		if err != nil {
			if !tt.err {
				t.Errorf("%s: compile: %v", tt.src, err)
			}
			continue
		}
		got, err := c.eval(tt.src)
		if (err != nil) != tt.err || err == nil && got != tt.want {
			t.Errorf("%s = %v, %v; want %v (error %v)", tt.src, got, err, tt.want, tt.err)
		}
	}
}

// What the translation does not take is refused, with what it stumbled on.
func TestJSConditionsOutsideTheSubsetAreRefused(t *testing.T) {
	tests := []struct{ src, want string }{
		{`vars.get("x") == "1"`, `property or method access at ".get`},
		{`vars == 1`, `the name "vars"`},
		{`"abc".length == 3`, "property or method access"},
		{`parseInt("3") == 3`, "function call parseInt"},
		{`x = 1`, `"="`},
		{`1 ? true : false`, `"?"`},
		{`"abc`, "unterminated string"},
		{`(1 == 1`, "missing )"},
		{`1 ==`, "ends too early"},
		{``, "empty condition"},
		{`/a/.test("a")`, "property or method access"},
	}
	for _, tt := range tests {
		_, err := translateJS(tt.src)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one mentioning %s", tt.src, err, tt.want)
		}
	}
}

// A condition with ${…} is checked with each reference standing for a
// value, then evaluated on its text at run time.
func TestJSConditionWithReferences(t *testing.T) {
	tp := NewCompiler(element.NewPlan("", "", element.NewProps(nil), nil), Table(nil))
	for _, tt := range []struct {
		cond string
		ok   bool
	}{
		{`"${v}" == "abc"`, true},
		{`${n} > 2 && ${JMeterThread.last_sample_ok}`, true},
		{`${v}.length > 2`, false},
	} {
		tm, err := tp.Compile(tt.cond)
		if err != nil {
			t.Fatal(err)
		}
		_, err = compileJSCondition(tm)
		if (err == nil) != tt.ok {
			t.Errorf("%s: %v, want ok %v", tt.cond, err, tt.ok)
		}
	}
	c, _ := compileJSCondition(element.NewTemplate(`"${v}" == "abc"`, []element.Part{{Kind: element.LitPart, Lit: `"`}, {Kind: element.VarPart}, {Kind: element.LitPart, Lit: `" == "abc"`}}))
	for _, tt := range []struct {
		src  string
		want bool
	}{{`"abc" == "abc"`, true}, {`"abd" == "abc"`, false}, {`"abc" == "abc"`, true}} {
		if got, err := c.eval(tt.src); err != nil || got != tt.want {
			t.Errorf("%s = %v, %v", tt.src, got, err)
		}
	}
}

func BenchmarkJSConditionCached(b *testing.B) {
	c, _ := compileJSCondition(element.NewTemplate(`x`, []element.Part{{Kind: element.VarPart}}))
	b.ReportAllocs()
	for b.Loop() {
		if ok, err := c.eval(`"abc" == "abc" && 3 > 2`); !ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}
