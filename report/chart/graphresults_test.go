package chart

import (
	"image/color"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/gojm/gojm/report"
)

func TestGraphResultsPNG(t *testing.T) {
	lines := map[string]color.RGBA{
		"average":    colorAverage,
		"median":     colorMedian,
		"deviation":  colorDeviation,
		"throughput": colorThroughput,
	}
	tests := []struct {
		name       string
		run        synthetic
		failures   bool
		downsample bool
	}{
		{"few samples", synthetic{n: 500}, false, false},
		{"with failures", synthetic{n: 2000, failEach: 25}, true, false},
		{"downsampled", synthetic{n: 60000, failEach: 97}, true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := NewGraphResults("plan.jmx", report.StatsOptions{})
			tc.run.feed(g)
			if err := g.Close(); err != nil {
				t.Fatal(err)
			}
			if got := g.Retained() < tc.run.n; got != tc.downsample {
				t.Errorf("downsampled = %v (%d points of %d), want %v", got, g.Retained(), tc.run.n, tc.downsample)
			}
			path := filepath.Join(t.TempDir(), "graph-results.png")
			if err := g.WritePNG(path); err != nil {
				t.Fatal(err)
			}
			img := decodePNG(t, path)
			present := map[string]color.RGBA{"data": colorData}
			for k, v := range lines {
				present[k] = v
			}
			absent := map[string]color.RGBA{}
			if tc.failures {
				present["failures"] = colorFailure
			} else {
				absent["failures"] = colorFailure
			}
			wantColours(t, img, present, absent)
		})
	}
}

func TestGraphResultsEmpty(t *testing.T) {
	g := NewGraphResults("", report.StatsOptions{})
	path := filepath.Join(t.TempDir(), "empty.png")
	if err := g.WritePNG(path); err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, path)
	// The legend still explains the series.
	wantColours(t, img, map[string]color.RGBA{"average": colorAverage, "median": colorMedian}, nil)
}

func TestGraphResultsWriteError(t *testing.T) {
	g := NewGraphResults("", report.StatsOptions{})
	if err := g.WritePNG(filepath.Join(t.TempDir(), "missing", "x.png")); err == nil {
		t.Fatal("writing into a missing directory: no error")
	}
}

// The legend's final values are computed over every sample, as the
// statistics compute them.
func TestGraphResultsStatistics(t *testing.T) {
	g := NewGraphResults("", report.StatsOptions{})
	var s report.Sample
	const n = 100000
	for i := range n {
		// 1, 2, …, 1000 ms, a hundred times over; one sample per 10 ms.
		s.Start = base.Add(time.Duration(i) * 10 * time.Millisecond)
		s.Elapsed = time.Duration(1+i%1000)*time.Millisecond + 300*time.Microsecond // whole ms count
		s.Success = true
		g.Add(&s)
	}
	c := g.final()
	if c.mean != 500.5 {
		t.Errorf("mean %v ms, want 500.5", c.mean)
	}
	if c.median != 500.5 { // between the 50,000th and 50,001st value
		t.Errorf("median %v ms, want 500.5", c.median)
	}
	// Population standard deviation of 1..1000.
	if want := math.Sqrt((1000*1000 - 1) / 12.0); math.Abs(c.deviation-want) > 1e-6 {
		t.Errorf("deviation %v ms, want %v", c.deviation, want)
	}
	// n samples from the first start to the last end: (n-1)·10 ms + 1000 ms.
	span := time.Duration(n-1)*10*time.Millisecond + 1000*time.Millisecond
	if want := n / span.Minutes(); math.Abs(c.throughput-want) > 1e-9*want {
		t.Errorf("throughput %v/min, want %v", c.throughput, want)
	}
	cps := g.series()
	if last := cps[len(cps)-1]; last.seq != n {
		t.Errorf("last checkpoint at sample %d, want %d", last.seq, n)
	}
	for i := 1; i < len(cps); i++ {
		if cps[i].seq <= cps[i-1].seq {
			t.Fatalf("checkpoints out of order at %d: %d then %d", i, cps[i-1].seq, cps[i].seq)
		}
	}
}

