package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/gojm/gojm/examples/target"
	"github.com/gojm/gojm/report"
)

// built is the gojm binary the tests of this package run, built once.
var built struct {
	sync.Mutex
	dir, bin string
}

func TestMain(m *testing.M) {
	// The tests send SIGINT and SIGHUP to the gojm processes they start,
	// which inherit an ignored signal: go test started as a background
	// job or under nohup would have them ignore what the tests send. A
	// signal this process catches is reset to its default in the programs
	// it starts.
	for _, s := range []os.Signal{syscall.SIGINT, syscall.SIGHUP} {
		if signal.Ignored(s) {
			signal.Notify(make(chan os.Signal, 1), s)
		}
	}
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// buildGojm builds the gojm binary into a temporary folder, once for the
// tests of the package, or skips the test where no go command is at hand.
func buildGojm(t *testing.T) string {
	t.Helper()
	// go test puts the go command that runs it first on the PATH.
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build gojm with")
	}
	built.Lock()
	defer built.Unlock()
	if built.bin != "" {
		return built.bin
	}
	dir, err := os.MkdirTemp("", "gojm-bin-")
	if err != nil {
		t.Fatal(err)
	}
	built.dir = dir
	bin := filepath.Join(dir, "gojm")
	out, err := exec.Command(goCmd, "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	built.bin = bin
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
	out    string      // the output folder
	stdout syncBuffer  // what gojm printed, when the test does not take stdout itself
	lines  chan string // stderr, a line at a time
	outs   chan string // stdout, a line at a time (see stdout)
	done   chan error  // the process's exit
}

// runOpts change how startRun starts gojm.
type runOpts struct {
	args []string // more flags
	// stdout, when set, is gojm's stdout as it is (a pipe the test
	// closes, a pipe into tee); otherwise the test reads it.
	stdout *os.File
	// pgid puts gojm in a process group of its own, as a shell puts a
	// pipeline's processes in one (signals go to -pid).
	pgid bool
	env  []string // more environment variables
}

// startRun starts the counting server and gojm running a plan of users
// requesting path forever.
func startRun(t *testing.T, bin string, users int, path string, extra ...string) *gojmRun {
	t.Helper()
	return startRunWith(t, bin, users, path, runOpts{args: extra})
}

func startRunWith(t *testing.T, bin string, users int, path string, o runOpts) *gojmRun {
	t.Helper()
	srv := target.NewServer(target.Options{CountOnly: true})
	if err := srv.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	r := &gojmRun{t: t, srv: srv, out: filepath.Join(t.TempDir(), "out"),
		lines: make(chan string, 256), outs: make(chan string, 4096), done: make(chan error, 1)}
	port := strings.TrimPrefix(srv.URL(), "http://127.0.0.1:")
	args := append([]string{"run", foreverPlan(t, users, path), "-o", r.out,
		"-J", "host=127.0.0.1", "-J", "port=" + port}, o.args...)
	r.cmd = exec.Command(bin, args...)
	r.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: o.pgid}
	if o.env != nil {
		r.cmd.Env = append(os.Environ(), o.env...)
	}
	var stdout io.Reader
	if o.stdout != nil {
		r.cmd.Stdout = o.stdout
	} else {
		pipe, err := r.cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout = pipe
	}
	stderr, err := r.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	scan := func(in io.Reader, ch chan string, keep io.Writer) {
		defer wg.Done()
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			if keep != nil {
				fmt.Fprintln(keep, sc.Text())
			}
			select {
			case ch <- sc.Text():
			default: // nobody waits for that many lines
			}
		}
	}
	wg.Add(1)
	go scan(stderr, r.lines, nil)
	if stdout != nil {
		wg.Add(1)
		go scan(stdout, r.outs, &r.stdout)
	}
	go func() {
		wg.Wait() // the pipes are read to their end before Wait closes them
		r.done <- r.cmd.Wait()
	}()
	t.Cleanup(func() {
		if r.cmd.ProcessState == nil {
			r.cmd.Process.Kill()
		}
	})
	return r
}

