package main

import (
	"io"
	"log/slog"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/gojm/gojm/report"
	"github.com/gojm/gojm/report/chart"
	"github.com/gojm/gojm/report/progress"
)

// The collector's work per sample in a run: every sink gojm run feeds
// (the CSV results file on disk, whole-run statistics, the summariser,
// the charts, the live progress meter), as runCmd sets them up for
// `gojm run plan.jmx`; `gojm -n -l` has all but the charts. Samples are
// the benchmark workload's: one label, 10 threads, 200s, a few failures
// (go test -run ^$ -bench SinkChain -benchmem ./cmd/gojm).
func BenchmarkSinkChain(b *testing.B) {
	for _, withCharts := range []bool{false, true} {
		name := "jtl+stats+summariser+progress"
		if withCharts {
			name += "+charts"
		}
		b.Run(name, func(b *testing.B) {
			cfg := report.DefaultSaveConfig()
			jtl, err := report.OpenResultFile(filepath.Join(b.TempDir(), "out.jtl"), cfg, nil)
			if err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			log := slog.New(slog.NewTextHandler(io.Discard, nil))
			stats := report.NewStats(runStatsOptions(nil, cfg.SubResults, log))
			sinks := report.Sinks{
				jtl,
				stats,
				report.NewSummariser(io.Discard, 30*time.Second, func() (int, int, int) { return 10, 10, 0 }),
				progress.NewMeter(start, report.StatsOptions{}),
			}
			if withCharts {
				sinks = append(sinks, chart.New("benchmark", stats))
			}
			samples := make([]report.Sample, 1024)
			for i := range samples {
				s := &samples[i]
				*s = report.Sample{
					Start: start.Add(time.Duration(i) * 20 * time.Microsecond), Elapsed: time.Duration(150+i%300) * time.Microsecond,
					Latency: 120 * time.Microsecond, Label: "GET", Code: "200", Message: "OK",
					ThreadName: "users 1-" + strconv.Itoa(1+i%10), DataType: "text", Success: true,
					Bytes: 621, SentBytes: 38, GrpThreads: 10, AllThreads: 10, URL: "http://127.0.0.1:18080/",
				}
				if i%100 == 99 {
					s.Code, s.Message, s.Success = "503", "Service Unavailable", false
				}
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				s := &samples[i&1023]
				// time moves on as in a run: 50,000 samples a second
				s.Start = s.Start.Add(1024 * 20 * time.Microsecond)
				sinks.Add(s)
				i++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "samples/s")
			if err := sinks.Close(); err != nil {
				b.Fatal(err)
			}
		})
	}
}
