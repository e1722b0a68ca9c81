package engine

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gojm/gojm/engine/httpx"
	"github.com/gojm/gojm/jmx"
)

// httpSampler is a compiled HTTP Request, with HTTP Request Defaults and
// Header Managers in scope already merged in.
type httpSampler struct {
	protocol, domain, port, path, method *Template
	encoding                             string
	args                                 []httpArg
	rawBody                              bool
	headers                              []httpHeader
	follow, auto, keepAlive              bool
	connectTO, responseTO                *Template
	keepBody                             bool // something in scope reads the response
}

type httpArg struct {
	name, value *Template
	encode      bool
	useEquals   bool
}

type httpHeader struct {
	name  string
	value *Template
}

// httpField is one of the sampler's string fields that HTTP Request
// Defaults fill when the sampler leaves it empty.
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

func buildHTTP(c *compiler, e *jmx.Element, sc *scope) (sampleFunc, error) {
	defaults := sc.configsOf("ConfigTestElement")
	field := func(name string) *Template {
		return c.template(e, name, httpField(e, defaults, name))
	}
	if e.Bool("HTTPSampler.image_parser", false) || httpField(e, defaults, "HTTPSampler.image_parser") == "true" {
		return nil, errors.New("downloading embedded resources (\"Retrieve All Embedded Resources\") is not supported yet; untick it to run the plan")
	}
	if e.Bool("HTTPSampler.DO_MULTIPART_POST", false) || e.Str("HTTPSampler.FILE_NAME") != "" || len(e.Prop("HTTPsampler.Files").Prop("HTTPFileArgs.files").Members()) > 0 {
		return nil, errors.New("multipart uploads and file bodies are not supported yet")
	}
	if s := strings.TrimSpace(httpField(e, defaults, "HTTPSampler.ipSource")); s != "" {
		return nil, errors.New("a source address (IP spoofing) is not supported")
	}
	h := &httpSampler{
		protocol:   field("HTTPSampler.protocol"),
		domain:     field("HTTPSampler.domain"),
		port:       field("HTTPSampler.port"),
		path:       field("HTTPSampler.path"),
		method:     c.template(e, "HTTPSampler.method", e.StrOr("HTTPSampler.method", "GET")),
		encoding:   httpField(e, defaults, "HTTPSampler.contentEncoding"),
		connectTO:  field("HTTPSampler.connect_timeout"),
		responseTO: field("HTTPSampler.response_timeout"),
		rawBody:    e.Bool("HTTPSampler.postBodyRaw", false),
		follow:     e.Bool("HTTPSampler.follow_redirects", false),
		auto:       e.Bool("HTTPSampler.auto_redirects", false),
		keepAlive:  e.Bool("HTTPSampler.use_keepalive", true),
		keepBody:   len(sc.posts)+len(sc.assertions) > 0,
	}
	// Arguments: the sampler's own, then each default's, nearest first.
	for _, src := range append([]*jmx.Element{e}, defaults...) {
		for _, a := range src.Prop("HTTPsampler.Arguments").Prop("Arguments.arguments").Members() {
			h.args = append(h.args, httpArg{
				name:      c.template(e, "argument name", a.Str("Argument.name")),
				value:     c.template(e, "argument value", a.Str("Argument.value")),
				encode:    a.Bool("HTTPArgument.always_encode", false),
				useEquals: a.Bool("HTTPArgument.use_equals", true),
			})
		}
	}
	h.headers = mergeHeaders(c, e, sc.configsOf("HeaderManager"))
	return h.sample, nil
}

// mergeHeaders merges the Header Managers in scope: outermost first, a
// nearer manager's value replacing an outer one of the same name.
func mergeHeaders(c *compiler, e *jmx.Element, managers []*jmx.Element) []httpHeader {
	var out []httpHeader
	for i := len(managers) - 1; i >= 0; i-- {
		for _, h := range managers[i].Prop("HeaderManager.headers").Members() {
			name := h.Str("Header.name")
			if name == "" {
				continue
			}
			v := c.template(e, "header "+name, h.Str("Header.value"))
			replaced := false
			for j := range out {
				if strings.EqualFold(out[j].name, name) {
					out[j].value, replaced = v, true
				}
			}
			if !replaced {
				out = append(out, httpHeader{name: name, value: v})
			}
		}
	}
	return out
}

