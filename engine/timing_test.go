package engine

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gojm/gojm/report"
)

// The timing of thread groups and timers runs in a synctest bubble: time
// only passes when every goroutine waits, so the times below are exact.

// at lists samples as "label@ms" (start time from the run's start), in
// the order of the results, for one thread when thread is not "".
func at(m *memSink, t0 time.Time, thread string) string {
	var out []string
	for _, s := range m.samples {
		if thread == "" || s.ThreadName == thread {
			out = append(out, fmt.Sprintf("%s@%d", s.Label, s.Start.Sub(t0).Milliseconds()))
		}
	}
	return strings.Join(out, " ")
}

func TestThreadGroupTiming(t *testing.T) {
	java := func(name string, ms int, kids ...string) string { return xJava(name, ms, "", kids...) }
	tests := []struct {
		name  string
		group groupOpts
		kids  []string
		want  map[string]string // thread → samples
	}{
		{
			name:  "ramp-up: threads round(ramp/N) ms apart",
			group: groupOpts{threads: 4, ramp: 2},
			kids:  []string{java("S", 0)},
			want:  map[string]string{"G 1-1": "S@0", "G 1-2": "S@500", "G 1-3": "S@1000", "G 1-4": "S@1500"},
		},
		{
			name:  "ramp-up rounds the per-thread delay",
			group: groupOpts{threads: 3, ramp: 1},
			kids:  []string{java("S", 0)},
			want:  map[string]string{"G 1-1": "S@0", "G 1-2": "S@333", "G 1-3": "S@666"},
		},
		{
			name:  "startup delay, then the duration; the running sample finishes",
			group: groupOpts{loops: "-1", scheduler: true, delay: 2, duration: 3},
			kids:  []string{java("S", 1000)},
			want:  map[string]string{"G 1-1": "S@2000 S@3000 S@4000"},
		},
		{
			name:  "loops end before the duration",
			group: groupOpts{loops: "2", scheduler: true, duration: 100},
			kids:  []string{java("S", 100)},
			want:  map[string]string{"G 1-1": "S@0 S@100"},
		},
		{
			name:  "a timer that would sleep past the end stops the thread",
			group: groupOpts{loops: "-1", scheduler: true, duration: 2},
			kids:  []string{java("S", 0, xTimer(700))},
			want:  map[string]string{"G 1-1": "S@700 S@1400"},
		},
		{
			name:  "a Flow Control Action's pause ends at the end time",
			group: groupOpts{loops: "-1", scheduler: true, duration: 2},
			kids:  []string{java("S", 0), xAction("pause", taPause, 0, "5000"), java("never", 0)},
			want:  map[string]string{"G 1-1": "S@0"},
		},
		{
			name:  "a thread whose turn comes after the end still runs one sample, as in JMeter",
			group: groupOpts{threads: 3, ramp: 6, loops: "-1", scheduler: true, duration: 1},
			kids:  []string{java("S", 400)},
			want:  map[string]string{"G 1-1": "S@0 S@400 S@800", "G 1-2": "S@2000", "G 1-3": "S@4000"},
		},
		{
			name:  "... unless a timer stands before it",
			group: groupOpts{threads: 2, ramp: 4, loops: "-1", scheduler: true, duration: 1},
			kids:  []string{java("S", 0, xTimer(600))},
			want:  map[string]string{"G 1-1": "S@600"},
		},
		{
			name:  "delayed start spreads the threads over what is left of the ramp-up",
			group: groupOpts{threads: 3, ramp: 3, delayed: true},
			kids:  []string{java("S", 0)},
			want:  map[string]string{"G 1-1": "S@0", "G 1-2": "S@1500", "G 1-3": "S@3000"},
		},
		{
			name:  "delayed start starts no thread past the end",
			group: groupOpts{threads: 3, ramp: 3, delayed: true, loops: "-1", scheduler: true, duration: 1},
			kids:  []string{java("S", 300)},
			want:  map[string]string{"G 1-1": "S@0 S@300 S@600 S@900"},
		},
		{
			name:  "Runtime Controller: whole seconds since its pass began",
			group: groupOpts{},
			kids:  []string{xmlEl("RunTime", "rt", sp("RunTime.seconds", "1"), java("S", 300)), java("after", 0)},
			want:  map[string]string{"G 1-1": "S@0 S@300 S@600 S@900 after@1200"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				t0 := time.Now()
				m := runPlanXML(t, xPlan("", xGroup("G", tt.group, tt.kids...)), nil)
				seen := map[string]bool{}
				for _, s := range m.samples {
					seen[s.ThreadName] = true
				}
				for th, want := range tt.want {
					if got := at(m, t0, th); got != want {
						t.Errorf("%s: %s, want %s", th, got, want)
					}
					delete(seen, th)
				}
				for th := range seen {
					t.Errorf("%s: %s, want no sample", th, at(m, t0, th))
				}
			})
		})
	}
}

