package httpsampler

import (
	"bytes"
	"errors"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"github.com/gojm/gojm/engine/httpx"
	"github.com/gojm/gojm/engine/internal/cookies"
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/report"
)

// httpState is a virtual user's HTTP memory besides its client: the sample
// being made, the lanes for parallel downloads, and the state of the HTTP
// Cache and DNS Cache Managers (JMeter keeps both per thread).
type httpState struct {
	client  *httpx.Client // the client the lanes belong to
	main    httpLane
	mainHop hop
	lanes   []*httpLane // embedded resources; lanes[0] also serves serial downloads
	call    httpCall
	caches  map[*cacheManager]*userCache
	dns     map[*dnsManager]*userDNS
	// the last URL a sampler built, and what from (httpSampler.url)
	lastParts urlParts
	lastURL   string
	okURI     string // the last URL that passed checkURI
	// edited is the request the pre-processors changed for the next
	// sample (modifiers.go)
	edited editedRequest
	// jars hands out the user's cookies (the jar its client uses, and the
	// Cookie Manager's seeds), one for a user and each of its branches
	jars *element.Local[cookies.User]
	// reqHead is main.sentHeaderText, made once: a sample's request
	// headers are made only if an element reads them (Result.ReqHeadOf)
	reqHead func() string
	// query is queryString of the main request, made once, for the same
	// reason (Sent.QueryOf): a multipart body's is a copy of the body
	query func() string
}

// httpUsersKey names the plan's one handle on its users' HTTP state.
var httpUsersKey = element.NewKey[*element.Local[httpState]]("HTTP users")

// httpUsers holds each virtual user's HTTP client and state, one for
// every HTTP sampler of the plan.
func httpUsers(p *element.Plan) *element.Local[httpState] {
	return element.Once(p, httpUsersKey, func() *element.Local[httpState] {
		jars := cookies.Users(p)
		l := element.NewLocal(p, func(vu *element.VU) *httpState { return newHTTPUser(vu, jars) })
		l.Fork = forkHTTPUser
		return l
	})
}

// newHTTPUser makes a virtual user's client over the user's cookie jar
// (package cookies: one per user when a Cookie Manager stands in its
// group or at plan level, emptied as the manager says). At each new
// iteration a fresh user ("same user on each iteration" off) gets new
// connections; at the user's end its connections close.
func newHTTPUser(vu *element.VU, jars *element.Local[cookies.User]) *httpState {
	g := vu.Group
	c := httpx.New(httpx.Options{Jar: jars.Get(vu).Jar})
	vu.OnIteration(func(*element.VU) {
		if !g.SameUser {
			c.CloseIdle()
		}
	})
	vu.AtEnd(func(*element.VU) { c.CloseIdle() })
	return newHTTPState(c, c.Main(), jars)
}

func newHTTPState(c *httpx.Client, main *httpx.Lane, jars *element.Local[cookies.User]) *httpState {
	st := &httpState{client: c, main: httpLane{l: main}, jars: jars}
	st.reqHead = st.main.sentHeaderText
	st.query = func() string { return queryString(&st.main.req) }
	return st
}

// forkHTTPUser gives a Parallel Controller's branch its user's client
// (cookies, connections) on a lane of its own. The branch's cookies are
// what package cookies gives the branch (the user's jar, seeds of the
// branch's own), which its WebSocket samplers and scripts share.
func forkHTTPUser(_ *element.VU, parent *httpState) *httpState {
	return newHTTPState(parent.client, parent.client.NewLane(), parent.jars)
}

// lane returns the i-th lane for embedded resources.
func (st *httpState) lane(vu *element.VU, i int) *httpLane {
	for len(st.lanes) <= i {
		st.lanes = append(st.lanes, &httpLane{l: st.client.NewLane()})
	}
	return st.lanes[i]
}

