//go:build linux

package watch

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// The live tests re-execute the test binary as a helper process: with
// GOJM_WATCH_HELPER set, TestMain runs the helper instead of the tests.
const helperEnv = "GOJM_WATCH_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(runHelper(mode))
	}
	os.Exit(m.Run())
}

// busySink receives the result of a helper's busy loop, so that the loop's
// work stays observable and is compiled as written.
var busySink int

// helperBound caps how long any helper lives, should its test die.
const helperBound = 2 * time.Minute

// runHelper is the helper process. It reports on stdout and runs until its
// stdin closes (or helperBound passes).
func runHelper(mode string) int {
	stdin := make(chan string)
	go func() {
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			stdin <- sc.Text()
		}
		close(stdin)
	}()
	waitEOF := func() {
		deadline := time.After(helperBound)
		for {
			select {
			case _, ok := <-stdin:
				if !ok {
					return
				}
			case <-deadline:
				return
			}
		}
	}
	switch mode {
	case "burn":
		// 64 MiB, every page touched, then one core busy.
		mem := make([]byte, 64<<20)
		for i := 0; i < len(mem); i += 4096 {
			mem[i] = byte(i)
		}
		// Each line on stdin asks for the CPU time used so far.
		var stop atomic.Bool
		go func() {
			for range stdin {
				fmt.Println(cpuTime().Nanoseconds())
			}
			stop.Store(true)
		}()
		fmt.Println("ready")
		x := 0
		for !stop.Load() {
			for i := range 1 << 16 {
				x += i * int(mem[(i*4096)%len(mem)])
			}
		}
		runtime.KeepAlive(mem)
		busySink = x
	case "idle":
		fmt.Println("ready")
		waitEOF()
	case "parent":
		// A child (not matching the parent's name), then wait.
		child := exec.Command(os.Getenv("GOJM_WATCH_EXE"))
		child.Args[0] = "unrelated-child"
		child.Env = append(os.Environ(), helperEnv+"=idle")
		in, _ := child.StdinPipe()
		out, _ := child.StdoutPipe()
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		bufio.NewReader(out).ReadString('\n')
		fmt.Println(child.Process.Pid)
		fmt.Println("ready")
		waitEOF()
		in.Close()
		child.Wait()
	case "forker":
		// On "go", run children one after the other, each burning
		// GOJM_WATCH_BURN_MS of CPU time and exiting, reap them all.
		fmt.Println("ready")
		<-stdin
		n, _ := strconv.Atoi(os.Getenv("GOJM_WATCH_KIDS"))
		for range n {
			c := exec.Command(os.Getenv("GOJM_WATCH_EXE"))
			c.Env = append(os.Environ(), helperEnv+"=spin")
			c.Stderr = os.Stderr
			if err := c.Run(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
		}
		fmt.Println("done")
		waitEOF()
	case "spin":
		ms, _ := strconv.Atoi(os.Getenv("GOJM_WATCH_BURN_MS"))
		budget := time.Duration(ms) * time.Millisecond
		x := 0
		for cpuTime() < budget {
			for i := range 1 << 16 {
				x += i
			}
		}
		busySink = x
	default:
		fmt.Fprintln(os.Stderr, "unknown helper mode", mode)
		return 2
	}
	return 0
}

// cpuTime is this process's user and system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// helper is a running helper process.
type helper struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
}

// startHelper runs the test binary as a helper in mode, through path (the
// binary or a link to it) with argv[0] set to argv0.
func startHelper(t *testing.T, path, argv0, mode string, env ...string) *helper {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if path == "" {
		path = exe
	}
	cmd := exec.Command(path)
	if argv0 != "" {
		cmd.Args[0] = argv0
	}
	cmd.Env = append(os.Environ(), append(env, helperEnv+"="+mode, "GOJM_WATCH_EXE="+exe)...)
	cmd.Stderr = os.Stderr
	h := &helper{cmd: cmd}
	if h.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	h.out = bufio.NewReader(out)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		h.stdin.Close()
		h.cmd.Wait()
	})
	return h
}

// line reads the helper's next line of output.
func (h *helper) line(t *testing.T) string {
	t.Helper()
	s, err := h.out.ReadString('\n')
	if err != nil {
		t.Fatalf("helper: %v", err)
	}
	return strings.TrimSpace(s)
}

