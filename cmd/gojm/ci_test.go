package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gojm/gojm/internal/testsvc"
)

// backendPlan: a setUp group calling /setup twice, then "Users" (users ×
// loops, default 2 × 3) calling "Home page" (/) and "Login" (/login), with
// a Backend Listener (InfluxDB client) in the Users group.
const backendPlan = "../../engine/testdata/backend/influx.jmx"

// shop is the target of backendPlan.
type shop struct {
	host, port string
	requests   atomic.Int64
	// loginFails makes /login answer 500.
	loginFails bool
	// inLogin, when set, gets a value as each /login arrives, which then
	// waits for release to be closed.
	inLogin chan struct{}
	release chan struct{}
}

func newShop(t *testing.T, configure func(*shop)) *shop {
	t.Helper()
	s := &shop{}
	if configure != nil {
		configure(s)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/write" { // the Backend Listener's InfluxDB stand-in
			w.WriteHeader(http.StatusNoContent)
			return
		}
		s.requests.Add(1)
		if r.URL.Path == "/login" {
			if s.inLogin != nil {
				s.inLogin <- struct{}{}
				<-s.release
			}
			if s.loginFails {
				http.Error(w, "down", http.StatusInternalServerError)
				return
			}
		}
		w.Write([]byte("<html>shop</html>"))
	}))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	s.host, s.port, _ = net.SplitHostPort(u.Host)
	return s
}

// args is a JMeter-style command line (no output folder, so no charts)
// running backendPlan against s, whose Backend Listener writes to s too
// unless extra sets -J influx=.
func (s *shop) args(extra ...string) []string {
	return append([]string{"-n", "-t", backendPlan,
		"-J", "host=" + s.host, "-J", "port=" + s.port, "-J", "influx=http://" + net.JoinHostPort(s.host, s.port) + "/write?db=jmeter"}, extra...)
}

// syncBuffer is a bytes.Buffer safe for the run's concurrent writers (the
// log, the threshold guard, the metrics sender), as os.Stderr is.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func (b *syncBuffer) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.b.Reset()
}

func TestThresholdExitCodes(t *testing.T) {
	file := filepath.Join(t.TempDir(), "thresholds.txt")
	if err := os.WriteFile(file, []byte("# the shop's targets\np99<10s\n\nLogin: error_rate<1%\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		loginFails bool
		flags      []string
		code       int
		stdout     []string
		stderr     string
	}{
		{"all pass", false, []string{"--threshold", "errors==0", "--threshold", "Home page: p95<10s", "--threshold", "count==14"}, 0,
			[]string{"Thresholds: 3 of 3 passed", "pass  errors==0", "pass  count==14"}, ""},
		{"one fails", true, []string{"--threshold", "error_rate<1%", "--threshold", "Home page: errors==0"}, exitThresholds,
			[]string{"Thresholds: 1 of 2 passed", "FAIL  error_rate<1%", "error_rate = 42.86% (want < 1.00%)"}, "1 of 2 thresholds failed"},
		{"from a file", true, []string{"--thresholds", file}, exitThresholds,
			[]string{"pass  p99<10s", "FAIL  Login: error_rate<1%", "error_rate = 100.00%"}, "1 of 2 thresholds failed"},
		{"no samples", false, []string{"--threshold", "Search: p95<1s"}, exitThresholds,
			[]string{"FAIL  Search: p95<1s  no samples"}, ""},
		{"bad threshold", false, []string{"--threshold", "p95<<3"}, exitUsage, nil, `threshold "p95<<3"`},
		{"missing file", false, []string{"--thresholds", filepath.Join(t.TempDir(), "none.txt")}, exitUsage, nil, "thresholds file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newShop(t, func(s *shop) { s.loginFails = tt.loginFails })
			var stdout, stderr syncBuffer
			code := run(s.args(tt.flags...), &stdout, &stderr)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout.String(), stderr.String())
			}
			for _, want := range tt.stdout {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
				}
			}
			if !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tt.stderr, stderr.String())
			}
		})
	}
}