// httpLane is one line of requests with the request and result it reuses.
type httpLane struct {
	l    *httpx.Lane
	req  httpx.Request
	res  httpx.Result
	hdr  []httpx.Header
	cred httpx.Credentials
}

// hop is what JMeter keeps of one exchange besides its JTL row.
type hop struct {
	method    string
	redirect  bool
	location  string
	head      httpx.Head
	body      []byte
	mediaType string
}

// httpCall is one execution of an HTTP Request: its fields evaluated for
// this sample, shared read-only by the lanes that download its resources.
type httpCall struct {
	h    *httpSampler
	vu   *element.VU
	st   *httpState
	name string // the sample's label; sub-samples are name-0, name-1…
	// edit is the request the pre-processors changed for this sample; nil
	// when none did
	edit *element.Request

	cs         *httpCharset
	headers    []httpx.Header // from the Header Managers, without Host
	host       string         // a Header Manager's Host, "" when none
	hasHost    bool
	planCT     bool   // a Header Manager sets a non-empty Content-Type
	bodyCT     string // the Content-Type the body brings when the plan sets none
	dropCT     bool   // multipart: the plan's Content-Type gives way
	entity     bool   // the first request carries a body (maybe empty)
	body       []byte
	parts      []httpx.Part
	connectTO  time.Duration
	source     netip.Addr // the local address to connect from
	sourceErr  error      // why the Source address names none
	responseTO time.Duration
	auth       []evalAuth
	cache      *userCache
	dns        *userDNS
	inc, exc   *regexp.Regexp // embedded URL patterns
	pool       int            // parallel downloads of embedded resources

	// firstCookies is the Cookie header the sampler's own request sent,
	// kept for its request data when the redirects it follows reuse the
	// request (JMeter's container keeps the first request's cookies)
	firstCookies string

	args  []evalArg
	files []evalFile
	buf   []byte
}

func (c *httpCall) begin(h *httpSampler, vu *element.VU, st *httpState, name string) {
	c.h, c.vu, c.st, c.name = h, vu, st, name
	c.edit = st.takeEdit(h)
	c.headers = c.headers[:0]
	c.host, c.hasHost, c.planCT, c.bodyCT, c.dropCT, c.entity = "", false, false, "", false, false
	c.body, c.parts, c.firstCookies = nil, nil, ""
	c.auth = c.auth[:0]
	c.cache, c.dns = nil, nil
}

// end drops what the call held that the next one must not see.
func (c *httpCall) end() {
	c.body, c.parts = nil, nil
}

