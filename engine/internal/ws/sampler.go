package ws

import (
	"errors"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gojm/gojm/engine/httpx"
	"github.com/gojm/gojm/engine/internal/cookies"
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/internal/java"
	"github.com/gojm/gojm/jmx"
)

// The plugin's test classes.
const (
	pkg               = "eu.luminis.jmeter.wssampler."
	OpenClass         = pkg + "OpenWebSocketSampler"
	RequestClass      = pkg + "RequestResponseWebSocketSampler"
	WriteClass        = pkg + "SingleWriteWebSocketSampler"
	ReadClass         = pkg + "SingleReadWebSocketSampler"
	PingClass         = pkg + "PingPongSampler"
	CloseClass        = pkg + "CloseWebSocketSampler"
	PingFilterClass   = pkg + "PingFrameFilter"
	TextFilterClass   = pkg + "TextFrameFilter"
	BinaryFilterClass = pkg + "BinaryFrameFilter"
)

// The plugin's defaults, in milliseconds.
const (
	defaultConnectTimeout = "20000"
	defaultReadTimeout    = "6000"
)

// lastFrameFinal is the variable the plugin sets after a data frame is
// read.
const lastFrameFinal = "websocket.last_frame_final"

// what a sampler does, the plugin's subclass.
type what uint8

const (
	wOpen what = iota
	wRequest
	wWrite
	wRead
	wPing
	wClose
)

// sampler is one of the plugin's samplers, compiled.
type sampler struct {
	what what
	// newConn: the sampler opens a new connection (Open always; the
	// others when "createNewConnection" is set).
	newConn                                         bool
	server, port, path, connectTimeout, readTimeout *element.Template
	tls                                             bool
	data                                            *element.Template
	fileData                                        []byte // the data file's bytes, when the data comes from one
	fromFile                                        bool
	dataFile                                        string
	binary                                          bool
	readType                                        int // the frame type a read wants: opText, opBinary or 0 for any
	optional                                        bool
	pong                                            bool // a Ping-Pong sampler of type Pong: send a pong, wait for nothing
	status                                          *element.Template
	headers                                         []header
	filters                                         []filter
	conns                                           *element.Local[userConn]
	jars                                            *element.Local[cookies.User]
}

type header struct {
	name  string
	value *element.Template
}

// userConn is a user's one connection, shared by every WebSocket sampler
// (the plugin's thread-local connection).
type userConn struct{ c *conn }

var connKey = element.NewKey[*element.Local[userConn]]("websocket connection")

func userConns(p *element.Plan) *element.Local[userConn] {
	return element.PerUser(p, connKey, func() *userConn { return &userConn{} }, (*userConn).drop)
}

func (u *userConn) drop() {
	if u.c != nil {
		u.c.dispose()
		u.c = nil
	}
}