// signal sends gojm a signal (to its process group with runOpts.pgid).
func (r *gojmRun) signal(sig syscall.Signal) {
	r.t.Helper()
	pid := r.cmd.Process.Pid
	if r.cmd.SysProcAttr != nil && r.cmd.SysProcAttr.Setpgid {
		pid = -pid
	}
	if err := syscall.Kill(pid, sig); err != nil {
		r.t.Fatalf("signal %v: %v", sig, err)
	}
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
func (r *gojmRun) waitLine(s string) { r.t.Helper(); r.waitFor(r.lines, "stderr", s) }

// waitOut waits for a stdout line containing s.
func (r *gojmRun) waitOut(s string) { r.t.Helper(); r.waitFor(r.outs, "stdout", s) }

func (r *gojmRun) waitFor(ch chan string, name, s string) {
	r.t.Helper()
	limit := time.NewTimer(time.Minute)
	defer limit.Stop()
	for {
		select {
		case l, ok := <-ch:
			if !ok {
				r.t.Fatalf("gojm's %s ended without %q", name, s)
			}
			if strings.Contains(l, s) {
				return
			}
		case <-limit.C:
			r.t.Fatalf("no %q on %s within a minute", s, name)
		}
	}
}

// wait waits for gojm to exit and returns its exit code; a death by a
// signal fails the test.
func (r *gojmRun) wait() int {
	r.t.Helper()
	limit := time.NewTimer(time.Minute)
	defer limit.Stop()
	select {
	case err := <-r.done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				r.t.Fatalf("gojm was killed by %v; stdout:\n%s", ws.Signal(), r.stdout.String())
			}
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

// stderrText is what is left of stderr once gojm has ended.
func (r *gojmRun) stderrText() string {
	var b strings.Builder
	for {
		select {
		case l := <-r.lines:
			b.WriteString(l + "\n")
		default:
			return b.String()
		}
	}
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

// outputs says what a run's folder must hold besides the JTL.
type outputs int

const (
	allOutputs     outputs = iota // summary, statistics, every chart
	summaryOutputs                // summary.txt and statistics.json; charts skipped
)

// results checks what an ended run left: its exit code, a JTL of whole
// rows with one row for every request the server received, summary.txt
// saying the run was interrupted (when it was) and counting those rows,
// statistics.json agreeing, every PNG whole and no temporary file left.
// It returns the rows.
func (r *gojmRun) results(code int, want outputs, interrupted string) []report.Sample {
	r.t.Helper()
	if got := r.wait(); got != code {
		r.t.Fatalf("exit %d, want %d; stdout:\n%s\nstderr:\n%s", got, code, r.stdout.String(), r.stderrText())
	}
	rows := r.rows()
	if n := r.srv.Count(); int64(len(rows)) != n {
		r.t.Errorf("the server received %d requests, the JTL has %d rows", n, len(rows))
	}
	summary, err := os.ReadFile(filepath.Join(r.out, "summary.txt"))
	if err != nil {
		r.t.Fatalf("no summary.txt: %v", err)
	}
	if !strings.Contains(string(summary), fmt.Sprintf("Complete requests:      %d (", len(rows))) {
		r.t.Errorf("summary.txt does not count the %d rows:\n%s", len(rows), summary)
	}
	said := strings.Contains(string(summary), "Run interrupted after ")
	if interrupted != "" && (!said || !strings.Contains(string(summary), interrupted)) || interrupted == "" && said {
		r.t.Errorf("summary.txt does not say %q:\n%s", interrupted, summary)
	}
	var stats map[string]struct {
		SampleCount   int    `json:"sampleCount"`
		InterruptedBy string `json:"interruptedBy"`
	}
	data, err := os.ReadFile(filepath.Join(r.out, "statistics.json"))
	if err == nil {
		err = json.Unmarshal(data, &stats)
	}
	if err != nil {
		r.t.Fatalf("statistics.json: %v", err)
	}
	if total := stats["Total"]; total.SampleCount != len(rows) || interrupted != "" && total.InterruptedBy == "" {
		r.t.Errorf("statistics.json's Total: %+v, for %d rows (interrupted: %q)", total, len(rows), interrupted)
	}
	entries, err := os.ReadDir(r.out)
	if err != nil {
		r.t.Fatal(err)
	}
	pngs := 0
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			r.t.Errorf("a temporary file is left in the output folder: %s", name)
		}
		if filepath.Ext(name) != ".png" {
			continue
		}
		pngs++
		f, err := os.Open(filepath.Join(r.out, name))
		if err != nil {
			r.t.Fatal(err)
		}
		if _, err := png.Decode(f); err != nil {
			r.t.Errorf("%s is not a whole PNG: %v", name, err)
		}
		f.Close()
	}
	switch {
	case want == allOutputs && pngs == 0:
		r.t.Error("no chart in the output folder")
	case want == summaryOutputs && pngs != 0:
		r.t.Errorf("%d charts written, though skipping them was asked for", pngs)
	}
	return rows
}

// The first signal (Ctrl-C, SIGTERM, or SIGHUP from a closed terminal)
// lets running samples finish and starts no new one; the results file,
// the summary and the charts hold exactly what ran, the end report says
// the run was interrupted, and gojm exits with its code for that.
func TestInterruptOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs gojm")
	}
	bin := buildGojm(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(signalName(sig), func(t *testing.T) {
			r := startRun(t, bin, 20, "/sleep?ms=5")
			r.waitRequests(200)
			r.signal(sig)
			rows := r.results(exitInterrupted, allOutputs, "by "+signalName(sig))
			for i, s := range rows {
				if !s.Success {
					t.Fatalf("row %d failed (%s %s): a gentle stop must let requests finish", i, s.Code, s.Message)
				}
			}
			if !strings.Contains(r.stdout.String(), "Run interrupted after ") {
				t.Errorf("the end report on stdout does not say the run was interrupted:\n%s", r.stdout.String())
			}
		})
	}
}

