package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/pflag"

	"github.com/gojm/gojm/engine"
	"github.com/gojm/gojm/internal/atomicfile"
	"github.com/gojm/gojm/report"
	"github.com/gojm/gojm/report/influx"
	"github.com/gojm/gojm/report/progress"
	"github.com/gojm/gojm/report/prom"
)

// exitThresholds is the exit code of a run that broke a threshold (k6's);
// the README lists it with the others (main.go).
const exitThresholds = 99

// ciFlags are gojm run's flags for terminals and CI: thresholds, JUnit,
// Prometheus.
type ciFlags struct {
	thresholds    []string
	thresholdFile string
	abortOnFail   bool
	junit         string
	prometheus    string
}

func (f *ciFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&f.thresholds, "threshold", nil,
		"fail the run (exit 99) unless this holds on the whole run, e.g. 'p95<500ms', 'error_rate<1%', 'Login: p99<1s'; repeatable")
	fs.StringVar(&f.thresholdFile, "thresholds", "", "read thresholds from a file, one per line (# starts a comment)")
	fs.BoolVar(&f.abortOnFail, "abort-on-fail", false,
		"stop the run as soon as a threshold can no longer pass (decidable early: errors, count and max below a bound, min above one)")
	fs.StringVar(&f.junit, "junit", "", "write a JUnit XML report: a test case per threshold and per label (failed when it had errors)")
	fs.StringVar(&f.prometheus, "prometheus", "", "serve live metrics for Prometheus at http://ADDR/metrics during the run (e.g. 127.0.0.1:9270)")
}

