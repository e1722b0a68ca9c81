package chart

import (
	"image/color"
	"math"
	"path/filepath"
	"testing"
	"time"
)

func TestWriteMeanMedianComparison(t *testing.T) {
	runs := []string{"baseline.jtl", "candidate.jtl", "tuned.jtl"}
	rows := func(labels ...string) []Summary {
		var out []Summary
		for i, run := range runs {
			for j, l := range labels {
				out = append(out, Summary{
					Run: run, Label: l,
					Mean:   time.Duration(40+10*j+5*i) * time.Millisecond,
					Median: time.Duration(30+8*j+4*i) * time.Millisecond,
				})
			}
		}
		return out
	}
	many := make([]string, 12)
	for i := range many {
		many[i] = "Transaction with a rather long label number " + string(rune('A'+i))
	}
	tests := []struct {
		name string
		rows []Summary
	}{
		{"whole runs", rows("")},
		{"per label", rows("Home", "Login", "Search")},
		{"many labels", rows(many...)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "compare-mean-median.png")
			if err := WriteMeanMedianComparison(path, "shop.jmx", tc.rows); err != nil {
				t.Fatal(err)
			}
			img := decodePNG(t, path)
			want := map[string]color.RGBA{}
			for i := range runs {
				want[runs[i]+" mean"] = seriesColor(i)
				want[runs[i]+" median"] = lighter(seriesColor(i), 0.55)
			}
			wantColours(t, img, want, nil)
		})
	}
}

func TestWritePercentileComparison(t *testing.T) {
	var curves []PercentileCurve
	for i, run := range []string{"before", "after"} {
		h := newHistogram(3)
		for v := int64(1); v <= 1000; v++ {
			_ = h.RecordValue(v * int64(i+1)) // ms
		}
		curves = append(curves, CurveFromHistogram(run, h, time.Millisecond))
	}
	path := filepath.Join(t.TempDir(), "compare-percentiles.png")
	if err := WritePercentileComparison(path, "", curves); err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, path)
	wantColours(t, img, map[string]color.RGBA{"before": seriesColor(0), "after": seriesColor(1)}, map[string]color.RGBA{"third run": seriesColor(2)})
}

func TestComparisonNeedsData(t *testing.T) {
	dir := t.TempDir()
	if err := WriteMeanMedianComparison(filepath.Join(dir, "a.png"), "", nil); err == nil {
		t.Error("mean/median comparison of nothing: no error")
	}
	if err := WritePercentileComparison(filepath.Join(dir, "b.png"), "", nil); err == nil {
		t.Error("percentile comparison of nothing: no error")
	}
}

func TestCurveFromHistogram(t *testing.T) {
	h := newHistogram(3)
	for v := int64(1); v <= 10000; v++ {
		_ = h.RecordValue(v) // µs
	}
	c := CurveFromHistogram("run", h, time.Microsecond)
	if c.Run != "run" || len(c.Points) == 0 {
		t.Fatalf("curve %q with %d points", c.Run, len(c.Points))
	}
	first, last := c.Points[0], c.Points[len(c.Points)-1]
	if first.Percentile != 0 || last.Percentile != 100 {
		t.Errorf("curve spans %v–%v %%, want 0–100", first.Percentile, last.Percentile)
	}
	for i := 1; i < len(c.Points); i++ {
		if c.Points[i].Percentile <= c.Points[i-1].Percentile || c.Points[i].Value < c.Points[i-1].Value {
			t.Fatalf("point %d (%v) does not follow %v", i, c.Points[i], c.Points[i-1])
		}
	}
	if got := at(c, 50); math.Abs(got-5) > 0.01 {
		t.Errorf("median %v ms, want 5", got)
	}
	if got := at(c, 100); math.Abs(got-10) > 0.01 {
		t.Errorf("maximum %v ms, want 10", got)
	}
	if empty := CurveFromHistogram("none", newHistogram(2), time.Microsecond); len(empty.Points) != 0 {
		t.Errorf("empty histogram gave %d points", len(empty.Points))
	}
}
