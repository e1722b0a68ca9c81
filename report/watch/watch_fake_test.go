package watch

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file:\ngot:\n%s\nwant:\n%s", name, got, want)
	}
}

// runFake watches a fake /proc in a synctest bubble with a one-second
// interval: Start takes the baseline from what setup wrote, then each step
// changes the fake and one tick samples it.
func runFake(t *testing.T, targets []string, setup func(f *fakeProc), steps ...func(f *fakeProc)) (string, Summary) {
	t.Helper()
	var out bytes.Buffer
	var sum Summary
	synctest.Test(t, func(t *testing.T) {
		f := newFakeProc(t)
		setup(f)
		ticks := make(chan int)
		w, err := Start(t.Context(), targets, time.Second,
			withRoot(f.dir), WithCSV(&out), withTickHook(func(n int) { ticks <- n }))
		if err != nil {
			t.Fatal(err)
		}
		for i, step := range steps {
			step(f)
			if n := <-ticks; n != i+1 {
				t.Fatalf("tick %d, want %d", n, i+1)
			}
		}
		sum, err = w.Stop()
		if err != nil {
			t.Fatalf("Stop: %v", err)
		}
	})
	return out.String(), sum
}

const (
	pidInit   = 1
	pidCron   = 9000050
	pidServer = 9000100
	pidWorker = 9000101
)

func serverSetup(f *fakeProc) {
	f.set(fakeP{pid: pidInit, comm: "init", start: 1, cmdline: argv("/sbin/init")})
	f.set(fakeP{pid: pidCron, ppid: pidInit, comm: "cron", u: 5, start: 100})
	f.set(fakeP{pid: pidServer, ppid: pidInit, comm: "httpd", u: 1000, s: 200, threads: 4, rssPages: 2560, fds: 7, start: 500})
}

// serverSteps: the server works, forks a worker, the worker exits and is
// reaped (with another child that lived and died between two ticks), then
// the server exits.
var serverSteps = []func(f *fakeProc){
	func(f *fakeProc) {
		f.set(fakeP{pid: pidServer, ppid: pidInit, comm: "httpd", u: 1050, s: 210, threads: 4, rssPages: 3072, fds: 7, start: 500})
		f.set(fakeP{pid: pidWorker, ppid: pidServer, comm: "httpd", u: 20, s: 5, threads: 1, rssPages: 1024, fds: 3, start: 600})
		f.set(fakeP{pid: pidCron, ppid: pidInit, comm: "cron", u: 500, start: 100})
	},
	func(f *fakeProc) {
		f.machine("1.75 0.40 0.30 2/123 4567\n", 1024000)
		f.set(fakeP{pid: pidServer, ppid: pidInit, comm: "httpd", u: 1080, s: 210, threads: 4, rssPages: 3072, fds: 8, start: 500})
		f.set(fakeP{pid: pidWorker, ppid: pidServer, comm: "httpd", u: 60, s: 5, threads: 1, rssPages: 1024, fds: 3, start: 600})
	},
	func(f *fakeProc) {
		// The worker ended at u=70 s=6 and was reaped; another child used 30
		// ticks and was reaped without ever being seen.
		f.remove(pidWorker)
		f.set(fakeP{pid: pidServer, ppid: pidInit, comm: "httpd", u: 1080, s: 210, cu: 100, cs: 6, threads: 4, rssPages: 3072, fds: 7, start: 500})
	},
	func(f *fakeProc) { f.remove(pidServer) },
	func(f *fakeProc) {},
}

