package config

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/internal/files"
	"github.com/gojm/gojm/internal/java"
	"github.com/gojm/gojm/jmx"
)

// csvDataSet is JMeter's CSV Data Set Config. It is an iteration listener:
// each time the controller it stands under starts an iteration, it reads
// the next record of its file into the variables it names. Where the file
// is read from is JMeter's sharing alias: one reader for all threads
// (keyed by the file name as written), per thread group, per thread, or
// per user-chosen key.
type csvDataSet struct {
	path       string // element path, for messages
	filename   *element.Template
	encoding   string
	names      []string // from variableNames; nil: the file's first line
	delim      string
	delimRune  rune
	quoted     bool
	recycle    bool
	stopThread bool
	ignoreHead bool
	static     bool // the file name is known as the plan compiles: its problems were warned of then
	mode       csvShareMode
	key        string // the user-chosen share key
	warned     sync.Once
	users      *element.Local[csvSrc]    // each user's reader and slots, or why it has none
	files      *element.Shared[csvFiles] // the run's readers by alias
}

type csvShareMode uint8

const (
	shareAll csvShareMode = iota
	shareGroup
	shareThread
	shareKey // any other text: shared by every CSV Data Set with the same file and text
)

// eofValue is what a CSV Data Set's variables hold past the end of a file
// it does not recycle.
const eofValue = "<EOF>"

// parseShareMode reads the shareMode property: JMeter's own values, the
// enum names and the GUI's labels; anything else is a sharing key.
func parseShareMode(s string) (csvShareMode, string) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "sharemode.all", "all", "all threads":
		return shareAll, ""
	case "sharemode.group", "group", "current thread group":
		return shareGroup, ""
	case "sharemode.thread", "thread", "current thread":
		return shareThread, ""
	}
	return shareKey, s
}

// BuildCSVDataSet compiles a CSV Data Set Config. A file name known when
// the plan is compiled (text, properties, user-defined variables) is
// looked for then, and one that is not there is a warning; its header
// line, when it names the variables, is read then too.
func BuildCSVDataSet(c element.Builder, e *jmx.Element) (element.IterationListener, error) {
	ds := &csvDataSet{
		path:       e.Path(),
		filename:   c.Template(e, "filename", strings.TrimSpace(e.Str("filename"))),
		encoding:   e.Str("fileEncoding"),
		delim:      e.Str("delimiter"),
		quoted:     e.Bool("quotedData", false),
		recycle:    e.Bool("recycle", true),
		stopThread: e.Bool("stopThread", false),
		ignoreHead: e.Bool("ignoreFirstLine", false),
	}
	ds.mode, ds.key = parseShareMode(e.StrOr("shareMode", "shareMode.all"))
	ds.files = element.Once(c.Plan(), csvFilesKey, func() *element.Shared[csvFiles] {
		return element.NewShared(c.Plan(), func(*element.VU) *csvFiles { return &csvFiles{m: map[string]*csvShared{}} })
	})
	ds.users = element.NewLocal(c.Plan(), func(vu *element.VU) *csvSrc {
		src, err := ds.attach(vu)
		if err != nil {
			return &csvSrc{err: err}
		}
		return src
	})
	switch ds.delim {
	case `\t`:
		ds.delim = "\t"
	case "":
		ds.delim = ","
	}
	ds.delimRune, _ = utf8.DecodeRuneInString(ds.delim)
	if _, err := java.Charset(ds.encoding); err != nil {
		return nil, err
	}
	if names := e.Str("variableNames"); strings.TrimSpace(names) != "" {
		for _, n := range splitNames(names, ",") {
			ds.names = append(ds.names, strings.TrimSpace(n))
		}
	}
	// JMeter 5.6 runs a plan whose data file is not there: FileServer
	// cannot open it when the CSV Data Set's first iteration starts, and
	// the exception that ends (CSVDataSet.iterationStart is not guarded
	// against it) ends the thread, in every sharing and recycle mode.
	const then = "JMeter runs the plan without it, and each thread stops when it reaches the CSV Data Set " +
		"(JMeter 5.6: \"must exist and be readable\"); put the file beside the plan or fix its name"
	name, static := c.Static(ds.filename)
	ds.static = static || ds.filename.Raw() == ""
	var path string // the file read, when it is known as the plan compiles
	switch {
	case ds.filename.Raw() == "":
		c.Warn(e, "the CSV Data Set has no file name: "+then)
	case static && strings.TrimSpace(name) == "":
		c.Warn(e, fmt.Sprintf("the CSV Data Set's file name %q is empty when the plan starts (is a property or variable missing?): %s", ds.filename.Raw(), then))
	case static:
		path = element.Input(c, e, "CSV Data Set file", strings.TrimSpace(name), then)
		if path != "" && ds.names == nil {
			head, err := readCSVHeader(c.Plan().Files, path, ds.encoding, ds.delimRune)
			if err != nil {
				c.Warn(e, fmt.Sprintf("CSV Data Set file %s: %v: each thread stops when it reaches the CSV Data Set, as in JMeter", path, err))
			}
			for _, n := range head {
				c.Plan().Var(n)
			}
		}
	}
	for _, n := range ds.names {
		c.Plan().Var(n)
	}
	if path != "" && ds.mode != shareThread {
		c.Plan().DataFiles = append(c.Plan().DataFiles, ds.dataFile(c.Plan().Files, path))
	}
	return ds, nil
}

