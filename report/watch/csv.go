package watch

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// csvHeader names server.csv's columns. CPU percentages are of one core
// (a process using two cores fully shows 200) over the interval_s seconds
// that end at the row's time (the tick's real length: a late tick is
// longer); fds is empty when the process's fd directory is not readable;
// state is "running" or, once, "gone" for a process that exited.
const csvHeader = "timestamp_ms,elapsed_s,interval_s,pid,name,cpu_user_pct,cpu_sys_pct,cpu_pct," +
	"rss_bytes,threads,fds,load1,mem_available_bytes,state\n"

// row is one line of server.csv.
type row struct {
	unixMilli       int64
	elapsed         float64 // seconds since the watch began
	interval        float64 // seconds since the previous tick
	pid             int
	name            string
	userPct, sysPct float64
	rss             int64
	threads         int
	fds             int // -1: unknown
	load1           float64
	memAvailable    int64
	gone            bool
}

func (r *row) cpuPct() float64 { return r.userPct + r.sysPct }

// appendRow appends r as a CSV line to b.
func appendRow(b []byte, r *row) []byte {
	b = strconv.AppendInt(b, r.unixMilli, 10)
	b = append(b, ',')
	b = strconv.AppendFloat(b, r.elapsed, 'f', 3, 64)
	b = append(b, ',')
	b = strconv.AppendFloat(b, r.interval, 'f', 3, 64)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(r.pid), 10)
	b = append(b, ',')
	b = appendCSVField(b, r.name)
	b = append(b, ',')
	b = strconv.AppendFloat(b, r.userPct, 'f', 2, 64)
	b = append(b, ',')
	b = strconv.AppendFloat(b, r.sysPct, 'f', 2, 64)
	b = append(b, ',')
	b = strconv.AppendFloat(b, r.cpuPct(), 'f', 2, 64)
	b = append(b, ',')
	b = strconv.AppendInt(b, r.rss, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(r.threads), 10)
	b = append(b, ',')
	if r.fds >= 0 {
		b = strconv.AppendInt(b, int64(r.fds), 10)
	}
	b = append(b, ',')
	b = strconv.AppendFloat(b, r.load1, 'f', 2, 64)
	b = append(b, ',')
	b = strconv.AppendInt(b, r.memAvailable, 10)
	if r.gone {
		b = append(b, ",gone\n"...)
	} else {
		b = append(b, ",running\n"...)
	}
	return b
}

// appendCSVField appends s, quoted as RFC 4180 wants when it holds a comma,
// a quote, a line break or surrounding spaces (process names may).
func appendCSVField(b []byte, s string) []byte {
	if !strings.ContainsAny(s, ",\"\r\n") && strings.TrimSpace(s) == s {
		return append(b, s...)
	}
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			b = append(b, '"')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}

// Series is a server.csv read back, in the shape a chart draws: the watched
// processes' CPU and memory at each tick, all together and one by one, with
// the machine's figures and the summary a live watch would have printed.
type Series struct {
	// Start is the wall time of offset 0, when the watch began.
	Start time.Time
	// Total holds, per tick, the sums over the processes running at it.
	Total ProcSeries
	// Procs holds one series per process, in order of first appearance.
	Procs []ProcSeries
	// Load1 and MemAvailable (bytes) are the machine's, at Total.Offsets.
	Load1, MemAvailable []float64
	// Summary is the end-of-run summary of these samples.
	Summary Summary
}

// ProcSeries is one line of the chart: values at time offsets.
type ProcSeries struct {
	PID  int // 0 for the total
	Name string
	// Offsets are seconds since Series.Start, each the end of a tick.
	Offsets []float64
	// CPU is the percentage of one core used in the tick ending at Offsets[i].
	CPU []float64
	// RSS is the resident set size in bytes at Offsets[i].
	RSS []float64
	// Gone is the offset at which the process was found gone, 0 if never.
	Gone float64
}

// Duration is the offset of the last tick, in seconds.
func (s Series) Duration() float64 {
	if n := len(s.Total.Offsets); n > 0 {
		return s.Total.Offsets[n-1]
	}
	return 0
}

// ReadServerCSV reads a server.csv written by a Watcher. Its columns:
// timestamp_ms, elapsed_s (since the watch began), interval_s (the tick's
// length), pid, name (comm), cpu_user_pct, cpu_sys_pct, cpu_pct (percent of
// one core over the interval), rss_bytes, threads, fds (empty when not
// readable), load1, mem_available_bytes (the machine's), and state
// ("running", or "gone" once for a process that exited).
func ReadServerCSV(path string) (Series, error) {
	f, err := os.Open(path)
	if err != nil {
		return Series{}, fmt.Errorf("watch: %w", err)
	}
	defer f.Close()
	s, err := DecodeServerCSV(f)
	if err != nil {
		return Series{}, fmt.Errorf("watch: %s: %w", path, err)
	}
	return s, nil
}

// DecodeServerCSV reads server.csv rows from r. Columns are found by their
// header names, so files with extra columns still read.
func DecodeServerCSV(r io.Reader) (Series, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err == io.EOF {
		return Series{}, errors.New("empty file: no header")
	}
	if err != nil {
		return Series{}, err
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.TrimSpace(h)] = i
	}
	for _, need := range []string{"timestamp_ms", "elapsed_s", "pid", "name", "cpu_user_pct", "cpu_sys_pct", "rss_bytes", "state"} {
		if _, ok := col[need]; !ok {
			return Series{}, fmt.Errorf("no %q column in the header", need)
		}
	}
	var rows []row
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return Series{}, err
		}
		line, _ := cr.FieldPos(0)
		r, err := parseRow(rec, col)
		if err == nil && len(rows) > 0 && r.elapsed < rows[len(rows)-1].elapsed {
			err = fmt.Errorf("elapsed_s goes back from %.3f to %.3f", rows[len(rows)-1].elapsed, r.elapsed)
		}
		if err != nil {
			return Series{}, fmt.Errorf("line %d: %w", line, err)
		}
		rows = append(rows, r)
	}
	return seriesOf(rows), nil
}