// Build compiles one of the plugin's samplers.
func Build(c element.Builder, e *jmx.Element, sc element.InScope) (element.Sampler, error) {
	s := &sampler{
		server:         c.Prop(e, "server"),
		port:           element.PropOr(c, e, "port", "80"),
		path:           c.Prop(e, "path"),
		tls:            e.Bool("TLS", false),
		connectTimeout: element.PropOr(c, e, "connectTimeout", defaultConnectTimeout),
		readTimeout:    element.PropOr(c, e, "readTimeout", defaultReadTimeout),
		data:           c.Prop(e, "requestData"),
		binary:         e.Bool("binaryPayload", false),
		newConn:        e.Bool("createNewConnection", e.Class == RequestClass),
		conns:          userConns(c.Plan()),
		jars:           cookies.Users(c.Plan()),
	}
	switch e.Class {
	case OpenClass:
		s.what, s.newConn = wOpen, true
	case RequestClass:
		s.what = wRequest
	case WriteClass:
		s.what = wWrite
	case ReadClass:
		s.what, s.optional = wRead, e.Bool("optional", false)
		s.readType = opText
		switch dt := e.Str("dataType"); dt {
		case "Binary":
			s.readType = opBinary
		case "Any":
			s.readType = 0
		case "Text":
		case "":
			if s.binary {
				s.readType = opBinary
			}
		default:
			c.Fail(e, errors.New("dataType "+strconv.Quote(dt)+" is none of the plugin's (Text, Binary, Any)"))
		}
	case PingClass:
		s.what, s.newConn = wPing, false
		switch t := e.StrOr("type", "PingPong"); t {
		case "Pong":
			s.pong = true
		case "PingPong":
		default:
			c.Fail(e, errors.New("type "+strconv.Quote(t)+" is none of the plugin's (PingPong, Pong)"))
		}
	case CloseClass:
		s.what, s.newConn = wClose, false
		s.status = element.PropOr(c, e, "statusCode", "1000")
	}
	if id := e.Str("connectionId"); id != "" {
		c.Warn(e, "the connection id "+strconv.Quote(id)+" is not used: each user has one WebSocket connection, "+
			"as the plugin has unless its property websocket.multiple_connections is set")
	}
	if (s.what == wRequest || s.what == wWrite) && e.Bool("loadDataFromFile", false) {
		s.fromFile, s.dataFile = true, e.Str("dataFile")
		if path := element.Input(c, e, "request data file", e.Str("dataFile"),
			"each sample fails with the plugin's \"Request data cannot be loaded\""); path != "" {
			b, err := c.Plan().Files.ReadFile(path)
			if err != nil {
				c.Fail(e, err)
			}
			s.fileData = b
		}
	}
	s.headers = mergeHeaders(c, e, sc.Of("HeaderManager"))
	for _, f := range sc.Configs {
		switch f.Class {
		case PingFilterClass, TextFilterClass, BinaryFilterClass:
			s.filters = append(s.filters, buildFilter(c, f))
		}
	}
	return s, nil
}

// mergeHeaders is the Header Managers' fields in scope, the nearest
// manager's first; the plugin sends them on the upgrade, leaving out
// nameless ones and those it writes itself.
func mergeHeaders(c element.Builder, e *jmx.Element, managers []*jmx.Element) []header {
	var out []header
	seen := map[string]bool{}
	for _, m := range managers {
		for _, h := range m.Prop("HeaderManager.headers").Members() {
			name := h.Str("Header.name")
			key := strings.ToLower(name)
			if strings.TrimSpace(name) == "" || seen[key] {
				continue
			}
			switch key {
			case "host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version":
				continue
			}
			seen[key] = true
			out = append(out, header{name: name, value: c.Template(e, "header "+name, h.Str("Header.value"))})
		}
	}
	return out
}

// withCookies adds to fields the Cookie header of the user's jar for the
// connect URL, as the plugin puts its Cookie Manager's in the upgrade's
// fields (over a Header Manager's Cookie); the cookies of the upgrade
// response are not stored, as the plugin stores none.
func (s *sampler) withCookies(vu *element.VU, fields [][2]string) [][2]string {
	if vu.Group == nil || !vu.Group.Cookies {
		return fields
	}
	u := s.jars.Get(vu)
	if u.Jar == nil {
		return fields
	}
	u.Seed(vu)
	scheme := "http"
	if s.tls {
		scheme = "https"
	}
	port, _ := strconv.Atoi(strings.TrimSpace(s.port.Eval(vu)))
	path := s.path.Eval(vu)
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	cu, err := url.Parse(scheme + "://" + net.JoinHostPort(s.server.Eval(vu), strconv.Itoa(port)) + path)
	if err != nil {
		return fields
	}
	v := u.Jar.Header(cu)
	if v == "" {
		return fields
	}
	for i := range fields {
		if fields[i][0] == "Cookie" {
			fields[i][1] = v
			return fields
		}
	}
	return append(fields, [2]string{"Cookie", v})
}

// sampleError ends a sample with the plugin's code and message.
type sampleError struct{ code, msg string }

