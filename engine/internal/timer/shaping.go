package timer

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/function"
	"github.com/gojm/gojm/jmx"
)

// shapingTimer is jmeter-plugins' Throughput Shaping Timer
// (kg.apc.jmeter.timers.VariableThroughputTimer): one schedule of samples
// per second shared by every thread it applies to, whatever their group.
// Its rows (load_profile: start RPS, end RPS, duration in seconds; the
// JMeter property load_profile, "const(rps, dur) line(from, to, dur)
// step(from, to, inc, dur) …", replaces them) give each second s of the
// schedule its rate, fixed at the start of the second: from + s·(to −
// from)/duration within the row s falls in (a row's last second included).
// The schedule starts at the whole second of its first sample. Within a
// second the k-th sample is due k/rate into it; a sample that finds its
// second's turns taken waits for the next second's, and turns a second
// did not use are lost (no catching up), as in the plugin. gojm hands the
// turns out in order; the plugin's waiting threads poll, so its samples
// bunch more. When the schedule is over, the threads reaching the timer
// stop and their thread group is stopped (the plugin escalates to stopping
// the test if the threads do not stop). Each second it sets the properties
// <name>_rps, <name>_cntSent, <name>_cntDelayed and <name>_totalDuration,
// which ${__tstFeedback(…)} reads.
type shapingTimer struct {
	name  string
	rows  [][3]*element.Template
	state *element.Shared[shaping]
}

func BuildShaping(c element.Builder, e *jmx.Element) (element.Timer, error) {
	t := &shapingTimer{name: e.Name}
	t.state = element.NewShared(c.Plan(), func(vu *element.VU) *shaping {
		s := &shaping{name: t.name, props: vu.Plan.Props}
		s.rows, s.err = t.profile(vu)
		for _, r := range s.rows {
			s.total += r.dur
		}
		return s
	})
	for i, cells := range e.Prop("load_profile").Table(3) {
		if len(cells) < 3 {
			return nil, fmt.Errorf("load_profile row %d has %d columns, want 3 (start RPS, end RPS, duration)", i+1, len(cells))
		}
		var r [3]*element.Template
		for j := range r {
			r[j] = c.Template(e, "load_profile", cells[j].Value)
		}
		t.rows = append(t.rows, r)
	}
	return t, nil
}

// shapeRow is one row of the schedule.
type shapeRow struct {
	from, to float64
	dur      int64
}

// shaping is a Throughput Shaping Timer's schedule in one run.
type shaping struct {
	mu    sync.Mutex
	name  string
	props *element.Props
	rows  []shapeRow
	total int64
	err   error
	start time.Time // the schedule's second 0
	cur   int64     // the second whose turns are being handed out
	cnt   int64     // turns handed out in cur
	rps   float64   // cur's rate; < 0 past the schedule
	// turns handed out and not yet reached, in order, from pending[head]
	pending []time.Time
	head    int
	warned  bool
}

// rate is the schedule's rate in second s; -1 past its end.
func (s *shaping) rate(sec int64) float64 {
	left := float64(sec)
	for _, r := range s.rows {
		if r.dur <= 0 {
			continue
		}
		if left-float64(r.dur) <= 0 {
			return r.from + left*(r.to-r.from)/float64(r.dur)
		}
		left -= float64(r.dur)
	}
	return -1
}

func (s *shaping) second(n int64) time.Time { return s.start.Add(time.Duration(n) * time.Second) }

// enter moves to second n, publishing the properties for the second left.
func (s *shaping) enter(n int64, now time.Time) {
	sent := s.cnt
	s.cur, s.cnt, s.rps = n, 0, s.rate(n)
	s.trim(now)
	waiting := len(s.pending) - s.head
	set := func(k, v string) { s.props.Set(s.name+k, v) }
	set("_totalDuration", strconv.FormatInt(s.total, 10))
	set("_cntDelayed", strconv.Itoa(waiting))
	set("_cntSent", strconv.FormatInt(sent, 10))
	set("_rps", strconv.FormatFloat(max(s.rps, 0), 'f', -1, 64))
}

