package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

// command is one of gojm's commands as its help, the suggestions for a
// mistyped command line and the shell completions see it: they are all
// made from this table and the flags each command registers, so that
// none of them can name a flag the command does not take.
type command struct {
	name    string // as typed after gojm: "run", "k8s manifest"
	usage   string // the usage line after "gojm "
	summary string // one line in gojm --help
	about   string // what --help says under the usage line
	// flags registers the command's flags on fs (into values of its own:
	// the table only describes them).
	flags func(fs *pflag.FlagSet)
	// args is what the command's arguments are, for the shell
	// completions: "plan" (.jmx files), "results" (.jtl, .csv, .xml and
	// folders), "folder", "shell" or "" (none).
	args string
}

var commands = []command{
	{
		name: "run", usage: "run PLAN.jmx [flags]",
		summary: "run a plan; writes a JTL, charts and a summary",
		about: `Runs the plan and writes its results into a fresh folder under
gojm-results/ (or -o DIR): results.jtl, summary.txt, statistics.json and
the charts; -e adds the HTML dashboard. JMeter's non-GUI command line
(gojm -n -t PLAN.jmx -l OUT.jtl) is this command with JMeter's defaults:
only the files it names are written.`,
		flags: func(fs *pflag.FlagSet) { new(runFlags).register(fs) },
		args:  "plan",
	},
	{
		name: "validate", usage: "validate PLAN.jmx [flags]",
		summary: "show what a run of the plan will be, sending nothing",
		about: `Lists every element with what gojm does with it, then what the run
will be: per thread group its users, ramp-up, loops or duration and the
samples that makes where they are known, and the hosts and ports it will
hit. Exit 0: the plan can run; 3: gojm run would refuse it; 1: the file
is not a plan.`,
		flags: validateFlags(new(planFlags), new(scheduleFlags)),
		args:  "plan",
	},
	{
		name: "report", usage: "report RESULTS.jtl|RUN-FOLDER [-o DIR] [flags]",
		summary: "statistics, charts and an HTML dashboard from any JTL",
		about: `Reads a JTL (gojm's or JMeter's: CSV with or without a header, or XML)
and prints the end report a run prints; with -o it writes summary.txt,
statistics.json, the charts and the HTML dashboard. Given a run's output
folder it reports on the statistics the run kept.`,
		flags: func(fs *pflag.FlagSet) { new(reportFlags).register(fs, false) },
		args:  "results",
	},
	{
		name: "merge", usage: "merge RUN-FOLDER [-o DIR] [flags]",
		summary: "one result from the segments of a split run",
		about: `Merges the statistics the segments of a split run kept, exactly, and
writes the report into the run's folder (or -o DIR).`,
		flags: func(fs *pflag.FlagSet) { new(reportFlags).register(fs, true) },
		args:  "folder",
	},
	{
		name: "compare", usage: "compare A.jtl B.jtl [C.jtl...] [--name A --name B...] [-o DIR] [--json]",
		summary: "compare runs: change in % and Mann-Whitney significance",
		about: `Compares each later run with the first: a row per label and run, the
change in %, and whether the response times differ beyond noise.`,
		flags: func(fs *pflag.FlagSet) { new(compareFlags).register(fs) },
		args:  "results",
	},
	{
		name: "k8s manifest", usage: "k8s manifest PLAN.jmx --segments N --image IMAGE [flags]",
		summary: "a Kubernetes Job that runs the plan split over N pods",
		about:   strings.TrimSpace(strings.TrimPrefix(k8sUsage, "Usage: gojm k8s manifest PLAN.jmx [--segments N] [--image IMAGE] [flags]")),
		flags:   func(fs *pflag.FlagSet) { new(k8sFlags).register(fs) },
		args:    "plan",
	},
	{
		name: "completion", usage: "completion bash|zsh|fish",
		summary: "print the shell completion script",
		about: `Prints a script that completes gojm's commands, flags and files:
  source <(gojm completion bash)          # in ~/.bashrc
  gojm completion zsh > "${fpath[1]}/_gojm"
  gojm completion fish > ~/.config/fish/completions/gojm.fish`,
		flags: func(*pflag.FlagSet) {},
		args:  "shell",
	},
	{
		name: "version", usage: "version",
		summary: "the version, commit and Go version gojm was built with",
		flags:   func(*pflag.FlagSet) {},
	},
}

// findCommand is the command of that name, or nil.
func findCommand(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

// flagSet is the command's flags, registered into throwaway values.
func (c *command) flagSet() *pflag.FlagSet {
	fs := pflag.NewFlagSet("gojm "+c.name, pflag.ContinueOnError)
	c.flags(fs)
	return fs
}

// writeHelp writes the command's --help: its usage line, what it does and
// its flags, as fs (the flag set the command parses with) defines them.
func (c *command) writeHelp(w io.Writer, fs *pflag.FlagSet) {
	fmt.Fprintf(w, "Usage: gojm %s\n\n", c.usage)
	if c.about != "" {
		fmt.Fprintf(w, "%s\n\n", c.about)
	} else {
		fmt.Fprintf(w, "%s%s.\n\n", strings.ToUpper(c.summary[:1]), c.summary[1:])
	}
	if fs.HasFlags() {
		fmt.Fprintf(w, "Flags:\n%s", fs.FlagUsagesWrapped(100))
	}
}

// newFlagSet is the flag set a command parses its arguments with: it
// prints nothing itself, parseFlags does.
func newFlagSet(name string) *pflag.FlagSet {
	fs := pflag.NewFlagSet("gojm "+name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseFlags parses a command's arguments. -h or --help writes the
// command's help to stdout and reports done, the command succeeding
// without doing anything more; a mistake in the flags is a usage error
// that suggests the flag meant (suggest.go).
func parseFlags(fs *pflag.FlagSet, name string, args []string, stdout io.Writer) (done bool, err error) {
	c := findCommand(name)
	err = fs.Parse(args)
	switch {
	case err == nil:
		return false, nil
	case errors.Is(err, pflag.ErrHelp):
		c.writeHelp(stdout, fs)
		return true, nil
	}
	return true, &exitErr{exitUsage, fmt.Errorf("%w%s\nRun 'gojm %s --help' for the flags", err, suggestFlag(err, fs, name), name)}
}

// usageErr is a usage error of a command with its arguments wrong: the
// message and where to read how they are written.
func usageErr(name string, err error) error {
	return &exitErr{exitUsage, fmt.Errorf("%w\nUsage: gojm %s (gojm %s --help for more)", err, findCommand(name).usage, name)}
}

// writeUsage writes gojm --help: the commands and their summaries.
func writeUsage(w io.Writer) {
	fmt.Fprint(w, "gojm runs Apache JMeter test plans headless and reports on them.\n\nUsage:\n")
	line := func(usage, summary string) {
		const col = 34
		if len(usage) < col {
			fmt.Fprintf(w, "  gojm %-*s %s\n", col-1, usage, summary)
		} else {
			fmt.Fprintf(w, "  gojm %s\n  %*s%s\n", usage, col+5, "", summary)
		}
	}
	for _, c := range commands {
		line(c.usage, c.summary)
	}
	line("-n -t PLAN.jmx -l OUT.jtl [-J name=value]...", "JMeter's non-GUI command line (gojm run with JMeter's defaults)")
	fmt.Fprint(w, `
Run 'gojm COMMAND --help' for a command's flags.
`)
}
