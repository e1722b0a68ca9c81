package report

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"
)

type statsWant struct {
	label                   string
	count, errors           int64
	mean                    float64
	min, max                int64
	median, p90             float64
	throughput, kbps, apdex float64
	transaction             bool
}

func near(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b))
}

// checkStats compares st with wants: "Total" first, then every label in
// first-seen order.
func checkStats(t *testing.T, st *Stats, wants []statsWant) {
	t.Helper()
	var order []string
	for _, w := range wants {
		l := st.Total()
		if w.label != "Total" {
			l = st.Label(w.label)
			order = append(order, w.label)
		}
		if l == nil {
			t.Errorf("no statistics for %q", w.label)
			continue
		}
		got := statsWant{
			label: l.Label, count: l.Count, errors: l.Errors, mean: l.Mean(), min: l.Min(), max: l.Max(),
			median: l.Median(), p90: l.Percentile(90), throughput: l.Throughput(),
			kbps: l.ReceivedKBPerSec(), apdex: l.Apdex(), transaction: l.Transaction,
		}
		if got.count != w.count || got.errors != w.errors || got.min != w.min || got.max != w.max ||
			got.transaction != w.transaction || !near(got.mean, w.mean) || !near(got.median, w.median) ||
			!near(got.p90, w.p90) || !near(got.throughput, w.throughput) || !near(got.kbps, w.kbps) ||
			!near(got.apdex, w.apdex) {
			t.Errorf("%s:\n got %+v\nwant %+v", w.label, got, w)
		}
	}
	var labels []string
	for _, l := range st.Labels() {
		labels = append(labels, l.Label)
	}
	if !slices.Equal(labels, order) {
		t.Errorf("labels in order %q, want %q", labels, order)
	}
}

// legacyPercentile is Commons Math's LEGACY estimate on sorted values.
func legacyPercentile(sorted []int64, p float64) float64 {
	n := len(sorted)
	pos := p / 100 * float64(n+1)
	if p == 0 {
		return float64(sorted[0])
	}
	if p == 100 {
		pos = float64(n)
	}
	if pos < 1 {
		return float64(sorted[0])
	}
	if pos >= float64(n) {
		return float64(sorted[n-1])
	}
	f := math.Floor(pos)
	lo, hi := float64(sorted[int(f)-1]), float64(sorted[int(f)])
	return lo + (pos-f)*(hi-lo)
}

func TestHistExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 10, 999, 20000} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			// h counts every value; a and b each half of them, merged into m.
			var h, a, b, m Histogram
			vals := make([]int64, n)
			for i := range vals {
				v := int64(r.ExpFloat64() * 3000)
				if i%97 == 0 {
					v = denseLimit + int64(r.IntN(5000)) // the sparse range
				}
				vals[i] = v
				h.Add(v)
				if i%2 == 0 {
					a.Add(v)
				} else {
					b.Add(v)
				}
			}
			m.Merge(&a)
			m.Merge(&b)
			slices.Sort(vals)
			ps := []float64{0, 1, 10, 50, 66.6, 90, 95, 99, 99.9, 100}
			all := h.Percentiles(ps)
			for i, p := range ps {
				want := legacyPercentile(vals, p)
				if got := h.Percentile(p); got != want {
					t.Errorf("p%v = %v, want %v", p, got, want)
				}
				if all[i] != want {
					t.Errorf("Percentiles: p%v = %v, want %v", p, all[i], want)
				}
				if got := m.Percentile(p); got != want {
					t.Errorf("merged: p%v = %v, want %v", p, got, want)
				}
			}
			for _, v := range []int64{0, vals[0], vals[n/2], vals[n-1], vals[n-1] + 1, denseLimit + 10} {
				want, _ := slices.BinarySearch(vals, v)
				if got := h.CountBelow(v); got != int64(want) {
					t.Errorf("CountBelow(%d) = %d, want %d", v, got, want)
				}
			}
			for _, k := range []int{1, n / 2, n} {
				if k < 1 {
					continue
				}
				if got := h.ValueAt(uint64(k)); got != vals[k-1] {
					t.Errorf("ValueAt(%d) = %d, want %d", k, got, vals[k-1])
				}
			}
			var sum, ss float64
			for _, v := range vals {
				sum += float64(v)
			}
			mean := sum / float64(n)
			for _, v := range vals {
				ss += (float64(v) - mean) * (float64(v) - mean)
			}
			if got, want := h.StdDev(), math.Sqrt(ss/float64(n)); math.Abs(got-want) > 1e-6*want+1e-9 {
				t.Errorf("StdDev = %v, want %v", got, want)
			}
			if h.min != vals[0] || h.max != vals[n-1] || !near(h.Mean(), mean) {
				t.Errorf("min %d max %d mean %v, want %d %d %v", h.min, h.max, h.Mean(), vals[0], vals[n-1], mean)
			}
		})
	}
}

func TestStatsTransactions(t *testing.T) {
	st := NewStats(StatsOptions{ApdexSatisfied: ms(100), ApdexTolerated: ms(400)})
	add := func(label string, elapsed int64, ok bool, msg string) {
		st.Add(&Sample{Start: t0, Elapsed: ms(elapsed), Label: label, Success: ok, Message: msg, Code: "200"})
	}
	add("a", 50, true, "OK")
	add("b", 300, true, "OK")
	add("a", 500, true, "OK")
	add("T", 850, true, "Number of samples in transaction : 3, number of failing samples : 0")
	add("Empty", 0, true, "Number of samples in transaction : 0, number of failing samples : 0")
	add("b", 10, false, "Not Found")
	checkStats(t, st, []statsWant{
		// The Total leaves the transaction out, except for APDEX.
		{label: "Total", count: 4, errors: 1, mean: 215, min: 10, max: 500, median: 175, p90: 500,
			throughput: 8, apdex: (1 + 0.5) / 5},
		{label: "a", count: 2, mean: 275, min: 50, max: 500, median: 275, p90: 500, throughput: 4, apdex: 0.5},
		{label: "b", count: 2, errors: 1, mean: 155, min: 10, max: 300, median: 155, p90: 300,
			throughput: 2000.0 / 300, apdex: 0.25},
		{label: "T", count: 1, mean: 850, min: 850, max: 850, median: 850, p90: 850,
			throughput: 1000.0 / 850, apdex: 0, transaction: true},
	})
}

