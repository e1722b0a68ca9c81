package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/examples/target"
	"github.com/gojm/gojm/report"
)

// Each arrival of an Open Model group is a new thread running the
// children once; the threads still running when the schedule ends are
// interrupted.
func TestOpenModelThreadGroupRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		props := `<elementProp name="ThreadGroup.main_controller" elementType="OpenModelThreadGroupController"/>` +
			sp("ThreadGroup.on_sample_error", "continue") +
			sp("OpenModelThreadGroup.schedule", "rate(${__P(rate,1)}/sec) even_arrivals(2 sec)")
		plan := xPlan("", xmlEl(openModelClass, "O", props, plugDummy("A", 300), plugDummy("B", 300)))
		t0 := time.Now()
		m := runPlanXML(t, plan, map[string]string{"rate": "4"})
		var got []string
		for _, s := range m.samples {
			got = append(got, fmt.Sprintf("%s %s@%d+%d:%t", s.ThreadName, s.Label, s.Start.Sub(t0).Milliseconds(), s.Elapsed.Milliseconds(), s.Success))
		}
		slices.Sort(got)
		var want []string
		for i := range 8 {
			// arrivals every 250 ms; at 2 s the samples still running are
			// cut short (the Dummy Sampler keeps its status) and the thread
			// of the last arrival makes no B
			at := int64(i) * 250
			want = append(want, fmt.Sprintf("O 1-%d A@%d+%d:true", i+1, at, min(300, 2000-at)))
			if at+300 < 2000 {
				want = append(want, fmt.Sprintf("O 1-%d B@%d+%d:true", i+1, at+300, min(300, 2000-at-300)))
			}
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("samples:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}

// A schedule that is not valid is refused when the plan is compiled (or,
// with ${…}, when the group starts), with JMeter's position.
func TestOpenModelScheduleErrors(t *testing.T) {
	group := func(s string) string {
		return xPlan("", xmlEl(openModelClass, "O", `<elementProp name="ThreadGroup.main_controller" elementType="OpenModelThreadGroupController"/>`+
			sp("OpenModelThreadGroup.schedule", s), plugDummy("A", 1)))
	}
	if _, err := compilePlanXML(t, group("rate(5) random_arrivals(1 min)"), nil); err == nil || !strings.Contains(err.Error(), "at position 6") {
		t.Errorf("compile error %v, want the schedule's error at position 6", err)
	}
	p, err := compilePlanXML(t, group("${__P(schedule)}"), map[string]string{"schedule": "rate(1/sec) sometimes(1 s)"})
	if err != nil {
		t.Fatal(err)
	}
	err = Start(t.Context(), p, &memSink{}, RunOptions{}).Wait()
	if err == nil || !strings.Contains(err.Error(), "O: schedule: unexpected input") {
		t.Errorf("run error %v, want the schedule's error", err)
	}
}

// stallTarget is a test target for the coordinated-omission tests: a
// request served in 10 ms, except that one arriving during a stall window
// (ms from the run's start, windows property "from-to,…") is answered when
// the window ends. It is a sampler, so that no network is involved in the
// synctest bubble.
type stallTarget struct{ windows *element.Template }

const stallClass = "gojm.test.StallTarget"

func (s *stallTarget) Sample(vu *element.VU, r *element.Result) {
	r.Start = vu.Now()
	at := r.Start.Sub(vu.Run.Start)
	end := at + 10*time.Millisecond
	for _, w := range strings.Split(s.windows.Eval(vu), ",") {
		var from, to int64
		if _, err := fmt.Sscanf(w, "%d-%d", &from, &to); err == nil {
			if f, t := time.Duration(from)*time.Millisecond, time.Duration(to)*time.Millisecond; at >= f && at < t {
				end = t
			}
		}
	}
	tm := time.NewTimer(end - at)
	select {
	case <-tm.C:
		r.Success, r.Code, r.Message = true, "200", "OK"
	case <-vu.Hard.Done():
		tm.Stop()
		r.Code, r.Message = "Non HTTP response code: java.net.SocketException", "Socket closed"
	}
	r.Elapsed = vu.Now().Sub(r.Start)
	r.Latency = r.Elapsed
}

// sampleTimes lists samples as "start+elapsed" (ms from t0), by start.
func sampleTimes(m *memSink, t0 time.Time) []string {
	s := slices.Clone(m.samples)
	slices.SortStableFunc(s, func(a, b report.Sample) int { return a.Start.Compare(b.Start) })
	var out []string
	for _, x := range s {
		mark := ""
		if !x.Success {
			mark = "!"
		}
		out = append(out, fmt.Sprintf("%d+%d%s", x.Start.Sub(t0).Milliseconds(), x.Elapsed.Milliseconds(), mark))
	}
	return out
}

// slow counts the successful samples slower than d.
func slow(m *memSink, d time.Duration) int {
	n := 0
	for _, s := range m.samples {
		if s.Success && s.Elapsed > d {
			n++
		}
	}
	return n
}

// A target stalls for a second (1 s to 2 s) while load runs at 10
// requests per second. The closed model (one thread pacing itself 90 ms
// after each response) waits with the target: one slow sample per
// stall, and the requests the stall held back are never made, so the
// latencies look fine. The open model keeps the arrivals coming: every request due during
// the stall is slow, and those that waited for a free thread (at most 2
// run at once here) are timed from when they were due, queueing included.
// A second stall at 2.5 s holds both threads past the end of the schedule
// (3 s of arrivals, then a 1 s pause): the 3 arrivals still waiting then
// are dropped, counted exactly, and the 2 running requests are
// interrupted.
func TestCoordinatedOmission(t *testing.T) {
	const windows = "1000-2000,2500-5000"
	target := xmlEl(stallClass, "T", sp("windows", windows))

	var closedSlow, openSlow int
	synctest.Test(t, func(t *testing.T) {
		t0 := time.Now()
		closed := xGroup("C", groupOpts{loops: "-1", scheduler: true, duration: 4}, xmlEl(stallClass, "T", sp("windows", windows), xTimer(90)))
		m := runPlanXML(t, xPlan("", closed), nil)
		got := sampleTimes(m, t0)
		// 90 ms apart until the stall; the request at 1090 ms waits for the
		// end of the stall; the next ones go on from there. The second
		// stall holds the thread past the end of the run (4 s).
		want := []string{"90+10", "190+10", "290+10"}
		if !slices.Equal(got[:3], want) || !slices.Contains(got, "1090+910") || !slices.Contains(got, "2190+10") ||
			got[len(got)-1] != "2590+2410" {
			t.Errorf("closed model samples %v", got)
		}
		closedSlow = slow(m, 100*time.Millisecond)
	})
	synctest.Test(t, func(t *testing.T) {
		props := `<elementProp name="ThreadGroup.main_controller" elementType="OpenModelThreadGroupController"/>` +
			sp("OpenModelThreadGroup.schedule", "concurrency(2) rate(10/sec) even_arrivals(3 sec) pause(1 sec)")
		plan := xPlan("", xmlEl(openModelClass, "O", props, target))
		p, err := compilePlanXML(t, plan, nil)
		if err != nil {
			t.Fatal(err)
		}
		m := &memSink{}
		t0 := time.Now()
		run := Start(t.Context(), p, m, RunOptions{})
		if err := run.Wait(); err != nil {
			t.Fatal(err)
		}
		var want []string
		for at := 0; at < 1000; at += 100 {
			want = append(want, fmt.Sprintf("%d+10", at))
		}
		// due during the stall: served when it ends, from their due time
		want = append(want, "1000+1000", "1100+900")
		// queued behind them: two at a time from 2000 ms, 10 ms each, timed
		// from their due time (1200 and 1300 run from 2000 to 2010 ms…)
		want = append(want, "1200+810", "1300+710", "1400+620", "1500+520", "1600+430", "1700+330", "1800+240", "1900+140")
		// 2000 ms queues behind them too
		want = append(want, "2000+50", "2100+10", "2200+10", "2300+10", "2400+10")
		// the second stall: interrupted when the schedule ends at 4 s
		want = append(want, "2500+1500!", "2600+1400!")
		got := sampleTimes(m, t0)
		if !slices.Equal(got, want) {
			t.Errorf("open model samples:\n got %v\nwant %v", got, want)
		}
		if d := run.Dropped(); d != 3 {
			t.Errorf("dropped %d, want 3 (2700, 2800 and 2900 ms)", d)
		}
		a := run.Arrivals()[0]
		if a.Due != 30 || a.Begun != 27 || a.Delayed != 9 || a.MaxDelay != 800*time.Millisecond {
			t.Errorf("arrivals %+v, want 30 due, 27 begun, 9 delayed, longest 800 ms", a)
		}
		openSlow = slow(m, 100*time.Millisecond)
	})
	if closedSlow != 2 || openSlow != 10 {
		t.Errorf("samples slower than 100 ms: closed model %d, open model %d; want 2 and 10", closedSlow, openSlow)
	}
}

// TestPluginGroupsAreMainGroups checks that a thread group of a plugin's
// (here the Open Model's) runs beside JMeter's Thread Group in the main
// phase, after setUp, not before it.
func TestPluginGroupsAreMainGroups(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		open := `<elementProp name="ThreadGroup.main_controller" elementType="OpenModelThreadGroupController"/>` +
			sp("ThreadGroup.on_sample_error", "continue") + sp("OpenModelThreadGroup.schedule", "rate(1/sec) even_arrivals(1 sec)")
		plan := xPlan("",
			xGroup("setUp", groupOpts{kind: "SetupThreadGroup"}, xJava("prepare", 500, "")),
			xGroup("Users", groupOpts{}, xJava("user", 10, "")),
			xmlEl(openModelClass, "Open", open, plugDummy("arrival", 10)))
		t0 := time.Now()
		starts := map[string]int64{}
		for _, s := range runPlanXML(t, plan, nil).samples {
			starts[s.Label] = s.Start.Sub(t0).Milliseconds()
		}
		if starts["prepare"] != 0 || starts["user"] != 500 || starts["arrival"] != 500 {
			t.Errorf("first samples at %v (ms from the start); want prepare at 0, then user and arrival together at 500", starts)
		}
	})
}

