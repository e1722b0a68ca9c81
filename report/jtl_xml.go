package report

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

const (
	xmlHeader      = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"
	xmlResultsOpen = `<testResults version="1.2">` + "\n"
	xmlResultsEnd  = "</testResults>"
)

// XMLWriter is a Sink writing samples as a JMeter XML JTL (a ResultCollector
// whose saveConfig has xml=true): <testResults version="1.2"> holding one
// <httpSample> (samples with a URL) or <sample> per result, attributes in
// JMeter's order (t it lt ct ts s lb rc rm tn dt by sby ng na, then sample
// variables), nested <assertionResult> elements and sub-samples, and the
// <java.net.URL> element, indented and escaped as JMeter's XStream writer
// does. When the configuration asks for them, the response and request
// headers, response data (of every sample, or of failed ones) and sampler
// data of the sample's Detail come before the URL, as JMeter 5.6 writes
// them.
//
// Like CSVWriter it writes only whole samples and flushes on Tick; Close
// ends the document.
type XMLWriter struct {
	out  *jtlOut
	cfg  SaveConfig
	vars []string // attribute names of the sample variables
	host string
}

// NewXMLWriter returns an XMLWriter into w saving what cfg says
// (DefaultSaveConfig: JMeter 5.6's default fields) and writes the
// document's opening lines. OpenResultFile opens a results file instead.
func NewXMLWriter(w io.Writer, cfg SaveConfig, varNames []string) (*XMLWriter, error) {
	xw, err := newXMLWriter(w, cfg, varNames)
	if err != nil {
		return nil, err
	}
	xw.start()
	return xw, nil
}

// newXMLWriter is NewXMLWriter without the opening lines, which a writer
// joining a shared file (ResultFiles) or appending to an XML JTL must not
// repeat.
func newXMLWriter(w io.Writer, cfg SaveConfig, varNames []string) (*XMLWriter, error) {
	xw := &XMLWriter{out: newJTLOut(w), cfg: cfg}
	for _, v := range varNames {
		xw.vars = append(xw.vars, xstreamName(v))
	}
	if cfg.Timestamp && cfg.TimestampFormat != "" && cfg.TimestampFormat != "ms" {
		// JMeter's XML always holds milliseconds; validate the pattern anyway.
		if _, err := javaDateLayout(cfg.TimestampFormat); err != nil {
			return nil, fmt.Errorf("jtl writer: %w", err)
		}
	}
	if cfg.Hostname {
		xw.host, _ = os.Hostname()
	}
	return xw, nil
}

func (xw *XMLWriter) start() {
	xw.out.buf = append(xw.out.buf, xmlHeader...)
	if xw.cfg.XMLPI != "" {
		xw.out.buf = append(xw.out.buf, xw.cfg.XMLPI...)
		xw.out.buf = append(xw.out.buf, '\n')
	}
	xw.out.buf = append(xw.out.buf, xmlResultsOpen...)
}

// openXML opens path for an XML JTL. As JMeter does, an existing file's
// closing </testResults> is cut off and new samples are appended before a
// new one; a file without it (new, empty or not a JTL) gets the opening
// lines first.
func openXML(path string, cfg SaveConfig, varNames []string) (*XMLWriter, error) {
	trimmed, err := trimXMLEnd(path)
	if err != nil {
		return nil, err
	}
	f, _, err := openAppend(path)
	if err != nil {
		return nil, err
	}
	xw, err := newXMLWriter(f, cfg, varNames)
	if err != nil {
		f.Close()
		return nil, err
	}
	xw.out.closer = f
	if !trimmed {
		xw.start()
	}
	return xw, nil
}

