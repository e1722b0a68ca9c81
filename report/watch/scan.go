package watch

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
)

// How often the sampler reads the stat file of processes it is not
// watching. Every tick lists /proc and reads every watched process and
// every new one; a process is also read on each of its first youngTicks
// ticks (a fork that execs the watched program changes its name then), and
// every process is read again every fullEvery ticks (to catch a late exec or
// a process adopted into a watched tree). So the cost of a tick grows with
// the watched processes, not with the machine's.
const (
	youngTicks = 3
	fullEvery  = 10
)

// proc is what the sampler remembers about one process between ticks.
// Every process on the machine has one (to know parents); only watched ones
// produce rows.
type proc struct {
	pid, ppid int
	start     uint64 // start time after boot, in clock ticks: with pid, its identity
	comm      string
	argv0     string // base name of argv[0] (only read when names are watched)
	argv0Word string // base name of argv[0]'s first word
	threads   int
	rssPages  int64

	// CPU counters in clock ticks at the last read (never decreasing: a
	// zombie may report less than the live process did) and at the read
	// before it, with the scan epochs of both reads.
	u, s, cu, cs                 uint64
	prevU, prevS, prevCU, prevCS uint64
	readEpoch, prevEpoch         uint32
	// debtU/S is CPU time of reaped children that was already seen in
	// them (counted while they were watched, or spent before); it is taken
	// off the next rises of cu/cs so nothing is counted twice.
	debtU, debtS uint64

	dead     bool   // a zombie: exited, not yet reaped
	young    int    // reads left before it is only read when watched or in a full scan
	seen     uint32 // scan epoch at which it was last listed
	mark     uint32 // scan epoch for which watched is decided
	watched  bool
	visiting bool
	wasWatch bool   // watched at the previous tick
	rootPID  bool   // is a live PID target (set during markWatched)
	selfLine uint32 // scan epoch at which it was this process or an ancestor
}

// sample is one process's figures over one tick.
type sample struct {
	pid             int
	name            string
	userTicks       float64 // CPU clock ticks in user mode during the tick
	sysTicks        float64
	rss             int64
	threads         int
	fds             int // -1 when the fd directory is not readable
	gone            bool
	userPct, sysPct float64 // filled by the watcher
}

// pidTarget is a process given by PID, pinned to its start time so that a
// recycled PID is not mistaken for it.
type pidTarget struct {
	pid   int
	start uint64
	gone  bool
}

// sampler reads /proc. It is used by one goroutine only.
type sampler struct {
	dir      procDir
	clkTck   int64
	pageSize int64
	self     int
	pids     []pidTarget
	names    []string

	procs   map[int]*proc
	epoch   uint32
	listed  []int
	samples []sample
	stack   []*proc
	late    []*proc
	stat    statFields
	path    []byte
	buf     []byte
	dents   []byte
}

// parseTargets splits --watch values into PIDs and command names.
func parseTargets(targets []string) (pids []int, names []string, err error) {
	for _, t := range targets {
		t = strings.TrimSpace(t)
		if t == "" {
			return nil, nil, fmt.Errorf("watch: empty target")
		}
		if n, err := strconv.Atoi(t); err == nil {
			if n <= 0 {
				return nil, nil, fmt.Errorf("watch: bad PID %q", t)
			}
			pids = append(pids, n)
			continue
		}
		names = append(names, t)
	}
	return pids, names, nil
}

