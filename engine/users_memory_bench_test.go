package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gojm/gojm/jmx"
	"github.com/gojm/gojm/report"
)

// BenchmarkUserMemory measures the memory a virtual user costs: the
// benchmark plan's keep-alive GET (examples/benchmark/get.jmx), one
// request per user, against a server that holds every request open until
// told to answer (waiting), or that answers at once, after which each
// user pauses in a Flow Control Action (thinking). With every user
// waiting, or thinking, it reads runtime.MemStats after a collection,
// once with one user and once with USERS (default 5,000), and reports the
// difference divided by the users beyond the first: heap-B/user
// (HeapInuse), stack-B/user (StackInuse) and their sum B/user. The server
// runs in a process of its own (this test binary, re-executed: TestMain),
// so that only the client's memory is counted. HEAPPROFILE=file writes
// the heap profile of the many users' moment.
//
// Every wait is bounded (stuck): what does not come in time fails the
// benchmark, naming what it waited for and the file that holds every
// goroutine's stack at that moment, and the first failure ends it, so
// that no later step waits on a server or a run left in the middle.
//
//	go test ./engine -run '^$' -bench BenchmarkUserMemory -benchtime 1x
func BenchmarkUserMemory(b *testing.B) {
	users := 5000
	if s := os.Getenv("USERS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 2 {
			b.Fatalf("USERS=%q: want a number of users, at least 2", s)
		}
		users = n
	}
	hs := startHoldServer(b)
	text, err := os.ReadFile("../examples/benchmark/get.jmx")
	if err != nil {
		b.Fatal(err)
	}
	for _, think := range []bool{false, true} {
		name, plan := "waiting", string(text)
		if think {
			name, plan = "thinking", strings.Replace(plan, "<hashTree/>", "<hashTree/>"+thinkAction, 1)
		}
		src, err := jmx.Read(strings.NewReader(plan), "get.jmx", b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		ok := b.Run(name, func(b *testing.B) {
			for b.Loop() {
				one := hs.usersMemory(b, src, 1, think)
				many := hs.usersMemory(b, src, users, think)
				per := func(f func(*runtime.MemStats) uint64) float64 {
					return (float64(f(&many)) - float64(f(&one))) / float64(users-1)
				}
				heap := per(func(m *runtime.MemStats) uint64 { return m.HeapInuse })
				stack := per(func(m *runtime.MemStats) uint64 { return m.StackInuse })
				b.ReportMetric(heap, "heap-B/user")
				b.ReportMetric(stack, "stack-B/user")
				b.ReportMetric(heap+stack, "B/user")
			}
		})
		if !ok {
			return // the hold server and the run are in no known state
		}
	}
}

// thinkAction, after the GET, pauses the user for ten minutes (a Flow
// Control Action); the run's stop ends the pause.
const thinkAction = `
<TestAction guiclass="TestActionGui" testclass="TestAction" testname="think">
  <intProp name="ActionProcessor.action">1</intProp>
  <intProp name="ActionProcessor.target">0</intProp>
  <stringProp name="ActionProcessor.duration">600000</stringProp>
</TestAction>
<hashTree/>`

// holdServer drives the server process: it holds every request until
// released (holdServerMain).
type holdServer struct {
	host, port string
	cmd        *exec.Cmd
	in         io.WriteCloser
	// lines are the server's answers, read by one goroutine for the
	// server's whole life (closed when its output ends), so that a wait
	// for one can give up without leaving a reader behind
	lines chan string
	// round is the server's current round (holdServerMain), which the
	// requests name
	round int
	// close ends the server (once; later calls return what the first did)
	close func() error
}

func startHoldServer(tb testing.TB) *holdServer {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), holdServerEnv+"=1")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	hs := &holdServer{cmd: cmd, in: in, lines: make(chan string)}
	hs.close = sync.OnceValue(hs.end)
	go func() {
		defer close(hs.lines)
		r := bufio.NewScanner(out)
		for r.Scan() {
			hs.lines <- strings.TrimSpace(r.Text())
		}
	}()
	tb.Cleanup(func() {
		if err := hs.close(); err != nil {
			tb.Error(err)
		}
	})
	addr, err := hs.line(nil, "address")
	if err != nil {
		tb.Fatal(err)
	}
	hs.host, hs.port, err = net.SplitHostPort(addr)
	if err != nil {
		tb.Fatalf("hold server: %q: %v", addr, err)
	}
	return hs
}

// line returns the server's next answer, within stuck; what names the
// answer, for the error. done, when not nil, ends the wait early (the
// run ended before the server answered), with errRunEnded.
func (hs *holdServer) line(done <-chan struct{}, what string) (string, error) {
	t := time.NewTimer(stuck)
	defer t.Stop()
	select {
	case s, ok := <-hs.lines:
		if !ok {
			return "", fmt.Errorf("hold server: its output ended before its %s", what)
		}
		return s, nil
	case <-done:
		return "", errRunEnded
	case <-t.C:
		return "", fmt.Errorf("hold server: no %s within %v", what, stuck)
	}
}

