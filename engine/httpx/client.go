package httpx

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-resty/resty/v2"
)

// Options configure a Client for the lifetime of a virtual user.
type Options struct {
	// Jar is the virtual user's cookie jar (JMeter's HTTP Cookie Manager),
	// which the client sends from and stores in; nil: none.
	Jar *Jar
	// MaxBody caps how much of a response body is kept for extractors and
	// assertions; the rest is read, counted and discarded.
	MaxBody int
}

// DefaultMaxBody is the default cap on kept response bodies.
const DefaultMaxBody = 16 << 20

// MaxRedirects is how many redirects the client follows by itself
// (JMeter's httpsampler.max_redirects) before it gives up.
const MaxRedirects = 20

// Header is one request header, in the order it is sent.
type Header struct{ Name, Value string }

// Resolver looks up the addresses of a host name (JMeter's DNS Cache
// Manager). Implementations may be called from several lanes at once.
type Resolver interface {
	Resolve(ctx context.Context, host string) ([]string, error)
}

// Request is what one HTTP exchange sends.
type Request struct {
	Method string
	URL    string
	// Host, when set, is sent as the Host header instead of the URL's host.
	Host   string
	Header []Header
	Body   []byte
	// Parts, when set, make the body instead of Body: bytes and files in
	// order, with the Content-Length they add up to.
	Parts []Part
	// EmptyBody sends "Content-Length: 0" when there is no body, as
	// HttpClient does for a request that may carry one but has none.
	EmptyBody       bool
	ConnectTimeout  time.Duration // 0: none
	ResponseTimeout time.Duration // 0: none; bounds each read, as a socket timeout
	// AutoRedirects lets the client follow redirects itself (JMeter's
	// "Redirect Automatically"); the result is then the last response.
	AutoRedirects bool
	KeepAlive     bool
	// KeepBody says, from the response's Content-Type, whether its body is
	// wanted in Result.Body; nil discards every body (counted, not kept).
	KeepBody func(contentType string) bool
	// MD5 replaces a kept body by the hex MD5 of the whole body.
	MD5 bool
	// KeepHead asks for the request head as written, in Result.RequestHead.
	KeepHead bool
	// Auth answers authentication challenges; nil: none.
	Auth *Credentials
	// Resolve overrides the system resolver; nil: the system's.
	Resolve Resolver
	// Source is the local address to connect from (JMeter's "Source
	// address"); the zero Addr lets the system choose. A connection made
	// from another address is not reused for the request.
	Source netip.Addr
	// Protocol is the transport the request goes over: HTTP1, the zero
	// value, or net/http's for HTTP/2 (h2.go). KeepAlive is HTTP/1.1's:
	// the other transport keeps its connections.
	Protocol Protocol
}

// Result is what one exchange measured. Durations are monotonic.
type Result struct {
	Start   time.Time
	Elapsed time.Duration // start to the last body byte
	Latency time.Duration // start to the first response byte (connect included)
	Connect time.Duration // start until a new connection was ready; 0 when reused
	Status  int
	Message string // reason phrase, e.g. "OK"
	Proto   string // the protocol the response came over: "HTTP/1.1", "HTTP/2.0"
	Head    Head   // the response's header
	Cookies string // the Cookie header the jar added to the request, if any
	// RequestHead is the request line and header fields as written (CRLF
	// line ends, the blank line last) when Request.KeepHead asked for it
	// and the request went out on the lane's own exchange; else "".
	// Like Body, valid until the lane's next Do.
	RequestHead string
	Body        []byte // valid until the lane's next Do
	Bytes       int64  // received on the wire, headers included
	SentBytes   int64
	URL         string // the final URL, after any redirects the client followed
	// Err is the transport-level failure, if any; the response fields hold
	// what arrived before it.
	Err error
}

// Client is one virtual user's HTTP client: one connection pool and cookie
// jar, shared by its lanes.
type Client struct {
	rc     *resty.Client // for redirects the client follows itself (redirecting)
	rcOnce sync.Once
	tr     *h1
	// h2 is the transport of requests that may go over HTTP/2, made on
	// first use (h2.go); rc2 follows their redirects.
	h2      atomic.Pointer[h2]
	h2Once  sync.Once
	rc2     *resty.Client
	rc2Once sync.Once
	jar     *Jar // nil: no Cookie Manager
	maxBody int
	main    *Lane
	// lanes are every lane made, for CloseIdle; lanesMu guards them, as the
	// branches of a Parallel Controller make lanes from their goroutines.
	lanesMu sync.Mutex
	lanes   []*Lane
}

