package files

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Policy is where one plan may read and write. It is safe for concurrent
// use: elements read files while the plan runs.
type Policy struct {
	planDir  string      // the plan's folder as given: relative names resolve here
	workDir  string      // the working folder when the policy was made
	planFile string      // the plan's real path: nothing writes over it
	planInfo fs.FileInfo // the plan's, to know it under another name (a hard link)
	read     []root
	write    []root
	// scriptWrite are the folders a script may write and delete under:
	// those of write but the working folder, which may be the user's home
	// (the plan's folder when it is in one of them).
	scriptWrite []root
	defaults    int // how many roots of each are the plan's and working folders
	all         bool

	mu     sync.Mutex
	inputs map[string]Kind // real paths of the files the plan reads
	// code are the files of inputs that are part of the plan, to know
	// them under another name.
	code []fs.FileInfo

	writes [32]stripe // serialize the writes of one file (write.go)
}

type stripe = sync.Mutex

// root is a folder a plan may use, with the words that name it in a refusal.
type root struct {
	path string // real path
	what string // "the plan's folder /p"
}

// Options make a Policy.
type Options struct {
	// Plan is the plan file; its folder is where relative names resolve
	// first. "" for a plan without a file.
	Plan string
	// Dir is the plan's folder when it is not Plan's (a plan read from
	// memory); "" with no Plan: names resolve against the working folder.
	Dir string
	// AllowRead and AllowWrite are further folders a plan may read and
	// write under (--allow-read, --allow-write). The output folder is one
	// of AllowWrite.
	AllowRead, AllowWrite []string
	// AllowAll lets a plan read and write anywhere, as JMeter does
	// (--allow-all-files); /proc, /sys and devices stay closed, and no plan
	// writes over itself or a file it reads.
	AllowAll bool
}

// New returns the policy of a plan run from the current working folder.
func New(o Options) *Policy {
	p := &Policy{all: o.AllowAll, inputs: map[string]Kind{}, planDir: o.Dir}
	if o.Plan != "" {
		p.planFile = realPath(o.Plan)
		p.planInfo, _ = os.Stat(p.planFile)
		if p.planDir == "" {
			p.planDir = filepath.Dir(o.Plan)
		}
	}
	if p.planDir != "" {
		p.read = append(p.read, root{realPath(p.planDir), "the plan's folder " + abs(p.planDir)})
		p.scriptWrite = slices.Clone(p.read)
	}
	if wd, err := os.Getwd(); err == nil {
		p.workDir = wd
		p.read = append(p.read, root{realPath(wd), "the working folder " + wd})
	}
	p.defaults = len(p.read)
	p.write = slices.Clone(p.read)
	for _, d := range o.AllowRead {
		p.read = append(p.read, root{realPath(d), "--allow-read " + d})
	}
	for _, d := range o.AllowWrite {
		p.write = append(p.write, root{realPath(d), "--allow-write " + d})
		p.scriptWrite = append(p.scriptWrite, root{realPath(d), "--allow-write " + d})
	}
	return p
}

// ErrDenied is wrapped by every refusal of the policy.
var ErrDenied = errors.New("not allowed")

// DeniedError is a file the plan may not read or write.
type DeniedError struct {
	Write bool   // a write was refused; else a read
	Path  string // the path as the plan named it, resolved
	Why   string
	Flag  string // the flag that allows it; "" when none does
	// Input: the write was refused because the file is the plan, a part
	// of it or a file it reads, which no listener writes over.
	Input bool
}

func (e *DeniedError) Error() string {
	verb := "reading"
	if e.Write {
		verb = "writing"
	}
	s := fmt.Sprintf("%s %s is not allowed: %s", verb, e.Path, e.Why)
	switch e.Flag {
	case "":
	case allowAll:
		s += "; allow it with " + allowAll
	default:
		s += "; allow it with " + e.Flag + " (or " + allowAll + ")"
	}
	return s
}

// Is makes errors.Is(err, ErrDenied) true.
func (e *DeniedError) Is(target error) bool { return target == ErrDenied }

// allowAll is the flag that lets a plan use any file.
const allowAll = "--allow-all-files"

