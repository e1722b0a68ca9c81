package watch

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestDecodeServerCSVErrors(t *testing.T) {
	const header = "timestamp_ms,elapsed_s,pid,name,cpu_user_pct,cpu_sys_pct,cpu_pct,rss_bytes,threads,fds,load1,mem_available_bytes,state\n"
	tests := []struct {
		name, text, want string
	}{
		{"empty", "", "no header"},
		{"missing column", "timestamp_ms,elapsed_s,pid,name\n", `no "cpu_user_pct" column`},
		{"bad number", header + "1000,1.000,5,x,abc,0,0,0,1,,0,0,running\n", `line 2: column cpu_user_pct: "abc" is not a number`},
		{"bad state", header + "1000,1.000,5,x,1,0,1,0,1,,0,0,sleeping\n", `line 2: state "sleeping"`},
		{"not finite", header + "1000,NaN,5,x,1,0,1,0,1,,0,0,running\n", `column elapsed_s: "NaN" is not a number`},
		{"time goes back", header + "1000,2.000,5,x,1,0,1,0,1,,0,0,running\n1000,1.000,5,x,1,0,1,0,1,,0,0,running\n", "line 3: elapsed_s goes back"},
		{"short record", header + "1000,1.000,5\n", "line 2:"},
		{"bad quoting", header + "1000,1.000,5,\"x,1,0,1,0,1,,0,0,running\n", "extraneous or missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeServerCSV(strings.NewReader(tt.text))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want it to say %q", err, tt.want)
			}
		})
	}
	if _, err := ReadServerCSV(filepath.Join(t.TempDir(), "none.csv")); err == nil {
		t.Error("reading a missing file succeeded")
	}
}

func TestDecodeServerCSVGaps(t *testing.T) {
	// Columns in another order, an extra column, and ticks 3 and 4 that
	// wrote nothing (no process matched): the row after the gap covers
	// one interval, not three.
	text := "state,pid,name,elapsed_s,timestamp_ms,cpu_user_pct,cpu_sys_pct,rss_bytes,extra\n" +
		"running,10,a,1.000,5000,50,0,100,x\n" +
		"running,10,a,2.000,6000,50,0,200,x\n" +
		"gone,10,a,3.000,7000,0,0,0,x\n" +
		"running,11,b,6.000,10000,100,0,300,x\n" +
		"running,11,b,6.500,10500,80,20,300,x\n"
	s, err := DecodeServerCSV(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	sum := s.Summary
	if want := 0.5 + 0.5 + 1 + 0.5; math.Abs(sum.Total.CPUSeconds-want) > 1e-9 {
		t.Errorf("CPU seconds %v, want %v", sum.Total.CPUSeconds, want)
	}
	if got, want := s.Total.Offsets, []float64{1, 2, 6, 6.5}; !slices.Equal(got, want) {
		t.Errorf("offsets %v, want %v", got, want)
	}
	if s.Start.UnixMilli() != 4000 {
		t.Errorf("start %d ms, want 4000", s.Start.UnixMilli())
	}
	if len(s.Procs) != 2 || s.Procs[0].Gone != 3 || s.Procs[1].Gone != 0 {
		t.Errorf("procs %+v", s.Procs)
	}
	if sum.MinMemAvailable != -1 || sum.Total.PeakFDs != -1 {
		t.Errorf("unknown machine figures read as %d, %d; want -1", sum.MinMemAvailable, sum.Total.PeakFDs)
	}
}

func TestDecodeServerCSVLateTicks(t *testing.T) {
	// With interval_s, a late tick (the machine was busy) counts for its
	// real length.
	text := csvHeader +
		"1000,1.000,1.000,10,a,50,0,50,0,1,,0,0,running\n" +
		"2000,2.000,1.000,10,a,50,0,50,0,1,,0,0,running\n" +
		"5000,5.000,3.000,10,a,50,0,50,0,1,,0,0,running\n"
	s, err := DecodeServerCSV(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Summary.Total.CPUSeconds; math.Abs(got-2.5) > 1e-9 {
		t.Errorf("CPU seconds %v, want 2.5", got)
	}
}

func TestDecodeServerCSVHeaderOnly(t *testing.T) {
	s, err := DecodeServerCSV(strings.NewReader(csvHeader))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Procs) != 0 || s.Duration() != 0 || s.Summary.RequestsPerCPUSecond(100) != 0 {
		t.Errorf("empty file gave %+v", s)
	}
}

func TestReadServerCSVGolden(t *testing.T) {
	s, err := ReadServerCSV(filepath.Join("testdata", "server.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Duration() != 3 || len(s.Procs) != 2 {
		t.Errorf("duration %v, %d procs; want 3 and 2", s.Duration(), len(s.Procs))
	}
}

func FuzzDecodeServerCSV(f *testing.F) {
	golden, err := os.ReadFile(filepath.Join("testdata", "server.csv"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(golden))
	f.Add(csvHeader + "1,1,1,a,1,1,1,1,1,1,1,1,gone\n")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := DecodeServerCSV(strings.NewReader(text))
		if err != nil {
			return
		}
		s.Summary.RequestsPerCPUSecond(10)
		WriteSummary(&strings.Builder{}, s.Summary, 10)
	})
}