func TestWriteStatisticsJSON(t *testing.T) {
	st := NewStats(StatsOptions{})
	for _, s := range fixture() {
		st.Add(s)
	}
	var buf bytes.Buffer
	if err := WriteStatisticsJSON(&buf, st); err != nil {
		t.Fatal(err)
	}
	golden(t, "statistics.json", buf.Bytes())
}

func BenchmarkStatsAdd(b *testing.B) {
	labels := []string{"home", "search", "login", "checkout", "logout", "static"}
	samples := make([]Sample, 4096)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range samples {
		samples[i] = Sample{
			Start: t0.Add(ms(int64(i))), Elapsed: ms(int64(r.ExpFloat64() * 200)), Latency: ms(20),
			Connect: ms(int64(r.IntN(3))), Label: labels[(i/3)%len(labels)], Code: "200",
			Success: i%50 != 0, Bytes: 1000, SentBytes: 200, AllThreads: 10,
		}
	}
	st := NewStats(StatsOptions{})
	for i := range samples { // see every label and value range once
		st.Add(&samples[i])
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		st.Add(&samples[i&4095])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "adds/s")
}

// A sample gojm cut short is a failure of its own kind, counted in
// errorCount and again in abortedCount; an interrupted run says by what
// and when in the Total of statistics.json.
func TestStatisticsJSONInterrupted(t *testing.T) {
	st := NewStats(StatsOptions{})
	for _, s := range []*Sample{
		{Start: t0, Elapsed: ms(5), Label: "a", Code: "200", Success: true},
		{Start: t0, Elapsed: ms(7), Label: "a", Code: "Non HTTP response code: java.net.SocketException",
			Message: "Non HTTP response message: Connection reset"},
		{Start: t0, Elapsed: ms(9), Label: "a", Code: "Non HTTP response code: java.net.SocketException",
			Message: AbortedMessage + ": a second SIGINT"},
	} {
		st.Add(s)
	}
	st.SetInterrupted(Interruption{Signal: "SIGINT", After: 13*time.Second + 400*time.Millisecond})
	var buf bytes.Buffer
	if err := WriteStatisticsJSON(&buf, st); err != nil {
		t.Fatal(err)
	}
	var got map[string]struct {
		ErrorCount         int64   `json:"errorCount"`
		AbortedCount       *int64  `json:"abortedCount"`
		InterruptedBy      *string `json:"interruptedBy"`
		InterruptedAfterMs *int64  `json:"interruptedAfterMs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	for _, label := range []string{"Total", "a"} {
		g := got[label]
		if g.ErrorCount != 2 || g.AbortedCount == nil || *g.AbortedCount != 1 {
			t.Errorf("%s: errorCount %d, abortedCount %v; want 2 and 1", label, g.ErrorCount, g.AbortedCount)
		}
	}
	if g := got["Total"]; g.InterruptedBy == nil || *g.InterruptedBy != "SIGINT" || g.InterruptedAfterMs == nil || *g.InterruptedAfterMs != 13400 {
		t.Errorf("Total: interruptedBy %v, interruptedAfterMs %v; want SIGINT and 13400", g.InterruptedBy, g.InterruptedAfterMs)
	}
	if g := got["a"]; g.InterruptedBy != nil {
		t.Errorf("label a says it was interrupted: only the Total does")
	}
	for _, tt := range []struct {
		after time.Duration
		want  string
	}{
		{13*time.Second + 400*time.Millisecond, "interrupted after 0:13 by SIGINT"},
		{61 * time.Minute, "interrupted after 1:01:00 by SIGINT"},
	} {
		if s := (Interruption{Signal: "SIGINT", After: tt.after}).String(); s != tt.want {
			t.Errorf("%v: %q, want %q", tt.after, s, tt.want)
		}
	}
}

// A histogram reset counts afresh, as an empty one would, and counts again
// without allocating over the range it has seen.
func TestHistReset(t *testing.T) {
	var h Histogram
	for _, v := range []int64{5, 3000, denseLimit + 7} {
		h.Add(v)
	}
	h.Reset()
	if h.Count() != 0 || h.Sum() != 0 || h.Max() != 0 || !math.IsNaN(h.Percentile(50)) || h.CountBelow(denseLimit+8) != 0 {
		t.Fatalf("after Reset: %d values, sum %d, max %d, median %v", h.Count(), h.Sum(), h.Max(), h.Percentile(50))
	}
	for _, v := range []int64{40, 20, 30} {
		h.Add(v)
	}
	if h.Min() != 20 || h.Max() != 40 || h.Percentile(50) != 30 || h.Mean() != 30 {
		t.Errorf("counted again: min %d, max %d, median %v, mean %v", h.Min(), h.Max(), h.Percentile(50), h.Mean())
	}
	if n := testing.AllocsPerRun(100, func() { h.Reset(); h.Add(2999) }); n != 0 {
		t.Errorf("Reset and Add over a seen range allocate %v times", n)
	}
}
