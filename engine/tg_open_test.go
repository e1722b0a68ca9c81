package engine

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gojm/gojm/internal/java"
	"github.com/gojm/gojm/report"
)

// steps writes a parsed schedule compactly: r2 (rate per second), a3 and
// e3 (random and even arrivals for seconds), c4 (concurrency).
func (s *openSchedule) String() string {
	var out []string
	for _, st := range s.steps {
		switch {
		case st.kind == 'r':
			out = append(out, fmt.Sprintf("r%g", st.value))
		case st.kind == 'c':
			out = append(out, fmt.Sprintf("c%g", st.value))
		case st.even:
			out = append(out, fmt.Sprintf("e%g", st.value))
		default:
			out = append(out, fmt.Sprintf("a%g", st.value))
		}
	}
	return strings.Join(out, " ")
}

func TestOpenModelScheduleParser(t *testing.T) {
	tests := []struct {
		in, want string
		total    float64
		err      string
	}{
		{in: "rate(10/sec) random_arrivals(1 min) rate(10/sec)", want: "r10 a60 r10", total: 60},
		{in: "rate(0) random_arrivals(1 min) rate(10/sec)", want: "r0 a60 r10", total: 60},
		{in: "RATE(120 per min) Even_Arrivals(1 min 30 sec)", want: "r2 e90", total: 90},
		{in: "rate(1/ms) even_arrivals(500 ms) rate(3600/hour) random_arrivals(0.5 h) rate(86400/day)", want: "r1000 e0.5 r1 a1800 r1", total: 1800.5},
		{in: "rate(2/s) random_arrivals(5 s) pause(5 s) random_arrivals(5 s)", want: "r2 a5 r2 r0 e5 r0 r2 a5", total: 15},
		{in: "pause(2 s) rate(1/s) even_arrivals(1 s)", want: "e2 r0 r1 e1", total: 3},
		{in: "/* warm up */ rate(1/min) // per minute\n random_arrivals(10 min) /* end */", want: "r0.0166667 a600", total: 600},
		{in: "concurrency(5) rate(.5/sec) random_arrivals(0)", want: "c5 r0.5 a0", total: 0},
		{in: "7", want: "r7 e1 r7 r0 e3600", total: 3601},
		{in: "", want: "", total: 0},
		{in: "rate(10) random_arrivals(1 min)", err: "expected / or per after the rate"},
		{in: "rate(10/fortnight)", err: "unexpected time unit fortnight"},
		{in: "random_arrivals(10)", err: "a time unit"},
		{in: "rate(1/sec) arrivals(1 min)", err: "unexpected input (expecting rate"},
		{in: "concurrency(2.5)", err: "concurrency must be a positive whole number"},
		{in: "rate(1/sec) /* open", err: "unclosed comment at position 12"},
		{in: "rate(1/sec) random_arrivals(1 min", err: "expected ')', got the end"},
		{in: "rate(1/sec) random_arrivals(1 min) #", err: "unexpected input at position 35: '#'"},
	}
	for _, tt := range tests {
		s, err := parseOpenSchedule(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: error %v, want one containing %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		got := s.String()
		if strings.HasPrefix(tt.want, "r0.0166667") {
			got = strings.Replace(got, "r0.016666666666666666", "r0.0166667", 1)
		}
		if got != tt.want || math.Abs(s.total-tt.total) > 1e-9 {
			t.Errorf("%q: %s (%gs), want %s (%gs)", tt.in, got, s.total, tt.want, tt.total)
		}
	}
}

// arrivalTimes draws a schedule's arrivals, in ms.
func arrivalTimes(t *testing.T, schedule string, seed int64) []float64 {
	t.Helper()
	s, err := parseOpenSchedule(schedule)
	if err != nil {
		t.Fatal(err)
	}
	rnd := java.NewRandom(seed)
	g := newOpenGen(s, &rnd)
	var out []float64
	for at, ok := g.next(); ok; at, ok = g.next() {
		out = append(out, math.Round(at*1e6)/1e3)
	}
	return out
}

func TestOpenModelArrivals(t *testing.T) {
	tests := []struct {
		schedule string
		want     []float64 // ms
	}{
		// floor(mean rate × duration) arrivals, the first at the start
		{"rate(2/sec) even_arrivals(3 sec)", []float64{0, 500, 1000, 1500, 2000, 2500}},
		// 0 → 4/s over 2 s: arrival n at √(2n/a), a = 2/s²
		{"rate(0) even_arrivals(2 s) rate(4/s)", []float64{0, 1000, 1414.214, 1732.051}},
		// a pause shifts what follows; the rate is restored after it
		{"rate(1/s) even_arrivals(2 s) pause(1 s) even_arrivals(1 s)", []float64{0, 1000, 3000}},
		// random arrivals with a seed are JMeter's: java.util.Random(42)
		// draws 0.7275636800328681, 0.6832234717598454, 0.30871945533265976
		{"rate(3/s) random_arrivals(1 s)", []float64{308.719, 683.223, 727.564}},
		{"rate(1.9/s) random_arrivals(1 s) rate(0) random_arrivals(1 s)", nil},
	}
	for _, tt := range tests {
		got := arrivalTimes(t, tt.schedule, 42)
		if tt.want == nil {
			// 1.9 → 0 over 1 s: floor(0.95) = 0 arrivals; 0 → 0: none
			if len(got) != 0 {
				t.Errorf("%s: %v, want no arrival", tt.schedule, got)
			}
			continue
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.schedule, got, tt.want)
		}
	}
	// A random ramp from 0: floor(mean × d) arrivals, denser at the end.
	got := arrivalTimes(t, "rate(0) random_arrivals(10 s) rate(100/s)", 7)
	if len(got) != 500 || !slices.IsSorted(got) || got[0] < 0 || got[len(got)-1] >= 10000 {
		t.Fatalf("ramp: %d arrivals from %v to %v, want 500 sorted within 10 s", len(got), got[0], got[len(got)-1])
	}
	late := 0
	for _, at := range got {
		if at >= 5000 {
			late++
		}
	}
	if late < 330 || late > 420 { // 3/4 of them expected in the second half
		t.Errorf("ramp: %d of 500 arrivals in the second half, want about 375", late)
	}
}

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
type stallTarget struct{ windows *Template }

const stallClass = "gojm.test.StallTarget"

func (s *stallTarget) Sample(vu *VU, r *Result) {
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
