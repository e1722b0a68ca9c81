package report

import (
	"fmt"
	"strings"
)

// column identifies one JTL CSV column. The order of the constants is the
// order JMeter writes (and requires when reading) the columns.
type column uint8

const (
	colTimeStamp column = iota
	colElapsed
	colLabel
	colResponseCode
	colResponseMessage
	colThreadName
	colDataType
	colSuccess
	colFailureMessage
	colBytes
	colSentBytes
	colGrpThreads
	colAllThreads
	colURL
	colFilename
	colLatency
	colEncoding
	colSampleCount
	colErrorCount
	colHostname
	colIdleTime
	colConnect
	numColumns
)

// columnNames are the CSV header names, indexed by column.
var columnNames = [numColumns]string{
	"timeStamp", "elapsed", "label", "responseCode", "responseMessage",
	"threadName", "dataType", "success", "failureMessage", "bytes",
	"sentBytes", "grpThreads", "allThreads", "URL", "Filename", "Latency",
	"Encoding", "SampleCount", "ErrorCount", "Hostname", "IdleTime", "Connect",
}

// SaveConfig says what a JTL file holds: JMeter's SampleSaveConfiguration,
// as set by the jmeter.save.saveservice.* properties or by a
// ResultCollector's saveConfig in a plan. The zero value saves nothing; use
// DefaultSaveConfig for JMeter 5.6's defaults.
//
// Writers honour the column flags, Delimiter, TimestampFormat, FieldNames,
// SubResults and Assertions. Response data, sampler data and headers are not
// kept in a Sample, so those flags only round-trip.
type SaveConfig struct {
	XML        bool // output_format=xml
	FieldNames bool // print_field_names: CSV header line

	Timestamp       bool
	TimestampFormat string // "ms" or a Java SimpleDateFormat pattern
	Time            bool   // elapsed
	Label           bool
	Code            bool
	Message         bool
	ThreadName      bool
	DataType        bool
	Success         bool
	FailureMessage  bool // assertion_results_failure_message
	Bytes           bool
	SentBytes       bool
	ThreadCounts    bool // grpThreads, allThreads
	URL             bool
	FileName        bool
	Latency         bool
	Encoding        bool
	SampleCount     bool // SampleCount, ErrorCount
	Hostname        bool
	IdleTime        bool
	ConnectTime     bool

	SubResults          bool
	Assertions          bool
	ResponseData        bool
	ResponseDataOnError bool
	SamplerData         bool
	ResponseHeaders     bool
	RequestHeaders      bool

	Delimiter byte   // CSV field delimiter, ',' by default
	XMLPI     string // processing instruction after the XML header
}

// SavesDetail reports whether results written with c keep some part of a
// sample's Detail (only XML results do).
func (c SaveConfig) SavesDetail() bool {
	return c.XML && (c.ResponseHeaders || c.RequestHeaders || c.ResponseData || c.ResponseDataOnError || c.SamplerData)
}

// DefaultSaveConfig returns JMeter 5.6's default save configuration (an
// empty jmeter.properties): CSV with a header and the 17 default columns.
func DefaultSaveConfig() SaveConfig {
	return SaveConfig{
		FieldNames: true, Timestamp: true, TimestampFormat: "ms", Time: true,
		Label: true, Code: true, Message: true, ThreadName: true, DataType: true,
		Success: true, FailureMessage: true, Bytes: true, SentBytes: true,
		ThreadCounts: true, URL: true, Latency: true, IdleTime: true,
		ConnectTime: true, SubResults: true, Assertions: true, Delimiter: ',',
	}
}