// prepare evaluates the sampler's fields for this sample: method, URL
// (with the query string of GET, DELETE and OPTIONS), headers and body.
func (c *httpCall) prepare() (method, u string, err error) {
	h, vu := c.h, c.vu
	if c.edit != nil {
		method = strings.ToUpper(strings.TrimSpace(c.edit.Method.Get(vu)))
	} else {
		method = strings.ToUpper(strings.TrimSpace(h.method.Eval(vu)))
	}
	if method == "" {
		method = "GET"
	}
	if h.fixedCS {
		c.cs, err = h.constCS, h.constCSErr
	} else {
		c.cs, err = lookupCharset(h.encoding.Eval(vu))
	}
	if err != nil {
		return method, "", err
	}
	switch {
	case c.edit != nil:
		u, err = h.editedURL(vu, c.edit)
	case h.fixedURL:
		u, err = h.constURL, h.constURLErr
	default:
		u, err = h.url(vu)
	}
	if err != nil {
		return method, u, err
	}
	c.args = c.args[:0]
	if c.edit != nil {
		for i := range c.edit.Args {
			a := &c.edit.Args[i]
			c.args = append(c.args, evalArg{name: a.Name.Get(vu), value: a.Value.Get(vu), encode: a.Encode,
				meta: a.Meta, contentType: a.ContentType})
		}
	} else {
		for _, a := range h.args {
			c.args = append(c.args, evalArg{name: a.name.Eval(vu), value: a.value.Eval(vu), encode: a.encode,
				meta: a.meta, contentType: a.contentType})
		}
	}
	c.files = c.files[:0]
	for _, f := range h.files {
		ef := evalFile{path: f.path.Eval(vu), param: f.param.Eval(vu), mime: f.mime.Eval(vu), read: f.read}
		if ef.read == "" && ef.path != "" {
			if ef.read, err = h.uploadFile(ef.path); err != nil {
				return method, u, err
			}
		}
		c.files = append(c.files, ef)
	}
	if !knownMethod(method) {
		return method, u, &urlError{"java.lang.IllegalArgumentException", "Unexpected method: '" + method + "'"}
	}
	if h.proto != httpx.HTTP1 && !http2Method(method) {
		return method, u, &urlError{"java.lang.UnsupportedOperationException", "Method " + method + " is not supported"}
	}
	if queryMethod(method) && len(c.args) > 0 {
		b := append(c.buf[:0], u...)
		mark := len(b)
		if strings.IndexByte(u, '?') >= 0 {
			b = append(b, '&')
		} else {
			b = append(b, '?')
		}
		if q := appendQuery(b, c.args, c.cs); len(q) > mark+1 {
			b = q
			u = string(b)
		}
		c.buf = b[:0]
	}
	if u != c.st.okURI { // most samplers send to the URL they sent to last time
		if err := checkURI(u); err != nil {
			return method, u, err
		}
		c.st.okURI = u
	}
	c.evalHeaders()
	if err := c.buildBody(method); err != nil {
		return method, u, err
	}
	c.evalSettings()
	return method, u, nil
}

// evalHeaders evaluates the Header Managers' headers for this sample, or
// takes those the pre-processors left in the request they changed (a
// Content-Length a script adds is not sent either).
func (c *httpCall) evalHeaders() {
	if c.edit != nil {
		for i := range c.edit.Headers {
			hd := &c.edit.Headers[i]
			if !strings.EqualFold(hd.Name, "Content-Length") {
				c.addHeader(hd.Name, hd.Value.Get(c.vu))
			}
		}
		return
	}
	for _, hd := range c.h.headers {
		c.addHeader(hd.name, hd.value.Eval(c.vu))
	}
}

// evalSettings evaluates what every request of this sample shares besides
// its headers: source address, timeouts, credentials, the user's caches,
// the embedded resources' patterns and pool.
func (c *httpCall) evalSettings() {
	h, vu := c.h, c.vu
	c.source, c.sourceErr = netip.Addr{}, nil
	if h.source != nil {
		c.source, c.sourceErr = h.source.addr(vu)
	}
	c.connectTO = millis(h.connectTO.Eval(vu))
	c.responseTO = millis(h.responseTO.Eval(vu))
	if h.auth != nil {
		c.auth = h.auth.eval(vu, c.auth)
	}
	if h.cache != nil {
		c.cache = c.st.userCache(vu, h.cache)
	}
	if h.dns != nil {
		c.dns = c.st.userDNS(vu, h.dns)
	}
	if h.embedded != nil {
		c.inc, c.exc = h.embedded.patterns(vu)
		c.pool = h.embedded.poolSize(vu)
	}
}

// addHeader adds a Header Manager's header to the request: Host is kept
// apart, a non-empty Content-Type noted.
func (c *httpCall) addHeader(name, v string) {
	if strings.EqualFold(name, "Host") {
		c.host, c.hasHost = v, true
		return
	}
	if strings.EqualFold(name, "Content-Type") && v != "" {
		c.planCT = true
	}
	c.headers = append(c.headers, httpx.Header{Name: name, Value: v})
}

// sendFileAsBody is JMeter's getSendFileAsPostBody: one file, with a path
// and no parameter name, is the whole body.
func (c *httpCall) sendFileAsBody() bool {
	return len(c.files) == 1 && c.files[0].path != "" && c.files[0].param == ""
}

