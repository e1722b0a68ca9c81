package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gojm/gojm/engine/internal/sampler"
	"github.com/gojm/gojm/report"
)

// Builders for the plugin thread groups' tests, and a Dummy Sampler that
// waits, so that the runs need no network and run in a synctest bubble.

func plugDummy(name string, ms int, kids ...string) string {
	return xmlEl(sampler.DummyClass, name, bp("WAITING", true)+bp("SUCCESFULL", true)+sp("RESPONSE_CODE", "200")+
		sp("RESPONSE_MESSAGE", "OK")+sp("RESPONSE_DATA", "ok")+sp("RESPONSE_TIME", fmt.Sprint(ms)), kids...)
}

// plugMain is a thread group's main Loop Controller looping for ever.
func plugMain() string {
	return `<elementProp name="ThreadGroup.main_controller" elementType="LoopController">` +
		bp("LoopController.continue_forever", false) + sp("LoopController.loops", "-1") + `</elementProp>`
}

func plugTable(name string, rows [][]string) string {
	var b strings.Builder
	b.WriteString(`<collectionProp name="` + name + `">`)
	for i, r := range rows {
		fmt.Fprintf(&b, `<collectionProp name="%d">`, i)
		for _, c := range r {
			b.WriteString(sp("0", c))
		}
		b.WriteString(`</collectionProp>`)
	}
	b.WriteString(`</collectionProp>`)
	return b.String()
}

func plugUTG(name string, rows [][]string, kids ...string) string {
	return xmlEl(ultimateClass, name, plugTable("ultimatethreadgroupdata", rows)+plugMain()+
		sp("ThreadGroup.on_sample_error", "continue"), kids...)
}

// dynGroup is a Concurrency or Arrivals Thread Group's fields.
type dynGroup struct {
	target, rampUp, steps, hold, iterations, unit, limit string
}

func plugDyn(class, name string, f dynGroup, extra string, kids ...string) string {
	props := `<elementProp name="ThreadGroup.main_controller" elementType="com.blazemeter.jmeter.control.VirtualUserController"/>` +
		sp("ThreadGroup.on_sample_error", "continue") + sp("TargetLevel", f.target) + sp("RampUp", f.rampUp) +
		sp("Steps", f.steps) + sp("Hold", f.hold) + sp("Iterations", f.iterations) + sp("Unit", f.unit) +
		sp("LogFilename", "") + extra
	if class != concurrencyClass {
		props += sp("ConcurrencyLimit", f.limit)
	}
	return xmlEl(class, name, props, kids...)
}

// span is what a thread did: its samples' first start and last end (ms
// from the run's start) and how many there were.
type span struct {
	first, last int64
	n           int
}

func spans(m *memSink, t0 time.Time) map[string]span {
	out := map[string]span{}
	for _, s := range m.samples {
		sp, ok := out[s.ThreadName]
		start, end := s.Start.Sub(t0).Milliseconds(), s.End().Sub(t0).Milliseconds()
		if !ok || start < sp.first {
			sp.first = start
		}
		sp.last = max(sp.last, end)
		sp.n++
		out[s.ThreadName] = sp
	}
	return out
}

func spanList(m map[string]span) string {
	var out []string
	for k, v := range m {
		out = append(out, fmt.Sprintf("%s %d-%d", k, v.first, v.last))
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// Each thread of an Ultimate Thread Group row starts over the startup
// time (the first one numbered last), holds, and stops over the shutdown
// time; rows overlap. The threads sample every 100 ms from their start
// until the sample that reaches their end time.
func TestUltimateThreadGroupSchedule(t *testing.T) {
	tests := []struct {
		name  string
		rows  [][]string
		props map[string]string
		want  string
	}{
		{
			name: "two rows",
			rows: [][]string{{"3", "1", "3", "2", "3"}, {"1", "0", "0", "1", "0"}},
			// row 1: delay 1 s, starts at 1+3·k/3 s (k = 3, 2, 1 for threads 1, 2, 3),
			// descent at 1+3+2 = 6 s, stops at 6+3·k/3 s; row 2: 0 s to 1 s.
			want: "U 1-1 4000-9000, U 1-2 3000-8000, U 1-3 2000-7000, U 1-4 0-1000",
		},
		{
			name:  "${__P()} in a cell",
			rows:  [][]string{{"${__P(users,1)}", "0", "${__P(startup,0)}", "1", "0"}},
			props: map[string]string{"users": "2", "startup": "2"},
			want:  "U 1-1 2000-3000, U 1-2 1000-3000",
		},
		{
			name:  "the threads_schedule property replaces the rows",
			rows:  [][]string{{"5", "0", "0", "9", "0"}},
			props: map[string]string{"threads_schedule": "spawn(1, 1s, 0s, 1s, 0s) spawn(2,0,2s,0,1m)"},
			want:  "U 1-1 1000-2000, U 1-2 2000-62000, U 1-3 1000-32000",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				t0 := time.Now()
				m := runPlanXML(t, xPlan("", plugUTG("U", tt.rows, plugDummy("S", 100))), tt.props)
				if got := spanList(spans(m, t0)); got != tt.want {
					t.Errorf("threads:\n got %s\nwant %s", got, tt.want)
				}
			})
		})
	}
}

