package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
)

// Exit codes; the README lists them.
const (
	exitOK          = 0
	exitError       = 1 // the plan or results could not be read, or the run failed
	exitUsage       = 2
	exitUnsupported = 3 // the plan has elements gojm cannot run
	// exitInterrupted: a signal (SIGINT, SIGTERM, SIGHUP) stopped the run
	// before its plan ended; its results are written all the same. k6's
	// code for an external abort, as 99 is k6's for thresholds.
	exitInterrupted = 105
)

// exitErr carries an exit code with its error.
type exitErr struct {
	code int
	err  error
}

func (e *exitErr) Error() string { return e.err.Error() }
func (e *exitErr) Unwrap() error { return e.err }

func main() {
	// A closed stdout or stderr (`| head`, a terminal gone) makes writes
	// fail instead of killing gojm; the consoles then stop printing and
	// the run goes on into its files.
	signal.Ignore(syscall.SIGPIPE)
	stdout, stderr := consoles(os.Stdout, os.Stderr)
	os.Exit(run(os.Args[1:], stdout, stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	args, stopProfiles, err := profiling(args) // hidden --cpuprofile, --memprofile (profile.go)
	if err == nil {
		err = dispatch(args, stdout, stderr)
		if perr := stopProfiles(); err == nil {
			err = perr
		}
	}
	if err == nil {
		return exitOK
	}
	code := exitError
	var ee *exitErr
	if errors.As(err, &ee) {
		code = ee.code
	}
	if err.Error() != "" {
		fmt.Fprintf(stderr, "gojm: %v\n", err)
	}
	return code
}

func dispatch(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		writeUsage(stderr)
		return &exitErr{exitUsage, errors.New("no command given")}
	}
	switch args[0] {
	case "run":
		return runCmd(args[1:], stdout, stderr, false)
	case "validate":
		return validateCmd(args[1:], stdout, stderr)
	case "report":
		return reportCmd(args[1:], stdout, stderr, false)
	case "merge":
		return reportCmd(args[1:], stdout, stderr, true)
	case "compare":
		return compareCmd(args[1:], stdout, stderr)
	case "k8s":
		return k8sCmd(args[1:], stdout, stderr)
	case "completion":
		return completionCmd(args[1:], stdout) // completion.go
	case "version", "--version", "-v": // -v and --version: JMeter's
		return versionCmd(args[1:], stdout) // version.go
	case "help", "-h", "--help":
		return helpCmd(args[1:], stdout)
	}
	if strings.HasPrefix(args[0], "-") {
		// JMeter's own command line: gojm -n -t plan.jmx -l out.jtl …
		return runCmd(args, stdout, stderr, true)
	}
	return &exitErr{exitUsage, unknownCommand(args)} // suggest.go
}

// helpCmd is gojm help [COMMAND]: gojm --help, or the command's.
func helpCmd(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		writeUsage(stdout)
		return nil
	}
	name := strings.Join(args, " ")
	if name == "k8s" {
		name = "k8s manifest"
	}
	c := findCommand(name)
	if c == nil {
		return &exitErr{exitUsage, unknownCommand(args)}
	}
	c.writeHelp(stdout, c.flagSet())
	return nil
}

// version is the version in one word and the commit, as a run's record
// keeps it.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		v := bi.Main.Version
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += " " + s.Value[:12]
			}
		}
		return v
	}
	return "(unknown)"
}
