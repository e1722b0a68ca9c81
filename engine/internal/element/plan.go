package element

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
)

// Plan is what every element may read of the compiled plan, and where the
// compiler hands out the slots of per-user and per-run state. It is
// written while the plan compiles and read-only after, but for Props,
// which scripts and __setProperty change.
type Plan struct {
	// Name is the Test Plan element's name.
	Name string
	// File is the plan file as given; Dir is its folder, which relative
	// file names resolve against.
	File, Dir string
	// Props are JMeter properties (-J, -q, -p; __setProperty).
	Props *Props
	// SampleVars are the sample_variables property's names: extra JTL
	// columns.
	SampleVars []string
	// Log receives the elements' warnings.
	Log *slog.Logger
	// FunctionalMode is the Test Plan's "functional test mode".
	FunctionalMode bool
	// DataFiles are the data files several threads read in turn, as the
	// builders found them.
	DataFiles []DataFile

	syms   *Symbols
	lastOK int // slot of JMeterThread.last_sample_ok

	// slots handed out for Local, Shared and GroupShared state, and the
	// values Once made
	nlocals, nshared, ngroupShared int
	once                           map[any]any
}

// DataFile is a data file that several threads read in turn (a CSV Data
// Set shared by all threads, a group or a key, its file name known as the
// plan compiles): what a split run stripes, and gojm validate --schedule
// lists.
type DataFile struct {
	Element string // the element's path
	File    string // the file, resolved
	// Reads lists, of the run's first max reads of the file, those owns
	// keeps; more reports that the run may read more.
	Reads func(owns func(read int64) bool, max int) (reads []DataRead, more bool, err error)
}

// DataRead is one read of a data file: the run's read (from 0) and the
// data row of the file it reads (from 1, the header not counted).
type DataRead struct{ Read, Row int64 }

// NewPlan returns the plan of a file, with properties and a log (nil
// discards).
func NewPlan(file, dir string, props *Props, log *slog.Logger) *Plan {
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	p := &Plan{File: file, Dir: dir, Props: props, Log: log, syms: NewSymbols()}
	p.lastOK = p.syms.Intern("JMeterThread.last_sample_ok")
	return p
}

// Symbols is the plan's table of variable names.
func (p *Plan) Symbols() *Symbols { return p.syms }

// Var returns the slot of a variable the plan mentions, adding it.
func (p *Plan) Var(name string) int { return p.syms.Intern(name) }

// FileName is the plan's file name without its folder (__TestPlanName).
func (p *Plan) FileName() string {
	f := p.File
	if i := strings.LastIndexAny(f, `/\`); i >= 0 {
		f = f[i+1:]
	}
	return f
}

// Resolve resolves a file name the plan gives: an absolute name stays;
// a relative one is taken from the plan's folder, or from the working
// directory when it exists only there.
func (p *Plan) Resolve(name string) string {
	if name == "" || filepath.IsAbs(name) {
		return name
	}
	inPlan := filepath.Join(p.Dir, name)
	if _, err := os.Stat(inPlan); err == nil || p.Dir == "" {
		return inPlan
	}
	if _, err := os.Stat(name); err == nil {
		return name
	}
	return inPlan
}