// turn hands out the next turn at or after now; ok is false past the
// schedule, whose end is then returned.
func (s *shaping) turn(now time.Time) (at time.Time, ok bool, lacking bool) {
	if s.start.IsZero() {
		s.start = now.Truncate(time.Second)
		s.enter(0, now)
	}
	if sec := int64(now.Sub(s.start) / time.Second); sec > s.cur {
		s.trim(now)
		lacking = s.head == len(s.pending) && s.rps > 0
		s.enter(sec, now)
	}
	s.trim(now)
	for {
		if s.rps < 0 {
			return s.second(s.cur), false, lacking
		}
		if s.rps > 0 {
			due := s.second(s.cur).Add(time.Duration(float64(s.cnt) * float64(time.Second) / s.rps))
			if due.Before(s.second(s.cur + 1)) {
				s.cnt++
				if due.Before(now) {
					due = now
				}
				s.pending = append(s.pending, due)
				return due, true, lacking
			}
		}
		s.enter(s.cur+1, now)
	}
}

// trim forgets the turns that have come.
func (s *shaping) trim(now time.Time) {
	for s.head < len(s.pending) && !s.pending[s.head].After(now) {
		s.head++
	}
	if s.head > 0 && s.head >= len(s.pending)/2 {
		// keep the queue as long as the turns waiting, not the run
		n := copy(s.pending, s.pending[s.head:])
		s.pending, s.head = s.pending[:n], 0
	}
}

// errShapingEnded is the cause when a Throughput Shaping Timer's schedule ends.
var errShapingEnded = errors.New("the Throughput Shaping Timer's schedule ended")

func (t *shapingTimer) Delay(vu *element.VU) time.Duration {
	s := t.state.Get(vu)
	now := vu.Now()
	s.mu.Lock()
	if s.err != nil {
		err := s.err
		s.mu.Unlock()
		vu.Log.Error("Throughput Shaping Timer "+t.name+": "+err.Error()+": the thread stops", "thread", vu.Name)
		vu.StopThread()
		return 0
	}
	at, ok, lacking := s.turn(now)
	warn := lacking && !s.warned
	if warn {
		s.warned = true
	}
	s.mu.Unlock()
	if warn {
		vu.Log.Warn("Throughput Shaping Timer "+t.name+": no thread was waiting for its turn, the rate may not be reached: add threads", "group", vu.Group.Name)
	}
	if ok {
		return at.Sub(now)
	}
	// Past the schedule: wait for its end, then stop this thread's group.
	if d := at.Sub(now); d > 0 && !vu.Sleep(d) {
		return 0
	}
	vu.StopThread()
	vu.Group.Stop(errShapingEnded)
	return 0
}

// profile evaluates the rows, or the load_profile property.
func (t *shapingTimer) profile(vu *element.VU) ([]shapeRow, error) {
	if p, ok := vu.Plan.Props.Get("load_profile"); ok && strings.TrimSpace(p) != "" {
		rows, err := loadProfileRows(p)
		if err != nil {
			return nil, fmt.Errorf("property load_profile: %w", err)
		}
		return rows, nil
	}
	var rows []shapeRow
	var errs []error
	for i, r := range t.rows {
		var row shapeRow
		var err error
		txt := func(j int) string { return strings.TrimSpace(r[j].Eval(vu)) }
		if row.from, err = strconv.ParseFloat(txt(0), 64); err != nil {
			errs = append(errs, fmt.Errorf("row %d start RPS %q is not a number", i+1, txt(0)))
		}
		if row.to, err = strconv.ParseFloat(txt(1), 64); err != nil {
			errs = append(errs, fmt.Errorf("row %d end RPS %q is not a number", i+1, txt(1)))
		}
		if row.dur, err = strconv.ParseInt(txt(2), 10, 64); err != nil {
			errs = append(errs, fmt.Errorf("row %d duration %q is not a whole number of seconds", i+1, txt(2)))
		}
		rows = append(rows, row)
	}
	return rows, errors.Join(errs...)
}

