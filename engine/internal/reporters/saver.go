package reporters

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
	"github.com/gojm/gojm/report"
)

// ResultSaver's properties.
const (
	propFilename  = "FileSaver.filename"
	propVariable  = "FileSaver.variablename"
	propErrors    = "FileSaver.errorsonly"
	propSuccesses = "FileSaver.successonly"
	propNoNumber  = "FileSaver.skipautonumber"
	propNoSuffix  = "FileSaver.skipsuffix"
	propTimestamp = "FileSaver.addTimstamp" // sic
	propPad       = "FileSaver.numberPadLen"
	propIgnoreTC  = "FileSaver.ignoreTC"
)

// saver is one Save Responses to a file element. JMeter shares one
// instance among all threads (NoThreadClone), with one sequence of file
// numbers for the run.
type saver struct {
	name, variable                              *element.Template
	errorsOnly, successOnly, noNumber, noSuffix bool
	timestamp, ignoreTC                         bool
	pad                                         int
	run                                         *element.Shared[runState]
	path                                        string
}

// runState is a saver's state in one run: its file numbers and the
// folders it has made.
type runState struct {
	seq   atomic.Int64
	stamp string
	dirs  sync.Map // folder → made (struct{})
	warn  sync.Once
}

// BuildSaver compiles a Save Responses to a file element.
func BuildSaver(c element.Builder, e *jmx.Element) (element.SampleListener, error) {
	s := &saver{
		name:        c.Prop(e, propFilename),
		variable:    c.Prop(e, propVariable),
		errorsOnly:  e.Bool(propErrors, false),
		successOnly: e.Bool(propSuccesses, false),
		noNumber:    e.Bool(propNoNumber, false),
		noSuffix:    e.Bool(propNoSuffix, false),
		timestamp:   e.Bool(propTimestamp, false),
		ignoreTC:    e.Bool(propIgnoreTC, true),
		pad:         jmx.Int(e.Str(propPad), 0),
		path:        e.Path(),
	}
	if n, ok := c.Static(s.name); ok {
		if inside(n) != filepath.Clean(filepath.FromSlash(strings.ReplaceAll(n, `\`, "/"))) {
			c.Plan().Log.Warn("Save Responses to a file writes inside the run's output folder only: "+
				strconv.Quote(n)+" is written as "+strconv.Quote(filepath.Join("<output folder>", inside(n))), "element", e.Path())
		}
	}
	s.run = element.NewShared(c.Plan(), func(vu *element.VU) *runState {
		st := &runState{}
		if s.timestamp {
			st.stamp = vu.Run.Start.Format("20060102-1504_")
		}
		return st
	})
	return s, nil
}

// inside is a file name as a path inside a folder: slashes of either
// kind, a drive letter dropped, and no way out through "..".
func inside(name string) string {
	n := strings.ReplaceAll(name, `\`, "/")
	if len(n) >= 2 && n[1] == ':' {
		n = n[2:]
	}
	return filepath.FromSlash(strings.TrimPrefix(filepath.ToSlash(filepath.Clean("/"+n)), "/"))
}

// SampleOccurred saves the sample and its sub-samples, in JMeter's order
// (each sample before its sub-samples).
func (s *saver) SampleOccurred(vu *element.VU, r *element.Result) {
	if vu.Run == nil || vu.Run.OutDir == "" {
		s.run.Get(vu).warn.Do(func() {
			vu.Warnf("%s: Save Responses to a file writes inside the run's output folder only, and this run has none (-o): nothing is saved", s.path)
		})
		return
	}
	n := 0
	s.save(vu, &r.Sample, r.Body, r.Head.Get("Content-Type"), &n)
	for _, sub := range r.Sub {
		s.saveTree(vu, sub, &n)
	}
}

func (s *saver) saveTree(vu *element.VU, smp *report.Sample, n *int) {
	var data []byte
	if smp.Detail != nil {
		data = smp.Detail.ResponseData
	}
	s.save(vu, smp, data, contentType(smp), n)
	for _, sub := range smp.Sub {
		s.saveTree(vu, sub, n)
	}
}

// contentType is a sub-sample's Content-Type, from the response headers
// it keeps.
func contentType(smp *report.Sample) string {
	if smp.Detail == nil {
		return ""
	}
	for _, l := range strings.Split(smp.Detail.ResponseHeaders, "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.EqualFold(strings.TrimSpace(k), "Content-Type") {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// save writes one sample's data, unless it is to be ignored, and sets the
// variable to the file's name (JMeter's saveSample).
func (s *saver) save(vu *element.VU, smp *report.Sample, data []byte, ctype string, n *int) {
	num := *n
	*n++
	if (s.ignoreTC && smp.Transaction) || (smp.Success && s.errorsOnly) || (!smp.Success && s.successOnly) {
		return
	}
	st := s.run.Get(vu)
	name := s.fileName(vu, st, ctype)
	if v := s.variable.Eval(vu); v != "" {
		if num > 0 {
			v += strconv.Itoa(num)
		}
		vu.Vars.Put(v, name)
	}
	dir := filepath.Dir(name)
	if _, made := st.dirs.Load(dir); !made {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			vu.Warnf("%s: %v", s.path, err)
			return
		}
		st.dirs.Store(dir, struct{}{})
	}
	// JMeter logs a file it cannot write and goes on.
	if err := os.WriteFile(name, data, 0o644); err != nil {
		vu.Warnf("%s: saving %s: %v", s.path, smp.Label, err)
	}
}

// fileName is JMeter's makeFileName inside the output folder: the prefix,
// the run's timestamp, the next number (padded) and a suffix from the
// content type ("html" for text/html; charset=…, else "unknown").
func (s *saver) fileName(vu *element.VU, st *runState, ctype string) string {
	var b strings.Builder
	b.WriteString(inside(s.name.Eval(vu)))
	b.WriteString(st.stamp)
	if !s.noNumber {
		num := strconv.FormatInt(st.seq.Add(1), 10)
		for i := len(num); i < s.pad; i++ {
			b.WriteByte('0')
		}
		b.WriteString(num)
	}
	if !s.noSuffix {
		b.WriteByte('.')
		b.WriteString(suffix(ctype))
	}
	return filepath.Join(vu.Run.OutDir, b.String())
}

func suffix(ctype string) string {
	i := strings.IndexByte(ctype, '/')
	if i < 0 {
		return "unknown"
	}
	if j := strings.IndexByte(ctype, ';'); j > i {
		return ctype[i+1 : j]
	}
	return ctype[i+1:]
}
