package httpsampler

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gojm/gojm/engine/httpx"
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/internal/files"
	"github.com/gojm/gojm/jmx"
	"github.com/gojm/gojm/report"
)

// httpSampler is a compiled HTTP Request, with HTTP Request Defaults and
// Header Managers in scope already merged in. Everything that does not
// change from one sample to the next is worked out here, once.
type httpSampler struct {
	protocol, domain, port, path, method *element.Template
	encoding                             *element.Template // content encoding (charset)
	args                                 []httpArg
	files                                []httpFile
	rawBody                              bool // "Body Data": the values, one after the other
	multipart                            bool // "Use multipart/form-data"
	browser                              bool // "Browser-compatible headers"
	headers                              []httpHeader
	headerManager                        bool // a Header Manager is in scope
	follow, auto, keepAlive              bool
	connectTO, responseTO                *element.Template
	md5                                  bool
	// formTypeIfMissing is http.post_add_content_type_if_missing: a POST
	// whose plan sets no Content-Type is sent as
	// application/x-www-form-urlencoded whatever its body, as JMeter did
	// by default before 4.1.
	formTypeIfMissing bool
	// keep is when a response body is kept: something in scope reads it
	// (post-processors, assertions) or embedded resources are parsed from it.
	keep func(contentType string) bool
	// reads says that post-processors or assertions look at the sample.
	reads bool
	// keepLabels: sub-samples keep their URLs as labels instead of being
	// renamed name-0, name-1… (functional test mode, or the property
	// subresults.disable_renaming).
	keepLabels bool
	// constURL and constCS are the URL and charset worked out once when
	// their fields hold no ${}; fixed says they were.
	constURL          string
	constURLErr       error
	constCS           *httpCharset
	constCSErr        error
	fixedURL, fixedCS bool

	embedded *embeddedConfig // nil unless "Retrieve All Embedded Resources"
	auth     *authManager
	dns      *dnsManager
	cache    *cacheManager
	source   *sourceAddr   // nil: the system chooses
	policy   *files.Policy // where the files to upload may be read
	users    *element.Local[httpState]

	// proto is the transport its requests go over: HTTP/1.1, or HTTP/2
	// where the server agrees (BlazeMeter's HTTP/2 Sampler, http2.go).
	proto httpx.Protocol
}

type httpArg struct {
	name, value *element.Template
	encode      bool
	meta        string // Argument.metadata: "=" between name and value, or ""
	contentType string // HTTPArgument.content_type, for multipart parts
}

type httpFile struct {
	path, param, mime *element.Template
	// read is the file to send when the path is known as the plan
	// compiles; "" when it is worked out for each sample.
	read string
}

// uploadMissing is what JMeter does with a file to upload that is not there.
const uploadMissing = "each request fails with java.io.FileNotFoundException, as in JMeter; put the file beside the plan or fix its name"

type httpHeader struct {
	name  string
	value *element.Template
}

// httpField is one of the sampler's properties that HTTP Request Defaults
// fill when the sampler leaves it absent or empty (JMeter's mergeIn).
func httpField(e *jmx.Element, defaults []*jmx.Element, name string) string {
	if v := e.Str(name); v != "" {
		return v
	}
	for _, d := range defaults {
		if v := d.Str(name); v != "" {
			return v
		}
	}
	return ""
}

// httpBool is a boolean property of the sampler or, when the sampler does
// not have it, of HTTP Request Defaults.
func httpBool(e *jmx.Element, defaults []*jmx.Element, name string, def bool) bool {
	v := strings.TrimSpace(httpField(e, defaults, name))
	if v == "" {
		return def
	}
	return strings.EqualFold(v, "true")
}

// Build builds an HTTP Request.
func Build(c element.Builder, e *jmx.Element, sc element.InScope) (element.Sampler, error) {
	h, err := build(c, e, sc)
	if err != nil {
		return nil, err
	}
	return h, nil
}