func newSampler(root string, targets []string) (*sampler, error) {
	pids, names, err := parseTargets(targets)
	if err != nil {
		return nil, err
	}
	if len(pids)+len(names) == 0 {
		return nil, fmt.Errorf("watch: no target")
	}
	dir, err := openProcDir(root)
	if err != nil {
		return nil, ErrNoProc
	}
	s := &sampler{
		dir:      dir,
		pageSize: int64(os.Getpagesize()),
		self:     os.Getpid(),
		names:    names,
		procs:    make(map[int]*proc, 512),
		path:     make([]byte, 0, 64),
		buf:      make([]byte, 4096),
		dents:    make([]byte, 16<<10),
	}
	// Without loadavg and meminfo this is not Linux's /proc.
	if _, err := s.readMachine(); err != nil {
		dir.close()
		return nil, ErrNoProc
	}
	n, err := s.dir.readFile(s.pathOf(-1, "self/auxv"), s.buf)
	if err != nil {
		n = 0
	}
	s.clkTck = parseClkTck(s.buf[:n], strconv.IntSize/8)

	// The baseline scan: CPU counters from here on are deltas from it.
	if err := s.scan(true); err != nil {
		dir.close()
		return nil, err
	}
	for _, pid := range pids {
		p := s.procs[pid]
		if p == nil {
			dir.close()
			return nil, fmt.Errorf("watch: no process with PID %d", pid)
		}
		s.pids = append(s.pids, pidTarget{pid: pid, start: p.start})
	}
	s.markWatched()
	for _, p := range s.procs {
		p.wasWatch = p.watched
	}
	return s, nil
}

func (s *sampler) close() error { return s.dir.close() }

// pathOf builds "PID/name" (or just name when pid < 0) with a trailing NUL
// in the reused path buffer.
func (s *sampler) pathOf(pid int, name string) []byte {
	s.path = s.path[:0]
	if pid >= 0 {
		s.path = strconv.AppendInt(s.path, int64(pid), 10)
		s.path = append(s.path, '/')
	}
	s.path = append(s.path, name...)
	s.path = append(s.path, 0)
	return s.path
}

// machine holds the machine-wide figures of one tick.
type machine struct {
	load1        float64
	memAvailable int64
}

func (s *sampler) readMachine() (machine, error) {
	var m machine
	n, err := s.dir.readFile(s.pathOf(-1, "loadavg"), s.buf)
	if err != nil {
		return m, fmt.Errorf("watch: read /proc/loadavg: %w", err)
	}
	if m.load1, err = parseLoad1(s.buf[:n]); err != nil {
		return m, fmt.Errorf("watch: %w", err)
	}
	n, err = s.dir.readFile(s.pathOf(-1, "meminfo"), s.buf)
	if err != nil {
		return m, fmt.Errorf("watch: read /proc/meminfo: %w", err)
	}
	if m.memAvailable, err = parseMemAvailable(s.buf[:n]); err != nil {
		return m, fmt.Errorf("watch: %w", err)
	}
	return m, nil
}

// scan lists /proc, reads the processes that need reading (all of them in
// the baseline scan and every fullEvery ticks) and forgets those that
// exited.
func (s *sampler) scan(baseline bool) error {
	s.epoch++
	full := baseline || s.epoch%fullEvery == 0
	s.listed = s.listed[:0]
	err := s.dir.eachEntry(s.pathOf(-1, "."), s.dents, func(name []byte) {
		if pid := parsePID(name); pid > 0 {
			s.listed = append(s.listed, pid)
		}
	})
	if err != nil {
		return fmt.Errorf("watch: list /proc: %w", err)
	}
	for _, pid := range s.listed {
		p := s.procs[pid]
		if p != nil && !full && !p.wasWatch && p.young == 0 {
			p.seen = s.epoch // still there; not worth a read
			continue
		}
		s.read(pid, p, baseline)
	}
	for _, p := range s.procs {
		if p.seen != s.epoch {
			s.exited(p)
		}
	}
	return nil
}