var errRunEnded = errors.New("the run ended")

// end ends the server, which ends when its input does, whatever it is
// doing. One still running stuck later is killed, and end says so.
func (hs *holdServer) end() error {
	hs.in.Close()
	exited := make(chan struct{})
	go func() {
		hs.cmd.Wait()
		close(exited)
	}()
	if waitFor(exited, stuck) {
		return nil
	}
	hs.cmd.Process.Kill()
	<-exited
	return fmt.Errorf("hold server: still running %v after its input ended; killed", stuck)
}

// usersMemory runs src with users users, one request each, and returns
// the memory statistics read while all of them wait for their response,
// or, thinking, once all of them have had it.
func (hs *holdServer) usersMemory(b *testing.B, src *jmx.Plan, users int, thinking bool) runtime.MemStats {
	path := "/hold/" + strconv.Itoa(hs.round)
	if thinking {
		path = "/answer/" + strconv.Itoa(hs.round)
	}
	p, err := Compile(src, Options{Props: map[string]string{
		"host": hs.host, "port": hs.port, "path": path,
		"threads": strconv.Itoa(users), "loops": "1", "duration": "600",
		// a connect a millisecond, so that connects do not overflow the
		// listen backlog (a dropped one is retried a second later): the
		// ramp-up gives each user a whole number of milliseconds,
		// rounded, and a second per 2,000 users or part of them is at
		// least half a millisecond each
		"rampup": strconv.Itoa((users + 1999) / 2000),
	}})
	if err != nil {
		b.Fatal(err)
	}
	sink := &countSink{}
	run := Start(context.Background(), p, sink, RunOptions{})
	defer func() {
		if !b.Failed() {
			return
		}
		// Users still running would hold connections and memory into
		// whatever runs next.
		run.Abort(errors.New("the benchmark failed"))
		if !waitFor(run.Done(), stuck) {
			b.Errorf("%d users: the run did not end within %v of its abort; goroutines: %s", users, stuck, dumpGoroutines())
		}
	}()
	samples := func() string {
		return fmt.Sprintf("%d samples succeeded, %d failed", sink.ok.Load(), sink.failed.Load())
	}
	fmt.Fprintf(hs.in, "wait %d\n", users)
	switch s, err := hs.line(run.Done(), `answer to "wait"`); {
	case errors.Is(err, errRunEnded):
		b.Fatalf("%d users: the run ended before every request came: %s", users, samples())
	case err != nil:
		b.Fatalf("%d users: not every request came: %v: %s; goroutines: %s", users, err, samples(), dumpGoroutines())
	case s != "held":
		b.Fatalf("hold server: %q", s)
	}
	if thinking {
		// Every user has its sample once the collector has it; it is in
		// its pause a few instructions later.
		for t0 := time.Now(); sink.ok.Load()+sink.failed.Load() < int64(users); time.Sleep(10 * time.Millisecond) {
			if time.Since(t0) > stuck {
				b.Fatalf("%d users: %d samples within %v, want %d; goroutines: %s",
					users, sink.ok.Load()+sink.failed.Load(), stuck, users, dumpGoroutines())
			}
		}
	}
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	if f := os.Getenv("HEAPPROFILE"); f != "" && users > 1 {
		writeHeapProfile(b, f)
	}
	fmt.Fprintln(hs.in, "release")
	hs.round++
	if thinking {
		run.Stop(nil)
	}
	if !waitFor(run.Done(), stuck) {
		b.Fatalf("%d users: the run did not end within %v of the release: %s; goroutines: %s",
			users, stuck, samples(), dumpGoroutines())
	}
	if err := run.Wait(); err != nil {
		b.Fatal(err)
	}
	if sink.ok.Load() != int64(users) || sink.failed.Load() != 0 {
		b.Fatalf("%d users: %d samples succeeded, %d failed", users, sink.ok.Load(), sink.failed.Load())
	}
	return m
}

// waitFor reports whether done is closed within d.
func waitFor(done <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}

// dumpGoroutines writes every goroutine's stack to a file of its own and
// names it: for a benchmark that gave up waiting, what the run was doing.
func dumpGoroutines() string {
	f, err := os.CreateTemp("", "BenchmarkUserMemory-goroutines-*.txt")
	if err != nil {
		return fmt.Sprintf("(not written: %v)", err)
	}
	defer f.Close()
	if err := pprof.Lookup("goroutine").WriteTo(f, 2); err != nil {
		return fmt.Sprintf("(not written: %v)", err)
	}
	return f.Name()
}

