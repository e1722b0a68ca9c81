package engine

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/gojm/gojm/jmx"
)

// A plan of scripts around HTTP requests: a pre-processor picks the item
// each request asks for (and so its label), a post-processor reads the
// JSON answer, a file-based assertion and a BeanShell sampler check it.
func TestScriptPlan(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id": %q}`, strings.TrimPrefix(r.URL.Path, "/items/"))
	})
	host, port := rec.hostPort()
	src, err := jmx.Load("testdata/script/plans/flow.jmx")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Compile(src, Options{Props: map[string]string{"host": host, "port": port}})
	if err != nil {
		t.Fatal(err)
	}
	sink := &memSink{}
	if err := Start(context.Background(), p, sink, RunOptions{}).Wait(); err != nil {
		t.Fatal(err)
	}
	// the listener saw every sample after its assertions: 9 each, one failed
	for key, want := range map[string]string{"listened_0_ok": "9", "listened_1_ok": "8", "listened_1_failed": "1"} {
		if got, _ := p.Props.Get(key); got != want {
			t.Errorf("%s = %q, want %s", key, got, want)
		}
	}
	var paths []string
	for _, r := range rec.reqs {
		paths = append(paths, r.URL.Path)
	}
	sort.Strings(paths)
	want := []string{"/items/item-10", "/items/item-11", "/items/item-20", "/items/item-21", "/items/item-30", "/items/item-31"}
	if strings.Join(paths, " ") != strings.Join(want, " ") {
		t.Errorf("requests %v, want %v", paths, want)
	}
	var labels []string
	for _, s := range sink.samples {
		labels = append(labels, s.Label)
		fail := s.Label == "Groovy 12-meti"
		if s.Success == fail {
			t.Errorf("%s: success %v (%s %s %s)", s.Label, s.Success, s.Code, s.Message, s.FailureMessage)
		}
		if fail && s.FailureMessage != "code 299 for Groovy 12-meti" {
			t.Errorf("%s: failure message %q", s.Label, s.FailureMessage)
		}
	}
	sort.Strings(labels)
	for _, l := range []string{"GET item-10", "GET item-31", "BeanShell item-20", "Groovy 01-meti", "Groovy 12-meti"} {
		if i := sort.SearchStrings(labels, l); i == len(labels) || labels[i] != l {
			t.Errorf("no sample labelled %q in %v", l, labels)
		}
	}
	if len(sink.samples) != 18 {
		t.Errorf("%d samples, want 18", len(sink.samples))
	}
}

// Pre-processors' scripts change the request of the HTTP sampler they run
// before (its Header Manager's headers, its arguments, its path): the
// server gets each user's own change, on that request only.
func TestScriptChangesRequest(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	host, port := rec.hostPort()
	sink := runPlan(t, "testdata/script/plans/request.jmx", map[string]string{"host": host, "port": port})
	var got []string
	for _, r := range rec.reqs {
		got = append(got, fmt.Sprintf("%s?%s auth=%s keep=%s", r.URL.Path, r.URL.RawQuery,
			strings.Join(r.Header.Values("Authorization"), "|"), strings.Join(r.Header.Values("X-Keep"), "|")))
	}
	sort.Strings(got)
	var want []string
	for n := 0; n < 2; n++ {
		for i := 1; i <= 3; i++ {
			want = append(want, fmt.Sprintf("/orders/%d?page=%d&user=u+%d auth=Bearer user%d keep=k-2", n, i, n, n),
				"/plain? auth=Basic old keep=k")
		}
	}
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	labels := map[string]int{}
	for _, s := range sink.samples {
		labels[s.Label]++
	}
	for _, l := range []string{"Plain page=1&user=u 0", "Plain page=3&user=u 1"} {
		if labels[l] != 1 {
			t.Errorf("%d samples labelled %q, want 1 (%v)", labels[l], l, labels)
		}
	}
}

// A BeanShell Assertion calling a method SampleResult does not have runs,
// as in JMeter: a warning as the plan compiles, and the assertion errs on
// each sample with BeanShell's exception.
func TestScriptMethodJMeterLacks(t *testing.T) {
	script := `int total = ctx.getPreviousResult().getTotal();
if (total > 1) { Failure = true; }`
	plan := xPlan("", xGroup("Users", groupOpts{loops: "2"},
		xJava("call", 0, "", xmlEl("BeanShellAssertion", "Rate", sp("BeanShellAssertion.query", script)))))
	p, err := compilePlanXML(t, plan, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0].Message, "SampleResult has no method getTotal()") {
		t.Errorf("warnings %v, want one on getTotal()", p.Warnings)
	}
	m := runPlanXML(t, plan, nil)
	if len(m.samples) != 2 {
		t.Fatalf("%d samples, want 2", len(m.samples))
	}
	for _, s := range m.samples {
		if s.Success || !strings.Contains(s.FailureMessage, "bsh.EvalError") {
			t.Errorf("%s: success %v, failure %q; want the assertion's error", s.Label, s.Success, s.FailureMessage)
		}
	}
}