// However long the run, the retained points and checkpoints stay capped.
func TestGraphResultsBoundedMemory(t *testing.T) {
	g := NewGraphResults("", report.StatsOptions{})
	var s report.Sample
	const n = 1_000_000
	for i := range n {
		s.Start = base.Add(time.Duration(i) * time.Millisecond)
		s.Elapsed = time.Duration(5+i%50) * time.Millisecond
		if i == 777_777 {
			s.Elapsed = 9 * time.Second // the slowest sample
		}
		s.Success = i%1000 != 0
		g.Add(&s)
		if i%100_000 == 0 && g.Retained() > MaxPoints {
			t.Fatalf("after %d samples: %d points retained, cap %d", i+1, g.Retained(), MaxPoints)
		}
	}
	if got := g.Retained(); got > MaxPoints || got < MaxPoints/2 {
		t.Errorf("%d points retained, want between %d and %d", got, MaxPoints/2, MaxPoints)
	}
	if g.ncp > maxCheckpoints || g.ncp < maxCheckpoints/2 {
		t.Errorf("%d checkpoints, want between %d and %d", g.ncp, maxCheckpoints/2, maxCheckpoints)
	}
	var slowest, failed, first, last int
	g.points.each(func(p point) {
		if p.ms == 9000 {
			slowest++
		}
		if p.fail {
			failed++
		}
		if p.seq <= n/100 {
			first++
		}
		if p.seq > n-n/100 {
			last++
		}
	})
	if slowest != 1 {
		t.Errorf("slowest sample retained %d times, want once", slowest)
	}
	if failed < pointBuckets/2 {
		t.Errorf("%d failed samples shown, want one at least in most buckets (%d)", failed, pointBuckets)
	}
	if first == 0 || last == 0 {
		t.Errorf("points in the first and last 1%% of the run: %d and %d, want some in each", first, last)
	}
}

// While the run is small every sample is drawn, each once.
func TestPointStoreKeepsEverySampleWhileSmall(t *testing.T) {
	// Bucket widths go 1, 2, 4, 8 by then: every bucket fits its reservoir.
	const n = pointBuckets * reservoirSize
	var s pointStore
	s.init()
	for i := int64(1); i <= n; i++ {
		s.add(i, float64(i%97), i%13 != 0)
	}
	seen := make(map[int64]int)
	s.each(func(p point) {
		seen[p.seq]++
		if want := float32((p.seq % 97)); p.ms != want {
			t.Errorf("sample %d: %v ms, want %v", p.seq, p.ms, want)
		}
		if want := p.seq%13 == 0; p.fail != want {
			t.Errorf("sample %d: fail = %v, want %v", p.seq, p.fail, want)
		}
	})
	if len(seen) != n {
		t.Errorf("%d distinct samples drawn, want %d", len(seen), n)
	}
	for seq, k := range seen {
		if k != 1 {
			t.Errorf("sample %d drawn %d times", seq, k)
		}
	}
}

// Merging buckets keeps the extremes and the counts.
func TestPointBucketMerge(t *testing.T) {
	r := rng(1)
	var a, b pointBucket
	for i := int64(1); i <= 100; i++ {
		a.add(point{seq: i, ms: float32(i)}, &r)
		b.add(point{seq: 100 + i, ms: float32(200 - i), fail: i == 50}, &r)
	}
	a.merge(&b, &r)
	if a.n != 200 || a.nf != 1 {
		t.Errorf("merged counts n=%d nf=%d, want 200 and 1", a.n, a.nf)
	}
	if a.lo.ms != 1 || a.hi.ms != 199 {
		t.Errorf("merged extremes %v and %v, want 1 and 199", a.lo.ms, a.hi.ms)
	}
	if a.witness.seq != 150 {
		t.Errorf("failure witness is sample %d, want 150", a.witness.seq)
	}
	seen := map[int64]bool{}
	for _, p := range a.res[:a.kept()] {
		if seen[p.seq] {
			t.Errorf("sample %d kept twice", p.seq)
		}
		seen[p.seq] = true
	}
}

func TestGraphResultsAddAllocs(t *testing.T) {
	g := NewGraphResults("", report.StatsOptions{})
	var s report.Sample
	s.Success = true
	i := 0
	add := func() {
		i++
		s.Start = base.Add(time.Duration(i) * time.Millisecond)
		s.Elapsed = time.Duration(i%100) * time.Millisecond
		g.Add(&s)
	}
	for range 100_000 {
		add()
	}
	if a := testing.AllocsPerRun(10_000, add); a != 0 {
		t.Errorf("Add: %v allocations per sample, want 0", a)
	}
}

func BenchmarkGraphResultsAdd(b *testing.B) {
	g := NewGraphResults("", report.StatsOptions{})
	var s report.Sample
	s.Success = true
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		s.Start = base.Add(time.Duration(i) * time.Millisecond)
		s.Elapsed = time.Duration(i%100) * time.Millisecond
		g.Add(&s)
	}
}