// splitNames is JOrphanUtils.split(s, sep, false): cut at every sep, empty
// fields kept, except that an empty s has no fields.
func splitNames(s, sep string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, sep)
}

// csvSrc is one virtual user's view of a CSV Data Set: the reader it
// shares and the variable slots it fills.
type csvSrc struct {
	file   *csvFile
	names  []string
	slots  []int    // -1: a name the plan never mentions
	fields []string // the last record's fields, kept for the next record's
	err    error    // why the file could not be opened
}

func (ds *csvDataSet) IterationStart(vu *element.VU) {
	src := ds.users.Get(vu)
	if src.err != nil {
		// JMeter 5.6's FileServer throws IllegalArgumentException, which
		// CSVDataSet does not catch: "Test failed!", the thread ends.
		if !ds.static {
			ds.warned.Do(func() { vu.Warnf("%s: %v: the thread stops, as in JMeter", ds.path, src.err) })
		}
		vu.StopThread()
		return
	}
	vals, err := ds.read(src.file, vu, src.fields[:0])
	if cap(vals) > cap(src.fields) {
		src.fields = vals[:0]
	}
	if err != nil {
		vu.Warnf("%s: %v", ds.path, err) // JMeter treats it as the end of the file
		vals = nil
	}
	for i := 0; i < len(src.names) && i < len(vals); i++ {
		src.put(vu, i, vals[i])
	}
	if len(vals) == 0 {
		if ds.stopThread {
			vu.Log.Info(fmt.Sprintf("End of file detected for CSV DataSet %s configured with stopThread: the thread stops", ds.path), "thread", vu.Name)
			vu.StopThread()
			return
		}
		for i := range src.names {
			src.put(vu, i, eofValue)
		}
	}
}

func (s *csvSrc) put(vu *element.VU, i int, v string) {
	if s.slots[i] >= 0 {
		vu.Vars.PutSlot(s.slots[i], v)
		return
	}
	vu.Vars.Put(s.names[i], v)
}

// attach finds (or opens) the reader of the CSV Data Set's alias for a
// virtual user, once in the user's life as JMeter does per thread.
func (ds *csvDataSet) attach(vu *element.VU) (*csvSrc, error) {
	name := strings.TrimSpace(ds.filename.Eval(vu))
	if name == "" {
		return nil, errors.New("the file name is empty")
	}
	skip := ds.ignoreHead || ds.names == nil
	open := func() (*csvFile, error) {
		f, err := vu.Plan.Files.Find(name)
		if err != nil {
			return nil, err
		}
		return openCSVFile(vu.Plan.Files, f.Path, ds.encoding, ds.delimRune, skip)
	}
	var f *csvFile
	var err error
	switch ds.mode {
	case shareThread:
		f, err = open()
	default:
		alias := name
		switch ds.mode {
		case shareGroup:
			alias = fmt.Sprintf("%s@%p", name, vu.Group)
		case shareKey:
			alias = name + "@" + ds.key
		}
		f, err = ds.files.Get(vu).csvFile(alias, open)
	}
	if err != nil {
		return nil, err
	}
	src := &csvSrc{file: f, names: ds.names}
	if src.names == nil {
		src.names = f.header
	}
	src.slots = make([]int, len(src.names))
	for i, n := range src.names {
		src.slots[i] = -1
		if s, ok := vu.Plan.Symbols().Lookup(n); ok {
			src.slots[i] = s
		}
	}
	return src, nil
}

