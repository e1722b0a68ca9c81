package tcp

import (
	"context"
	"errors"
	"net"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/internal/java"
	"github.com/gojm/gojm/jmx"
	"github.com/gojm/gojm/report"
)

// The TCP Sampler's properties (TCPSampler's constants).
const (
	propServer    = "TCPSampler.server"
	propPort      = "TCPSampler.port"
	propClass     = "TCPSampler.classname"
	propNoDelay   = "TCPSampler.nodelay"
	propTimeout   = "TCPSampler.timeout"
	propConnect   = "TCPSampler.ctimeout"
	propRequest   = "TCPSampler.request"
	propReuse     = "TCPSampler.reUseConnection"
	propClose     = "TCPSampler.closeConnection"
	propSoLinger  = "TCPSampler.soLinger"
	propEOL       = "TCPSampler.EolByte"
	propUser      = "ConfigTestElement.username"
	propPassword  = "ConfigTestElement.password"
	classPrefix   = "org.apache.jmeter.protocol.tcp.sampler."
	defaultClient = "TCPClientImpl"
)

// sampler is one TCP Sampler, its fields merged with the configs in its
// scope that apply to it.
type sampler struct {
	server, port, class, timeout, connect, request *element.Template
	soLinger, eol, user, password                  *element.Template
	reuse, close, noDelay                          bool
	// hasLinger and hasEOL: the field is set (JMeter tests the property's
	// text, not its value).
	hasLinger, hasEOL bool
	// client is the protocol handler when the class name and end-of-line
	// byte are fixed; otherwise each user makes its own at its first
	// sample, as JMeter's initSampling does (handlers).
	client   *client
	handlers *element.Local[handler]
	props    *props
	conns    *element.Local[conns]
}

// handler is a user's protocol handler of one sampler; nil once made
// means "Protocol handler not found".
type handler struct {
	client *client
	made   bool
}

// Build compiles a TCP Sampler. Its empty fields are taken from the TCP
// Sampler Config, Login Config and Simple Config elements in its scope,
// nearest first, as JMeter's AbstractSampler.applies lets them.
func Build(c element.Builder, e *jmx.Element, sc element.InScope) (element.Sampler, error) {
	f := fields{e: e, configs: applying(sc.Configs)}
	s := &sampler{
		server:   f.str(c, propServer),
		port:     f.str(c, propPort),
		class:    f.str(c, propClass),
		timeout:  f.str(c, propTimeout),
		connect:  f.str(c, propConnect),
		request:  f.str(c, propRequest),
		soLinger: f.str(c, propSoLinger),
		eol:      f.str(c, propEOL),
		user:     f.str(c, propUser),
		password: f.str(c, propPassword),
		reuse:    f.boolean(propReuse, true),
		close:    f.boolean(propClose, false),
		noDelay:  f.boolean(propNoDelay, false),
		props:    readProps(c),
		conns:    userConns(c.Plan()),
	}
	s.hasLinger = s.soLinger.Raw() != ""
	s.hasEOL = s.eol.Raw() != ""
	if !s.class.Const() || (s.hasEOL && !s.eol.Const()) {
		s.handlers = element.NewLocal(c.Plan(), func(*element.VU) *handler { return &handler{} })
		return s, nil
	}
	name := s.class.Raw()
	eol, _ := s.eolOf(nil)
	cl, ok := s.props.client(name, eol, s.hasEOL)
	if !ok {
		c.Plan().Log.Warn("the TCP client class "+strconv.Quote(s.props.className(name))+" is not one of JMeter's "+
			"(TCPClientImpl, BinaryTCPClientImpl, LengthPrefixedBinaryTCPClientImpl): each sample fails with "+
			"\"Protocol handler not found\", as in JMeter without that class; a custom client needs JMeter itself",
			"element", e.Path())
	}
	s.client = cl
	return s, nil
}

// fields reads a sampler's property, or the first config's that sets it:
// JMeter merges a config's property into the sampler's when the sampler's
// is absent or empty text (a boolean property's text is never empty).
type fields struct {
	e       *jmx.Element
	configs []*jmx.Element
}

func (f fields) str(c element.Builder, name string) *element.Template {
	if v := f.e.Str(name); v != "" {
		return c.Template(f.e, name, v)
	}
	for _, cfg := range f.configs {
		if v := cfg.Str(name); v != "" {
			return c.Template(cfg, name, v)
		}
	}
	return element.Text("")
}

func (f fields) boolean(name string, def bool) bool {
	if f.e.Str(name) != "" {
		return f.e.Bool(name, def)
	}
	for _, cfg := range f.configs {
		if cfg.Str(name) != "" {
			return cfg.Bool(name, def)
		}
	}
	return def
}

