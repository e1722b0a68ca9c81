package element

import (
	"io"
	"log/slog"
	"strings"

	"github.com/gojm/gojm/internal/files"
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
	// Files is where the plan may read and write: every element that opens
	// a file the plan names goes through it.
	Files *files.Policy
	// DataFiles are the data files several threads read in turn, as the
	// builders found them.
	DataFiles []DataFile

	syms   *Symbols
	lastOK int // slot of JMeterThread.last_sample_ok
	// requests is what each user knows of the sampler it is about to run
	// (request.go)
	requests *Local[sampling]

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

// NewPlan returns the plan of a file, with properties, a log (nil
// discards) and the default file policy: it reads and writes under its
// folder and the working folder.
func NewPlan(file, dir string, props *Props, log *slog.Logger) *Plan {
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	p := &Plan{File: file, Dir: dir, Props: props, Log: log, syms: NewSymbols(),
		Files: files.New(files.Options{Plan: file, Dir: dir})}
	p.lastOK = p.syms.Intern("JMeterThread.last_sample_ok")
	p.requests = NewLocal(p, func(*VU) *sampling { return &sampling{} })
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