// end closes the helper's stdin and reaps it.
func (h *helper) end(t *testing.T) {
	t.Helper()
	h.stdin.Close()
	if err := h.cmd.Wait(); err != nil {
		t.Fatalf("helper: %v", err)
	}
}

// tickWaiter counts the watcher's ticks for a test to wait on.
type tickWaiter chan int

func newTickWaiter() tickWaiter { return make(tickWaiter, 1<<12) }

func (c tickWaiter) hook(n int) {
	select {
	case c <- n:
	default: // the test is not waiting for this many
	}
}

// after waits until a whole tick has run after this call: it drops the
// ticks already reported, then waits for two more (the first may have
// begun before the call).
func (c tickWaiter) after() {
	for {
		select {
		case <-c:
			continue
		default:
		}
		break
	}
	<-c
	<-c
}

func needProc(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc here:", err)
	}
}

// liveInterval is short so the live tests finish fast; CPU times come in
// 10 ms clock ticks, so a tick of 100 ms reads percentages to ±10.
const liveInterval = 100 * time.Millisecond

// helperCPU asks a burn helper for the CPU time it has used.
func (h *helper) cpu(t *testing.T) time.Duration {
	t.Helper()
	fmt.Fprintln(h.stdin)
	ns, err := strconv.ParseInt(h.line(t), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return time.Duration(ns)
}

func TestLiveBurnAndMemory(t *testing.T) {
	needProc(t)
	h := startHelper(t, "", "", "burn", "GOMAXPROCS=1")
	if got := h.line(t); got != "ready" {
		t.Fatalf("helper said %q", got)
	}
	var out bytes.Buffer
	ticks := newTickWaiter()
	before := h.cpu(t)
	w, err := Start(t.Context(), []string{strconv.Itoa(h.cmd.Process.Pid)}, liveInterval,
		WithCSV(&out), withTickHook(ticks.hook))
	if err != nil {
		t.Fatal(err)
	}
	inStart := h.cpu(t)
	for range 8 {
		<-ticks
	}
	inStop := h.cpu(t)
	sum, err := w.Stop()
	if err != nil {
		t.Fatal(err)
	}
	after := h.cpu(t)
	h.end(t)

	s, err := DecodeServerCSV(&out)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Procs) != 1 || s.Procs[0].PID != h.cmd.Process.Pid {
		t.Fatalf("watched %+v, want only the helper", s.Procs)
	}
	p := s.Summary.Procs[0]
	t.Logf("helper: mean CPU %.1f%%, peak %.1f%%, %.3f CPU s (its own clock: %.3f to %.3f), peak RSS %d MiB over %d ticks",
		p.MeanCPU, p.PeakCPU, p.CPUSeconds, (inStop - inStart).Seconds(), (after - before).Seconds(), p.PeakRSS>>20, p.Ticks)
	// The watch began between the first two questions and ended between
	// the last two, so the CPU time it counted lies between what the
	// helper used inside and outside those brackets, give or take a clock
	// tick at either end. This holds however busy the machine is.
	tick := time.Second / time.Duration(defaultClkTck)
	got := time.Duration(p.CPUSeconds * float64(time.Second))
	if lo, hi := inStop-inStart-2*tick, after-before+2*tick; got < lo || got > hi {
		t.Errorf("counted %v of CPU, want between %v and %v", got, lo, hi)
	}
	// One core busy: near 100% unless the machine is short of CPU, in
	// which case the helper's own clock says so too.
	if share := 100 * (inStop - inStart).Seconds() / sum.Duration.Seconds(); share > 80 && p.MeanCPU < 50 {
		t.Errorf("mean CPU %.1f%%, but the helper had %.0f%% of a core", p.MeanCPU, share)
	}
	if p.PeakRSS < 64<<20 {
		t.Errorf("peak RSS %d bytes, want at least 64 MiB", p.PeakRSS)
	}
	if p.PeakThreads < 1 || p.PeakFDs < 3 {
		t.Errorf("threads %d, fds %d: want at least 1 and 3", p.PeakThreads, p.PeakFDs)
	}
	assertSameSummary(t, s.Summary, sum)
}