func writeHeapProfile(b *testing.B, name string) {
	f, err := os.Create(name)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		b.Fatal(err)
	}
}

// stuck is how long the benchmark waits for what must come in seconds
// before it reports the run stuck.
const stuck = time.Minute

// countSink counts the samples of a run.
type countSink struct{ ok, failed atomic.Int64 }

func (c *countSink) Add(s *report.Sample) {
	if s.Success {
		c.ok.Add(1)
	} else {
		c.failed.Add(1)
	}
}

func (c *countSink) Close() error { return nil }

// TestHoldServerEndsWithItsInput: the hold server ends when its input
// does, also while it waits for requests that are not coming, as when
// BenchmarkUserMemory gives up on them; a server that went on waiting
// would keep the benchmark waiting for it for ever.
func TestHoldServerEndsWithItsInput(t *testing.T) {
	hs := startHoldServer(t)
	fmt.Fprintln(hs.in, "wait 1") // no request comes
	if err := hs.close(); err != nil {
		t.Fatal(err)
	}
}

// TestHoldServerCountsEachRound: a request of the next round that comes
// before the server reads the release of the current one, as a thinking
// run's next requests may, counts in the next round's wait; a release
// that counted from zero again would leave that wait waiting for ever.
func TestHoldServerCountsEachRound(t *testing.T) {
	hs := startHoldServer(t)
	get := func(round int) {
		t.Helper()
		resp, err := http.Get("http://" + net.JoinHostPort(hs.host, hs.port) + "/answer/" + strconv.Itoa(round))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("round %d: %s", round, resp.Status)
		}
	}
	get(0)
	get(1) // answered, so counted, before the release below is sent
	fmt.Fprintln(hs.in, "release")
	fmt.Fprintln(hs.in, "wait 1")
	if s, err := hs.line(nil, `answer to "wait"`); err != nil || s != "held" {
		t.Fatalf("round 1: %q, %v; want held", s, err)
	}
}

// holdServerEnv, set, makes the test binary the hold server.
const holdServerEnv = "GOJM_HOLD_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(holdServerEnv) != "" {
		holdServerMain()
		return
	}
	os.Exit(m.Run())
}

// holdServerMain serves HTTP on a loopback port it prints. A request
// names its round: /hold/K is held until round K is released, /answer/K
// answered at once. It reads commands on its input: "wait N" answers
// "held" once N requests of the current round (0 first) have come;
// "release" answers the current round's held requests and makes the next
// round current. A request counts in the round it names, whenever it
// comes: also before the server has read the release of the round before,
// which nothing orders before a thinking run's next requests (its users
// had their answers already). The server ends when its input does, in the
// middle of a wait too: the benchmark closes it when it gives up waiting.
func holdServerMain() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	type round struct {
		held    atomic.Int64  // requests that have come
		release chan struct{} // closed when the round is released
	}
	var (
		mu      sync.Mutex
		rounds  = map[int64]*round{}
		current int64
		arrived = make(chan struct{}, 1)
	)
	// roundOf returns round k, made on first use; a round released
	// already holds nothing. Under mu.
	released := &round{release: make(chan struct{})}
	close(released.release)
	roundOf := func(k int64) *round {
		if k < current {
			return released
		}
		rd := rounds[k]
		if rd == nil {
			rd = &round{release: make(chan struct{})}
			rounds[k] = rd
		}
		return rd
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		kind, num, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		k, err := strconv.ParseInt(num, 10, 64)
		if err != nil || kind != "hold" && kind != "answer" {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		rd := roundOf(k)
		mu.Unlock()
		rd.held.Add(1)
		select {
		case arrived <- struct{}{}:
		default:
		}
		if kind == "hold" {
			<-rd.release
		}
		io.WriteString(w, "ok")
	})}
	go srv.Serve(ln)
	fmt.Println(ln.Addr())
	// The input is read apart from the commands, so that its end is seen
	// while a wait waits. At most two commands wait to be read (a release
	// and the next wait), so the reader does not block on cmds.
	cmds := make(chan string, 8)
	go func() {
		in := bufio.NewScanner(os.Stdin)
		for in.Scan() {
			cmds <- in.Text()
		}
		os.Exit(0)
	}()
	for line := range cmds {
		cmd, arg, _ := strings.Cut(line, " ")
		switch cmd {
		case "wait":
			n, _ := strconv.ParseInt(arg, 10, 64)
			mu.Lock()
			rd := roundOf(current)
			mu.Unlock()
			for rd.held.Load() < n {
				<-arrived
			}
			fmt.Println("held")
		case "release":
			mu.Lock()
			rd := roundOf(current)
			delete(rounds, current)
			current++
			mu.Unlock()
			close(rd.release)
		}
	}
}
