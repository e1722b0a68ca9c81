package progress

import (
	"bytes"
	"io"
	"math"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/gojm/gojm/report"
)

var t0 = time.UnixMilli(1700000000000)

func ms(n int64) time.Duration { return time.Duration(n) * time.Millisecond }

func TestMeter(t *testing.T) {
	m := NewMeter(t0, report.StatsOptions{})
	if iv, _ := m.Last(); !math.IsNaN(iv.P95) || iv.Rate() != 0 {
		t.Fatalf("before any tick: %+v", iv)
	}
	// 100 samples of 1..100 ms, 5 failed, one transaction (left out).
	for i := range 100 {
		m.Add(&report.Sample{Start: t0, Elapsed: ms(int64(i + 1)), Success: i >= 5})
	}
	m.Add(&report.Sample{Start: t0, Elapsed: ms(9999), Transaction: true})
	m.Tick(t0.Add(2 * time.Second))
	iv, tot := m.Last()
	if iv.Samples != 100 || iv.Errors != 5 || iv.Rate() != 50 || iv.ErrorPct() != 5 || math.Abs(iv.P95-95.95) > 1e-9 { // 0.95·101st of 1..100 ms
		t.Errorf("first interval %+v (rate %v, err %v%%)", iv, iv.Rate(), iv.ErrorPct())
	}
	if tot != (Totals{Samples: 100, Errors: 5}) {
		t.Errorf("totals %+v", tot)
	}
	// The next interval starts empty: the histogram was reset.
	m.Add(&report.Sample{Start: t0, Elapsed: 3 * time.Hour, Success: true})
	m.Tick(t0.Add(3 * time.Second))
	iv, tot = m.Last()
	if iv.Samples != 1 || iv.Errors != 0 || iv.Rate() != 1 || iv.P95 != float64(3*time.Hour/time.Millisecond) {
		t.Errorf("second interval %+v", iv)
	}
	if tot.Samples != 101 {
		t.Errorf("totals %+v", tot)
	}
	m.Tick(t0.Add(4 * time.Second))
	if iv, _ = m.Last(); iv.Samples != 0 || !math.IsNaN(iv.P95) {
		t.Errorf("empty interval %+v", iv)
	}
	// A tick moments after the last one (the run's end) keeps the interval
	// shown, but the totals move on.
	m.Add(&report.Sample{Start: t0, Elapsed: ms(1), Success: false})
	m.Tick(t0.Add(4*time.Second + 10*time.Millisecond))
	iv, tot = m.Last()
	if iv.End != t0.Add(4*time.Second) || tot != (Totals{Samples: 102, Errors: 6}) {
		t.Errorf("after a short tick: interval %+v, totals %+v", iv, tot)
	}
	m.Tick(t0.Add(5 * time.Second))
	if iv, _ = m.Last(); iv.Samples != 1 || iv.Errors != 1 {
		t.Errorf("the short interval's sample was lost: %+v", iv)
	}
}

// The meter counts the rows the statistics' Total counts, and its 95th
// percentile is theirs: sub-results as samples with SubResults, no
// Transaction Controller sample, no empty transaction.
func TestMeterCountsAsStats(t *testing.T) {
	for _, sub := range []bool{false, true} {
		opt := report.StatsOptions{SubResults: sub}
		m, st := NewMeter(t0, opt), report.NewStats(opt)
		sinks := report.Sinks{m, st}
		for i := range 50 {
			child := &report.Sample{Start: t0, Elapsed: ms(int64(i % 7)), Label: "page-0", Success: i%9 != 0}
			sinks.Add(&report.Sample{Start: t0, Elapsed: ms(int64(10 + i)), Label: "page", Success: true, Sub: []*report.Sample{child}})
		}
		sinks.Add(&report.Sample{Start: t0, Elapsed: ms(90), Label: "tx", Success: false, Transaction: true,
			Message: "Number of samples in transaction : 1, number of failing samples : 1"})
		sinks.Add(&report.Sample{Start: t0, Label: "empty", Success: true, Message: "Number of samples in transaction : 0, number of failing samples : 0"})
		m.Tick(t0.Add(time.Second))
		iv, tot := m.Last()
		total := st.Total()
		if iv.Samples != total.Count || iv.Errors != total.Errors || tot != (Totals{total.Count, total.Errors}) || iv.P95 != total.Percentile(95) {
			t.Errorf("sub-results %v: interval %+v, totals %+v; statistics %d samples, %d errors, p95 %v",
				sub, iv, tot, total.Count, total.Errors, total.Percentile(95))
		}
	}
}

func TestMeterAddAllocs(t *testing.T) {
	m := NewMeter(t0, report.StatsOptions{})
	s := &report.Sample{Start: t0, Elapsed: ms(42), Success: true}
	if n := testing.AllocsPerRun(1000, func() { m.Add(s) }); n != 0 {
		t.Errorf("Add allocates %v times per sample", n)
	}
}

