package ws

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/elementtest"
	"github.com/gojm/gojm/jmx"
	"github.com/gorilla/websocket"
)

// server is a WebSocket server on the loopback. It echoes text and
// binary messages, except "ping me" (it sends a ping, then the echo),
// "bye" (it closes with 1001 "going away"), "quiet" (no answer) and "big"
// (a message one byte over the read limit, then the echo); it
// answers a close with 1000 "ok", and counts the connections it accepts
// and the pongs it gets.
type server struct {
	host, port   string
	conns, pongs atomic.Int32
	agent        atomic.Value // the User-Agent of the last upgrade
}

func serve(t testing.TB) *server {
	t.Helper()
	s := &server{}
	up := websocket.Upgrader{}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/nows" {
			http.Error(w, "no", http.StatusForbidden)
			return
		}
		s.agent.Store(r.Header.Get("User-Agent"))
		c, err := up.Upgrade(w, r, http.Header{"X-Test": {"yes"}})
		if err != nil {
			return
		}
		s.conns.Add(1)
		defer c.Close()
		c.SetPongHandler(func(string) error { s.pongs.Add(1); return nil })
		c.SetCloseHandler(func(int, string) error {
			c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(1000, "ok"), time.Now().Add(time.Second))
			return nil
		})
		for {
			op, data, err := c.ReadMessage()
			if err != nil {
				return
			}
			switch string(data) {
			case "quiet":
				continue
			case "bye":
				c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(1001, "going away"), time.Now().Add(time.Second))
				return
			case "ping me":
				c.WriteControl(websocket.PingMessage, []byte("hi"), time.Now().Add(time.Second))
			case "big":
				c.WriteMessage(websocket.TextMessage, make([]byte, maxMessage+1))
			}
			c.WriteMessage(op, data)
		}
	}))
	t.Cleanup(hs.Close)
	s.host, s.port, _ = net.SplitHostPort(strings.TrimPrefix(hs.URL, "http://"))
	return s
}

type step struct {
	class string
	kv    []string
	// what the sample must show
	code, message, body string
	success             bool
}

func (s *server) el(class string, kv ...string) *jmx.Element {
	// The first of a name's values counts: kv before the defaults.
	return elementtest.El(class, append(append([]string{}, kv...), "server", s.host, "port", s.port, "path", "/chat?x=1",
		"readTimeout", "2000")...)
}

