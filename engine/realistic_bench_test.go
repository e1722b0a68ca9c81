package engine

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/gojm/gojm/engine/internal/elementtest"
	"github.com/gojm/gojm/engine/internal/thread"
	"github.com/gojm/gojm/jmx"
)

// realisticPage is what the realistic plan's server answers: nginx's
// headers, a session cookie and the 1.5 KB JSON document that
// examples/benchmark/realistic/run.sh has nginx serve.
func realisticPage(tb testing.TB) []byte {
	body, err := os.ReadFile(filepath.Join("..", "examples", "benchmark", "realistic", "orders.json"))
	if err != nil {
		tb.Fatal(err)
	}
	return []byte("HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: Mon, 30 Nov 2026 00:00:00 GMT\r\n" +
		"Content-Type: application/json\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n" +
		"Connection: keep-alive\r\nSet-Cookie: SESSION=8F2A1C9D3E4B5F60; Path=/; HttpOnly\r\nCache-Control: no-store\r\n\r\n" +
		string(body))
}

// benchRealistic runs the samples of examples/benchmark/realistic/realistic.jmx
// against the canned realistic server, as a run makes them: the thread
// group's walk, the CSV Data Set's read, the Header Managers merged and
// their templates (${__time}, ${__Random}, ${token}), the cookie jar, the
// GET, the two regular expression extractors, the JSON Extractor, the two
// Response Assertions and the sample handed to the collector. Without the
// script, the plan's JSR223 PreProcessor is taken out before it compiles.
func benchRealistic(b *testing.B, script bool) {
	addr := cannedServerOf(b, realisticPage(b))
	host, port, _ := net.SplitHostPort(addr)
	src, err := jmx.Load(filepath.Join("..", "examples", "benchmark", "realistic", "realistic.jmx"))
	if err != nil {
		b.Fatal(err)
	}
	if !script {
		src.Root.Walk(func(e *jmx.Element) bool {
			kept := e.Children[:0]
			for _, c := range e.Children {
				if c.Class != "JSR223PreProcessor" {
					kept = append(kept, c)
				}
			}
			e.Children = kept
			return true
		})
	}
	p, err := Compile(src, Options{Props: map[string]string{"host": host, "port": port, "loops": "-1"}})
	if err != nil {
		b.Fatal(err)
	}
	ctx := b.Context()
	sink := &sampleCounter{}
	r := newTestRun(ctx, p, sink)
	g := p.groups[0]
	vu := r.groups[0].NewVU(1, ctx, ctx)
	step, end := thread.New(vu, g.MainLoop, g.Ctls).Steps()
	b.Cleanup(func() {
		end()
		r.el.Out.Close()
	})
	if !script {
		vu.Vars.Put("page", "1") // what the script would set
	}
	for range 2 { // the second sample sends the token and the cookie the first one got
		if !step() || !vu.LastSampleOK() {
			b.Fatalf("the sample failed: %s %s", vu.Res.Code, vu.Res.FailureMessage)
		}
	}
	if got := elementtest.Vars(vu, "token", "session", "userId"); got != "token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJl; session=8F2A1C9D3E4B5F60; userId=42" {
		b.Fatalf("extracted %s", got)
	}
	b.ReportAllocs()
	for b.Loop() {
		if !step() {
			b.Fatal("the thread group's loop ended")
		}
		if !vu.LastSampleOK() {
			b.Fatalf("the sample failed: %s %s", vu.Res.Code, vu.Res.FailureMessage)
		}
	}
}

// go test -run '^$' -bench Realistic -benchmem ./engine
func BenchmarkSampleRealistic(b *testing.B)       { benchRealistic(b, false) }
func BenchmarkSampleRealisticScript(b *testing.B) { benchRealistic(b, true) }
