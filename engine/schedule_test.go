package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gojm/gojm/internal/segment"
)

// schedulePlan has a group of each way of starting threads.
func schedulePlan() string {
	open := func(seed string) string {
		return `<elementProp name="ThreadGroup.main_controller" elementType="OpenModelThreadGroupController"/>` +
			sp("ThreadGroup.on_sample_error", "continue") +
			sp("OpenModelThreadGroup.schedule", "rate(5/sec) random_arrivals(2 sec) rate(0) pause(1 s) rate(2/sec) even_arrivals(2 sec)") +
			sp("OpenModelThreadGroup.random_seed", seed)
	}
	return xPlan("",
		xGroup("Users", groupOpts{threads: 9, ramp: 3, loops: "1"}, xJava("u", 10, "")),
		xGroup("Late", groupOpts{threads: 5, ramp: 2, loops: "1", scheduler: true, duration: 10, delay: 1, delayed: true}, xJava("l", 10, "")),
		plugUTG("Ultimate", [][]string{{"3", "0", "1", "2", "1"}, {"2", "1", "0", "2", "0"}}, plugDummy("x", 10)),
		plugDyn(concurrencyClass, "Conc", dynGroup{target: "6", rampUp: "3", steps: "3", hold: "1"}, "", plugDummy("c", 10)),
		plugDyn(arrivalsClass, "Arr", dynGroup{target: "4", rampUp: "2", hold: "1"}, "", plugDummy("a", 10)),
		xmlEl(openModelClass, "OpenSeeded", open("11"), plugDummy("o", 10)),
		xmlEl(openModelClass, "OpenRunSeed", open(""), plugDummy("p", 10)))
}

func scheduleLines(t *testing.T, p *Plan, seg segment.Segment) []string {
	t.Helper()
	var out []string
	for _, g := range p.Schedule(seg, 42, "", 1000) {
		if g.Err != nil || g.More {
			t.Fatalf("%s: %v (cut: %t)", g.Group, g.Err, g.More)
		}
		for _, s := range g.Starts {
			out = append(out, g.Group+" "+s.String())
		}
	}
	slices.Sort(out)
	return out
}

// TestScheduleSegmentsTogether checks that the segments' schedules
// together are the whole run's, for 1 to 6 segments.
func TestScheduleSegmentsTogether(t *testing.T) {
	p, err := compilePlanXML(t, schedulePlan(), nil)
	if err != nil {
		t.Fatal(err)
	}
	whole := scheduleLines(t, p, segment.Whole())
	if len(whole) < 40 {
		t.Fatalf("the schedule lists %d starts: %v", len(whole), whole)
	}
	for n := 1; n <= 6; n++ {
		seq, _ := segment.Equal(n)
		var union []string
		for i := range n {
			union = append(union, scheduleLines(t, p, segment.Segment{Seq: seq, Index: i})...)
		}
		slices.Sort(union)
		if !slices.Equal(union, whole) {
			t.Errorf("%d segments list together:\n%s\nthe whole run:\n%s", n, strings.Join(union, "\n"), strings.Join(whole, "\n"))
		}
	}
}

// TestScheduleIsWhatRunStarts runs the plan and checks that each thread
// started when and as the schedule says: its first sample's start and
// name, and for the arrival-rate groups the instants of their arrivals.
func TestScheduleIsWhatRunStarts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, err := compilePlanXML(t, schedulePlan(), nil)
		if err != nil {
			t.Fatal(err)
		}
		want := scheduleLines(t, p, segment.Whole())
		t0 := time.Now()
		sink := &memSink{}
		if err := Start(t.Context(), p, sink, RunOptions{Seed: 42}).Wait(); err != nil {
			t.Fatal(err)
		}
		arrivalGroup := map[string]string{"a": "Arr", "o": "OpenSeeded", "p": "OpenRunSeed"}
		first := map[string]bool{}
		var got []string
		counts := map[string]int64{}
		for _, s := range sink.samples {
			at := fmt.Sprintf("+%.3fs", s.Start.Sub(t0).Seconds())
			if g, ok := arrivalGroup[s.Label]; ok {
				counts[g]++
				got = append(got, fmt.Sprintf("%s %s arrival %d", g, at, counts[g]))
				continue
			}
			if !first[s.ThreadName] {
				first[s.ThreadName] = true
				g := strings.Fields(s.ThreadName)[0]
				got = append(got, fmt.Sprintf("%s %s %s", g, at, s.ThreadName))
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("the run started:\n%s\nthe schedule says:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}
