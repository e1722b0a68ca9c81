package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gojm/gojm/report"
	"github.com/gojm/gojm/report/dashboard"
)

// splitPlan is the plan of the split-run tests: a setUp group that sets a
// property, a ramped group reading a shared CSV file to its end, an
// arrival-rate group and a tearDown group, each requesting the recorder.
const splitPlan = `<?xml version="1.0" encoding="UTF-8"?>
<jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3"><hashTree>
<TestPlan testclass="TestPlan" testname="Split"/><hashTree>
<SetupThreadGroup testclass="SetupThreadGroup" testname="setUp">
  <elementProp name="ThreadGroup.main_controller" elementType="LoopController"><boolProp name="LoopController.continue_forever">false</boolProp><stringProp name="LoopController.loops">1</stringProp></elementProp>
  <stringProp name="ThreadGroup.num_threads">1</stringProp><stringProp name="ThreadGroup.ramp_time">0</stringProp>
</SetupThreadGroup><hashTree>%[1]s</hashTree>
<ThreadGroup testclass="ThreadGroup" testname="Ramp">
  <elementProp name="ThreadGroup.main_controller" elementType="LoopController"><boolProp name="LoopController.continue_forever">false</boolProp><stringProp name="LoopController.loops">-1</stringProp></elementProp>
  <stringProp name="ThreadGroup.num_threads">8</stringProp><stringProp name="ThreadGroup.ramp_time">2</stringProp>
  <stringProp name="ThreadGroup.on_sample_error">%[5]s</stringProp>
</ThreadGroup><hashTree>
  <CSVDataSet testclass="CSVDataSet" testname="Rows">
    <stringProp name="filename">rows.csv</stringProp><stringProp name="variableNames">row</stringProp>
    <stringProp name="shareMode">shareMode.all</stringProp><boolProp name="recycle">%[6]t</boolProp><boolProp name="stopThread">true</boolProp>
  </CSVDataSet><hashTree/>
  %[2]s
  <ConstantTimer testclass="ConstantTimer" testname="Think"><stringProp name="ConstantTimer.delay">%[7]d</stringProp></ConstantTimer><hashTree/>
</hashTree>
<OpenModelThreadGroup testclass="OpenModelThreadGroup" testname="Arrivals">
  <elementProp name="ThreadGroup.main_controller" elementType="OpenModelThreadGroupController"/>
  <stringProp name="OpenModelThreadGroup.schedule">rate(10/sec) even_arrivals(2 s)</stringProp>
</OpenModelThreadGroup><hashTree>%[3]s</hashTree>
<PostThreadGroup testclass="PostThreadGroup" testname="tearDown">
  <elementProp name="ThreadGroup.main_controller" elementType="LoopController"><boolProp name="LoopController.continue_forever">false</boolProp><stringProp name="LoopController.loops">1</stringProp></elementProp>
  <stringProp name="ThreadGroup.num_threads">1</stringProp><stringProp name="ThreadGroup.ramp_time">0</stringProp>
</PostThreadGroup><hashTree>%[4]s</hashTree>
</hashTree></hashTree></jmeterTestPlan>
`

func getSampler(name, path string) string {
	return fmt.Sprintf(`<HTTPSamplerProxy testclass="HTTPSamplerProxy" testname="%s">
  <stringProp name="HTTPSampler.domain">${__P(host)}</stringProp><stringProp name="HTTPSampler.port">${__P(port)}</stringProp>
  <stringProp name="HTTPSampler.path">%s</stringProp><stringProp name="HTTPSampler.method">GET</stringProp>
</HTTPSamplerProxy><hashTree/>`, name, html.EscapeString(path))
}

// splitSetup is one split-run test's plan, data and recorder.
type splitSetup struct {
	plan, dir string
	mu        sync.Mutex
	seen      map[string]int // path?query → requests
	srv       *httptest.Server
}