// build compiles the fields and managers of a sampler that extends
// JMeter's HTTPSamplerBase: the HTTP Request and the plugins' HTTP
// samplers.
func build(c element.Builder, e *jmx.Element, sc element.InScope) (*httpSampler, error) {
	defaults := sc.Of("ConfigTestElement")
	field := func(name string) *element.Template {
		return c.Template(e, name, httpField(e, defaults, name))
	}
	if s := strings.TrimSpace(httpField(e, defaults, "HTTPSampler.proxyHost")); s != "" {
		return nil, errors.New("a proxy server is not supported")
	}
	h := &httpSampler{
		source:     newSourceAddr(c, e, defaults),
		protocol:   field("HTTPSampler.protocol"),
		domain:     field("HTTPSampler.domain"),
		port:       field("HTTPSampler.port"),
		path:       field("HTTPSampler.path"),
		method:     c.Template(e, "HTTPSampler.method", e.StrOr("HTTPSampler.method", "GET")),
		encoding:   field("HTTPSampler.contentEncoding"),
		connectTO:  field("HTTPSampler.connect_timeout"),
		responseTO: field("HTTPSampler.response_timeout"),
		rawBody:    e.Bool("HTTPSampler.postBodyRaw", false),
		multipart:  e.Bool("HTTPSampler.DO_MULTIPART_POST", false),
		browser:    e.Bool("HTTPSampler.BROWSER_COMPATIBLE_MULTIPART", false),
		follow:     e.Bool("HTTPSampler.follow_redirects", false),
		auto:       e.Bool("HTTPSampler.auto_redirects", false),
		keepAlive:  e.Bool("HTTPSampler.use_keepalive", true),
		md5:        httpBool(e, defaults, "HTTPSampler.md5", false),
		reads:      sc.Read,
		policy:     c.Plan().Files,
		users:      httpUsers(c.Plan()),
	}
	for p := e.Parent; p != nil; p = p.Parent {
		if p.Class == "TestPlan" && p.Bool("TestPlan.functional_mode", false) {
			h.keepLabels = true
		}
	}
	if v, ok := c.Plan().Props.Get("subresults.disable_renaming"); ok && strings.EqualFold(strings.TrimSpace(v), "true") {
		h.keepLabels = true
	}
	if v, ok := c.Plan().Props.Get("http.post_add_content_type_if_missing"); ok && strings.EqualFold(strings.TrimSpace(v), "true") {
		h.formTypeIfMissing = true
	}
	if h.follow && h.auto {
		// JMeter's GUI makes the two exclusive; a hand-written plan with
		// both follows redirects in the client.
		h.follow = false
	}
	// Arguments: the sampler's own, then each default's, nearest first.
	for _, src := range append([]*jmx.Element{e}, defaults...) {
		for _, a := range src.Prop("HTTPsampler.Arguments").Prop("Arguments.arguments").Members() {
			ct := a.Str("HTTPArgument.content_type")
			if ct == "" {
				ct = "text/plain"
			}
			h.args = append(h.args, httpArg{
				name:        c.Template(e, "argument name", a.Str("Argument.name")),
				value:       c.Template(e, "argument value", a.Str("Argument.value")),
				encode:      a.Bool("HTTPArgument.always_encode", false),
				meta:        a.Str("Argument.metadata"),
				contentType: ct,
			})
		}
	}
	for _, f := range e.Prop("HTTPsampler.Files").Prop("HTTPFileArgs.files").Members() {
		h.files = append(h.files, httpFile{
			path:  c.Template(e, "file path", f.Str("File.path")),
			param: c.Template(e, "file parameter name", f.Str("File.paramname")),
			mime:  c.Template(e, "file MIME type", f.Str("File.mimetype")),
		})
	}
	if name := strings.TrimSpace(e.Str("HTTPSampler.FILE_NAME")); name != "" {
		// JMeter 2.1-era single-file properties, converted as JMeter does.
		h.files = append(h.files, httpFile{
			path:  c.Template(e, "file path", name),
			param: c.Prop(e, "HTTPSampler.FILE_FIELD"),
			mime:  c.Prop(e, "HTTPSampler.mimetype"),
		})
	}
	for i := range h.files {
		f := &h.files[i]
		if name, ok := c.Static(f.path); ok && name != "" {
			f.read = element.Input(c, e, "file to upload", name, uploadMissing)
			if f.read == "" {
				f.read = h.policy.Resolve(name) // sent as JMeter sends it: the request fails
			}
		}
	}
	h.headers = mergeHeaders(c, e, sc.Of("HeaderManager"))
	h.headerManager = len(sc.Of("HeaderManager")) > 0

	var err error
	if httpBool(e, defaults, "HTTPSampler.image_parser", false) {
		if h.embedded, err = buildEmbedded(c, e, defaults); err != nil {
			return nil, err
		}
	}
	if h.auth, err = buildAuthManager(c, e, lastOf(sc.Of("AuthManager"))); err != nil {
		return nil, err
	}
	if h.dns, err = buildDNSManager(c, e, lastOf(sc.Of("DNSCacheManager"))); err != nil {
		return nil, err
	}
	h.cache = buildCacheManager(c, lastOf(sc.Of("CacheManager")))

	if h.protocol.Const() && h.domain.Const() && h.port.Const() && h.path.Const() {
		h.fixedURL = true
		h.constURL, h.constURLErr = h.url(nil)
	}
	if h.encoding.Const() {
		h.fixedCS = true
		h.constCS, h.constCSErr = lookupCharset(h.encoding.Raw())
	}
	switch {
	case h.reads:
		h.keep = keepAll
	case h.embedded != nil:
		h.keep = keepParsable
	}
	return h, nil
}