// Lane runs one request at a time. A Client has a main lane; more lanes
// (JMeter's parallel downloads of embedded resources) run at the same time
// as each other, sharing the client's connections and cookies.
type Lane struct {
	c *Client
	// what the request in flight measures, written by httptrace callbacks
	// and the connections it uses
	start         time.Time // when the exchange in flight began
	gotConn       time.Time
	firstB        time.Time
	reused        bool
	read, written atomic.Int64
	readTimeout   atomic.Int64
	// what dials started for the lane's requests read
	dialTimeout atomic.Int64
	resolver    atomic.Pointer[resolverRef]
	source      atomic.Pointer[netip.Addr] // nil: any

	req     *Request
	vals    []string // header values of the request in flight
	authz   string   // Authorization value sent with the request, if any
	cookies string   // Cookie value the jar added to the request, if any
	// the Cookie values the lane sent last, and the scratch space that
	// makes the next, so that an unchanged set costs no allocation
	sentCookies [4]string
	nextSent    int
	cookieBuf   []byte
	cookieIdx   []int32
	cookieHdr   [1]string
	body        []byte
	bb          *bytesBody
	pb          *partsBody
	getBody     func() (io.ReadCloser, error)
	trace       *httptrace.ClientTrace
	baseCtx     context.Context
	traceCtx    context.Context
	// cancel ends the response timeout of an exchange over the HTTP/2
	// transport, which bounds the whole exchange; nil when none.
	cancel context.CancelFunc

	// the lane's own reusable request, its header, and the parsed URL of
	// the last request (most samplers send the same URL every time)
	hreq    http.Request
	hdr     http.Header
	lastURL string
	lastU   *url.URL
	idle    *h1conn  // the lane's idle connection, kept for its next request
	rx      exchange // the response being read
	other   Head     // the header of a response net/http read (headOf)
}

type laneKey struct{}

// resolverRef holds a request's resolver for the dials it starts.
type resolverRef struct{ r Resolver }

// identity makes net/http send "Content-Length: 0" without a body.
var identity = []string{"identity"}

// New returns a client with its own connection pool.
func New(opt Options) *Client {
	c := &Client{maxBody: opt.MaxBody}
	if c.maxBody <= 0 {
		c.maxBody = DefaultMaxBody
	}
	c.tr = &h1{
		dial: dialLane,
		// JMeter trusts every certificate unless a keystore says otherwise.
		tlsConfig: trustAll,
		// Parallel downloads keep several connections per host, as JMeter
		// raises its pool's per-route limit to the download pool size.
		maxIdle:     32,
		idleTimeout: 60 * time.Second, // JMeter's httpclient4.time_to_live
		staleAfter:  staleAfter,
		quietFor:    quietFor,
		closeCheck:  closeCheck,
	}
	c.jar = opt.Jar
	c.main = c.NewLane()
	return c
}

// trustAll is the TLS configuration of every client: JMeter trusts every
// certificate unless a keystore says otherwise. The transport clones it
// for each connection.
var trustAll = &tls.Config{InsecureSkipVerify: true}

var dialer = &net.Dialer{KeepAlive: 30 * time.Second}

// dialLane connects for a lane's request, with the lane's connect timeout
// and resolver.
func dialLane(ctx context.Context, network, addr string) (net.Conn, error) {
	d, resolve, ctx, cancel := laneDial(ctx)
	defer cancel()
	conn, err := dial(ctx, d, network, addr, resolve)
	if err != nil {
		return nil, err
	}
	return newCountingConn(conn), nil
}

// laneDial is how the lane whose request ctx carries dials: from its
// source address, within its connect timeout, through its resolver.
func laneDial(ctx context.Context) (*net.Dialer, Resolver, context.Context, context.CancelFunc) {
	l, _ := ctx.Value(laneKey{}).(*Lane)
	var resolve Resolver
	d := dialer
	cancel := context.CancelFunc(func() {})
	if l != nil {
		if src := l.source.Load(); src != nil {
			dd := *dialer
			dd.LocalAddr = &net.TCPAddr{IP: src.AsSlice()}
			d = &dd
		}
		if to := l.dialTimeout.Load(); to > 0 {
			ctx, cancel = context.WithTimeout(ctx, time.Duration(to))
		}
		if ref := l.resolver.Load(); ref != nil {
			resolve = ref.r
		}
	}
	return d, resolve, ctx, cancel
}

