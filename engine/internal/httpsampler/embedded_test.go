package httpsampler

import (
	"testing"

	"github.com/gojm/gojm/engine/internal/elementtest"
)

// BenchmarkEmbeddedPatterns is the include and exclude patterns of a
// sampler whose "URLs must match" names the host through a variable, as
// each sample with embedded resources evaluates them.
func BenchmarkEmbeddedPatterns(b *testing.B) {
	c := elementtest.New(nil, "", "")
	m, err := buildEmbedded(c, elementtest.El("HTTPSamplerProxy", "HTTPSampler.embedded_url_re", `https?://${host}/.*`,
		"HTTPSampler.embedded_url_exclude_re", `.*\.(woff2?|ttf)`), nil)
	if err != nil {
		b.Fatal(err)
	}
	vu := c.VU(1)
	vu.Vars.Put("host", "shop.example")
	b.ReportAllocs()
	for b.Loop() {
		if inc, _ := m.patterns(vu); inc == nil || !inc.MatchString("https://shop.example/a.css") {
			b.Fatal("the pattern does not match")
		}
	}
}
