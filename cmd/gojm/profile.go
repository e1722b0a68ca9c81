package main

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
)

// profiling takes the hidden flags --cpuprofile FILE and --memprofile FILE
// (any command, anywhere on the line, also as --flag=FILE) out of args and
// starts what they ask for: pprof files of gojm's own work, for making it
// faster (go tool pprof gojm FILE). The returned stop ends the CPU profile
// and writes the allocation profile; it must run before the process exits.
func profiling(args []string) (rest []string, stop func() error, err error) {
	var cpu, mem string
	rest = make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		var dst *string
		switch name, _, _ := strings.Cut(a, "="); name {
		case "--cpuprofile":
			dst = &cpu
		case "--memprofile":
			dst = &mem
		default:
			rest = append(rest, a)
			continue
		}
		if _, v, ok := strings.Cut(a, "="); ok {
			*dst = v
		} else if i+1 < len(args) {
			i++
			*dst = args[i]
		}
		if *dst == "" {
			return nil, nil, fmt.Errorf("%s needs a file name", strings.SplitN(a, "=", 2)[0])
		}
	}
	var cpuFile *os.File
	if cpu != "" {
		if cpuFile, err = os.Create(cpu); err != nil {
			return nil, nil, fmt.Errorf("CPU profile: %w", err)
		}
		if err := pprof.StartCPUProfile(cpuFile); err != nil {
			cpuFile.Close()
			return nil, nil, fmt.Errorf("CPU profile: %w", err)
		}
	}
	stop = func() error {
		var errs []error
		if cpuFile != nil {
			pprof.StopCPUProfile()
			if err := cpuFile.Close(); err != nil {
				errs = append(errs, fmt.Errorf("CPU profile: %w", err))
			}
		}
		if mem != "" {
			if err := writeAllocs(mem); err != nil {
				errs = append(errs, fmt.Errorf("memory profile: %w", err))
			}
		}
		return errors.Join(errs...)
	}
	return rest, stop, nil
}

// writeAllocs writes the allocation profile (every allocation since the
// start, and what is still in use after a collection) to path.
func writeAllocs(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	runtime.GC()
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