// stuckRun starts gojm with users whose requests the server answers only
// when they are aborted, and returns once each has one in flight.
func stuckRun(t *testing.T, users int, extra ...string) *gojmRun {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs gojm")
	}
	r := startRun(t, buildGojm(t), users, "/sleep?ms=600000", extra...)
	r.waitRequests(int64(users))
	return r
}

// A second signal aborts the requests still running: each still becomes
// a failed row, marked as aborted by gojm, so the server's count and the
// JTL agree and the end report counts them apart.
func TestInterruptTwice(t *testing.T) {
	const users = 10
	r := stuckRun(t, users)
	r.signal(syscall.SIGINT)
	r.waitLine("gojm: SIGINT: stopping")
	r.signal(syscall.SIGINT)
	rows := r.results(exitInterrupted, allOutputs, "by SIGINT")
	if len(rows) != users {
		t.Fatalf("%d rows for the %d requests in flight", len(rows), users)
	}
	for i, s := range rows {
		if !s.ClientAborted() || s.Code != "Non HTTP response code: java.net.SocketException" ||
			s.Message != "Aborted by gojm: a second SIGINT" {
			t.Errorf("row %d: %v %q %q; want a request aborted by gojm", i, s.Success, s.Code, s.Message)
		}
	}
	if !strings.Contains(r.stdout.String(), fmt.Sprintf("aborted by gojm: %d)", users)) {
		t.Errorf("the end report does not count the %d aborted samples apart:\n%s", users, r.stdout.String())
	}
}

// Running samples that outlast --stop-grace after one signal are aborted
// as a second would abort them: the stop is bounded.
func TestInterruptGraceBound(t *testing.T) {
	const users = 5
	r := stuckRun(t, users, "--stop-grace", "100ms")
	r.signal(syscall.SIGTERM)
	r.waitLine("did not finish within 100ms")
	rows := r.results(exitInterrupted, allOutputs, "by SIGTERM")
	if len(rows) != users {
		t.Fatalf("%d rows for %d requests in flight", len(rows), users)
	}
	for i, s := range rows {
		if s.Message != "Aborted by gojm: --stop-grace 100ms over" {
			t.Errorf("row %d: %v %q; want the request aborted by gojm", i, s.Success, s.Message)
		}
	}
}