// sendValuesAsBody is getSendParameterValuesAsPostBody: "Body Data", or
// arguments none of which has a name.
func (c *httpCall) sendValuesAsBody() bool {
	if c.h.rawBody {
		return true
	}
	for _, a := range c.args {
		if a.name != "" {
			return false
		}
	}
	return len(c.args) > 0
}

const formType = "application/x-www-form-urlencoded"

// buildBody works out the body of the sampler's own request, following
// HTTPHC4Impl.setupHttpEntityEnclosingRequestData.
func (c *httpCall) buildBody(method string) error {
	switch {
	case entityMethod(method):
	case method == "GET" && ((len(c.args) == 0 && c.sendFileAsBody()) || c.sendValuesAsBody()):
		// HttpGetWithEntity: a GET that carries a body.
	default:
		return nil
	}
	c.entity = true
	filesOK := len(c.files) > 0
	for _, f := range c.files {
		if f.path == "" {
			filesOK = false
		}
	}
	switch {
	case c.h.multipart || (filesOK && !c.sendFileAsBody()):
		c.parts, c.bodyCT = multipart(c.buf, c.args, c.files, c.cs, c.h.browser)
		c.dropCT = true
	case len(c.args) == 0 && c.sendFileAsBody():
		f := c.files[0]
		switch {
		case c.planCT:
		case f.mime != "":
			c.bodyCT = f.mime
		case method == "POST" && c.h.formTypeIfMissing:
			c.bodyCT = formType
		}
		c.parts = []httpx.Part{{File: f.read}}
	case c.sendValuesAsBody():
		if !c.planCT {
			switch {
			case len(c.files) > 0 && c.files[0].mime != "":
				c.bodyCT = c.files[0].mime
			case method == "POST" && c.h.formTypeIfMissing:
				c.bodyCT = formType
			case c.h.proto != httpx.HTTP1:
				c.bodyCT = http2BodyType
			default:
				c.bodyCT = "text/plain; charset=" + c.cs.name
			}
		}
		c.buf = appendRaw(c.buf[:0], c.args, c.cs)
		c.body = c.buf
	case method != "POST" && len(c.args) == 0:
		// sendEntityData makes no entity of no arguments: HttpClient
		// sends "Content-Length: 0" and no Content-Type (a POST's
		// setupHttpEntityEnclosingRequestData makes an empty form).
		c.body = nil
	default:
		if !c.planCT {
			c.bodyCT = formType + "; charset=" + c.cs.name
			if method == "POST" && c.h.formTypeIfMissing {
				c.bodyCT = formType
			}
		}
		var err error
		if c.buf, err = appendForm(c.buf[:0], c.args, c.cs); err != nil {
			return err
		}
		c.body = c.buf
	}
	return nil
}