// lastOf returns the outermost of the managers in scope: JMeter sets each
// on the sampler nearest first, so the last one set wins ("superseded").
func lastOf(managers []*jmx.Element) *jmx.Element {
	if len(managers) == 0 {
		return nil
	}
	return managers[len(managers)-1]
}

func keepAll(string) bool { return true }

// mergeHeaders merges the Header Managers in scope as JMeter's
// HeaderManager.merge does: the nearest manager's headers first, all of
// them, then each outer manager's headers whose names (case-insensitive)
// are not there yet. A Content-Length from a manager is never sent.
func mergeHeaders(c element.Builder, e *jmx.Element, managers []*jmx.Element) []httpHeader {
	var out []httpHeader
	for i, m := range managers {
		for _, h := range m.Prop("HeaderManager.headers").Members() {
			name := h.Str("Header.name")
			if i > 0 && hasHeaderNamed(out, name) {
				continue
			}
			out = append(out, httpHeader{name: name, value: c.Template(e, "header "+name, h.Str("Header.value"))})
		}
	}
	// Drop what JMeter never copies to the request.
	kept := out[:0]
	for _, h := range out {
		if strings.EqualFold(h.name, "Content-Length") {
			continue
		}
		kept = append(kept, h)
	}
	return kept
}

func hasHeaderNamed(hs []httpHeader, name string) bool {
	for _, h := range hs {
		if strings.EqualFold(h.name, name) {
			return true
		}
	}
	return false
}

// sample makes one HTTP sample as JMeter's HTTPSamplerBase.sample does: the
// request, then (by the sampler's settings) the redirects it follows and the
// embedded resources it downloads, as sub-samples of this one.
func (h *httpSampler) Sample(vu *element.VU, r *element.Result) {
	st := h.users.Get(vu)
	c := &st.call
	c.begin(h, vu, st, r.Label)
	method, u, err := c.prepare()
	if err != nil {
		r.Start = time.Now()
		r.URL = u
		class, msg := describePrepareError(err)
		nonHTTP(&r.Sample, class, msg)
		return
	}
	// The Cookie Manager's own cookies are evaluated once per sample, on
	// the user's goroutine, before its first request (as JMeter does for
	// each sampler): the lanes that download its resources at once share
	// the jar, never the user's templates or seeds.
	st.jars.Get(vu).Seed(vu)
	hp := &st.mainHop
	if !c.fetch(&st.main, u, method, true, false, 0, &r.Sample, hp) {
		r.None = true // JMeter's cached resource: no sample at all
		return
	}
	c.process(&st.main, false, 0, &r.Sample, hp)
	if h.reads {
		r.Body, r.Head = hp.body, hp.head
		r.ReqHeadOf = st.reqHead
		req := &st.main.req
		r.Sent = element.Sent{Method: req.Method, Cookies: c.firstCookies, QueryOf: st.query}
	}
	threadInfo(vu, r.Sub)
	c.end()
}

