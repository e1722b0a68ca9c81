package report

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"
)

// jtlBufferSize is the size of a JTL writer's buffer. Rows are written out
// only whole, when the buffer passes jtlFlushAt, on Tick and on Close.
const (
	jtlBufferSize = 256 << 10
	jtlFlushAt    = jtlBufferSize - 16<<10
	maxSubDepth   = 10 // JMeter stops writing sub-results below this depth
)

// CSVWriter is a Sink writing samples as a JMeter CSV JTL, byte for byte as
// JMeter 5.6 does: the configured columns in JMeter's order, sample
// variables last, JMeter's quoting (a field holding the delimiter, a quote,
// CR or LF is quoted, quotes doubled), "null" for a missing URL, and each
// sub-result on its own row after its parent.
//
// Rows are encoded into a large buffer and written out only whole, so the
// file never ends in a partial row. It implements Ticker: each tick writes
// out what is buffered, so a file being watched stays at most a tick late.
// Not safe for concurrent use (sinks are fed by one goroutine).
type CSVWriter struct {
	out    *jtlOut
	cols   []column
	nvars  int
	delim  byte
	layout string // Go layout when timestamps are dates, "" for ms
	loc    *time.Location
	host   string
	subs   bool
}

// jtlOut is a results file's output: the buffer whole rows (or samples)
// are encoded into and the file they are written to. Writers of listeners
// naming the same file share it (ResultFiles).
type jtlOut struct {
	w      io.Writer
	closer io.Closer
	buf    []byte
	err    error
	// syncing is set while a background fsync of the file runs (sync).
	syncing atomic.Bool
}

// write writes the buffered rows out to the file.
func (o *jtlOut) write() {
	if o.err != nil || len(o.buf) == 0 {
		return
	}
	if _, err := o.w.Write(o.buf); err != nil {
		o.err = fmt.Errorf("jtl: %w", err)
	}
	o.buf = o.buf[:0]
}

// tick writes the buffered rows out and has the kernel put the file on
// disk in the background, so that a machine lost mid-run loses about the
// last second of rows rather than whatever the page cache held (tens of
// seconds by default). The collector never waits for the disk: an fsync
// still running at the next tick is left to finish.
func (o *jtlOut) tick() {
	o.write()
	f, ok := o.closer.(*os.File)
	if !ok || o.err != nil || !o.syncing.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer o.syncing.Store(false)
		f.Sync() // a file closed meanwhile was synced by close
	}()
}

// close writes out the rest, syncs the file and closes it; it returns the
// first error met while writing.
func (o *jtlOut) close() error {
	o.write()
	err := o.err
	if f, ok := o.closer.(*os.File); ok && err == nil {
		// A pipe or a terminal (-l /dev/stdout) cannot be synced, and
		// needs not be.
		if serr := f.Sync(); serr != nil && !errors.Is(serr, syscall.EINVAL) && !errors.Is(serr, syscall.ENOTSUP) {
			err = fmt.Errorf("jtl: %w", serr)
		}
	}
	if o.closer != nil {
		if cerr := o.closer.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("jtl: %w", cerr)
		}
		o.closer = nil
	}
	if o.err == nil {
		o.err = errClosed
	}
	return err
}

func newJTLOut(w io.Writer) *jtlOut {
	return &jtlOut{w: w, buf: make([]byte, 0, jtlBufferSize)}
}

// NewCSVWriter returns a CSVWriter into w saving what cfg says
// (DefaultSaveConfig: JMeter 5.6's default columns), plus one column per
// sample variable (Sample.Vars), named in the header as JMeter does:
// "name" in quotes. It writes the header line when cfg.FieldNames is set.
// OpenResultFile opens a results file instead.
func NewCSVWriter(w io.Writer, cfg SaveConfig, varNames []string) (*CSVWriter, error) {
	cw, err := newCSVWriter(w, cfg, len(varNames))
	if err != nil {
		return nil, err
	}
	if cfg.FieldNames {
		cw.out.buf = append(cw.out.buf, cfg.CSVHeader(varNames)...)
		cw.out.buf = append(cw.out.buf, '\n')
	}
	return cw, nil
}

// newCSVWriter is NewCSVWriter without the header line, which a writer
// joining a shared file (ResultFiles) must not repeat.
func newCSVWriter(w io.Writer, cfg SaveConfig, nvars int) (*CSVWriter, error) {
	cw := &CSVWriter{
		out:   newJTLOut(w),
		cols:  cfg.columns(),
		nvars: nvars,
		delim: cfg.delim(),
		subs:  cfg.SubResults,
		loc:   time.Local,
	}
	if cfg.Timestamp && cfg.TimestampFormat != "" && cfg.TimestampFormat != "ms" {
		l, err := javaDateLayout(cfg.TimestampFormat)
		if err != nil {
			return nil, fmt.Errorf("jtl writer: %w", err)
		}
		cw.layout = l
	}
	if cfg.Hostname {
		cw.host, _ = os.Hostname()
	}
	return cw, nil
}

// OpenResultFile opens path for a results file as a ResultCollector with
// save configuration cfg would: CSV or XML, appended to an existing file,
// its parent directories created.
func OpenResultFile(path string, cfg SaveConfig, varNames []string) (Sink, error) {
	if cfg.XML {
		return openXML(path, cfg, varNames)
	}
	return openCSV(path, cfg, varNames)
}