// fetch makes one request to u and fills s and hp: JMeter's
// HTTPHC4Impl.sample. first marks the sampler's own request, the only one
// with a body. It returns false when the HTTP Cache Manager answers from
// its cache in JMeter's default mode, where no sample is made at all.
func (c *httpCall) fetch(ln *httpLane, u, method string, first, following bool, depth int, s *report.Sample, hp *hop) bool {
	h := c.h
	*hp = hop{method: method}
	s.URL = u
	req := &ln.req
	*req = httpx.Request{
		Method:          method,
		URL:             u,
		Header:          ln.hdr[:0],
		ConnectTimeout:  c.connectTO,
		ResponseTimeout: c.responseTO,
		AutoRedirects:   h.auto,
		KeepAlive:       h.keepAlive,
		MD5:             h.md5,
		KeepBody:        h.keep,
		Source:          c.source,
		Protocol:        h.proto,
	}
	if c.sourceErr != nil {
		// JMeter fails the sample before it connects.
		s.Start = time.Now()
		nonHTTP(s, "java.net.UnknownHostException", c.sourceErr.Error())
		return true
	}
	if !first && !following {
		req.KeepBody = keepParsable // a resource is read only for its own resources
	}
	if c.vu.Details() {
		// the results file keeps every response's data and request head
		req.KeepBody, req.KeepHead = keepAll, true
	}
	// an assertion or post-processor may read the main request's headers
	req.KeepHead = req.KeepHead || first && h.reads
	for _, hd := range c.headers {
		if first && c.dropCT && strings.EqualFold(hd.Name, "Content-Type") {
			continue
		}
		req.Header = append(req.Header, hd)
	}
	if first && c.entity {
		if c.bodyCT != "" && (!c.planCT || c.dropCT) {
			req.Header = append(req.Header, httpx.Header{Name: "Content-Type", Value: c.bodyCT})
		}
		req.Body, req.Parts, req.EmptyBody = c.body, c.parts, true
	}
	if c.hasHost {
		req.Host = hostHeader(c.host, u)
	}
	if c.dns != nil {
		req.Resolve = c.dns
	}
	if len(c.auth) > 0 {
		if a := matchAuth(c.auth, u); a != nil {
			ln.cred = httpx.Credentials{User: a.user, Password: a.pass, Realm: a.realm, Preemptive: a.preemptive}
			req.Auth = &ln.cred
		}
	}
	if c.cache != nil {
		req.Header = c.cache.validators(c, u, req.Header)
		if method == "GET" && c.cache.fresh(c, u, req.Header) {
			ln.hdr = req.Header[:0]
			return c.cachedSample(s)
		}
	}
	ln.hdr = req.Header[:0]

	res := &ln.res
	ln.l.Do(c.vu.Hard, req, res)
	s.Start = res.Start
	s.Elapsed = res.Elapsed
	s.Latency = res.Latency
	s.Connect = res.Connect
	s.Bytes = res.Bytes
	s.SentBytes = res.SentBytes
	s.URL = res.URL
	hp.head = res.Head
	hp.body = res.Body
	if first && h.reads {
		c.firstCookies = sentCookies(req, res)
	}
	if c.vu.Details() {
		s.Detail = httpDetail(ln, req, res)
	}
	if res.Err != nil && res.Status == 0 {
		var fe *httpx.FileError
		if errors.As(res.Err, &fe) {
			// A file to upload that is not there: java.io.FileInputStream's
			// exception, before anything is sent.
			nonHTTP(s, "java.io.FileNotFoundException", fe.Path+" ("+fileReason(fe.Err)+")")
			return true
		}
		class, msg := describeError(res.Err)
		nonHTTP(s, class, msg)
		if cancelled(res.Err) {
			element.MarkClientAbort(c.vu, s)
		}
		return true
	}
	ct := res.Head.Last("Content-Type")
	s.Code = statusText(res.Status)
	s.Message = res.Message
	s.Success = res.Status >= 200 && res.Status <= 399
	s.DataType = dataType(ct)
	hp.mediaType = mediaType(ct)
	if isRedirect(res.Status, method) {
		hp.redirect = true
		hp.location = res.Head.Last("Location")
		if hp.location == "" && res.Err == nil {
			nonHTTP(s, "java.lang.IllegalArgumentException",
				"Missing location header in redirect for "+method+" "+s.URL+" HTTP/1.1")
			hp.redirect = false
			return true
		}
	}
	if res.Err != nil { // the body broke off
		class, msg := describeError(res.Err)
		nonHTTP(s, class, msg)
		if cancelled(res.Err) {
			element.MarkClientAbort(c.vu, s)
		}
		hp.redirect = false
		return true
	}
	if c.cache != nil {
		c.cache.save(c, method, res.Status, s.URL, res.Head.Map(), req.Header)
	}
	return true
}

