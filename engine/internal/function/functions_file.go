package function

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/internal/cache"
	"github.com/gojm/gojm/internal/files"
	"github.com/gojm/gojm/internal/java"
)

// This file holds the functions that read files (__StringFromFile,
// __FileToString, __CSVRead) and what they share with the CSV Data Set:
// file names relative to the plan, character sets, per-plan file state.

// errText is what the file functions return when they cannot read.
const errText = "**ERR**"

// input checks a file a function reads when the plan compiles, if its
// name is known then: one outside the folders the plan may read refuses
// the plan, one that is not there is a warning (then: what the function
// gives instead, as in JMeter).
func (tp *Compiler) input(fn string, name *element.Template, then string) error {
	n, ok := tp.StaticValue(name)
	if !ok || n == "" {
		return nil
	}
	_, warning, err := element.FindInput(tp.plan, fn+" file", n, then)
	if warning != "" {
		tp.AddWarning(warning)
	}
	return err
}

// openText opens a file the plan names, as text in a charset.
func openText(p *element.Plan, name, enc string) (io.ReadCloser, error) {
	found, err := p.Files.Find(name)
	if err != nil {
		return nil, err
	}
	f, err := p.Files.Open(found.Path)
	if err != nil {
		return nil, err
	}
	return java.TextReader(f, enc)
}

// stringFromFile is one ${__StringFromFile(…)} call in one run: a line
// reader shared by every virtual user, reopened at the end of the file (or
// moving to the next file of a numbered sequence).
type stringFromFile struct {
	name, start, end *element.Template
	mu               sync.Mutex
	first            bool
	file             io.Closer
	r                *bufio.Reader
	cur, from, to    int
	path             string
}

const seqUnused = -2

// ${__StringFromFile(file,var,start,end)}: the next line of the file,
// saved in var (default "StringFromFile_").
func fnStringFromFile(tp *Compiler, args []*element.Template) (element.Function, error) {
	if tp.runtime {
		return nil, errors.New("__StringFromFile cannot be built while the plan runs")
	}
	if len(args) < 3 { // a numbered sequence of files is named at run time
		if err := tp.input("__StringFromFile", args[0], "the function gives **ERR**, as in JMeter; put the file beside the plan or fix its name"); err != nil {
			return nil, err
		}
	}
	readers := element.NewShared(tp.plan, func(*element.VU) *stringFromFile {
		return &stringFromFile{name: args[0], start: Arg(args, 2), end: Arg(args, 3), first: true, cur: seqUnused, from: seqUnused, to: seqUnused}
	})
	v := Arg(args, 1)
	return element.FuncFunc(func(vu *element.VU) string {
		out := readers.Get(vu).next(vu)
		name := "StringFromFile_"
		if v != nil {
			name = strings.TrimSpace(v.Eval(vu))
		}
		if name != "" {
			vu.Vars.Put(name, out)
		}
		return out
	}), nil
}

func (s *stringFromFile) next(vu *element.VU) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.first {
		s.open(vu)
		s.first = false
	}
	if s.r == nil {
		return errText
	}
	line, ok, err := java.ReadLine(s.r)
	if err != nil {
		vu.Warnf("__StringFromFile: reading %s: %v", s.path, err)
		return errText
	}
	if !ok {
		s.file.Close()
		s.open(vu)
		if s.r == nil {
			if s.to != seqUnused {
				// JMeter throws JMeterStopThreadException: the thread ends.
				vu.Warnf("__StringFromFile: end of the file sequence: the thread stops")
				vu.StopThread()
			}
			return errText
		}
		if line, ok, err = java.ReadLine(s.r); err != nil || !ok {
			return errText
		}
	}
	return line
}