// `gojm run plan.jmx | head -1`: the reader goes away, gojm's next line
// to stdout fails, and the run goes on as JMeter's does: printing stops,
// stderr says so once, and at the stop every request the server saw is a
// row, with the summary and every chart in the folder.
func TestStdoutClosed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs gojm")
	}
	bin := buildGojm(t)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r := startRunWith(t, bin, 20, "/sleep?ms=2", runOpts{stdout: pw, args: []string{"-J", "summariser.interval=1"}})
	pw.Close()
	line, err := bufio.NewReader(pr).ReadString('\n') // head -1
	if err != nil {
		t.Fatal(err)
	}
	pr.Close()
	t.Logf("the one line read: %q", line)
	r.waitLine("gojm: stdout closed") // a write failed, and gojm lives
	n := r.srv.Count()
	r.waitRequests(n + 500) // and its users go on
	r.signal(syscall.SIGINT)
	r.results(exitInterrupted, allOutputs, "by SIGINT")
}

// `gojm run plan.jmx | tee run.log` and Ctrl-C at the terminal, which
// sends SIGINT to the whole pipeline: tee dies at once, gojm stops and
// writes its end report into a pipe no one reads. It must not die of it.
func TestTeeAndCtrlC(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs gojm")
	}
	tee, err := exec.LookPath("tee")
	if err != nil {
		t.Skip("no tee command")
	}
	bin := buildGojm(t)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r := startRunWith(t, bin, 20, "/sleep?ms=5", runOpts{stdout: pw, pgid: true})
	pw.Close()
	log := filepath.Join(t.TempDir(), "run.log")
	tc := exec.Command(tee, log)
	tc.Stdin = pr
	tc.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pgid: r.cmd.Process.Pid} // one job, as a shell makes it
	if err := tc.Start(); err != nil {
		t.Fatal(err)
	}
	pr.Close()
	r.waitRequests(300)
	r.signal(syscall.SIGINT) // to the process group: gojm and tee
	if err := tc.Wait(); err == nil {
		t.Fatal("tee did not die of the SIGINT; the test needs its pipe closed")
	}
	r.results(exitInterrupted, allOutputs, "by SIGINT")
}

// A terminal or ssh session that goes away: SIGHUP, and stdout gone with
// it. gojm stops as for SIGTERM and loses nothing.
func TestHangup(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs gojm")
	}
	bin := buildGojm(t)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r := startRunWith(t, bin, 50, "/sleep?ms=1", runOpts{stdout: pw, args: []string{"-J", "summariser.interval=1"}})
	pw.Close()
	r.waitRequests(2000)
	pr.Close()
	r.signal(syscall.SIGHUP)
	r.results(exitInterrupted, allOutputs, "by SIGHUP")
}

// One more signal while the end report is written (charts and the
// dashboard take a while) neither kills gojm nor cuts a file short: every
// chart is whole and the folder is named at the end.
func TestSignalDuringEndReport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs gojm")
	}
	bin := buildGojm(t)
	r := startRunWith(t, bin, 20, "/sleep?ms=2", runOpts{args: []string{"-e"}})
	r.waitRequests(500)
	r.signal(syscall.SIGINT)
	r.waitOut("Tidying up") // the run is over: the end report is being written
	r.signal(syscall.SIGINT)
	r.results(exitInterrupted, allOutputs, "by SIGINT")
	if stderr := r.stderrText(); !strings.Contains(stderr, "the run is over and its results are being written") {
		t.Errorf("the signal did not land while the end report was written; stderr:\n%s", stderr)
	}
	if _, err := os.Stat(filepath.Join(r.out, "index.html")); err != nil {
		t.Errorf("no dashboard: %v", err)
	}
	if !strings.Contains(r.stdout.String(), "Results in "+r.out+"\n") {
		t.Errorf("no \"Results in\" line:\n%s", r.stdout.String())
	}
}

