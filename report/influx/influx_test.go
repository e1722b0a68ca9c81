package influx

import (
	"bytes"
	"flag"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gojm/gojm/internal/java"
	"github.com/gojm/gojm/report"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var t0 = time.UnixMilli(1700000000000)

func ms(n int64) time.Duration { return time.Duration(n) * time.Millisecond }

// recorder is an InfluxDB stand-in keeping each write's body.
type recorder struct {
	mu     sync.Mutex
	bodies []string
	auth   []string
	status int
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	b, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	r.bodies = append(r.bodies, string(b))
	r.auth = append(r.auth, req.Header.Get("Authorization"))
	status := r.status
	r.mu.Unlock()
	if status == 0 {
		status = http.StatusNoContent
	}
	w.WriteHeader(status)
}

func (r *recorder) all() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.bodies, "")
}

func params(url string, extra ...Param) []Param {
	ps := []Param{
		{"influxdbMetricsSender", "org.apache.jmeter.visualizers.backend.influxdb.HttpMetricsSender"},
		{"influxdbUrl", url},
		{"application", "book shop"},
		{"measurement", "jmeter"},
		{"summaryOnly", "false"},
		{"samplersRegex", ".*"},
		{"percentiles", "99;95;90;99.9"},
		{"testTitle", "Nightly run"},
		{"eventTags", "ci,nightly"},
	}
	return append(ps, extra...)
}

func TestClientLines(t *testing.T) {
	rec := &recorder{}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	cfg, err := ParseConfig(params(srv.URL+"/write?db=jmeter", Param{"TAG_env", " staging "}, Param{"TAG_empty", " "}, Param{"influxdbToken", "s3cret"}), nil)
	if err != nil {
		t.Fatal(err)
	}
	threads := func() (int, int, int) { return 2, 3, 1 }
	c := New(cfg, t0, threads, nil)
	c.now = func() time.Time { return t0.Add(7 * time.Second) }

	add := func(label string, elapsed int64, ok bool, mut ...func(*report.Sample)) {
		s := &report.Sample{Start: t0, Elapsed: ms(elapsed), Label: label, Success: ok, Code: "200", Message: "OK",
			Bytes: 1000, SentBytes: 100, AllThreads: 2}
		if !ok {
			s.Code, s.Message = "500", "Internal Server Error"
		}
		for _, f := range mut {
			f(s)
		}
		c.Add(s)
	}
	for i := range 10 {
		add("Home page", int64(10*(i+1)), true)
	}
	add("Login", 30, false)
	add("Login", 40, false, func(s *report.Sample) { s.Message = "INTERNAL SERVER ERROR" }) // same error, other case
	add("Login", 50, false, func(s *report.Sample) {
		s.Code, s.Message, s.FailureMessage = "200", "OK", "Test failed: text expected to contain /Welcome/"
	})
	add("Login", 20, true, func(s *report.Sample) {
		s.Sub = []*report.Sample{{Label: "Login-0"}, {Label: "Login-1"}} // a redirect: 3 hits
	})
	// A transaction without sub-results: its own label, but no hits or
	// bytes in "all" (its children were counted).
	add("Checkout", 300, true, func(s *report.Sample) {
		s.Transaction, s.Message = true, "Number of samples in transaction : 2, number of failing samples : 0"
	})

	c.Tick(t0.Add(4 * time.Second)) // before the interval: nothing sent
	c.Tick(t0.Add(5 * time.Second))
	add("Home page", 5, true)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if n, err := c.Sends(); err != nil || n != 3 {
		t.Fatalf("sends: %d, last error %v; want 3 without error", n, err)
	}
	got := rec.all()
	golden(t, "lines.txt", got)
	for _, a := range rec.auth {
		if a != "Token s3cret" {
			t.Errorf("Authorization %q", a)
		}
	}
	// What JMeter's Grafana dashboard queries must be there.
	for _, want := range []string{
		`events,application=book\ shop,title=ApacheJMeter,env=staging,tags=ci\,nightly text="Nightly run started" 1700000000000000000`,
		`jmeter,application=book\ shop,transaction=Home\ page,statut=all,env=staging count=10,avg=55.0,min=10.0,max=100.0,hit=10,sb=1000,rb=10000,pct99.0=100.0,pct95.0=100.0,pct90.0=99.0,pct99.9=100.0 1700000005000000000`,
		`jmeter,application=book\ shop,transaction=Login,responseCode=500,responseMessage=Internal\ Server\ Error,env=staging count=2 `,
		`jmeter,application=book\ shop,transaction=Login,responseCode=Assertion\ failed,responseMessage=Test\ failed:\ text\ expected\ to\ contain\ /Welcome/,env=staging count=1 `,
		`jmeter,application=book\ shop,transaction=all,statut=all,env=staging count=15,countError=3,`,
		`jmeter,application=book\ shop,transaction=internal,env=staging minAT=2,maxAT=2,meanAT=2,startedT=3,endedT=1 1700000005000000000`,
		`events,application=book\ shop,title=ApacheJMeter,env=staging,tags=ci\,nightly text="Nightly run ended" 1700000007000000000`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing line %q", want)
		}
	}
}

