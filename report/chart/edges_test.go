package chart

import (
	"crypto/sha256"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gojm/gojm/report"
	"gonum.org/v1/plot"
)

// edgeRuns are the runs at the edges of what a chart must draw: a single
// sample, a burst of 100 samples in 14 ms, and ten million samples over an
// hour and a half.
var edgeRuns = []struct {
	name string
	n    int
	feed func(n int, add func(*report.Sample))
}{
	{"1 sample", 1, func(n int, add func(*report.Sample)) {
		add(&report.Sample{Start: base, Elapsed: 5 * time.Millisecond, Label: "only", Code: "200", Success: true,
			ThreadName: "Users 1-1", AllThreads: 1, GrpThreads: 1})
	}},
	{"100 samples in 14 ms", 100, func(n int, add func(*report.Sample)) {
		var s report.Sample
		for i := range n {
			// Starts spread over 14 ms, 1 or 2 ms each, one in ten failing.
			s = report.Sample{Start: base.Add(time.Duration(i*14/n) * time.Millisecond), Elapsed: time.Duration(1+i%2) * time.Millisecond,
				Label: []string{"a", "b"}[i%2], Code: "200", Success: i%10 != 0, ThreadName: "Users 1-1", AllThreads: 1 + i%3, GrpThreads: 1 + i%3}
			if !s.Success {
				s.Code = "500"
			}
			add(&s)
		}
	}},
	{"10 million samples", 10_000_000, func(n int, add func(*report.Sample)) {
		var s report.Sample
		labels := []string{"home", "search", "login", "static", "checkout"}
		seed := uint64(1)
		for i := range n {
			seed = seed*6364136223846793005 + 1442695040888963407
			s = report.Sample{Start: base.Add(time.Duration(i) * 540 * time.Microsecond),
				Elapsed: time.Duration(2+seed>>58) * time.Millisecond, Label: labels[i%len(labels)], Code: "200",
				Success: i%997 != 0, ThreadName: "Users 1-1", AllThreads: 50, GrpThreads: 50}
			if !s.Success {
				s.Code = "503"
			}
			if i%1_000_003 == 0 {
				s.Elapsed = 4 * time.Second // far outliers
			}
			add(&s)
		}
	}},
}

// clockLabel is a tick label of a wall-clock axis.
var clockLabel = regexp.MustCompile(`^\d\d:\d\d(:\d\d(\.\d{3})?)?$`)

// At the edges no chart contradicts its legend: every figure a legend or
// a note gives is the statistics' own, a rate drawn over time averages to
// the throughput the legend gives, axes of counts tick in whole numbers,
// the highest point has room above it, no point sits on the frame, time
// axes are wall-clock time, and no two PNG files are the same.
func TestChartsAtTheEdges(t *testing.T) {
	for _, run := range edgeRuns {
		t.Run(run.name, func(t *testing.T) {
			if run.n > 1_000_000 && raceEnabled {
				t.Skip("ten million samples take a minute under the race detector; scripts/test.sh runs this package without it too")
			}
			st := report.NewStats(report.StatsOptions{})
			c := New("edge", st)
			c.Timeline.cfg.Location = time.UTC
			run.feed(run.n, func(s *report.Sample) {
				st.Add(s)
				c.Add(s)
			})
			tot := st.Total()
			if tot.Count != int64(run.n) || c.Graph.Count() != tot.Count || c.Timeline.Count() != tot.Count {
				t.Fatalf("statistics %d, Graph Results %d, Timeline %d samples; want %d", tot.Count, c.Graph.Count(), c.Timeline.Count(), run.n)
			}

			// Graph Results: the headline and the legend are the Total's.
			g := c.Graph.figure()
			wantSub := "edge — " + samplesText(tot.Count)
			if tot.Errors > 0 {
				wantSub += fmt.Sprintf(", %s failed (%.2f%%)", formatNumber(float64(tot.Errors), 0), tot.ErrorPct())
			}
			if !strings.HasPrefix(g.subtitle, wantSub) {
				t.Errorf("Graph Results headline %q, want %q…", g.subtitle, wantSub)
			}
			for _, want := range []string{"Average " + msFigure(tot.Mean()), "Median " + msFigure(tot.Median()),
				"Deviation " + msFigure(tot.StdDev()), "(" + rateFigure(tot.Throughput()) + "/s)"} {
				if !hasLegend(g, want) {
					t.Errorf("Graph Results legend %q lacks %q", g.names, want)
				}
			}
			// Its lines end on the legend's figures.
			for _, s := range g.series {
				if s.name == "data" {
					continue
				}
				last := s.pts[len(s.pts)-1]
				want := map[string]float64{"average": tot.Mean(), "median": tot.Median(), "deviation": tot.StdDev(),
					"throughput": tot.Throughput() * 60}[s.name]
				if math.IsInf(want, 0) {
					want = 0 // a span of no time draws no throughput
				}
				if last.X != float64(tot.Count) || math.Abs(last.Y-want) > 1e-9*math.Abs(want) {
					t.Errorf("Graph Results %s line ends at %v, want (%d, %v)", s.name, last, tot.Count, want)
				}
			}

			// Throughput: the legend's means are the statistics', and the
			// rates drawn, each weighted by the time its bucket covers,
			// average to them.
			tf := c.Timeline.throughputFigure()
			if want := "Hits/s (mean " + rateFigure(tot.Throughput()) + ")"; !hasLegend(tf, want) {
				t.Errorf("throughput legend %q lacks %q", tf.names, want)
			}
			v := c.Timeline.view()
			var weighted float64
			for _, pt := range tf.series[0].pts {
				// The bucket a point stands for holds the middle of its time.
				i := int(math.Floor((float64(v.from) + pt.X*1000 - float64(v.origin)) / float64(v.width)))
				lo, hi := v.cover(min(max(i, 0), v.n-1), tot.First, tot.Last)
				weighted += pt.Y * float64(hi-lo) / 1000
			}
			if tot.Duration() > 0 && math.Abs(weighted-float64(tot.Count)) > 1e-6*float64(tot.Count) {
				t.Errorf("the hits drawn add up to %v, the statistics count %d", weighted, tot.Count)
			}
			if run.n == 1 && len(tf.series[0].pts) != 1 {
				t.Errorf("one sample drawn as %d points", len(tf.series[0].pts))
			}

			// Percentiles and distribution: the statistics' figures.
			pf := c.Timeline.percentilesFigure()
			for _, want := range []string{"All samples: median " + msFigure(tot.Median()), "p90 " + msFigure(tot.Percentile(90)),
				"p99 " + msFigure(tot.Percentile(99))} {
				if !hasNote(pf, want) {
					t.Errorf("percentile notes %q lack %q", pf.notes, want)
				}
			}
			df := c.Timeline.distributionFigure()
			if want := fmt.Sprintf("%s, %s failed", samplesText(tot.Count), formatNumber(float64(tot.Errors), 0)); !hasNote(df, want) {
				t.Errorf("distribution notes %q lack %q", df.notes, want)
			}
			var bars float64
			for _, pt := range df.series[0].pts {
				bars += pt.Y
			}
			if over := tot.Count - int64(bars); over < 0 || over > 0 && !hasNotePrefix(df, formatNumber(float64(over), 0)+" sample") {
				t.Errorf("the bars hold %v of %d samples, notes %q", bars, tot.Count, df.notes)
			}

			figures := map[string]*figure{FileGraphResults: g}
			for _, ch := range timelineCharts {
				figures[ch.file] = ch.draw(c.Timeline)
			}
			for file, f := range figures {
				checkFrame(t, file, f)
			}

			if run.n > 1 {
				return // a single sample is where charts come nearest to one another
			}
			dir := t.TempDir()
			names, err := c.WriteAll(dir)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[[32]byte]string{}
			for _, name := range names {
				data, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				sum := sha256.Sum256(data)
				if other, dup := seen[sum]; dup {
					t.Errorf("%s is the same PNG as %s", name, other)
				}
				seen[sum] = name
			}
		})
	}
}