func (e *sampleError) Error() string { return e.msg }

func (s *sampler) Sample(vu *element.VU, r *element.Result) {
	r.Start = vu.Now()
	if msg := s.validate(vu); msg != "" {
		r.Code, r.Message = "Sampler error", "Sampler error: "+msg
		return
	}
	readTimeout, _ := strconv.Atoi(strings.TrimSpace(s.readTimeout.Eval(vu)))
	u := s.conns.Get(vu)
	c, fresh, ok := s.prepare(vu, u, r)
	if !ok {
		return
	}
	var fields [][2]string
	if fresh {
		for _, h := range s.headers {
			fields = append(fields, [2]string{h.name, h.value.Eval(vu)})
		}
		fields = s.withCookies(vu, fields)
		var sb strings.Builder
		for i, f := range fields {
			if i > 0 {
				sb.WriteByte('\n')
			}
			sb.WriteString(f[0] + ": " + f[1])
		}
		r.ReqHead = sb.String()
	}
	r.Start = vu.Now()
	var up upgrade
	if fresh {
		port, _ := strconv.Atoi(strings.TrimSpace(s.port.Eval(vu)))
		connectTimeout, _ := strconv.Atoi(strings.TrimSpace(s.connectTimeout.Eval(vu)))
		host := s.server.Eval(vu)
		path := s.path.Eval(vu)
		r.SamplerData = "Connect URL:\n" + connectURL(s.tls, host, port, path) + "\n"
		var err error
		c, up, err = dial(vu.Hard, s.tls, host, port, path, fields, connectTimeout, readTimeout)
		if err != nil {
			s.fail(vu, r, err)
			return
		}
		r.Connect = vu.Now().Sub(r.Start)
		r.Bytes, r.SentBytes = up.rcvd, up.sent
		u.c = c
	} else {
		r.SamplerData = "Connect URL:\n" + c.url + "\n(using existing connection)\n"
	}
	got, err := s.do(vu, c, readTimeout, r)
	r.Elapsed = vu.Now().Sub(r.Start)
	if err == nil && got != nil {
		r.Bytes += got.size()
	}
	if !c.open {
		u.drop()
	}
	if err != nil {
		s.fail(vu, r, err)
		return
	}
	if fresh {
		r.Code, r.Message = "101", "Switching Protocols"
		r.Head = httpx.HeadOf(up.header)
	} else {
		r.Code, r.Message = "200", "OK"
	}
	s.post(vu, got, r)
	r.Success = true
}

// fail ends a sample on err as the plugin's sample method does.
func (s *sampler) fail(vu *element.VU, r *element.Result, err error) {
	if r.Elapsed == 0 {
		r.Elapsed = vu.Now().Sub(r.Start)
	}
	r.Success = false
	var (
		ioe *ioError
		up  *upgradeError
		se  *sampleError
		ue  *unexpected
	)
	switch {
	case errors.As(err, &ue):
		if s.what == wClose {
			r.Code = "WebSocket error: unsuccesful close."
			r.Message = "WebSocket error: received not a close frame, but " + ue.f.String()
		} else {
			r.Code = "Sampler error: unexpected frame type (" + ue.f.kind() + ")."
			r.Message = "Received: " + ue.f.String()
		}
	case errors.As(err, &up):
		r.Code, r.Message = up.code, up.msg
	case errors.As(err, &se):
		r.Code, r.Message = se.code, se.msg
	case errors.As(err, &ioe):
		r.Code, r.Message = "Websocket I/O error", "WebSocket I/O error: "+ioe.msg
	default:
		r.Code, r.Message = "Sampler error", "Sampler error: "+err.Error()
	}
}

// unexpected is a frame of another type than the sampler waits for.
type unexpected struct{ f frame }

func (e *unexpected) Error() string { return "unexpected " + e.f.String() }