func BenchmarkMeterAdd(b *testing.B) {
	m := NewMeter(t0, report.StatsOptions{})
	s := &report.Sample{Start: t0, Elapsed: ms(42), Success: true}
	b.ReportAllocs()
	for b.Loop() {
		m.Add(s)
	}
}

// Every line fits the terminal, 80 columns or fewer (one column to spare,
// so that no terminal wraps it), with the bar taking what the text leaves.
func TestPlannedAndLines(t *testing.T) {
	now := t0.Add(75 * time.Second)
	tests := []struct {
		name string
		g    Group
		cols int
		line string
	}{
		{"duration", Group{Name: "Users", Begun: true, Since: t0, Threads: 10, Loops: -1, Duration: 2 * time.Minute, Active: 10, Started: 10}, 80,
			"  Users  ▕██████████████████░░░░░░░░░░░░▏  62% 1:15/2:00 │ 10/10 VUs"},
		{"iterations", Group{Name: "Admins", Begun: true, Since: t0, Threads: 5, Loops: 20, Iterations: 23, Active: 2, Started: 5, Finished: 3}, 80,
			"  Admins ▕██████░░░░░░░░░░░░░░░░░░░░░░░░▏  23% 23/100 it │ 2/5 VUs"},
		{"forever", Group{Name: "Soak", Phase: "main", Begun: true, Since: t0, Threads: 1, Loops: -1, Iterations: 7, Active: 1, Started: 1}, 80,
			"  Soak   1:15, 7 it │ 1/1 VUs"},
		{"setUp done", Group{Name: "Login", Phase: "setUp", Begun: true, Ended: true, Since: t0, Threads: 1, Loops: 1, Iterations: 1, Started: 1, Finished: 1}, 80,
			"  Login  ▕██████████████████████████████▏ 100% 1/1 it │ 0/1 VUs (setUp) done"},
		{"long", Group{Name: "Long", Begun: true, Since: t0.Add(-2 * time.Hour), Threads: 1, Loops: -1, Duration: 3 * time.Hour}, 80,
			"  Long   ▕████████████████████░░░░░░░░░░▏  67% 2:01:15/3:00:00 │ 0/1 VUs"},
		{"narrow", Group{Name: "Users", Begun: true, Since: t0, Threads: 10, Loops: -1, Duration: 2 * time.Minute, Active: 10, Started: 10}, 40,
			"  Users   62% 1:15/2:00 │ 10/10 VUs"},
		{"long name", Group{Name: "A thread group with a long name", Begun: true, Since: t0, Threads: 1000, Loops: 100000, Iterations: 12345, Active: 1000, Started: 1000}, 80,
			"  A thread group … ▕░░░░░░░░░░░░░░░░░░▏   0% 12345/100000000 it │ 1000/1000 VUs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			width := min(len([]rune(tt.g.Name)), maxNameWidth)
			if tt.name != "long name" {
				width = 6
			}
			got := GroupLine(tt.g, now, width, tt.cols)
			if got != tt.line {
				t.Errorf("got  %q\nwant %q", got, tt.line)
			}
			if n := len([]rune(got)); n >= tt.cols {
				t.Errorf("%d columns on a terminal of %d", n, tt.cols)
			}
		})
	}
	iv := Interval{Start: t0, End: t0.Add(time.Second), Samples: 412, Errors: 2, P95: 83}
	for _, tc := range []struct {
		cols       int
		head, tots string
	}{
		{80, "gojm Book shop 1:15 │ ETA 0:45 │ 12 VUs", "  4912 samples, 23 errors │ last 1.0s: 412.0/s, err 0.49%, p95 83 ms"},
		{40, "gojm Book shop 1:15 │ ETA 0:45 │ 12 VUs", "  4912 samples, 23 errors │ last 1.0s:…"},
		{30, "gojm 1:15 │ ETA 0:45 │ 12 VUs", "  4912 samples, 23 errors │ …"},
	} {
		if got := HeaderLine("Book shop", 75*time.Second, 45*time.Second, true, 12, tc.cols); got != tc.head {
			t.Errorf("header at %d columns\ngot  %q\nwant %q", tc.cols, got, tc.head)
		}
		if got := TotalsLine(iv, Totals{Samples: 4912, Errors: 23}, tc.cols); got != tc.tots {
			t.Errorf("totals at %d columns\ngot  %q\nwant %q", tc.cols, got, tc.tots)
		}
	}
	if got := HeaderLine("", 0, 0, false, 0, 80); got != "gojm 0:00 │ 0 VUs" {
		t.Errorf("header without an ETA %q", got)
	}
	iv.Samples, iv.P95 = 0, math.NaN()
	if got := TotalsLine(iv, Totals{}, 80); !strings.Contains(got, "p95 -") {
		t.Errorf("empty interval %q", got)
	}
}