// applying returns the configs a TCP Sampler takes fields from: JMeter's
// TCPSampler.applies, by the config's GUI class.
func applying(configs []*jmx.Element) []*jmx.Element {
	var out []*jmx.Element
	for _, e := range configs {
		g := e.GUIClass
		if i := strings.LastIndexByte(g, '.'); i >= 0 {
			g = g[i+1:]
		}
		switch g {
		case "TCPConfigGui", "LoginConfigGui", "SimpleConfigGui":
			out = append(out, e)
		}
	}
	return out
}

// eolOf is the sampler's end-of-line byte field as JMeter reads it
// (getPropertyAsInt), and whether it is set; vu nil reads it only when it
// is fixed text.
func (s *sampler) eolOf(vu *element.VU) (int, bool) {
	if !s.hasEOL {
		return 0, false
	}
	if vu == nil {
		if !s.eol.Const() {
			return 0, false
		}
		return javaInt(s.eol.Raw(), 0), true
	}
	return javaInt(s.eol.Eval(vu), 0), true
}

// key is what a user's connection is kept by (JMeter's socket key).
type key struct {
	server         string
	port           int
	user, password string
}

func (s *sampler) Sample(vu *element.VU, r *element.Result) {
	k := key{server: s.server.Eval(vu), port: javaInt(s.port.Eval(vu), 0), user: s.user.Eval(vu), password: s.password.Eval(vu)}
	timeout := javaInt(s.timeout.Eval(vu), 0)
	cl := s.client
	if s.handlers != nil {
		h := s.handlers.Get(vu)
		if !h.made {
			eol, _ := s.eolOf(vu)
			h.client, _ = s.props.client(s.class.Eval(vu), eol, s.hasEOL)
			h.made = true
		}
		cl = h.client
	}
	cs := s.conns.Get(vu)

	r.Start = vu.Now()
	conn, err := s.socket(vu, cs, k, timeout)
	r.Connect = vu.Now().Sub(r.Start)
	ok := false
	switch {
	case conn == nil:
		r.SamplerData = s.header(vu, k)
		r.Code, r.Message = "500", err.Error()
		if _, thrown := err.(*thrownErr); thrown {
			// An exception JMeter's getSocket does not catch: the sample
			// takes it as a failed exchange.
			r.DataType = "text"
			cs.close(k)
		}
	case cl == nil:
		r.SamplerData = s.header(vu, k)
		r.Code, r.Message = "500", "Protocol handler not found"
	default:
		conn.SetNoDelay(s.noDelay)
		req := s.request.Eval(vu)
		r.SamplerData = req
		var resp []byte
		size := 0
		if err = cl.write(conn, req, &cs.scratch); err == nil {
			resp, size, err = cl.read(vu, conn, timeout, &cs.scratch, r)
		}
		var closeIt bool
		ok, closeIt = s.props.result(r, resp, size, err)
		if closeIt {
			cs.close(k)
		}
	}
	r.Elapsed = vu.Now().Sub(r.Start)
	r.Success = ok
	if !s.reuse || s.close {
		cs.close(k)
	}
}

// header is the sampler data of a sample that sent nothing.
func (s *sampler) header(vu *element.VU, k key) string {
	linger := 0
	if s.hasLinger {
		linger = javaInt(s.soLinger.Eval(vu), 0)
	}
	eol, _ := s.eolOf(vu)
	return "Host: " + k.server + " Port: " + strconv.Itoa(k.port) + "\n" +
		"Reuse: " + strconv.FormatBool(s.reuse) + " Close: " + strconv.FormatBool(s.close) + "\n[" +
		"SOLINGER: " + strconv.Itoa(linger) + " EOL: " + strconv.Itoa(eol) + " noDelay: " + strconv.FormatBool(s.noDelay) + "]"
}