// Three signals in a row: the second aborts the running requests, the
// third skips the charts and the dashboard, but never the results file,
// summary.txt or statistics.json. (Three different signals, since the
// kernel merges a signal sent again before the first is taken.)
func TestThreeSignals(t *testing.T) {
	const users = 10
	r := stuckRun(t, users, "-e")
	r.signal(syscall.SIGINT)
	r.waitLine("gojm: SIGINT: stopping")
	r.signal(syscall.SIGTERM)
	r.signal(syscall.SIGHUP)
	rows := r.results(exitInterrupted, summaryOutputs, "by SIGINT")
	if len(rows) != users {
		t.Errorf("%d rows for the %d requests in flight", len(rows), users)
	}
	if _, err := os.Stat(filepath.Join(r.out, "index.html")); err == nil {
		t.Error("the dashboard was written, though skipping it was asked for")
	}
	if !strings.Contains(r.stdout.String(), "(charts and dashboard skipped)") {
		t.Errorf("the end does not say the charts were skipped:\n%s", r.stdout.String())
	}
}

// total is how many requests the recorder of a split-run test has seen.
func (s *splitSetup) total() int {
	n := 0
	for _, c := range s.requests() {
		n += c
	}
	return n
}

// Ctrl-C to one segment of a split run stops them all: that segment and
// segment 0, whose merge says the run was interrupted and by what, exit
// with the code for it, and every request the target saw is a row in a
// segment's results file and counted in the merged statistics.
func TestSplitRunInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs gojm")
	}
	bin := buildGojm(t)
	s := newSplitSetup(t, 100, "continue", true, 5) // recycles: runs until stopped
	sync := filepath.Join(t.TempDir(), "run")
	ps := startSegments(t, bin, s, sync, 2)
	waitFile(t, filepath.Join(sync, "alive-1"))
	limit := time.Now().Add(time.Minute)
	for s.total() < 100 { // both segments' users are at work
		if time.Now().After(limit) {
			t.Fatalf("the target saw %d requests in a minute", s.total())
		}
		time.Sleep(5 * time.Millisecond) // polls the recorder, as waitRequests does
	}
	if err := ps[1].cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		if code := p.wait(t); code != exitInterrupted {
			t.Errorf("segment %d exited %d, want %d; stderr:\n%s", i, code, exitInterrupted, p.stderr.String())
		}
	}
	rows := 0
	for i := range ps {
		var k keepAll
		jtlRows(t, filepath.Join(sync, fmt.Sprintf("segment-%d", i), "results.jtl"), &k)
		rows += len(k)
	}
	if n := s.total(); rows != n {
		t.Errorf("the target saw %d requests, the segments' results files have %d rows", n, rows)
	}
	var stats map[string]struct {
		SampleCount   int    `json:"sampleCount"`
		InterruptedBy string `json:"interruptedBy"`
	}
	data, err := os.ReadFile(filepath.Join(sync, "statistics.json"))
	if err == nil {
		err = json.Unmarshal(data, &stats)
	}
	if err != nil {
		t.Fatalf("the merged statistics.json: %v", err)
	}
	if total := stats["Total"]; total.SampleCount != rows || total.InterruptedBy != "SIGINT" {
		t.Errorf("the merged Total: %+v; want %d samples, interrupted by SIGINT", total, rows)
	}
	summary, err := os.ReadFile(filepath.Join(sync, "summary.txt"))
	if err != nil || !strings.Contains(string(summary), "Run interrupted after ") || !strings.Contains(string(summary), " by SIGINT") {
		t.Errorf("the merged summary.txt does not say the run was interrupted (%v):\n%s", err, summary)
	}
}

// A signal while a segment waits for the others ends the wait: gojm tells
// the others through the sync folder, sends nothing and exits with the
// code of an interrupted run.
func TestSplitRunInterruptedBeforeStart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs gojm")
	}
	bin := buildGojm(t)
	s := newSplitSetup(t, 10, "continue", false, 0)
	sync := filepath.Join(t.TempDir(), "run")
	p := startProc(t, bin, s.args("--segment", "0/2", "--sync-dir", sync)...)
	waitFile(t, filepath.Join(sync, "ready-0")) // waiting for segment 1, which never comes
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := p.wait(t); code != exitInterrupted {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, exitInterrupted, p.stderr.String())
	}
	stop, err := os.ReadFile(filepath.Join(sync, "stop"))
	if err != nil || !strings.Contains(string(stop), "SIGTERM before the run started") {
		t.Errorf("the other segments are not told (%v): %q", err, stop)
	}
	if n := s.total(); n != 0 {
		t.Errorf("%d requests sent by a run stopped before its start", n)
	}
}