// threadInfo fills the thread information of direct sub-samples, as
// JMeterThread does.
func threadInfo(vu *element.VU, subs []*report.Sample) {
	for _, s := range subs {
		s.ThreadName = vu.Name
		s.GrpThreads = int(vu.Group.Active.Load())
		s.AllThreads = int(vu.Run.Active.Load())
	}
}

// describePrepareError names a failure to build the request as JMeter's
// exception would.
func describePrepareError(err error) (class, msg string) {
	var cs *charsetError
	var ue *urlError
	switch {
	case errors.As(err, &cs):
		return "java.nio.charset.UnsupportedCharsetException", cs.name
	case errors.As(err, &ue):
		return ue.class, ue.msg
	case strings.HasPrefix(err.Error(), "URLDecoder:"):
		return "java.lang.IllegalArgumentException", err.Error()
	}
	return "java.lang.IllegalArgumentException", err.Error()
}

// urlError is a URL JMeter could not build, with its Java exception.
type urlError struct{ class, msg string }

func (e *urlError) Error() string { return e.msg }

// url builds the request URL as JMeter's getUrl does: a full URL in the
// path wins; otherwise protocol (default http), host, port (omitted when it
// is the protocol's default) and a path given a leading slash.
func (h *httpSampler) url(vu *element.VU) (string, error) {
	path := samplerPath(h.path.Eval(vu))
	if fullURL(path) {
		return path, nil
	}
	return h.urlOf(vu, h.protocol.Eval(vu), h.domain.Eval(vu), h.port.Eval(vu), path)
}

func fullURL(path string) bool {
	return strings.HasPrefix(path, "http://") || strings.HasPrefix(path, "https://")
}

// urlOf is url with the fields given (as the pre-processors changed them);
// path is as samplerPath gives it.
func (h *httpSampler) urlOf(vu *element.VU, proto, host, port, path string) (string, error) {
	if fullURL(path) {
		return path, nil
	}
	proto = strings.ToLower(strings.TrimSpace(proto))
	if proto == "" {
		proto = "http"
	}
	host = strings.TrimSpace(host)
	port = strings.TrimSpace(port)
	// Most samplers send to the same URL every time: the user keeps the
	// last one it built, and its parts, instead of building it again.
	// (vu is nil when the plan is compiled.)
	if vu == nil {
		return joinURL(proto, host, port, path)
	}
	st := h.users.Get(vu)
	k := urlParts{proto, host, port, path}
	if st.lastURL != "" && st.lastParts == k {
		return st.lastURL, nil
	}
	u, err := joinURL(proto, host, port, path)
	if err == nil {
		st.lastParts, st.lastURL = k, u
	}
	return u, err
}

// samplerPath is the path field as JMeter's getPath gives it: not trimmed,
// its spaces sent as %20 (a plan's "/items/9 " asks for "/items/9%20").
func samplerPath(raw string) string { return strings.ReplaceAll(raw, " ", "%20") }

// urlParts are the evaluated fields a URL is built from.
type urlParts struct{ proto, host, port, path string }

// joinURL builds the URL of a sampler's fields, as getUrl does.
func joinURL(proto, host, port, path string) (string, error) {
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	if proto != "http" && proto != "https" {
		return proto + "://" + host + path, &urlError{"java.net.MalformedURLException", "unknown protocol: " + proto}
	}
	if host == "" {
		return proto + "://" + path, &urlError{"java.lang.IllegalArgumentException", "Host may not be blank"}
	}
	if port != "" && port != "0" && !(proto == "http" && port == "80") && !(proto == "https" && port == "443") {
		n, err := strconv.Atoi(port)
		if err != nil {
			return proto + "://" + host + path, &urlError{"java.lang.NumberFormatException", fmt.Sprintf("For input string: %q", port)}
		}
		if n > 0 && !(proto == "http" && n == 80) && !(proto == "https" && n == 443) {
			if port[0] == '0' || port[0] == '+' {
				port = strconv.Itoa(n)
			}
			return proto + "://" + host + ":" + port + path, nil
		}
	}
	return proto + "://" + host + path, nil
}

