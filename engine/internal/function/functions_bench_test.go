package function

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/gojm/gojm/engine/internal/element"
)

// Run with: go test ./engine -run XXX -bench 'Template|Jexl|JavaScript' -benchmem

func benchVU(b testing.TB, src string) (*element.Template, *element.VU) {
	c := fnCompiler(nil)
	t, err := c.Compile(src)
	if err != nil {
		b.Fatal(err)
	}
	return t, fnVU(c, 1, map[string]string{"user": "alice", "id": "42", "n": "7", "token": "abcdef0123456789"})
}

func TestTemplateEvalAllocatesOnlyItsResult(t *testing.T) {
	for _, tc := range []struct {
		src    string
		allocs float64
	}{
		{"constant text", 0},
		{"${user}", 0},
		{"/api/users/${id}?name=${user}&token=${token}", 1},
		{"${undefined}", 0},
		{"${__threadNum}", 0},
		{"/o?ts=${__time()}&s=${__time(/1000)}&r=${__Random(1,100000)}&u=${__threadNum}", 1},
	} {
		tpl, vu := benchVU(t, tc.src)
		tpl.Eval(vu) // grows the scratch buffer once
		if got := testing.AllocsPerRun(100, func() { tpl.Eval(vu) }); got > tc.allocs {
			t.Errorf("%q: %v allocations per Eval, want %v", tc.src, got, tc.allocs)
		}
	}
}

func BenchmarkTemplateEvalVariables(b *testing.B) {
	tpl, vu := benchVU(b, "/api/users/${id}?name=${user}&token=${token}")
	b.ReportAllocs()
	for b.Loop() {
		tpl.Eval(vu)
	}
}

func BenchmarkTemplateEvalOneVariable(b *testing.B) {
	tpl, vu := benchVU(b, "${token}")
	b.ReportAllocs()
	for b.Loop() {
		tpl.Eval(vu)
	}
}

func BenchmarkTemplateEvalFunction(b *testing.B) {
	tpl, vu := benchVU(b, "${__P(host,localhost)}:${__threadNum}")
	b.ReportAllocs()
	for b.Loop() {
		tpl.Eval(vu)
	}
}

// BenchmarkJexl3 is a constant expression: compiled with the plan.
func BenchmarkJexl3(b *testing.B) {
	tpl, vu := benchVU(b, `${__jexl3(vars.get("n") > 5 && vars.get("user") == "alice")}`)
	b.ReportAllocs()
	for b.Loop() {
		tpl.Eval(vu)
	}
}

// BenchmarkJexl3Substituted is an expression with ${…} inside: its text is
// built per call and its program found in the cache.
func BenchmarkJexl3Substituted(b *testing.B) {
	tpl, vu := benchVU(b, `${__jexl3(${n} * 2 + 1)}`)
	b.ReportAllocs()
	for b.Loop() {
		tpl.Eval(vu)
	}
}

func BenchmarkJavaScript(b *testing.B) {
	tpl, vu := benchVU(b, `${__javaScript(parseInt(vars.get("n")) * 2 + 1)}`)
	b.ReportAllocs()
	for b.Loop() {
		tpl.Eval(vu)
	}
}

func BenchmarkJavaScriptParallel(b *testing.B) {
	c := fnCompiler(nil)
	tpl, err := c.Compile(`${__javaScript(parseInt(vars.get("n")) * 2 + 1)}`)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		vu := fnVU(c, 1, map[string]string{"n": "7"})
		for pb.Next() {
			tpl.Eval(vu)
		}
	})
}

// BenchmarkJavaScriptRuntime is what building one pooled runtime costs.
func BenchmarkJavaScriptRuntime(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		newJSRuntime()
	}
}

func TestJavaScriptAndJexlFromManyUsers(t *testing.T) {
	c := fnCompiler(nil)
	js, _ := c.Compile(`${__javaScript(vars.get("n") * 2)}`)
	jx, _ := c.Compile(`${__jexl3(${n} * 3)}`)
	done := make(chan error)
	for u := 1; u <= 8; u++ {
		vu := fnVU(c, u, map[string]string{"n": strconv.Itoa(u)}) // users are made before they run, as a run makes them
		go func() {
			var err error
			for range 200 {
				if got, want := js.Eval(vu), strconv.Itoa(2*u); got != want && err == nil {
					err = fmt.Errorf("user %d: javaScript = %q, want %q", u, got, want)
				}
				if got, want := jx.Eval(vu), strconv.Itoa(3*u); got != want && err == nil {
					err = fmt.Errorf("user %d: jexl3 = %q, want %q", u, got, want)
				}
			}
			done <- err
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// A field without ${ is a constant: evaluating it costs a method call
// (go test -run ^$ -bench Template -benchmem ./engine/internal/function).
func BenchmarkTemplateEvalConstant(b *testing.B) {
	tpl, vu := benchVU(b, "/api/users/list?limit=100")
	b.ReportAllocs()
	for b.Loop() {
		tpl.Eval(vu)
	}
}

// The functions of a realistic URL and header: a timestamp and a random
// number in one template, as a sample evaluates it.
func BenchmarkTemplateEvalTimeRandom(b *testing.B) {
	tpl, vu := benchVU(b, "/api/users/${user}/orders?ts=${__time()}&r=${__Random(1,100000)}")
	b.ReportAllocs()
	for b.Loop() {
		tpl.Eval(vu)
	}
}

func BenchmarkTemplateEvalTime(b *testing.B) {
	tpl, vu := benchVU(b, "${__time()}")
	b.ReportAllocs()
	for b.Loop() {
		tpl.Eval(vu)
	}
}

func BenchmarkTemplateEvalRandom(b *testing.B) {
	tpl, vu := benchVU(b, "${__Random(1,100000)}")
	b.ReportAllocs()
	for b.Loop() {
		tpl.Eval(vu)
	}
}

// The realistic plan's X-Request-Id header: three numbers in one text.
func BenchmarkTemplateEvalRequestID(b *testing.B) {
	tpl, vu := benchVU(b, "${__threadNum}-${__time(/1000)}-${__Random(1000000,9999999)}")
	b.ReportAllocs()
	for b.Loop() {
		tpl.Eval(vu)
	}
}