// Plugins before 0.5 saved the Ultimate Thread Group's table column by column.
func TestUltimateThreadGroupOldTable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cols := [][]string{{"1"}, {"0"}, {"0"}, {"1"}, {"0"}}
		t0 := time.Now()
		m := runPlanXML(t, xPlan("", plugUTG("U", cols, plugDummy("S", 100))), nil)
		if got, want := spanList(spans(m, t0)), "U 1-1 0-1000"; got != want {
			t.Errorf("threads: %s, want %s", got, want)
		}
	})
}

// The Stepping Thread Group: after the initial delay, "start users count"
// threads every period, each batch over the ramp-up; the flight time after
// the last start; then "stop users count" threads every stop period.
func TestSteppingThreadGroupSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		props := sp("ThreadGroup.num_threads", "5") + sp("Threads initial delay", "1") +
			sp("Start users count", "2") + sp("Start users count burst", "0") + sp("Start users period", "3") +
			sp("Stop users count", "2") + sp("Stop users period", "1") + sp("flighttime", "4") + sp("rampUp", "2") +
			plugMain() + sp("ThreadGroup.on_sample_error", "continue")
		t0 := time.Now()
		m := runPlanXML(t, xPlan("", xmlEl(steppingClass, "S", props, plugDummy("D", 100))), nil)
		// Batches at 1 s, 1+3+2 = 6 s and 11 s, threads 1 s apart within a
		// batch; the last starts at 11 s, the hold ends 1 s (its share of
		// the ramp) + 4 s later; then two threads stop each second.
		want := "S 1-1 1000-16000, S 1-2 2000-16000, S 1-3 6000-17000, S 1-4 7000-17000, S 1-5 11000-18000"
		if got := spanList(spans(m, t0)); got != want {
			t.Errorf("threads:\n got %s\nwant %s", got, want)
		}
	})
}

// The Concurrency Thread Group keeps the planned number of threads, each
// looping until the schedule is over, which it sees before its next
// sampler.
func TestConcurrencyThreadGroup(t *testing.T) {
	tests := []struct {
		name   string
		f      dynGroup
		sample int
		want   string
	}{
		{
			name: "two steps of two threads, then the hold",
			f:    dynGroup{target: "4", rampUp: "2", steps: "2", hold: "3"}, sample: 300,
			// 2 threads at 0 s, 2 more at 1 s; over at 5 s: the samples
			// started at 4800 and 4900 run to their end.
			want: "C 1-1 0-5100, C 1-2 0-5100, C 1-3 1000-5200, C 1-4 1000-5200",
		},
		{
			name: "a smooth ramp: thread n when target·t/ramp-up rounds to n",
			f:    dynGroup{target: "3", rampUp: "3", hold: "1"}, sample: 400,
			want: "C 1-1 500-4100, C 1-2 1500-4300, C 1-3 2500-4100",
		},
		{
			name: "minutes",
			f:    dynGroup{target: "1", rampUp: "0", hold: "0.05", unit: "M"}, sample: 400,
			want: "C 1-1 0-3200",
		},
		{
			name: "a thread that did its iterations is replaced",
			f:    dynGroup{target: "1", hold: "2", iterations: "2"}, sample: 300,
			want: "C 1-1 0-600, C 1-2 600-1200, C 1-3 1200-1800, C 1-4 1800-2100",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				t0 := time.Now()
				m := runPlanXML(t, xPlan("", plugDyn(concurrencyClass, "C", tt.f, "", plugDummy("S", tt.sample))), nil)
				if got := spanList(spans(m, t0)); got != tt.want {
					t.Errorf("threads:\n got %s\nwant %s", got, tt.want)
				}
			})
		})
	}
}

// starts lists the samples' start times in ms from t0, in order.
func starts(m *memSink, t0 time.Time) []int64 {
	var out []int64
	for _, s := range m.samples {
		out = append(out, s.Start.Sub(t0).Milliseconds())
	}
	slices.Sort(out)
	return out
}