// redirecting returns the resty client that serves requests whose
// redirects the client follows itself, made on first use: few plans ask
// for that, and a virtual user is lighter without it.
func (c *Client) redirecting() *resty.Client {
	c.rcOnce.Do(func() {
		hc := &http.Client{Transport: c.tr}
		if c.jar != nil {
			hc.Transport = jarTransport{c.tr, c.jar}
		}
		c.rc = newResty(hc)
	})
	return c.rc
}

// newResty makes the resty client over hc: JMeter's redirect rules, and
// the lane's request as JMeter sends it.
func newResty(hc *http.Client) *resty.Client {
	return resty.NewWithClient(hc).
		SetDoNotParseResponse(true).
		SetAllowGetMethodPayload(true).
		SetRedirectPolicy(resty.RedirectPolicyFunc(func(req *http.Request, via []*http.Request) error {
			l, _ := req.Context().Value(laneKey{}).(*Lane)
			if l == nil || l.req == nil || !l.req.AutoRedirects {
				return http.ErrUseLastResponse
			}
			if len(via) > MaxRedirects {
				return errTooManyRedirects
			}
			// HttpClient refuses to visit a redirect target twice.
			target := req.URL.String()
			for _, v := range via[1:] {
				if v.URL.String() == target {
					//lint:ignore ST1005 HttpClient's CircularRedirectException message word for word, which the engine reports as JMeter does
					return fmt.Errorf("Circular redirect to '%s'", target)
				}
			}
			if !hasHeader(l.req.Header, "Referer") {
				delete(req.Header, "Referer") // net/http's own; HttpClient sends none
			}
			return nil
		})).
		SetPreRequestHook(func(_ *resty.Client, r *http.Request) error {
			l, _ := r.Context().Value(laneKey{}).(*Lane)
			if l == nil || l.req == nil {
				return errors.New("httpx: request without a lane")
			}
			return l.prepare(r)
		})
}

// NewLane returns a lane that may run at the same time as the client's
// other lanes.
func (c *Client) NewLane() *Lane {
	l := &Lane{c: c, bb: &bytesBody{}, pb: &partsBody{}, hdr: http.Header{}}
	c.lanesMu.Lock()
	c.lanes = append(c.lanes, l)
	c.lanesMu.Unlock()
	l.getBody = l.rewind
	l.trace = &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			if !info.Reused { // the time to connect; 0 on a reused connection
				l.gotConn = time.Now()
			}
			l.reused = info.Reused
			if cc, ok := info.Conn.(*countingConn); ok {
				cc.take(l)
			}
		},
		GotFirstResponseByte: func() { l.firstB = time.Now() },
	}
	return l
}

