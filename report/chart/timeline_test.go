package chart

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/gojm/gojm/report"
)

func TestChartsWriteAll(t *testing.T) {
	tests := []struct {
		name string
		run  synthetic
	}{
		{"ten minutes", synthetic{n: 30000, every: 20 * time.Millisecond, labels: []string{"Home", "Login", "Search", "Buy"},
			groups: 2, threads: 40, failEach: 50, subs: 2, txnEach: 7}},
		{"two seconds", synthetic{n: 40, every: 50 * time.Millisecond, labels: []string{"Home", "Login", "Search", "Buy"},
			groups: 2, threads: 4, failEach: 5, txnEach: 3}},
	}
	want := []string{
		"graph-results.png",
		"response-times-over-time.png",
		"latencies-over-time.png",
		"connect-times-over-time.png",
		"throughput-over-time.png",
		"response-codes-per-second.png",
		"active-threads-over-time.png",
		"response-time-percentiles.png",
		"response-time-distribution.png",
		"time-vs-threads.png",
	}
	// The colours each chart must show: its series, legend thumbnails included.
	labels := map[string]color.RGBA{"first label": seriesColor(0), "fourth label": seriesColor(3)}
	colours := map[string]map[string]color.RGBA{
		"graph-results.png":              {"data": colorData, "average": colorAverage, "median": colorMedian, "failures": colorFailure},
		"response-times-over-time.png":   labels,
		"latencies-over-time.png":        labels,
		"connect-times-over-time.png":    labels,
		"throughput-over-time.png":       {"hits": palette[0], "transactions": colorThroughput, "errors": palette[3]},
		"response-codes-per-second.png":  {"200": codeClass[1][0], "500": codeClass[4][0]},
		"active-threads-over-time.png":   {"group A": seriesColor(0), "group B": seriesColor(1), "all groups": colorAllLines},
		"response-time-percentiles.png":  {"first label": seriesColor(0), "all samples": colorAllLines},
		"response-time-distribution.png": {"samples": palette[0], "failed": colorFailure},
		"time-vs-threads.png":            {"first label": seriesColor(0), "all samples": colorAllLines},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := report.NewStats(report.StatsOptions{SubResults: true})
			c := New("plan.jmx", st)
			tc.run.feed(report.Sinks{st, c})
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(t.TempDir(), "charts") // WriteAll creates it
			names, err := c.WriteAll(dir)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(names, want) {
				t.Fatalf("names\n got %q\nwant %q", names, want)
			}
			for _, name := range names {
				t.Run(name, func(t *testing.T) {
					img := decodePNG(t, filepath.Join(dir, name))
					wantColours(t, img, colours[name], nil)
				})
			}
		})
	}
}

func TestTimelineEmpty(t *testing.T) {
	tl := NewTimeline(TimelineConfig{})
	names, err := tl.WriteAll(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != len(timelineCharts) {
		t.Errorf("%d charts written, want %d", len(names), len(timelineCharts))
	}
}

func TestTimelineWriteError(t *testing.T) {
	tl := NewTimeline(TimelineConfig{})
	if _, err := tl.WriteAll(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Fatal("writing into a missing directory: no error")
	}
}

// Buckets grow to the next round width as the run outgrows them; no count
// is lost.
func TestTimelineCompaction(t *testing.T) {
	tests := []struct {
		name      string
		run       time.Duration
		wantWidth time.Duration
	}{
		{"fits", 15 * time.Second, time.Second},
		{"twice", 20 * time.Second, 2 * time.Second},
		{"long", 100 * time.Second, 10 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := report.NewStats(report.StatsOptions{SubResults: true})
			tl := NewTimeline(TimelineConfig{Stats: st, Granularity: time.Second, MaxBuckets: 16})
			n := int(tc.run / (10 * time.Millisecond))
			synthetic{n: n, subs: 1, txnEach: 4}.feed(tl)
			if tl.BucketWidth() != tc.wantWidth {
				t.Errorf("bucket width %v, want %v", tl.BucketWidth(), tc.wantWidth)
			}
			var hits, top, txn int64
			for _, b := range tl.buckets {
				hits, top, txn = hits+b.hits, top+b.top, txn+b.txn
			}
			// Transaction Controller samples are not hits; sub-samples are.
			wantTxn := int64((n + 3) / 4)
			if top != int64(n) || txn != wantTxn || hits != int64(2*n)-wantTxn {
				t.Errorf("top %d, txn %d, hits %d; want %d, %d, %d", top, txn, hits, n, wantTxn, int64(2*n)-wantTxn)
			}
			// Labels hold every row, the statistics' hits every row of the Total.
			var perLabel int64
			for _, l := range tl.labels.all() {
				for _, b := range l.time {
					perLabel += b.n
				}
			}
			if perLabel != int64(2*n) {
				t.Errorf("label buckets hold %d rows, want %d", perLabel, 2*n)
			}
			// Response codes count hits; thread groups, top-level samples.
			var perCode, perGroup int64
			for _, c := range tl.codes.all() {
				for _, k := range c.time {
					perCode += int64(k)
				}
			}
			for _, g := range tl.groups.all() {
				for _, b := range g.time {
					perGroup += b.n
				}
			}
			if perCode != hits || perGroup != int64(n) {
				t.Errorf("code buckets hold %d hits, group buckets %d samples; want %d, %d", perCode, perGroup, hits, n)
			}
			if tl.used > len(tl.buckets) {
				t.Errorf("%d buckets used of %d", tl.used, len(tl.buckets))
			}
		})
	}
}