// httpMethodKind sorts methods by what JMeter does with their arguments
// and body.
func queryMethod(m string) bool { return m == "GET" || m == "DELETE" || m == "OPTIONS" }

// entityMethod reports whether JMeter's HttpClient request for the method
// carries a body (an "entity"): POST, PUT, PATCH, DELETE and WebDAV's.
func entityMethod(m string) bool {
	switch m {
	case "POST", "PUT", "PATCH", "DELETE",
		"PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "REPORT", "MKCALENDAR", "SEARCH":
		return true
	}
	return false
}

// knownMethod reports whether JMeter's HttpClient sampler can send the method.
func knownMethod(m string) bool {
	switch m {
	case "GET", "HEAD", "OPTIONS", "TRACE":
		return true
	}
	return entityMethod(m)
}

// millis parses a timeout field in milliseconds; blank or bad text is none.
func millis(s string) time.Duration {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0 // the usual case: no error to allocate
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0
	}
	return time.Duration(n) * time.Millisecond
}

// statusCodes holds "100" … "599" so that a response code costs no allocation.
var statusCodes [600]string

func init() {
	for i := 100; i < len(statusCodes); i++ {
		statusCodes[i] = strconv.Itoa(i)
	}
}

func statusText(code int) string {
	if code >= 100 && code < len(statusCodes) {
		return statusCodes[code]
	}
	return strconv.Itoa(code)
}

// dataType is JMeter's data type of a response (SampleResult's
// setEncodingAndType): "bin" for image, audio and video types (but SVG and
// media playlists), "text" for any other, "" when there is no Content-Type.
func dataType(contentType string) string {
	switch {
	case contentType == "":
		return ""
	case strings.HasPrefix(contentType, "audio/x-mpegurl"), strings.HasPrefix(contentType, "audio/mpegurl"),
		strings.HasPrefix(contentType, "video/f4m"), strings.HasPrefix(contentType, "image/svg+xml"):
		return "text"
	case strings.HasPrefix(contentType, "image/"), strings.HasPrefix(contentType, "audio/"),
		strings.HasPrefix(contentType, "video/"):
		return "bin"
	}
	return "text"
}

// mediaType is the Content-Type up to its first ';' or space, lower case
// (JMeter's getMediaType).
func mediaType(contentType string) string {
	end := strings.IndexAny(contentType, "; ")
	for end == 0 {
		contentType = contentType[1:]
		end = strings.IndexAny(contentType, "; ")
	}
	if end > 0 {
		contentType = contentType[:end]
	}
	for i := 0; i < len(contentType); i++ {
		if c := contentType[i]; 'A' <= c && c <= 'Z' {
			return strings.ToLower(contentType)
		}
	}
	return contentType
}

// isRedirect is HTTPSampleResult.isRedirect: 301, 302, 303 and 308, and
// 307 for GET and HEAD only.
func isRedirect(code int, method string) bool {
	switch code {
	case 301, 302, 303, 308:
		return true
	case 307:
		return method == "GET" || method == "HEAD"
	}
	return false
}

// nonHTTP marks a sample failed by something other than an HTTP status, in
// JMeter's "Non HTTP response code: <exception>" form.
func nonHTTP(s *report.Sample, class, msg string) {
	s.Code = "Non HTTP response code: " + class
	s.Message = "Non HTTP response message: " + msg
	s.Success = false
	s.DataType = "text"
}

// headerValue returns the last value of a response header, as HttpClient's
// getLastHeader does.
func headerValue(h http.Header, name string) string {
	v := h[name]
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}
