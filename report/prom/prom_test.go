package prom

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gojm/gojm/internal/testsvc"
	"github.com/gojm/gojm/report"
)

func scrape(t *testing.T, h http.Handler) string {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("scrape: %d", rec.Code)
	}
	return rec.Body.String()
}

func TestExporterMetrics(t *testing.T) {
	e := New(func() []Group {
		return []Group{{Name: "Users", Active: 3, Started: 5, Finished: 2}, {Name: "Users", Active: 1, Started: 1}}
	})
	for i := range 10 {
		e.Add(&report.Sample{Label: "Home", Elapsed: time.Duration(i+1) * 10 * time.Millisecond, Latency: 5 * time.Millisecond,
			Success: i != 0, Bytes: 1000, SentBytes: 100})
	}
	e.Add(&report.Sample{Label: "Login", Elapsed: 2 * time.Second, Success: true})
	e.Add(&report.Sample{Label: "Checkout", Elapsed: 3 * time.Second, Success: true, Transaction: true})
	got := scrape(t, e.Handler())
	for _, want := range []string{
		`gojm_sample_duration_seconds_bucket{label="Home",le="0.025"} 2`,
		`gojm_sample_duration_seconds_bucket{label="Home",le="0.1"} 10`,
		`gojm_sample_duration_seconds_count{label="Home"} 10`,
		`gojm_sample_duration_seconds_sum{label="Home"} 0.55`,
		`gojm_sample_duration_seconds_bucket{label="Login",le="2.5"} 1`,
		`gojm_sample_latency_seconds_count{label="Home"} 10`,
		`gojm_samples_total{label="Home"} 10`,
		`gojm_sample_errors_total{label="Home"} 1`,
		`gojm_sample_errors_total{label="Login"} 0`,
		`gojm_received_bytes_total{label="Home"} 10000`,
		`gojm_sent_bytes_total{label="Home"} 1000`,
		`gojm_transaction_duration_seconds_count{label="Checkout"} 1`,
		`gojm_virtual_users{group="Users",state="active"} 3`,
		`gojm_virtual_users{group="Users",state="started"} 5`,
		`gojm_virtual_users{group="Users",state="finished"} 2`,
		`gojm_virtual_users{group="Users (2)",state="active"} 1`,
	} {
		if !strings.Contains(got, want+"\n") {
			t.Errorf("scrape lacks %q", want)
		}
	}
	if strings.Contains(got, `gojm_samples_total{label="Checkout"}`) {
		t.Error("a transaction sample counted as a sample")
	}
}

func TestExporterAddAllocs(t *testing.T) {
	e := New(nil)
	s := &report.Sample{Label: "Home", Elapsed: 42 * time.Millisecond, Success: true, Bytes: 10}
	e.Add(s)
	if n := testing.AllocsPerRun(1000, func() { e.Add(s) }); n != 0 {
		t.Errorf("Add allocates %v times per sample", n)
	}
}

func BenchmarkExporterAdd(b *testing.B) {
	e := New(nil)
	s := &report.Sample{Label: "Home", Elapsed: 42 * time.Millisecond, Success: true, Bytes: 10}
	e.Add(s)
	b.ReportAllocs()
	for b.Loop() {
		e.Add(s)
	}
}

func TestListen(t *testing.T) {
	e, err := Listen("127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	e.Add(&report.Sample{Label: "Home", Success: true})
	resp, err := http.Get("http://" + e.Addr() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `gojm_samples_total{label="Home"} 1`) {
		t.Errorf("served metrics lack the sample:\n%s", body)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get("http://" + e.Addr() + "/metrics"); err == nil {
		t.Error("still serving after Close")
	}
	if _, err := Listen("127.0.0.1:bad", nil); err == nil {
		t.Error("a bad address was accepted")
	}
}

// TestRealPrometheus has a real Prometheus (Debian's prometheus) scrape
// the endpoint while samples arrive, and queries what it stored.
func TestRealPrometheus(t *testing.T) {
	var users atomic.Int64
	users.Store(4)
	e, err := Listen("127.0.0.1:0", func() []Group { return []Group{{Name: "Users", Active: int(users.Load()), Started: 4}} })
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	p := testsvc.StartPrometheus(t, e.Addr())
	for i := range 100 {
		e.Add(&report.Sample{Label: "Home", Elapsed: time.Duration(i) * time.Millisecond, Success: i%20 != 0})
	}
	query := func(q string, want float64) {
		t.Helper()
		var last []testsvc.Sample
		ok := testsvc.Poll(30*time.Second, func() bool {
			last, err = p.Query(q)
			return err == nil && len(last) == 1 && last[0].Value == want
		})
		if !ok {
			t.Errorf("%s = %+v (err %v), want %v", q, last, err, want)
		}
	}
	query(`gojm_samples_total{label="Home"}`, 100)
	query(`gojm_sample_errors_total{label="Home"}`, 5)
	query(`gojm_sample_duration_seconds_bucket{label="Home",le="0.05"}`, 51) // 0..50 ms
	query(`gojm_virtual_users{group="Users",state="active"}`, 4)
	users.Store(1)
	query(`gojm_virtual_users{group="Users",state="active"}`, 1)
}
