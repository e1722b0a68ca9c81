package main

import (
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gojm/gojm/engine"
)

// validateCmd loads and compiles a plan, sends nothing, lists every
// element with what gojm does with it, then what the run will be
// (preview.go). Exit 0: the plan can run; 3: gojm would refuse it; 1: the
// file is not a plan.
func validateCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("validate")
	var f planFlags
	var sched scheduleFlags
	validateFlags(&f, &sched)(fs)
	if done, err := parseFlags(fs, "validate", args, stdout); done || err != nil {
		return err
	}
	f.planArg(fs)
	// --skip-unsupported only decides the exit code: the plan is always
	// compiled skipping, so that every refused element is listed rather
	// than the first one stopping the check.
	skip := f.skipUnsupported
	f.skipUnsupported = true
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	p, err := loadPlan(&f, log)
	if err != nil {
		return err
	}
	refused := 0
	for _, e := range p.Elements {
		mark := map[engine.Status]string{engine.Runs: "runs   ", engine.Ignored: "ignored", engine.Refused: "REFUSED"}[e.Status]
		line := fmt.Sprintf("%s  %s%s (%s)", mark, strings.Repeat("  ", e.Depth), lastName(e.Path), e.Class)
		if e.Reason != "" && !strings.HasPrefix(e.Reason, "inside ") {
			line += ": " + e.Reason
		}
		fmt.Fprintln(stdout, line)
		if e.Status == engine.Refused {
			refused++
		}
	}
	// What runs only by JMeter's leniency: --strict refused it already.
	for _, w := range p.Warnings {
		fmt.Fprintf(stdout, "warning  %s\n", w)
	}
	if refused > 0 && !skip {
		return &exitErr{exitUnsupported, fmt.Errorf("%s: %d element(s) cannot run; disable them, or run with --skip-unsupported", f.plan, refused)}
	}
	printPreview(stdout, p) // preview.go
	if sched.on {
		if err := sched.print(stdout, p); err != nil {
			return err
		}
	}
	if n := len(p.Warnings); n > 0 {
		fmt.Fprintf(stdout, "%s: the plan can run, with %d warning(s) (--strict refuses them)\n", f.plan, n)
		return nil
	}
	fmt.Fprintf(stdout, "%s: the plan can run\n", f.plan)
	return nil
}

// validateFlags registers validate's flags: only what decides how the
// plan compiles, and the schedule's. validate sends nothing and writes
// nothing, so run's output, logging and CI flags mean nothing here.
func validateFlags(f *planFlags, sched *scheduleFlags) func(*pflag.FlagSet) {
	return func(fs *pflag.FlagSet) {
		f.register(fs)
		fs.Lookup("testfile").Usage = "the plan to check (JMeter's -t)"
		fs.Lookup("skip-unsupported").Usage = "exit 0 when gojm run --skip-unsupported would run the plan without its refused elements"
		sched.register(fs)
	}
}

func lastName(path string) string {
	if i := strings.LastIndex(path, " › "); i >= 0 {
		return path[i+len(" › "):]
	}
	return path
}
