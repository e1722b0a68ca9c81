package watch

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// syntheticSeries is a watch of n processes over secs one-second ticks.
func syntheticSeries(n, secs int) Series {
	start := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	s := Series{Start: start, Total: ProcSeries{Name: "total"}}
	for p := range n {
		ps := ProcSeries{PID: 1000 + p, Name: "worker"}
		for i := 1; i <= secs; i++ {
			ps.Offsets = append(ps.Offsets, float64(i))
			ps.CPU = append(ps.CPU, 20+10*float64(p)+15*math.Sin(float64(i)/3))
			ps.RSS = append(ps.RSS, float64((100+10*p+i)<<20))
		}
		s.Procs = append(s.Procs, ps)
	}
	for i := 1; i <= secs; i++ {
		s.Total.Offsets = append(s.Total.Offsets, float64(i))
		cpu, rss := 0.0, 0.0
		for _, ps := range s.Procs {
			cpu += ps.CPU[i-1]
			rss += ps.RSS[i-1]
		}
		s.Total.CPU = append(s.Total.CPU, cpu)
		s.Total.RSS = append(s.Total.RSS, rss)
	}
	return s
}

func syntheticRun(start time.Time, secs int) RunSeries {
	run := RunSeries{Start: start}
	for i := range secs {
		run.Throughput = append(run.Throughput, 400+50*math.Cos(float64(i)/4))
		mean := 20 + 5*math.Sin(float64(i)/2)
		if i == 7 {
			mean = math.NaN() // a second without samples
		}
		run.MeanResponse = append(run.MeanResponse, mean)
	}
	return run
}

// countColour counts the pixels of exactly colour c.
func countColour(img image.Image, c color.RGBA) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			if uint8(r>>8) == c.R && uint8(g>>8) == c.G && uint8(bl>>8) == c.B && uint8(a>>8) == c.A {
				n++
			}
		}
	}
	return n
}

func TestWriteChart(t *testing.T) {
	server := syntheticSeries(3, 30)
	tests := []struct {
		name    string
		series  Series
		run     RunSeries
		present []color.RGBA
		absent  []color.RGBA
	}{
		{
			name:    "run and three processes",
			series:  server,
			run:     syntheticRun(server.Start.Add(-2*time.Second), 32),
			present: []color.RGBA{colorThroughput, colorResponse, colorCPU, colorRSS, colorProcs[0], colorProcs[1], colorProcs[2]},
			absent:  []color.RGBA{colorProcs[3]},
		},
		{
			name:    "server only, one process",
			series:  syntheticSeries(1, 20),
			present: []color.RGBA{colorCPU, colorRSS},
			absent:  []color.RGBA{colorThroughput, colorResponse, colorProcs[0]},
		},
		{
			name:    "many processes: totals only",
			series:  syntheticSeries(len(colorProcs)+1, 10),
			run:     syntheticRun(time.Time{}, 10),
			present: []color.RGBA{colorThroughput, colorResponse, colorCPU, colorRSS},
			absent:  []color.RGBA{colorProcs[0]},
		},
		{
			name:    "run only",
			run:     syntheticRun(time.Time{}, 10),
			present: []color.RGBA{colorThroughput, colorResponse},
			absent:  []color.RGBA{colorCPU, colorRSS},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteChart(&buf, tt.series, tt.run); err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if b := img.Bounds(); b.Dx() != chartWidth || b.Dy() != chartHeight {
				t.Fatalf("size %dx%d, want %dx%d", b.Dx(), b.Dy(), chartWidth, chartHeight)
			}
			for _, c := range tt.present {
				if n := countColour(img, c); n < 50 {
					t.Errorf("colour %v: %d pixels, want a line of it", c, n)
				}
			}
			for _, c := range tt.absent {
				if n := countColour(img, c); n != 0 {
					t.Errorf("colour %v: %d pixels, want none", c, n)
				}
			}
		})
	}
}

func TestWriteChartNothing(t *testing.T) {
	err := WriteChart(&bytes.Buffer{}, Series{}, RunSeries{})
	if err == nil || !strings.Contains(err.Error(), "nothing to draw") {
		t.Errorf("error %v, want nothing to draw", err)
	}
}

func TestSaveChartFromCSV(t *testing.T) {
	// The way `gojm report` uses it: a results folder's server.csv read
	// back and drawn.
	s, err := ReadServerCSV(filepath.Join("testdata", "server.csv"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), ChartName)
	if err := SaveChart(path, s, RunSeries{Throughput: []float64{900, 1100, 1000, 920}}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Width != chartWidth || cfg.Height != chartHeight {
		t.Errorf("size %dx%d", cfg.Width, cfg.Height)
	}
	if err := SaveChart(filepath.Join(t.TempDir(), "no", "such", "dir.png"), s, RunSeries{}); err == nil {
		t.Error("SaveChart into a missing directory succeeded")
	}
}

func TestChartHelpers(t *testing.T) {
	for _, tt := range []struct{ in, want float64 }{
		{0, 1}, {-5, 1}, {math.NaN(), 1}, {1, 1}, {1.1, 1.2}, {135, 150}, {2000, 2000}, {2001, 2500}, {7.5, 8}, {0.031, 0.04},
	} {
		if got := niceCeil(tt.in); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("niceCeil(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
	xys := perStep([]float64{5, math.NaN(), 7, -1}, 2)
	if len(xys) != 2 || xys[0].X != 2 || xys[0].Y != 5 || xys[1].X != 6 || xys[1].Y != 7 {
		t.Errorf("perStep = %v, want (2,5) (6,7)", xys)
	}
	xys = offsets([]float64{1, 2, 3}, []float64{10, math.Inf(1), 30}, 0.5, 2)
	if len(xys) != 2 || xys[0].X != 1.5 || xys[0].Y != 20 || xys[1].X != 3.5 || xys[1].Y != 60 {
		t.Errorf("offsets = %v, want (1.5,20) (3.5,60)", xys)
	}
}