// read reads /proc/PID/stat into p (nil: a process not seen before) and
// returns the process, or nil if it is gone.
func (s *sampler) read(pid int, p *proc, baseline bool) *proc {
	n, err := s.dir.readFile(s.pathOf(pid, "stat"), s.buf)
	f := &s.stat
	if err != nil || parseStat(s.buf[:n], f) != nil {
		return nil // exited: left unseen, so it is handled as gone
	}
	if p != nil && p.start != f.start {
		s.exited(p) // the PID was recycled
		p = nil
	}
	if p == nil {
		p = &proc{pid: pid, start: f.start, young: youngTicks}
		s.procs[pid] = p
		if baseline {
			// Counted from the baseline on, not from the process's birth.
			p.u, p.s, p.cu, p.cs = f.utime, f.stime, f.cutime, f.cstime
			p.young = 0
		}
		// Otherwise it was born after the previous listing: from zero.
		p.readEpoch = s.epoch - 1
	}
	if string(f.comm) != p.comm {
		p.comm = string(f.comm)
		p.argv0, p.argv0Word = "", "" // a new program: read argv[0] again
		if len(s.names) > 0 {
			s.readArgv0(p)
		}
	}
	p.ppid = f.ppid
	if f.state == 'Z' || f.state == 'X' {
		// A zombie: it has exited. Its counters stay at what was last
		// counted, so the rest reaches the parent's cutime when reaped.
		p.dead = true
		p.seen = s.epoch
		return p
	}
	p.threads = f.threads
	p.rssPages = f.rssPages
	p.prevU, p.prevS, p.prevCU, p.prevCS, p.prevEpoch = p.u, p.s, p.cu, p.cs, p.readEpoch
	p.u, p.s = max(p.u, f.utime), max(p.s, f.stime)
	p.cu, p.cs = max(p.cu, f.cutime), max(p.cs, f.cstime)
	p.readEpoch = s.epoch
	p.seen = s.epoch
	if p.young > 0 {
		p.young--
	}
	return p
}

func (s *sampler) readArgv0(p *proc) {
	n, err := s.dir.readFile(s.pathOf(p.pid, "cmdline"), s.buf[:1024])
	if err != nil || n == 0 {
		return
	}
	p.argv0, p.argv0Word = argv0Names(s.buf[:n])
}

// exited handles a process that is no longer in /proc: its parent finds
// all of its CPU time in cutime/cstime once it reaps it, and what was seen
// of it here is taken off that (see proc.debtU).
func (s *sampler) exited(p *proc) {
	if parent := s.procs[p.ppid]; parent != nil && parent != p {
		parent.debtU += p.u + p.cu
		parent.debtS += p.s + p.cs
	}
	if p.wasWatch {
		s.samples = append(s.samples, sample{pid: p.pid, name: p.comm, gone: true, fds: -1})
	}
	delete(s.procs, p.pid)
}

// matchesName reports whether a process runs one of the watched commands.
func (s *sampler) matchesName(p *proc) bool {
	for _, n := range s.names {
		if p.comm == n || p.argv0 == n || p.argv0Word == n {
			return true
		}
	}
	return false
}

// markWatched decides which processes are watched at this epoch: the PID
// targets, the processes matching a name, and all their descendants, and
// those watched at the previous tick that are still alive. This
// process (the load generator) is never watched unless its PID is given,
// and its ancestors never match a name.
func (s *sampler) markWatched() {
	for i := range s.pids {
		t := &s.pids[i]
		p := s.procs[t.pid]
		if t.gone || p == nil || p.start != t.start {
			t.gone = true
			continue
		}
		p.rootPID = true
	}
	if self := s.procs[s.self]; self != nil {
		for p, hops := self, 0; p != nil && hops < 4096; hops++ {
			p.selfLine = s.epoch
			if p.ppid == p.pid {
				break
			}
			p = s.procs[p.ppid]
		}
		if !self.rootPID {
			self.mark, self.watched = s.epoch, false
		}
	}
	for _, p := range s.procs {
		s.decide(p)
	}
}