// The thresholds are part of the end report in summary.txt too, and the
// JUnit file holds a case per threshold and per label.
func TestJUnitAndSummary(t *testing.T) {
	s := newShop(t, func(s *shop) { s.loginFails = true })
	dir := t.TempDir()
	junit := filepath.Join(dir, "junit.xml")
	var stdout, stderr syncBuffer
	args := append(s.args("--threshold", "p95<10s", "--threshold", "Login: errors==0", "--junit", junit), "-o", filepath.Join(dir, "out"))
	code := run(args, &stdout, &stderr)
	if code != exitThresholds {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	summary, err := os.ReadFile(filepath.Join(dir, "out", "summary.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(summary), "FAIL  Login: errors==0  errors = 6 (want == 0)") {
		t.Errorf("summary.txt lacks the thresholds:\n%s", summary)
	}
	doc, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var suites struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(doc, &suites); err != nil {
		t.Fatal(err)
	}
	// 2 thresholds + 3 labels (Setup call, Home page, Login); Login fails
	// as a threshold and as a label.
	if suites.Tests != 5 || suites.Failures != 2 || len(suites.Suites) != 2 || suites.Suites[0].Name != "Backend plan thresholds" {
		t.Errorf("JUnit: %+v", suites)
	}
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint not found (Debian package libxml2-utils; scripts/test-deps.sh installs it): schema not checked")
	}
	if out, err := exec.Command(xmllint, "--noout", "--schema", "../../report/testdata/junit.xsd", junit).CombinedOutput(); err != nil {
		t.Errorf("JUnit file fails the schema: %v\n%s", err, out)
	}
}

// --abort-on-fail stops the run once a threshold can no longer pass: here
// the third failed Login, long before the 2 × 1000 iterations planned.
func TestAbortOnFail(t *testing.T) {
	s := newShop(t, func(s *shop) { s.loginFails = true })
	var stdout, stderr syncBuffer
	code := run(s.args("-J", "loops=1000", "--threshold", "Login: errors<3", "--threshold", "p95<1s", "--abort-on-fail"), &stdout, &stderr)
	if code != exitThresholds {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	if n := s.requests.Load(); n >= 2+2*1000*2/2 {
		t.Errorf("%d requests: the run was not stopped early", n)
	}
	if !strings.Contains(stderr.String(), `stopping (--abort-on-fail): threshold "Login: errors<3" can no longer pass`) {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	if !strings.Contains(stdout.String(), "The run was stopped early") {
		t.Errorf("stdout:\n%s", stdout.String())
	}

	// Nothing to decide early: said, and the run goes to its end.
	stderr.Reset()
	s = newShop(t, nil)
	if code := run(s.args("--threshold", "p95<10s", "--abort-on-fail"), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "none of the thresholds can be decided before the end") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
}

// In a pipe (a CI log) there is no progress block: JMeter's summariser
// lines, and no terminal control sequence.
func TestProgressInAPipe(t *testing.T) {
	s := newShop(t, nil)
	var stdout, stderr syncBuffer
	if code := run(s.args(), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	out := stdout.String()
	if !strings.Contains(out, "Starting the test @") || !strings.Contains(out, "summary =     14 in ") {
		t.Errorf("no summariser lines:\n%s", out)
	}
	if strings.Contains(out, "\x1b") || strings.Contains(out, "VUs") {
		t.Errorf("terminal output in a pipe:\n%q", out)
	}
}

func TestQuiet(t *testing.T) {
	s := newShop(t, nil)
	var stdout, stderr syncBuffer
	if code := run(s.args("--quiet", "--threshold", "errors==0"), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	out := stdout.String()
	if strings.Contains(out, "summary") || strings.Contains(out, "Starting the test") {
		t.Errorf("--quiet printed progress:\n%s", out)
	}
	if !strings.Contains(out, "Complete requests:      14") || !strings.Contains(out, "Thresholds: 1 of 1 passed") {
		t.Errorf("--quiet lost the end report:\n%s", out)
	}
}

// The plan's Backend Listener streams to a real InfluxDB (Debian's
// influxdb): the points are there after the run, for the Users group only
// (the listener's scope).
func TestBackendListenerToInfluxDB(t *testing.T) {
	db := testsvc.StartInfluxDB(t, "gojm")
	s := newShop(t, func(s *shop) { s.loginFails = true })
	var stdout, stderr syncBuffer
	if code := run(s.args("-J", "influx="+db.WriteURL("gojm")), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	if strings.Contains(stderr.String(), "InfluxDB") {
		t.Errorf("send warnings:\n%s", stderr.String())
	}
	for q, want := range map[string]string{
		`SELECT sum("count"), sum("countError") FROM "jmeter" WHERE "application" = 'book shop' AND "transaction" = 'all'`: "[12 6]",
		`SELECT sum("count") FROM "jmeter" WHERE "transaction" = 'Home page' AND "statut" = 'ok'`:                          "[6]",
		`SELECT sum("count") FROM "jmeter" WHERE "transaction" = 'Login' AND "statut" = 'ko'`:                              "[6]",
		`SELECT sum("count") FROM "jmeter" WHERE "transaction" = 'Login' AND "responseCode" = '500'`:                       "[6]",
		`SELECT count("text") FROM "events" WHERE "application" = 'book shop'`:                                             "[2]",
		`SELECT last("startedT") FROM "jmeter" WHERE "transaction" = 'internal'`:                                           "[3]",
	} {
		ss, err := db.Query("gojm", q)
		if err != nil {
			t.Fatal(err)
		}
		if len(ss) != 1 || len(ss[0].Values) != 1 || fmt.Sprint(ss[0].Values[0][1:]) != want {
			t.Errorf("%s\n got %+v, want %s", q, ss, want)
		}
	}
	ss, err := db.Query("gojm", `SELECT count("count") FROM "jmeter" WHERE "transaction" = 'Setup call'`)
	if err != nil || len(ss) != 0 {
		t.Errorf("the setUp group's samples reached the listener: %+v %v", ss, err)
	}
}

func TestBackendListenerBadURL(t *testing.T) {
	s := newShop(t, nil)
	var stdout, stderr syncBuffer
	code := run(s.args("-J", "influx=influxdb:8086"), &stdout, &stderr)
	if code != exitUnsupported || !strings.Contains(stderr.String(), `Users › Backend Listener: influxdbUrl "influxdb:8086" is not an http(s) URL`) {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	if s.requests.Load() != 0 {
		t.Error("the plan ran")
	}
}

// A real Prometheus (Debian's prometheus) scrapes --prometheus during the
// run: the run is held inside Login until Prometheus has seen it.
func TestPrometheusDuringRun(t *testing.T) {
	port := testsvc.FreePort(t)
	addr := "127.0.0.1:" + strconv.Itoa(port)
	p := testsvc.StartPrometheus(t, addr)
	s := newShop(t, func(s *shop) {
		s.inLogin = make(chan struct{}, 16)
		s.release = make(chan struct{})
	})
	done := make(chan int, 1)
	var stdout, stderr syncBuffer
	go func() { done <- run(s.args("--prometheus", addr), &stdout, &stderr) }()
	released := false
	defer func() {
		if !released {
			close(s.release)
		}
	}()
	<-s.inLogin
	<-s.inLogin // both users wait in their first Login
	check := func(q string, want float64) {
		t.Helper()
		var got []testsvc.Sample
		ok := testsvc.Poll(30*time.Second, func() bool {
			var err error
			got, err = p.Query(q)
			return err == nil && len(got) == 1 && got[0].Value == want
		})
		if !ok {
			t.Errorf("%s = %+v, want %v", q, got, want)
		}
	}
	// The setUp group's samples have reached the sinks (its user ended and
	// flushed its batch); the Users' are still in their batches.
	check(`gojm_samples_total{label="Setup call"}`, 2)
	check(`gojm_sample_duration_seconds_count{label="Setup call"}`, 2)
	check(`gojm_virtual_users{group="Users",state="active"}`, 2)
	check(`gojm_virtual_users{group="Prepare",state="finished"}`, 1)
	close(s.release)
	released = true
	if code := <-done; code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "Prometheus metrics at http://"+addr+"/metrics") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
}

// The progress block on a real terminal: gojm runs in tmux, the screen is
// read with capture-pane while the run is held inside Login, then at the
// end.
func TestProgressInTmux(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux not found (Debian package tmux): the terminal display is not checked")
	}
	bin := filepath.Join(t.TempDir(), "gojm")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	s := newShop(t, func(s *shop) {
		s.inLogin = make(chan struct{}, 16)
		s.release = make(chan struct{})
	})
	released := false
	defer func() {
		if !released {
			close(s.release)
		}
	}()
	sock := "gojm-test-" + strconv.Itoa(os.Getpid())
	tm := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(tmux, append([]string{"-L", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	var cmd []string
	for _, a := range s.args() {
		cmd = append(cmd, strconv.Quote(a))
	}
	// The shell keeps the pane open after gojm exits, for the last screen.
	script := "export TERM=xterm-256color; " + strconv.Quote(bin) + " " + strings.Join(cmd, " ") + "; echo EXIT=$?; read x"
	tm("new-session", "-d", "-s", "run", "-x", "200", "-y", "50", "sh", "-c", script)
	t.Cleanup(func() { exec.Command(tmux, "-L", sock, "kill-server").Run() })
	screen := func() string { return tm("capture-pane", "-p", "-t", "run") }

	<-s.inLogin
	<-s.inLogin
	var live string
	if !testsvc.Poll(30*time.Second, func() bool {
		live = screen()
		return strings.Contains(live, "│ 2/2 VUs")
	}) {
		t.Fatalf("no live block on the terminal:\n%s", live)
	}
	for _, want := range []string{"gojm Backend plan ", "samples", "err ", "p95", "Users", "Prepare", "(setUp) done", "Starting the test @"} {
		if !strings.Contains(live, want) {
			t.Errorf("live screen lacks %q:\n%s", want, live)
		}
	}
	close(s.release)
	released = true
	var end string
	if !testsvc.Poll(60*time.Second, func() bool { end = screen(); return strings.Contains(end, "EXIT=") }) {
		t.Fatalf("gojm did not end:\n%s", end)
	}
	for _, want := range []string{"EXIT=0", "6/6 it │ 0/2 VUs done", "summary =     14 in", "Complete requests:      14"} {
		if !strings.Contains(end, want) {
			t.Errorf("final screen lacks %q:\n%s", want, end)
		}
	}
	// The block replaces the periodic summariser lines on a terminal.
	if strings.Contains(end, "summary +") {
		t.Errorf("a \"summary +\" line on the terminal:\n%s", end)
	}
	// One block: redrawn in place, not appended to.
	if n := strings.Count(end, "gojm Backend plan "); n != 1 {
		t.Errorf("the block appears %d times:\n%s", n, end)
	}
}