// MissingError is a file the plan names that is not there, nor a file of
// its base name beside the plan or in the working folder.
type MissingError struct {
	Name   string   // the name as the plan gives it
	Looked []string // where it was looked for, in order
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("%q not found (looked for %s)", e.Name, strings.Join(e.Looked, ", "))
}

// Is makes errors.Is(err, fs.ErrNotExist) true.
func (e *MissingError) Is(target error) bool { return target == fs.ErrNotExist }

// Resolve is where a file name the plan gives points: an absolute name
// stays; a relative one is taken from the plan's folder, or from the
// working folder when it exists only there.
func (p *Policy) Resolve(name string) string {
	if name == "" || filepath.IsAbs(name) {
		return name
	}
	inPlan := filepath.Join(p.planDir, name)
	if p.planDir == "" || exists(inPlan) {
		return inPlan
	}
	if exists(name) {
		return name
	}
	return inPlan
}

// Found is a file the plan names for reading, located by Find.
type Found struct {
	// Path is the file to read.
	Path string
	// Named is where the plan's name points (Resolve).
	Named string
	// Where is "beside the plan" or "in the working folder" when Named is
	// absent and Path is a file of the same name found there; else "".
	Where string
}

// Kind is what the plan reads a file as.
type Kind uint8

const (
	// Data is a file the plan reads as data (a CSV Data Set's, a
	// function's, a file to upload): a script may write it, as plans that
	// write the CSV a later thread group reads do in JMeter; a listener
	// may not.
	Data Kind = iota + 1
	// Code is a file that is part of the plan (an included plan, a script
	// file): nothing writes over it, as over the plan itself.
	Code
)

// Find locates a data file the plan names for reading, as JMeter's
// FileServer would, and more leniently: when the file is absent, a file of
// the same base name beside the plan or in the working folder stands in
// for it (a plan made on another machine names paths of that machine). A
// file outside the allowed folders is refused (ErrDenied) whether or not a
// stand-in exists; one that is absent, with no stand-in, is a
// *MissingError. Found files count as the plan's inputs, which no listener
// may write over.
func (p *Policy) Find(name string) (Found, error) { return p.find(name, Data) }

// FindCode is Find for a file that is part of the plan (an included plan,
// a script file), which nothing may write over.
func (p *Policy) FindCode(name string) (Found, error) { return p.find(name, Code) }

