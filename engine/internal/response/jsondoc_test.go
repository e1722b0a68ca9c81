package response

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gojm/gojm/engine/internal/elementtest"
)

// The lazy walk of a definite path must read what the tree reads: the same
// value, the same "not JSON" verdict and message, the same path errors.

var lazyDocs = []string{
	`{"user":{"id":42,"login":"alice"},"orders":[{"id":"A-1","total":149.90},{"id":"A-2","total":1e3}],"ok":true,"none":null}`,
	`  {"a" : [ 1 , [2, {"b":"x"}] ] , "c":{} , "d":[] }  `,
	`{"a":1,"a":{"b":2}}`,                              // a repeated key: the last value wins
	`{"a":{"b":2},"a":3}`,                              // … even when it ends the path
	`{"a\u0062":"escaped key","ab2":1}`,                // a key with an escape
	`{"s":"quote \" slash \/ \u00e9 \ud83d\ude00 \x"}`, // escapes jsonParser takes
	`{"n":[0,-0,007,-12,9223372036854775807,92233720368547758080,1.5,-2.5e-3,1E2,1.]}`,
	`[{"id":1},{"id":2},{"id":3}]`,
	`"just a string"`,
	`12`,
	`{"a":1,}`, // not JSON from here on
	`{"a":[1,]}`,
	`{"a":1} x`,
	`{"a":"\u12G4"}`,
	`{"a":"unterminated}`,
	`{"a":1e400}`,
	`{"a":-}`,
	`{"a":1-2}`,
	`{"a" 1}`,
	`{"a":tru}`,
	`[1 2]`,
	`{"a":"x\`,
	``,
	strings.Repeat("[", 1002) + strings.Repeat("]", 1002),
	`{"deep":` + strings.Repeat("[", 999) + strings.Repeat("]", 999) + `}`,
	`{"deep":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`,
}

var lazyPaths = []string{
	"$", "$.user", "$.user.id", "$.user.login", "$.user.missing", "$.missing.id", "$.orders[0].id", "$.orders[1].total",
	"$.orders[2].id", "$.orders[-1].id", "$.orders.id", "$.user[0]", "$.a", "$.a.b", "$.a[1][1].b", "$.a[0]", "$.c", "$.d[0]",
	"$.ab", "$.ab2", "$.s", "$.n[1]", "$.n[2]", "$.n[5]", "$.n[6]", "$.n[9]", "$[1].id", "$[0]", "$.ok", "$.none",
	"$['user']['login']", "user.id", "$.orders.length()", "$.deep[0]", "$..id", "$.orders[*].id",
}

func TestLazyWalkReadsWhatTheTreeReads(t *testing.T) {
	for _, text := range lazyDocs {
		tree, perr := ParseJSON(text)
		d := JSONDoc{Text: text}
		if got, want := fmt.Sprint(d.Err()), fmt.Sprint(perr); got != want {
			t.Errorf("%.40q: Err() = %s, ParseJSON says %s", text, got, want)
		}
		for _, src := range lazyPaths {
			p, err := CompileJSONPath(src)
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%.40q %s", text, src)
			// A fresh document each time: the walk must not lean on a tree
			// an earlier path parsed.
			d := JSONDoc{Text: text}
			got, gerr := p.AppendAll(nil, &d)
			if fmt.Sprint(gerr) != fmt.Sprint(perr) {
				t.Errorf("%s: AppendAll error %v, ParseJSON %v", name, gerr, perr)
			}
			if perr != nil {
				continue
			}
			if g, w := javaStrings(got), javaStrings(p.All(tree)); g != w {
				t.Errorf("%s: AppendAll = %s, the tree gives %s", name, g, w)
			}
			d = JSONDoc{Text: text}
			rv, rerr := p.ReadDoc(&d)
			wv, werr := p.Read(tree)
			if fmt.Sprint(rerr) != fmt.Sprint(werr) || rerr == nil && JavaString(rv) != JavaString(wv) {
				t.Errorf("%s: ReadDoc = %s, %v; Read = %s, %v", name, JavaString(rv), rerr, JavaString(wv), werr)
			}
		}
	}
}

func javaStrings(vs []any) string {
	var b strings.Builder
	for _, v := range vs {
		fmt.Fprintf(&b, "%T:%s|", v, JavaString(v))
	}
	return b.String()
}

// A definite path read from a realistic body allocates only the value it
// returns.
func TestLazyWalkAllocatesOnlyTheValue(t *testing.T) {
	p, err := CompileJSONPath("$.orders[1].items[0].sku")
	if err != nil {
		t.Fatal(err)
	}
	text := `{"orders":[{"id":"A-1","items":[{"sku":"S-1"}]},{"id":"A-2","items":[{"sku":"S-2","qty":2}]}],"page":{"n":1}}`
	var buf [1]any
	allocs := testing.AllocsPerRun(100, func() {
		d := JSONDoc{Text: text}
		got, err := p.AppendAll(buf[:0], &d)
		if err != nil || len(got) != 1 || got[0] != "S-2" {
			t.Fatalf("got %v, %v", got, err)
		}
	})
	if allocs > 1 {
		t.Errorf("%v allocations, want at most 1 (the value)", allocs)
	}
}

func FuzzLazyWalk(f *testing.F) {
	for _, d := range lazyDocs[:12] {
		f.Add(d, "$.a")
	}
	f.Add(`{"a":{"b":[1,{"c":2}]}}`, "$.a.b[1].c")
	f.Fuzz(func(t *testing.T, text, src string) {
		p, err := CompileJSONPath(src)
		if err != nil || !p.lazy {
			return
		}
		tree, perr := ParseJSON(text)
		d := JSONDoc{Text: text}
		got, gerr := p.AppendAll(nil, &d)
		if fmt.Sprint(gerr) != fmt.Sprint(perr) {
			t.Fatalf("AppendAll error %v, ParseJSON %v", gerr, perr)
		}
		if perr == nil {
			if g, w := javaStrings(got), javaStrings(p.All(tree)); g != w {
				t.Fatalf("AppendAll = %s, the tree gives %s", g, w)
			}
		}
	})
}

// go test -run '^$' -bench JSONPath -benchmem ./engine/internal/response
func BenchmarkJSONPathDefinite(b *testing.B) {
	p, err := CompileJSONPath("$.server.time_ms") // the last key: the whole body is walked
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		d := JSONDoc{Text: elementtest.JSONBody}
		if _, err := p.ReadDoc(&d); err != nil {
			b.Fatal(err)
		}
	}
}
