package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/pflag"

	"github.com/gojm/gojm/engine"
	"github.com/gojm/gojm/jmx"
	"github.com/gojm/gojm/report"
	"github.com/gojm/gojm/report/chart"
	"github.com/gojm/gojm/report/dashboard"
)

// planFlags say which plan to load and how to compile it: the file, its
// properties (-p, -q, -G, -J) and what to do with elements gojm cannot
// run. gojm run and gojm validate share them, so that validate judges the
// plan exactly as run would compile it.
type planFlags struct {
	plan            string
	props           []string
	globalProps     []string
	addProps        []string
	propFile        string
	skipUnsupported bool
	noScripts       bool
	strict          bool
	access          fileFlags // where the plan may read and write (files.go)
}

func (f *planFlags) register(fs *pflag.FlagSet) {
	fs.StringVarP(&f.plan, "testfile", "t", "", "the plan to run (JMeter's -t)")
	fs.StringArrayVarP(&f.props, "jmeterproperty", "J", nil, "set a JMeter property: -J name=value or -Jname=value")
	fs.StringArrayVarP(&f.globalProps, "globalproperty", "G", nil, "as -J (gojm runs on one machine)")
	fs.StringArrayVarP(&f.addProps, "addprop", "q", nil, "read more properties from a file")
	fs.StringVarP(&f.propFile, "propfile", "p", "", "read properties from this file (JMeter's jmeter.properties)")
	fs.BoolVar(&f.skipUnsupported, "skip-unsupported", false, "run the plan without the elements gojm cannot run")
	fs.BoolVar(&f.noScripts, "no-scripts", false, "refuse every script element and script function (JSR223, BeanShell, BSF, __groovy…)")
	fs.BoolVar(&f.strict, "strict", false, "refuse the plan on any warning (a data file that is not there, a value JMeter reads as its default…), for CI")
	f.access.register(fs)
}

// planArg takes the plan from the first argument when -t did not name it,
// as both gojm run PLAN.jmx and gojm validate PLAN.jmx are written.
func (f *planFlags) planArg(fs *pflag.FlagSet) {
	if f.plan == "" && fs.NArg() > 0 {
		f.plan = fs.Arg(0)
	}
}

// properties gathers -p, -q, -G and -J in JMeter's order of precedence.
func (f *planFlags) properties() (map[string]string, error) {
	return gatherProperties(f.propFile, f.addProps, append(append([]string{}, f.globalProps...), f.props...))
}

// runFlags are gojm run's flags, JMeter's non-GUI ones among them.
type runFlags struct {
	planFlags
	jtl           string
	out           string
	sysProps      []string
	dashboard     bool
	force         bool
	logFile       string
	quiet         bool
	watch         []string      // server processes to watch (watch.go)
	grace         time.Duration // how long running samples may take after a stop
	noMemoryCheck bool          // run more users than the machine's memory holds (limits.go)
	ci            ciFlags       // thresholds, JUnit, Prometheus (ci.go)
	split         splitFlags    // one segment of a split run (split.go)
	// JMeter's -R and -r, refused (remoteStart).
	remoteHosts string
	runRemote   bool
}