// countAxes are the axes of counts of each chart: panel index and axis.
var countAxes = map[string][]struct {
	panel int
	y     bool
}{
	FileGraphResults:             {{0, false}, {1, false}},
	FileResponseTimeDistribution: {{0, true}},
	FileActiveThreadsOverTime:    {{0, true}},
	FileTimeVsThreads:            {{0, false}},
}

// timeAxes are the charts whose x axis is wall-clock time.
var timeAxes = map[string]bool{
	FileResponseTimesOverTime: true, FileLatenciesOverTime: true, FileConnectTimesOverTime: true,
	FileThroughputOverTime: true, FileResponseCodesPerSecond: true, FileActiveThreadsOverTime: true,
}

// checkFrame checks a figure's axes: whole-number ticks on counts, room
// above the highest point, no point on the left or right frame (but the
// percentiles' 0 and 100), clock times on a time axis.
func checkFrame(t *testing.T, file string, f *figure) {
	t.Helper()
	for _, a := range countAxes[file] {
		ax := &f.panels[a.panel].plot.X
		if a.y {
			ax = &f.panels[a.panel].plot.Y
		}
		for _, tk := range ax.Tick.Marker.Ticks(ax.Min, ax.Max) {
			if tk.Value != math.Trunc(tk.Value) {
				t.Errorf("%s: a tick at %v on an axis of counts", file, tk.Value)
			}
		}
	}
	p := f.panels[0].plot
	if timeAxes[file] {
		for _, tk := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
			if tk.Label != "" && !clockLabel.MatchString(tk.Label) {
				t.Errorf("%s: time tick %q is not a time of day", file, tk.Label)
			}
		}
		if !strings.HasPrefix(p.X.Label.Text, "Time (UTC), ") {
			t.Errorf("%s: time axis %q", file, p.X.Label.Text)
		}
	}
	cut := hasNotePrefix(f, "Axis cut")
	for _, s := range f.series {
		for _, pt := range s.pts {
			if math.IsNaN(pt.Y) || math.IsInf(pt.Y, 0) {
				t.Errorf("%s: %s has a point at %v", file, s.name, pt)
				continue
			}
			pl := plotOf(f, s)
			if !cut && pt.Y >= pl.Y.Max {
				t.Errorf("%s: %s reaches %v, the top of the axis is %v: no headroom", file, s.name, pt.Y, pl.Y.Max)
			}
			if file != FileResponseTimePercentiles && (pt.X <= pl.X.Min || pt.X >= pl.X.Max) {
				t.Errorf("%s: %s has a point at x %v on the frame [%v, %v]", file, s.name, pt.X, pl.X.Min, pl.X.Max)
			}
		}
	}
}

// plotOf is the panel a series is drawn in: Graph Results draws its
// throughput in the lower one.
func plotOf(f *figure, s series) *plot.Plot {
	if s.name == "throughput" && len(f.panels) > 1 {
		return f.panels[1].plot
	}
	return f.panels[0].plot
}

func hasLegend(f *figure, want string) bool {
	for _, n := range f.names {
		if strings.Contains(n, want) {
			return true
		}
	}
	return false
}

func hasNote(f *figure, want string) bool {
	for _, n := range f.notes {
		if n == want {
			return true
		}
	}
	return false
}

func hasNotePrefix(f *figure, prefix string) bool {
	for _, n := range f.notes {
		if strings.HasPrefix(n, prefix) {
			return true
		}
	}
	return false
}
