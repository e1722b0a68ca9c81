package report

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"time"
)

// ReadOptions tells ReadJTL what JMeter wrote when the file does not say.
type ReadOptions struct {
	// Properties holds jmeter.save.saveservice.* keys (and sample_variables),
	// e.g. from LoadSaveServiceProperties: the column set of a CSV file
	// without a header, its delimiter and its timestamp format.
	Properties map[string]string
	// Config, when set, is the save configuration of a CSV file without a
	// header (e.g. its ResultCollector's saveConfig) and wins over Properties.
	Config *SaveConfig
	// VarNames names the sample_variables columns of a CSV file without a
	// header; by default the sample_variables property.
	VarNames []string
}

// JTLError is a malformed row or element in a JTL file.
type JTLError struct {
	File   string
	Line   int
	Column string // the CSV column or XML attribute, if known
	Err    error
}

// Error formats the error as file:line: column: problem.
func (e *JTLError) Error() string {
	if e.Column != "" {
		return fmt.Sprintf("%s:%d: %s: %v", e.File, e.Line, e.Column, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
}

// Unwrap returns the underlying problem.
func (e *JTLError) Unwrap() error { return e.Err }

// tcPrefix starts the response message of a Transaction Controller's sample.
const tcPrefix = "Number of samples in transaction"

// isTransaction reports whether s is a Transaction Controller's own sample.
func isTransaction(s *Sample) bool {
	return s.Transaction || strings.HasPrefix(s.Message, tcPrefix)
}

// isEmptyTransaction reports whether s is a transaction without samples,
// which JMeter's dashboard leaves out entirely.
func isEmptyTransaction(s *Sample) bool {
	return strings.HasPrefix(s.Message, tcPrefix+" : 0")
}

// ReadJTL decodes a JTL file and feeds each sample to sink, in file order;
// name is used in errors. It recognises XML (by a leading '<') and CSV,
// with a header in any of the column sets JMeter writes, or without one as
// JMeter 2.x wrote by default (columns from opt). Memory stays constant:
// one row or one top-level XML sample at a time. A Transaction Controller's
// sample (response message "Number of samples in transaction…") gets
// Sample.Transaction. ReadJTL does not close sink.
//
// Samples passed to sink are reused for the next row: a sink keeps copies.
func ReadJTL(r io.Reader, name string, sink Sink, opt ReadOptions) error {
	br := bufio.NewReaderSize(r, 64<<10)
	c, err := firstSignificantByte(br)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if c == '<' {
		return readXMLJTL(br, name, sink, opt)
	}
	return readCSVJTL(br, name, sink, opt)
}

// csvLayout maps each field of a row to what it holds.
type csvLayout struct {
	cols  []column // per field; numColumns+k is sample variable k
	nvars int
}

func readCSVJTL(br *bufio.Reader, name string, sink Sink, opt ReadOptions) error {
	cfg, err := readConfig(opt)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if b, _ := br.Peek(3); bytes.Equal(b, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	delim := cfg.delim()
	first := firstLine(br)
	layout, hdrDelim, ok := parseCSVHeader(first, delim)
	line := 1
	if ok {
		delim = hdrDelim
		if _, err := br.Discard(len(first)); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if b, _ := br.Peek(1); len(b) == 1 && (b[0] == '\n' || b[0] == '\r') {
			c := b[0]
			br.Discard(1)
			if b, _ := br.Peek(1); c == '\r' && len(b) == 1 && b[0] == '\n' {
				br.Discard(1)
			}
		}
		line = 2
	} else {
		vars := opt.VarNames
		if vars == nil {
			vars = splitVarNames(opt.Properties["sample_variables"])
		}
		layout.cols = append(layout.cols, cfg.columns()...)
		for k := range vars {
			layout.cols = append(layout.cols, numColumns+column(k))
		}
		layout.nvars = len(vars)
	}
	d := &csvDecoder{
		name: name, layout: layout, dateFormat: cfg.TimestampFormat,
		rd: newCSVReader(br, delim, line), headerless: !ok,
	}
	d.s.Vars = make([]string, layout.nvars)
	for i := range d.interns {
		d.interns[i] = make(map[string]string)
	}
	return d.run(sink)
}

func readConfig(opt ReadOptions) (SaveConfig, error) {
	if opt.Config != nil {
		return *opt.Config, nil
	}
	return SaveConfigFromProperties(opt.Properties)
}

func splitVarNames(v string) []string {
	if strings.TrimSpace(v) == "" {
		return nil
	}
	parts := strings.Split(v, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// peekUntil peeks at more and more of br, reading only what is needed
// (a pipe is never waited on for more than it has), until done says the
// bytes seen suffice, the buffer is full or the input ends.
func peekUntil(br *bufio.Reader, done func([]byte) bool) ([]byte, error) {
	n := 1
	for {
		_, err := br.Peek(n) // waits for n bytes at most
		b, _ := br.Peek(br.Buffered())
		if len(b) > 0 && done(b) {
			return b, nil
		}
		if err != nil {
			if err == io.EOF || err == bufio.ErrBufferFull {
				err = nil
			}
			return b, err
		}
		n = br.Buffered() + 1
		if n > br.Size() {
			return b, nil
		}
	}
}

// firstSignificantByte returns the first byte after a byte order mark and
// white space without consuming anything, or 0 for an empty input.
func firstSignificantByte(br *bufio.Reader) (byte, error) {
	var c byte
	_, err := peekUntil(br, func(b []byte) bool {
		b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
		if len(b) < 3 && bytes.HasPrefix([]byte("\xef\xbb\xbf"), b) {
			return false // maybe a byte order mark still arriving
		}
		if t := bytes.TrimLeft(b, " \t\r\n"); len(t) > 0 {
			c = t[0]
			return true
		}
		return false
	})
	return c, err
}

// firstLine returns the first line of br without consuming it or its line
// end, or "" if it does not fit the buffer.
func firstLine(br *bufio.Reader) string {
	b, _ := peekUntil(br, func(b []byte) bool { return bytes.ContainsAny(b, "\r\n") })
	if i := bytes.IndexAny(b, "\r\n"); i >= 0 {
		return string(b[:i])
	}
	if len(b) < br.Size() {
		return string(b) // the whole input is one line
	}
	return ""
}

var columnByName = func() map[string]column {
	m := make(map[string]column, numColumns)
	for i, n := range columnNames {
		m[n] = column(i)
	}
	return m
}()

// parseCSVHeader recognises a JMeter header line: known column names and
// "quoted" sample variable names, separated by the default delimiter or,
// failing that, by the one non-word character after the first name.
func parseCSVHeader(line string, delim byte) (csvLayout, byte, bool) {
	if l, ok := splitHeader(line, delim); ok {
		return l, delim, true
	}
	i := 0
	for i < len(line) && isWordByte(line[i]) {
		i++
	}
	if i == 0 || i == len(line) || isWordByte(line[i]) {
		return csvLayout{}, 0, false
	}
	d := line[i]
	if l, ok := splitHeader(line, d); ok {
		return l, d, true
	}
	return csvLayout{}, 0, false
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func splitHeader(line string, delim byte) (csvLayout, bool) {
	if line == "" {
		return csvLayout{}, false
	}
	var l csvLayout
	for part := range strings.SplitSeq(line, string(delim)) {
		if len(part) > 2 && part[0] == '"' && part[len(part)-1] == '"' {
			l.cols = append(l.cols, numColumns+column(l.nvars))
			l.nvars++
			continue
		}
		c, ok := columnByName[part]
		if !ok {
			return csvLayout{}, false
		}
		l.cols = append(l.cols, c)
	}
	return l, true
}

// internCap bounds each column's table of shared strings, so memory stays
// constant on files with unbounded distinct values.
const internCap = 4096

const (
	inLabel = iota
	inCode
	inMessage
	inThread
	inDataType
	inFailure
	inURL
	numInterns
)

type csvDecoder struct {
	name       string
	layout     csvLayout
	rd         *csvReader
	s          Sample
	interns    [numInterns]map[string]string
	dateFormat string // Java pattern from the configuration, or "ms"
	dateLayout string // Go layout found for dates, once one matched
	warned     bool
	// headerless is set for a file without a header line, whose columns
	// come from the properties; rows counts the rows decoded.
	headerless bool
	rows       int64
}

func (d *csvDecoder) intern(k int, b []byte) string {
	m := d.interns[k]
	if s, ok := m[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(m) < internCap {
		m[s] = s
	}
	return s
}

func (d *csvDecoder) run(sink Sink) error {
	for {
		fields, err := d.rd.read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			if errors.Is(err, errQuote) {
				return &JTLError{File: d.name, Line: d.rd.recLine, Err: err}
			}
			return fmt.Errorf("%s: %w", d.name, err)
		}
		if len(fields) == 1 && len(fields[0]) == 0 {
			continue // blank line
		}
		if err := d.decode(fields); err != nil {
			if d.headerless && d.rows == 0 {
				return d.unknownColumns(err, len(fields))
			}
			return err
		}
		d.rows++
		sink.Add(&d.s)
	}
}

// unknownColumns explains a first row that does not fit the columns the
// properties give a file without a header line: those are JMeter 5.6's
// defaults unless a jmeter.properties or -J says otherwise, and a JMeter
// 2.x file needs the properties of the JMeter that wrote it.
func (d *csvDecoder) unknownColumns(err error, fields int) error {
	var names []string
	for _, c := range d.layout.cols {
		if c < numColumns {
			names = append(names, columnNames[c])
		} else {
			names = append(names, "(sample variable)")
		}
	}
	return &JTLError{File: d.name, Line: d.rd.recLine, Err: fmt.Errorf(
		"%w; the file has no header line, so its columns come from the jmeter.save.saveservice.* properties, "+
			"which give %d (%s) where its first row has %d fields: give the jmeter.properties of the JMeter that wrote it with -p "+
			"(or the columns' jmeter.save.saveservice.* properties with -J)",
		unwrapJTL(err), len(names), strings.Join(names, ","), fields)}
}

// unwrapJTL returns the problem inside a JTLError, with its column.
func unwrapJTL(err error) error {
	var je *JTLError
	if errors.As(err, &je) {
		if je.Column != "" {
			return fmt.Errorf("%s: %w", je.Column, je.Err)
		}
		return je.Err
	}
	return err
}

func (d *csvDecoder) fail(c column, err error) error {
	col := ""
	if c < numColumns {
		col = columnNames[c]
	}
	return &JTLError{File: d.name, Line: d.rd.recLine, Column: col, Err: err}
}

func (d *csvDecoder) decode(fields [][]byte) error {
	s := &d.s
	vars := s.Vars
	for i := range vars {
		vars[i] = ""
	}
	*s = Sample{Vars: vars, Start: time.UnixMilli(0)}
	cols := d.layout.cols
	if len(fields) < len(cols)-d.layout.nvars {
		missing := cols[len(fields)]
		return d.fail(missing, fmt.Errorf("row has %d fields, expected %d", len(fields), len(cols)))
	}
	if len(fields) > len(cols) && !d.warned {
		d.warned = true
		slog.Warn("JTL row has more fields than its columns; extra fields ignored",
			"file", d.name, "line", d.rd.recLine, "fields", len(fields), "columns", len(cols))
	}
	for i, f := range fields {
		if i >= len(cols) {
			break
		}
		c := cols[i]
		var err error
		switch c {
		case colTimeStamp:
			err = d.timestamp(f)
		case colElapsed:
			s.Elapsed, err = parseMillis(f)
		case colLabel:
			s.Label = d.intern(inLabel, f)
		case colResponseCode:
			s.Code = d.intern(inCode, f)
		case colResponseMessage:
			s.Message = d.intern(inMessage, f)
		case colThreadName:
			s.ThreadName = d.intern(inThread, f)
		case colDataType:
			s.DataType = d.intern(inDataType, f)
		case colSuccess:
			s.Success = bytes.EqualFold(f, []byte("true"))
		case colFailureMessage:
			s.FailureMessage = d.intern(inFailure, f)
		case colBytes:
			s.Bytes, err = parseInt(f)
		case colSentBytes:
			s.SentBytes, err = parseInt(f)
		case colGrpThreads:
			var n int64
			n, err = parseInt(f)
			s.GrpThreads = int(n)
		case colAllThreads:
			var n int64
			n, err = parseInt(f)
			s.AllThreads = int(n)
		case colURL:
			if string(f) != "null" {
				s.URL = d.intern(inURL, f)
			}
		case colLatency:
			s.Latency, err = parseMillis(f)
		case colIdleTime:
			s.Idle, err = parseMillis(f)
		case colConnect:
			s.Connect, err = parseMillis(f)
		case colSampleCount, colErrorCount:
			_, err = parseInt(f)
		case colFilename, colEncoding, colHostname:
		default:
			vars[c-numColumns] = string(f)
		}
		if err != nil {
			return d.fail(c, err)
		}
	}
	s.Transaction = strings.HasPrefix(s.Message, tcPrefix)
	return nil
}

func parseInt(f []byte) (int64, error) {
	// Fast path for plain decimal digits; strconv for the rest (and errors).
	if n := len(f); n > 0 && n < 19 {
		var v int64
		for _, c := range f {
			if c < '0' || c > '9' {
				goto slow
			}
			v = v*10 + int64(c-'0')
		}
		return v, nil
	}
slow:
	v, err := strconv.ParseInt(string(f), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("not an integer: %q", f)
	}
	return v, nil
}

func parseMillis(f []byte) (time.Duration, error) {
	v, err := parseInt(f)
	return time.Duration(v) * time.Millisecond, err
}

// timestamp parses milliseconds since the epoch or, as JMeter does, one of
// its date formats (in the local time zone), remembering the one that fits.
func (d *csvDecoder) timestamp(f []byte) error {
	if d.dateLayout == "" {
		if ms, err := parseInt(f); err == nil {
			d.s.Start = time.UnixMilli(ms)
			return nil
		}
	}
	text := string(f)
	if d.dateLayout != "" {
		t, err := time.ParseInLocation(d.dateLayout, text, time.Local)
		if err == nil {
			d.s.Start = t
			return nil
		}
	}
	layouts := jtlDateLayouts
	if d.dateFormat != "" && d.dateFormat != "ms" {
		if l, err := javaDateLayout(d.dateFormat); err == nil {
			layouts = append([]string{l}, layouts...)
		}
	}
	for _, l := range layouts {
		if t, err := time.ParseInLocation(l, text, time.Local); err == nil {
			d.dateLayout = l
			d.s.Start = t
			return nil
		}
	}
	return fmt.Errorf("not milliseconds nor a known date format: %q", text)
}

// ParseCSVHeader recognises a JTL CSV header line as JMeter does and
// returns the save configuration it implies (with FieldNames set) and the
// sample variable names, so a file can be continued or rewritten with the
// same columns.
func ParseCSVHeader(line string) (SaveConfig, []string, bool) {
	line = strings.TrimRight(line, "\r\n")
	l, delim, ok := parseCSVHeader(line, ',')
	if !ok {
		return SaveConfig{}, nil, false
	}
	c := SaveConfig{FieldNames: true, TimestampFormat: "ms", Delimiter: delim}
	for _, col := range l.cols {
		switch col {
		case colTimeStamp:
			c.Timestamp = true
		case colElapsed:
			c.Time = true
		case colLabel:
			c.Label = true
		case colResponseCode:
			c.Code = true
		case colResponseMessage:
			c.Message = true
		case colThreadName:
			c.ThreadName = true
		case colDataType:
			c.DataType = true
		case colSuccess:
			c.Success = true
		case colFailureMessage:
			c.FailureMessage = true
		case colBytes:
			c.Bytes = true
		case colSentBytes:
			c.SentBytes = true
		case colGrpThreads, colAllThreads:
			c.ThreadCounts = true
		case colURL:
			c.URL = true
		case colFilename:
			c.FileName = true
		case colLatency:
			c.Latency = true
		case colEncoding:
			c.Encoding = true
		case colSampleCount, colErrorCount:
			c.SampleCount = true
		case colHostname:
			c.Hostname = true
		case colIdleTime:
			c.IdleTime = true
		case colConnect:
			c.ConnectTime = true
		}
	}
	var vars []string
	for part := range strings.SplitSeq(line, string(delim)) {
		if len(part) > 2 && part[0] == '"' && part[len(part)-1] == '"' {
			vars = append(vars, part[1:len(part)-1])
		}
	}
	return c, vars, true
}
