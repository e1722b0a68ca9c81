package engine

import (
	"bufio"
	"context"
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
		b.Run(name, func(b *testing.B) {
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
	in         io.Writer
	out        *bufio.Reader
}

func startHoldServer(b *testing.B) *holdServer {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), holdServerEnv+"=1")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		in.Close() // the server ends when its input does
		cmd.Wait()
	})
	hs := &holdServer{in: in, out: bufio.NewReader(out)}
	addr := hs.line(b)
	hs.host, hs.port, err = net.SplitHostPort(addr)
	if err != nil {
		b.Fatalf("hold server: %q: %v", addr, err)
	}
	return hs
}

func (hs *holdServer) line(b *testing.B) string {
	s, err := hs.out.ReadString('\n')
	if err != nil {
		b.Fatalf("hold server: %v", err)
	}
	return strings.TrimSpace(s)
}

// usersMemory runs src with users users, one request each, and returns
// the memory statistics read while all of them wait for their response,
// or, thinking, once all of them have had it.
func (hs *holdServer) usersMemory(b *testing.B, src *jmx.Plan, users int, thinking bool) runtime.MemStats {
	path := "/hold"
	if thinking {
		path = "/answer"
	}
	p, err := Compile(src, Options{Props: map[string]string{
		"host": hs.host, "port": hs.port, "path": path,
		"threads": strconv.Itoa(users), "loops": "1", "duration": "600",
		// a second per 2,000 users, so that connects do not overflow the
		// listen backlog (a dropped one is retried a second later)
		"rampup": strconv.Itoa(users / 2000),
	}})
	if err != nil {
		b.Fatal(err)
	}
	sink := &countSink{}
	run := Start(context.Background(), p, sink, RunOptions{})
	fmt.Fprintf(hs.in, "wait %d\n", users)
	held := make(chan string, 1)
	go func() {
		s, _ := hs.out.ReadString('\n')
		held <- strings.TrimSpace(s)
	}()
	select {
	case s := <-held:
		if s != "held" {
			b.Fatalf("hold server: %q", s)
		}
	case <-run.Done():
		b.Fatalf("%d users: the run ended before every request came: %d samples succeeded, %d failed",
			users, sink.ok.Load(), sink.failed.Load())
	case <-time.After(stuck):
		b.Fatalf("%d users: not every request came within %v: %d samples succeeded, %d failed",
			users, stuck, sink.ok.Load(), sink.failed.Load())
	}
	if thinking {
		// Every user has its sample once the collector has it; it is in
		// its pause a few instructions later.
		for t0 := time.Now(); sink.ok.Load()+sink.failed.Load() < int64(users); time.Sleep(10 * time.Millisecond) {
			if time.Since(t0) > stuck {
				b.Fatalf("%d users: %d samples within %v, want %d", users, sink.ok.Load()+sink.failed.Load(), stuck, users)
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
	if thinking {
		run.Stop(nil)
	}
	if err := run.Wait(); err != nil {
		b.Fatal(err)
	}
	if sink.ok.Load() != int64(users) || sink.failed.Load() != 0 {
		b.Fatalf("%d users: %d samples succeeded, %d failed", users, sink.ok.Load(), sink.failed.Load())
	}
	return m
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

// holdServerEnv, set, makes the test binary the hold server.
const holdServerEnv = "GOJM_HOLD_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(holdServerEnv) != "" {
		holdServerMain()
		return
	}
	os.Exit(m.Run())
}

// holdServerMain serves HTTP on a loopback port it prints, holding every
// request for /hold until released and answering others at once. It reads
// commands on its input: "wait N" answers "held" once N requests have
// come; "release" answers every held request (and counts from zero
// again). It ends when its input does.
func holdServerMain() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var (
		mu      sync.Mutex
		release = make(chan struct{})
		held    atomic.Int64
		arrived = make(chan struct{}, 1)
	)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		ch := release
		held.Add(1)
		mu.Unlock()
		select {
		case arrived <- struct{}{}:
		default:
		}
		if r.URL.Path == "/hold" {
			<-ch
		}
		io.WriteString(w, "ok")
	})}
	go srv.Serve(ln)
	fmt.Println(ln.Addr())
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		cmd, arg, _ := strings.Cut(in.Text(), " ")
		switch cmd {
		case "wait":
			n, _ := strconv.ParseInt(arg, 10, 64)
			for held.Load() < n {
				<-arrived
			}
			fmt.Println("held")
		case "release":
			mu.Lock()
			ch := release
			release = make(chan struct{})
			held.Store(0)
			mu.Unlock()
			close(ch)
		}
	}
}