func TestWatchFakeServer(t *testing.T) {
	csvText, sum := runFake(t, []string{"9000100"}, serverSetup, serverSteps...)
	golden(t, "server.csv", csvText)

	var rep bytes.Buffer
	if err := WriteSummary(&rep, sum, 3920); err != nil {
		t.Fatal(err)
	}
	golden(t, "summary.txt", rep.String())

	// The figures, worked out by hand from the steps.
	want := []struct {
		name      string
		got, want float64
	}{
		{"total CPU seconds", sum.Total.CPUSeconds, 0.85 + 0.70 + 0.41},
		{"user seconds", sum.Total.UserSeconds, 0.5 + 0.2 + 0.3 + 0.4 + 0.4},
		{"system seconds", sum.Total.SysSeconds, 0.1 + 0.05 + 0.01},
		{"mean CPU %", sum.Total.MeanCPU, (85.0 + 70 + 41) / 3},
		{"peak CPU %", sum.Total.PeakCPU, 85},
		{"peak RSS", float64(sum.Total.PeakRSS), 4096 * float64(os.Getpagesize())},
		{"server CPU seconds", sum.Procs[0].CPUSeconds, 0.6 + 0.3 + 0.41},
		{"worker CPU seconds", sum.Procs[1].CPUSeconds, 0.25 + 0.4},
		{"requests per CPU-second", sum.RequestsPerCPUSecond(3920), 2000},
		{"gone", float64(sum.Gone), 2},
		{"peak load", sum.PeakLoad1, 1.75},
		{"lowest MemAvailable", float64(sum.MinMemAvailable), 1024000 * 1024},
		{"duration s", sum.Duration.Seconds(), 5},
	}
	for _, w := range want {
		if math.Abs(w.got-w.want) > 1e-9 {
			t.Errorf("%s = %v, want %v", w.name, w.got, w.want)
		}
	}
	if len(sum.Procs) != 2 || sum.Procs[0].PID != pidServer || sum.Procs[1].PID != pidWorker {
		t.Fatalf("procs = %+v, want the server and its worker only", sum.Procs)
	}
	if !sum.Procs[0].Gone || !sum.Procs[1].Gone {
		t.Errorf("both processes exited, but Gone = %v, %v", sum.Procs[0].Gone, sum.Procs[1].Gone)
	}

	// Read back, the file gives the same summary and a drawable series.
	s, err := DecodeServerCSV(strings.NewReader(csvText))
	if err != nil {
		t.Fatal(err)
	}
	assertSameSummary(t, s.Summary, sum)
	if got, want := s.Total.Offsets, []float64{1, 2, 3}; !slices.Equal(got, want) {
		t.Errorf("total offsets = %v, want %v (the tick with only gone rows left out)", got, want)
	}
	if got, want := s.Total.CPU, []float64{85, 70, 41}; !slices.Equal(got, want) {
		t.Errorf("total CPU = %v, want %v", got, want)
	}
	if s.Procs[0].Gone != 4 || s.Procs[1].Gone != 3 {
		t.Errorf("gone at %v and %v, want 4 and 3", s.Procs[0].Gone, s.Procs[1].Gone)
	}
	if want := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC); !s.Start.Equal(want) {
		t.Errorf("series start = %v, want %v", s.Start, want)
	}
}

// assertSameSummary checks a summary read back from server.csv against the
// live one (the file rounds percentages to two decimals and intervals to
// milliseconds).
func assertSameSummary(t *testing.T, got, want Summary) {
	t.Helper()
	near := func(name string, a, b float64) {
		if math.Abs(a-b) > 1e-3*math.Max(1, math.Abs(b)) {
			t.Errorf("read back %s = %v, live %v", name, a, b)
		}
	}
	// CPU seconds are read back from rounded percentages times intervals
	// kept to the millisecond: up to about a millisecond of error per tick.
	if tol := 1e-3 * float64(max(1, want.Total.Ticks)); math.Abs(got.Total.CPUSeconds-want.Total.CPUSeconds) > tol {
		t.Errorf("read back CPU seconds = %v, live %v (tolerance %v)", got.Total.CPUSeconds, want.Total.CPUSeconds, tol)
	}
	near("mean CPU", got.Total.MeanCPU, want.Total.MeanCPU)
	near("peak CPU", got.Total.PeakCPU, want.Total.PeakCPU)
	near("peak RSS", float64(got.Total.PeakRSS), float64(want.Total.PeakRSS))
	// The file has no row for ticks that watched nothing, so it may end
	// earlier; it keeps milliseconds.
	if got.Duration > want.Duration+time.Millisecond || got.Duration <= 0 {
		t.Errorf("read back duration %v, live %v", got.Duration, want.Duration)
	}
	if got.Gone != want.Gone || len(got.Procs) != len(want.Procs) {
		t.Errorf("read back %d procs (%d gone), live %d (%d gone)", len(got.Procs), got.Gone, len(want.Procs), want.Gone)
	}
}

