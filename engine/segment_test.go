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
