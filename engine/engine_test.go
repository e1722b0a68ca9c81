package engine

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"

	"github.com/gojm/gojm/jmx"
	"github.com/gojm/gojm/report"
)

// memSink keeps copies of every sample.
type memSink struct {
	samples []report.Sample
	closed  bool
}

func (m *memSink) Add(s *report.Sample) { m.samples = append(m.samples, *s) }
func (m *memSink) Close() error         { m.closed = true; return nil }

// recorder is a test server that records each request it receives.
type recorder struct {
	mu   sync.Mutex
	reqs []*http.Request
	srv  *httptest.Server
}

func newRecorder(t *testing.T, h http.HandlerFunc) *recorder {
	t.Helper()
	r := &recorder{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.reqs = append(r.reqs, req)
		r.mu.Unlock()
		if h != nil {
			h(w, req)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html>books</html>"))
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *recorder) hostPort() (string, string) {
	u, _ := url.Parse(r.srv.URL)
	h, p, _ := net.SplitHostPort(u.Host)
	return h, p
}

// runPlan loads, compiles and runs a plan file with properties.
func runPlan(t *testing.T, path string, props map[string]string) *memSink {
	t.Helper()
	src, err := jmx.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Compile(src, Options{Props: props})
	if err != nil {
		t.Fatal(err)
	}
	sink := &memSink{}
	if err := Start(context.Background(), p, sink, RunOptions{}).Wait(); err != nil {
		t.Fatal(err)
	}
	if !sink.closed {
		t.Fatal("sink not closed at the end of the run")
	}
	return sink
}

func TestBookPlanSendsOneHundredRequests(t *testing.T) {
	rec := newRecorder(t, nil)
	host, port := rec.hostPort()
	sink := runPlan(t, "testdata/book.jmx", map[string]string{"host": host, "port": port})
	if len(sink.samples) != 100 {
		t.Fatalf("samples = %d, want 100", len(sink.samples))
	}
	if len(rec.reqs) != 100 {
		t.Fatalf("server received %d requests, want 100", len(rec.reqs))
	}
	for i, r := range rec.reqs {
		if r.Method != "GET" || r.URL.Path != "/grails-slc/book/list" {
			t.Fatalf("request %d: %s %s", i, r.Method, r.URL)
		}
		if ua := r.Header.Get("User-Agent"); ua != "Apache-HttpClient/4.5.14 (Java/17)" {
			t.Errorf("request %d carries User-Agent %q, not HttpClient 4's", i, ua)
		}
		if ae := r.Header.Get("Accept-Encoding"); ae != "" {
			t.Errorf("request %d carries Accept-Encoding %q the plan did not set", i, ae)
		}
	}
	s := sink.samples[0]
	want := report.Sample{Label: "HTTP Request", Code: "200", Message: "OK", ThreadName: "Thread Group 1-1",
		DataType: "text", Success: true, GrpThreads: 1, AllThreads: 1,
		URL: "http://" + host + ":" + port + "/grails-slc/book/list"}
	got := report.Sample{Label: s.Label, Code: s.Code, Message: s.Message, ThreadName: s.ThreadName,
		DataType: s.DataType, Success: s.Success, GrpThreads: s.GrpThreads, AllThreads: s.AllThreads, URL: s.URL}
	if got.Label != want.Label || got.Code != want.Code || got.Message != want.Message || got.ThreadName != want.ThreadName ||
		got.DataType != want.DataType || got.Success != want.Success || got.GrpThreads != want.GrpThreads ||
		got.AllThreads != want.AllThreads || got.URL != want.URL {
		t.Errorf("first sample = %+v\nwant %+v", got, want)
	}
	if s.Connect <= 0 || sink.samples[1].Connect != 0 {
		t.Errorf("connect times %v, %v: want >0 on the first request, 0 on the reused connection", s.Connect, sink.samples[1].Connect)
	}
	if s.Bytes <= int64(len("<html>books</html>")) || s.SentBytes <= 0 {
		t.Errorf("bytes %d sent %d: want wire counts with headers", s.Bytes, s.SentBytes)
	}
	if s.Latency <= 0 || s.Latency > s.Elapsed {
		t.Errorf("latency %v elapsed %v", s.Latency, s.Elapsed)
	}
}

// The quickstart example exercises user-defined variables, HTTP Request
// Defaults, a Header Manager and ${__P()} thread and loop counts.
func TestQuickstartExample(t *testing.T) {
	rec := newRecorder(t, nil)
	host, port := rec.hostPort()
	sink := runPlan(t, "../examples/plans/quickstart.jmx", map[string]string{"host": host, "port": port, "users": "2", "loops": "3"})
	if len(sink.samples) != 2*3*3 {
		t.Fatalf("samples = %d, want 18", len(sink.samples))
	}
	if len(rec.reqs) != len(sink.samples) {
		t.Fatalf("server saw %d requests for %d samples", len(rec.reqs), len(sink.samples))
	}
	threads := map[string]bool{}
	for _, s := range sink.samples {
		if !s.Success {
			t.Errorf("%s failed: %s %s", s.Label, s.Code, s.Message)
		}
		threads[s.ThreadName] = true
	}
	if !threads["Readers 1-1"] || !threads["Readers 1-2"] || len(threads) != 2 {
		t.Errorf("thread names %v", threads)
	}
	for _, r := range rec.reqs {
		if got := r.Header.Get("Accept"); got != "text/html,application/json" {
			t.Errorf("%s: Accept %q from the Header Manager", r.URL, got)
		}
		if r.URL.Path == "/grails-slc/book/list" && r.URL.Query().Get("page") == "" {
			t.Errorf("%s: no page argument", r.URL)
		}
	}
}