func parseRow(rec []string, col map[string]int) (row, error) {
	raw := func(name string) string {
		if i, ok := col[name]; ok && i < len(rec) {
			return rec[i]
		}
		return ""
	}
	get := func(name string) string { return strings.TrimSpace(raw(name)) }
	var r row
	var err error
	num := func(name string, opt bool) float64 {
		v := get(name)
		if v == "" && opt {
			return -1
		}
		f, e := strconv.ParseFloat(v, 64)
		if (e != nil || math.IsNaN(f) || math.IsInf(f, 0)) && err == nil {
			err = fmt.Errorf("column %s: %q is not a number", name, v)
		}
		return f
	}
	r.unixMilli = int64(num("timestamp_ms", false))
	r.elapsed = num("elapsed_s", false)
	r.interval = num("interval_s", true)
	r.pid = int(num("pid", false))
	r.name = raw("name") // as written: names may have spaces
	r.userPct = num("cpu_user_pct", false)
	r.sysPct = num("cpu_sys_pct", false)
	r.rss = int64(num("rss_bytes", false))
	r.threads = int(num("threads", true))
	r.fds = int(num("fds", true))
	r.load1 = num("load1", true)
	r.memAvailable = int64(num("mem_available_bytes", true))
	switch st := get("state"); st {
	case "running":
	case "gone":
		r.gone = true
	default:
		return r, fmt.Errorf("state %q is neither running nor gone", st)
	}
	return r, err
}

// seriesOf groups rows into ticks (consecutive rows with the same elapsed
// time) and builds the series and the summary.
func seriesOf(rows []row) Series {
	var s Series
	s.Total.Name = "total"
	if len(rows) == 0 {
		acc := newAccumulator()
		s.Summary = acc.summary()
		return s
	}
	s.Start = time.UnixMilli(rows[0].unixMilli - int64(rows[0].elapsed*1000+0.5))

	// A file without interval_s: each tick's interval is the gap to the
	// previous tick, except after ticks that wrote no row (nothing was
	// watched then), where the usual gap is the better guess.
	var gaps []float64
	prev := 0.0
	for i, r := range rows {
		if i == 0 || r.elapsed != rows[i-1].elapsed {
			gaps = append(gaps, r.elapsed-prev)
			prev = r.elapsed
		}
	}
	sorted := slices.Clone(gaps)
	slices.Sort(sorted)
	usual := sorted[len(sorted)/2]

	acc := newAccumulator()
	index := map[int]int{} // pid → position in s.Procs while running
	tick := -1
	for i := range rows {
		r := &rows[i]
		if i == 0 || r.elapsed != rows[i-1].elapsed {
			if i > 0 {
				acc.endTick(rows[i-1].elapsed, machine{rows[i-1].load1, rows[i-1].memAvailable})
				s.closeTick()
			}
			tick++
			s.Total.Offsets = append(s.Total.Offsets, r.elapsed)
			s.Total.CPU = append(s.Total.CPU, 0)
			s.Total.RSS = append(s.Total.RSS, 0)
			s.Load1 = append(s.Load1, r.load1)
			s.MemAvailable = append(s.MemAvailable, float64(r.memAvailable))
		}
		dt := r.interval
		if dt < 0 {
			dt = gaps[tick]
			if dt > 1.5*usual {
				dt = usual
			}
		}
		acc.add(r, dt)
		at, ok := index[r.pid]
		if r.gone {
			if ok {
				s.Procs[at].Gone = r.elapsed
				delete(index, r.pid)
			}
			continue
		}
		if !ok {
			at = len(s.Procs)
			index[r.pid] = at
			s.Procs = append(s.Procs, ProcSeries{PID: r.pid, Name: r.name})
		}
		p := &s.Procs[at]
		p.Offsets = append(p.Offsets, r.elapsed)
		p.CPU = append(p.CPU, r.cpuPct())
		p.RSS = append(p.RSS, float64(r.rss))
		last := len(s.Total.CPU) - 1
		s.Total.CPU[last] += r.cpuPct()
		s.Total.RSS[last] += float64(r.rss)
	}
	last := rows[len(rows)-1]
	acc.endTick(last.elapsed, machine{last.load1, last.memAvailable})
	s.closeTick()
	s.Summary = acc.summary()
	return s
}

// closeTick drops the last tick from the totals when it held only "gone"
// rows: a total of zero there would draw a false dip.
func (s *Series) closeTick() {
	n := len(s.Total.Offsets) - 1
	t := s.Total.Offsets[n]
	for _, p := range s.Procs {
		if k := len(p.Offsets); k > 0 && p.Offsets[k-1] == t {
			return
		}
	}
	s.Total.Offsets = s.Total.Offsets[:n]
	s.Total.CPU = s.Total.CPU[:n]
	s.Total.RSS = s.Total.RSS[:n]
	s.Load1 = s.Load1[:n]
	s.MemAvailable = s.MemAvailable[:n]
}