// validate is the plugin's validateArguments: "" when the fields are
// good.
func (s *sampler) validate(vu *element.VU) string {
	if s.newConn {
		if msg := validatePort(strings.TrimSpace(s.port.Eval(vu))); msg != "" {
			return msg
		}
		if msg := validateTimeout("Connection", strings.TrimSpace(s.connectTimeout.Eval(vu)), 1); msg != "" {
			return msg
		}
	}
	if s.what != wWrite {
		return validateTimeout("Read", strings.TrimSpace(s.readTimeout.Eval(vu)), 0)
	}
	return ""
}

func validatePort(v string) string {
	port, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return "Port number '" + v + "' is not a number."
	}
	if port <= 0 || port > 65535 {
		return "Port number '" + v + "' is not valid."
	}
	return ""
}

func validateTimeout(kind, v string, min int64) string {
	t, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return kind + " timeout '" + v + "' is not a number."
	}
	if t < min || t > 999999 {
		return kind + " timeout '" + v + "' is not valid; should between " + strconv.FormatInt(min, 10) + " and 999999"
	}
	return ""
}

// prepare is the plugin's prepareWebSocketClient: the user's connection,
// or none when the sampler makes a new one (fresh); ok false when the
// sample ends here, its code and message set.
func (s *sampler) prepare(vu *element.VU, u *userConn, r *element.Result) (c *conn, fresh, ok bool) {
	if s.newConn {
		u.drop()
		return nil, true, true
	}
	if u.c != nil {
		return u.c, false, true
	}
	switch s.what {
	case wClose:
		r.SamplerData = "No request sent."
		r.Message = "No connection; nothing to close."
	case wPing:
		r.Code, r.Message = "Sampler error", "Sampler must use existing connection, but there is no connection"
	default:
		r.Code, r.Message = "Sampler error", "Sampler configured for using existing connection, but there is no connection"
	}
	return nil, false, false
}

// do is the plugin's doSample: what the sampler sends and the frame it
// reads, if any.
func (s *sampler) do(vu *element.VU, c *conn, readTimeout int, r *element.Result) (*frame, error) {
	switch s.what {
	case wOpen:
		return nil, nil
	case wRequest, wWrite:
		if err := s.sendData(vu, c, r); err != nil {
			return nil, err
		}
		if s.what == wWrite {
			return nil, nil
		}
		want := opText
		if s.binary {
			want = opBinary
		}
		return s.readFrame(vu, c, readTimeout, r, want)
	case wRead:
		f, err := s.readFrame(vu, c, readTimeout, r, s.readType)
		if err == errReadTimeout && s.optional {
			return nil, nil
		}
		return f, err
	case wPing:
		if s.pong {
			r.SentBytes = sentSize(0)
			return nil, c.send(opPong, nil)
		}
		r.SentBytes = sentSize(0)
		if err := c.send(opPing, nil); err != nil {
			return nil, err
		}
		return s.readFrame(vu, c, readTimeout, r, opPong)
	case wClose:
		status, err := strconv.Atoi(strings.TrimSpace(s.status.Eval(vu)))
		if err != nil {
			return nil, errors.New("java.lang.NumberFormatException: For input string: \"" + s.status.Eval(vu) + "\"")
		}
		const reason = "sampler requested close"
		r.SamplerData = "Requested connection close with status " + strconv.Itoa(status) + " and reason '" + reason + "'."
		payload := append([]byte{byte(status >> 8), byte(status)}, reason...)
		r.SentBytes = sentSize(len(payload))
		if err := c.send(opClose, payload); err != nil {
			return nil, err
		}
		return s.readFrame(vu, c, readTimeout, r, opClose)
	}
	return nil, nil
}