// A steady rate reads as that rate in every drawn bucket, the first and
// last included, and the rates weighted by the time each covers average to
// the statistics' throughput exactly.
func TestTimelineRates(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		every time.Duration
	}{
		{"half a second", 50, 10 * time.Millisecond},
		{"a minute", 6000, 10 * time.Millisecond},
		{"ninety minutes, regrouped", 540000, 10 * time.Millisecond},
		{"sparse", 120, time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := report.NewStats(report.StatsOptions{})
			tl := NewTimeline(TimelineConfig{Stats: st})
			synthetic{n: tc.n, every: tc.every}.feed(report.Sinks{st, tl})
			v := tl.view()
			if v.n > maxDisplayPoints {
				t.Errorf("%d points drawn, want at most %d", v.n, maxDisplayPoints)
			}
			if v.n > 1 && tc.n < v.n*samplesPerPoint {
				t.Errorf("%d points for %d samples, want %d samples a point or one point", v.n, tc.n, samplesPerPoint)
			}
			tot := st.Total()
			counts := make([]int64, v.n)
			for i, b := range regroup(tl.buckets, v.k, v.n) {
				counts[i] = b.hits
			}
			rate := float64(time.Second) / float64(tc.every)
			var weighted float64
			for i := range v.n {
				lo, hi := v.cover(i, tot.First, tot.Last)
				if hi <= lo {
					t.Fatalf("bucket %d of %d covers nothing of the run", i, v.n)
				}
				r := float64(counts[i]) * 1000 / float64(hi-lo)
				weighted += r * float64(hi-lo)
				// A bucket may hold one sample more or less than the rate
				// says; the last one also holds the time the last samples took.
				tolerance := 1000/float64(hi-lo) + 1e-9
				if i == v.n-1 {
					tolerance = rate
				}
				if math.Abs(r-rate) > tolerance {
					t.Errorf("bucket %d of %d (%d ms): %.2f hits/s, want %v ± %.2f", i, v.n, v.width, r, rate, tolerance)
				}
			}
			if got, want := weighted/float64(tot.Duration()), tot.Throughput(); math.Abs(got-want) > 1e-9*want {
				t.Errorf("the rates average %v/s, the statistics say %v/s", got, want)
			}
		})
	}
}

// Labels beyond the tracked ones count under Other; charts draw the
// busiest MaxLabels and fold the rest into one series.
func TestTimelineLabelLimit(t *testing.T) {
	labels := make([]string, 100)
	for i := range labels {
		labels[i] = fmt.Sprintf("label %03d", i)
	}
	tl := NewTimeline(TimelineConfig{MaxLabels: 5})
	var s report.Sample
	// Label i gets i+1 samples, so the busiest are the last ones.
	for i, l := range labels {
		for range i + 1 {
			s.Start = base
			s.Label = l
			tl.Add(&s)
		}
	}
	if len(tl.labels.list) != maxTrackedLabels || tl.labels.other == nil {
		t.Fatalf("%d labels tracked (other: %v), want %d and an Other", len(tl.labels.list), tl.labels.other != nil, maxTrackedLabels)
	}
	shown, other, _ := tl.shownLabels()
	var names []string
	var total int64
	for _, l := range shown {
		names = append(names, l.name)
		total += l.n
	}
	want := []string{"label 059", "label 060", "label 061", "label 062", "label 063"}
	if !slices.Equal(names, want) {
		t.Errorf("shown %q, want %q", names, want)
	}
	if other == nil || total+other.n != tl.n {
		t.Errorf("shown + other = %d + %v samples, want %d in all", total, other, tl.n)
	}
}

func TestTimelineThreadAxisGrows(t *testing.T) {
	tl := NewTimeline(TimelineConfig{})
	var s report.Sample
	for i := range 1000 {
		s.Start = base.Add(time.Duration(i) * time.Millisecond)
		s.AllThreads = i + 1
		s.Elapsed = time.Duration(i+1) * time.Millisecond
		tl.Add(&s)
	}
	if tl.threadWidth != 4 {
		t.Errorf("thread bucket width %d, want 4 (1000 threads in %d buckets)", tl.threadWidth, threadBuckets)
	}
	var n, sum int64
	for _, b := range tl.threadsAll {
		n, sum = n+b.n, sum+b.sum
	}
	if n != 1000 || sum != 1000*1001/2 {
		t.Errorf("time vs threads holds %d samples summing %d ms, want 1000 and %d", n, sum, 1000*1001/2)
	}
}

