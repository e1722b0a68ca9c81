package watch

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// ProcSummary sums up one watched process, or all of them together
// (Summary.Total: per-tick sums, so its peak is the peak of the sum).
// CPU percentages are of one core: 100 is one core busy for the whole tick.
type ProcSummary struct {
	PID  int // 0 for the total
	Name string
	// Ticks is how many ticks found it running.
	Ticks int
	// MeanCPU and PeakCPU are over its ticks, in percent of one core.
	MeanCPU, PeakCPU float64
	// CPUSeconds is the CPU time it used while watched (user + system).
	CPUSeconds, UserSeconds, SysSeconds float64
	// PeakRSS is the largest resident set size seen, in bytes; for the
	// total it is the largest sum over processes at one tick (pages shared
	// between processes counted in each).
	PeakRSS int64
	// PeakThreads and PeakFDs are the largest seen (-1: fds never
	// readable); for the total, the largest sums at one tick.
	PeakThreads, PeakFDs int
	// Gone says it exited while watched; for the total, how many did is in
	// Summary.Gone.
	Gone bool
}

// Summary sums up a watch: each process, all of them, and the machine.
type Summary struct {
	// Duration is how long the watch sampled.
	Duration time.Duration
	// Total is all watched processes together.
	Total ProcSummary
	// Procs holds one entry per process, in order of first appearance.
	Procs []ProcSummary
	// Gone counts the processes that exited while watched.
	Gone int
	// PeakLoad1 is the machine's highest one-minute load average seen.
	PeakLoad1 float64
	// MinMemAvailable is the machine's lowest MemAvailable seen, in bytes
	// (-1 when no tick was taken).
	MinMemAvailable int64
}

// RequestsPerCPUSecond is requests served per second of the watched
// processes' CPU time: the figure that decides a deployment comparison.
// It is 0 when no CPU time was measured.
func (s Summary) RequestsPerCPUSecond(requests int64) float64 {
	if s.Total.CPUSeconds <= 0 {
		return 0
	}
	return float64(requests) / s.Total.CPUSeconds
}

// accumulator builds a Summary from rows, tick by tick; the live watcher
// and the CSV reader feed it alike, so both give the same figures.
type accumulator struct {
	index map[int]int // pid → position in procs while it runs
	procs []procAcc
	total procAcc
	// the tick being added
	cpu          float64
	rss          int64
	threads, fds int
	running      int

	duration float64
	peakLoad float64
	minMem   int64
	gone     int
}

type procAcc struct {
	ProcSummary
	sumCPU float64
}

func newAccumulator() accumulator {
	return accumulator{
		index:  map[int]int{},
		total:  procAcc{ProcSummary: ProcSummary{Name: "total", PeakFDs: -1}},
		minMem: -1,
		fds:    -1,
	}
}

// add takes one row covering dt seconds.
func (a *accumulator) add(r *row, dt float64) {
	at, ok := a.index[r.pid]
	if r.gone {
		if ok {
			a.procs[at].Gone = true
			delete(a.index, r.pid)
			a.gone++
		}
		return
	}
	if !ok {
		at = len(a.procs)
		a.index[r.pid] = at
		a.procs = append(a.procs, procAcc{ProcSummary: ProcSummary{PID: r.pid, PeakFDs: -1}})
	}
	p := &a.procs[at]
	p.Name = r.name
	cpu := r.cpuPct()
	user, sys := r.userPct*dt/100, r.sysPct*dt/100
	p.observe(cpu, user, sys, r.rss)
	p.PeakThreads = max(p.PeakThreads, r.threads)
	p.PeakFDs = max(p.PeakFDs, r.fds)

	a.cpu += cpu
	a.rss += r.rss
	a.threads += r.threads
	if r.fds >= 0 {
		a.fds = max(a.fds, 0) + r.fds
	}
	a.running++
	a.total.UserSeconds += user
	a.total.SysSeconds += sys
}

func (p *procAcc) observe(cpu, user, sys float64, rss int64) {
	p.Ticks++
	p.sumCPU += cpu
	p.PeakCPU = max(p.PeakCPU, cpu)
	p.UserSeconds += user
	p.SysSeconds += sys
	p.PeakRSS = max(p.PeakRSS, rss)
}