// loadProfileRows parses the load_profile property.
func loadProfileRows(s string) ([]shapeRow, error) {
	var rows []shapeRow
	for _, chunk := range strings.Split(s, ")") {
		if strings.TrimSpace(chunk) == "" {
			continue
		}
		parts := strings.FieldsFunc(chunk, func(r rune) bool { return r == '(' || r == ',' })
		bad := fmt.Errorf("%q is not const(rps, duration), line(from, to, duration) or step(from, to, increment, duration)", strings.TrimSpace(chunk)+")")
		if len(parts) < 3 {
			return nil, bad
		}
		nums := make([]int64, len(parts)-2)
		for i, p := range parts[1 : len(parts)-1] {
			n, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
			if err != nil {
				return nil, bad
			}
			nums[i] = n
		}
		dur, err := element.PluginSeconds(parts[len(parts)-1])
		if err != nil {
			return nil, err
		}
		switch kind := strings.ToLower(strings.TrimSpace(parts[0])); {
		case kind == "const" && len(nums) == 1:
			rows = append(rows, shapeRow{float64(nums[0]), float64(nums[0]), dur})
		case kind == "line" && len(nums) == 2:
			rows = append(rows, shapeRow{float64(nums[0]), float64(nums[1]), dur})
		case kind == "step" && len(nums) == 3:
			from, to, inc := nums[0], nums[1], nums[2]
			if inc <= 0 {
				return nil, fmt.Errorf("step(%d, %d, %d, …): the increment must be positive", from, to, inc)
			}
			if from > to {
				for n := from; n > to; n -= inc {
					rows = append(rows, shapeRow{float64(n), float64(n), dur})
				}
			} else {
				for n := from; n <= to; n += inc {
					rows = append(rows, shapeRow{float64(n), float64(n), dur})
				}
			}
		default:
			return nil, bad
		}
	}
	return rows, nil
}

// ${__tstFeedback(timer, start, max, spare)}: the number of threads a
// Concurrency Thread Group needs to keep up with the named Throughput
// Shaping Timer, from the properties the timer sets each second. It starts
// at start; when the timer's threads could not send the rate, it grows to
// ceil(n·(2 − sent/rps)) (at most max); when more threads than the spare
// ratio (< 1: a share of n; ≥ 1: a count) were waiting, it shrinks. Each
// second's figures are used once.
func TSTFeedback(tp *function.Compiler, args []*element.Template) (element.Function, error) {
	type state struct {
		mu      sync.Mutex
		started bool
	}
	if tp.Runtime() {
		return nil, errors.New("__tstFeedback cannot be built while the plan runs")
	}
	shared := element.NewShared(tp.Plan(), func(*element.VU) *state { return &state{} }) // this call's own state in each run
	return element.FuncFunc(func(vu *element.VU) string {
		st := shared.Get(vu)
		st.mu.Lock()
		defer st.mu.Unlock()
		props := vu.Plan.Props
		name := args[0].Eval(vu)
		concName := name + "_concurrency"
		if !st.started {
			props.Set(concName, args[1].Eval(vu))
			st.started = true
		}
		limit := math.MaxInt32
		if len(args) > 2 {
			if n, err := strconv.Atoi(args[2].Eval(vu)); err == nil {
				limit = n
			}
		}
		spare := 0.1
		if len(args) > 3 {
			f, err := strconv.ParseFloat(strings.TrimSpace(args[3].Eval(vu)), 64)
			if err != nil {
				f = 1
			}
			spare = f
		}
		prop := func(k, def string) string {
			if v, ok := props.Get(k); ok {
				return v
			}
			return def
		}
		con, _ := strconv.Atoi(prop(concName, "1"))
		delayed, _ := strconv.Atoi(prop(name+"_cntDelayed", "0"))
		sent, _ := strconv.Atoi(prop(name+"_cntSent", "0"))
		rps, _ := strconv.ParseFloat(prop(name+"_rps", "0"), 32)
		needed := con
		switch {
		case rps <= 0:
		case delayed > 0:
			if spare >= 1 {
				if float64(delayed) > spare {
					needed = int(float64(needed) - (float64(delayed) - spare))
				}
			} else if float64(delayed) > math.Ceil(float64(con)*spare) {
				needed = int(float64(con) * (1 - spare))
			}
		case float64(sent) < rps:
			needed = min(int(math.Ceil(float64(con)*(2-float64(sent)/rps))), limit)
		}
		props.Set(concName, strconv.Itoa(needed))
		props.Set(name+"_rps", "0")
		return strconv.Itoa(needed)
	}), nil
}