func (s *stringFromFile) open(vu *element.VU) {
	s.r, s.file = nil, nil
	name := s.name.Eval(vu)
	if s.start != nil {
		s.from = seqUnused
		if n, err := strconv.Atoi(s.start.Eval(vu)); err == nil {
			s.from = n
		}
	}
	if s.cur == seqUnused {
		s.cur = 1
		if s.from != seqUnused {
			s.cur = s.from
		}
	}
	if s.end != nil {
		s.to = seqUnused
		if n, err := strconv.Atoi(s.end.Eval(vu)); err == nil {
			s.to = n
		}
	}
	if s.start != nil {
		if s.to != seqUnused && s.cur > s.to {
			return
		}
		if s.from != seqUnused {
			if df, err := java.NewDecimalFormat(name); err == nil {
				name = df.Format(int64(s.cur))
			}
		}
		s.cur++
	}
	f, err := openText(vu.Plan, name, "")
	if err != nil {
		vu.Warnf("__StringFromFile: %v", err)
		return
	}
	s.path = name
	s.file, s.r = f, bufio.NewReader(f)
}

// fileCache keeps files read by __FileToString, reread when they change:
// a plan reading one file on every sample reads it once. It holds a few
// files only, since it holds them whole.
var fileCache = cache.New[fileKey, *cachedFile](16)

type fileKey struct{ path, encoding string }

type cachedFile struct {
	mod  time.Time
	size int64
	text string
}

// ${__FileToString(file,encoding,var)}: the whole file, or "**ERR**".
func fnFileToString(tp *Compiler, args []*element.Template) (element.Function, error) {
	name, enc, v := args[0], Arg(args, 1), Arg(args, 2)
	if err := tp.input("__FileToString", name, "the function gives **ERR**, as in JMeter; put the file beside the plan or fix its name"); err != nil {
		return nil, err
	}
	return StoreAs(v, func(vu *element.VU) string {
		e := EvalOr(enc, vu, "")
		text, err := readWholeFile(vu.Plan, name.Eval(vu), e)
		if err != nil {
			vu.Warnf("__FileToString: %v", err)
			return errText
		}
		return text
	}), nil
}

func readWholeFile(p *element.Plan, name, enc string) (string, error) {
	found, err := p.Files.Find(name)
	if err != nil {
		return "", err
	}
	path := found.Path
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if st.Size() > files.MaxWholeFile {
		return "", fmt.Errorf("%s is larger than %d MiB, the most gojm reads of a whole file", path, files.MaxWholeFile>>20)
	}
	key := fileKey{path, enc}
	if cf, ok := fileCache.Get(key); ok {
		if cf.mod.Equal(st.ModTime()) && cf.size == st.Size() {
			return cf.text, nil
		}
	}
	fh, err := p.Files.Open(path)
	if err != nil {
		return "", err
	}
	f, err := java.TextReader(fh, enc)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 4*files.MaxWholeFile)) // decoded text may be larger than its bytes
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	fileCache.Put(key, &cachedFile{mod: st.ModTime(), size: st.Size(), text: string(b)})
	return string(b), nil
}

// csvReadFile is a file read whole by __CSVRead, shared by every virtual
// user: each user takes the next unread row when it first reads a column
// and after "next".
type csvReadFile struct {
	rows [][]string
	mu   sync.Mutex
	next int
}

func (f *csvReadFile) nextRow() int {
	f.mu.Lock()
	r := f.next
	f.next++
	if f.next >= len(f.rows) {
		f.next = 0
	}
	f.mu.Unlock()
	return r
}

// csvReadRow is a virtual user's position in one __CSVRead file.
type csvReadRow struct {
	file *csvReadFile
	row  int // -1: take the next row on the next read
}

