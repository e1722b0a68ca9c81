package report

import (
	"strings"
	"time"
)

// Sample is one result: one row of a JTL file. The engine fills one per
// sampler execution (failures included); the JTL decoder fills them from a
// file, so every sink works the same on a live run and on a saved one.
//
// Durations keep the engine's nanosecond precision; JTL files hold whole
// milliseconds, so samples read back from a file are millisecond-aligned.
type Sample struct {
	Start          time.Time     // when the sample started (JMeter's timeStamp)
	Elapsed        time.Duration // start to last byte
	Latency        time.Duration // start to first response byte, connect included
	Connect        time.Duration // time to open the connection; 0 on a reused one
	Idle           time.Duration // time not spent sampling inside a transaction (JMeter's IdleTime)
	Label          string
	Code           string // response code, e.g. "200" or JMeter's "Non HTTP response code: …"
	Message        string // response message, e.g. "OK"
	ThreadName     string // e.g. "Thread Group 1-1"
	DataType       string // "text", "bin" or ""
	Success        bool
	FailureMessage string // first failed assertion's message
	Bytes          int64  // received bytes, headers included
	SentBytes      int64
	GrpThreads     int // active threads in the sample's thread group
	AllThreads     int // active threads in all groups
	URL            string
	// Transaction marks a Transaction Controller's own sample.
	Transaction bool
	// Listeners routes the sample to the plan's own listeners: bit i set
	// means the plan's listener i has the sampler in scope. The engine sets
	// it; sinks that are not plan listeners ignore it.
	Listeners uint64
	// Vars holds the values of the sample_variables property, in its order.
	Vars []string
	// Sub holds sub-samples (redirects, embedded resources, a transaction's
	// children in parent mode).
	Sub []*Sample
	// Assertions holds assertion results, for XML output.
	Assertions []AssertionResult
	// Detail is what an XML results file may keep besides the attributes;
	// nil unless one saves any of it (SaveConfig.SavesDetail).
	Detail *Detail
}

// Detail is what JMeter's XML results keep of a sample besides its
// attributes: the response and request headers, the response data and the
// sampler data; for an HTTP sample (Sample.URL set) the cookies sent, the
// method, the query string and the redirect location instead of the
// sampler data.
type Detail struct {
	ResponseHeaders string // the status line and fields, one per line
	RequestHeaders  string
	ResponseData    []byte
	SamplerData     string // "" for none
	Cookies         string
	Method          string
	QueryString     string
	Redirect        string // the Location of a redirect, "" for none
}

// AssertionResult is the outcome of one assertion on a sample.
type AssertionResult struct {
	Name    string
	Failure bool // the assertion failed
	Error   bool // the assertion could not be evaluated
	Message string
}

// End is the time the sample finished.
func (s *Sample) End() time.Time { return s.Start.Add(s.Elapsed) }

// StartMillis is the start time in milliseconds since the epoch, as JTL files write it.
func (s *Sample) StartMillis() int64 { return s.Start.UnixMilli() }

// AbortedMessage starts the response message of a sample that gojm itself
// cut short (a second Ctrl-C, the stop grace running out, the end of an
// Open Model schedule): the engine writes it, and a JTL read back keeps it,
// so that such samples are counted apart from the server's and the
// network's failures wherever the results are read.
const AbortedMessage = "Aborted by gojm"

// ClientAborted reports whether s failed because gojm cut it short: its
// response message starts with AbortedMessage.
func (s *Sample) ClientAborted() bool {
	return !s.Success && strings.HasPrefix(s.Message, AbortedMessage)
}