// parse reads the thresholds of the flags and the file.
func (f *ciFlags) parse() ([]report.Threshold, error) {
	var ts []report.Threshold
	var errs []error
	for _, s := range f.thresholds {
		t, err := report.ParseThreshold(s)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		ts = append(ts, t)
	}
	if f.thresholdFile != "" {
		file, err := os.Open(f.thresholdFile)
		if err != nil {
			errs = append(errs, fmt.Errorf("thresholds file: %w", err))
		} else {
			more, err := report.ReadThresholds(file, f.thresholdFile)
			file.Close()
			ts = append(ts, more...)
			if err != nil {
				errs = append(errs, err)
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, &exitErr{exitUsage, err}
	}
	return ts, nil
}

// live is what a run shows and checks besides the plan's own outputs: the
// progress block on a terminal, the thresholds and their guard, the JUnit
// report and the Prometheus endpoint.
type live struct {
	f          *ciFlags
	stderr     io.Writer
	run        *atomic.Pointer[engine.Run]
	stats      *report.Stats
	thresholds []report.Threshold
	results    []report.ThresholdResult
	display    *progress.Display
	exporter   *prom.Exporter
	start      time.Time
	planName   string
	// judgedElsewhere is set in the segments of a split run other than
	// 0: the thresholds hold on the merged results, which segment 0
	// judges.
	judgedElsewhere bool

	mu      sync.Mutex
	pending error // a stop asked for before the run was attached
	stopped error
}

// startLive sets up what the flags ask for. stats must be in the sinks
// before the ones returned by sinks(), which read it.
func startLive(f *ciFlags, stdout, stderr io.Writer, quiet bool, p *engine.Plan, stats *report.Stats, run *atomic.Pointer[engine.Run]) (*live, error) {
	ts, err := f.parse()
	if err != nil {
		return nil, err
	}
	l := &live{f: f, stderr: stderr, run: run, stats: stats, thresholds: ts, start: time.Now(), planName: p.Name}
	if f.abortOnFail {
		switch g := report.NewThresholdGuard(stats, ts, nil); {
		case len(ts) == 0:
			fmt.Fprintln(stderr, "gojm: --abort-on-fail without any --threshold does nothing")
		case g.Watching() == 0:
			fmt.Fprintln(stderr, "gojm: --abort-on-fail: none of the thresholds can be decided before the end "+
				"(only errors, count and max below a bound and min above one can); they are checked at the end")
		}
	}
	if f.prometheus != "" {
		e, err := prom.Listen(f.prometheus, l.promGroups)
		if err != nil {
			return nil, &exitErr{exitUsage, err}
		}
		l.exporter = e
		fmt.Fprintf(stderr, "gojm: Prometheus metrics at http://%s/metrics\n", e.Addr())
	}
	if !quiet && progress.IsTerminal(stdout) {
		l.display = progress.New(terminal(stdout), progress.Options{Title: p.Name, Groups: l.groups, Start: l.start, Stats: stats.Options()})
	}
	return l, nil
}

// out is where the summariser writes: above the progress block when one
// is drawn.
func (l *live) out(w io.Writer) io.Writer {
	if l.display != nil && w != io.Discard {
		return l.display.Writer()
	}
	return w
}

// notices is where messages during the run go (the stop message of a
// Ctrl-C among them): above the progress block when one is drawn and
// stderr is the same terminal, so that the block's next redraw does not
// overwrite them and they stay on screen.
func (l *live) notices(stderr io.Writer) io.Writer {
	if l.display != nil && progress.IsTerminal(stderr) {
		return l.display.Writer()
	}
	return stderr
}

// sinks are the live sinks, to follow the Stats in the run's sinks.
func (l *live) sinks() []report.Sink {
	var out []report.Sink
	if l.f.abortOnFail && len(l.thresholds) > 0 {
		out = append(out, report.NewThresholdGuard(l.stats, l.thresholds, l.lost))
	}
	if l.exporter != nil {
		out = append(out, l.exporter)
	}
	if l.display != nil {
		out = append(out, l.display)
	}
	return out
}

// lost stops the run: a threshold can no longer pass. It runs on the
// collector's goroutine.
func (l *live) lost(t report.Threshold) {
	err := fmt.Errorf("threshold %q can no longer pass", t.Text)
	fmt.Fprintf(l.notices(l.stderr), "gojm: stopping (--abort-on-fail): %v\n", err)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stopped = err
	if r := l.run.Load(); r != nil {
		r.Stop(err)
		return
	}
	l.pending = err
}

// attach is called once the run has started.
func (l *live) attach(r *engine.Run) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pending != nil {
		r.Stop(l.pending)
	}
}

// groups reports the thread groups to the progress block.
func (l *live) groups() []progress.Group {
	r := l.run.Load()
	if r == nil {
		return nil
	}
	gs := r.Groups()
	out := make([]progress.Group, len(gs))
	for i, g := range gs {
		out[i] = progress.Group{Name: g.Name, Phase: g.Phase, Begun: g.Begun, Ended: g.Ended, Since: g.Since,
			Threads: g.Threads, Loops: g.Loops, Duration: g.Duration,
			Active: g.Active, Started: g.Started, Finished: g.Finished, Iterations: g.Iterations}
	}
	return out
}

// promGroups reports the thread groups to Prometheus.
func (l *live) promGroups() []prom.Group {
	r := l.run.Load()
	if r == nil {
		return nil
	}
	var out []prom.Group
	for _, g := range r.Groups() {
		out = append(out, prom.Group{Name: g.Name, Active: g.Active, Started: g.Started, Finished: g.Finished})
	}
	return out
}

// report checks the thresholds on the whole run and appends their section
// to the end report; it writes the JUnit file when asked.
func (l *live) report(end *strings.Builder) error {
	if l.judgedElsewhere {
		if len(l.thresholds) > 0 || l.f.junit != "" {
			end.WriteString("\nThe thresholds are judged on the merged results of every segment, by segment 0.\n")
		}
		return nil
	}
	l.results = report.CheckThresholds(l.stats, l.thresholds)
	if len(l.results) > 0 {
		end.WriteString("\n")
		if err := report.WriteThresholdReport(end, l.results); err != nil {
			return err
		}
		l.mu.Lock()
		if l.stopped != nil {
			fmt.Fprintf(end, "The run was stopped early: %v.\n", l.stopped)
		}
		l.mu.Unlock()
	}
	if l.f.junit == "" {
		return nil
	}
	host, _ := os.Hostname()
	info := report.JUnitInfo{Name: l.planName, Start: l.start, Duration: time.Since(l.start), Hostname: host}
	err := atomicfile.Write(l.f.junit, 0o644, func(w io.Writer) error { return report.WriteJUnit(w, l.stats, l.results, info) })
	if err != nil {
		return fmt.Errorf("junit: %w", err)
	}
	return nil
}

// notice prints a line of gojm's about the run (a signal and what it
// does) where it stays on screen: above the live block when one is drawn,
// on stderr otherwise.
func (l *live) notice(msg string) {
	if l.display != nil {
		// From the line's start: the terminal has echoed ^C where the
		// cursor stood.
		fmt.Fprintln(l.display.Writer(), "\r"+msg)
		return
	}
	fmt.Fprintln(l.stderr, msg)
}

// result is the run's outcome: the run's own error first, then an
// interruption by a signal (exit code 105), then the thresholds (99).
func (l *live) result(runErr error, in *report.Interruption) error {
	if runErr != nil {
		return runErr
	}
	if in != nil {
		return &exitErr{exitInterrupted, errors.New(in.String())}
	}
	if n := report.Failed(l.results); n > 0 {
		return &exitErr{exitThresholds, fmt.Errorf("%d of %d thresholds failed", n, len(l.results))}
	}
	return nil
}

// backendListeners opens the plan's Backend Listeners into their slots of
// listeners (planListeners leaves them empty). A configuration JMeter would
// refuse at test start makes the plan unable to run (exit 3); every
// listener is closed then.
func backendListeners(p *engine.Plan, listeners []report.Sink, threads func() (int, int, int), log *slog.Logger) error {
	for i, l := range p.Listeners {
		if l.Kind != engine.BackendListener || l.Classname != engine.InfluxDBClient {
			continue
		}
		params := make([]influx.Param, len(l.Params))
		for j, pr := range l.Params {
			params[j] = influx.Param{Name: pr.Name, Value: pr.Value}
		}
		cfg, err := influx.ParseConfig(params, p.Props.Get)
		if err != nil {
			for _, s := range listeners {
				if s != nil {
					s.Close()
				}
			}
			return &exitErr{exitUnsupported, fmt.Errorf("%s: %w", l.Path, err)}
		}
		listeners[i] = influx.New(cfg, time.Now(), threads, log.With("listener", l.Path))
	}
	return nil
}