// watchedPIDs lists, per tick, the PIDs with a running row.
func watchedPIDs(t *testing.T, csvText string) [][]int {
	t.Helper()
	s, err := DecodeServerCSV(strings.NewReader(csvText))
	if err != nil {
		t.Fatal(err)
	}
	byTick := make([][]int, len(s.Total.Offsets))
	for _, p := range s.Procs {
		for _, off := range p.Offsets {
			i := slices.Index(s.Total.Offsets, off)
			byTick[i] = append(byTick[i], p.PID)
		}
	}
	for i := range byTick {
		slices.Sort(byTick[i])
	}
	return byTick
}

func TestWatchFakeNames(t *testing.T) {
	self := os.Getpid()
	const (
		shell       = 9000400
		nginx       = 9000200
		nginxWorker = 9000201
		starman     = 9000300
		starmanWkr  = 9000301
		byArgv0     = 9000500
		lateNginx   = 9000600
		lookalike   = 9000700
		selfChild   = 9000800
	)
	setup := func(f *fakeProc) {
		f.set(fakeP{pid: pidInit, comm: "init", start: 1})
		f.set(fakeP{pid: nginx, ppid: pidInit, comm: "nginx", cmdline: argv("nginx: master process /usr/sbin/nginx"), start: 10})
		f.set(fakeP{pid: nginxWorker, ppid: nginx, comm: "nginx", cmdline: argv("nginx: worker process"), start: 11})
		f.set(fakeP{pid: starman, ppid: pidInit, comm: "perl", cmdline: argv("starman master --listen :5000"), start: 12})
		f.set(fakeP{pid: starmanWkr, ppid: starman, comm: "perl", cmdline: argv("starman worker --listen :5000"), start: 13})
		f.set(fakeP{pid: byArgv0, ppid: pidInit, comm: "x", cmdline: argv("/usr/local/bin/nginx", "-g", "daemon off;"), start: 14})
		f.set(fakeP{pid: lookalike, ppid: pidInit, comm: "nginx-exporter", cmdline: argv("/bin/nginx-exporter"), start: 15})
		// The load generator itself runs under a shell called "starman" and
		// is called "nginx": neither is watched, nor its child.
		f.set(fakeP{pid: shell, ppid: pidInit, comm: "starman", cmdline: argv("starman"), start: 16})
		f.set(fakeP{pid: self, ppid: shell, comm: "nginx", cmdline: argv("nginx"), start: 17})
		f.set(fakeP{pid: selfChild, ppid: self, comm: "sh", cmdline: argv("sh"), start: 18})
	}
	csvText, _ := runFake(t, []string{"nginx", "starman"}, setup,
		func(f *fakeProc) {},
		func(f *fakeProc) {
			f.set(fakeP{pid: lateNginx, ppid: pidInit, comm: "nginx", start: 20})
		},
		func(f *fakeProc) { f.remove(nginxWorker) },
	)
	got := watchedPIDs(t, csvText)
	first := []int{nginx, nginxWorker, starman, starmanWkr, byArgv0}
	want := [][]int{
		first,
		{nginx, nginxWorker, starman, starmanWkr, byArgv0, lateNginx},
		{nginx, starman, starmanWkr, byArgv0, lateNginx},
	}
	if len(got) != len(want) {
		t.Fatalf("ticks: got %v, want %v", got, want)
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("tick %d watched %v, want %v", i+1, got[i], want[i])
		}
	}
}

func TestWatchFakePIDReuse(t *testing.T) {
	setup := func(f *fakeProc) {
		f.set(fakeP{pid: pidInit, comm: "init", start: 1})
		f.set(fakeP{pid: pidServer, ppid: pidInit, comm: "httpd", u: 10, start: 500})
	}
	csvText, sum := runFake(t, []string{"9000100"}, setup,
		func(f *fakeProc) {
			f.set(fakeP{pid: pidServer, ppid: pidInit, comm: "httpd", u: 20, start: 500})
		},
		func(f *fakeProc) {
			// The server exited and its PID went to another program.
			f.set(fakeP{pid: pidServer, ppid: pidInit, comm: "bash", u: 1, start: 900})
		},
		func(f *fakeProc) {},
	)
	if !strings.Contains(csvText, ",httpd,0.00,0.00,0.00,0,0,,0.50,2097152000,gone\n") {
		t.Errorf("no gone row for the server:\n%s", csvText)
	}
	if strings.Contains(csvText, "bash") {
		t.Errorf("the process that reused the PID is watched:\n%s", csvText)
	}
	if sum.Gone != 1 || len(sum.Procs) != 1 || sum.Total.CPUSeconds != 0.1 {
		t.Errorf("summary = %+v, want one gone process with 0.1 CPU seconds", sum)
	}
}