func TestSummaryOnlyAndRegex(t *testing.T) {
	rec := &recorder{}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	for _, tt := range []struct {
		name   string
		extra  []Param
		labels []string
	}{
		{"regex", []Param{{"samplersRegex", "^Log"}}, []string{"Login", "all", "internal"}},
		{"summary only", []Param{{"summaryOnly", "TRUE"}}, []string{"all", "internal"}},
		{"no regex argument", nil, []string{"Home", "Login", "all", "internal"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec.mu.Lock()
			rec.bodies = nil
			rec.mu.Unlock()
			ps := []Param{{"influxdbUrl", srv.URL}}
			cfg, err := ParseConfig(append(ps, tt.extra...), nil)
			if err != nil {
				t.Fatal(err)
			}
			c := New(cfg, t0, nil, nil)
			c.Add(&report.Sample{Label: "Home", Success: true})
			c.Add(&report.Sample{Label: "Login", Success: true})
			c.Close()
			var labels []string
			for _, line := range strings.Split(strings.TrimSpace(rec.all()), "\n") {
				if i := strings.Index(line, ",transaction="); i >= 0 && strings.HasPrefix(line, "jmeter,") {
					tx, _, _ := strings.Cut(line[i+len(",transaction="):], ",")
					tx, _, _ = strings.Cut(tx, " ")
					if !slices.Contains(labels, tx) {
						labels = append(labels, tx)
					}
				}
			}
			slices.Sort(labels)
			slices.Sort(tt.labels)
			if !slices.Equal(labels, tt.labels) {
				t.Errorf("transactions %q, want %q", labels, tt.labels)
			}
		})
	}
}

