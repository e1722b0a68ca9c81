package testsvc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// startTimeout bounds how long a server may take to answer.
const startTimeout = 60 * time.Second

// FreePort returns a loopback TCP port that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// binary finds a server binary or skips the test.
func binary(t testing.TB, name, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		for _, dir := range []string{"/usr/bin", "/usr/sbin", "/usr/local/bin"} {
			if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
				return filepath.Join(dir, name)
			}
		}
		t.Skipf("%s not found (Debian package %s; scripts/test-deps.sh installs it): integration test skipped", name, pkg)
	}
	return p
}

// start runs a server until the test ends and waits until ready answers
// true. Its output goes to a log file kept for failures.
func start(t testing.TB, name string, ready func() bool, bin string, args ...string) {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), name+".log")
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("%s: %v", name, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cancel()
		<-exited
		logf.Close()
	})
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(startTimeout)
	for !ready() {
		select {
		case err := <-exited:
			exited <- err
			log, _ := os.ReadFile(logPath)
			t.Fatalf("%s exited before it was ready: %v\n%s", name, err, tail(log))
		case <-deadline:
			log, _ := os.ReadFile(logPath)
			t.Fatalf("%s not ready after %v\n%s", name, startTimeout, tail(log))
		case <-tick.C:
		}
	}
}

func tail(b []byte) []byte {
	if len(b) > 4000 {
		return b[len(b)-4000:]
	}
	return b
}

// InfluxDB is a running InfluxDB 1.x server.
type InfluxDB struct {
	// URL is the HTTP API's base, e.g. http://127.0.0.1:40123.
	URL string
}

// StartInfluxDB starts influxd on loopback with a fresh data folder and
// creates the database db.
func StartInfluxDB(t testing.TB, db string) *InfluxDB {
	t.Helper()
	bin := binary(t, "influxd", "influxdb")
	dir := t.TempDir()
	port, rpc := FreePort(t), FreePort(t)
	conf := fmt.Sprintf(`reporting-disabled = true
bind-address = "127.0.0.1:%d"
[meta]
  dir = %q
  logging-enabled = false
[data]
  dir = %q
  wal-dir = %q
  query-log-enabled = false
[monitor]
  store-enabled = false
[subscriber]
  enabled = false
[continuous_queries]
  enabled = false
[retention]
  enabled = false
[http]
  bind-address = "127.0.0.1:%d"
  log-enabled = false
  pprof-enabled = false
`, rpc, filepath.Join(dir, "meta"), filepath.Join(dir, "data"), filepath.Join(dir, "wal"), port)
	confPath := filepath.Join(dir, "influxdb.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &InfluxDB{URL: "http://127.0.0.1:" + strconv.Itoa(port)}
	start(t, "influxd", func() bool {
		resp, err := http.Get(s.URL + "/ping")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusNoContent
	}, bin, "-config", confPath)
	if _, err := s.query("", "CREATE DATABASE "+strconv.Quote(db), true); err != nil {
		t.Fatal(err)
	}
	return s
}

// WriteURL is the 1.x write endpoint of database db.
func (s *InfluxDB) WriteURL(db string) string { return s.URL + "/write?db=" + url.QueryEscape(db) }

// Series is one series of an InfluxQL answer.
type Series struct {
	Name    string            `json:"name"`
	Tags    map[string]string `json:"tags"`
	Columns []string          `json:"columns"`
	Values  [][]any           `json:"values"`
}

// Query runs an InfluxQL query on db and returns its series.
func (s *InfluxDB) Query(db, q string) ([]Series, error) {
	body, err := s.query(db, q, false)
	if err != nil {
		return nil, err
	}
	var r struct {
		Results []struct {
			Series []Series `json:"series"`
			Error  string   `json:"error"`
		} `json:"results"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("influx query %q: %w", q, err)
	}
	if r.Error != "" {
		return nil, fmt.Errorf("influx query %q: %s", q, r.Error)
	}
	var out []Series
	for _, res := range r.Results {
		if res.Error != "" {
			return nil, fmt.Errorf("influx query %q: %s", q, res.Error)
		}
		out = append(out, res.Series...)
	}
	return out, nil
}

func (s *InfluxDB) query(db, q string, post bool) ([]byte, error) {
	v := url.Values{"q": {q}}
	if db != "" {
		v.Set("db", db)
	}
	var resp *http.Response
	var err error
	if post {
		resp, err = http.PostForm(s.URL+"/query", v)
	} else {
		resp, err = http.Get(s.URL + "/query?" + v.Encode())
	}
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("influx query %q: %s: %s", q, resp.Status, bytes.TrimSpace(body))
	}
	return body, nil
}

// Prometheus is a running Prometheus server.
type Prometheus struct {
	// URL is the HTTP API's base.
	URL string
}

// StartPrometheus starts Prometheus on loopback, scraping target
// (host:port) every 200 ms, with a fresh TSDB folder.
func StartPrometheus(t testing.TB, target string) *Prometheus {
	t.Helper()
	bin := binary(t, "prometheus", "prometheus")
	dir := t.TempDir()
	port := FreePort(t)
	conf := fmt.Sprintf(`global:
  scrape_interval: 200ms
  scrape_timeout: 200ms
scrape_configs:
  - job_name: gojm
    static_configs:
      - targets: [%q]
`, target)
	confPath := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &Prometheus{URL: "http://127.0.0.1:" + strconv.Itoa(port)}
	start(t, "prometheus", func() bool {
		resp, err := http.Get(s.URL + "/-/ready")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}, bin, "--config.file="+confPath, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address=127.0.0.1:"+strconv.Itoa(port))
	return s
}

// Sample is one element of an instant query's vector.
type Sample struct {
	Metric map[string]string
	Value  float64
}

// Query runs an instant PromQL query.
func (s *Prometheus) Query(q string) ([]Sample, error) {
	resp, err := http.Get(s.URL + "/api/v1/query?" + url.Values{"query": {q}}.Encode())
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var r struct {
		Status string `json:"status"`
		Error  string `json:"error"`
		Data   struct {
			Result []struct {
				Metric map[string]string `json:"metric"`
				Value  [2]any            `json:"value"`
			} `json:"result"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return nil, fmt.Errorf("prometheus query %q: %w", q, err)
	}
	if r.Status != "success" {
		return nil, fmt.Errorf("prometheus query %q: %s", q, r.Error)
	}
	var out []Sample
	for _, e := range r.Data.Result {
		str, _ := e.Value[1].(string)
		v, err := strconv.ParseFloat(str, 64)
		if err != nil {
			return nil, fmt.Errorf("prometheus query %q: value %v", q, e.Value[1])
		}
		out = append(out, Sample{Metric: e.Metric, Value: v})
	}
	return out, nil
}

// Poll calls f every 100 ms until it returns true or timeout passes, and
// reports whether it did: for waiting on an external server's state, which
// no channel can signal.
func Poll(timeout time.Duration, f func() bool) bool {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(timeout)
	for !f() {
		select {
		case <-deadline:
			return f()
		case <-tick.C:
		}
	}
	return true
}
