package script

import (
	"errors"
	"strings"
	"testing"
)

// A ${…} of JMeter's inside a string literal is a hole: the script is
// compiled once and each run's text fills it, giving what compiling the
// substituted text would give.
func TestHoles(t *testing.T) {
	for _, tc := range []struct {
		d      Dialect
		src    string // {0}, {1} stand for the holes
		values []string
		forbid []string
	}{
		{Groovy, `vars.put("GUID", "{0}"); "{0}-{1}"`, []string{"3f2d-9e57", "x"}, []string{"\\\"\r\n$", "\\\"\r\n$"}},
		{Groovy, `def n = 2; "a ${n} {0} $n"`, []string{"v"}, []string{"\\\"\r\n$"}},
		{Groovy, `'single {0}'`, []string{"v w"}, []string{"\\'\r\n"}},
		{Groovy, "'''triple\n{0}'''", []string{"v\nw"}, []string{"\\'"}},
		{Groovy, `"a,b".split(/{0}/).length`, []string{","}, []string{"/$\\"}},
		{BeanShell, `vars.put("k", "pre {0}"); "{0}"`, []string{"val"}, []string{"\\\"\r\n"}},
	} {
		src := tc.src
		full := tc.src
		for i, v := range tc.values {
			src = strings.ReplaceAll(src, "{"+string(rune('0'+i))+"}", HoleMarker(i))
			full = strings.ReplaceAll(full, "{"+string(rune('0'+i))+"}", v)
		}
		p, err := CompileHoles(src, tc.d, len(tc.values))
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		for i, f := range tc.forbid {
			if p.Forbid(i) != f {
				t.Errorf("%s: hole %d forbids %q, want %q", tc.src, i, p.Forbid(i), f)
			}
		}
		h1 := newTestHost()
		v1, err1 := p.Run(&Env{Host: h1, Holes: tc.values})
		q, err := Compile(full, tc.d)
		if err != nil {
			t.Fatal(err)
		}
		h2 := newTestHost()
		v2, err2 := q.Run(&Env{Host: h2})
		if v1 != v2 || (err1 == nil) != (err2 == nil) || h1.vars["GUID"] != h2.vars["GUID"] || h1.vars["k"] != h2.vars["k"] {
			t.Errorf("%s: with holes %+v %v %v, substituted %+v %v %v", tc.src, v1, err1, h1.vars, v2, err2, h2.vars)
		}
	}
	for _, src := range []string{"def x = " + HoleMarker(0), `"${` + HoleMarker(0) + `}"`} {
		if _, err := CompileHoles(src, Groovy, 1); !errors.Is(err, ErrHoleInCode) {
			t.Errorf("%q: %v, want ErrHoleInCode", src, err)
		}
	}
}