// Each case is a user's run of samplers over one connection.
func TestWebSocketSamplers(t *testing.T) {
	srv := serve(t)
	for _, tt := range []struct {
		name  string
		steps []step
		conns int32
	}{
		{"request-response, new then existing connection", []step{
			{RequestClass, []string{"requestData", "hello"}, "101", "Switching Protocols", "hello", true},
			{RequestClass, []string{"createNewConnection", "false", "requestData", "again"}, "200", "OK", "again", true},
		}, 1},
		{"open, write, read, close", []step{
			{OpenClass, nil, "101", "Switching Protocols", "", true},
			{WriteClass, []string{"requestData", "one"}, "200", "OK", "", true},
			{ReadClass, nil, "200", "OK", "one", true},
			{CloseClass, nil, "1000", "Connection closed; close reason: 'ok'.", "1000: ok", true},
			{CloseClass, nil, "", "No connection; nothing to close.", "", false},
		}, 1},
		{"binary", []step{
			{OpenClass, nil, "101", "Switching Protocols", "", true},
			{RequestClass, []string{"createNewConnection", "false", "binaryPayload", "true", "requestData", "0x01 0aff"}, "200", "OK", "\x01\x0a\xff", true},
			{RequestClass, []string{"createNewConnection", "false", "binaryPayload", "true", "requestData", "zz"}, "Sampler Error", "Request data is not binary: zz", "", false},
		}, 1},
		{"unexpected frame type", []step{
			{OpenClass, nil, "101", "Switching Protocols", "", true},
			{WriteClass, []string{"requestData", "text"}, "200", "OK", "", true},
			{ReadClass, []string{"dataType", "Binary"}, "Sampler error: unexpected frame type (text).", "Received: Text frame with text 'text'", "", false},
		}, 1},
		{"a ping is a frame the read gets, unless filtered", []step{
			{RequestClass, []string{"requestData", "ping me"}, "Sampler error: unexpected frame type (ping).", "Received: Ping frame with application data 'hi'", "", false},
			{ReadClass, nil, "200", "OK", "ping me", true},
		}, 1},
		{"read timeout, optional read", []step{
			{RequestClass, []string{"requestData", "quiet", "readTimeout", "50"}, "Websocket I/O error", "WebSocket I/O error: Read timed out", "", false},
			{ReadClass, []string{"optional", "true", "readTimeout", "50"}, "No response", "Read timeout, no response received.", "", true},
		}, 1},
		{"the server closes", []step{
			{RequestClass, []string{"requestData", "bye"}, "Sampler error: unexpected frame type (close).", "Received: Close frame with status code 1001 and close reason 'going away'", "", false},
			{PingClass, nil, "Sampler error", "Sampler must use existing connection, but there is no connection", "", false},
		}, 1},
		{"a message over the read limit", []step{
			{RequestClass, []string{"requestData", "big"}, "Websocket I/O error", "WebSocket I/O error: message larger than the read limit of 16 MiB", "", false},
		}, 1},
		{"ping-pong", []step{
			{OpenClass, nil, "101", "Switching Protocols", "", true},
			{PingClass, nil, "200", "OK", "", true},
		}, 1},
		{"no connection to reuse", []step{
			{WriteClass, []string{"requestData", "x"}, "Sampler error", "Sampler configured for using existing connection, but there is no connection", "", false},
		}, 0},
		{"bad fields", []step{
			{OpenClass, []string{"port", "0"}, "Sampler error", "Sampler error: Port number '0' is not valid.", "", false},
			{OpenClass, []string{"readTimeout", "x"}, "Sampler error", "Sampler error: Read timeout 'x' is not a number.", "", false},
		}, 0},
		{"upgrade refused", []step{
			{OpenClass, []string{"path", "/nows"}, "403", "Got unexpected status 403 with statusLine:HTTP/1.1 403 Forbidden", "", false},
		}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := srv.conns.Load()
			b := elementtest.New(nil, "", "")
			var ss []element.Sampler
			for _, st := range tt.steps {
				s, err := Build(b, srv.el(st.class, st.kv...), element.InScope{})
				if err != nil || len(b.Errs) > 0 {
					t.Fatal(err, b.Errs)
				}
				ss = append(ss, s)
			}
			vu := b.VU(1)
			defer vu.End()
			for i, st := range tt.steps {
				var r element.Result
				ss[i].Sample(vu, &r)
				if r.Code != st.code || r.Message != st.message || string(r.Body) != st.body || r.Success != st.success {
					t.Errorf("step %d: got %q %q %q %v, want %q %q %q %v", i, r.Code, r.Message, r.Body, r.Success,
						st.code, st.message, st.body, st.success)
				}
			}
			if n := srv.conns.Load() - before; n != tt.conns {
				t.Errorf("%d connections, want %d", n, tt.conns)
			}
		})
	}
}

// What a sample records besides its code: the sampler data, the sizes,
// the upgrade's headers, and the headers of the Header Manager in scope.
func TestWebSocketSampleDetails(t *testing.T) {
	srv := serve(t)
	b := elementtest.New(nil, "", "")
	hm := &jmx.Element{Class: "HeaderManager", Name: "HTTP Header Manager", Props: []*jmx.Prop{
		{Kind: "collection", Name: "HeaderManager.headers", Props: []*jmx.Prop{headerField("User-Agent", "gojm-test"), headerField("Host", "ignored")}},
	}}
	s, err := Build(b, srv.el(RequestClass, "requestData", "hello"), element.InScope{Configs: []*jmx.Element{hm}})
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Build(b, srv.el(RequestClass, "createNewConnection", "false", "requestData", "hi"), element.InScope{})
	vu := b.VU(1)
	defer vu.End()
	var r element.Result
	s.Sample(vu, &r)
	url := "ws://" + srv.host + ":" + srv.port + "/chat?x=1"
	if want := "Connect URL:\n" + url + "\n\nRequest data:\nhello\n"; r.SamplerData != want {
		t.Errorf("sampler data %q, want %q", r.SamplerData, want)
	}
	if r.ReqHead != "User-Agent: gojm-test" || srv.agent.Load() != "gojm-test" {
		t.Errorf("request headers %q, the server got %v", r.ReqHead, srv.agent.Load())
	}
	if r.Head.Get("X-Test") != "yes" || r.Connect <= 0 || r.Elapsed < r.Connect {
		t.Errorf("response header %q, connect %v, elapsed %v", r.Head.Get("X-Test"), r.Connect, r.Elapsed)
	}
	// The text frame sent is 2+4+5 bytes (masked); the echo 2+5 on top
	// of the upgrade response's head.
	if r.SentBytes != 11 || r.Bytes <= 7 || r.DataType != "text" || !finalSet(vu) {
		t.Errorf("sent %d, received %d, %q", r.SentBytes, r.Bytes, r.DataType)
	}
	var r2 element.Result
	again.Sample(vu, &r2)
	if want := "Connect URL:\n" + url + "\n(using existing connection)\n\nRequest data:\nhi\n"; r2.SamplerData != want ||
		r2.Bytes != 4 || r2.SentBytes != 8 || r2.Connect != 0 {
		t.Errorf("sampler data %q, received %d, sent %d, connect %v", r2.SamplerData, r2.Bytes, r2.SentBytes, r2.Connect)
	}
}

