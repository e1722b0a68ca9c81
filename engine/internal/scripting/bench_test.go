package scripting

import (
	"testing"

	"github.com/gojm/gojm/engine/internal/elementtest"
	"github.com/gojm/gojm/engine/script"
)

// The cost of a script element per run: a pooled runtime, the bindings,
// the run, the results copied back.

func BenchmarkScriptPreProcessor(b *testing.B) {
	c := elementtest.New(nil, "", "")
	pre, err := BuildPre(c, elementtest.El("JSR223PreProcessor", "script", `vars.put("token", vars.get("a") + "-" + vars.getIteration())`))
	if err != nil {
		b.Fatal(err)
	}
	vu := scriptVUFor(c)
	vu.Vars.Put("a", "x")
	b.ReportAllocs()
	for b.Loop() {
		pre.PreProcess(vu)
	}
}

func BenchmarkScriptWithHole(b *testing.B) {
	c := elementtest.New(nil, "", "")
	pre, err := BuildPre(c, elementtest.El("BeanShellPreProcessor", "script", `vars.put("GUID", "${__UUID}");`))
	if err != nil {
		b.Fatal(err)
	}
	vu := scriptVUFor(c)
	b.ReportAllocs()
	for b.Loop() {
		pre.PreProcess(vu)
	}
}

func BenchmarkScriptPostProcessorJSON(b *testing.B) {
	c := elementtest.New(nil, "", "")
	post, err := BuildPost(c, elementtest.El("JSR223PostProcessor", "script",
		`def r = new groovy.json.JsonSlurper().parseText(prev.getResponseDataAsString())
vars.put("token", r.data.token)
vars.put("n", r.data.items.size().toString())`))
	if err != nil {
		b.Fatal(err)
	}
	vu := scriptVUFor(c)
	r := elementtest.Response(`{"data": {"token": "abc123", "items": [{"id": 1}, {"id": 2}, {"id": 3}]}}`)
	b.ReportAllocs()
	for b.Loop() {
		post.PostProcess(vu, r)
	}
}

// BenchmarkScriptTranslate is the one-time cost of a distinct text.
func BenchmarkScriptTranslate(b *testing.B) {
	src := `def ingest = props.get("test.ingest_percent", 22) as int
def total = ingest + 14 * 4
def scale = 100 / total
def random = new Random()
def r = random.NextInt(100)
if (r < ingest * scale) { vars.put("switch_var", "0") } else { vars.put("switch_var", "1") }`
	b.ReportAllocs()
	for b.Loop() {
		if _, err := script.CompileFresh(src, script.Groovy); err != nil {
			b.Fatal(err)
		}
	}
}
