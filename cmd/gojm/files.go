package main

import (
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/gojm/gojm/internal/files"
)

// fileFlags say where a plan may read and write beyond its own folder and
// the working folder (package files has the rules).
type fileFlags struct {
	read, write []string
	all         bool
	outputs     []string // the command line's own outputs (-o, -l's folder)
}

func (f *fileFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&f.read, "allow-read", nil, "let the plan read files under this folder too (by default: its own folder and the working folder); repeatable")
	fs.StringArrayVar(&f.write, "allow-write", nil, "let the plan's listeners write files under this folder too (by default: the output folder, the plan's folder and the working folder); repeatable")
	fs.BoolVar(&f.all, "allow-all-files", false, "let the plan read and write files anywhere, as JMeter does (never /proc, /sys or devices, never over the plan or its inputs)")
}

// userOutputs adds the folder and the results file the command line names:
// what the user asks for is written wherever it is.
func (f *fileFlags) userOutputs(outDir, jtl string) {
	if outDir != "" {
		f.outputs = append(f.outputs, outDir)
	}
	if jtl != "" {
		f.outputs = append(f.outputs, filepath.Dir(jtl))
	}
}

// policy is the file policy of a plan run with these flags.
func (f *fileFlags) policy(plan string) *files.Policy {
	return files.New(files.Options{
		Plan:       plan,
		AllowRead:  f.read,
		AllowWrite: append(append([]string{}, f.write...), f.outputs...),
		AllowAll:   f.all,
	})
}