// newSplitSetup writes the plan (rows CSV rows; onError and recycle for
// the Ramp group, think ms between its requests) and starts the recorder,
// which answers 500 to /fail.
func newSplitSetup(t *testing.T, rows int, onError string, recycle bool, think int) *splitSetup {
	t.Helper()
	s := &splitSetup{dir: t.TempDir(), seen: map[string]int{}}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.seen[r.URL.RequestURI()]++
		s.mu.Unlock()
		if r.URL.Path == "/fail" {
			w.WriteHeader(http.StatusInternalServerError)
		}
		w.Write([]byte("ok"))
	}))
	t.Cleanup(s.srv.Close)
	var data strings.Builder
	for i := range rows {
		fmt.Fprintf(&data, "r%03d\n", i)
	}
	ramp := getSampler("Row", "/csv?row=${row}&token=${__P(token,none)}")
	if onError == "stoptestnow" {
		// Only the run's thread 3, in one segment, fails, and stops the test.
		ramp += getSampler("Thread", "/${__jexl3(${__threadNum} == 3 ? 'fail' : 'ok')}")
	}
	plan := fmt.Sprintf(splitPlan, getSampler("Prepare", "/setup${__setProperty(token,tok42,)}"), ramp,
		getSampler("Arrival", "/arrival"), getSampler("Tidy", "/teardown"), onError, recycle, think)
	s.plan = filepath.Join(s.dir, "split.jmx")
	for name, text := range map[string]string{s.plan: plan, filepath.Join(s.dir, "rows.csv"): data.String()} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func (s *splitSetup) args(extra ...string) []string {
	port := s.srv.URL[strings.LastIndex(s.srv.URL, ":")+1:]
	return append([]string{"run", s.plan, "-J", "host=127.0.0.1", "-J", "port=" + port, "--quiet"}, extra...)
}

func (s *splitSetup) requests() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps(s.seen)
}

func maps(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// proc is a gojm process of a split run.
type proc struct {
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
	done           chan struct{}
	code           int
	ended          time.Time
}

func startProc(t *testing.T, bin string, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(bin, args...), done: make(chan struct{})}
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		err := p.cmd.Wait()
		p.ended = time.Now()
		var ee *exec.ExitError
		switch {
		case errors.As(err, &ee):
			p.code = ee.ExitCode()
		case err != nil:
			p.code = -1
		}
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// wait waits for the process to end, failing the test after two minutes.
func (p *proc) wait(t *testing.T) int {
	t.Helper()
	select {
	case <-p.done:
		return p.code
	case <-time.After(2 * time.Minute):
		t.Fatalf("%v did not end within two minutes; stderr:\n%s", p.cmd.Args, p.stderr.String())
	}
	return -1
}

// startSegments starts n segments of s's plan in dir, 0.5 s apart.
func startSegments(t *testing.T, bin string, s *splitSetup, dir string, n int, extra ...string) []*proc {
	t.Helper()
	ps := make([]*proc, n)
	for i := range n {
		if i > 0 {
			time.Sleep(500 * time.Millisecond) // launches that are not simultaneous
		}
		ps[i] = startProc(t, bin, s.args(append([]string{"--segment", fmt.Sprintf("%d/%d", i, n), "--sync-dir", dir}, extra...)...)...)
	}
	return ps
}

// jtlRows reads a results file.
func jtlRows(t *testing.T, file string, sink report.Sink) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := report.ReadJTL(f, file, sink, report.ReadOptions{}); err != nil {
		t.Fatal(err)
	}
}

