package engine

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/gojm/gojm/examples/target"
)

// Golden recordings of real JMeter 2.13 live in testdata/oracle: for each
// plan, PLAN.requests.jsonl (what the server received, in order) and
// PLAN.jtl. Re-record one with:
//
//	scripts/oracle.sh engine/testdata/PLAN.jmx engine/testdata/oracle/PLAN
//
// (then rename OUT.requests.jsonl and OUT.jtl to the names used here).

// wireIgnored are headers the JMeter 2.13 recordings leave out: User-Agent
// names HttpClient's version (4.2.6 there, 4.5.14 in 5.6), Connection is
// set by the same rule in both, and Host differs by port only.
var wireIgnored = map[string]bool{"Connection": true, "User-Agent": true, "Host": true}

// wire213 maps what gojm sends, as JMeter 5.6 does, to what the JMeter 2.13
// recordings hold where the two JMeters differ: since JMeter 4 (bug 60190)
// a form's Content-Type is HttpClient's, which names the charset.
var wire213 = map[string]string{
	"Content-Type: application/x-www-form-urlencoded; charset=UTF-8": "Content-Type: application/x-www-form-urlencoded",
}

// wireLine is one request as compared with JMeter: method, target, the
// headers gojm must send too, and the body.
func wireLine(r target.Request) string {
	var hs []string
	for _, h := range r.Headers {
		if !wireIgnored[h.Name] {
			if v, ok := wire213[h.Name+": "+h.Value]; ok {
				hs = append(hs, v)
				continue
			}
			hs = append(hs, h.Name+": "+h.Value)
		}
	}
	return fmt.Sprintf("%s %s %q %q", r.Method, r.Target, hs, r.Body)
}

func readOracle(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open("testdata/oracle/" + name + ".requests.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r target.Request
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, wireLine(r))
	}
	return lines
}

// runAgainstTarget runs a plan against an in-process example target and
// returns what it received, in order.
func runAgainstTarget(t *testing.T, plan string, props map[string]string) ([]string, *memSink) {
	t.Helper()
	srv, host, port := startTarget(t)
	all := map[string]string{"host": host, "port": port}
	for k, v := range props {
		all[k] = v
	}
	sink := runPlan(t, plan, all)
	var got []string
	for _, r := range srv.Recorder.Requests() {
		got = append(got, wireLine(r))
	}
	return got, sink
}

// startTarget starts the example target, recording, on the loopback for
// the test's duration.
func startTarget(t *testing.T) (srv *target.Server, host, port string) {
	t.Helper()
	srv = target.NewServer(target.Options{})
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	u, _ := url.Parse(ts.URL)
	host, port, _ = net.SplitHostPort(u.Host)
	return srv, host, port
}

func TestBookPlanSendsWhatJMeterSends(t *testing.T) {
	want := readOracle(t, "book")
	got, _ := runAgainstTarget(t, "testdata/book.jmx", nil)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("gojm sent %d requests, JMeter %d; first gojm %q, first JMeter %q", len(got), len(want), first(got), first(want))
	}
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}