// socket returns the user's connection for k, opening one when there is
// none or the sampler does not reuse connections (JMeter's getSocket). The
// error's text is JMeter's response message.
func (s *sampler) socket(vu *element.VU, cs *conns, k key, timeout int) (*conn, error) {
	if timeout < 0 {
		// Socket.setSoTimeout throws, past getSocket's catch.
		return nil, &thrownErr{javaErr{"java.lang.IllegalArgumentException", "timeout can't be negative"}}
	}
	if s.reuse {
		if c := cs.get(k); c != nil {
			return c, nil
		}
	}
	cs.close(k) // JMeter's bug 44910: the previous socket, if any
	if k.port < 0 || k.port > 0xFFFF {
		return nil, &thrownErr{javaErr{"java.lang.IllegalArgumentException", "port out of range:" + strconv.Itoa(k.port)}}
	}
	linger := 0
	if s.hasLinger {
		if linger = javaInt(s.soLinger.Eval(vu), 0); linger < 0 {
			return nil, &thrownErr{javaErr{"java.lang.IllegalArgumentException", "invalid value for SO_LINGER"}}
		}
	}
	connect := javaInt(s.connect.Eval(vu), 0)
	if connect < 0 {
		return nil, &thrownErr{javaErr{"java.lang.IllegalArgumentException", "connect: timeout can't be negative"}}
	}
	d := net.Dialer{Timeout: time.Duration(connect) * time.Millisecond}
	nc, err := d.DialContext(vu.Hard, "tcp", net.JoinHostPort(k.server, strconv.Itoa(k.port)))
	if err != nil {
		return nil, connectError(k.server, err)
	}
	tc := nc.(*net.TCPConn)
	if s.hasLinger {
		tc.SetLinger(min(linger, 65535))
	}
	c := &conn{TCPConn: tc}
	// An aborted run closes the socket under a read, as JMeter's interrupt.
	c.stop = context.AfterFunc(vu.Hard, func() { tc.Close() })
	cs.put(k, c)
	return c, nil
}

// thrownErr is an exception JMeter's getSocket lets through to the
// sample, which then closes the connection.
type thrownErr struct{ javaErr }

// conn is a user's open socket.
type conn struct {
	*net.TCPConn
	stop func() bool
}

func (c *conn) release() {
	c.stop()
	c.Close()
}

// conns are a user's open sockets by key, shared by its TCP samplers (a
// user rarely has more than a few, so a list beats a map).
type conns struct {
	keys []key
	cs   []*conn
	scratch
}

var connsKey = element.NewKey[*element.Local[conns]]("tcp connections")

// userConns is the plan's one per-user table of TCP connections: JMeter
// keeps it per thread, for all TCP samplers.
func userConns(p *element.Plan) *element.Local[conns] {
	return element.PerUser(p, connsKey, func() *conns {
		return &conns{scratch: scratch{buf: make([]byte, 4096)}}
	}, (*conns).closeAll)
}

func (cs *conns) get(k key) *conn {
	for i := range cs.keys {
		if cs.keys[i] == k {
			return cs.cs[i]
		}
	}
	return nil
}

func (cs *conns) put(k key, c *conn) {
	cs.keys = append(cs.keys, k)
	cs.cs = append(cs.cs, c)
}

func (cs *conns) close(k key) {
	for i := range cs.keys {
		if cs.keys[i] == k {
			cs.cs[i].release()
			last := len(cs.keys) - 1
			cs.keys[i], cs.cs[i] = cs.keys[last], cs.cs[last]
			cs.keys, cs.cs = cs.keys[:last], cs.cs[:last]
			return
		}
	}
}

func (cs *conns) closeAll() {
	for _, c := range cs.cs {
		c.release()
	}
	cs.keys, cs.cs = nil, nil
}

// props are the JMeter properties the TCP Sampler reads once (its static
// fields): the default client, end-of-line bytes, charset and the status
// scan of the response.
type props struct {
	handler              string
	eolByte, eomByte     int
	prefixLen            int
	charset              string
	statusPrefix, suffix string
	statusProps          map[string]string
	haveStatusProps      bool
}

var propsKey = element.NewKey[*props]("tcp properties")

func readProps(c element.Builder) *props {
	p := c.Plan()
	return element.Once(p, propsKey, func() *props {
		get := func(name, def string) string {
			if v, ok := p.Props.Get(name); ok {
				return v
			}
			return def
		}
		pr := &props{
			handler:      get("tcp.handler", defaultClient),
			eolByte:      javaInt(get("tcp.eolByte", "1000"), 1000),
			eomByte:      javaInt(get("tcp.BinaryTCPClient.eomByte", "1000"), 1000),
			prefixLen:    javaInt(get("tcp.binarylength.prefix.length", "2"), 2),
			charset:      get("tcp.charset", ""),
			statusPrefix: get("tcp.status.prefix", ""),
			suffix:       get("tcp.status.suffix", ""),
		}
		if f := get("tcp.status.properties", ""); f != "" {
			// JMeter logs a file it cannot read and goes on without it.
			if m, err := report.ReadProperties(p.Files.Resolve(f)); err == nil {
				pr.statusProps, pr.haveStatusProps = m, true
			} else {
				p.Log.Warn("tcp.status.properties: the file cannot be read; TCP samples say \"No status property file\"", "error", err)
			}
		}
		return pr
	})
}

