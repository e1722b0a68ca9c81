package report

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// base is 10 s past a multiple of 30 s since the epoch: the summariser's
// 30 s boundaries fall at base+20s, base+50s, ...
var base = time.Unix(1700000020, 0)

func threadsFixed() (int, int, int) { return 4, 5, 1 }

func TestSummariserGolden(t *testing.T) {
	var out bytes.Buffer
	sm := NewSummariser(&out, 0, threadsFixed)
	sm.Start(base.Add(time.Second))
	// One sample ending every second from base+2s to base+71s; every fifth
	// fails; a transaction sample every tenth second is not counted.
	for i := int64(2); i <= 71; i++ {
		end := base.Add(time.Duration(i) * time.Second)
		elapsed := ms(100 + 7*i)
		sm.Add(&Sample{Start: end.Add(-elapsed), Elapsed: elapsed, Label: "x", Success: i%5 != 0})
		if i%10 == 0 {
			sm.Add(&Sample{Start: end.Add(-ms(5000)), Elapsed: ms(5000), Label: "T", Transaction: true})
		}
	}
	sm.Tick(base.Add(72 * time.Second))
	if err := sm.Close(); err != nil {
		t.Fatal(err)
	}
	golden(t, "summariser.txt", out.Bytes())
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	// Reports at base+20 and base+50 (+ and =), then the final + and =.
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "summary +     19 in 00:00:19 =") ||
		!strings.HasPrefix(lines[4], "summary =     70 in 00:01:09 =    1.0/s") {
		t.Errorf("unexpected lines:\n%s", out.String())
	}
}

func TestSummariserBoundaries(t *testing.T) {
	type event struct {
		tick bool
		at   time.Duration // since base: the tick time or the sample's end
	}
	tests := []struct {
		name     string
		interval time.Duration
		events   []event
		want     int // report lines printed before Close
	}{
		{"no report before the first boundary", 30 * time.Second, []event{{at: 3 * time.Second}, {at: 19 * time.Second}}, 0},
		{"a report within 5 s after the boundary", 30 * time.Second, []event{{at: 3 * time.Second}, {at: 25 * time.Second}}, 1},
		{"none 6 s after the boundary", 30 * time.Second, []event{{at: 26 * time.Second}}, 0},
		{"one report per boundary", 30 * time.Second, []event{{at: 20 * time.Second}, {at: 21 * time.Second}, {at: 25 * time.Second}}, 1},
		{"a tick reports pending samples", 30 * time.Second, []event{{at: 10 * time.Second}, {tick: true, at: 21 * time.Second}}, 1},
		{"a tick alone reports nothing", 30 * time.Second, []event{{tick: true, at: 21 * time.Second}}, 0},
		{"a test starting on a boundary reports its first sample", 30 * time.Second, []event{{at: 20 * time.Second}}, 1},
		{"+ then + and =", 10 * time.Second, []event{{at: 10 * time.Second}, {at: 20 * time.Second}}, 3},
		{"short interval: every 6 s at most", 2 * time.Second, []event{{at: 1 * time.Second}, {at: 3 * time.Second}, {at: 7 * time.Second}}, 1 + 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			sm := NewSummariser(&out, tt.interval, nil)
			sm.Start(base)
			for _, e := range tt.events {
				if e.tick {
					sm.Tick(base.Add(e.at))
					continue
				}
				sm.Add(&Sample{Start: base.Add(e.at - ms(10)), Elapsed: ms(10), Success: true})
			}
			if n := strings.Count(out.String(), "\n"); n != tt.want {
				t.Errorf("%d lines before Close, want %d:\n%s", n, tt.want, out.String())
			}
		})
	}
}

func TestSummariserLines(t *testing.T) {
	tests := []struct {
		name string
		feed func(sm *Summariser)
		want string
	}{
		{
			name: "no samples",
			feed: func(*Summariser) {},
			want: "summary =      0 in 00:00:00 = ******/s Avg:     0 Min: 9223372036854775807 Max: -9223372036854775808 Err:     0 (0.00%)\n",
		},
		{
			name: "one sample, zero time",
			feed: func(sm *Summariser) {
				sm.Add(&Sample{Start: base, Elapsed: 0, Success: true})
			},
			want: "summary =      1 in 00:00:00 = ******/s Avg:     0 Min:     0 Max:     0 Err:     0 (0.00%)\n",
		},
		{
			name: "rounding of rate, average and error share",
			feed: func(sm *Summariser) {
				sm.Start(base)
				for i := range 3 {
					sm.Add(&Sample{Start: base.Add(ms(int64(i))), Elapsed: ms(int64(100 + i)), Success: i != 0})
				}
				sm.Tick(base.Add(ms(1500)))
			},
			// The Total's time: first start 0 to last end 2+102 ms, not the
			// tick; 3 in 0.104 s = 28.8/s; avg 303/3 = 101; 1 of 3 = 33.33%.
			want: "summary =      3 in 00:00:00 =   28.8/s Avg:   101 Min:   100 Max:   102 Err:     1 (33.33%)\n",
		},
		{
			name: "transactions counted on request",
			feed: func(sm *Summariser) {
				sm.IncludeTransactions = true
				sm.Add(&Sample{Start: base, Elapsed: ms(2000), Success: true,
					Message: "Number of samples in transaction : 1, number of failing samples : 0"})
			},
			want: "summary =      1 in 00:00:02 =    0.5/s Avg:  2000 Min:  2000 Max:  2000 Err:     0 (0.00%)\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			sm := NewSummariser(&out, 0, threadsFixed)
			tt.feed(sm)
			if err := sm.Close(); err != nil {
				t.Fatal(err)
			}
			if out.String() != tt.want {
				t.Errorf("got\n%q\nwant\n%q", out.String(), tt.want)
			}
		})
	}
}

// TestSummariserReplay replays the hand-made 2.x file: the transaction is
// left out, the rest gives the line worked out by hand.
func TestSummariserReplay(t *testing.T) {
	props, err := LoadSaveServiceProperties(filepath.Join("testdata", "jtl", "jmeter2.properties"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join("testdata", "jtl", "v2_headerless.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	sm := NewSummariser(&out, 0, nil)
	if err := ReadJTL(f, "v2_headerless.csv", sm, ReadOptions{Properties: props}); err != nil {
		t.Fatal(err)
	}
	if err := sm.Close(); err != nil {
		t.Fatal(err)
	}
	want := "summary =      5 in 00:00:02 =    2.5/s Avg:   640 Min:   100 Max:  1600 Err:     1 (20.00%)\n"
	if out.String() != want {
		t.Errorf("got\n%q\nwant\n%q", out.String(), want)
	}
}

func TestSummariserWriteError(t *testing.T) {
	boom := errors.New("closed pipe")
	sm := NewSummariser(&chunks{fail: boom}, 0, nil)
	sm.Add(&Sample{Start: base, Elapsed: ms(1), Success: true})
	if err := sm.Close(); !errors.Is(err, boom) {
		t.Fatalf("Close() = %v, want %v", err, boom)
	}
}

func BenchmarkSummariserAdd(b *testing.B) {
	var out bytes.Buffer
	sm := NewSummariser(&out, 0, threadsFixed)
	s := Sample{Start: base, Elapsed: ms(12), Success: true}
	b.ReportAllocs()
	for i := range b.N {
		s.Start = base.Add(time.Duration(i) * time.Microsecond)
		sm.Add(&s)
	}
}
