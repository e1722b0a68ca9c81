package target

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Header is one request header line as received.
type Header struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Request is one request the server received.
type Request struct {
	Seq     int64     `json:"seq"`    // 1, 2, … in order of arrival at a handler
	Time    time.Time `json:"time"`   // when it reached the handler
	Conn    uint64    `json:"conn"`   // connection id (1, 2, …), 0 when unknown
	Remote  string    `json:"remote"` // the client's address
	Method  string    `json:"method"`
	Target  string    `json:"target"` // path and query exactly as sent
	Proto   string    `json:"proto"`
	Headers []Header  `json:"headers"` // in received order, names as sent
	// Body is the first Options.MaxBody bytes of the body (JSON encodes
	// invalid UTF-8 as U+FFFD); BodySize counts all of it. Both are filled
	// in when the handler returns.
	Body     string `json:"body"`
	BodySize int64  `json:"body_size"`
	// Note marks requests that no handler answered, like the one a
	// close-keepalive fault reads and drops.
	Note string `json:"note,omitempty"`
}

// Recorder is the in-memory log of requests, safe for concurrent use.
type Recorder struct {
	count     atomic.Int64
	countOnly bool
	maxBody   int

	mu  sync.Mutex
	log []Request
}

func newRecorder(countOnly bool, maxBody int) *Recorder {
	return &Recorder{countOnly: countOnly, maxBody: maxBody}
}

// Count is the number of requests received so far, recorded or not. A
// request counts as soon as it reaches a handler (net/http's own 400s for
// unparsable requests are not counted), before any byte of its response.
func (rec *Recorder) Count() int64 { return rec.count.Load() }

// Requests returns a copy of the log in order of arrival (empty when the
// server only counts).
func (rec *Recorder) Requests() []Request {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]Request(nil), rec.log...)
}

// WriteJSONL writes the log as JSON lines, one Request per line.
func (rec *Recorder) WriteJSONL(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, r := range rec.Requests() {
		if err := enc.Encode(r); err != nil {
			return fmt.Errorf("target: write request %d: %w", r.Seq, err)
		}
	}
	return nil
}

// DumpJSONL writes the log as JSON lines to the file at path, replacing it.
func (rec *Recorder) DumpJSONL(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("target: %w", err)
	}
	bw := bufio.NewWriter(f)
	err = rec.WriteJSONL(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("target: %w", cerr)
	}
	return err
}

// begin counts r and, unless counting only, appends it to the log and
// replaces its body with a tap. It returns the log index and the tap.
func (rec *Recorder) begin(r *http.Request, ex *exchange) (int, *bodyTap) {
	if rec.countOnly {
		rec.count.Add(1)
		return -1, nil
	}
	req := Request{
		Time:    time.Now(),
		Conn:    ex.conn,
		Remote:  r.RemoteAddr,
		Method:  r.Method,
		Target:  r.RequestURI,
		Proto:   r.Proto,
		Headers: parseHead(ex.head),
	}
	tap := &bodyTap{rc: r.Body, max: rec.maxBody}
	r.Body = tap
	rec.mu.Lock()
	req.Seq = rec.count.Add(1)
	rec.log = append(rec.log, req)
	idx := len(rec.log) - 1
	rec.mu.Unlock()
	return idx, tap
}

// finish stores what the tap saw of the body.
func (rec *Recorder) finish(idx int, tap *bodyTap) {
	rec.mu.Lock()
	rec.log[idx].Body = string(tap.kept)
	rec.log[idx].BodySize = tap.n
	rec.mu.Unlock()
}

// add records a request that no handler answered.
func (rec *Recorder) add(r *http.Request, conn uint64, head []byte, note string) {
	if rec.countOnly {
		rec.count.Add(1)
		return
	}
	req := Request{
		Time: time.Now(), Conn: conn, Remote: r.RemoteAddr,
		Method: r.Method, Target: r.RequestURI, Proto: r.Proto,
		Headers: parseHead(head), Note: note,
	}
	rec.mu.Lock()
	req.Seq = rec.count.Add(1)
	rec.log = append(rec.log, req)
	rec.mu.Unlock()
}

// bodyTap passes a request body through, keeping its first max bytes and
// counting all of them. Only the handler's goroutine uses it.
type bodyTap struct {
	rc   io.ReadCloser
	max  int
	kept []byte
	n    int64
}

func (t *bodyTap) Read(p []byte) (int, error) {
	n, err := t.rc.Read(p)
	t.n += int64(n)
	if room := t.max - len(t.kept); room > 0 && n > 0 {
		t.kept = append(t.kept, p[:min(n, room)]...)
	}
	return n, err
}

func (t *bodyTap) Close() error { return t.rc.Close() }
