package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gojm/gojm/examples/target"
	"github.com/gojm/gojm/report"
)

// buildGojm builds the gojm binary into a temporary folder, or skips the
// test where no go command is at hand.
func buildGojm(t *testing.T) string {
	t.Helper()
	// go test puts the go command that runs it first on the PATH.
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build gojm with")
	}
	bin := filepath.Join(t.TempDir(), "gojm")
	out, err := exec.Command(goCmd, "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// foreverPlan writes a plan whose users request path from the host and
// port properties until they are stopped.
func foreverPlan(t *testing.T, users int, path string) string {
	t.Helper()
	plan := fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3"><hashTree>
<TestPlan testclass="TestPlan" testname="Interrupted"/><hashTree>
<ThreadGroup testclass="ThreadGroup" testname="Users">
  <elementProp name="ThreadGroup.main_controller" elementType="LoopController" testclass="LoopController">
    <boolProp name="LoopController.continue_forever">false</boolProp>
    <stringProp name="LoopController.loops">-1</stringProp></elementProp>
  <stringProp name="ThreadGroup.num_threads">%d</stringProp>
  <stringProp name="ThreadGroup.ramp_time">0</stringProp>
  <stringProp name="ThreadGroup.on_sample_error">continue</stringProp>
</ThreadGroup><hashTree>
<HTTPSamplerProxy testclass="HTTPSamplerProxy" testname="page">
  <stringProp name="HTTPSampler.domain">${__P(host)}</stringProp>
  <stringProp name="HTTPSampler.port">${__P(port)}</stringProp>
  <stringProp name="HTTPSampler.path">%s</stringProp>
  <stringProp name="HTTPSampler.method">GET</stringProp>
  <boolProp name="HTTPSampler.use_keepalive">true</boolProp>
</HTTPSamplerProxy><hashTree/>
</hashTree></hashTree></hashTree></jmeterTestPlan>
`, users, path)
	file := filepath.Join(t.TempDir(), "forever.jmx")
	if err := os.WriteFile(file, []byte(plan), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// gojmRun is a gojm process running a plan against a counting server.
type gojmRun struct {
	t      *testing.T
	srv    *target.Server
	cmd    *exec.Cmd
	out    string // the output folder
	stdout bytes.Buffer
	lines  chan string // stderr, a line at a time
	done   chan error  // the process's exit
}

// startRun starts the fault server and gojm running a plan of users
// requesting path forever.
func startRun(t *testing.T, bin string, users int, path string, extra ...string) *gojmRun {
	t.Helper()
	srv := target.NewServer(target.Options{CountOnly: true})
	if err := srv.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	r := &gojmRun{t: t, srv: srv, out: filepath.Join(t.TempDir(), "out"),
		lines: make(chan string, 64), done: make(chan error, 1)}
	port := strings.TrimPrefix(srv.URL(), "http://127.0.0.1:")
	args := append([]string{"run", foreverPlan(t, users, path), "-o", r.out,
		"-J", "host=127.0.0.1", "-J", "port=" + port}, extra...)
	r.cmd = exec.Command(bin, args...)
	r.cmd.Stdout = &r.stdout
	stderr, err := r.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			r.lines <- sc.Text()
		}
		close(r.lines)
		r.done <- r.cmd.Wait()
	}()
	t.Cleanup(func() {
		if r.cmd.ProcessState == nil {
			r.cmd.Process.Kill()
		}
	})
	return r
}

// waitRequests waits until the server has seen n requests; it fails the
// test if gojm ends first or a minute goes by.
func (r *gojmRun) waitRequests(n int64) {
	r.t.Helper()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	limit := time.NewTimer(time.Minute)
	defer limit.Stop()
	for r.srv.Count() < n {
		select {
		case <-tick.C:
		case err := <-r.done:
			r.t.Fatalf("gojm ended (%v) before the server saw %d requests; stdout:\n%s", err, n, r.stdout.String())
		case <-limit.C:
			r.t.Fatalf("the server saw %d requests in a minute, waiting for %d", r.srv.Count(), n)
		}
	}
}

// waitLine waits for a stderr line containing s.
func (r *gojmRun) waitLine(s string) {
	r.t.Helper()
	limit := time.NewTimer(time.Minute)
	defer limit.Stop()
	for {
		select {
		case l, ok := <-r.lines:
			if !ok {
				r.t.Fatalf("gojm's stderr ended without %q", s)
			}
			if strings.Contains(l, s) {
				return
			}
		case <-limit.C:
			r.t.Fatalf("no %q on stderr within a minute", s)
		}
	}
}

// wait waits for gojm to exit and returns its exit code.
func (r *gojmRun) wait() int {
	r.t.Helper()
	go func() {
		for range r.lines { // drain stderr so the process can end
		}
	}()
	limit := time.NewTimer(time.Minute)
	defer limit.Stop()
	select {
	case err := <-r.done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			r.t.Fatal(err)
		}
		return 0
	case <-limit.C:
		r.cmd.Process.Kill()
		r.t.Fatal("gojm did not end within a minute of being interrupted")
	}
	return -1
}

// rows reads the run's JTL back: every row must parse and the file must
// end with a whole line.
func (r *gojmRun) rows() []report.Sample {
	r.t.Helper()
	path := filepath.Join(r.out, "results.jtl")
	data, err := os.ReadFile(path)
	if err != nil {
		r.t.Fatal(err)
	}
	if len(data) == 0 || data[len(data)-1] != '\n' {
		r.t.Fatalf("the JTL does not end with a whole row: %q", data[max(0, len(data)-80):])
	}
	var s keepAll
	if err := report.ReadJTL(bytes.NewReader(data), path, &s, report.ReadOptions{}); err != nil {
		r.t.Fatalf("a JTL row does not parse: %v", err)
	}
	return s
}

// keepAll keeps a copy of every sample.
type keepAll []report.Sample

func (k *keepAll) Add(s *report.Sample) { *k = append(*k, *s) }
func (k *keepAll) Close() error         { return nil }

// The first Ctrl-C (or SIGTERM) lets running samples finish and starts no
// new one; the results file, the summary and the charts hold exactly what
// ran: one row for every request the server received.
func TestInterruptOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs gojm")
	}
	bin := buildGojm(t)
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			r := startRun(t, bin, 20, "/sleep?ms=5")
			r.waitRequests(200)
			if err := r.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			if code := r.wait(); code != 0 {
				t.Fatalf("exit %d after a stop; stdout:\n%s", code, r.stdout.String())
			}
			rows := r.rows()
			if n := r.srv.Count(); int64(len(rows)) != n {
				t.Errorf("the server received %d requests, the JTL has %d rows", n, len(rows))
			}
			for i, s := range rows {
				if !s.Success {
					t.Fatalf("row %d failed (%s %s): a gentle stop must let requests finish", i, s.Code, s.Message)
				}
			}
			for _, f := range []string{"summary.txt", "statistics.json"} {
				if _, err := os.Stat(filepath.Join(r.out, f)); err != nil {
					t.Errorf("no %s after the stop: %v", f, err)
				}
			}
			if pngs, _ := filepath.Glob(filepath.Join(r.out, "*.png")); len(pngs) == 0 {
				t.Error("no chart after the stop")
			}
			if !strings.Contains(r.stdout.String(), fmt.Sprintf("Complete requests:      %d", len(rows))) {
				t.Errorf("the end report does not count the %d samples:\n%s", len(rows), r.stdout.String())
			}
		})
	}
}

// A second Ctrl-C aborts the requests still running: each still becomes a
// (failed) row, so the server's count and the JTL agree.
func TestInterruptTwice(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs gojm")
	}
	bin := buildGojm(t)
	const users = 10
	r := startRun(t, bin, users, "/sleep?ms=600000") // answers only when aborted
	r.waitRequests(users)                            // every user has one request in flight
	if err := r.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	r.waitLine("gojm: stopping")
	if err := r.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if code := r.wait(); code != 0 {
		t.Fatalf("exit %d after an abort; stdout:\n%s", code, r.stdout.String())
	}
	rows := r.rows()
	if len(rows) != users || r.srv.Count() != users {
		t.Fatalf("%d rows for the %d requests the server received, want %d", len(rows), r.srv.Count(), users)
	}
	for i, s := range rows {
		if !s.ClientAborted() || s.Code != "Non HTTP response code: java.net.SocketException" {
			t.Errorf("row %d: %v %q %q; want an aborted request", i, s.Success, s.Code, s.Message)
		}
	}
}

// Running samples that outlast --stop-grace after one Ctrl-C are aborted
// as a second Ctrl-C would: the stop is bounded.
func TestInterruptGraceBound(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs gojm")
	}
	bin := buildGojm(t)
	const users = 5
	r := startRun(t, bin, users, "/sleep?ms=600000", "--stop-grace", "100ms") // answers only when aborted
	r.waitRequests(users)
	if err := r.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	r.waitLine("did not finish within 100ms")
	if code := r.wait(); code != 0 {
		t.Fatalf("exit %d; stdout:\n%s", code, r.stdout.String())
	}
	rows := r.rows()
	if len(rows) != users {
		t.Fatalf("%d rows for %d requests in flight", len(rows), users)
	}
	for i, s := range rows {
		if s.Success {
			t.Errorf("row %d succeeded; want the aborted request", i)
		}
	}
}