// endTick closes the tick that ended elapsed seconds after the start.
func (a *accumulator) endTick(elapsed float64, m machine) {
	a.duration = elapsed
	if a.running == 0 {
		return
	}
	t := &a.total
	t.Ticks++
	t.sumCPU += a.cpu
	t.PeakCPU = max(t.PeakCPU, a.cpu)
	t.PeakRSS = max(t.PeakRSS, a.rss)
	t.PeakThreads = max(t.PeakThreads, a.threads)
	t.PeakFDs = max(t.PeakFDs, a.fds)
	a.peakLoad = max(a.peakLoad, m.load1)
	if a.minMem < 0 || (m.memAvailable >= 0 && m.memAvailable < a.minMem) {
		a.minMem = m.memAvailable
	}
	a.cpu, a.rss, a.threads, a.fds, a.running = 0, 0, 0, -1, 0
}

func (a *accumulator) summary() Summary {
	s := Summary{
		Duration:        time.Duration(a.duration * float64(time.Second)),
		Gone:            a.gone,
		PeakLoad1:       a.peakLoad,
		MinMemAvailable: a.minMem,
	}
	finish := func(p procAcc) ProcSummary {
		if p.Ticks > 0 {
			p.MeanCPU = p.sumCPU / float64(p.Ticks)
		}
		p.CPUSeconds = p.UserSeconds + p.SysSeconds
		return p.ProcSummary
	}
	s.Total = finish(a.total)
	s.Procs = make([]ProcSummary, len(a.procs))
	for i, p := range a.procs {
		s.Procs[i] = finish(p)
	}
	return s
}

// maxProcLines is how many processes WriteSummary lists (the busiest).
const maxProcLines = 10

// WriteSummary writes the end report's block about the watched processes,
// in the ab-style report's layout; requests is the number of requests the
// run completed, for requests per CPU-second.
func WriteSummary(w io.Writer, s Summary, requests int64) error {
	var b strings.Builder
	line := func(label, format string, args ...any) {
		fmt.Fprintf(&b, "%-26s%s\n", label+":", fmt.Sprintf(format, args...))
	}
	b.WriteString("Server (watched processes)\n")
	if len(s.Procs) == 0 {
		b.WriteString("No watched process was seen running.\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	t := s.Total
	line("Processes", "%d (%d gone)", len(s.Procs), s.Gone)
	line("Watched for", "%.1f seconds", s.Duration.Seconds())
	line("CPU (100% = one core)", "mean %.1f%%, peak %.1f%%", t.MeanCPU, t.PeakCPU)
	line("CPU time", "%.2f seconds (user %.2f, system %.2f)", t.CPUSeconds, t.UserSeconds, t.SysSeconds)
	line("Peak RSS", "%s (sum over processes)", formatBytes(t.PeakRSS))
	if rps := s.RequestsPerCPUSecond(requests); rps > 0 {
		line("Requests per CPU-second", "%.1f (%d requests)", rps, requests)
	} else {
		line("Requests per CPU-second", "n/a (%d requests, %.2f CPU seconds)", requests, t.CPUSeconds)
	}
	line("Peak threads", "%d (sum over processes)", t.PeakThreads)
	if t.PeakFDs >= 0 {
		line("Peak open files", "%d (sum over processes)", t.PeakFDs)
	}
	line("Machine load (1 min)", "peak %.2f", s.PeakLoad1)
	if s.MinMemAvailable >= 0 {
		line("Machine MemAvailable", "lowest %s", formatBytes(s.MinMemAvailable))
	}
	procs := slices.Clone(s.Procs)
	slices.SortStableFunc(procs, func(a, b ProcSummary) int {
		switch {
		case a.CPUSeconds > b.CPUSeconds:
			return -1
		case a.CPUSeconds < b.CPUSeconds:
			return 1
		}
		return 0
	})
	b.WriteString("\n    PID  Name             Mean CPU  Peak CPU     CPU s    Peak RSS\n")
	for i, p := range procs {
		if i == maxProcLines {
			fmt.Fprintf(&b, "  (%d more)\n", len(procs)-maxProcLines)
			break
		}
		name := p.Name
		if p.Gone {
			name += " (gone)"
		}
		fmt.Fprintf(&b, "%7d  %-15s %8.1f%% %8.1f%% %9.2f %11s\n",
			p.PID, name, p.MeanCPU, p.PeakCPU, p.CPUSeconds, formatBytes(p.PeakRSS))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// formatBytes writes a byte count in binary units.
func formatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, suffix := float64(n), ""
	for _, s := range []string{"KiB", "MiB", "GiB", "TiB"} {
		v /= unit
		suffix = s
		if v < unit {
			break
		}
	}
	return fmt.Sprintf("%.1f %s", v, suffix)
}