func TestGroupName(t *testing.T) {
	tests := []struct{ thread, want string }{
		{"Thread Group 1-1", "Thread Group"},
		{"Users 2-15", "Users"},
		{"setUp Thread Group 1-1", "setUp Thread Group"},
		{"Users", "Users"},
		{"Users 1-", "Users 1-"},
		{"Users -1", "Users -1"},
		{"Users a-1", "Users a-1"},
		{"", ""},
	}
	for _, tc := range tests {
		if got := groupName(tc.thread); got != tc.want {
			t.Errorf("groupName(%q) = %q, want %q", tc.thread, got, tc.want)
		}
	}
}

func TestCodeName(t *testing.T) {
	tests := []struct{ code, want string }{
		{"200", "200"},
		{"", "(no code)"},
		{"Non HTTP response code: java.net.SocketTimeoutException", "Non HTTP: SocketTimeoutException"},
		{"Non HTTP response code: timeout", "Non HTTP: timeout"},
	}
	for _, tc := range tests {
		if got := codeName(tc.code); got != tc.want {
			t.Errorf("codeName(%q) = %q, want %q", tc.code, got, tc.want)
		}
	}
}

func TestTimelineAddAllocs(t *testing.T) {
	tl := NewTimeline(TimelineConfig{})
	var s report.Sample
	s.Label, s.Code, s.ThreadName, s.Success = "Home", "200", "Users 1-1", true
	i := 0
	add := func() {
		i++
		s.Start = base.Add(time.Duration(i) * time.Millisecond)
		s.Elapsed = time.Duration(i%100) * time.Millisecond
		s.AllThreads = i % 300
		tl.Add(&s)
	}
	for range 100_000 {
		add()
	}
	if a := testing.AllocsPerRun(10_000, add); a != 0 {
		t.Errorf("Add: %v allocations per sample, want 0", a)
	}
}

func BenchmarkTimelineAdd(b *testing.B) {
	tl := NewTimeline(TimelineConfig{})
	labels := []string{"Home", "Login", "Search", "Checkout"}
	var s report.Sample
	s.Code, s.ThreadName, s.Success = "200", "Users 1-1", true
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		s.Start = base.Add(time.Duration(i) * time.Millisecond)
		s.Elapsed = time.Duration(i%100) * time.Millisecond
		s.Label = labels[i%len(labels)]
		s.AllThreads = 50
		tl.Add(&s)
	}
}

func BenchmarkChartsAdd(b *testing.B) {
	c := New("", report.NewStats(report.StatsOptions{}))
	labels := []string{"Home", "Login", "Search", "Checkout"}
	var s report.Sample
	s.Code, s.ThreadName, s.Success = "200", "Users 1-1", true
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		s.Start = base.Add(time.Duration(i) * time.Millisecond)
		s.Elapsed = time.Duration(i%100) * time.Millisecond
		s.Label = labels[i%len(labels)]
		s.AllThreads = 50
		c.Add(&s)
	}
}

// However many samples, labels, codes and thread groups, what the Timeline
// holds stays within its limits.
func TestTimelineBoundedMemory(t *testing.T) {
	tl := NewTimeline(TimelineConfig{})
	names := make([]string, 1000)
	for i := range names {
		names[i] = fmt.Sprintf("name %d", i)
	}
	var s report.Sample
	const n = 1_000_000
	for i := range n {
		s.Start = base.Add(time.Duration(i) * 5 * time.Millisecond) // 83 minutes
		s.Elapsed = time.Duration(i%500) * time.Millisecond
		s.Label = names[i%len(names)]
		s.Code = names[i%97]
		s.ThreadName = names[i%101] + " 1-1"
		s.AllThreads = i % 5000
		tl.Add(&s)
	}
	if len(tl.labels.list) != maxTrackedLabels || len(tl.labels.idx) != maxTrackedLabels {
		t.Errorf("%d labels tracked (%d in the index), want %d", len(tl.labels.list), len(tl.labels.idx), maxTrackedLabels)
	}
	if len(tl.codes.list) != maxTrackedCodes || len(tl.codes.idx) != maxTrackedCodes {
		t.Errorf("%d codes tracked (%d in the index), want %d", len(tl.codes.list), len(tl.codes.idx), maxTrackedCodes)
	}
	if len(tl.groups.list) != maxTrackedGroups || len(tl.groups.idx) != maxTrackedGroups {
		t.Errorf("%d groups tracked (%d in the index), want %d", len(tl.groups.list), len(tl.groups.idx), maxTrackedGroups)
	}
	for _, l := range tl.labels.all() {
		if len(l.time) != len(tl.buckets) || len(l.threads) != threadBuckets {
			t.Fatalf("label %q holds %d time and %d thread buckets, want %d and %d", l.name, len(l.time), len(l.threads), len(tl.buckets), threadBuckets)
		}
	}
	if len(tl.buckets) != 600 || tl.used > len(tl.buckets) {
		t.Errorf("%d of %d time buckets used, want at most 600", tl.used, len(tl.buckets))
	}
	var total int64
	for _, l := range tl.labels.all() {
		total += l.n
	}
	if total != n || tl.labels.other.n != n-int64(n/len(names)*maxTrackedLabels) {
		t.Errorf("labels count %d samples (Other %d), want %d", total, tl.labels.other.n, n)
	}
}

