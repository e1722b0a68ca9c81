package chart

import (
	"image/color"
	"path/filepath"
	"testing"
	"time"

	"github.com/gojm/gojm/report"
)

func TestWriteMeanMedianComparison(t *testing.T) {
	runs := []string{"baseline.jtl", "candidate.jtl", "tuned.jtl"}
	rows := func(labels ...string) []Summary {
		var out []Summary
		for i, run := range runs {
			for j, l := range labels {
				out = append(out, Summary{
					Run: run, Label: l,
					Mean:   float64(40 + 10*j + 5*i),
					Median: float64(30 + 8*j + 4*i),
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
		st := report.NewStats(report.StatsOptions{})
		for v := int64(1); v <= 1000; v++ {
			st.Add(&report.Sample{Start: base, Elapsed: time.Duration(v*int64(i+1)) * time.Millisecond, Label: "x"})
		}
		curves = append(curves, CurveOf(run, st.Total()))
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

func TestCurveOf(t *testing.T) {
	st := report.NewStats(report.StatsOptions{})
	for v := int64(1); v <= 10000; v++ {
		st.Add(&report.Sample{Start: base, Elapsed: time.Duration(v) * time.Millisecond, Label: "x"})
	}
	c := CurveOf("run", st.Total())
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
	// The statistics' own figures, not an estimate of them.
	for _, q := range []float64{50, 99, 100} {
		if got, want := at(c, q), st.Total().Percentile(q); got != want {
			t.Errorf("p%v %v ms, want %v", q, got, want)
		}
	}
	if empty := CurveOf("none", report.NewStats(report.StatsOptions{}).Total()); len(empty.Points) != 0 {
		t.Errorf("no samples gave %d points", len(empty.Points))
	}
}