// cachedSample is the sample of a request the HTTP Cache Manager answers
// (cache_manager.cached_resource_mode): none at all by default.
func (c *httpCall) cachedSample(s *report.Sample) bool {
	m := c.h.cache
	if m.mode == cacheNoSample {
		return false
	}
	s.Start = time.Now()
	s.Code, s.Message = "200", m.message
	if m.mode == cacheCustom {
		s.Code = m.code
	}
	s.Success = true
	return true
}

// hostHeader is the Host a Header Manager asks for, with the port of its
// value or of the URL, left out when it is the scheme's default (JMeter's
// setConnectionHeaders).
func hostHeader(value, u string) string {
	scheme, _, port := splitURL(u)
	if i := strings.LastIndexByte(value, ':'); i >= 0 && allDigits(value[i+1:]) && i+1 < len(value) {
		port = strings.TrimLeft(value[i+1:], "0")
		if port == "" {
			port = "0"
		}
		value = value[:i]
	}
	if port == "" || (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		return value
	}
	return value + ":" + port
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// splitURL returns the scheme (lower case), host and explicit port ("" when
// none) of an absolute URL.
func splitURL(u string) (scheme, host, port string) {
	i := strings.Index(u, "://")
	if i < 0 {
		return "", "", ""
	}
	scheme = strings.ToLower(u[:i])
	rest := u[i+3:]
	if j := strings.IndexAny(rest, "/?#"); j >= 0 {
		rest = rest[:j]
	}
	if j := strings.LastIndexByte(rest, '@'); j >= 0 {
		rest = rest[j+1:]
	}
	host = rest
	if strings.HasPrefix(rest, "[") {
		if j := strings.IndexByte(rest, ']'); j >= 0 {
			host = rest[:j+1]
			if strings.HasPrefix(rest[j+1:], ":") {
				port = rest[j+2:]
			}
		}
		return scheme, host, port
	}
	if j := strings.LastIndexByte(rest, ':'); j >= 0 {
		host, port = rest[:j], rest[j+1:]
	}
	return scheme, host, port
}

// process is JMeter's resultProcessing: follow the redirects of a
// redirect response (when "Follow Redirects" is ticked) and download the
// embedded resources of a page, as sub-samples of s.
func (c *httpCall) process(ln *httpLane, following bool, depth int, s *report.Sample, hp *hop) {
	wasRedirected := false
	if !following && hp.redirect && c.h.follow {
		c.followRedirects(ln, depth, s, hp)
		following, wasRedirected = true, true
	}
	if m := c.h.embedded; m == nil || m.listOnly || !s.Success || s.DataType != "text" {
		return
	}
	if depth > maxFrameDepth {
		e := new(report.Sample)
		*e = *s
		e.Sub = nil
		nonHTTP(e, "java.lang.Exception", "Maximum frame/iframe nesting depth exceeded.")
		c.addSub(s, e)
		return
	}
	if !wasRedirected {
		c.downloadResources(ln, depth, s, hp)
	}
}

// maxFrameDepth is JMeter's httpsampler.max_frame_depth.
const maxFrameDepth = 5

// followRedirects is JMeter's followRedirects: s becomes the container of
// every request made (the first as name-0, then each hop), taking the
// final response's code, message, URL and body, and the time and bytes of
// them all.
func (c *httpCall) followRedirects(ln *httpLane, depth int, s *report.Sample, hp *hop) {
	first := new(report.Sample)
	*first = *s
	c.storeSub(s, first)
	last, lastHop := first, *hp
	n := 0
	for ; n < httpx.MaxRedirects; n++ {
		method := "GET"
		if lastHop.method == "HEAD" {
			method = "HEAD"
		}
		target, err := redirectTarget(last.URL, lastHop.location)
		if err != nil {
			// JMeter turns the last response into the error and stops.
			nonHTTP(last, "java.net.MalformedURLException", err.Error())
			lastHop.redirect = false
			break
		}
		t := c.newSample(target)
		var th hop
		if !c.fetch(ln, target, method, false, true, depth, t, &th) {
			break // the target was in the cache: the chain ends there
		}
		c.process(ln, true, depth, t, &th)
		last, lastHop = t, th
		if len(t.Sub) > 0 {
			for _, sub := range t.Sub {
				c.addSub(s, sub)
			}
		} else {
			c.addSub(s, t)
		}
		if !th.redirect {
			break
		}
	}
	if n >= httpx.MaxRedirects {
		e := new(report.Sample)
		*e = *last
		e.Sub = nil
		nonHTTP(e, "java.io.IOException", "Exceeded maximum number of redirects: 20")
		c.addSub(s, e)
		last = e
	}
	s.URL = last.URL
	s.Code, s.Message = last.Code, last.Message
	s.Success = last.Success
	s.DataType = last.DataType
	if first.Detail != nil && last.Detail != nil {
		// JMeter's container is a copy of the first response that takes
		// the last one's headers, data, method and query string.
		d := *last.Detail
		d.Cookies, d.Redirect = first.Detail.Cookies, first.Detail.Redirect
		s.Detail = &d
	}
	*hp = lastHop
}

// redirectTarget resolves a Location against the URL that answered it, as
// JMeter does: "/.." segments collapsed, spaces as %20.
func redirectTarget(base, location string) (string, error) {
	location = strings.ReplaceAll(strings.TrimSpace(location), " ", "%20")
	return resolveURL(base, location)
}

// storeSub adds a sub-sample without touching the parent's totals
// (JMeter's addRawSubResult): the first request of a redirect chain, the
// page of its resources. Its label becomes name-N.
func (c *httpCall) storeSub(p, sub *report.Sample) {
	sub.Label = c.subLabel(p, sub)
	sub.Sub = nil
	p.Sub = append(p.Sub, sub)
}

// subLabel is the label of the next sub-sample of p: name-N, or, when
// JMeter does not rename sub-results (functional test mode, property
// subresults.disable_renaming), the URL the sub-sample requested.
func (c *httpCall) subLabel(p, sub *report.Sample) string {
	if c.h.keepLabels {
		return sub.URL
	}
	return c.name + "-" + itoa(len(p.Sub))
}

// newSample is a sample for a request the sampler makes besides its own.
func (c *httpCall) newSample(u string) *report.Sample {
	if c.h.keepLabels {
		return &report.Sample{Label: u}
	}
	return &report.Sample{Label: c.name}
}

// addSub adds a sub-sample as JMeter's addSubResult does: its end extends
// the parent's, its bytes add to the parent's, its label becomes name-N.
func (c *httpCall) addSub(p, sub *report.Sample) {
	sub.ThreadName = c.vu.Name
	if end := sub.End(); end.After(p.End()) {
		p.Elapsed = end.Sub(p.Start)
	}
	p.Bytes += sub.Bytes
	p.SentBytes += sub.SentBytes
	sub.Label = c.subLabel(p, sub)
	p.Sub = append(p.Sub, sub)
}

// itoa formats sub-sample indexes, without allocating for the first hundred.
func itoa(i int) string {
	if i >= 0 && i < len(smallInts) {
		return smallInts[i]
	}
	return strconv.Itoa(i)
}

var smallInts [100]string

func init() {
	for i := range smallInts {
		smallInts[i] = strconv.Itoa(i)
	}
}

// requestHeaders renders the request headers as JMeter records them
// (without Cookie), for assertions on "Request Headers".
func (ln *httpLane) requestHeaders() string {
	req := &ln.req
	n := len("Connection: close\n")
	for _, h := range req.Header {
		n += len(h.Name) + len(h.Value) + 3
	}
	var b strings.Builder
	b.Grow(n) // one allocation, not one per doubling
	if !req.KeepAlive {
		b.WriteString("Connection: close\n")
	}
	for _, h := range req.Header {
		if strings.EqualFold(h.Name, "Cookie") {
			continue
		}
		b.WriteString(h.Name)
		b.WriteString(": ")
		b.WriteString(h.Value)
		b.WriteByte('\n')
	}
	return b.String()
}

// httpDetail is what an XML results file keeps of an exchange besides the
// sample's attributes, as JMeter's HTTPSampleResult holds it: the status
// line and header fields as they came, the plan's request headers, the
// body, the Cookie header sent, the method, the query string (the body of
// a request that has one) and a redirect's Location.
func httpDetail(ln *httpLane, req *httpx.Request, res *httpx.Result) *report.Detail {
	d := &report.Detail{RequestHeaders: sentHeaders(res.RequestHead), ResponseData: bytes.Clone(res.Body),
		Cookies: sentCookies(req, res), Method: req.Method}
	if res.RequestHead == "" { // sent through net/http's Client (Redirect Automatically)
		d.RequestHeaders = ln.requestHeaders()
	}
	if res.Status != 0 {
		proto := res.Proto
		if proto == "" {
			proto = "HTTP/1.1"
		}
		d.ResponseHeaders = res.Head.Block(proto, strconv.Itoa(res.Status), res.Message)
		if isRedirect(res.Status, req.Method) {
			d.Redirect = res.Head.Last("Location")
		}
	}
	d.QueryString = strings.Clone(queryString(req))
	return d
}

// sentCookies is JMeter's cookies of a request: the Cookie Manager's
// Cookie header, or else the one the plan set (a Header Manager's).
func sentCookies(req *httpx.Request, res *httpx.Result) string {
	if res.Cookies != "" {
		return res.Cookies
	}
	cookie := ""
	for _, h := range req.Header {
		if strings.EqualFold(h.Name, "Cookie") {
			cookie = h.Value
		}
	}
	return cookie
}

// queryString is JMeter's queryString of a request: its body (a
// multipart body with each file's content hidden, as HttpClient 4's
// sampler writes it), "" for a request without one. HTTPHC4Impl sets it
// from the entity only: a GET's URL query is not repeated. It may alias
// the request's body.
func queryString(req *httpx.Request) string {
	if len(req.Parts) > 0 {
		var b strings.Builder
		for _, p := range req.Parts {
			if p.File != "" {
				b.WriteString("<actual file content, not shown here>")
			} else {
				b.Write(p.Data)
			}
		}
		return b.String()
	}
	if len(req.Body) > 0 {
		return unsafe.String(unsafe.SliceData(req.Body), len(req.Body))
	}
	return ""
}

// sentHeaderText is the request headers of the lane's last request as
// JMeter's sample holds them: those it sent (Host, Content-Length and
// Content-Type included), but the cookies.
func (ln *httpLane) sentHeaderText() string {
	if ln.res.RequestHead == "" {
		return ln.requestHeaders() // sent through net/http's Client (Redirect Automatically)
	}
	return sentHeaders(ln.res.RequestHead)
}

// sentHeaders is a request head as JMeter's requestHeader shows it: the
// header fields without the request line and the cookies (JMeter keeps
// those apart), one per line ending in "\n".
func sentHeaders(head string) string {
	_, fields, _ := strings.Cut(head, "\r\n")
	var b strings.Builder
	b.Grow(len(fields)) // one allocation: the fields lose their \r
	for rest := fields; rest != ""; {
		line, more, _ := strings.Cut(rest, "\r\n")
		rest = more
		if line == "" || len(line) > 7 && strings.EqualFold(line[:7], "Cookie:") {
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// fileReason is the reason java.io.FileInputStream gives for a file it
// cannot open: the C library's words for the error ("No such file or
// directory", "Permission denied", "Is a directory").
func fileReason(err error) string {
	msg := err.Error()
	var errno syscall.Errno
	if errors.As(err, &errno) {
		msg = errno.Error()
	}
	if msg == "" {
		return msg
	}
	return strings.ToUpper(msg[:1]) + msg[1:]
}
