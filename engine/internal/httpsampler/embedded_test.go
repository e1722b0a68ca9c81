package httpsampler

import (
	"bytes"
	"log/slog"
	"strings"
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

// Patterns made from variables follow the variables; each text is
// compiled once, and one that does not compile is ignored with a warning
// on every sample that makes it, as before it was kept.
func TestEmbeddedPatternsFromVariables(t *testing.T) {
	c := elementtest.New(nil, "", "")
	m, err := buildEmbedded(c, elementtest.El("HTTPSamplerProxy", "HTTPSampler.embedded_url_re", `https?://${host}/.*`,
		"HTTPSampler.embedded_url_exclude_re", `${skip}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	vu := c.VU(1)
	var log bytes.Buffer
	vu.Log = slog.New(slog.NewTextHandler(&log, nil))
	for i, tc := range []struct {
		host, skip   string
		url          string
		inc, exc     bool // the URL matches the include, the exclude pattern
		noInc, noExc bool // the pattern is nil (empty or ignored)
		warned       string
	}{
		{host: "a.example", skip: `.*\.css`, url: "http://a.example/x.css", inc: true, exc: true},
		{host: "b.example", skip: `.*\.css`, url: "http://a.example/x.js", inc: false, exc: false},
		{host: "a.example", skip: "", url: "http://a.example/x.js", inc: true, noExc: true},
		{host: "a.example", skip: "(", url: "http://a.example/x.js", inc: true, noExc: true, warned: "ignoring the embedded URL exclude pattern"},
		{host: "a.example", skip: "(", url: "http://a.example/x.js", inc: true, noExc: true, warned: "ignoring the embedded URL exclude pattern"},
		{host: "[", skip: `.*\.css`, url: "http://a.example/x.css", noInc: true, exc: true, warned: "ignoring the embedded URL pattern"},
	} {
		log.Reset()
		vu.Vars.Put("host", tc.host)
		vu.Vars.Put("skip", tc.skip)
		inc, exc := m.patterns(vu)
		if (inc == nil) != tc.noInc || (exc == nil) != tc.noExc {
			t.Fatalf("%d: patterns %v, %v", i, inc, exc)
		}
		if inc != nil && inc.MatchString(tc.url) != tc.inc || exc != nil && exc.MatchString(tc.url) != tc.exc {
			t.Errorf("%d: %s matches %v, %v", i, tc.url, inc, exc)
		}
		if got := log.String(); tc.warned == "" && got != "" || !strings.Contains(got, tc.warned) {
			t.Errorf("%d: logged %q, want %q", i, got, tc.warned)
		}
		if again, _ := m.patterns(vu); again != inc {
			t.Errorf("%d: the same text compiled again", i)
		}
	}
}