// countingServer starts the example target, counting requests, on the
// loopback; it returns the server and its port.
func countingServer(t *testing.T) (*target.Server, string) {
	t.Helper()
	srv := target.NewServer(target.Options{CountOnly: true})
	if err := srv.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv, strings.TrimPrefix(srv.URL(), "http://127.0.0.1:")
}

// When an Open Model schedule ends, the requests still in flight are
// interrupted, as JMeter 5.6's OpenModelThreadGroup does (it stops and
// interrupts each thread still running): each is a failed sample, marked
// as aborted by gojm rather than as the server's or the network's
// failure, and one row per request the server received.
func TestOpenModelEndAbortsHTTP(t *testing.T) {
	srv, port := countingServer(t)
	props := `<elementProp name="ThreadGroup.main_controller" elementType="OpenModelThreadGroupController"/>` +
		sp("ThreadGroup.on_sample_error", "continue") +
		sp("OpenModelThreadGroup.schedule", "rate(20/sec) even_arrivals(300 ms)")
	// the server answers only when the request is aborted
	plan := xPlan("", xmlEl(openModelClass, "O", props, plugHTTP("stuck", "/sleep?ms=600000")))
	m := runPlanXML(t, plan, map[string]string{"host": "127.0.0.1", "port": port})
	if len(m.samples) == 0 || int64(len(m.samples)) != srv.Count() {
		t.Fatalf("%d samples for the %d requests the server received", len(m.samples), srv.Count())
	}
	for i, s := range m.samples {
		if !s.ClientAborted() || s.Code != "Non HTTP response code: java.net.SocketException" ||
			s.Message != "Aborted by gojm: the Open Model schedule ended" {
			t.Errorf("sample %d: %v %q %q; want one aborted by gojm", i, s.Success, s.Code, s.Message)
		}
	}
}

// A plan's own Stop Test Now aborts running requests as JMeter does, with
// JMeter's message: only gojm's own aborts are marked as the client's.
func TestStopTestNowIsNotClientAbort(t *testing.T) {
	_, port := countingServer(t)
	waiting := xGroup("Waiting", groupOpts{}, plugHTTP("stuck", "/sleep?ms=600000"))
	stopping := xGroup("Stopping", groupOpts{}, plugDummy("first", 500), xAction("stop now", taStopNow, 2, "0"))
	m := runPlanXML(t, xPlan("", waiting, stopping), map[string]string{"host": "127.0.0.1", "port": port})
	var stuck []report.Sample
	for _, s := range m.samples {
		if s.Label == "stuck" {
			stuck = append(stuck, s)
		}
	}
	if len(stuck) != 1 || stuck[0].ClientAborted() || stuck[0].Message != "Non HTTP response message: Socket closed" {
		t.Fatalf("the aborted request: %+v; want JMeter's Socket closed, not gojm's mark", stuck)
	}
}