// A Transaction Controller's time: the whole pass with "include timers",
// the children's sum without (the rest is idle time).
func TestTransactionTimes(t *testing.T) {
	tests := []struct {
		parent, timers bool
		elapsed, idle  time.Duration
	}{
		{parent: false, timers: true, elapsed: 300 * time.Millisecond},
		{parent: false, timers: false, elapsed: 100 * time.Millisecond, idle: 200 * time.Millisecond},
		{parent: true, timers: true, elapsed: 300 * time.Millisecond},
		{parent: true, timers: false, elapsed: 100 * time.Millisecond, idle: 200 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("parent=%t timers=%t", tt.parent, tt.timers), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				plan := xPlan("", xGroup("G", groupOpts{},
					xTx("T", tt.parent, tt.timers, xJava("A", 50, "", xTimer(100)), xJava("B", 50, "", xTimer(100)))))
				m := runPlanXML(t, plan, nil)
				tx := m.samples[len(m.samples)-1]
				if tx.Label != "T" || !tx.Transaction || tx.Elapsed != tt.elapsed || tx.Idle != tt.idle {
					t.Errorf("%s: transaction %v, elapsed %v idle %v; want elapsed %v idle %v", tx.Label, tx.Transaction, tx.Elapsed, tx.Idle, tt.elapsed, tt.idle)
				}
				if tt.parent && (len(tx.Sub) != 2 || len(m.samples) != 1) {
					t.Errorf("parent mode: %d sub-samples, %d samples at the outputs; want 2 and 1", len(tx.Sub), len(m.samples))
				}
			})
		})
	}
}

// A parent-mode Transaction Controller's children reach only the listeners
// deeper than it; the controller's sample reaches those around it.
func TestParentTransactionListeners(t *testing.T) {
	coll := func(name string) string {
		return xmlEl("ResultCollector", name, sp("filename", name+".jtl"))
	}
	plan := xPlan("", coll("plan"), xGroup("G", groupOpts{},
		xTx("T", true, true, coll("in tx"), xSimple("deeper", coll("deeper"), xJava("A", 0, "")))))
	inPlan, inTx, deeper := &memSink{}, &memSink{}, &memSink{}
	main := runPlanXML(t, plan, nil, inPlan, inTx, deeper)
	for _, c := range []struct {
		name string
		m    *memSink
		want string
	}{{"run's outputs", main, "T"}, {"plan listener", inPlan, "T"}, {"listener in the transaction", inTx, "T"}, {"listener deeper", deeper, "A"}} {
		if got := strings.Join(labels(c.m, ""), " "); got != c.want {
			t.Errorf("%s got %q, want %q", c.name, got, c.want)
		}
	}
}

