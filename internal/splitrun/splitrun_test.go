package splitrun

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gojm/gojm/internal/segment"
)

// join starts n segments' Join at once in dir, with the info each gets.
func join(t *testing.T, dir string, n int, info func(i int) Info) ([]*Session, []error) {
	t.Helper()
	seq, err := segment.Equal(n)
	if err != nil {
		t.Fatal(err)
	}
	ss, errs := make([]*Session, n), make([]error, n)
	var wg sync.WaitGroup
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ss[i], errs[i] = Join(ctx, dir, segment.Segment{Seq: seq, Index: i}, info(i))
		}()
	}
	wg.Wait()
	return ss, errs
}

func same(i int) Info { return Info{Run: "plan-1", Version: "v1", Host: "host" + string(rune('a'+i))} }

func TestJoinAgreesOnOneStart(t *testing.T) {
	ss, errs := join(t, t.TempDir(), 4, same)
	for i, err := range errs {
		if err != nil {
			t.Fatalf("segment %d: %v", i, err)
		}
	}
	for i, s := range ss {
		if !s.Start().Equal(ss[0].Start()) {
			t.Errorf("segment %d starts at %v, segment 0 at %v", i, s.Start(), ss[0].Start())
		}
		if len(s.Segments()) != 4 || s.Segments()[3].Host != "hostd" {
			t.Errorf("segment %d sees %+v", i, s.Segments())
		}
	}
	if lead := time.Until(ss[0].Start()); lead <= 0 || lead > Lead {
		t.Errorf("the start is %v away, want within the lead of %v", lead, Lead)
	}
}

func TestJoinRefusesAMismatch(t *testing.T) {
	for _, tt := range []struct {
		name string
		info func(i int) Info
		want string
	}{
		{"another plan", func(i int) Info {
			in := same(i)
			if i == 2 {
				in.Run = "plan-2"
			}
			return in
		}, "another plan or other properties"},
		{"another gojm", func(i int) Info {
			in := same(i)
			if i == 1 {
				in.Version = "v2"
			}
			return in
		}, "every segment must run the same gojm"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := join(t, t.TempDir(), 3, tt.info)
			failed := 0
			for _, err := range errs {
				if err != nil {
					failed++
					if !strings.Contains(err.Error(), tt.want) && !strings.Contains(err.Error(), "stopped before it started") {
						t.Errorf("error %q, want one saying %q", err, tt.want)
					}
				}
			}
			if failed != 3 {
				t.Errorf("%d of 3 segments refused the run, want all: %v", failed, errs)
			}
		})
	}
}

func TestPhasesAndStop(t *testing.T) {
	dir := t.TempDir()
	ss, errs := join(t, dir, 3, same)
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	got := make([]map[string]string, 3)
	var wg sync.WaitGroup
	for i := 1; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			if got[i], err = ss[i].SetUpDone(ctx, nil); err != nil {
				t.Error(err)
			}
		}()
	}
	if p, err := ss[0].SetUpDone(ctx, map[string]string{"token": "abc"}); err != nil || p != nil {
		t.Fatalf("segment 0's SetUpDone: %v, %v", p, err)
	}
	wg.Wait()
	for i := 1; i < 3; i++ {
		if got[i]["token"] != "abc" {
			t.Errorf("segment %d got the properties %v", i, got[i])
		}
	}

	mainDone := make(chan error)
	go func() { mainDone <- ss[0].MainDone(ctx) }()
	for i := 1; i < 3; i++ {
		if err := ss[i].MainDone(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if err := <-mainDone; err != nil {
		t.Fatal(err)
	}

	stopped := make(chan string)
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go ss[2].Watch(wctx, func(reason string) { stopped <- reason })
	ss[1].Stop("Stop Test Now")
	ss[0].Stop("a second reason is not kept")
	if r := <-stopped; !strings.Contains(r, "segment 1") || !strings.Contains(r, "Stop Test Now") {
		t.Errorf("the stop reads %q", r)
	}
}

func TestAwaitDoneNamesADeadSegment(t *testing.T) {
	ss, errs := join(t, t.TempDir(), 3, same)
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	ss[0].SetStale(300 * time.Millisecond)
	if err := ss[1].Done(0); err != nil {
		t.Fatal(err)
	}
	// segment 2 is killed: no heartbeat, no done file
	missing, err := ss[0].AwaitDone(context.Background())
	if err != nil || len(missing) != 1 || missing[0] != 2 {
		t.Errorf("AwaitDone: missing %v, %v; want segment 2", missing, err)
	}
}

func TestWatchStopsOnASilentSegment(t *testing.T) {
	ss, errs := join(t, t.TempDir(), 3, same)
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := ss[1].Done(0); err != nil { // segment 1 has finished: its silence is no loss
		t.Fatal(err)
	}
	ss[0].SetStale(300 * time.Millisecond)
	stopped := make(chan string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go ss[0].Watch(ctx, func(reason string) { stopped <- reason })
	// segment 2 is killed: it never beats
	r := <-stopped
	if !strings.Contains(r, "segment 2") || !strings.Contains(r, "taken for dead") {
		t.Errorf("the stop reads %q, want segment 2 taken for dead", r)
	}
	if told, ok := ss[1].Stopped(); !ok || !strings.Contains(told, "segment 2") {
		t.Errorf("the other segments were told %q (%v), want segment 2's silence", told, ok)
	}
}