// trimXMLEnd cuts an existing XML JTL just before its </testResults> and
// reports whether it did.
func trimXMLEnd(path string) (bool, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if os.IsNotExist(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("jtl: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return false, fmt.Errorf("jtl: %w", err)
	}
	size := st.Size()
	if size < int64(len(xmlHeader)+len(xmlResultsEnd)+len("<testResults>")) {
		return false, nil
	}
	tail := int64(len(xmlResultsEnd) + 10)
	if tail > size {
		tail = size
	}
	buf := make([]byte, tail)
	if _, err := f.ReadAt(buf, size-tail); err != nil {
		return false, fmt.Errorf("jtl: %w", err)
	}
	i := bytes.LastIndex(buf, []byte(xmlResultsEnd))
	if i < 0 {
		return false, nil
	}
	if err := f.Truncate(size - tail + int64(i)); err != nil {
		return false, fmt.Errorf("jtl: %w", err)
	}
	return true, nil
}

// Add encodes s with its assertion results and sub-samples.
func (xw *XMLWriter) Add(s *Sample) {
	if xw.out.err != nil {
		return
	}
	xw.out.buf = xw.sample(xw.out.buf, s, s.Vars, 0)
	xw.out.buf = append(xw.out.buf, '\n')
	if len(xw.out.buf) >= jtlFlushAt {
		xw.flush()
	}
}

func indent(b []byte, depth int) []byte {
	for range depth {
		b = append(b, "  "...)
	}
	return b
}

func (xw *XMLWriter) sample(b []byte, s *Sample, vars []string, depth int) []byte {
	c := &xw.cfg
	name := "sample"
	if s.URL != "" {
		name = "httpSample"
	}
	b = append(b, '<')
	b = append(b, name...)
	num := func(b []byte, key string, v int64) []byte {
		b = append(b, ' ')
		b = append(b, key...)
		b = append(b, `="`...)
		b = strconv.AppendInt(b, v, 10)
		return append(b, '"')
	}
	str := func(b []byte, key, v string) []byte {
		b = append(b, ' ')
		b = append(b, key...)
		b = append(b, `="`...)
		b = appendXMLText(b, v, true)
		return append(b, '"')
	}
	if c.Time {
		b = num(b, "t", millis(s.Elapsed))
	}
	if c.IdleTime {
		b = num(b, "it", millis(s.Idle))
	}
	if c.Latency {
		b = num(b, "lt", millis(s.Latency))
	}
	if c.ConnectTime {
		b = num(b, "ct", millis(s.Connect))
	}
	if c.Timestamp {
		b = num(b, "ts", s.Start.UnixMilli())
	}
	if c.Success {
		b = str(b, "s", strconv.FormatBool(s.Success))
	}
	if c.Label {
		b = str(b, "lb", s.Label)
	}
	if c.Code {
		b = str(b, "rc", s.Code)
	}
	if c.Message {
		b = str(b, "rm", s.Message)
	}
	if c.ThreadName {
		b = str(b, "tn", s.ThreadName)
	}
	if c.DataType {
		b = str(b, "dt", s.DataType)
	}
	if c.Encoding {
		b = str(b, "de", "")
	}
	if c.Bytes {
		b = num(b, "by", s.Bytes)
	}
	if c.SentBytes {
		b = num(b, "sby", s.SentBytes)
	}
	if c.SampleCount {
		b = num(b, "sc", 1)
		ec := int64(1)
		if s.Success {
			ec = 0
		}
		b = num(b, "ec", ec)
	}
	if c.ThreadCounts {
		b = num(b, "ng", int64(s.GrpThreads))
		b = num(b, "na", int64(s.AllThreads))
	}
	if c.Hostname {
		b = str(b, "hn", xw.host)
	}
	for i, v := range xw.vars {
		val := ""
		if i < len(vars) {
			val = vars[i]
		}
		b = str(b, v, val)
	}
	http := s.URL != ""
	// JMeter 5.6's SampleSaveConfiguration.saveResponseData and
	// saveSamplerData: on error, both.
	data := c.ResponseData || c.ResponseDataOnError && !s.Success
	sdata := c.SamplerData || c.ResponseDataOnError && !s.Success
	d := s.Detail
	if d == nil {
		d = &noDetail
	}
	children := c.Assertions && len(s.Assertions) > 0 ||
		c.SubResults && len(s.Sub) > 0 ||
		c.URL && http ||
		c.ResponseHeaders || c.RequestHeaders || data || c.FileName ||
		sdata && (http || d.SamplerData != "")
	if !children {
		return append(b, "/>"...)
	}
	b = append(b, '>')
	if c.Assertions {
		for i := range s.Assertions {
			b = xw.assertion(b, &s.Assertions[i], depth+1)
		}
	}
	if c.SubResults {
		for _, sub := range s.Sub {
			b = append(b, '\n')
			b = indent(b, depth+1)
			b = xw.sample(b, sub, vars, depth+1)
		}
	}
	elem := func(b []byte, name, v string) []byte {
		b = append(b, '\n')
		b = indent(b, depth+1)
		b = append(b, '<')
		b = append(b, name...)
		b = append(b, ` class="java.lang.String"`...)
		if v == "" {
			return append(b, "/>"...)
		}
		b = append(b, '>')
		b = appendXMLText(b, v, false)
		b = append(b, "</"...)
		b = append(b, name...)
		return append(b, '>')
	}
	if c.ResponseHeaders {
		b = elem(b, "responseHeader", d.ResponseHeaders)
	}
	if c.RequestHeaders {
		b = elem(b, "requestHeader", d.RequestHeaders)
	}
	if data {
		b = elem(b, "responseData", responseText(s.DataType, d.ResponseData))
	}
	if c.FileName {
		b = elem(b, "responseFile", "") // gojm saves no response to a file
	}
	if sdata {
		if http {
			b = elem(b, "cookies", d.Cookies)
			b = elem(b, "method", d.Method)
			b = elem(b, "queryString", d.QueryString)
			if d.Redirect != "" {
				b = elem(b, "redirectLocation", d.Redirect)
			}
		} else if d.SamplerData != "" {
			b = elem(b, "samplerData", d.SamplerData)
		}
	}
	if c.URL && http {
		b = append(b, '\n')
		b = indent(b, depth+1)
		b = append(b, "<java.net.URL>"...)
		b = appendXMLText(b, s.URL, false)
		b = append(b, "</java.net.URL>"...)
	}
	b = append(b, '\n')
	b = indent(b, depth)
	b = append(b, "</"...)
	b = append(b, name...)
	return append(b, '>')
}

var noDetail Detail

// responseText is response data as JMeter's XML keeps it: text as it is
// (bytes that are not UTF-8 read as ISO-8859-1, JMeter's default
// encoding), anything else as a note.
func responseText(dataType string, data []byte) string {
	if dataType != "text" {
		return "Non-TEXT response data, cannot record: (" + dataType + ")"
	}
	if utf8.Valid(data) {
		return string(data)
	}
	r := make([]rune, len(data))
	for i, c := range data {
		r[i] = rune(c)
	}
	return string(r)
}

func (xw *XMLWriter) assertion(b []byte, a *AssertionResult, depth int) []byte {
	elem := func(b []byte, name, v string) []byte {
		b = append(b, '\n')
		b = indent(b, depth+1)
		b = append(b, '<')
		b = append(b, name...)
		b = append(b, '>')
		b = appendXMLText(b, v, false)
		b = append(b, "</"...)
		b = append(b, name...)
		return append(b, '>')
	}
	b = append(b, '\n')
	b = indent(b, depth)
	b = append(b, "<assertionResult>"...)
	b = elem(b, "name", a.Name)
	b = elem(b, "failure", strconv.FormatBool(a.Failure))
	b = elem(b, "error", strconv.FormatBool(a.Error))
	if a.Message != "" {
		b = elem(b, "failureMessage", a.Message)
	}
	b = append(b, '\n')
	b = indent(b, depth)
	return append(b, "</assertionResult>"...)
}

// appendXMLText escapes s as XStream's PrettyPrintWriter does: & < > " '
// and CR always; tab and LF literally in text but as references in
// attributes; other control characters as hexadecimal references.
func appendXMLText(b []byte, s string, attr bool) []byte {
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		var rep string
		switch c {
		case '&':
			rep = "&amp;"
		case '<':
			rep = "&lt;"
		case '>':
			rep = "&gt;"
		case '"':
			rep = "&quot;"
		case '\'':
			rep = "&apos;"
		case '\r':
			rep = "&#xd;"
		case '\t', '\n':
			if !attr {
				continue
			}
		case 0xc2: // U+0080..U+009F are ISO controls too
			if i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9f {
				b = append(b, s[start:i]...)
				b = append(b, "&#x"...)
				b = strconv.AppendInt(b, int64(s[i+1]), 16)
				b = append(b, ';')
				i++
				start = i + 1
			}
			continue
		default:
			if c >= 0x20 && c != 0x7f {
				continue
			}
		}
		b = append(b, s[start:i]...)
		if rep != "" {
			b = append(b, rep...)
		} else {
			b = append(b, "&#x"...)
			b = strconv.AppendInt(b, int64(c), 16)
			b = append(b, ';')
		}
		start = i + 1
	}
	return append(b, s[start:]...)
}

// xstreamName encodes an attribute name as XStream does: '$' becomes "_-"
// and '_' becomes "__".
func xstreamName(n string) string {
	if !strings.ContainsAny(n, "$_") {
		return n
	}
	r := strings.NewReplacer("_", "__", "$", "_-")
	return r.Replace(n)
}

// Tick writes out the buffered samples.
func (xw *XMLWriter) Tick(time.Time) { xw.out.tick() }

// Flush writes out the buffered samples.
func (xw *XMLWriter) Flush() error {
	xw.out.write()
	return xw.out.err
}

func (xw *XMLWriter) flush() { xw.out.write() }

// Close ends the document, writes everything out and closes the file
// OpenResultFile opened.
func (xw *XMLWriter) Close() error {
	if xw.out.err == nil {
		xw.out.buf = append(xw.out.buf, "\n"+xmlResultsEnd+"\n"...)
	}
	return xw.out.close()
}