// dial connects to addr, resolving its host with the request's resolver
// when it has one and trying each address in turn.
func dial(ctx context.Context, d *net.Dialer, network, addr string, resolve Resolver) (net.Conn, error) {
	if resolve == nil {
		return d.DialContext(ctx, network, addr)
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if net.ParseIP(host) != nil {
		return d.DialContext(ctx, network, addr)
	}
	ips, err := resolve.Resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	if len(ips) == 0 {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	var first error
	for _, ip := range ips {
		conn, err := d.DialContext(ctx, network, net.JoinHostPort(ip, port))
		if err == nil {
			return conn, nil
		}
		if first == nil {
			first = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, first
}

var errTooManyRedirects = errors.New("maximum number of redirects exceeded")

// ErrTooManyRedirects reports whether err is the client giving up after
// MaxRedirects redirects it followed by itself.
func ErrTooManyRedirects(err error) bool { return errors.Is(err, errTooManyRedirects) }

// Main returns the client's main lane, the one Do uses.
func (c *Client) Main() *Lane { return c.main }

// Do sends req on the client's main lane.
func (c *Client) Do(ctx context.Context, req *Request, res *Result) { c.main.Do(ctx, req, res) }

// Do sends req and fills res. Every failure is reported in res.Err, never
// as a panic; res always has Start and Elapsed set. A 401 answered by the
// request's credentials is retried once within the same exchange, as
// HttpClient does: the result is then the second response, with the bytes
// and time of both.
func (l *Lane) Do(ctx context.Context, req *Request, res *Result) {
	*res = Result{Body: l.body[:0]}
	if l.baseCtx != ctx {
		l.baseCtx = ctx
		l.traceCtx = context.WithValue(httptrace.WithClientTrace(ctx, l.trace), laneKey{}, l)
	}
	l.req = req
	l.readTimeout.Store(int64(req.ResponseTimeout))
	l.dialTimeout.Store(int64(req.ConnectTimeout))
	if ref := l.resolver.Load(); (ref == nil) != (req.Resolve == nil) || ref != nil && ref.r != req.Resolve {
		if req.Resolve == nil {
			l.resolver.Store(nil)
		} else {
			l.resolver.Store(&resolverRef{req.Resolve}) // only when the resolver changes
		}
	}
	if cur := l.source.Load(); (cur == nil) != !req.Source.IsValid() || cur != nil && *cur != req.Source {
		if req.Source.IsValid() {
			src := req.Source
			l.source.Store(&src) // only when the source changes
		} else {
			l.source.Store(nil)
		}
	}
	l.firstB, l.gotConn, l.reused = time.Time{}, time.Time{}, false
	l.authz, l.cookies = "", ""
	l.rx.keepHead, l.rx.sent = req.KeepHead, ""
	if req.Auth != nil && req.Auth.Preemptive && !hasHeader(req.Header, "Authorization") {
		l.authz = basicAuth(req.Auth)
	}
	r0, w0 := l.read.Load(), l.written.Load()

	res.Start = time.Now()
	l.start = res.Start
	var raw *http.Response
	var err error
	for attempt := 0; ; attempt++ {
		raw, err = l.send(req)
		if raw != nil && raw.StatusCode == http.StatusUnauthorized && attempt == 0 && req.Auth != nil &&
			!hasHeader(req.Header, "Authorization") {
			uri := raw.Request.URL.RequestURI()
			if v := answer(parseChallenges(l.headOf(raw).Map()), req.Auth, raw.Request.Method, uri, schemeOf(l.authz)); v != "" {
				io.Copy(io.Discard, raw.Body)
				raw.Body.Close()
				l.authz = v
				continue
			}
		}
		break
	}
	if err != nil && ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
		// The caller cancelled the request (Stop Test Now, a second
		// Ctrl-C): net/http reports the cancellation's cause instead,
		// which may be any error; keep both.
		err = fmt.Errorf("%w: %w", ctx.Err(), err)
	}
	headOK := raw != nil && err == nil // a response head arrived, and nothing went wrong before it
	if raw != nil {
		res.Status = raw.StatusCode
		res.Message = reason(raw.Status)
		res.Proto = raw.Proto
		res.Head = *l.headOf(raw)
		if req.AutoRedirects && raw.Request != nil && raw.Request.URL != nil {
			res.URL = raw.Request.URL.String()
		}
		err = errors.Join(err, l.readBody(raw, req, res))
		raw.Body.Close()
	}
	if l.cancel != nil {
		l.cancel()
		l.cancel = nil
	}
	end := time.Now()
	res.Elapsed = end.Sub(res.Start)
	// JMeter's latency ends as it starts reading the response body: an
	// exchange that failed before (a reply that is not HTTP, a redirect
	// loop) has none.
	if !l.firstB.IsZero() && headOK {
		res.Latency = l.firstB.Sub(res.Start)
	} else if err == nil {
		res.Latency = res.Elapsed
	}
	if !l.gotConn.IsZero() && !l.reused {
		res.Connect = l.gotConn.Sub(res.Start)
	}
	l.readTimeout.Store(0)
	res.Bytes = l.read.Load() - r0
	res.SentBytes = l.written.Load() - w0
	if res.URL == "" {
		res.URL = req.URL
	}
	res.Err = err
	l.start = time.Time{}
	res.Cookies = l.cookies
	res.RequestHead = l.rx.sent
	l.req = nil
}

// prepare turns resty's request into exactly what JMeter sends: the plan's
// headers in order, HttpClient 4's Connection and User-Agent where the plan
// sets none (never Go's or resty's User-Agent), the Host the plan asks for,
// and the body with its length.
func (l *Lane) prepare(r *http.Request) error {
	req := l.req
	h := r.Header
	clear(h)
	h1 := req.Protocol == HTTP1
	if !req.KeepAlive && h1 {
		h["Connection"] = closeConn
	}
	planUA, planConn := false, false
	// The values live in the lane's own slab, reused from one request to
	// the next; a name given twice gets a slice of its own.
	l.vals = l.vals[:0]
	for _, hd := range req.Header {
		k := http.CanonicalHeaderKey(hd.Name)
		switch k {
		case "User-Agent":
			planUA = true
		case "Connection":
			planConn = true
		}
		if old, ok := h[k]; ok {
			h[k] = append(old[:len(old):len(old)], hd.Value)
			continue
		}
		l.vals = append(l.vals, hd.Value)
		h[k] = l.vals[len(l.vals)-1 : len(l.vals) : len(l.vals)]
	}
	// Over HTTP/1.1 JMeter's HttpClient 4 adds its own Connection and
	// User-Agent where the plan sets none; the HTTP/2 plugin's client adds
	// neither, and an empty value makes net/http's Transport send no
	// User-Agent at all.
	switch {
	case planUA:
	case h1:
		h["User-Agent"] = jmeterUA
	default:
		h["User-Agent"] = noUA
	}
	if h1 && req.KeepAlive && !planConn {
		h["Connection"] = keepAliveConn
	}
	if l.authz != "" {
		h["Authorization"] = []string{l.authz}
	}
	if req.Host != "" {
		r.Host = req.Host
	}
	r.TransferEncoding = nil
	switch {
	case req.Parts != nil:
		n, err := partsLength(req.Parts)
		if err != nil {
			return err
		}
		if !l.pb.closed.Load() && l.pb.parts != nil {
			l.pb = &partsBody{} // the transport may still hold the last one
		}
		l.pb.reset(req.Parts)
		l.pb.closed.Store(false)
		r.Body, r.ContentLength, r.GetBody = l.pb, n, l.getBody
		if n == 0 {
			// no body to send again either, after a 307 or 308
			r.Body, r.GetBody = http.NoBody, nil
			r.TransferEncoding = identity
		}
	case len(req.Body) > 0:
		if !l.bb.closed.Load() && l.bb.Size() > 0 {
			l.bb = &bytesBody{}
		}
		l.bb.Reset(req.Body)
		l.bb.closed.Store(false)
		r.Body, r.ContentLength, r.GetBody = l.bb, int64(len(req.Body)), l.getBody
	default:
		r.Body, r.ContentLength, r.GetBody = http.NoBody, 0, nil
		if req.EmptyBody {
			r.TransferEncoding = identity
		} else {
			r.Body = nil
		}
	}
	return nil
}

var (
	closeConn     = []string{"close"}
	keepAliveConn = []string{"keep-alive"}
	noUA          = []string{""}
	// jmeterUA is the User-Agent JMeter 5.6.3 sends through the HttpClient
	// 4.5.14 it bundles, on Java 17: HttpClient names itself and the JVM's
	// java.version.
	jmeterUA = []string{"Apache-HttpClient/4.5.14 (Java/17)"}
)

// rewind gives the transport a fresh copy of the body when a redirect (307,
// 308) sends it again.
func (l *Lane) rewind() (io.ReadCloser, error) {
	req := l.req
	if req == nil {
		return http.NoBody, nil
	}
	if req.Parts != nil {
		pb := &partsBody{}
		pb.reset(req.Parts)
		return pb, nil
	}
	bb := &bytesBody{}
	bb.Reset(req.Body)
	return bb, nil
}

func hasHeader(hs []Header, name string) bool {
	for _, h := range hs {
		if strings.EqualFold(h.Name, name) {
			return true
		}
	}
	return false
}

func (l *Lane) readBody(raw *http.Response, req *Request, res *Result) error {
	head := l.headOf(raw)
	keep := req.KeepBody != nil && req.KeepBody(head.Get("Content-Type"))
	if !keep {
		_, err := io.Copy(io.Discard, raw.Body)
		return err
	}
	body := io.Reader(raw.Body)
	if ce := head.Get("Content-Encoding"); ce != "" {
		d, err := decoded(body, ce)
		if err != nil {
			io.Copy(io.Discard, raw.Body)
			return err
		}
		body = d
	}
	if req.MD5 {
		b, err := md5Body(body, l.body)
		l.body, res.Body = b, b
		io.Copy(io.Discard, raw.Body) // what a decoder left unread
		return err
	}
	buf := l.body[:0]
	for {
		if len(buf) >= l.c.maxBody {
			l.body, res.Body = buf, buf
			_, err := io.Copy(io.Discard, raw.Body)
			return err
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := body.Read(buf[len(buf):min(cap(buf), l.c.maxBody)])
		buf = buf[:len(buf)+n]
		if err != nil {
			l.body, res.Body = buf, buf
			if err == io.EOF {
				_, err = io.Copy(io.Discard, raw.Body) // what a decoder left unread
				return err
			}
			return err
		}
	}
}

// reason returns the reason phrase of a status line such as "200 OK".
func reason(status string) string {
	if i := strings.IndexByte(status, ' '); i >= 0 {
		return status[i+1:]
	}
	return ""
}

// CloseIdle closes idle connections (end of a virtual user, or JMeter's
// "same user on next iteration" off). No lane may be running a request.
func (c *Client) CloseIdle() {
	c.lanesMu.Lock()
	defer c.lanesMu.Unlock()
	for _, l := range c.lanes {
		if l.idle != nil {
			l.idle.close()
			l.idle = nil
		}
	}
	c.tr.CloseIdleConnections()
	if t := c.h2.Load(); t != nil {
		t.closeIdle()
	}
}

// send makes one exchange. Redirects the client follows itself go through
// resty and net/http's Client, which the transport serves; everything else
// goes straight to the transport on the lane's own request, with the
// cookie jar applied as http.Client applies it.
func (l *Lane) send(req *Request) (*http.Response, error) {
	if req.Protocol != HTTP1 {
		return l.sendH2(req)
	}
	if req.AutoRedirects {
		resp, err := l.c.redirecting().R().SetContext(l.traceCtx).Execute(req.Method, req.URL)
		if resp != nil && resp.RawResponse != nil {
			return resp.RawResponse, err
		}
		return nil, err
	}
	u := l.lastU
	if req.URL != l.lastURL || u == nil {
		var err error
		if u, err = url.Parse(req.URL); err != nil {
			return nil, err
		}
		l.lastURL, l.lastU = req.URL, u
	}
	r := &l.hreq
	*r = http.Request{Method: req.Method, URL: u, Header: l.hdr, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
	if err := l.prepare(r); err != nil {
		return nil, err
	}
	if pw, _ := u.User.Password(); u.User != nil && len(r.Header["Authorization"]) == 0 {
		r.SetBasicAuth(u.User.Username(), pw) // as http.Client does for user:password@host
	}
	l.addCookies(r, u)
	resp, err := l.c.tr.roundTrip(l.traceCtx, r, l, l.trace, &l.rx)
	if err != nil {
		// the URL without its password, as http.Client reports it
		return nil, &url.Error{Op: urlErrorOp(req.Method), URL: u.Redacted(), Err: err}
	}
	if jar := l.c.jar; jar != nil {
		jar.setCookies(u, l.headOf(resp))
	}
	return resp, nil
}

// addCookies sets r's Cookie header to the jar's cookies for u. Where the
// jar has some, they replace a Cookie header the plan sends, as JMeter's
// HTTPHC4Impl sets the Cookie Manager's header over the Header Manager's
// (setConnectionCookie after setConnectionHeaders); where it has none,
// the plan's stays. The value is made in the lane's
// buffer and becomes a string only when it differs from the lane's
// recent ones.
func (l *Lane) addCookies(r *http.Request, u *url.URL) {
	jar := l.c.jar
	if jar == nil {
		return
	}
	o := originOf(u)
	l.cookieBuf, l.cookieIdx = jar.header(l.cookieBuf[:0], l.cookieIdx, &o, time.Now().Unix())
	if len(l.cookieBuf) == 0 {
		return
	}
	v := ""
	for _, s := range l.sentCookies {
		if s == string(l.cookieBuf) {
			v = s
			break
		}
	}
	if v == "" {
		v = string(l.cookieBuf)
		l.sentCookies[l.nextSent] = v
		l.nextSent = (l.nextSent + 1) % len(l.sentCookies)
	}
	l.cookieHdr[0] = v
	r.Header["Cookie"] = l.cookieHdr[:]
	l.cookies = v
}

// headOf is raw's header: the lane's own for a response its transport
// parsed itself, kept as it came (Head), or the map net/http made.
func (l *Lane) headOf(raw *http.Response) *Head {
	if raw == &l.rx.resp {
		// fastHead's (net/http's are responses of their own): its lines,
		// as they came, even once send made resp.Header for the jar
		return &l.rx.head
	}
	l.other = HeadOf(raw.Header)
	return &l.other
}

// urlErrorOp is the Op of the url.Error http.Client returns: "Get", "Post"…
func urlErrorOp(method string) string {
	if method == "" {
		return "Get"
	}
	return method[:1] + strings.ToLower(method[1:])
}
