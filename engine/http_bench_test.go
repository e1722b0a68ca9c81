package engine

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/httpsampler"
	"github.com/gojm/gojm/jmx"
)

// Hot path: a GET whose response nothing reads.
func BenchmarkHTTPSampleGET(b *testing.B) {
	hBench(b, httpSpec{name: "get", props: []string{"path", "/x"}})
}

// A form POST with two arguments, one with a variable.
func BenchmarkHTTPSamplePOSTForm(b *testing.B) {
	hBench(b, httpSpec{name: "post", props: []string{"path", "/x", "method", "POST"},
		args: []string{harg("user", "${__P(host)}", true), harg("pass", "p@ss word", true)}})
}

func hBench(b *testing.B, spec httpSpec) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	host, port, _ := net.SplitHostPort(u.Host)
	src, err := jmx.Read(strings.NewReader(hPlan("", 1, spec)), "bench.jmx", b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	c := testCompiler()
	c.compiled.Props = element.NewProps(map[string]string{"host": host, "port": port})
	var e *jmx.Element
	var sc element.InScope
	src.Root.Walk(func(x *jmx.Element) bool {
		switch x.Class {
		case "HTTPSamplerProxy":
			e = x
		case "ConfigTestElement":
			sc.Configs = append(sc.Configs, x)
		}
		return true
	})
	fn, err := httpsampler.Build(c, e, sc)
	if err != nil {
		b.Fatal(err)
	}
	vu := testVU(c)
	vu.Hard = context.Background()
	r := &vu.Res
	b.ReportAllocs()
	for b.Loop() {
		r.Reset()
		r.Label = "x"
		fn.Sample(vu, r)
		if !r.Success {
			b.Fatal(r.Code, r.Message)
		}
	}
}