// csvFile is an open data file (FileServer's entry for one alias): a
// reader shared under a lock, read again from its start when it recycles.
type csvFile struct {
	mu      sync.Mutex
	files   *files.Policy
	path    string
	enc     string
	delim   rune
	skip    bool // the first line is not data (a header, or ignoreFirstLine)
	header  []string
	file    *java.TextFile
	r       *bufio.Reader // nil when the file could not be read again
	tooLong bool          // a line over java.MaxLine was met
	stripe  sync.Mutex    // a split run's reads, striped (csv_segment.go)
	reads   int64         // records read by every reader of the run
}

func openCSVFile(pol *files.Policy, path, enc string, delim rune, skip bool) (*csvFile, error) {
	f := &csvFile{files: pol, path: path, enc: enc, delim: delim, skip: skip}
	fh, err := pol.Open(path)
	if err != nil {
		return nil, err
	}
	if f.file, err = java.NewTextFile(fh, enc); err != nil {
		return nil, err
	}
	f.r = bufio.NewReader(f.file)
	if skip {
		line, ok, err := java.ReadLine(f.r)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("file %s is empty: it has no header line", path)
		}
		f.header, err = parseCSVRecord(bufio.NewReader(strings.NewReader(line)), delim, nil)
		if err != nil {
			return nil, fmt.Errorf("could not split the header line of %s: %w", path, err)
		}
		for i := range f.header {
			f.header[i] = strings.TrimSpace(f.header[i])
		}
	}
	return f, nil
}

// rewind goes back to the start of the file, skipping the first line if
// asked. JMeter's FileServer closes the file and opens it again; the open
// file is read again instead, keeping its reader and buffer (see "CSV Data
// Set" in docs/compatibility.md).
func (f *csvFile) rewind(skipFirst bool) error {
	if err := f.file.Rewind(); err != nil {
		f.r = nil
		return err
	}
	f.r.Reset(f.file)
	if skipFirst {
		if _, _, err := java.ReadLine(f.r); err != nil {
			return err
		}
	}
	return nil
}

// next reads the next record; no values at the end of a file that does
// not recycle (or that has no data).
func (f *csvFile) next(ds *csvDataSet, buf []string) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.tooLong {
		return nil, nil
	}
	if f.r == nil {
		return nil, errors.New("the file could not be read again from its start")
	}
	vals, err := f.read(ds, buf)
	if errors.Is(err, java.ErrLineTooLong) {
		f.tooLong = true // nothing after it is read: the end of the file, for good
	}
	return vals, err
}

// read reads the next record, its fields in buf.
func (f *csvFile) read(ds *csvDataSet, buf []string) ([]string, error) {
	if ds.quoted {
		if ds.recycle {
			if _, err := f.r.Peek(1); err == io.EOF {
				if err := f.rewind(f.skip); err != nil {
					return nil, err
				}
			}
		}
		return parseCSVRecord(f.r, f.delim, buf)
	}
	line, ok, err := java.ReadLine(f.r)
	if err != nil {
		return nil, err
	}
	if !ok && ds.recycle {
		if err := f.rewind(f.skip); err != nil {
			return nil, err
		}
		if line, ok, err = java.ReadLine(f.r); err != nil {
			return nil, err
		}
	}
	if !ok {
		return nil, nil
	}
	return splitLine(line, ds.delim, buf), nil
}