func TestWatchFakeTail(t *testing.T) {
	// Stop half-way through an interval samples the tail, so the CPU time
	// of the run's last moments is counted.
	var out bytes.Buffer
	synctest.Test(t, func(t *testing.T) {
		f := newFakeProc(t)
		serverSetup(f)
		ticks := make(chan int)
		w, err := Start(t.Context(), []string{"httpd"}, time.Second,
			withRoot(f.dir), WithCSV(&out), withTickHook(func(n int) { ticks <- n }))
		if err != nil {
			t.Fatal(err)
		}
		<-ticks
		f.set(fakeP{pid: pidServer, ppid: pidInit, comm: "httpd", u: 1020, s: 200, start: 500})
		time.Sleep(500 * time.Millisecond) // the bubble's fake clock: half an interval
		sum, err := w.Stop()
		if err != nil {
			t.Fatal(err)
		}
		if sum.Total.CPUSeconds != 0.2 || sum.Total.PeakCPU != 40 || sum.Duration != 1500*time.Millisecond {
			t.Errorf("tail: %.3f CPU seconds, peak %.1f%%, over %v; want 0.2, 40%% over 1.5s",
				sum.Total.CPUSeconds, sum.Total.PeakCPU, sum.Duration)
		}
	})
	if !strings.Contains(out.String(), "946684801500,1.500,0.500,9000100,httpd,40.00,0.00,40.00,") {
		t.Errorf("no tail row at 1.5 s:\n%s", out.String())
	}
}

func TestWatchContextEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeProc(t)
		serverSetup(f)
		ctx, cancel := context.WithCancel(t.Context())
		w, err := Start(ctx, []string{"9000100"}, time.Second, withRoot(f.dir))
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Second) // the bubble's fake clock: two ticks
		cancel()
		sum, err := w.Stop()
		if err != nil {
			t.Fatal(err)
		}
		if sum.Total.Ticks != 2 {
			t.Errorf("%d ticks after two seconds, want 2", sum.Total.Ticks)
		}
		if again, err := w.Stop(); err != nil || again.Total.Ticks != sum.Total.Ticks {
			t.Errorf("second Stop = %+v, %v; want the same summary", again, err)
		}
	})
}

func TestStartErrors(t *testing.T) {
	f := newFakeProc(t)
	serverSetup(f)
	tests := []struct {
		name     string
		root     string
		targets  []string
		interval time.Duration
		want     string
		is       error
	}{
		{"no proc", t.TempDir(), []string{"1"}, time.Second, "", ErrNoProc},
		{"no such directory", filepath.Join(t.TempDir(), "nope"), []string{"1"}, time.Second, "", ErrNoProc},
		{"missing PID", f.dir, []string{"9000999"}, time.Second, "no process with PID 9000999", nil},
		{"bad PID", f.dir, []string{"-3"}, time.Second, `bad PID "-3"`, nil},
		{"no target", f.dir, nil, time.Second, "no target", nil},
		{"empty target", f.dir, []string{" "}, time.Second, "empty target", nil},
		{"zero interval", f.dir, []string{"1"}, 0, "not positive", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := Start(t.Context(), tt.targets, tt.interval, withRoot(tt.root))
			if err == nil {
				w.Stop()
				t.Fatal("Start succeeded")
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not say %q", err, tt.want)
			}
		})
	}
	if got := ErrNoProc.Error(); got != "--watch needs /proc (Linux); the run goes on without it" {
		t.Errorf("ErrNoProc says %q", got)
	}
}