func TestParseConfig(t *testing.T) {
	props := map[string]string{"backend_influxdb.send_interval": "2", "backend_metrics_window_mode": "timed", "backend_metrics_window": "50"}
	c, err := ParseConfig([]Param{{"influxdbUrl", "http://127.0.0.1:8086/write?db=j"}, {"percentiles", "90; 90.0 ;99.99;"}},
		func(k string) (string, bool) { v, ok := props[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	if c.SendInterval != 2*time.Second || !c.Timed || c.Window != 50 || c.LargeWindow != 5000 ||
		c.Measurement != "jmeter" || c.TestTitle != "Test" || c.Application != "" || c.SummaryOnly {
		t.Errorf("config %+v", c)
	}
	if !slices.Equal(c.Percentiles, []float32{90, 99.99}) {
		t.Errorf("percentiles %v", c.Percentiles)
	}
	for _, tt := range []struct {
		ps   []Param
		prop string
		want string
	}{
		{[]Param{{"influxdbUrl", "host:8086"}}, "", "not an http(s) URL"},
		{nil, "", "not an http(s) URL"},
		{[]Param{{"influxdbUrl", "http://h/"}, {"samplersRegex", "("}}, "", "samplersRegex"},
		{[]Param{{"influxdbUrl", "http://h/"}, {"percentiles", "0;abc;101"}}, "", `"abc"`},
		{[]Param{{"influxdbUrl", "http://h/"}}, "backend_metrics_window_mode=sliding", "fixed or timed"},
		{[]Param{{"influxdbUrl", "http://h/"}}, "backend_influxdb.send_interval=0", "positive whole number"},
		{[]Param{{"influxdbUrl", "http://h/"}}, "backend_metrics_percentile_estimator=R_7", "LEGACY"},
	} {
		var props func(string) (string, bool)
		if k, v, ok := strings.Cut(tt.prop, "="); ok {
			props = func(name string) (string, bool) { return v, name == k }
		}
		if _, err := ParseConfig(tt.ps, props); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v %s: error %v, want %q", tt.ps, tt.prop, err, tt.want)
		}
	}
}

func TestWindowPercentile(t *testing.T) {
	w := newWindow(5)
	for _, v := range []float64{9, 1, 7, 3, 5, 100, 200} { // the window keeps the last 5
		w.add(v)
	}
	var scratch []float64
	tests := []struct{ p, want float64 }{
		{50, 7},   // 3 5 7 100 200: pos 3
		{90, 200}, // pos 5.4 ≥ n
		{10, 3},   // pos 0.6 < 1
		{75, 150}, // pos 4.5: 100 + 0.5·100
		{99.9, 200},
	}
	for _, tt := range tests {
		if got := w.percentile(tt.p, &scratch); got != tt.want {
			t.Errorf("p%v = %v, want %v", tt.p, got, tt.want)
		}
	}
	if w.min() != 3 || w.max() != 200 || w.mean() != 63 {
		t.Errorf("min %v max %v mean %v", w.min(), w.max(), w.mean())
	}
	w.clear()
	if !math.IsNaN(w.mean()) || !math.IsNaN(w.percentile(50, &scratch)) {
		t.Error("an empty window has no statistics")
	}
}

func TestFormatting(t *testing.T) {
	for _, tt := range []struct {
		got, want string
	}{
		{java.DoubleString(12), "12.0"},
		{java.DoubleString(12.5), "12.5"},
		{java.DoubleString(0), "0.0"},
		{java.DoubleString(1e7), "1.0E7"},
		{java.DoubleString(12345678.9), "1.23456789E7"},
		{java.DoubleString(0.0001), "1.0E-4"},
		{java.DoubleString(math.NaN()), "NaN"},
		{java.FloatString(99.9), "99.9"},
		{java.FloatString(90), "90.0"},
		{javaInt(2.9), "2"},
		{javaInt(math.NaN()), "0"},
		{tagValue(" a b,c=d\ne "), `a\ b\,c\=d\ne`},
		{tagValue("plain"), "plain"},
		{fieldString(` say "hi" `), `say \"hi\"`},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestSendFailureIsLoggedNotFatal(t *testing.T) {
	rec := &recorder{status: http.StatusBadRequest}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	cfg, _ := ParseConfig([]Param{{"influxdbUrl", srv.URL}}, nil)
	c := New(cfg, t0, nil, nil)
	c.Add(&report.Sample{Label: "x", Success: true})
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if n, err := c.Sends(); err == nil || n != 2 || !strings.Contains(err.Error(), "400") {
		t.Errorf("last error %v after %d sends, want a 400", err, n)
	}
}

func BenchmarkClientAdd(b *testing.B) {
	cfg, _ := ParseConfig([]Param{{"influxdbUrl", "http://127.0.0.1:9/write"}, {"percentiles", "90;95;99"}}, nil)
	c := New(cfg, t0, nil, nil)
	defer c.Close()
	s := &report.Sample{Label: "Home page", Elapsed: ms(42), Success: true, Bytes: 1000, AllThreads: 10}
	c.Add(s)
	b.ReportAllocs()
	for b.Loop() {
		c.Add(s)
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal([]byte(got), want) {
		t.Errorf("lines differ from %s (go test -update rewrites it)\n--- got:\n%s\n--- want:\n%s", path, got, want)
	}
}