// Odd samples (no timestamp, time running backwards, negative or huge
// durations, huge thread counts, empty strings) are drawn without a panic.
func TestChartsOddSamples(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(i int, s *report.Sample)
	}{
		{"zero time", func(i int, s *report.Sample) { s.Start = time.Time{} }},
		{"backwards", func(i int, s *report.Sample) { s.Start = base.Add(-time.Duration(i) * time.Second) }},
		{"negative elapsed", func(i int, s *report.Sample) { s.Elapsed = -time.Second }},
		{"zero elapsed", func(i int, s *report.Sample) { s.Elapsed, s.Latency, s.Connect = 0, 0, 0 }},
		{"two hours elapsed", func(i int, s *report.Sample) { s.Elapsed = 2 * time.Hour }},
		{"one far outlier", func(i int, s *report.Sample) {
			if i == 50 {
				s.Elapsed = 50 * time.Minute
			}
		}},
		{"a year later", func(i int, s *report.Sample) {
			if i == 99 {
				s.Start = s.Start.AddDate(1, 0, 0)
			}
		}},
		{"huge thread counts", func(i int, s *report.Sample) { s.AllThreads, s.GrpThreads = 1<<40, -5 }},
		{"empty strings", func(i int, s *report.Sample) { s.Label, s.Code, s.ThreadName = "", "", "" }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := report.NewStats(report.StatsOptions{})
			c := New("", st)
			i := 0
			synthetic{n: 100, failEach: 7}.each(func(s *report.Sample) {
				tc.mutate(i, s)
				i++
				st.Add(s)
				c.Add(s)
			})
			// Drawing is what could panic; encoding is tested elsewhere.
			c.Graph.figure().render()
			for _, ch := range timelineCharts {
				ch.draw(c.Timeline).render()
			}
		})
	}
}

// The series of the previous sample are remembered: samples that repeat,
// alternate or overflow into Other still count where they belong, a label
// named "Other" included, and strings on loan are not kept.
func TestTimelineRemembersTheLastSeries(t *testing.T) {
	tl := NewTimeline(TimelineConfig{})
	buf := []byte("a")
	add := func(label, code, thread string) {
		copy(buf, label) // the label's bytes are reused, as a decoder's may be
		s := report.Sample{Start: base, Label: unsafe.String(&buf[0], len(label)), Code: code, ThreadName: thread}
		tl.Add(&s)
	}
	for i := 0; i < maxTrackedLabels-2; i++ {
		tl.labels.get(fmt.Sprintf("filler %d", i)) // two places left
	}
	add("a", "200", "G1 1-1")
	add("a", "200", "G1 1-1")
	add("b", "500", "G2 2-1") // b takes the last place
	add("a", "200", "G1 1-2")
	add("c", "200", "G2 2-2") // Other
	add("c", "200", "G2 2-2")
	for want, name := range map[int64]string{3: "a", 1: "b"} {
		if ls := tl.labels.list[tl.labels.idx[name]]; ls.n != want || ls.name != name {
			t.Errorf("label %q: %d samples (named %q), want %d", name, ls.n, ls.name, want)
		}
	}
	if tl.labels.other == nil || tl.labels.other.n != 2 {
		t.Errorf("Other: %v, want 2 samples", tl.labels.other != nil && tl.labels.other.n == 2)
	}
	// a real label named Other is tracked on its own if there is room, or
	// counts with the overflow, never both
	if tl.labels.get("Other") != tl.labels.other {
		t.Error("a label named Other with no room left is not the overflow's")
	}
	if c := tl.codes.list[tl.codes.idx["200"]]; c.n != 5 {
		t.Errorf("code 200: %d", c.n)
	}
	if g1, g2 := tl.groups.list[tl.groups.idx["G1"]], tl.groups.list[tl.groups.idx["G2"]]; g1.n != 3 || g2.n != 3 {
		t.Errorf("groups: %d and %d samples, want 3 each", g1.n, g2.n)
	}
}