// sendData sends the request data as a text or a binary frame.
func (s *sampler) sendData(vu *element.VU, c *conn, r *element.Result) error {
	if s.fromFile && s.fileData == nil {
		return &sampleError{"Sampler Error", "Request data cannot be loaded, file '" + s.dataFile + "' not found"}
	}
	data := s.data.Eval(vu)
	if s.binary {
		var b []byte
		printable := data
		if s.fromFile {
			b = s.fileData
			printable = formatBinary(b, 100, "...")
		} else {
			var err error
			if b, err = parseBinary(data); err != nil {
				return &sampleError{"Sampler Error", "Request data is not binary: " + data}
			}
		}
		r.SamplerData += "\nRequest data:\n" + printable + "\n"
		r.SentBytes = sentSize(len(b))
		return c.send(opBinary, b)
	}
	if s.fromFile {
		data = string(s.fileData)
	}
	r.SamplerData += "\nRequest data:\n" + data + "\n"
	r.SentBytes = sentSize(len(data))
	return c.send(opText, []byte(data))
}

// parseBinary is the plugin's BinaryUtils.parseBinaryString: words
// separated by spaces, each a Java integer literal starting "0x" (its low
// byte) or hex digits read two at a time.
func parseBinary(s string) ([]byte, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []byte
	for _, w := range strings.Split(s, " ") {
		if strings.HasPrefix(w, "0x") {
			v, err := java.DecodeLong(w)
			if err != nil || v != int64(int32(v)) {
				return nil, errors.New("not binary")
			}
			out = append(out, byte(v))
			continue
		}
		if w == "" {
			return nil, errors.New("not binary") // Integer.parseInt("")
		}
		for i := 0; i < len(w); i += 2 {
			v, err := strconv.ParseInt(w[i:min(len(w), i+2)], 16, 32)
			if err != nil {
				return nil, err
			}
			out = append(out, byte(v))
		}
	}
	return out, nil
}

// readFrame reads the next frame through the filters in scope and checks
// its type (want 0: any data frame).
func (s *sampler) readFrame(vu *element.VU, c *conn, timeout int, r *element.Result, want int) (*frame, error) {
	deadline := time.Time{}
	if timeout > 0 {
		deadline = vu.Now().Add(time.Duration(timeout) * time.Millisecond)
	}
	for {
		left := timeout
		if timeout > 0 {
			left = int(time.Until(deadline) / time.Millisecond)
			if left <= 0 {
				return nil, errReadTimeout
			}
		}
		f, err := c.receive(vu.Hard, left)
		if err != nil {
			return nil, err
		}
		if fl := s.discard(&f); fl != nil {
			if fl.replyPong && f.op == opPing {
				if err := c.send(opPong, nil); err != nil {
					return nil, err
				}
			}
			continue
		}
		ok := f.op == want || (want == 0 && (f.op == opText || f.op == opBinary))
		if !ok {
			return nil, &unexpected{f}
		}
		return &f, nil
	}
}

// post is the plugin's postProcessResponse: the response data of the
// frame read.
func (s *sampler) post(vu *element.VU, f *frame, r *element.Result) {
	switch s.what {
	case wRequest, wRead:
		if f == nil { // an optional read that timed out
			r.Code, r.Message = "No response", "Read timeout, no response received."
			return
		}
		r.Body = append(r.Body[:0], f.data...)
		r.DataType = "text"
		if f.op == opBinary {
			r.DataType = "bin"
		}
		vu.Vars.Put(lastFrameFinal, "true")
	case wClose:
		code, text := "", ""
		if f.code != 0 {
			code = strconv.Itoa(f.code)
			text = code
		}
		r.Message = "Connection closed."
		if f.code != 0 && f.reason != "" {
			r.Message = "Connection closed; close reason: '" + f.reason + "'."
			text += ": " + f.reason
		}
		r.Code = code
		r.Body = append(r.Body[:0], text...)
		r.DataType = "text"
	}
}

// connectURL is the plugin's getConnectUrl: the port always written.
func connectURL(tls bool, host string, port int, path string) string {
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	scheme := "ws"
	if tls {
		scheme = "wss"
	}
	return scheme + "://" + host + ":" + strconv.Itoa(port) + path
}