// propFlags maps jmeter.save.saveservice.<key> boolean properties to fields.
var propFlags = map[string]func(*SaveConfig) *bool{
	"print_field_names":                 func(c *SaveConfig) *bool { return &c.FieldNames },
	"time":                              func(c *SaveConfig) *bool { return &c.Time },
	"label":                             func(c *SaveConfig) *bool { return &c.Label },
	"response_code":                     func(c *SaveConfig) *bool { return &c.Code },
	"response_message":                  func(c *SaveConfig) *bool { return &c.Message },
	"thread_name":                       func(c *SaveConfig) *bool { return &c.ThreadName },
	"data_type":                         func(c *SaveConfig) *bool { return &c.DataType },
	"successful":                        func(c *SaveConfig) *bool { return &c.Success },
	"assertion_results_failure_message": func(c *SaveConfig) *bool { return &c.FailureMessage },
	"bytes":                             func(c *SaveConfig) *bool { return &c.Bytes },
	"sent_bytes":                        func(c *SaveConfig) *bool { return &c.SentBytes },
	"thread_counts":                     func(c *SaveConfig) *bool { return &c.ThreadCounts },
	"url":                               func(c *SaveConfig) *bool { return &c.URL },
	"filename":                          func(c *SaveConfig) *bool { return &c.FileName },
	"latency":                           func(c *SaveConfig) *bool { return &c.Latency },
	"encoding":                          func(c *SaveConfig) *bool { return &c.Encoding },
	"sample_count":                      func(c *SaveConfig) *bool { return &c.SampleCount },
	"hostname":                          func(c *SaveConfig) *bool { return &c.Hostname },
	"idle_time":                         func(c *SaveConfig) *bool { return &c.IdleTime },
	"connect_time":                      func(c *SaveConfig) *bool { return &c.ConnectTime },
	"subresults":                        func(c *SaveConfig) *bool { return &c.SubResults },
	"assertions":                        func(c *SaveConfig) *bool { return &c.Assertions },
	"response_data":                     func(c *SaveConfig) *bool { return &c.ResponseData },
	"response_data.on_error":            func(c *SaveConfig) *bool { return &c.ResponseDataOnError },
	"samplerData":                       func(c *SaveConfig) *bool { return &c.SamplerData },
	"responseHeaders":                   func(c *SaveConfig) *bool { return &c.ResponseHeaders },
	"requestHeaders":                    func(c *SaveConfig) *bool { return &c.RequestHeaders },
}

const savePropPrefix = "jmeter.save.saveservice."

// SaveConfigFromProperties applies the jmeter.save.saveservice.* keys of
// props to JMeter 5.6's defaults, as JMeter does at start-up. A boolean is
// true only when its value is "true" (any case); other keys are ignored.
func SaveConfigFromProperties(props map[string]string) (SaveConfig, error) {
	c := DefaultSaveConfig()
	for k, v := range props {
		name, ok := strings.CutPrefix(k, savePropPrefix)
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		if f, ok := propFlags[name]; ok {
			*f(&c) = strings.EqualFold(v, "true")
			continue
		}
		switch name {
		case "output_format":
			c.XML = v == "xml"
		case "timestamp_format":
			if strings.EqualFold(v, "none") {
				c.Timestamp = false
			} else {
				c.Timestamp = true
				c.TimestampFormat = v
				if strings.EqualFold(v, "ms") {
					c.TimestampFormat = "ms"
				}
			}
		case "default_delimiter":
			d, err := parseDelimiter(v)
			if err != nil {
				return c, fmt.Errorf("%s%s: %w", savePropPrefix, name, err)
			}
			c.Delimiter = d
		case "xml_pi":
			c.XMLPI = v
		}
	}
	return c, nil
}

// parseDelimiter accepts a single printable ASCII character or "\t", as
// JMeter does; letters, digits and the quote are refused.
func parseDelimiter(v string) (byte, error) {
	if v == `\t` {
		v = "\t"
	}
	if len(v) != 1 {
		return 0, fmt.Errorf("delimiter %q must be one character", v)
	}
	d := v[0]
	switch {
	case d == '\t':
	case d == '"', d >= '0' && d <= '9', d >= 'a' && d <= 'z', d >= 'A' && d <= 'Z':
		return 0, fmt.Errorf("delimiter %q must not be alphanumeric or a quote", v)
	case d < 0x20 || d > 0x7e:
		return 0, fmt.Errorf("delimiter %q must be printable", v)
	}
	return d, nil
}

