package engine

import (
	"bytes"
	"net"
	"path/filepath"
	"testing"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/thread"
	"github.com/gojm/gojm/jmx"
	"github.com/gojm/gojm/report"
)

// cannedPage is what the canned server answers: nginx's headers and a
// 383-byte page, the response of examples/benchmark's workload.
var cannedPage = []byte("HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: Mon, 30 Nov 2026 00:00:00 GMT\r\n" +
	"Content-Type: text/html\r\nContent-Length: 383\r\nLast-Modified: Sun, 29 Nov 2026 23:00:00 GMT\r\n" +
	"Connection: keep-alive\r\nETag: \"6a1b2c3d-17f\"\r\nAccept-Ranges: bytes\r\n\r\n" +
	string(bytes.Repeat([]byte("x"), 383)))

// cannedServer listens on loopback and answers every request head it reads
// on a connection with cannedPage, doing nothing else: its share of a
// benchmark's time is a read and a write per request.
func cannedServer(tb testing.TB) string {
	tb.Helper()
	return cannedServerOf(tb, cannedPage)
}

// cannedServerOf is cannedServer answering with page.
func cannedServerOf(tb testing.TB, page []byte) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				buf := make([]byte, 8192)
				have := 0
				for {
					n, err := conn.Read(buf[have:])
					if err != nil {
						return
					}
					have += n
					for {
						end := bytes.Index(buf[:have], []byte("\r\n\r\n"))
						if end < 0 {
							break
						}
						if _, err := conn.Write(page); err != nil {
							return
						}
						have = copy(buf, buf[end+4:have])
					}
					if have == len(buf) {
						return // a head this long is not a benchmark's
					}
				}
			}()
		}
	}()
	return ln.Addr().String()
}

// httpBenchVU compiles examples/benchmark/get.jmx against addr and returns a
// virtual user of its thread group, set up as runVU sets one up, feeding
// sink through a collector (closed at the end of the benchmark), and the
// step that runs its next sample.
func httpBenchVU(b *testing.B, addr string, sink report.Sink) (*element.VU, func() bool) {
	b.Helper()
	host, port, _ := net.SplitHostPort(addr)
	src, err := jmx.Load(filepath.Join("..", "examples", "benchmark", "get.jmx"))
	if err != nil {
		b.Fatal(err)
	}
	p, err := Compile(src, Options{Props: map[string]string{"host": host, "port": port, "loops": "-1"}})
	if err != nil {
		b.Fatal(err)
	}
	ctx := b.Context()
	r := newTestRun(ctx, p, sink)
	g := p.groups[0]
	vu := r.groups[0].NewVU(1, ctx, ctx)
	step, end := thread.New(vu, g.MainLoop, g.Ctls).Steps()
	b.Cleanup(func() {
		end()
		r.el.Out.Close()
	})
	return vu, step
}

// One HTTP sample end to end, as a run makes it: the thread group's walk
// to the sampler of examples/benchmark/get.jmx, its templates, the GET on
// a kept-alive connection (request written, response read and counted, the
// body discarded because nothing in scope reads it), the sample filled and
// handed to the collector. The server is a canned response in the same
// process; its read and write are in the time, not in the allocations
// (go test -run ^$ -bench SampleHTTP -benchmem ./engine).
func BenchmarkSampleHTTP(b *testing.B) {
	addr := cannedServer(b)
	sink := &sampleCounter{}
	vu, step := httpBenchVU(b, addr, sink)
	b.ReportAllocs()
	for b.Loop() {
		if !step() {
			b.Fatal("the thread group's loop ended")
		}
		if !vu.LastSampleOK() {
			b.Fatalf("the sample failed: %s", vu.Res.Code)
		}
	}
}

// sampleCounter counts samples and their failures.
type sampleCounter struct{ n, failed int }

func (c *sampleCounter) Add(s *report.Sample) {
	c.n++
	if !s.Success {
		c.failed++
	}
}
func (c *sampleCounter) Close() error { return nil }