// The Arrivals Thread Groups start an iteration per arrival, on an idle
// thread or a new one up to the concurrency limit; at the limit the
// arrival is dropped and counted.
func TestArrivalsThreadGroups(t *testing.T) {
	tests := []struct {
		name     string
		class    string
		f        dynGroup
		extra    string
		sample   int
		arrivals []int64
		threads  int
		dropped  int64
	}{
		{
			name: "2/s held for 3 s; idle threads are reused", class: arrivalsClass,
			f: dynGroup{target: "120", rampUp: "0", hold: "0.05", unit: "M"}, sample: 700,
			arrivals: []int64{0, 500, 1000, 1500, 2000, 2500}, threads: 2,
		},
		{
			name: "at the concurrency limit arrivals are dropped", class: arrivalsClass,
			f: dynGroup{target: "2", rampUp: "0", hold: "3", limit: "1"}, sample: 700,
			arrivals: []int64{0, 1000, 2000}, threads: 1, dropped: 3,
		},
		{
			name: "ramp-up in steps", class: arrivalsClass,
			f: dynGroup{target: "4", rampUp: "2", steps: "2", hold: "1"}, sample: 100,
			arrivals: []int64{0, 500, 1000, 1250, 1500, 1750, 2000, 2250, 2500, 2750}, threads: 1,
		},
		{
			name: "smooth ramp-up: arrival k at √(2k/slope)", class: arrivalsClass,
			f: dynGroup{target: "2", rampUp: "2", hold: "1"}, sample: 100,
			arrivals: []int64{0, 1414, 2000, 2500}, threads: 1,
		},
		{
			name: "free-form rows", class: freeFormClass,
			f:        dynGroup{unit: "S"},
			extra:    plugTable("Schedule", [][]string{{"1", "1", "2"}, {"2", "4", "1"}}),
			sample:   100,
			arrivals: []int64{0, 1000, 2000, 3000}, threads: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p, err := compilePlanXML(t, xPlan("", plugDyn(tt.class, "A", tt.f, tt.extra, plugDummy("S", tt.sample))), nil)
				if err != nil {
					t.Fatal(err)
				}
				sink := &memSink{}
				t0 := time.Now()
				run := Start(t.Context(), p, sink, RunOptions{})
				if err := run.Wait(); err != nil {
					t.Fatal(err)
				}
				if got := starts(sink, t0); !slices.Equal(got, tt.arrivals) {
					t.Errorf("samples at %v, want %v", got, tt.arrivals)
				}
				if got := len(spans(sink, t0)); got != tt.threads {
					t.Errorf("%d threads, want %d", got, tt.threads)
				}
				if got := run.Dropped(); got != tt.dropped {
					t.Errorf("dropped %d, want %d", got, tt.dropped)
				}
				a := run.Arrivals()
				if len(a) != 1 || a[0].Due != int64(len(tt.arrivals))+tt.dropped || a[0].Begun != int64(len(tt.arrivals)) {
					t.Errorf("arrival counts %+v, want %d due, %d begun", a, len(tt.arrivals)+int(tt.dropped), len(tt.arrivals))
				}
			})
		})
	}
}

// A pooled Arrivals thread is not an active thread in the JTL's counts.
func TestArrivalsPooledThreadsAreNotActive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := dynGroup{target: "2", rampUp: "0", hold: "2"}
		m := runPlanXML(t, xPlan("", plugDyn(arrivalsClass, "A", f, "", plugDummy("S", 700))), nil)
		slices.SortFunc(m.samples, func(a, b report.Sample) int { return a.Start.Compare(b.Start) })
		var got []int
		for _, s := range m.samples {
			got = append(got, s.GrpThreads)
		}
		// counted when each sample ends: at 700 ms and 1200 ms both threads
		// run; at 1700 ms the second is back from the pool (1500 ms); at
		// 2200 ms the first waits in the pool
		if want := []int{2, 2, 2, 1}; !slices.Equal(got, want) {
			t.Errorf("group thread counts %v, want %v", got, want)
		}
	})
}

// Negative counts and durations, and infinite ones, stop the group with
// the field named (fields that are not numbers are read as the plugins
// read them: TestPluginGroupLenientFields).
func TestPluginGroupFieldErrors(t *testing.T) {
	for _, tt := range []struct{ plan, want string }{
		{xPlan("", plugUTG("U", [][]string{{"-1", "0", "0", "1", "0"}}, plugDummy("S", 1))), `row 1 start threads -1 is negative`},
		{xPlan("", plugDyn(concurrencyClass, "C", dynGroup{target: "2", hold: "Infinity"}, "", plugDummy("S", 1))), `hold time "Infinity" is not a finite number`},
		{xPlan("", plugDyn(arrivalsClass, "A", dynGroup{target: "2", hold: "1", iterations: "-3"}, "", plugDummy("S", 1))), `thread iterations limit -3 is negative`},
	} {
		synctest.Test(t, func(t *testing.T) {
			p, err := compilePlanXML(t, tt.plan, nil)
			if err != nil {
				t.Fatal(err)
			}
			err = Start(t.Context(), p, &memSink{}, RunOptions{}).Wait()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %s", err, tt.want)
			}
		})
	}
}