// The Constant Throughput Timer's modes, samples per minute.
func TestConstantThroughputTimer(t *testing.T) {
	ctt := func(perMin float64, mode int) string {
		return xmlEl("ConstantThroughputTimer", "ctt", fmt.Sprintf(`<doubleProp><name>throughput</name><value>%g</value></doubleProp>`, perMin)+ip("calcMode", mode))
	}
	tests := []struct {
		name    string
		threads int
		timer   string
		sleep   int
		want    map[string]string
	}{
		{"this thread only: 60/min is one a second", 1, ctt(60, cttThisThread), 0,
			map[string]string{"G 1-1": "S@0 S@1000 S@2000 S@3000"}},
		{"never catches up: a slow sample restarts the schedule", 1, ctt(120, cttThisThread), 700,
			map[string]string{"G 1-1": "S@0 S@700 S@1400 S@2100"}},
		// The second thread starts at 500 ms.
		{"all active threads: the delay is multiplied by their number", 2, ctt(60, cttAllThreads), 0,
			map[string]string{"G 1-1": "S@0 S@1000 S@3000 S@5000", "G 1-2": "S@500 S@2500 S@4500 S@6500"}},
		// JMeter adds the shared schedule's wait to the thread's own last
		// time, so a thread's first sample does not wait.
		{"shared: one schedule for the threads", 2, ctt(60, cttAllShared), 0,
			map[string]string{"G 1-1": "S@0 S@1000 S@4000 S@6000", "G 1-2": "S@500 S@3000 S@5000 S@7000"}},
		{"by display name (JMeter 2.x files)", 1, xmlEl("ConstantThroughputTimer", "ctt", `<doubleProp><name>throughput</name><value>30</value></doubleProp>`+sp("calcMode", "this thread only")), 0,
			map[string]string{"G 1-1": "S@0 S@2000 S@4000 S@6000"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				t0 := time.Now()
				m := runPlanXML(t, xPlan("", xGroup("G", groupOpts{threads: tt.threads, ramp: 1, loops: "4"}, tt.timer, xJava("S", tt.sleep, ""))), nil)
				for th, want := range tt.want {
					if got := at(m, t0, th); got != want {
						t.Errorf("%s: %s, want %s", th, got, want)
					}
				}
			})
		})
	}
}

// Threads wait at a Synchronizing Timer until enough of them are there;
// a timeout lets the waiting ones go.
func TestSynchronizingTimer(t *testing.T) {
	syncTimer := func(size, timeout int) string {
		return xmlEl("SyncTimer", "sync", ip("groupSize", size)+fmt.Sprintf(`<longProp name="timeoutInMs">%d</longProp>`, timeout))
	}
	synctest.Test(t, func(t *testing.T) {
		t0 := time.Now()
		m := runPlanXML(t, xPlan("", xGroup("G", groupOpts{threads: 3, ramp: 3}, xJava("S", 0, "", syncTimer(0, 0)))), nil)
		if got := at(m, t0, ""); got != "S@2000 S@2000 S@2000" {
			t.Errorf("group size 0 (all the group's threads): %s", got)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		t0 := time.Now()
		m := runPlanXML(t, xPlan("", xGroup("G", groupOpts{threads: 3}, xJava("S", 0, "", syncTimer(5, 500)))), nil)
		if got := at(m, t0, ""); got != "S@500 S@500 S@500" {
			t.Errorf("5 wanted, 3 threads, 500 ms timeout: %s", got)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		t0 := time.Now()
		m := runPlanXML(t, xPlan("", xGroup("G", groupOpts{threads: 3, ramp: 2}, xJava("S", 0, "", syncTimer(5, 500)))), nil)
		if got := at(m, t0, ""); got != "S@500 S@1167 S@1834" {
			t.Errorf("5 wanted, 3 threads 667 ms apart, 500 ms timeout (each waits alone): %s", got)
		}
	})
}

// Only one thread at a time runs a Critical Section Controller's children.
func TestCriticalSectionExcludes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cs := xmlEl("CriticalSectionController", "cs", sp("CriticalSectionController.lockName", "L"), xJava("A", 100, ""), xJava("B", 100, ""))
		m := runPlanXML(t, xPlan("", xGroup("G", groupOpts{threads: 4}, cs)), nil)
		type span struct{ from, to time.Time }
		var spans []span
		per := map[string][]report.Sample{}
		for _, s := range m.samples {
			per[s.ThreadName] = append(per[s.ThreadName], s)
		}
		for th, ss := range per {
			if len(ss) != 2 {
				t.Fatalf("%s ran %d samples", th, len(ss))
			}
			spans = append(spans, span{ss[0].Start, ss[1].End()})
		}
		sort.Slice(spans, func(i, j int) bool { return spans[i].from.Before(spans[j].from) })
		for i := 1; i < len(spans); i++ {
			if spans[i].from.Before(spans[i-1].to) {
				t.Errorf("two threads in the section at once: %v and %v", spans[i-1], spans[i])
			}
		}
	})
}