// Set applies one element of a ResultCollector's <saveConfig> in a plan
// (e.g. name "threadName", value "true"), so the engine can build a writer
// with the plan's column set. It reports whether name is known.
func (c *SaveConfig) Set(name, value string) bool {
	on := strings.EqualFold(strings.TrimSpace(value), "true")
	var f *bool
	switch name {
	case "xml":
		f = &c.XML
	case "fieldNames":
		f = &c.FieldNames
	case "timestamp":
		f = &c.Timestamp
	case "time":
		f = &c.Time
	case "label":
		f = &c.Label
	case "code":
		f = &c.Code
	case "message":
		f = &c.Message
	case "threadName":
		f = &c.ThreadName
	case "dataType":
		f = &c.DataType
	case "success":
		f = &c.Success
	case "saveAssertionResultsFailureMessage":
		f = &c.FailureMessage
	case "bytes":
		f = &c.Bytes
	case "sentBytes":
		f = &c.SentBytes
	case "threadCounts":
		f = &c.ThreadCounts
	case "url":
		f = &c.URL
	case "fileName":
		f = &c.FileName
	case "latency":
		f = &c.Latency
	case "encoding":
		f = &c.Encoding
	case "sampleCount":
		f = &c.SampleCount
	case "hostname":
		f = &c.Hostname
	case "idleTime":
		f = &c.IdleTime
	case "connectTime":
		f = &c.ConnectTime
	case "subresults":
		f = &c.SubResults
	case "assertions":
		f = &c.Assertions
	case "responseData":
		f = &c.ResponseData
	case "responseDataOnError":
		f = &c.ResponseDataOnError
	case "samplerData":
		f = &c.SamplerData
	case "responseHeaders":
		f = &c.ResponseHeaders
	case "requestHeaders":
		f = &c.RequestHeaders
	case "printMilliseconds":
		if on {
			c.TimestampFormat = "ms"
		}
		return true
	case "delimiter":
		if d, err := parseDelimiter(value); err == nil {
			c.Delimiter = d
		}
		return true
	case "assertionsResultsToSave", "formatter":
		return true
	default:
		return false
	}
	*f = on
	return true
}

// columns lists the CSV columns c saves, in JMeter's order.
func (c SaveConfig) columns() []column {
	on := [numColumns]bool{
		colTimeStamp: c.Timestamp, colElapsed: c.Time, colLabel: c.Label,
		colResponseCode: c.Code, colResponseMessage: c.Message,
		colThreadName: c.ThreadName, colDataType: c.DataType,
		colSuccess: c.Success, colFailureMessage: c.FailureMessage,
		colBytes: c.Bytes, colSentBytes: c.SentBytes,
		colGrpThreads: c.ThreadCounts, colAllThreads: c.ThreadCounts,
		colURL: c.URL, colFilename: c.FileName, colLatency: c.Latency,
		colEncoding: c.Encoding, colSampleCount: c.SampleCount,
		colErrorCount: c.SampleCount, colHostname: c.Hostname,
		colIdleTime: c.IdleTime, colConnect: c.ConnectTime,
	}
	var cols []column
	for i, v := range on {
		if v {
			cols = append(cols, column(i))
		}
	}
	return cols
}

// CSVHeader is the header line c produces for the given sample_variables
// names, without the line end: JMeter quotes variable names in the header.
func (c SaveConfig) CSVHeader(varNames []string) string {
	d := string(c.delim())
	var b strings.Builder
	for i, col := range c.columns() {
		if i > 0 {
			b.WriteString(d)
		}
		b.WriteString(columnNames[col])
	}
	for i, v := range varNames {
		if i > 0 || b.Len() > 0 {
			b.WriteString(d)
		}
		b.WriteString(`"` + v + `"`)
	}
	return b.String()
}

func (c SaveConfig) delim() byte {
	if c.Delimiter == 0 {
		return ','
	}
	return c.Delimiter
}

// LoadSaveServiceProperties reads a Java properties file (jmeter.properties,
// user.properties, a -q file) and returns its jmeter.save.saveservice.* and
// sample_variables entries, ready for ReadOptions.Properties or
// SaveConfigFromProperties.
func LoadSaveServiceProperties(path string) (map[string]string, error) {
	all, err := ReadProperties(path)
	if err != nil {
		return nil, fmt.Errorf("save service properties: %w", err)
	}
	props := map[string]string{}
	for k, v := range all {
		if strings.HasPrefix(k, savePropPrefix) || k == "sample_variables" {
			props[k] = v
		}
	}
	return props, nil
}

// CollectorSaveConfig builds the save configuration of a ResultCollector
// from the elements of its <saveConfig> in a plan (name → text), as JMeter
// reads it: a flag that is absent is false; the delimiter, timestamp
// format and XML processing instruction come from defaults (the
// properties). Unknown names are returned so the caller can report them.
func CollectorSaveConfig(fields map[string]string, defaults SaveConfig) (SaveConfig, []string) {
	c := SaveConfig{
		Delimiter:       defaults.Delimiter,
		TimestampFormat: defaults.TimestampFormat,
		XMLPI:           defaults.XMLPI,
	}
	var unknown []string
	for k, v := range fields {
		if !c.Set(k, v) {
			unknown = append(unknown, k)
		}
	}
	if c.TimestampFormat == "" {
		c.TimestampFormat = "ms"
	}
	return c, unknown
}