func (f *runFlags) register(fs *pflag.FlagSet) {
	f.planFlags.register(fs)
	fs.StringVarP(&f.jtl, "logfile", "l", "", "results file (JTL); appended to when it exists, as JMeter does")
	fs.StringVarP(&f.out, "output", "o", "", "output folder for charts, summary and dashboard")
	fs.StringArrayVarP(&f.sysProps, "systemproperty", "D", nil, "accepted for JMeter's command line; ignored")
	fs.BoolVarP(&f.dashboard, "reportatendofloadtests", "e", false, "write the HTML dashboard into the output folder")
	fs.BoolVarP(&f.force, "forceDeleteResultFile", "f", false, "delete an existing results file and output folder first")
	fs.StringVarP(&f.logFile, "jmeterlogfile", "j", "", "write warnings to this file instead of stderr")
	fs.BoolVar(&f.quiet, "quiet", false, "print only the end report")
	fs.DurationVar(&f.grace, "stop-grace", 10*time.Second, "after Ctrl-C, how long running samples may take before they are aborted")
	fs.BoolVar(&f.noMemoryCheck, "no-memory-check", false, "run even when the plan asks for more users than the machine's memory holds")
	fs.StringArrayVar(&f.watch, "watch", nil, "watch a server process (PID or command name, children included): CPU and memory beside the results; repeatable")
	f.ci.register(fs)
	f.split.register(fs)
	// Accepted so that JMeter command lines run unchanged.
	fs.BoolP("nongui", "n", true, "non-GUI mode (gojm is always headless)")
	fs.StringP("loglevel", "L", "", "accepted for JMeter's command line; ignored")
	fs.StringP("jmeterlogconf", "i", "", "accepted for JMeter's command line; ignored")
	// JMeter's remote start, refused with the split run that replaces it.
	fs.StringVarP(&f.remoteHosts, "remotestart", "R", "", "JMeter's remote start: refused; see --segment")
	fs.BoolVarP(&f.runRemote, "runremote", "r", false, "JMeter's remote start: refused; see --segment")
	fs.BoolP("remoteexit", "X", false, "accepted for JMeter's command line; ignored")
}

// remoteStart refuses JMeter's -R and -r, showing the split run that does
// what they are used for.
func (f *runFlags) remoteStart() error {
	if f.remoteHosts == "" && !f.runRemote {
		return nil
	}
	n, what := "N", "-r (every host of remote_hosts)"
	if f.remoteHosts != "" {
		n, what = strconv.Itoa(len(strings.Split(f.remoteHosts, ","))), "-R "+f.remoteHosts
	}
	plan := f.plan
	if plan == "" {
		plan = "PLAN.jmx"
	}
	return &exitErr{exitUsage, fmt.Errorf(`%s: gojm has no JMeter servers to start remotely. JMeter runs the whole plan on each server; gojm splits one plan's users between processes, which together make the single run. On each of %s machines (i = 0 … %s-1) run:
  gojm run %s --segment i/%s --sync-dir DIR
with DIR a folder they all share (or --start-at TIME in its place); segment 0 merges the results. See docs/scale-out.md`, what, n, n, plan, n)}
}

// loadPlan loads and compiles a plan. A file that is not a plan exits 1; a
// plan that cannot run (refused elements, bad fields) exits 3.
func loadPlan(f *planFlags, log *slog.Logger) (*engine.Plan, error) {
	if f.plan == "" {
		return nil, &exitErr{exitUsage, errors.New("no plan given (gojm run PLAN.jmx, or -t PLAN.jmx)")}
	}
	props, err := f.properties()
	if err != nil {
		return nil, err
	}
	if f.noScripts {
		props[engine.NoScriptsProperty] = "true"
	}
	pol := f.access.policy(f.plan)
	src, err := jmx.LoadFiles(f.plan, pol)
	if err != nil {
		return nil, err
	}
	p, err := engine.Compile(src, engine.Options{Props: props, SkipUnsupported: f.skipUnsupported, Log: log, Files: pol, Strict: f.strict})
	if err != nil {
		return nil, &exitErr{exitUnsupported, fmt.Errorf("cannot run %s:\n%s", f.plan, indent(err))}
	}
	for _, w := range p.Warnings {
		log.Warn(w.Message, "element", w.Path)
	}
	for _, e := range p.Elements {
		if e.Status == engine.Ignored && e.Depth <= 3 && !strings.HasPrefix(e.Reason, "inside ") {
			log.Info("ignored", "element", e.Path, "why", e.Reason)
		}
	}
	// What the run would fail on once started, refused now (preview.go).
	if err := checkPlan(f.plan, p); err != nil {
		return nil, err
	}
	return p, nil
}