// decide computes p.watched by walking up the parent links (iteratively,
// remembering the answer for every process on the way).
func (s *sampler) decide(p *proc) bool {
	s.stack = s.stack[:0]
	watched := false
	for q := p; ; {
		if q.mark == s.epoch {
			watched = q.watched
			break
		}
		if q.dead {
			watched = false // a zombie is gone already
			q.mark, q.watched = s.epoch, false
			break
		}
		// Once watched, a process stays watched until it exits (a
		// daemon's workers stay watched when its launcher exits).
		if q.rootPID || q.wasWatch || (q.selfLine != s.epoch && s.matchesName(q)) {
			watched = true
			q.mark, q.watched = s.epoch, true
			break
		}
		s.stack = append(s.stack, q)
		q.visiting = true
		parent := s.procs[q.ppid]
		if parent == nil || parent.visiting || len(s.stack) > 4096 {
			break
		}
		q = parent
	}
	for _, q := range s.stack {
		q.visiting = false
		q.mark, q.watched = s.epoch, watched
	}
	return watched
}

// collect turns the counters of watched processes into samples (appended
// after any "gone" samples the scan produced), ordered by PID.
func (s *sampler) collect() []sample {
	// A process that became watched without being read this tick (a
	// descendant of a process that now matches) is read now.
	s.late = s.late[:0]
	for _, p := range s.procs {
		if p.watched && p.readEpoch != s.epoch {
			s.late = append(s.late, p)
		}
	}
	for _, p := range s.late {
		if s.read(p.pid, p, false) == nil {
			s.exited(p)
		}
	}
	for _, p := range s.procs {
		p.rootPID = false // set afresh by the next markWatched
		if p.dead && p.wasWatch {
			// Exited; its parent has not reaped it yet.
			s.samples = append(s.samples, sample{pid: p.pid, name: p.comm, gone: true, fds: -1})
		}
		p.wasWatch = p.watched
		if p.readEpoch != s.epoch {
			continue // not read this tick: nothing new
		}
		dU, dS := p.u-p.prevU, p.s-p.prevS
		dCU, dCS := p.cu-p.prevCU, p.cs-p.prevCS
		p.prevU, p.prevS, p.prevCU, p.prevCS = p.u, p.s, p.cu, p.cs // counted once
		span := float64(max(1, p.readEpoch-p.prevEpoch))
		p.prevEpoch = p.readEpoch
		// Settle reaped children's debt, watched or not, so it does not
		// outlive the rise of cutime/cstime it stands for.
		payU, payS := min(dCU, p.debtU), min(dCS, p.debtS)
		dCU, dCS = dCU-payU, dCS-payS
		p.debtU, p.debtS = p.debtU-payU, p.debtS-payS
		if !p.watched {
			continue
		}
		// Counters last read several ticks ago (the process was not
		// watched then) are spread evenly over those ticks.
		s.samples = append(s.samples, sample{
			pid:       p.pid,
			name:      p.comm,
			userTicks: float64(dU+dCU) / span,
			sysTicks:  float64(dS+dCS) / span,
			rss:       p.rssPages * s.pageSize,
			threads:   p.threads,
			fds:       s.countFDs(p.pid),
		})
	}
	slices.SortFunc(s.samples, func(a, b sample) int { return a.pid - b.pid })
	return s.samples
}

// countFDs counts the entries of /proc/PID/fd, or returns -1 when they
// cannot be read (another user's process).
func (s *sampler) countFDs(pid int) int {
	n := 0
	err := s.dir.eachEntry(s.pathOf(pid, "fd"), s.dents, func(name []byte) {
		if string(name) != "." && string(name) != ".." {
			n++
		}
	})
	if err != nil {
		return -1
	}
	return n
}

// tick scans /proc once and returns the samples of watched processes,
// ordered by PID; the slice is reused by the next tick.
func (s *sampler) tick() ([]sample, machine, error) {
	s.samples = s.samples[:0]
	if err := s.scan(false); err != nil {
		return nil, machine{}, err
	}
	s.markWatched()
	samples := s.collect()
	m, err := s.readMachine()
	return samples, m, err
}