// A plan run once and as 4 processes started 0–1.5 s apart: the same
// samples per label, the merged statistics those rebuilt from the 4
// results files, the same thread names apart from the host, each CSV row
// requested once, setUp and tearDown once, setUp's property seen by every
// segment, and the same threshold verdict and exit code.
func TestSplitRunIsTheRun(t *testing.T) {
	bin := buildGojm(t)
	threshold := []string{"--threshold", "count<10"} // fails: exit 99
	// The Ramp group's think time lets every one of its threads read rows
	// before the file ends, so that the same threads run in both.
	single := newSplitSetup(t, 60, "continue", false, 300)
	one := filepath.Join(t.TempDir(), "one")
	p := startProc(t, bin, single.args(append([]string{"-o", one}, threshold...)...)...)
	if code := p.wait(t); code != exitThresholds {
		t.Fatalf("the run in one process exited %d, want %d; stderr:\n%s", code, exitThresholds, p.stderr.String())
	}

	split := newSplitSetup(t, 60, "continue", false, 300)
	sync := filepath.Join(t.TempDir(), "run")
	ps := startSegments(t, bin, split, sync, 4, threshold...)
	for i, p := range ps {
		want := 0
		if i == 0 {
			want = exitThresholds // the verdict is segment 0's, on the merged results
		}
		if code := p.wait(t); code != want {
			t.Errorf("segment %d exited %d, want %d; stderr:\n%s", i, code, want, p.stderr.String())
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	// The target saw the same requests, each CSV row once.
	got, want := split.requests(), single.requests()
	if len(got) != len(want) {
		t.Errorf("the split run sent %d distinct requests, the single run %d", len(got), len(want))
	}
	for req, n := range want {
		if got[req] != n {
			t.Errorf("%s: %d requests from the split run, %d from the single run", req, got[req], n)
		}
	}
	for req, n := range got {
		if strings.HasPrefix(req, "/csv") && (n != 1 || !strings.Contains(req, "token=tok42")) {
			t.Errorf("%s requested %d times by the split run, want once, with setUp's token", req, n)
		}
	}

	// The same figures per label.
	a, b := labelCounts(t, filepath.Join(one, "statistics.json")), labelCounts(t, filepath.Join(sync, "statistics.json"))
	for label, sa := range a {
		if sb := b[label]; sb.SampleCount != sa.SampleCount || sb.ErrorCount != sa.ErrorCount {
			t.Errorf("%s: %d samples and %d errors in the merged result, %d and %d in the single run", label, sb.SampleCount, sb.ErrorCount, sa.SampleCount, sa.ErrorCount)
		}
	}
	if len(a) != len(b) {
		t.Errorf("labels: %d in the merged result, %d in the single run", len(b), len(a))
	}

	// The merged statistics are those of the 4 results files read as one.
	m, err := readMerged(sync)
	if err != nil {
		t.Fatal(err)
	}
	rebuilt := report.NewStats(m.stats.Options())
	var names []string
	host, _ := os.Hostname()
	for _, part := range m.parts {
		var rows keepAll
		jtlRows(t, part.Results, report.Sinks{rebuilt, &rows})
		for _, r := range rows {
			if !strings.HasPrefix(r.ThreadName, host+"-") {
				t.Errorf("segment %d: thread %q has no host prefix", part.Index, r.ThreadName)
			}
			names = append(names, strings.TrimPrefix(r.ThreadName, host+"-"))
		}
	}
	var fromStates, fromRows bytes.Buffer
	if err := report.WriteStatisticsJSON(&fromStates, m.stats); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteStatisticsJSON(&fromRows, rebuilt); err != nil {
		t.Fatal(err)
	}
	if fromStates.String() != fromRows.String() {
		t.Errorf("the merged statistics differ from those of the results files:\n%s\nrebuilt:\n%s", fromStates.String(), fromRows.String())
	}

	// The same threads ran, under the same names apart from the host.
	var singleRows keepAll
	jtlRows(t, filepath.Join(one, "results.jtl"), &singleRows)
	var singleNames []string
	for _, r := range singleRows {
		singleNames = append(singleNames, r.ThreadName)
	}
	slices.Sort(names)
	slices.Sort(singleNames)
	names, singleNames = slices.Compact(names), slices.Compact(singleNames)
	if !slices.Equal(names, singleNames) {
		t.Errorf("thread names of the rows: split %q, single %q", names, singleNames)
	}

	// gojm merge writes the same statistics again.
	again := filepath.Join(t.TempDir(), "again")
	if out, err := exec.Command(bin, "merge", sync, "-o", again).CombinedOutput(); err != nil {
		t.Fatalf("gojm merge: %v\n%s", err, out)
	}
	s1, _ := os.ReadFile(filepath.Join(sync, "statistics.json"))
	s2, _ := os.ReadFile(filepath.Join(again, "statistics.json"))
	if !bytes.Equal(s1, s2) || len(s1) == 0 {
		t.Errorf("gojm merge's statistics.json differs from segment 0's:\n%s\n%s", s1, s2)
	}
	// Its dashboard draws the charts from every segment's rows.
	if page, err := os.ReadFile(filepath.Join(again, dashboard.FileIndex)); err != nil || !bytes.Contains(page, []byte(`id="gojm-data"`)) {
		t.Errorf("gojm merge's dashboard has no charts' figures (%v)", err)
	}
}

// Faults: a segment killed, a segment stopping the test, a segment of
// another plan.
func TestSplitRunFaults(t *testing.T) {
	bin := buildGojm(t)
	t.Run("a killed segment is named and the merge fails", func(t *testing.T) {
		s := newSplitSetup(t, 100, "continue", true, 20) // recycles: runs until stopped
		sync := filepath.Join(t.TempDir(), "run")
		ps := startSegments(t, bin, s, sync, 3, "--sync-stale", "2s")
		waitFile(t, filepath.Join(sync, "alive-2"))
		ps[2].cmd.Process.Kill()
		for i, p := range ps[:2] {
			if code := p.wait(t); i == 0 && code != exitError {
				t.Errorf("segment 0 exited %d, want %d; stderr:\n%s", code, exitError, p.stderr.String())
			}
		}
		if e := ps[0].stderr.String(); !strings.Contains(e, "segment 2") || !strings.Contains(e, "taken for dead") {
			t.Errorf("segment 0 does not name the killed segment:\n%s", e)
		}
		out, err := exec.Command(bin, "merge", sync).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "segment 2") {
			t.Errorf("gojm merge of a run missing segment 2: %v\n%s", err, out)
		}
	})
	t.Run("Stop Test Now in one segment ends them all", func(t *testing.T) {
		s := newSplitSetup(t, 100, "stoptestnow", true, 20)
		sync := filepath.Join(t.TempDir(), "run")
		ps := startSegments(t, bin, s, sync, 4)
		for i, p := range ps {
			if code := p.wait(t); code != 0 {
				t.Errorf("segment %d exited %d; stderr:\n%s", i, code, p.stderr.String())
			}
		}
		st, err := os.Stat(filepath.Join(sync, "stop"))
		if err != nil {
			t.Fatalf("no stop file: %v", err)
		}
		for i, p := range ps {
			// Running samples finish: a 20 ms think time, a request, the
			// poll of the folder and the end report.
			if d := p.ended.Sub(st.ModTime()); d > 5*time.Second {
				t.Errorf("segment %d ended %v after the stop", i, d)
			}
		}
		if _, err := os.Stat(filepath.Join(sync, "statistics.json")); err != nil {
			t.Errorf("no merged result after a stopped run: %v", err)
		}
	})
	t.Run("a segment of another plan is refused at the start", func(t *testing.T) {
		s := newSplitSetup(t, 10, "continue", false, 0)
		other := newSplitSetup(t, 10, "continue", false, 1)
		sync := filepath.Join(t.TempDir(), "run")
		ps := []*proc{
			startProc(t, bin, s.args("--segment", "0/3", "--sync-dir", sync)...),
			startProc(t, bin, s.args("--segment", "1/3", "--sync-dir", sync)...),
			startProc(t, bin, other.args("--segment", "2/3", "--sync-dir", sync)...),
		}
		for i, p := range ps {
			if code := p.wait(t); code == 0 {
				t.Errorf("segment %d ran; stderr:\n%s", i, p.stderr.String())
			}
			if e := p.stderr.String(); !strings.Contains(e, "another plan or other properties") {
				t.Errorf("segment %d does not name the mismatch:\n%s", i, e)
			}
		}
		if n := len(s.requests()) + len(other.requests()); n != 0 {
			t.Errorf("%d requests were sent by a refused run", n)
		}
	})
}

// labelCounts reads the samples and errors per label of a statistics.json.
func labelCounts(t *testing.T, file string) map[string]struct{ SampleCount, ErrorCount int64 } {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]struct{ SampleCount, ErrorCount int64 }
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return m
}

// waitFile waits for a file to appear, failing after a minute.
func waitFile(t *testing.T, name string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		if _, err := os.Stat(name); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s within a minute", name)
		}
		time.Sleep(50 * time.Millisecond) // polls a file, as the segments do
	}
}