func TestLiveGone(t *testing.T) {
	needProc(t)
	h := startHelper(t, "", "", "idle")
	h.line(t)
	pid := h.cmd.Process.Pid
	var out bytes.Buffer
	ticks := newTickWaiter()
	w, err := Start(t.Context(), []string{strconv.Itoa(pid)}, liveInterval,
		WithCSV(&out), withTickHook(ticks.hook))
	if err != nil {
		t.Fatal(err)
	}
	<-ticks
	h.end(t)
	ticks.after()
	sum, err := w.Stop()
	if err != nil {
		t.Fatalf("a process exiting is not an error, got %v", err)
	}
	rows := strings.Split(strings.TrimSpace(out.String()), "\n")
	last := rows[len(rows)-1]
	if !strings.Contains(last, fmt.Sprintf(",%d,", pid)) || !strings.HasSuffix(last, ",gone") {
		t.Errorf("last row %q, want the helper gone", last)
	}
	if sum.Gone != 1 || !sum.Procs[0].Gone {
		t.Errorf("summary: %d gone, want the helper", sum.Gone)
	}
}

func TestLiveNameWithChildren(t *testing.T) {
	needProc(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("gojmw%08d", os.Getpid()%100000000) // 13 bytes: comm keeps 15
	link := filepath.Join(t.TempDir(), name)
	if err := os.Symlink(exe, link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name        string
		path, argv0 string
	}{
		{"comm", link, "something-else"},
		{"argv0", exe, "/opt/bin/" + name},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			ticks := newTickWaiter()
			// Nothing matches yet: the parent starts after the watch.
			w, err := Start(t.Context(), []string{name}, liveInterval,
				WithCSV(&out), withTickHook(ticks.hook))
			if err != nil {
				t.Fatal(err)
			}
			<-ticks
			h := startHelper(t, tt.path, tt.argv0, "parent")
			child, err := strconv.Atoi(h.line(t))
			if err != nil {
				t.Fatal(err)
			}
			h.line(t)
			ticks.after()
			if _, err := w.Stop(); err != nil {
				t.Fatal(err)
			}
			h.end(t)
			text := out.String()
			s, err := DecodeServerCSV(strings.NewReader(text))
			if err != nil {
				t.Fatal(err)
			}
			// The parent and its child are watched, this test is not; any
			// other watched process is a short-lived child of the parent
			// (Go's runtime forks one to probe for pidfd support).
			watched := map[int]ProcSeries{}
			for _, p := range s.Procs {
				watched[p.PID] = p
			}
			for _, pid := range []int{h.cmd.Process.Pid, child} {
				if _, ok := watched[pid]; !ok {
					t.Errorf("PID %d not watched:\n%s", pid, text)
				}
				delete(watched, pid)
			}
			for pid, p := range watched {
				if pid == os.Getpid() || p.Gone == 0 {
					t.Errorf("PID %d (%s) watched and still running:\n%s", pid, p.Name, text)
				}
			}
		})
	}
}

func TestLiveReapedChildrenCounted(t *testing.T) {
	needProc(t)
	// Children that live between two ticks are never seen; their CPU time
	// reaches the parent when it reaps them.
	const kids, burn = 4, 150 * time.Millisecond
	h := startHelper(t, "", "", "forker",
		fmt.Sprintf("GOJM_WATCH_KIDS=%d", kids), fmt.Sprintf("GOJM_WATCH_BURN_MS=%d", burn.Milliseconds()))
	h.line(t)
	w, err := Start(t.Context(), []string{strconv.Itoa(h.cmd.Process.Pid)}, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(h.stdin, "go")
	if got := h.line(t); got != "done" {
		t.Fatalf("helper said %q", got)
	}
	sum, err := w.Stop() // the last sample, taken at Stop, sees the reaped children
	if err != nil {
		t.Fatal(err)
	}
	h.end(t)
	want := (kids * burn).Seconds()
	t.Logf("%d children of %v CPU each: %.2f CPU seconds counted", kids, burn, sum.Total.CPUSeconds)
	if sum.Total.CPUSeconds < want*0.95 {
		t.Errorf("%.2f CPU seconds counted, want at least %.2f", sum.Total.CPUSeconds, want)
	}
}