// A Ping Frame Filter in scope discards pings (answering them when it is
// told to); a Text Frame Filter the text frames it matches.
func TestWebSocketFrameFilters(t *testing.T) {
	srv := serve(t)
	b := elementtest.New(nil, "", "")
	ping := elementtest.El(PingFilterClass, "replyToPing", "true")
	text := elementtest.El(TextFilterClass, "comparisonType", "StartsWith", "matchValue", "skip")
	open, _ := Build(b, srv.el(OpenClass), element.InScope{})
	write1, _ := Build(b, srv.el(WriteClass, "requestData", "skip this"), element.InScope{})
	req, _ := Build(b, srv.el(RequestClass, "createNewConnection", "false", "requestData", "ping me"),
		element.InScope{Configs: []*jmx.Element{ping, text}})
	if len(b.Errs) > 0 {
		t.Fatal(b.Errs)
	}
	vu := b.VU(1)
	defer vu.End()
	for _, s := range []element.Sampler{open, write1, req} {
		var r element.Result
		s.Sample(vu, &r)
		if !r.Success {
			t.Fatalf("%q %q", r.Code, r.Message)
		}
		if s == req && string(r.Body) != "ping me" {
			t.Errorf("read %q, want the echo past the ping and the filtered text", r.Body)
		}
	}
	// The pong reaches the server before the close the user's end sends.
	var r element.Result
	closer, _ := Build(b, srv.el(CloseClass), element.InScope{})
	closer.Sample(vu, &r)
	if srv.pongs.Load() != 1 {
		t.Errorf("%d pongs, want 1", srv.pongs.Load())
	}
}

// headerField is a Header Manager's field.
func headerField(name, value string) *jmx.Prop {
	return &jmx.Prop{Kind: "element", Props: []*jmx.Prop{
		{Kind: "string", Name: "Header.name", Value: name}, {Kind: "string", Name: "Header.value", Value: value}}}
}

func finalSet(vu *element.VU) bool {
	v, ok := vu.Vars.Get(lastFrameFinal)
	return ok && v == "true"
}

// The request data may come from a file beside the plan, read once; a
// file that is not there is a warning, and each sample fails as the
// plugin's does.
func TestWebSocketDataFromFile(t *testing.T) {
	srv := serve(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "data.txt"), []byte("from a file"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		file, code, msg, body string
		warned                bool
	}{
		{"data.txt", "101", "Switching Protocols", "from a file", false},
		{"absent.txt", "Sampler Error", "Request data cannot be loaded, file 'absent.txt' not found", "", true},
	} {
		b := elementtest.New(nil, filepath.Join(dir, "plan.jmx"), dir)
		s, err := Build(b, srv.el(RequestClass, "loadDataFromFile", "true", "dataFile", tt.file), element.InScope{})
		if err != nil || len(b.Errs) > 0 || (len(b.Warnings) > 0) != tt.warned {
			t.Fatal(err, b.Errs, b.Warnings)
		}
		vu := b.VU(1)
		var r element.Result
		s.Sample(vu, &r)
		vu.End()
		if r.Code != tt.code || r.Message != tt.msg || string(r.Body) != tt.body {
			t.Errorf("%s: %q %q %q", tt.file, r.Code, r.Message, r.Body)
		}
	}
}

// A Request-Response sample over the user's open connection, on the
// loopback.
func BenchmarkWebSocketRequestResponse(b *testing.B) {
	srv := serve(b)
	eb := elementtest.New(nil, "", "")
	open, _ := Build(eb, srv.el(OpenClass), element.InScope{})
	req, _ := Build(eb, srv.el(RequestClass, "createNewConnection", "false", "requestData", "hello"), element.InScope{})
	vu := eb.VU(1)
	defer vu.End()
	var r element.Result
	open.Sample(vu, &r)
	b.ReportAllocs()
	for b.Loop() {
		r.Reset()
		req.Sample(vu, &r)
		if !r.Success {
			b.Fatal(r.Code, r.Message)
		}
	}
}