// className is the client class a sampler names, or tcp.handler's.
func (p *props) className(name string) string {
	if strings.TrimSpace(name) == "" {
		return p.handler
	}
	return name
}

// client returns the protocol handler a class name stands for, with the
// sampler's end-of-line byte when it sets one; false when the class is not
// one of JMeter's.
func (p *props) client(name string, eol int, hasEOL bool) (*client, bool) {
	n := strings.TrimPrefix(p.className(name), classPrefix)
	cl := &client{charset: p.charset, prefixLen: p.prefixLen}
	switch n {
	case "TCPClientImpl":
		cl.kind = textClient
		cl.setEOL(p.eolByte)
		if enc, err := java.Charset(p.charset); err != nil {
			cl.encErr = javaError("java.io.UnsupportedEncodingException", p.charset)
		} else {
			cl.enc = enc
		}
	case "BinaryTCPClientImpl":
		cl.kind = binaryClient
		cl.setEOL(p.eomByte)
	case "LengthPrefixedBinaryTCPClientImpl":
		// JMeter refuses an end-of-message byte for it and logs the error;
		// the client works without one.
		cl.kind = prefixedClient
		return cl, true
	default:
		return nil, false
	}
	if hasEOL {
		cl.setEOL(eol)
	}
	return cl, true
}

// result fills a sample from what was read (resp, which counts size
// bytes), as JMeter's setupSampleResult: 200 OK, or 500 and the exception;
// then, with tcp.status.prefix set, the status code found in the
// response. It reports whether the sample succeeded, and whether the
// connection is to be closed (the sample failed with an exception).
func (p *props) result(r *element.Result, resp []byte, size int, err error) (ok, closeIt bool) {
	r.Body = append(r.Body[:0], resp...)
	r.Bytes = int64(size)
	r.DataType = "text"
	r.Code, r.Message = "200", "OK"
	if err != nil {
		r.Code, r.Message = "500", err.Error()
	}
	ok, closeIt = err == nil, err != nil
	if len(resp) == 0 || p.statusPrefix == "" {
		return ok, closeIt
	}
	text := string(resp)
	i := strings.Index(text, p.statusPrefix)
	j := -1
	if i >= 0 {
		if k := strings.Index(text[i+len(p.statusPrefix):], p.suffix); k >= 0 {
			j = i + len(p.statusPrefix) + k
		}
	}
	if i < 0 || j <= i {
		r.Code, r.Message = "999", "Status value not found"
		return false, closeIt
	}
	rc := text[i+len(p.statusPrefix) : j]
	n, perr := strconv.ParseInt(rc, 10, 32)
	if perr != nil {
		// JMeter's Integer.parseInt throws here, and the sample becomes
		// the failure of that exception, with no response data.
		p.result(r, nil, 0, javaError("java.lang.NumberFormatException", "For input string: \""+rc+"\""))
		return false, true
	}
	r.Code = rc
	// JMeter's checkResponseCode: a status in 400–599 counts as success.
	ok = ok && n >= 400 && n <= 599
	switch {
	case p.haveStatusProps:
		msg, found := p.statusProps[rc]
		if !found {
			msg = "Status code not found in properties"
		}
		r.Message = msg
	default:
		r.Message = "No status property file"
	}
	return ok, closeIt
}

// javaInt is JMeter's getPropertyAsInt: Integer.parseInt of the text, def
// for empty text, 0 for text that is not a number.
func javaInt(s string, def int) int {
	if s == "" {
		return def
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0
	}
	return int(n)
}

// javaErr is a Java exception as JMeter shows it in a response message
// (Throwable.toString: the class, then ": " and the message).
type javaErr struct{ class, msg string }

func javaError(class, msg string) error { return &javaErr{class, msg} }

func (e *javaErr) Error() string { return e.class + ": " + e.msg }

// connectError names a failed connect as Java's Socket.connect does.
func connectError(host string, err error) error {
	var dns *net.DNSError
	var op *net.OpError
	switch {
	case errors.As(err, &dns):
		return javaError("java.net.UnknownHostException", host)
	case errors.As(err, &op) && op.Timeout():
		return javaError("java.net.SocketTimeoutException", "Connect timed out")
	case errors.Is(err, context.Canceled):
		return javaError("java.net.SocketException", "Socket closed")
	}
	switch {
	case errors.Is(err, syscall.EHOSTUNREACH):
		return javaError("java.net.NoRouteToHostException", "No route to host")
	case errors.Is(err, syscall.ENETUNREACH):
		return javaError("java.net.ConnectException", "Network is unreachable")
	}
	return javaError("java.net.ConnectException", "Connection refused")
}