func TestWatchFakeLateMatches(t *testing.T) {
	const (
		oldShell = 9000900 // runs long before it execs the server
		forked   = 9000901 // forked as "sh", execs the server on the next tick
		worker   = 9000902
	)
	setup := func(f *fakeProc) {
		f.set(fakeP{pid: pidInit, comm: "init", start: 1})
		f.set(fakeP{pid: oldShell, ppid: pidInit, comm: "sh", start: 10})
	}
	nothing := func(f *fakeProc) {}
	steps := []func(f *fakeProc){
		// tick 1: a fork, not yet the server
		func(f *fakeProc) { f.set(fakeP{pid: forked, ppid: pidInit, comm: "sh", start: 20}) },
		// tick 2: it has exec'd the server and used 10 ticks
		func(f *fakeProc) { f.set(fakeP{pid: forked, ppid: pidInit, comm: "nginx", u: 10, start: 20}) },
		// tick 3: the old shell execs the server too, but is not read again
		// until the next full scan (tick 9)
		func(f *fakeProc) { f.set(fakeP{pid: oldShell, ppid: pidInit, comm: "nginx", u: 90, start: 10}) },
		nothing, nothing, nothing, nothing, nothing, nothing,
		// tick 10: the server forks a worker; tick 11: the server exits and
		// the worker is adopted by init, yet stays watched.
		func(f *fakeProc) { f.set(fakeP{pid: worker, ppid: forked, comm: "worker", start: 30}) },
		func(f *fakeProc) {
			f.remove(forked)
			f.set(fakeP{pid: worker, ppid: pidInit, comm: "worker", start: 30})
		},
		nothing,
	}
	csvText, _ := runFake(t, []string{"nginx"}, setup, steps...)
	got := watchedPIDs(t, csvText)
	want := [][]int{
		{forked}, {forked}, {forked}, {forked}, {forked}, {forked}, {forked}, // ticks 2-8
		{oldShell, forked}, // tick 9, the full scan
		{oldShell, forked, worker},
		{oldShell, worker},
		{oldShell, worker},
	}
	if len(got) != len(want) {
		t.Fatalf("watched per tick %v, want %v", got, want)
	}
	for i := range want {
		slices.Sort(want[i])
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("tick %d watched %v, want %v", i+2, got[i], want[i])
		}
	}
	for _, line := range []string{
		// the exec'd fork: 10 ticks since its first read, one tick ago
		"946684802000,2.000,1.000,9000901,nginx,10.00,0.00,10.00,",
		// the old shell: 90 ticks since the baseline, spread over 9 ticks
		"946684809000,9.000,1.000,9000900,nginx,10.00,0.00,10.00,",
	} {
		if !strings.Contains(csvText, line) {
			t.Errorf("no row %q in\n%s", line, csvText)
		}
	}
}

func TestWatchFakeZombie(t *testing.T) {
	// The worker exits (u=30) and lingers as a zombie for a tick before the
	// server reaps it: it is gone as soon as it is a zombie, and the
	// server's cutime rise on reaping counts only the unseen part.
	csvText, sum := runFake(t, []string{"httpd"}, serverSetup,
		func(f *fakeProc) {
			f.set(fakeP{pid: pidWorker, ppid: pidServer, comm: "httpd", u: 20, start: 600})
		},
		func(f *fakeProc) {
			f.set(fakeP{pid: pidWorker, ppid: pidServer, comm: "httpd", u: 30, start: 600, state: 'Z'})
		},
		func(f *fakeProc) {},
		func(f *fakeProc) {
			f.remove(pidWorker)
			f.set(fakeP{pid: pidServer, ppid: pidInit, comm: "httpd", u: 1000, s: 200, cu: 30, threads: 4, rssPages: 2560, fds: 7, start: 500})
		},
	)
	rows := strings.Count(csvText, ",9000101,")
	if rows != 2 || !strings.Contains(csvText, "946684802000,2.000,1.000,9000101,httpd,0.00,0.00,0.00,0,0,,0.50,2097152000,gone\n") {
		t.Errorf("want one running and one gone row for the worker, gone at 2 s:\n%s", csvText)
	}
	if math.Abs(sum.Total.CPUSeconds-0.3) > 1e-9 || sum.Gone != 1 {
		t.Errorf("%.3f CPU seconds, %d gone; want 0.2 seen plus 0.1 unseen, and 1 gone", sum.Total.CPUSeconds, sum.Gone)
	}
}