// On a terminal, the stop message is printed through the live block (above
// it, where it stays: report/progress), not on stderr beneath a block that
// the next redraw would draw over it.
func TestStopMessageOnTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs gojm")
	}
	bin := buildGojm(t)
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 24, Cols: 120}); err != nil {
		t.Fatal(err)
	}
	var screen bytes.Buffer
	read := make(chan struct{})
	go func() {
		defer close(read)
		io.Copy(&screen, ptmx) // until gojm, the last holder of the terminal, ends
	}()
	r := startRunWith(t, bin, 10, "/sleep?ms=5", runOpts{stdout: tty, env: []string{"TERM=xterm"}})
	tty.Close()
	r.waitRequests(200)
	r.signal(syscall.SIGINT)
	r.results(exitInterrupted, allOutputs, "by SIGINT")
	<-read
	text := regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`).ReplaceAllString(screen.String(), "")
	if !strings.Contains(text, "gojm: SIGINT: stopping") || !strings.Contains(text, "Run interrupted after ") {
		t.Errorf("the terminal lacks the stop message or the end report:\n%s", text)
	}
	if stderr := r.stderrText(); strings.Contains(stderr, "stopping") {
		t.Errorf("the stop message went to stderr, under the live block:\n%s", stderr)
	}
}

// SIGKILL cannot be caught: what docs/ci.md says it loses is lost, and
// nothing else. The results file holds only whole rows, each a request
// the server saw, and no other file of the folder is half there: they are
// written only at the end.
func TestKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs gojm")
	}
	r := startRun(t, buildGojm(t), 20, "/sleep?ms=1")
	r.waitRequests(1000)
	// Until a tick of the writer has put rows in the file (at most a
	// second), polled as waitRequests polls the server.
	limit := time.Now().Add(time.Minute)
	for {
		if data, _ := os.ReadFile(filepath.Join(r.out, "results.jtl")); bytes.Count(data, []byte("\n")) > 1 {
			break
		}
		if time.Now().After(limit) {
			t.Fatal("no rows in the results file within a minute")
		}
		time.Sleep(5 * time.Millisecond)
	}
	r.signal(syscall.SIGKILL)
	select {
	case err := <-r.done:
		var ee *exec.ExitError
		ws, ok := syscall.WaitStatus(0), false
		if errors.As(err, &ee) {
			ws, ok = ee.Sys().(syscall.WaitStatus)
		}
		if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
			t.Fatalf("gojm ended with %v, not by SIGKILL", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("gojm did not end within a minute of SIGKILL")
	}
	rows := r.rows()
	if n := r.srv.Count(); len(rows) == 0 || int64(len(rows)) > n {
		t.Errorf("%d rows for the %d requests the server saw", len(rows), n)
	}
	entries, err := os.ReadDir(r.out)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "results.jtl" {
			t.Errorf("%s in the folder of a killed run", e.Name())
		}
	}
}

// SIGINT and SIGHUP ignored when gojm starts (a background job of a
// script, nohup) stay ignored: they neither stop the run nor kill gojm.
// SIGTERM, which Go's runtime always catches, still stops it.
func TestIgnoredSignalsStayIgnored(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs gojm")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to start gojm with signals ignored")
	}
	wrapper := filepath.Join(t.TempDir(), "nohup-gojm")
	script := fmt.Sprintf("#!%s\ntrap '' INT HUP\nexec %q \"$@\"\n", sh, buildGojm(t))
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	r := startRun(t, wrapper, 10, "/sleep?ms=1")
	r.waitRequests(300)
	r.signal(syscall.SIGINT)
	r.signal(syscall.SIGHUP)
	r.waitRequests(r.srv.Count() + 1000) // its users go on
	r.signal(syscall.SIGTERM)
	r.results(exitInterrupted, allOutputs, "by SIGTERM")
}