// The ETA is known when every group that has not ended has begun and has
// a length: the latest end of them, from the schedule or from the pace of
// its iterations so far.
func TestETA(t *testing.T) {
	now := t0.Add(60 * time.Second)
	timed := Group{Begun: true, Since: t0, Threads: 2, Loops: -1, Duration: 90 * time.Second}
	counted := Group{Begun: true, Since: t0, Threads: 2, Loops: 50, Iterations: 25} // half in a minute
	for _, tc := range []struct {
		name  string
		gs    []Group
		eta   time.Duration
		known bool
	}{
		{"no groups", nil, 0, true},
		{"scheduled", []Group{timed}, 30 * time.Second, true},
		{"by pace", []Group{counted}, 3 * time.Minute, true},
		{"the later of two", []Group{timed, counted}, 3 * time.Minute, true},
		{"forever", []Group{{Begun: true, Since: t0, Threads: 1, Loops: -1}}, 0, false},
		{"not begun", []Group{timed, {Name: "later"}}, 0, false},
		{"no pace yet", []Group{{Begun: true, Since: t0, Threads: 1, Loops: 10}}, 0, false},
		{"ended ones count nothing", []Group{{Ended: true, Loops: -1}, timed}, 30 * time.Second, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if eta, known := ETA(tc.gs, now); eta != tc.eta || known != tc.known {
				t.Errorf("ETA %v, %v; want %v, %v", eta, known, tc.eta, tc.known)
			}
		})
	}
}

// groupsFeed hands the display the groups a test sets.
type groupsFeed struct {
	mu sync.Mutex
	gs []Group
}

func (f *groupsFeed) set(gs ...Group) {
	f.mu.Lock()
	f.gs = gs
	f.mu.Unlock()
}

func (f *groupsFeed) get() []Group {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Group(nil), f.gs...)
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)

// TestDisplayInPTY draws the block on a pseudo-terminal and reads what a
// terminal would get: the block, redrawn in place (cursor movements), the
// summariser's line above it, and the final state.
func TestDisplayInPTY(t *testing.T) {
	t.Setenv("TERM", "xterm")
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer ptmx.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 24, Cols: 160}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	read := make(chan struct{})
	go func() {
		io.Copy(&out, ptmx) // ends when the tty side is closed
		close(read)
	}()

	feed := &groupsFeed{}
	start := time.Now()
	feed.set(Group{Name: "Users", Phase: "main", Begun: true, Since: start, Threads: 4, Loops: 10, Active: 4, Started: 4, Iterations: 12})
	redraw := make(chan any)
	d := New(tty, Options{Title: "Book shop", Groups: feed.get, Start: start, redraw: redraw})
	for i := range 40 {
		d.Add(&report.Sample{Start: start, Elapsed: ms(int64(i + 1)), Success: i != 0})
	}
	d.Tick(start.Add(time.Second))
	// Three sends: the third is taken only once the first two draws are
	// done, so the block has been drawn and then redrawn in place.
	for range 3 {
		redraw <- nil
	}
	if _, err := d.Writer().Write([]byte("summary +     40 in 00:00:01 =   40.0/s\n")); err != nil {
		t.Fatal(err)
	}
	feed.set(Group{Name: "Users", Phase: "main", Begun: true, Ended: true, Since: start, Threads: 4, Loops: 10, Started: 4, Finished: 4, Iterations: 40})
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	// After Close the writer goes straight to the terminal.
	if _, err := d.Writer().Write([]byte("after the block\n")); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	<-read

	raw := out.String()
	if !ansi.MatchString(raw) {
		t.Errorf("no terminal control sequences: the block was not redrawn in place\n%q", raw)
	}
	text := ansi.ReplaceAllString(raw, "")
	for _, want := range []string{
		"gojm Book shop",
		"40 samples, 1 errors",
		"err 2.50%",
		"p95 39 ms", // 38.95, the statistics' p95 of 1..40 ms, to the millisecond
		"Users",
		"100% 40/40 it │ 0/4 VUs done",
		"summary +     40 in 00:00:01",
		"after the block",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("terminal output lacks %q:\n%s", want, text)
		}
	}
	if i, j := strings.Index(text, "summary +"), strings.LastIndex(text, "after the block"); i > j {
		t.Errorf("summary line after the final text:\n%s", text)
	}
}

// On a pipe nothing is drawn: the summariser's lines are the progress.
func TestDisplayNotATerminal(t *testing.T) {
	var out bytes.Buffer
	d := New(&out, Options{Title: "x", Refresh: time.Millisecond})
	d.Add(&report.Sample{Start: t0, Elapsed: ms(1), Success: true})
	d.Tick(time.Now())
	if _, err := d.Writer().Write([]byte("summary line\n")); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "summary line\n" {
		t.Errorf("a pipe got %q, want only the summariser's line", got)
	}
}
