package engine

import (
	"slices"
	"testing"
	"testing/synctest"
	"time"
)

func plugTST(name string, rows [][]string) string {
	return xmlEl("kg.apc.jmeter.timers.VariableThroughputTimer", name, plugTable("load_profile", rows))
}

// The Throughput Shaping Timer gives second s the rate of its row, fixed
// at the start of the second, and lets the k-th sample of the second go k/rate
// into it; with enough threads the samples follow the schedule exactly.
// When it is over, the group stops.
func TestShapingTimerSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// 1 → 5 samples/s over 4 s (second 4 is the row's last), then 5/s for 2 s
		rows := [][]string{{"1", "5", "4"}, {"5", "${__P(rate,5)}", "2"}}
		plan := xPlan("", xGroup("G", groupOpts{threads: 10, loops: "-1"}, plugDummy("S", 0), plugTST("tst", rows)))
		p, err := compilePlanXML(t, plan, nil)
		if err != nil {
			t.Fatal(err)
		}
		m := &memSink{}
		t0 := time.Now()
		if err := Start(t.Context(), p, m, RunOptions{}).Wait(); err != nil {
			t.Fatal(err)
		}
		var want []int64
		for s, rate := range []int64{1, 2, 3, 4, 5, 5, 5} {
			for k := range rate {
				want = append(want, int64(s)*1000+k*1000/rate)
			}
		}
		if got := starts(m, t0); !slices.Equal(got, want) {
			t.Errorf("samples at\n%v\nwant\n%v", got, want)
		}
		if end := time.Since(t0); end != 7*time.Second {
			t.Errorf("the run ended after %v, want 7s (the end of the schedule's last second)", end)
		}
		for k, want := range map[string]string{"tst_totalDuration": "6", "tst_cntSent": "5", "tst_rps": "0"} {
			if got, _ := p.Props.Get(k); got != want {
				t.Errorf("property %s = %q, want %q", k, got, want)
			}
		}
	})
}

// Turns a second did not use are lost: a thread held up by a slow sample
// catches up within the second it comes back in, not the seconds before.
func TestShapingTimerDoesNotCatchUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		kids := []string{xmlEl("OnceOnlyController", "once", "", plugDummy("slow", 1500)), plugDummy("fast", 10),
			plugTST("tst", [][]string{{"4", "4", "2"}})}
		t0 := time.Now()
		m := runPlanXML(t, xPlan("", xGroup("G", groupOpts{loops: "-1"}, kids...)), nil)
		// 4/s in seconds 0 to 2: the slow sample takes turn 0 and holds the
		// thread until 1500 ms; second 0's other turns are gone; second 1's
		// first three are late and go at once, the fourth at 1750 ms
		want := []int64{0, 1500, 1510, 1520, 1750, 2000, 2250, 2500, 2750}
		if got := starts(m, t0); !slices.Equal(got, want) {
			t.Errorf("samples at %v, want %v", got, want)
		}
	})
}

// ${__tstFeedback(…)} sizes a Concurrency Thread Group from what the
// timer saw each second: from one thread it grows until the samples keep
// up with the schedule (5/s of 1 s samples needs 5 threads or more).
func TestShapingFeedbackSizesConcurrencyGroup(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := dynGroup{target: "${__tstFeedback(tst,1,20,0.5)}", hold: "10"}
		plan := xPlan("", plugDyn(concurrencyClass, "C", f, "", plugDummy("S", 1000), plugTST("tst", [][]string{{"5", "5", "9"}})))
		t0 := time.Now()
		m := runPlanXML(t, plan, nil)
		perSecond := make([]int, 11)
		for _, s := range m.samples {
			perSecond[s.Start.Sub(t0)/time.Second]++
		}
		threads := len(spans(m, t0))
		t.Logf("threads %d, samples per second %v", threads, perSecond)
		if perSecond[0] != 1 {
			t.Errorf("second 0: %d samples, want 1 (the group starts with one thread)", perSecond[0])
		}
		for s := 5; s <= 9; s++ {
			if perSecond[s] != 5 {
				t.Errorf("second %d: %d samples, want 5", s, perSecond[s])
			}
		}
		if perSecond[10] != 0 {
			t.Errorf("second 10: %d samples after the schedule", perSecond[10])
		}
		if threads < 5 || threads > 20 {
			t.Errorf("%d threads, want 5 to 20", threads)
		}
	})
}
