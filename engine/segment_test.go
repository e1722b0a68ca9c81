package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gojm/gojm/internal/segment"
	"github.com/gojm/gojm/jmx"
)

// TestSegmentsUnionIsTheRun runs a plan whole and as 1, 2, 3 and 5
// segments at once, and checks that the segments' samples together are
// the whole run's: each thread's samples at the same instants under the
// same names, setUp and tearDown once, and the properties setUp set seen
// by every segment.
func TestSegmentsUnionIsTheRun(t *testing.T) {
	open := `<elementProp name="ThreadGroup.main_controller" elementType="OpenModelThreadGroupController"/>` +
		sp("ThreadGroup.on_sample_error", "continue") +
		sp("OpenModelThreadGroup.schedule", "rate(10/sec) random_arrivals(2 sec)") + sp("OpenModelThreadGroup.random_seed", "7")
	plan := xPlan("",
		xGroup("setUp", groupOpts{kind: "SetupThreadGroup"}, xJava("prepare", 100, "")),
		xGroup("Users", groupOpts{threads: 7, ramp: 2, loops: "2"}, xJava("${__P(from_setup,none)}", 150, "")),
		xmlEl(openModelClass, "Open", open, plugDummy("arrival", 120)),
		xGroup("tearDown", groupOpts{kind: "PostThreadGroup"}, xJava("tidy", 10, "")))
	run := func(t *testing.T, seg segment.Segment, done func(context.Context, map[string]string) (map[string]string, error), mainDone func(context.Context) error) []string {
		p, err := compilePlanXML(t, plan, nil)
		if err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		sink := &memSink{}
		if err := Start(context.Background(), p, sink, RunOptions{Segment: seg, Seed: 42, SetUpDone: done, MainDone: mainDone}).Wait(); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range sink.samples {
			out = append(out, fmt.Sprintf("%s %s@%d", s.ThreadName, s.Label, s.Start.Sub(t0).Milliseconds()))
		}
		return out
	}
	setProp := func(_ context.Context, _ map[string]string) (map[string]string, error) {
		return map[string]string{"from_setup": "work"}, nil
	}
	var whole []string
	synctest.Test(t, func(t *testing.T) {
		whole = run(t, segment.Whole(), setProp, nil)
		slices.Sort(whole)
	})
	if n := len(whole); n < 30 {
		t.Fatalf("the whole run made %d samples: %v", n, whole)
	}
	for _, n := range []int{1, 2, 3, 5} {
		t.Run(fmt.Sprint(n, " segments"), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				seq, _ := segment.Equal(n)
				parts := make([][]string, n)
				// Segment 0 runs setUp and publishes its properties; the
				// others wait for them, as they wait for its file in a
				// shared folder.
				published := make(chan map[string]string, n)
				publish := func(ctx context.Context, _ map[string]string) (map[string]string, error) {
					for range n - 1 {
						published <- map[string]string{"from_setup": "work"}
					}
					return setProp(ctx, nil)
				}
				await := func(ctx context.Context, _ map[string]string) (map[string]string, error) {
					return <-published, nil
				}
				// Segment 0's tearDown waits for the others' main groups.
				var mains sync.WaitGroup
				mains.Add(n - 1)
				var wg sync.WaitGroup
				for i := range n {
					wg.Add(1)
					go func() {
						defer wg.Done()
						done, mainDone := await, func(context.Context) error { mains.Done(); return nil }
						if i == 0 {
							done, mainDone = publish, func(context.Context) error { mains.Wait(); return nil }
						}
						parts[i] = run(t, segment.Segment{Seq: seq, Index: i}, done, mainDone)
					}()
				}
				wg.Wait()
				var union []string
				for i, p := range parts {
					for _, s := range p {
						if i > 0 && (strings.HasPrefix(s, "setUp ") || strings.HasPrefix(s, "tearDown ")) {
							t.Errorf("segment %d ran %s", i, s)
						}
					}
					union = append(union, p...)
				}
				slices.Sort(union)
				if !slices.Equal(union, whole) {
					t.Errorf("the segments together:\n%s\nthe whole run:\n%s", strings.Join(union, "\n"), strings.Join(whole, "\n"))
				}
			})
		})
	}
}

// TestSegmentsStripeDataAndCounters runs a plan whole and as 2 and 3
// segments: a CSV Data Set shared by all threads that stops them at its
// end, and a Counter shared by all users. Together the segments read each
// row once, as the whole run does. No value of the Counter is drawn twice;
// where the segments' threads draw as many values as the whole run's
// (4 threads in 2 segments, not in 3), they are the whole run's values.
func TestSegmentsStripeDataAndCounters(t *testing.T) {
	var rows strings.Builder
	for i := range 40 {
		fmt.Fprintf(&rows, "row%02d\n", i)
	}
	counter := xel(`<CounterConfig guiclass="CounterConfigGui" testclass="CounterConfig" testname="Counter" enabled="true">` +
		sp("CounterConfig.start", "1") + sp("CounterConfig.incr", "1") + sp("CounterConfig.name", "c") +
		`</CounterConfig><hashTree/>`)
	plan := writePlan(t, false, map[string]string{"d.csv": rows.String()},
		tgEl("Readers", 5, -1, csvEl(map[string]string{"filename": "d.csv", "variableNames": "v", "shareMode": "shareMode.all",
			"recycle": "false", "stopThread": "true"}), postEl("/csv", "${v}")),
		tgEl("Counters", 4, 6, counter, postEl("/count", "${c}")))
	received := func(t *testing.T, seg segment.Segment) map[string][]string {
		props, got := bodyRecorder(t)
		src, err := jmx.Load(plan)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Compile(src, Options{Props: props})
		if err != nil {
			t.Fatal(err)
		}
		if err := Start(context.Background(), p, &memSink{}, RunOptions{Segment: seg}).Wait(); err != nil {
			t.Fatal(err)
		}
		// The rows the segment read are those its schedule lists.
		var listed []string
		for _, d := range p.DataReads(seg, 1000) {
			for _, r := range d.Reads {
				listed = append(listed, fmt.Sprintf("row%02d", r.Row-1))
			}
		}
		if read := sorted(got()["/csv"]); !slices.Equal(read, sorted(listed)) {
			t.Errorf("segment %s read rows %q, its schedule lists %q", seg, read, listed)
		}
		return got()
	}
	whole := received(t, segment.Whole())
	if len(whole["/csv"]) != 40 || len(whole["/count"]) != 24 {
		t.Fatalf("the whole run sent %d rows and %d counts, want 40 and 24", len(whole["/csv"]), len(whole["/count"]))
	}
	for _, n := range []int{2, 3} {
		t.Run(fmt.Sprint(n, " segments"), func(t *testing.T) {
			seq, _ := segment.Equal(n)
			union := map[string][]string{}
			for i := range n {
				for path, bodies := range received(t, segment.Segment{Seq: seq, Index: i}) {
					union[path] = append(union[path], bodies...)
				}
			}
			if got, want := sorted(union["/csv"]), sorted(whole["/csv"]); !slices.Equal(got, want) {
				t.Errorf("/csv: the segments sent %q, the whole run %q", got, want)
			}
			counts := sorted(union["/count"])
			if len(slices.Compact(slices.Clone(counts))) != len(counts) {
				t.Errorf("/count: a value was drawn twice: %q", counts)
			}
			if want := sorted(whole["/count"]); 4%n == 0 && !slices.Equal(counts, want) {
				t.Errorf("/count: the segments sent %q, the whole run %q", counts, want)
			}
		})
	}
}