func (h *httpSampler) sample(vu *VU, r *result) {
	req := &vu.req
	*req = httpx.Request{Header: req.Header[:0]}
	req.Method = strings.ToUpper(strings.TrimSpace(h.method.Eval(vu)))
	if req.Method == "" {
		req.Method = "GET"
	}
	u, err := h.url(vu)
	if err != nil {
		r.Start = time.Now()
		r.URL = u
		nonHTTP(r, "java.net.MalformedURLException", err.Error())
		return
	}
	contentType := ""
	for _, hd := range h.headers {
		v := hd.value.Eval(vu)
		req.Header = append(req.Header, httpx.Header{Name: hd.name, Value: v})
		if strings.EqualFold(hd.name, "Content-Type") {
			contentType = v
		}
	}
	if len(h.args) > 0 {
		switch {
		case h.rawBody:
			var b strings.Builder
			for _, a := range h.args {
				b.WriteString(a.value.Eval(vu))
			}
			req.Body = []byte(b.String())
		case sendsForm(req.Method):
			req.Body = []byte(h.query(vu))
			if contentType == "" {
				req.Header = append(req.Header, httpx.Header{Name: "Content-Type", Value: "application/x-www-form-urlencoded"})
			}
		default:
			q := h.query(vu)
			if strings.Contains(u, "?") {
				u += "&" + q
			} else {
				u += "?" + q
			}
		}
	}
	req.URL = u
	req.FollowRedirects = h.follow || h.auto
	req.KeepAlive = h.keepAlive
	req.KeepBody = h.keepBody
	req.ConnectTimeout = millis(h.connectTO.Eval(vu))
	req.ResponseTimeout = millis(h.responseTO.Eval(vu))

	res := &vu.hres
	vu.http.Do(vu.hard, req, res)
	r.Start = res.Start
	r.Elapsed = res.Elapsed
	r.Latency = res.Latency
	r.Connect = res.Connect
	r.Bytes = res.Bytes
	r.SentBytes = res.SentBytes
	r.URL = res.URL
	r.header = res.Header
	r.body = res.Body
	if res.Err != nil && res.Status == 0 {
		class, msg := describeError(res.Err)
		nonHTTP(r, class, msg)
		return
	}
	r.Code = statusText(res.Status)
	r.Message = res.Message
	r.Success = res.Status >= 200 && res.Status <= 399
	r.DataType = dataType(res.Header.Get("Content-Type"))
	if res.Err != nil { // the body broke off
		class, msg := describeError(res.Err)
		nonHTTP(r, class, msg)
	}
}

// url builds the request URL as JMeter does: a full URL in the path wins;
// otherwise protocol (default http), host, port (omitted when default) and
// a path given a leading slash.
func (h *httpSampler) url(vu *VU) (string, error) {
	path := strings.TrimSpace(h.path.Eval(vu))
	lower := strings.ToLower(path)
	if strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://") {
		return path, nil
	}
	proto := strings.ToLower(strings.TrimSpace(h.protocol.Eval(vu)))
	if proto == "" {
		proto = "http"
	}
	host := strings.TrimSpace(h.domain.Eval(vu))
	port := strings.TrimSpace(h.port.Eval(vu))
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	if host == "" {
		return proto + "://" + path, errors.New("no host: the sampler and HTTP Request Defaults leave \"Server Name or IP\" empty")
	}
	if proto != "http" && proto != "https" {
		return proto + "://" + host + path, fmt.Errorf("unknown protocol %q", proto)
	}
	if port != "" && port != "0" && !(proto == "http" && port == "80") && !(proto == "https" && port == "443") {
		if _, err := strconv.Atoi(port); err != nil {
			return proto + "://" + host + ":" + port + path, fmt.Errorf("port %q is not a number", port)
		}
		host += ":" + port
	}
	return proto + "://" + host + path, nil
}

// query renders the arguments as name=value pairs joined by '&', encoding
// those marked "URL Encode?".
func (h *httpSampler) query(vu *VU) string {
	var b strings.Builder
	for i, a := range h.args {
		if i > 0 {
			b.WriteByte('&')
		}
		name, value := a.name.Eval(vu), a.value.Eval(vu)
		if a.encode {
			name, value = url.QueryEscape(name), url.QueryEscape(value)
		}
		b.WriteString(name)
		if value != "" || a.useEquals {
			b.WriteByte('=')
			b.WriteString(value)
		}
	}
	return b.String()
}

// sendsForm reports whether JMeter sends a method's arguments as a form body.
func sendsForm(method string) bool {
	switch method {
	case "POST", "PUT", "PATCH":
		return true
	}
	return false
}

// millis parses a timeout field in milliseconds; blank or bad text is none.
func millis(s string) time.Duration {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
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

// dataType is JMeter's data type of a response: "text" for textual content
// types (and none), "bin" for anything else.
func dataType(contentType string) string {
	ct := strings.ToLower(contentType)
	switch {
	case ct == "", strings.HasPrefix(ct, "text/"), strings.Contains(ct, "json"), strings.Contains(ct, "xml"),
		strings.Contains(ct, "javascript"), strings.Contains(ct, "x-www-form-urlencoded"):
		return "text"
	}
	return "bin"
}

// nonHTTP marks a sample failed by something other than an HTTP status, in
// JMeter's "Non HTTP response code: <exception>" form.
func nonHTTP(r *result, class, msg string) {
	r.Code = "Non HTTP response code: " + class
	r.Message = "Non HTTP response message: " + msg
	r.Success = false
	r.DataType = "text"
}