// on_sample_error "stoptestnow" aborts the samples running elsewhere and
// starts nothing more; the tearDown group runs when the plan asks for it.
func TestStopTestNow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		plan := xPlan(bp("TestPlan.tearDown_on_shutdown", true),
			xGroup("A", groupOpts{onError: "stoptestnow"}, xJava("fail", 100, "FAIL"), xJava("never", 0, "")),
			xGroup("B", groupOpts{}, xJava("long", 1000, ""), xJava("never B", 0, "")),
			xGroup("TD", groupOpts{kind: "PostThreadGroup"}, xJava("teardown", 0, "")))
		t0 := time.Now()
		m := runPlanXML(t, plan, nil)
		var got []string
		for _, s := range m.samples {
			got = append(got, fmt.Sprintf("%s@%d+%d:%t", s.Label, s.Start.Sub(t0).Milliseconds(), s.Elapsed.Milliseconds(), s.Success))
		}
		slices.Sort(got)
		if want := []string{"fail@0+100:false", "long@0+100:false", "teardown@100+0:true"}; !slices.Equal(got, want) {
			t.Errorf("samples %v, want %v", got, want)
		}
	})
}

// same_user_on_next_iteration=false: each iteration is a new user, with no
// cookie and no connection of the one before.
func TestSameUserOnNextIteration(t *testing.T) {
	for _, same := range []bool{true, false} {
		t.Run(fmt.Sprintf("same user %t", same), func(t *testing.T) {
			var mu sync.Mutex
			var seen []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				seen = append(seen, r.URL.Path+" cookie="+r.Header.Get("Cookie")+" conn="+r.RemoteAddr)
				mu.Unlock()
				if r.URL.Path == "/set" {
					http.SetCookie(w, &http.Cookie{Name: "c", Value: "1", Path: "/"})
				}
			}))
			defer srv.Close()
			host, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
			httpReq := func(name, path string) string {
				return xmlEl("HTTPSamplerProxy", name, sp("HTTPSampler.domain", "${__P(host)}")+sp("HTTPSampler.port", "${__P(port)}")+
					sp("HTTPSampler.path", path)+sp("HTTPSampler.method", "GET")+bp("HTTPSampler.use_keepalive", true))
			}
			plan := xPlan("", xGroup("G", groupOpts{loops: "2", notSameUser: !same},
				xmlEl("CookieManager", "cookies", bp("CookieManager.clearEachIteration", false)), httpReq("check", "/check"), httpReq("set", "/set")))
			runPlanXML(t, plan, map[string]string{"host": host, "port": port})
			if len(seen) != 4 {
				t.Fatalf("server saw %v", seen)
			}
			cookie := strings.Contains(seen[2], "cookie=c=1")
			conn := func(s string) string { return s[strings.Index(s, "conn="):] }
			newConn := conn(seen[2]) != conn(seen[1])
			if cookie != same || newConn == same {
				t.Errorf("second iteration: cookie kept %v, new connection %v; want %v, %v\n%s", cookie, newConn, same, !same, strings.Join(seen, "\n"))
			}
		})
	}
}

// A Flow Control Action stopping the test: with "stop", the other groups'
// running samples finish and nothing new starts; with "stop now" they are
// aborted.
func TestFlowControlActionStopsTheTest(t *testing.T) {
	for _, tt := range []struct {
		action int
		want   []string
	}{
		{taStop, []string{"A@0+100:true", "long@0+300:true"}},
		{taStopNow, []string{"A@0+100:true", "long@0+100:false"}},
	} {
		synctest.Test(t, func(t *testing.T) {
			plan := xPlan("",
				xGroup("A", groupOpts{loops: "3"}, xJava("A", 100, ""), xAction("stop", tt.action, taTargetTest, ""), xJava("never", 0, "")),
				xGroup("B", groupOpts{loops: "3"}, xJava("long", 300, "")))
			t0 := time.Now()
			m := runPlanXML(t, plan, nil)
			var got []string
			for _, s := range m.samples {
				got = append(got, fmt.Sprintf("%s@%d+%d:%t", s.Label, s.Start.Sub(t0).Milliseconds(), s.Elapsed.Milliseconds(), s.Success))
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("action %d: samples %v, want %v", tt.action, got, tt.want)
			}
		})
	}
}