// openCSV opens path for a CSV JTL. Like JMeter it appends to an existing
// file; the header is written only when the file is new or empty.
func openCSV(path string, cfg SaveConfig, varNames []string) (*CSVWriter, error) {
	f, empty, err := openAppend(path)
	if err != nil {
		return nil, err
	}
	cfg.FieldNames = cfg.FieldNames && empty
	cw, err := NewCSVWriter(f, cfg, varNames)
	if err != nil {
		f.Close()
		return nil, err
	}
	cw.out.closer = f
	return cw, nil
}

// openAppend opens path for appending, creating it and its directories,
// and reports whether it was empty.
func openAppend(path string) (*os.File, bool, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, false, fmt.Errorf("jtl: %w", err)
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, false, fmt.Errorf("jtl: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, false, fmt.Errorf("jtl: %w", err)
	}
	return f, st.Size() == 0, nil
}

// Add encodes s (and its sub-results) as rows.
func (cw *CSVWriter) Add(s *Sample) {
	if cw.out.err != nil {
		return
	}
	cw.row(s, s.Vars)
	if cw.subs {
		cw.subRows(s, s.Vars, 0)
	}
	if len(cw.out.buf) >= jtlFlushAt {
		cw.flush()
	}
}

func (cw *CSVWriter) subRows(s *Sample, vars []string, depth int) {
	if depth > maxSubDepth {
		return
	}
	for _, sub := range s.Sub {
		cw.row(sub, vars)
		cw.subRows(sub, vars, depth+1)
	}
}

func (cw *CSVWriter) row(s *Sample, vars []string) {
	b := cw.out.buf
	d := cw.delim
	for i, c := range cw.cols {
		if i > 0 {
			b = append(b, d)
		}
		switch c {
		case colTimeStamp:
			if cw.layout != "" {
				// Dates (a non-default timestamp_format) are written in the
				// local time zone, as JMeter does; they allocate.
				b = appendQuoted(b, s.Start.In(cw.loc).AppendFormat(nil, cw.layout), d)
			} else {
				b = strconv.AppendInt(b, s.Start.UnixMilli(), 10)
			}
		case colElapsed:
			b = strconv.AppendInt(b, millis(s.Elapsed), 10)
		case colLabel:
			b = appendQuoted(b, s.Label, d)
		case colResponseCode:
			b = appendQuoted(b, s.Code, d)
		case colResponseMessage:
			b = appendQuoted(b, s.Message, d)
		case colThreadName:
			b = appendQuoted(b, s.ThreadName, d)
		case colDataType:
			b = appendQuoted(b, s.DataType, d)
		case colSuccess:
			b = strconv.AppendBool(b, s.Success)
		case colFailureMessage:
			b = appendQuoted(b, s.FailureMessage, d)
		case colBytes:
			b = strconv.AppendInt(b, s.Bytes, 10)
		case colSentBytes:
			b = strconv.AppendInt(b, s.SentBytes, 10)
		case colGrpThreads:
			b = strconv.AppendInt(b, int64(s.GrpThreads), 10)
		case colAllThreads:
			b = strconv.AppendInt(b, int64(s.AllThreads), 10)
		case colURL:
			if s.URL == "" {
				b = append(b, "null"...)
			} else {
				b = appendQuoted(b, s.URL, d)
			}
		case colFilename:
			// JMeter writes the name of a saved response file; gojm saves none.
		case colLatency:
			b = strconv.AppendInt(b, millis(s.Latency), 10)
		case colEncoding:
			b = append(b, "UTF-8"...) // JMeter 5.6's default when a sampler sets none
		case colSampleCount:
			b = append(b, '1')
		case colErrorCount:
			if s.Success {
				b = append(b, '0')
			} else {
				b = append(b, '1')
			}
		case colHostname:
			b = appendQuoted(b, cw.host, d)
		case colIdleTime:
			b = strconv.AppendInt(b, millis(s.Idle), 10)
		case colConnect:
			b = strconv.AppendInt(b, millis(s.Connect), 10)
		}
	}
	for i := 0; i < cw.nvars; i++ {
		if i > 0 || len(cw.cols) > 0 {
			b = append(b, d)
		}
		if i < len(vars) {
			b = appendQuoted(b, vars[i], d)
		} else {
			b = append(b, "null"...) // JMeter's text for an unset variable
		}
	}
	cw.out.buf = append(b, '\n')
}

// millis is d in whole milliseconds, as JMeter records durations.
func millis(d time.Duration) int64 { return int64(d / time.Millisecond) }

// appendQuoted appends s, quoted as JMeter quotes CSV fields: only when it
// holds the delimiter, a double quote, CR or LF; inner quotes are doubled.
func appendQuoted[T string | []byte](b []byte, s T, delim byte) []byte {
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		if c <= '"' || c == delim { // one compare for ordinary text
			if c == delim || c == '"' || c == '\n' || c == '\r' {
				break
			}
		}
	}
	if i == len(s) {
		return append(b, s...)
	}
	b = append(b, '"')
	b = append(b, s[:i]...)
	for ; i < len(s); i++ {
		if s[i] == '"' {
			b = append(b, '"')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}

// Tick writes out the buffered rows (and syncs the file in the
// background).
func (cw *CSVWriter) Tick(time.Time) { cw.out.tick() }

// Flush writes out the buffered rows.
func (cw *CSVWriter) Flush() error {
	cw.out.write()
	return cw.out.err
}

func (cw *CSVWriter) flush() { cw.out.write() }

// Close writes out the buffered rows, syncs and closes the file
// OpenResultFile opened. It returns the first error met while writing.
func (cw *CSVWriter) Close() error { return cw.out.close() }

var errClosed = errors.New("jtl: writer closed")
