package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// versionCmd is gojm version: the module's version, the commit it was
// built from and the Go version, all from the build information the Go
// toolchain writes into the binary.
func versionCmd(args []string, stdout io.Writer) error {
	fs := newFlagSet("version")
	if done, err := parseFlags(fs, "version", args, stdout); done || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr("version", fmt.Errorf("gojm version takes no arguments"))
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		fmt.Fprintln(stdout, "gojm (built without module information)")
		return nil
	}
	writeVersion(stdout, bi)
	return nil
}

// writeVersion writes the version lines of a build: "(devel)" is the
// version of a binary built from a clone rather than installed with go
// install MODULE@VERSION; a commit with uncommitted changes says so.
func writeVersion(w io.Writer, bi *debug.BuildInfo) {
	fmt.Fprintf(w, "gojm %s\n", bi.Main.Version)
	var rev, at, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = " (with uncommitted changes)"
			}
		}
	}
	if rev != "" {
		fmt.Fprintf(w, "commit  %s%s", rev, modified)
		if at != "" {
			fmt.Fprintf(w, ", %s", at)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "go      %s\n", bi.GoVersion)
	fmt.Fprintf(w, "module  %s\n", bi.Main.Path)
}