// ${__CSVRead(file,column)}: column (from 0) of this user's current row;
// "next" moves to another row; "*alias" opens file under that alias.
func fnCSVRead(tp *Compiler, args []*element.Template) (element.Function, error) {
	if tp.runtime {
		return nil, errors.New("__CSVRead cannot be built while the plan runs")
	}
	name, col := args[0], args[1]
	if n, ok := tp.StaticValue(name); !ok || !strings.HasPrefix(n, "*") { // "*alias" names no file
		if err := tp.input("__CSVRead", name, "the function gives an empty value, as in JMeter; put the file beside the plan or fix its name"); err != nil {
			return nil, err
		}
	}
	shared, users := runFiles(tp.plan), csvReadLocal(tp.plan)
	return element.FuncFunc(func(vu *element.VU) string {
		n, c := name.Eval(vu), col.Eval(vu)
		files := shared.Get(vu)
		rows := *users.Get(vu)
		if strings.HasPrefix(c, "*") {
			if _, ok := rows[c]; !ok {
				f, err := files.openCSVRead(vu.Plan, n, c)
				if err != nil {
					vu.Warnf("__CSVRead: %v", err)
					return ""
				}
				rows[c] = &csvReadRow{file: f, row: -1}
			}
			return ""
		}
		pos := rows[n]
		if c == "next" || c == "next()" {
			if pos != nil {
				pos.row = -1
			}
			return ""
		}
		if pos == nil {
			if strings.HasPrefix(n, "*") {
				vu.Warnf("__CSVRead: alias %s was never opened", n)
				return ""
			}
			f, err := files.openCSVRead(vu.Plan, n, n)
			if err != nil {
				vu.Warnf("__CSVRead: %v", err)
				return ""
			}
			pos = &csvReadRow{file: f, row: -1}
			rows[n] = pos
		}
		k, err := strconv.Atoi(c)
		if err != nil {
			vu.Warnf("__CSVRead: can't parse column number %q", c)
			return ""
		}
		if len(pos.file.rows) == 0 {
			return ""
		}
		if pos.row < 0 {
			pos.row = pos.file.nextRow()
		}
		row := pos.file.rows[pos.row]
		if k < 0 || k >= len(row) {
			vu.Warnf("__CSVRead: invalid column number %d at row %d", k, pos.row)
			return ""
		}
		return row[k]
	}), nil
}

// loadCSVRead reads a whole file for __CSVRead, stopping at the first
// blank line, each row cut at the delimiter.
func loadCSVRead(p *element.Plan, name, delim string) (*csvReadFile, error) {
	found, err := p.Files.Find(name)
	if err != nil {
		return nil, err
	}
	b, err := p.Files.ReadFile(found.Path)
	if err != nil {
		return nil, err
	}
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	f := &csvReadFile{}
	r := bufio.NewReader(bytes.NewReader(b))
	for {
		line, ok, err := java.ReadLine(r)
		if err != nil {
			return nil, err
		}
		if !ok || line == "" {
			break
		}
		f.rows = append(f.rows, splitCSVReadLine(line, delim))
	}
	return f, nil
}

// splitCSVReadLine cuts a line at each delimiter; two in a row, a leading
// and a trailing one give empty columns.
func splitCSVReadLine(line, delim string) []string {
	if delim == "" {
		return []string{line}
	}
	return strings.Split(line, delim)
}

// dataFiles is a run's files read by __CSVRead, by alias (JMeter's
// FileServer).
type dataFiles struct {
	mu      sync.Mutex
	csvRead map[string]*csvReadFile
}

func (d *dataFiles) openCSVRead(p *element.Plan, name, alias string) (*csvReadFile, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if f, ok := d.csvRead[alias]; ok {
		return f, nil
	}
	delim, ok := p.Props.Get("csvread.delimiter")
	if !ok {
		delim = ","
	}
	if name == "" {
		return nil, errors.New("no file name")
	}
	f, err := loadCSVRead(p, name, delim)
	if err != nil {
		return nil, err
	}
	if d.csvRead == nil {
		d.csvRead = map[string]*csvReadFile{}
	}
	d.csvRead[alias] = f
	return f, nil
}

var (
	runFilesKey = element.NewKey[*element.Shared[dataFiles]]("__CSVRead files")
	csvReadKey  = element.NewKey[*element.Local[map[string]*csvReadRow]]("__CSVRead positions")
)

// runFiles is the plan's handle on each run's data files.
func runFiles(p *element.Plan) *element.Shared[dataFiles] {
	return element.Once(p, runFilesKey, func() *element.Shared[dataFiles] {
		return element.NewShared(p, func(*element.VU) *dataFiles { return &dataFiles{} })
	})
}

// csvReadLocal holds each user's position in every __CSVRead file, by
// file name or alias.
func csvReadLocal(p *element.Plan) *element.Local[map[string]*csvReadRow] {
	return element.Once(p, csvReadKey, func() *element.Local[map[string]*csvReadRow] {
		return element.NewLocal(p, func(*element.VU) *map[string]*csvReadRow { return &map[string]*csvReadRow{} })
	})
}
