package engine

import (
	"encoding/csv"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The flow plans of testdata/flow run against a recording server, once
// with real JMeter 2.13 (go test -run TestFlowGoldens -record, which
// testdata/flow/record.sh does) and then with gojm by this test. Both runs
// are reduced to the same text, compared line by line: what the server
// received from each thread, in order, and each thread's samples (label,
// success, code, message) in the order of the results file.
var record = flag.Bool("record", false, "re-record the flow goldens with JMeter 2.13 (../shared/oracle/jmeter213)")

// flowPlans are the plans of testdata/flow compared with JMeter 2.13.
var flowPlans = []string{
	"loop", "while", "if", "transaction", "once_switch", "interleave", "throughput", "foreach",
	"module", "groups", "stoptest", "stoptest_noteardown", "actions", "scope",
}

// flowServer records what each thread (its X-T header) asks for.
type flowServer struct {
	mu   sync.Mutex
	reqs map[string][]string
	srv  *httptest.Server
}

func newFlowServer(t *testing.T) *flowServer {
	t.Helper()
	s := &flowServer{reqs: map[string][]string{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *flowServer) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	th := r.Header.Get("X-T")
	s.reqs[th] = append(s.reqs[th], r.Method+" "+r.URL.RequestURI())
	s.mu.Unlock()
	code := 200
	if c, ok := strings.CutPrefix(r.URL.Path, "/status/"); ok {
		if n, err := strconv.Atoi(c); err == nil {
			code = n
		}
	}
	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(code)
	fmt.Fprintf(w, "%d %s\n", code, r.URL.Path)
}

func (s *flowServer) hostPort() (string, string) {
	h, p, _ := net.SplitHostPort(strings.TrimPrefix(s.srv.URL, "http://"))
	return h, p
}

// flowRow is one sample as the golden keeps it.
type flowRow struct{ thread, line string }

// flowText reduces a run to the golden's text.
func flowText(s *flowServer, rows []flowRow) string {
	var b strings.Builder
	b.WriteString("# requests received, per thread (X-T header), in order\n")
	var ths []string
	for th := range s.reqs {
		ths = append(ths, th)
	}
	sort.Strings(ths)
	for _, th := range ths {
		fmt.Fprintf(&b, "[%s]\n", th)
		for _, r := range s.reqs[th] {
			fmt.Fprintf(&b, "  %s\n", r)
		}
	}
	b.WriteString("# samples, per thread, in order: label | success | code | message\n")
	per := map[string][]string{}
	var names []string
	for _, r := range rows {
		if _, ok := per[r.thread]; !ok {
			names = append(names, r.thread)
		}
		per[r.thread] = append(per[r.thread], r.line)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "[%s]\n", n)
		for _, l := range per[n] {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	return b.String()
}

func sampleLine(label string, ok bool, code, msg string) string {
	return fmt.Sprintf("%s | %t | %s | %s", label, ok, code, msg)
}

func TestFlowGoldens(t *testing.T) {
	for _, name := range flowPlans {
		t.Run(name, func(t *testing.T) {
			golden := filepath.Join("testdata", "flow", name+".golden")
			if *record {
				recordFlow(t, name, golden)
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (record it with testdata/flow/record.sh)", err)
			}
			s := newFlowServer(t)
			host, port := s.hostPort()
			sink := runPlan(t, filepath.Join("testdata", "flow", name+".jmx"), map[string]string{"host": host, "port": port})
			var rows []flowRow
			for _, x := range sink.samples {
				rows = append(rows, flowRow{x.ThreadName, sampleLine(x.Label, x.Success, x.Code, x.Message)})
			}
			if d := lineDiff(flowText(s, rows), string(want)); d != "" {
				t.Errorf("gojm differs from JMeter 2.13 (- gojm, + JMeter):\n%s", d)
			}
		})
	}
}

// recordFlow runs a plan with JMeter 2.13 against the recording server and
// writes its golden.
func recordFlow(t *testing.T, name, golden string) {
	t.Helper()
	oracle, err := filepath.Abs(filepath.Join("..", "..", "shared", "oracle", "jmeter213"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(oracle); err != nil {
		t.Skip("no JMeter 2.13 at ../../shared/oracle/jmeter213 to record with")
	}
	plan, _ := filepath.Abs(filepath.Join("testdata", "flow", name+".jmx"))
	s := newFlowServer(t)
	host, port := s.hostPort()
	dir := t.TempDir()
	jtl := filepath.Join(dir, "out.jtl")
	cmd := exec.Command(oracle, "-n", "-t", plan, "-l", jtl, "-j", filepath.Join(dir, "jmeter.log"),
		"-Jhost="+host, "-Jport="+port, "-Jjmeter.save.saveservice.print_field_names=true")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("JMeter 2.13: %v\n%s", err, out)
	}
	f, err := os.Open(jtl)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	var rows []flowRow
	for _, r := range recs[1:] {
		rows = append(rows, flowRow{r[col["threadName"]], sampleLine(r[col["label"]], r[col["success"]] == "true", r[col["responseCode"]], r[col["responseMessage"]])})
	}
	if err := os.WriteFile(golden, []byte(flowText(s, rows)), 0o644); err != nil {
		t.Fatal(err)
	}
}