func indent(err error) string {
	var b strings.Builder
	for _, line := range strings.Split(err.Error(), "\n") {
		b.WriteString("  - " + line + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// runCmd is gojm run, and JMeter's command line when jmeterStyle. Each step
// is its own function: parse the flags, load and compile the plan, open the
// outputs, run, write the end report.
func runCmd(args []string, stdout, stderr io.Writer, jmeterStyle bool) error {
	f, help, err := parseRunFlags(args, stdout)
	if help || err != nil {
		return err
	}
	f.access.userOutputs(f.out, f.jtl) // the command line's own outputs may be written
	log, closeLog, err := runLog(f.logFile, stderr)
	if err != nil {
		return err
	}
	defer closeLog()
	p, err := loadPlan(&f.planFlags, log)
	if err != nil {
		f.split.abandon(err)
		return err
	}
	if err := checkMemory(p, f.noMemoryCheck); err != nil { // limits.go
		f.split.abandon(err)
		return err
	}
	sp, err := openSplit(f, p, stderr)
	if err != nil {
		f.split.abandon(err)
		return err
	}
	// From the moment files are opened until the end report is written,
	// a signal stops the run and never kills gojm (signals.go).
	sig := catchInterrupts(func(s string) { fmt.Fprintln(stderr, s) }, f.grace)
	defer sig.stop()
	o, err := openRunOutputs(f, p, jmeterStyle, stdout, stderr, log)
	if err != nil {
		f.split.abandon(err)
		return err
	}
	o.split = sp
	o.live.judgedElsewhere = sp.judgedElsewhere()
	if err := sp.join(sig.beforeStart()); err != nil {
		o.sinks.Close()
		if in := sig.interrupted(); in != nil {
			err = fmt.Errorf("%s before the run started", in.Signal)
			f.split.abandon(err)
			return &exitErr{exitInterrupted, err}
		}
		return err
	}
	sig.setNotice(o.live.notice)
	r, runErr := o.runPlan(sig)
	// Segment 0 of a split run prints the merged report, not its own.
	endOut := stdout
	if sp.mergesHere() {
		endOut = io.Discard
	}
	if err := o.endReport(endOut, r, sig); err != nil {
		return err
	}
	if err := sp.finish(runErr); err != nil {
		return err
	}
	if sp.mergesHere() {
		if err := o.mergedReport(stdout, sp.dir, sig.hurried); err != nil {
			return err
		}
	}
	// The interruption of the figures judged: segment 0's merge says
	// whether any segment was interrupted.
	return o.live.result(runErr, o.live.stats.Interrupted())
}

// parseRunFlags parses gojm run's command line. help reports that -h or
// --help asked for the flags, which parseFlags has written to stdout then:
// the command does nothing more and succeeds.
func parseRunFlags(args []string, stdout io.Writer) (f *runFlags, help bool, err error) {
	fs := newFlagSet("run")
	f = &runFlags{}
	f.register(fs)
	if done, err := parseFlags(fs, "run", args, stdout); done || err != nil {
		return nil, done, err
	}
	f.planArg(fs)
	if err := f.remoteStart(); err != nil {
		return nil, false, err
	}
	return f, false, nil
}

// runLog is the logger of a run's warnings, which go to the -j file
// (appended to) or to stderr. The plan's compilation already warns, so it
// exists before the plan is loaded; closeLog closes the file once the end
// report is written.
func runLog(file string, stderr io.Writer) (log *slog.Logger, closeLog func(), err error) {
	out, closeLog := stderr, func() {}
	if file != "" {
		lf, err := os.OpenFile(file, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, nil, fmt.Errorf("log file: %w", err)
		}
		out, closeLog = lf, func() { lf.Close() }
	}
	return slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{Level: slog.LevelWarn})), closeLog, nil
}

// runOutputs is everything a run feeds besides the plan's own elements:
// the results file, the statistics, the live block and thresholds, the
// summariser, the charts and dashboard, the plan's listeners and the
// watched server. Opening them, running and writing the end report are
// separate steps, and they share these.
type runOutputs struct {
	p          *engine.Plan
	outDir     string // "" when only the files the command line names are written
	files      *report.ResultFiles
	sinks      report.Sinks
	listeners  []report.Sink // a slot per plan listener, as engine.RunOptions wants them
	graphs     []graph
	stats      *report.Stats
	summaryOut io.Writer
	charts     *chart.Charts     // nil without an output folder
	series     *dashboard.Series // the dashboard's charts; nil without -e
	// appended is the results file when the run appended to one that had
	// rows: the end outputs then cover every row in it, as JMeter's report
	// generator, which reads the file, does.
	appended string
	live     *live
	server   *serverWatch               // nil without --watch
	started  atomic.Pointer[engine.Run] // the run, once it has started
	split    *split                     // this process's part of the run
	jtlPath  string                     // the results file, or ""
}

// openRunOutputs decides where results go and opens every output before the
// run starts, so that a file that cannot be written stops gojm before any
// request is sent. On an error it closes what it opened.
func openRunOutputs(f *runFlags, p *engine.Plan, jmeterStyle bool, stdout, stderr io.Writer, log *slog.Logger) (*runOutputs, error) {
	outDir, jtlPath, err := resultPaths(f, jmeterStyle)
	if err != nil {
		return nil, err
	}
	// The output folder may be decided only now (a fresh one, a split
	// run's segment folder): the command line's own outputs are written
	// wherever they are, never over the plan or its inputs.
	if outDir != "" {
		p.Files.AllowWrite(outDir)
	}
	if jtlPath != "" {
		p.Files.AllowWrite(filepath.Dir(jtlPath))
	}
	o := &runOutputs{p: p, outDir: outDir, files: &report.ResultFiles{}, jtlPath: jtlPath}
	// The results file's columns follow the jmeter.save.saveservice.*
	// properties, as JMeter's -l file does.
	saveCfg, err := report.SaveConfigFromProperties(p.Props.Snapshot())
	if err != nil {
		return nil, &exitErr{exitUsage, err}
	}
	if err := o.openSinks(f, jtlPath, saveCfg, stdout, stderr, log); err != nil {
		o.sinks.Close()
		return nil, err
	}
	if err := o.openListeners(saveCfg, log); err != nil {
		o.sinks.Close()
		return nil, err
	}
	if o.server, err = startWatch(f.watch, outDir, stderr); err != nil {
		o.sinks.Close()
		return nil, err
	}
	return o, nil
}

// resultPaths decides where results go: JMeter's command line writes only
// what it names; gojm run writes everything into a fresh folder unless told
// otherwise. It applies -f and creates the output folder.
func resultPaths(f *runFlags, jmeterStyle bool) (outDir, jtlPath string, err error) {
	outDir = f.out
	if outDir == "" && !jmeterStyle {
		outDir = freshDir(f.plan)
	}
	if f.force {
		if f.jtl != "" {
			os.Remove(f.jtl)
		}
		if f.out != "" {
			os.RemoveAll(f.out)
		}
	} else if jmeterStyle && f.out != "" {
		// As JMeter 5.6: the dashboard's folder must be new or empty.
		if entries, err := os.ReadDir(f.out); err == nil && len(entries) > 0 {
			return "", "", &exitErr{exitUsage, fmt.Errorf("cannot write to the output folder %s: it is not empty (-f deletes it first, as in JMeter)", f.out)}
		}
	}
	if outDir != "" {
		if err := os.MkdirAll(outDir, 0o755); err != nil {
			return "", "", fmt.Errorf("cannot create the output folder %s (%w); choose another with -o", outDir, err)
		}
	}
	jtlPath = f.jtl
	if jtlPath == "" && outDir != "" {
		jtlPath = filepath.Join(outDir, "results.jtl")
	}
	return outDir, jtlPath, nil
}

// openSinks opens the sinks every sample of the run goes through, in the
// order they need each other: the results file, the statistics (the run's
// one statistics source, which the live sinks, the end report, the charts
// and the dashboard read), the live block and thresholds, the summariser
// and the charts.
func (o *runOutputs) openSinks(f *runFlags, jtlPath string, saveCfg report.SaveConfig, stdout, stderr io.Writer, log *slog.Logger) error {
	// -l and the plan's listeners share a file they both name.
	if jtlPath != "" {
		if st, err := os.Stat(jtlPath); err == nil && st.Size() > 0 {
			fmt.Fprintf(stderr, "gojm: %s exists: appending this run's results to it, as JMeter does (-f deletes it first)\n", jtlPath)
			o.appended = jtlPath
		}
		if err := o.p.Files.CheckWrite(jtlPath); err != nil {
			return &exitErr{exitUsage, fmt.Errorf("the results file: %w; choose another with -l", err)}
		}
		w, err := o.files.Open(jtlPath, saveCfg, o.p.SampleVars)
		if err != nil {
			return fmt.Errorf("cannot write the results file %s (%w); choose another with -l", jtlPath, err)
		}
		o.sinks = append(o.sinks, w)
	}
	// Statistics count sub-results as their own samples when the results
	// file holds them, as JMeter's dashboard (which reads the file) does.
	// APDEX thresholds and percentiles follow the report generator's
	// properties, as in JMeter's dashboard (outputs.go).
	o.stats = report.NewStats(runStatsOptions(o.p.Props.Snapshot(), saveCfg.SubResults, log))
	o.sinks = append(o.sinks, o.stats)
	summaryOut := stdout
	if f.quiet {
		summaryOut = io.Discard
	}
	// Thresholds, the progress block on a terminal, Prometheus (ci.go).
	lv, err := startLive(&f.ci, stdout, stderr, f.quiet, o.p, o.stats, &o.started)
	if err != nil {
		return err
	}
	o.live = lv
	o.summaryOut = lv.out(summaryOut)
	o.sinks = append(o.sinks, lv.sinks()...)
	interval := summariserInterval(o.p)
	if lv.display != nil {
		// On a terminal the live block replaces the periodic "summary +"
		// lines; the final "summary =" line still closes the run.
		interval = math.MaxInt64
	}
	summariser := report.NewSummariser(o.summaryOut, interval, o.threads)
	summariser.SubResults = saveCfg.SubResults // count what the statistics count
	summariser.Start(time.Now())
	o.sinks = append(o.sinks, summariser)
	if o.outDir != "" {
		o.charts = chart.New(o.p.Name, o.stats)
		o.sinks = append(o.sinks, o.charts)
	}
	// With -e, the HTML dashboard's interactive charts (outputs.go).
	if f.dashboard && o.outDir != "" {
		o.series = dashboard.NewSeries(o.stats)
		o.sinks = append(o.sinks, o.series)
	}
	return nil
}

// openListeners opens the plan's own listeners into their slots: results
// files and Graph Results charts (planListeners), then Backend Listeners
// (ci.go). planListeners and backendListeners close them on an error.
func (o *runOutputs) openListeners(saveCfg report.SaveConfig, log *slog.Logger) error {
	listeners, graphs, err := planListeners(o.p, o.files, o.outDir, saveCfg, o.stats.Options())
	if err != nil {
		return err
	}
	if err := backendListeners(o.p, listeners, o.threads, log); err != nil {
		return err
	}
	o.listeners, o.graphs = listeners, graphs
	return nil
}

// threads is the run's active, started and finished threads for the
// summariser and the Backend Listeners, which ask before the run has
// started too.
func (o *runOutputs) threads() (int, int, int) {
	if r := o.started.Load(); r != nil {
		return r.Threads()
	}
	return 0, 0, 0
}

// runPlan runs the plan into the outputs until it ends or is stopped (a
// threshold's guard, a signal), between the lines JMeter's non-GUI mode
// prints around a run. When it returns, every sample is in the results
// files and they are closed.
func (o *runOutputs) runPlan(sig *interrupts) (*engine.Run, error) {
	start := time.Now()
	fmt.Fprintf(o.summaryOut, "Starting the test @ %s\n", start.Format(time.UnixDate))
	opt := o.split.runOptions()
	opt.Listeners, opt.Detail, opt.OutDir = o.listeners, o.files.SavesDetail(), o.outDir
	r := engine.Start(context.Background(), o.p, o.sinks, opt)
	o.started.Store(r)
	o.split.watch(r)
	o.live.attach(r)
	sig.attach(r, start)
	err := r.Wait()
	sig.ended()
	fmt.Fprintf(o.summaryOut, "Tidying up ...    @ %s\n... end of run\n", time.Now().Format(time.UnixDate))
	return r, err
}

// endReport writes the end report once the run is over (whether a signal
// interrupted it, the table per label, the errors and ab's layout,
// report.WriteEndReport), the open-model groups' dropped iterations, the
// watched server and the thresholds, to summary.txt beside
// statistics.json (with an output folder) and then to stdout, then the
// charts and the dashboard unless repeated signals asked to skip them.
func (o *runOutputs) endReport(stdout io.Writer, r *engine.Run, sig *interrupts) error {
	if in := sig.interrupted(); in != nil {
		o.stats.SetInterrupted(*in)
	}
	var summary strings.Builder
	if err := report.WriteEndReport(&summary, o.stats, report.ABInfo{}); err != nil {
		return err
	}
	writeArrivals(&summary, r) // open-model groups: dropped iterations (arrivals.go)
	if o.server != nil {       // the watched server's block and chart (watch.go)
		if err := o.server.finish(&summary, o.stats, o.charts); err != nil {
			return err
		}
	}
	if err := o.live.report(&summary); err != nil { // thresholds, JUnit (ci.go)
		return err
	}
	// The files first: a stdout that blocks or breaks cannot keep them
	// from being written.
	if o.outDir != "" {
		if err := writeSummaryFiles(o.outDir, summary.String(), o.stats); err != nil {
			return err
		}
	}
	fmt.Fprint(stdout, "\n"+summary.String())
	if o.outDir == "" {
		return nil
	}
	if err := o.split.record(o, o.jtlPath); err != nil {
		return err
	}
	stats, charts, series, pageSummary := o.stats, o.charts, o.series, summary.String()
	if o.appended != "" {
		var err error
		if stats, charts, series, pageSummary, err = o.wholeFile(); err != nil {
			return err
		}
		// statistics.json covers every row of the file, as the dashboard.
		if err := writeSummaryFiles(o.outDir, summary.String(), stats); err != nil {
			return err
		}
	}
	if err := writeCharts(o.outDir, charts, o.graphs, sig.hurried); err != nil {
		return err
	}
	if sig.hurried() {
		fmt.Fprintf(stdout, "\nResults in %s (charts and dashboard skipped)\n", o.outDir)
		return nil
	}
	// With -e, the HTML dashboard from the same statistics (outputs.go).
	if err := writeRunDashboard(o.outDir, o.p, pageSummary, stats, series); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nResults in %s\n", o.outDir)
	return nil
}

// wholeFile reads the results file this run appended to, once the run has
// flushed and closed it, into new statistics, charts and dashboard sinks:
// statistics.json, the charts and the dashboard then cover every row of the
// file, the earlier runs' too, as JMeter's report generator does. The end
// report on stdout and in summary.txt stays this run's.
func (o *runOutputs) wholeFile() (*report.Stats, *chart.Charts, *dashboard.Series, string, error) {
	f, err := os.Open(o.appended)
	if err != nil {
		return nil, nil, nil, "", err
	}
	defer f.Close()
	stats := report.NewStats(o.stats.Options())
	if in := o.stats.Interrupted(); in != nil { // the file does not tell; the run does
		stats.SetInterrupted(*in)
	}
	charts := chart.New(o.p.Name, stats)
	sinks := report.Sinks{stats, charts}
	var series *dashboard.Series
	if o.series != nil {
		series = dashboard.NewSeries(stats)
		sinks = append(sinks, series)
	}
	if err := report.ReadJTL(f, o.appended, sinks, report.ReadOptions{Properties: o.p.Props.Snapshot()}); err != nil {
		return nil, nil, nil, "", fmt.Errorf("reading back the results file for the dashboard: %w", err)
	}
	var text strings.Builder
	if err := report.WriteEndReport(&text, stats, report.ABInfo{}); err != nil {
		return nil, nil, nil, "", err
	}
	return stats, charts, series, text.String(), nil
}

// summariserInterval is JMeter's summariser.interval property (seconds).
func summariserInterval(p *engine.Plan) time.Duration {
	if s, ok := p.Props.Get("summariser.interval"); ok {
		var n int
		if _, err := fmt.Sscan(s, &n); err == nil && n > 0 {
			return time.Duration(n) * time.Second
		}
	}
	return report.DefaultSummariserInterval
}

// graph is a Graph Results listener's chart and the file it goes to.
type graph struct {
	g    *chart.GraphResults
	file string
}

// planListeners opens the plan's own listeners: results files where the
// plan names them, a Graph Results chart for each Graph Results listener,
// counting the rows the statistics count (opt).
func planListeners(p *engine.Plan, files *report.ResultFiles, outDir string, base report.SaveConfig, opt report.StatsOptions) ([]report.Sink, []graph, error) {
	sinks := make([]report.Sink, len(p.Listeners))
	var graphs []graph
	for i, l := range p.Listeners {
		switch {
		case l.Filename != "":
			// A listener's saveConfig in the plan replaces the defaults as
			// JMeter reads it: a column the plan does not name is off.
			cfg := base
			if l.Save != nil {
				cfg, _ = report.CollectorSaveConfig(l.Save, base)
			}
			s, err := files.Open(l.Filename, cfg, p.SampleVars)
			if err != nil {
				for _, o := range sinks[:i] {
					if o != nil {
						o.Close()
					}
				}
				return nil, nil, fmt.Errorf("%s: %w", l.Path, err)
			}
			sinks[i] = s
		case l.GraphResults() && outDir != "":
			g := chart.NewGraphResults(l.Name, opt)
			sinks[i] = g
			graphs = append(graphs, graph{g, filepath.Join(outDir, "graph-results-"+fileSafe(l.Name)+".png")})
		}
	}
	return sinks, graphs, nil
}

// writeCharts writes the run's charts and the plan's Graph Results into
// dir, each whole; skip, asked before each, stops it early.
func writeCharts(dir string, charts *chart.Charts, graphs []graph, skip func() bool) error {
	if charts != nil && !skip() {
		if _, err := charts.WriteAll(dir); err != nil {
			return fmt.Errorf("charts: %w", err)
		}
	}
	for _, g := range graphs {
		if skip() {
			return nil
		}
		// A listener that saw every sample of the run would draw
		// graph-results.png again: it counts the same rows, so as many
		// means the same ones.
		if charts != nil && g.g.Count() == charts.Graph.Count() {
			continue
		}
		if err := g.g.WritePNG(g.file); err != nil {
			return fmt.Errorf("graph results: %w", err)
		}
	}
	return nil
}

// freshDir names a new output folder for a run of plan.
func freshDir(plan string) string {
	base := strings.TrimSuffix(filepath.Base(plan), filepath.Ext(plan))
	dir := filepath.Join("gojm-results", fileSafe(base)+"-"+time.Now().Format("20060102-150405"))
	for i := 2; ; i++ {
		if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
			return dir
		}
		dir = fmt.Sprintf("%s-%d", strings.TrimRight(dir, "0123456789-"), i)
	}
}

// fileSafe turns a name into something usable in a file name.
func fileSafe(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '-'
	}, s)
	if s == "" {
		return "plan"
	}
	return s
}