func (p *Policy) find(name string, kind Kind) (Found, error) {
	named := p.Resolve(name)
	p.note(named, kind) // an absent input is still no file to write results into
	if st, err := os.Stat(named); err == nil && !st.IsDir() {
		if err := p.CheckRead(named); err != nil {
			return Found{Named: named}, err
		}
		return Found{Path: named, Named: named}, nil
	}
	looked := []string{abs(named)}
	type candidate struct{ path, where string }
	var candidates []candidate
	if slash := strings.ReplaceAll(name, `\`, "/"); slash != name && !filepath.IsAbs(slash) {
		// A Windows path, relative: its folders exist here with slashes.
		candidates = append(candidates, candidate{filepath.Join(p.planDir, slash), "beside the plan"}, candidate{slash, "in the working folder"})
	}
	base := baseName(name)
	candidates = append(candidates, candidate{filepath.Join(p.planDir, base), "beside the plan"}, candidate{filepath.Join(p.workDir, base), "in the working folder"})
	for _, c := range candidates {
		if slices.Contains(looked, abs(c.path)) {
			continue
		}
		looked = append(looked, abs(c.path))
		if st, err := os.Stat(c.path); err != nil || !st.Mode().IsRegular() || p.CheckRead(c.path) != nil {
			continue
		}
		p.note(c.path, kind)
		return Found{Path: c.path, Named: named, Where: c.where}, nil
	}
	return Found{Named: named}, &MissingError{Name: name, Looked: looked}
}

// baseName is the last element of a path written with either separator.
func baseName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		return name[i+1:]
	}
	return name
}

// CheckRead reports whether the plan may read path: nil, or a
// *DeniedError.
func (p *Policy) CheckRead(path string) error {
	real := realPath(path)
	if why := closed(real); why != "" {
		return &DeniedError{Path: path, Why: why + " are never read as data"}
	}
	if st, err := os.Stat(real); err == nil && !st.Mode().IsRegular() && !st.IsDir() {
		return &DeniedError{Path: path, Why: "it is not a regular file (a device, pipe or socket)"}
	}
	if p.all || within(p.read, real) != "" {
		return nil
	}
	return &DeniedError{Path: path, Why: "a plan reads only under " + names(p.read[:p.defaults]), Flag: "--allow-read " + filepath.Dir(real)}
}

// CheckWrite reports whether the plan may write path (created or appended
// to): never over the plan itself or a file it reads, else under the
// allowed folders. Relative paths are the working folder's, as JMeter's
// listeners have them.
func (p *Policy) CheckWrite(path string) error { return p.checkWrite(path, false) }

// CheckScriptWrite reports whether a script may write or delete path: as
// CheckWrite (but a file the plan reads, which a script may write as
// JMeter's do), only under the plan's folder, the output folder and the
// --allow-write folders (the working folder only when it is in one of
// them), and never a file or folder whose name starts with a dot below
// them (.bashrc, .ssh/…), whatever the flags but --allow-all-files.
func (p *Policy) CheckScriptWrite(path string) error { return p.checkWrite(path, true) }

func (p *Policy) checkWrite(path string, script bool) error {
	real := realPath(path)
	st, err := os.Stat(real)
	if err != nil || !st.Mode().IsRegular() {
		st = nil // no file yet, or no file a plan is
	}
	p.mu.Lock()
	input := p.inputs[real]
	code := p.code
	write, scriptWrite := p.write, p.scriptWrite
	p.mu.Unlock()
	if why := p.partOfPlan(real, st, input, code); why != "" {
		return &DeniedError{Write: true, Path: path, Why: why, Input: true}
	}
	// A listener's file over an input is a slip (a results file and a CSV
	// Data Set both named by an unset ${__P(x)}); a script that writes a
	// file the plan reads means it, as plans that write the CSV a later
	// thread group reads do in JMeter.
	if input != 0 && !script {
		return &DeniedError{Write: true, Path: path, Why: "the plan reads it", Input: true}
	}
	if why := closed(real); why != "" {
		return &DeniedError{Write: true, Path: path, Why: why + " are never written"}
	}
	if p.all {
		return nil
	}
	if !script {
		if within(write, real) != "" {
			return nil
		}
		return &DeniedError{Write: true, Path: path, Why: "a plan writes only under " + names(p.write[:p.defaults]) + " and the output folder",
			Flag: "--allow-write " + filepath.Dir(real)}
	}
	// A dot-name below one folder may be a plain name below another (an
	// output folder .results made in the plan's folder).
	dot := ""
	for _, r := range scriptWrite {
		if r.holds(real) {
			if dot = dotName(r.path, real); dot == "" {
				return nil
			}
		}
	}
	if dot != "" {
		return &DeniedError{Write: true, Path: path, Why: "a script never writes a file or folder whose name starts with a dot (" + dot + ")", Flag: allowAll}
	}
	where := "the output folder and the --allow-write folders"
	if p.planDir != "" {
		where = "the plan's folder " + abs(p.planDir) + ", " + where
	}
	return &DeniedError{Write: true, Path: path, Why: "a script writes only under " + where, Flag: "--allow-write " + filepath.Dir(real)}
}

// dotName is the first name in path below the folder r that starts with a
// dot, or "".
func dotName(r, path string) string {
	rel, err := filepath.Rel(r, path)
	if err != nil || rel == "." {
		return ""
	}
	for _, name := range strings.Split(rel, string(filepath.Separator)) {
		if strings.HasPrefix(name, ".") {
			return name
		}
	}
	return ""
}

// AllowWrite adds a folder the run may write under, once the command line
// has decided it (a split run's segment folder, a fresh output folder).
func (p *Policy) AllowWrite(dir string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := root{realPath(dir), "the output folder " + abs(dir)}
	p.write = append(slices.Clip(p.write), out)
	p.scriptWrite = append(slices.Clip(p.scriptWrite), out)
}

// Open opens a file the plan may read, refusing anything but a regular
// file. It opens the file through its allowed folder (os.Root), so that
// nothing swapped in on the way leads out of it.
func (p *Policy) Open(path string) (*os.File, error) { return p.open(path, true) }

// open opens a file the plan may read; note counts it as one of the
// plan's inputs.
func (p *Policy) open(path string, note bool) (*os.File, error) {
	if err := p.CheckRead(path); err != nil {
		return nil, err
	}
	real := realPath(path)
	var f *os.File
	var err error
	if r := within(p.read, real); r != "" && !p.all {
		rel, _ := filepath.Rel(r, real)
		f, err = os.OpenInRoot(r, rel)
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = &fs.PathError{Op: "open", Path: path, Err: pe.Err}
		}
	} else {
		f, err = os.Open(real)
	}
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, &DeniedError{Path: path, Why: "it is not a regular file"}
	}
	if note {
		p.note(real, Data)
	}
	return f, nil
}

// MaxWholeFile is the most ReadFile reads: files read whole (a function's
// file, a script, an included plan) are held in memory.
const MaxWholeFile = 64 << 20

// ReadFile reads a whole file the plan may read, of at most MaxWholeFile
// bytes.
func (p *Policy) ReadFile(path string) ([]byte, error) { return p.readFile(path, true) }

func (p *Policy) readFile(path string, note bool) ([]byte, error) {
	f, err := p.open(path, note)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxWholeFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxWholeFile {
		return nil, fmt.Errorf("%s is larger than %d MiB, the most gojm reads of a whole file", path, MaxWholeFile>>20)
	}
	return b, nil
}

// Inputs are the real paths of the files the plan named to read so far
// (once compiled: those its fields name as text), sorted; files that are
// not there are among them.
func (p *Policy) Inputs() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]string, 0, len(p.inputs))
	for f := range p.inputs {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// note counts path as an input of the kind; a file that is part of the
// plan stays so when it is read again as data.
func (p *Policy) note(path string, kind Kind) {
	real := realPath(path)
	var st fs.FileInfo
	if kind == Code {
		st, _ = os.Stat(real)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inputs[real] >= kind {
		return
	}
	p.inputs[real] = kind
	if st != nil {
		p.code = append(p.code, st)
	}
}

// partOfPlan is why real, which st describes (nil when absent), is the
// plan or a part of it, under its name or another (a hard link); "" when
// it is neither.
func (p *Policy) partOfPlan(real string, st fs.FileInfo, kind Kind, code []fs.FileInfo) string {
	plan := "it is the plan itself"
	part := "it is part of the plan (an included plan or a script file)"
	switch {
	case real == p.planFile:
		return plan
	case kind == Code:
		return part
	case st == nil:
		return ""
	case p.planInfo != nil && os.SameFile(st, p.planInfo):
		return plan
	}
	for _, c := range code {
		if os.SameFile(st, c) {
			return part
		}
	}
	return ""
}

// closed names the system folders never read or written as files of a
// plan, or "" when path is in none.
func closed(real string) string {
	for _, d := range []string{"/proc", "/sys", "/dev"} {
		if real == d || strings.HasPrefix(real, d+"/") {
			return "files under " + d
		}
	}
	return ""
}

// within returns the allowed folder path is in, or "".
func within(roots []root, path string) string {
	for _, r := range roots {
		if r.holds(path) {
			return r.path
		}
	}
	return ""
}

// holds says that path is r's folder or under it.
func (r root) holds(path string) bool {
	return path == r.path || strings.HasPrefix(path, strings.TrimSuffix(r.path, "/")+"/")
}

func names(roots []root) string {
	var s []string
	for _, r := range roots {
		s = append(s, r.what)
	}
	return strings.Join(s, " and ")
}

// realPath is the absolute path of p with every symbolic link on the way
// followed, also when its last elements do not exist yet (a file about to
// be written, through a link that points out of its folder).
func realPath(p string) string {
	return follow(abs(p), 0)
}

func follow(p string, depth int) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	if depth < 40 {
		if target, err := os.Readlink(p); err == nil {
			// A link to something absent: where a write would go.
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(p), target)
			}
			return follow(filepath.Clean(target), depth+1)
		}
	}
	parent := filepath.Dir(p)
	if parent == p {
		return p
	}
	return filepath.Join(follow(parent, depth+1), filepath.Base(p))
}

func abs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