// splitLine is JOrphanUtils.split(line, delim, false) as CSV Data Set uses
// it on unquoted data: cut at every delimiter, empty fields kept; an
// empty line has no fields (and so reads as the end of the file). The
// fields are appended to buf[:0].
func splitLine(line, delim string, buf []string) []string {
	if line == "" {
		return nil
	}
	if delim == "" { // never so in a data set, whose delimiter is "," when empty
		return append(buf[:0], strings.Split(line, delim)...)
	}
	buf = buf[:0]
	for {
		field, rest, found := strings.Cut(line, delim)
		buf = append(buf, field)
		if !found {
			return buf
		}
		line = rest
	}
}

// parseCSVRecord reads one record of quoted CSV as JMeter's
// CSVSaveService.csvReadFile: fields may be quoted with '"' ("" inside is a
// quote) and then hold delimiters and line ends; a quote inside a plain
// field, or text after a closing quote, is an error. No fields at the end
// of the input. The fields are appended to buf[:0].
func parseCSVRecord(r *bufio.Reader, delim rune, buf []string) ([]string, error) {
	const (
		initial = iota
		plain
		quoted
		embedded
	)
	state := initial
	fields := buf[:0]
	var b strings.Builder
	push := false
	size := 0
	for {
		ch, n, err := r.ReadRune()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if size += n; size > java.MaxLine {
			return nil, java.ErrLineTooLong // a quoted field that never ends
		}
		eol := ch == '\n' || ch == '\r'
		delimOrEOL := ch == delim || eol
		push = false
		switch state {
		case initial:
			switch {
			case ch == '"':
				state = quoted
			case delimOrEOL:
				push = true
			default:
				b.WriteRune(ch)
				state = plain
			}
		case plain:
			switch {
			case ch == '"':
				b.WriteRune(ch)
				return nil, fmt.Errorf("cannot have quote-char in plain field:[%s]", b.String())
			case delimOrEOL:
				push = true
				state = initial
			default:
				b.WriteRune(ch)
			}
		case quoted:
			if ch == '"' {
				state = embedded
			} else {
				b.WriteRune(ch)
			}
		case embedded:
			switch {
			case ch == '"':
				b.WriteRune('"')
				state = quoted
			case delimOrEOL:
				push = true
				state = initial
			default:
				b.WriteRune('"')
				return nil, fmt.Errorf("cannot have single quote-char in quoted field:[%s]", b.String())
			}
		}
		if push {
			if ch == '\r' {
				if n, err := r.Peek(1); err == nil && n[0] == '\n' {
					_, _ = r.ReadByte()
				}
			}
			fields = append(fields, b.String())
			b.Reset()
		}
		if eol && state != quoted {
			return fields, nil
		}
	}
	if state == quoted {
		return nil, fmt.Errorf("missing trailing quote-char in quoted field:[\"%s]", b.String())
	}
	if b.Len() > 0 || push || state == embedded {
		fields = append(fields, b.String())
	}
	return fields, nil
}

// readCSVHeader reads the names on a file's first line.
func readCSVHeader(pol *files.Policy, path, enc string, delim rune) ([]string, error) {
	f, err := openCSVFile(pol, path, enc, delim, true)
	if err != nil {
		return nil, err
	}
	f.file.Close()
	return f.header, nil
}

// csvFile returns the plan's reader for a sharing alias, opening it the
// first time.
func (d *csvFiles) csvFile(alias string, open func() (*csvFile, error)) (*csvFile, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if s, ok := d.m[alias]; ok {
		return s.file, s.err
	}
	f, err := open()
	d.m[alias] = &csvShared{file: f, err: err}
	return f, err
}

// csvFiles are a run's CSV Data Set readers, by JMeter's sharing alias
// (JMeter's FileServer): one per plan, shared by every CSV Data Set.
type csvFiles struct {
	mu sync.Mutex
	m  map[string]*csvShared
}

var csvFilesKey = element.NewKey[*element.Shared[csvFiles]]("CSV Data Set files")

// csvShared is a reader shared under an alias, or why it could not open.
type csvShared struct {
	file *csvFile
	err  error
}
