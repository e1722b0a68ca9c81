package engine

import (
	"compress/gzip"
	"crypto/md5"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gojm/gojm/jmx"
	"github.com/gojm/gojm/report"
	"golang.org/x/net/dns/dnsmessage"
)

// hReq is a request as a test server received it.
type hReq struct {
	Method, Target, Host string
	Header               http.Header
	Body                 string
}

// hServer records every request, body included, then answers with h.
type hServer struct {
	mu   sync.Mutex
	reqs []hReq
	srv  *httptest.Server
}

func hNewServer(t *testing.T, h http.HandlerFunc) *hServer {
	t.Helper()
	w := &hServer{}
	w.srv = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.mu.Lock()
		w.reqs = append(w.reqs, hReq{Method: r.Method, Target: r.RequestURI, Host: r.Host, Header: r.Header, Body: string(body)})
		w.mu.Unlock()
		if h == nil {
			rw.Header().Set("Content-Type", "text/plain")
			io.WriteString(rw, "ok")
			return
		}
		h(rw, r)
	}))
	t.Cleanup(w.srv.Close)
	return w
}

func (w *hServer) requests() []hReq {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]hReq(nil), w.reqs...)
}

func (w *hServer) props() map[string]string { return hostPortProps(w.srv.URL) }

// hostPortProps are the host and port properties of a server's URL, which
// the plans of the tests read.
func hostPortProps(rawURL string) map[string]string {
	u, _ := url.Parse(rawURL)
	h, p, _ := net.SplitHostPort(u.Host)
	return map[string]string{"host": h, "port": p}
}

func (w *hServer) hostPort() string { return strings.TrimPrefix(w.srv.URL, "http://") }

// hEsc escapes text for the plans the tests write.
func hEsc(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
	return r.Replace(s)
}

func hprop(name, value string) string {
	if value == "true" || value == "false" {
		return fmt.Sprintf(`<boolProp name="%s">%s</boolProp>`, name, value)
	}
	return fmt.Sprintf(`<stringProp name="%s">%s</stringProp>`, name, hEsc(value))
}

// harg is an HTTP argument with JMeter's usual "=" metadata.
func harg(name, value string, encode bool) string { return hargMeta(name, value, "=", encode) }

func hargMeta(name, value, meta string, encode bool) string {
	return `<elementProp name="` + hEsc(name) + `" elementType="HTTPArgument">` +
		hprop("HTTPArgument.always_encode", strconv.FormatBool(encode)) + hprop("Argument.name", name) +
		hprop("Argument.value", value) + hprop("Argument.metadata", meta) + `</elementProp>`
}

func hfile(path, param, mime string) string {
	return `<elementProp name="` + hEsc(path) + `" elementType="HTTPFileArg">` +
		hprop("File.path", path) + hprop("File.paramname", param) + hprop("File.mimetype", mime) + `</elementProp>`
}

// hHeaders is an HTTP Header Manager with name/value pairs.
func hHeaders(pairs ...string) string {
	var b strings.Builder
	b.WriteString(`<HeaderManager guiclass="HeaderPanel" testclass="HeaderManager" testname="Headers"><collectionProp name="HeaderManager.headers">`)
	for i := 0; i+1 < len(pairs); i += 2 {
		b.WriteString(`<elementProp name="" elementType="Header">` + hprop("Header.name", pairs[i]) + hprop("Header.value", pairs[i+1]) + `</elementProp>`)
	}
	b.WriteString(`</collectionProp></HeaderManager><hashTree/>`)
	return b.String()
}

// hElement is a config hElement or listener with plain properties.
func hElement(class, name string, props ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<%s guiclass="x" testclass="%s" testname="%s">`, class, class, name)
	for i := 0; i+1 < len(props); i += 2 {
		b.WriteString(hprop(props[i], props[i+1]))
	}
	fmt.Fprintf(&b, `</%s><hashTree/>`, class)
	return b.String()
}

// httpSpec is one HTTP Request of a test plan.
type httpSpec struct {
	class    string // the test class; HTTPSamplerProxy when empty
	name     string
	props    []string // name/value pairs
	args     []string // harg…
	files    []string // hfile…
	children string   // XML in its hashTree
}

func (s httpSpec) xml() string {
	var b strings.Builder
	class := s.class
	if class == "" {
		class = "HTTPSamplerProxy"
	}
	fmt.Fprintf(&b, `<%s guiclass="HttpTestSampleGui" testclass="%s" testname="%s">`, class, class, hEsc(s.name))
	b.WriteString(`<elementProp name="HTTPsampler.Arguments" elementType="Arguments"><collectionProp name="Arguments.arguments">`)
	b.WriteString(strings.Join(s.args, ""))
	b.WriteString(`</collectionProp></elementProp>`)
	if len(s.files) > 0 {
		b.WriteString(`<elementProp name="HTTPsampler.Files" elementType="HTTPFileArgs"><collectionProp name="HTTPFileArgs.files">`)
		b.WriteString(strings.Join(s.files, ""))
		b.WriteString(`</collectionProp></elementProp>`)
	}
	for i := 0; i+1 < len(s.props); i += 2 {
		p := s.props[i]
		if !strings.Contains(p, ".") {
			p = "HTTPSampler." + p
		}
		b.WriteString(hprop(p, s.props[i+1]))
	}
	b.WriteString(`</` + class + `><hashTree>` + s.children + `</hashTree>`)
	return b.String()
}

// hPlan is one thread looping loops times over the samplers, with the
// configs at the plan's level and HTTP Request Defaults pointing at the
// host and port properties.
func hPlan(configs string, loops int, samplers ...httpSpec) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6"><hashTree>`)
	b.WriteString(`<TestPlan guiclass="TestPlanGui" testclass="TestPlan" testname="Plan"><elementProp name="TestPlan.user_defined_variables" elementType="Arguments"><collectionProp name="Arguments.arguments"/></elementProp></TestPlan><hashTree>`)
	b.WriteString(`<ConfigTestElement guiclass="HttpDefaultsGui" testclass="ConfigTestElement" testname="Defaults">` +
		`<elementProp name="HTTPsampler.Arguments" elementType="Arguments"><collectionProp name="Arguments.arguments"/></elementProp>` +
		hprop("HTTPSampler.domain", "${__P(host)}") + hprop("HTTPSampler.port", "${__P(port)}") + `</ConfigTestElement><hashTree/>`)
	b.WriteString(configs)
	fmt.Fprintf(&b, `<ThreadGroup guiclass="ThreadGroupGui" testclass="ThreadGroup" testname="Users">`+
		`<elementProp name="ThreadGroup.main_controller" elementType="LoopController" guiclass="LoopControlPanel" testclass="LoopController">`+
		`<boolProp name="LoopController.continue_forever">false</boolProp><stringProp name="LoopController.loops">%d</stringProp></elementProp>`+
		`<stringProp name="ThreadGroup.num_threads">1</stringProp><stringProp name="ThreadGroup.ramp_time">0</stringProp>`+
		`<stringProp name="ThreadGroup.on_sample_error">continue</stringProp></ThreadGroup><hashTree>`, loops)
	for _, s := range samplers {
		b.WriteString(s.xml())
	}
	b.WriteString(`</hashTree></hashTree></hashTree></jmeterTestPlan>`)
	return b.String()
}

// hRun writes the plan (and any files beside it) to a folder of its own
// and runs it.
func hRun(t *testing.T, plan string, props map[string]string, files map[string]string) *memSink {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "plan.jmx")
	if err := os.WriteFile(path, []byte(plan), 0o644); err != nil {
		t.Fatal(err)
	}
	return runPlan(t, path, props)
}

func hCompile(t *testing.T, plan string, props map[string]string) error {
	t.Helper()
	src, err := jmx.Read(strings.NewReader(plan), "plan.jmx", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	_, err = Compile(src, Options{Props: props})
	return err
}

func hHeader(h http.Header, name string) string {
	return strings.Join(h.Values(name), " | ")
}

func TestHTTPArgumentsAsJMeterSendsThem(t *testing.T) {
	for _, tc := range []struct {
		name     string
		props    []string
		args     []string
		children string
		jprops   map[string]string // JMeter properties besides the server's
		target   string
		body     string
		ctype    string // "-" for none
		clen     string // "-" for none
	}{
		{name: "a path's spaces are sent as %20, not trimmed", props: []string{"path", "/e/9 ", "method", "GET"},
			target: "/e/9%20", ctype: "-", clen: "-"},
		{name: "GET encodes in UTF-8 as URLEncoder", props: []string{"path", "/e", "method", "GET"},
			args:   []string{harg("q", "café au lait*~", true)},
			target: "/e?q=caf%C3%A9+au+lait*%7E", ctype: "-", clen: "-"},
		{name: "GET leaves unticked values alone", props: []string{"path", "/e", "method", "GET"},
			args:   []string{harg("raw", "a+b%20c", false), hargMeta("flag", "", "", false), harg("", "dropped", true)},
			target: "/e?raw=a+b%20c&flag", ctype: "-", clen: "-"},
		{name: "GET appends to a path with a query", props: []string{"path", "/e?x=1", "method", "GET"},
			args: []string{harg("y", "2", true)}, target: "/e?x=1&y=2", ctype: "-", clen: "-"},
		{name: "GET in ISO-8859-1", props: []string{"path", "/e", "method", "GET", "contentEncoding", "ISO-8859-1"},
			args: []string{harg("q", "café", true)}, target: "/e?q=caf%E9", ctype: "-", clen: "-"},
		{name: "POST form, names and values re-encoded", props: []string{"path", "/e", "method", "POST"},
			args: []string{harg("user", "alice", true), harg("password", "p@ss word&more", true), harg("note", "a+b%21", false),
				harg("${missing}", "skipped", true), harg("", "skipped", true)},
			target: "/e", body: "user=alice&password=p%40ss+word%26more&note=a+b%21",
			ctype: "application/x-www-form-urlencoded; charset=UTF-8", clen: "50"},
		{name: "POST form in ISO-8859-1", props: []string{"path", "/e", "method", "POST", "contentEncoding", "iso-8859-1"},
			args: []string{harg("q", "é", true)}, target: "/e", body: "q=%E9",
			ctype: "application/x-www-form-urlencoded; charset=ISO-8859-1", clen: "5"},
		{name: "POST keeps the Header Manager's Content-Type", props: []string{"path", "/e", "method", "POST"},
			args: []string{harg("a", "1", true)}, children: hHeaders("Content-Type", "application/vnd.x"),
			target: "/e", body: "a=1", ctype: "application/vnd.x", clen: "3"},
		{name: "POST with no arguments", props: []string{"path", "/e", "method", "POST"},
			target: "/e", ctype: "application/x-www-form-urlencoded; charset=UTF-8", clen: "0"},
		{name: "POST body data", props: []string{"path", "/e", "method", "POST", "postBodyRaw", "true"},
			args:   []string{harg("", `{"a": "é"}`, false)},
			target: "/e", body: `{"a": "é"}`, ctype: "text/plain; charset=UTF-8", clen: "11"},
		{name: "POST body data in ISO-8859-1", props: []string{"path", "/e", "method", "POST", "postBodyRaw", "true", "contentEncoding", "ISO-8859-1"},
			args:   []string{harg("", "é", false)},
			target: "/e", body: "\xe9", ctype: "text/plain; charset=ISO-8859-1", clen: "1"},
		{name: "nameless arguments are body data", props: []string{"path", "/e", "method", "POST"},
			args:   []string{harg("", "one ", false), harg("", "two", true)},
			target: "/e", body: "one two", ctype: "text/plain; charset=UTF-8", clen: "7"},
		{name: "PUT body data", props: []string{"path", "/e", "method", "PUT", "postBodyRaw", "true"},
			args: []string{harg("", "put body", false)}, target: "/e", body: "put body", ctype: "text/plain; charset=UTF-8", clen: "8"},
		{name: "PATCH form", props: []string{"path", "/e", "method", "PATCH"},
			args: []string{harg("a", "1", true), harg("b", "x y", true)}, target: "/e", body: "a=1&b=x+y",
			ctype: "application/x-www-form-urlencoded; charset=UTF-8", clen: "9"},
		{name: "DELETE: query and form", props: []string{"path", "/e", "method", "DELETE"},
			args: []string{harg("id", "7", true)}, target: "/e?id=7", body: "id=7",
			ctype: "application/x-www-form-urlencoded; charset=UTF-8", clen: "4"},
		{name: "DELETE without arguments", props: []string{"path", "/e", "method", "DELETE"},
			target: "/e", ctype: "-", clen: "0"},
		{name: "PUT without arguments", props: []string{"path", "/e", "method", "PUT"},
			target: "/e", ctype: "-", clen: "0"},
		{name: "GET with body data", props: []string{"path", "/e", "method", "GET", "postBodyRaw", "true"},
			args: []string{harg("", "Get with body", false)}, target: "/e", body: "Get with body", ctype: "text/plain; charset=UTF-8", clen: "13"},
		{name: "POST body data with post_add_content_type_if_missing", props: []string{"path", "/e", "method", "POST", "postBodyRaw", "true"},
			jprops: map[string]string{"http.post_add_content_type_if_missing": "true"},
			args:   []string{harg("", `{"a":1}`, false)}, target: "/e", body: `{"a":1}`, ctype: "application/x-www-form-urlencoded", clen: "7"},
		{name: "POST form with post_add_content_type_if_missing", props: []string{"path", "/e", "method", "POST"},
			jprops: map[string]string{"http.post_add_content_type_if_missing": "true"},
			args:   []string{harg("a", "1", true)}, target: "/e", body: "a=1", ctype: "application/x-www-form-urlencoded", clen: "3"},
		{name: "post_add_content_type_if_missing leaves PUT alone", props: []string{"path", "/e", "method", "PUT", "postBodyRaw", "true"},
			jprops: map[string]string{"http.post_add_content_type_if_missing": "true"},
			args:   []string{harg("", "x", false)}, target: "/e", body: "x", ctype: "text/plain; charset=UTF-8", clen: "1"},
		{name: "GET with a nameless empty argument: an empty body", props: []string{"path", "/e", "method", "GET"},
			args: []string{harg("", "", false)}, target: "/e", ctype: "text/plain; charset=UTF-8", clen: "0"},
		{name: "OPTIONS puts arguments in the query", props: []string{"path", "/e", "method", "OPTIONS"},
			args: []string{harg("a", "1", true)}, target: "/e?a=1", ctype: "-", clen: "-"},
		{name: "HEAD sends no body", props: []string{"path", "/e", "method", "HEAD"},
			args: []string{harg("a", "1", true)}, target: "/e", ctype: "-", clen: "-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := hNewServer(t, nil)
			props := w.props()
			for k, v := range tc.jprops {
				props[k] = v
			}
			sink := hRun(t, hPlan("", 1, httpSpec{name: "s", props: tc.props, args: tc.args, children: tc.children}), props, nil)
			reqs := w.requests()
			if len(reqs) != 1 || len(sink.samples) != 1 {
				t.Fatalf("%d requests, %d samples", len(reqs), len(sink.samples))
			}
			r := reqs[0]
			if r.Target != tc.target || r.Body != tc.body {
				t.Errorf("sent %s %q body %q; want %q body %q", r.Method, r.Target, r.Body, tc.target, tc.body)
			}
			for _, h := range []struct{ name, want string }{{"Content-Type", tc.ctype}, {"Content-Length", tc.clen}} {
				got := hHeader(r.Header, h.name)
				if h.name == "Content-Length" && r.Method != "HEAD" {
					// net/http moves it out of the header map
					if r.Header.Get("Content-Length") == "" && (r.Body != "" || tc.clen == "0") {
						got = strconv.Itoa(len(r.Body))
					}
				}
				if got == "" {
					got = "-"
				}
				if got != h.want {
					t.Errorf("%s: %q, want %q", h.name, got, h.want)
				}
			}
			if s := sink.samples[0]; !s.Success || s.URL != w.srv.URL+tc.target {
				t.Errorf("sample %s %s %q", s.Code, s.Message, s.URL)
			}
		})
	}
}

// Go's server hides a request's Content-Length in the header map only
// when it has a body: the test above reads it from the wire instead.
func TestHTTPContentLengthOnTheWire(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan string, 4)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				buf := make([]byte, 4096)
				n, _ := c.Read(buf)
				got <- string(buf[:n])
				io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
			}()
		}
	}()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	props := map[string]string{"host": "127.0.0.1", "port": port}
	hRun(t, hPlan("", 1,
		httpSpec{name: "delete", props: []string{"path", "/d", "method", "DELETE"}},
		httpSpec{name: "get", props: []string{"path", "/g", "method", "GET"}},
		httpSpec{name: "get with an empty body", props: []string{"path", "/b", "method", "GET"}, args: []string{harg("", "", false)}}), props, nil)
	del, get, getBody := <-got, <-got, <-got
	if !strings.Contains(del, "\r\nContent-Length: 0\r\n") {
		t.Errorf("DELETE without arguments (an empty entity in HttpClient):\n%s", del)
	}
	// A nameless argument makes a GET's body (HttpGetWithEntity), empty
	// here: its Content-Type goes out, its "Content-Length: 0" does not, as
	// net/http writes a GET (docs/compatibility.md, "Deliberate differences").
	if !strings.Contains(getBody, "\r\nContent-Type: text/plain; charset=UTF-8\r\n") || strings.Contains(getBody, "Content-Length") {
		t.Errorf("GET with an empty body:\n%s", getBody)
	}
	for _, h := range []string{"Content-Length", "Accept-Encoding", "Content-Type"} {
		if strings.Contains(get, h+":") {
			t.Errorf("GET carries %s:\n%s", h, get)
		}
	}
	if !strings.HasPrefix(get, "GET /g HTTP/1.1\r\nHost: 127.0.0.1:"+port+"\r\nUser-Agent: Apache-HttpClient/4.5.14 (Java/17)\r\n") {
		t.Errorf("GET:\n%s", get)
	}
}

func TestHTTPRequestErrorsAreSamples(t *testing.T) {
	for _, tc := range []struct {
		name          string
		props         []string
		args          []string
		code, message string
	}{
		{name: "undecodable form value", props: []string{"path", "/e", "method", "POST"}, args: []string{harg("a", "100%", false)},
			code: "Non HTTP response code: java.lang.IllegalArgumentException", message: "Non HTTP response message: URLDecoder: Incomplete trailing escape (%) pattern"},
		{name: "space in the query", props: []string{"path", "/e", "method", "GET"}, args: []string{harg("raw", "a b", false)},
			code: "Non HTTP response code: java.net.URISyntaxException", message: "Non HTTP response message: Illegal character in query at index INDEX: http://HOST/e?raw=a b"},
		{name: "unknown charset", props: []string{"path", "/e", "contentEncoding", "no-such-charset"},
			code: "Non HTTP response code: java.nio.charset.UnsupportedCharsetException", message: "Non HTTP response message: no-such-charset"},
		{name: "unknown method", props: []string{"path", "/e", "method", "FETCH"},
			code: "Non HTTP response code: java.lang.IllegalArgumentException", message: "Non HTTP response message: Unexpected method: 'FETCH'"},
		{name: "missing upload", props: []string{"path", "/e", "method", "POST"}, args: []string{harg("a", "1", true)},
			code: "Non HTTP response code: java.io.FileNotFoundException", message: "Non HTTP response message: DIR/nope.txt (No such file or directory)"},
		{name: "upload is a folder", props: []string{"path", "/e", "method", "POST"}, args: []string{harg("a", "1", true)},
			code: "Non HTTP response code: java.io.FileNotFoundException", message: "Non HTTP response message: DIR/sub (Is a directory)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := hNewServer(t, nil)
			spec := httpSpec{name: "s", props: tc.props, args: tc.args}
			dir := t.TempDir()
			switch tc.name {
			case "missing upload":
				spec.files = []string{hfile("nope.txt", "f", "text/plain")}
			case "upload is a folder":
				spec.files = []string{hfile("sub", "f", "text/plain")}
				os.Mkdir(filepath.Join(dir, "sub"), 0o755)
			}
			plan := filepath.Join(dir, "plan.jmx")
			os.WriteFile(plan, []byte(hPlan("", 1, spec)), 0o644)
			sink := runPlan(t, plan, w.props())
			if n := len(w.requests()); n != 0 {
				t.Errorf("%d requests reached the server", n)
			}
			s := sink.samples[0]
			msg := strings.NewReplacer(w.hostPort(), "HOST", dir, "DIR").Replace(s.Message)
			// Java counts from the start of the URL, host and port included.
			msg = strings.Replace(msg, " "+strconv.Itoa(len(w.srv.URL+"/e?raw=a"))+":", " INDEX:", 1)
			if s.Success || s.Code != tc.code || msg != tc.message {
				t.Errorf("sample %v %q %q\nwant %q %q", s.Success, s.Code, msg, tc.code, tc.message)
			}
		})
	}
}

var hBoundary = regexp.MustCompile(`boundary=([-_0-9A-Za-z]{30,40}); charset=`)

func TestHTTPMultipartAndFileBodies(t *testing.T) {
	files := map[string]string{"up.txt": "line one\nline two\n", "data.bin": "\x00\x01binary"}
	for _, tc := range []struct {
		name     string
		props    []string
		args     []string
		files    []string
		children string
		ctype    string // BOUNDARY stands for the random boundary
		body     string
	}{
		{name: "RFC 6532 parts (JMeter's default)", props: []string{"path", "/u", "method", "POST", "DO_MULTIPART_POST", "true"},
			args: []string{harg("title", "Rapport é", false), harg("${nope}", "skipped", false)}, files: []string{hfile("up.txt", "file", "text/plain")},
			ctype: "multipart/form-data; boundary=BOUNDARY; charset=UTF-8",
			body: "--BOUNDARY\r\nContent-Disposition: form-data; name=\"title\"\r\nContent-Type: text/plain; charset=UTF-8\r\n" +
				"Content-Transfer-Encoding: 8bit\r\n\r\nRapport é\r\n--BOUNDARY\r\nContent-Disposition: form-data; name=\"file\"; filename=\"up.txt\"\r\n" +
				"Content-Type: text/plain\r\nContent-Transfer-Encoding: binary\r\n\r\nline one\nline two\n\r\n--BOUNDARY--\r\n"},
		{name: "browser-compatible headers", props: []string{"path", "/u", "method", "POST", "DO_MULTIPART_POST", "true", "BROWSER_COMPATIBLE_MULTIPART", "true"},
			args: []string{harg("a", "1", false)}, files: []string{hfile("data.bin", "blob", "")},
			ctype: "multipart/form-data; boundary=BOUNDARY; charset=UTF-8",
			body: "--BOUNDARY\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--BOUNDARY\r\nContent-Disposition: form-data; name=\"blob\"; filename=\"data.bin\"\r\n" +
				"Content-Type: application/octet-stream\r\n\r\n\x00\x01binary\r\n--BOUNDARY--\r\n"},
		{name: "a file with a parameter name makes the POST multipart", props: []string{"path", "/u", "method", "POST"},
			files: []string{hfile("up.txt", "f", "text/plain")}, children: hHeaders("Content-Type", "application/json"),
			ctype: "multipart/form-data; boundary=BOUNDARY; charset=UTF-8",
			body: "--BOUNDARY\r\nContent-Disposition: form-data; name=\"f\"; filename=\"up.txt\"\r\nContent-Type: text/plain\r\n" +
				"Content-Transfer-Encoding: binary\r\n\r\nline one\nline two\n\r\n--BOUNDARY--\r\n"},
		{name: "a part's own content type", props: []string{"path", "/u", "method", "PUT", "DO_MULTIPART_POST", "true"},
			args: []string{`<elementProp name="j" elementType="HTTPArgument">` + hprop("Argument.name", "j") + hprop("Argument.value", "{}") +
				hprop("Argument.metadata", "=") + hprop("HTTPArgument.content_type", "application/json; charset=UTF-16") + `</elementProp>`},
			ctype: "multipart/form-data; boundary=BOUNDARY; charset=UTF-8",
			body: "--BOUNDARY\r\nContent-Disposition: form-data; name=\"j\"\r\nContent-Type: application/json; charset=UTF-16\r\n" +
				"Content-Transfer-Encoding: 8bit\r\n\r\n{}\r\n--BOUNDARY--\r\n"},
		{name: "one file without a name is the body", props: []string{"path", "/u", "method", "POST"},
			files: []string{hfile("data.bin", "", "application/octet-stream")}, ctype: "application/octet-stream", body: "\x00\x01binary"},
		{name: "… with no Content-Type when it has no MIME type", props: []string{"path", "/u", "method", "PUT"},
			files: []string{hfile("up.txt", "", "")}, ctype: "", body: "line one\nline two\n"},
		{name: "… unless the Header Manager sets one", props: []string{"path", "/u", "method", "PUT"},
			files: []string{hfile("up.txt", "", "text/csv")}, children: hHeaders("Content-Type", "text/plain"), ctype: "text/plain",
			body: "line one\nline two\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := hNewServer(t, nil)
			sink := hRun(t, hPlan("", 1, httpSpec{name: "s", props: tc.props, args: tc.args, files: tc.files, children: tc.children}), w.props(), files)
			reqs := w.requests()
			if len(reqs) != 1 || !sink.samples[0].Success {
				t.Fatalf("%d requests; sample %+v", len(reqs), sink.samples[0])
			}
			r := reqs[0]
			ct := hHeader(r.Header, "Content-Type")
			body := r.Body
			if m := hBoundary.FindStringSubmatch(ct); m != nil {
				ct = strings.ReplaceAll(ct, m[1], "BOUNDARY")
				body = strings.ReplaceAll(body, m[1], "BOUNDARY")
			}
			if ct != tc.ctype {
				t.Errorf("Content-Type %q, want %q", ct, tc.ctype)
			}
			if body != tc.body {
				t.Errorf("body\n%q\nwant\n%q", body, tc.body)
			}
		})
	}
}

func TestHTTPHeaderManagersMergeAsJMeter(t *testing.T) {
	w := hNewServer(t, nil)
	outer := hHeaders("Accept", "outer", "X-Outer", "1", "x-both", "outer", "Content-Length", "99")
	inner := hHeaders("X-Both", "inner", "X-Both", "inner twice", "Host", "example.test")
	hRun(t, hPlan(outer, 1,
		httpSpec{name: "merged", props: []string{"path", "/h"}, children: inner},
		httpSpec{name: "close", props: []string{"path", "/c", "use_keepalive", "false"}},
		httpSpec{name: "port in Host", props: []string{"path", "/p"}, children: hHeaders("Host", "example.test:8443")},
		httpSpec{name: "default port", props: []string{"path", "https://127.0.0.1:1/x"}, children: hHeaders("Host", "example.test:443")},
	), w.props(), nil)
	reqs := w.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	h := reqs[0].Header
	if got := hHeader(h, "X-Both"); got != "inner | inner twice" {
		t.Errorf("X-Both %q: the nearest manager's values, all of them, and not the outer one's", got)
	}
	if got := hHeader(h, "Accept") + "," + hHeader(h, "X-Outer"); got != "outer,1" {
		t.Errorf("outer headers the inner manager lacks: %q", got)
	}
	_, port, _ := net.SplitHostPort(w.hostPort())
	if reqs[0].Host != "example.test:"+port {
		t.Errorf("Host %q: the manager's host with the URL's port", reqs[0].Host)
	}
	if reqs[2].Host != "example.test:8443" {
		t.Errorf("Host %q", reqs[2].Host)
	}
	for _, r := range reqs {
		// HttpClient 4's User-Agent where no manager sets one, and no
		// Accept-Encoding the plan did not ask for
		if r.Header.Get("User-Agent") != "Apache-HttpClient/4.5.14 (Java/17)" || r.Header.Get("Accept-Encoding") != "" {
			t.Errorf("%s: headers the plan did not set: %v", r.Target, r.Header)
		}
	}
	if got := hHeader(reqs[1].Header, "Connection"); got != "close" {
		t.Errorf("use_keepalive=false: Connection %q", got)
	}
	if got := hHeader(reqs[0].Header, "Connection"); got != "keep-alive" {
		t.Errorf("keep-alive: Connection %q", got)
	}
}

// hRedirector answers /r/N with a redirect to /r/N-1 and /r/0 with a page.
func hRedirector(code int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/r/"))
		switch {
		case r.URL.Path == "/loop":
			w.Header().Set("Location", "/loop")
			w.WriteHeader(code)
		case r.URL.Path == "/noloc":
			w.WriteHeader(code)
		case r.URL.Path == "/spaced":
			w.Header().Set("Location", "/r/has space")
			w.WriteHeader(code)
		case err == nil && n > 0:
			w.Header().Set("Location", "/r/"+strconv.Itoa(n-1))
			w.WriteHeader(code)
		default:
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "landed "+r.Method+" "+r.URL.Path)
		}
	}
}

func hSubLine(s *report.Sample, base string) string {
	return strings.ReplaceAll(s.Label+" "+s.Code+" "+s.URL, base, "")
}

func TestHTTPFollowRedirectsAsSubSamples(t *testing.T) {
	for _, tc := range []struct {
		name   string
		code   int
		props  []string
		args   []string
		subs   []string // label code URL of each sub-sample, the server's URL left out
		parent string   // code and URL of the sample
		reqs   []string // method target body of each request
	}{
		{name: "two hops", code: 302, props: []string{"path", "/r/2", "follow_redirects", "true"},
			subs:   []string{"go-0 302 /r/2", "go-1 302 /r/1", "go-2 200 /r/0"},
			parent: "200 /r/0", reqs: []string{"GET /r/2 ", "GET /r/1 ", "GET /r/0 "}},
		{name: "a POST's 307 is not followed", code: 307, props: []string{"path", "/r/1", "method", "POST", "follow_redirects", "true"},
			args: []string{harg("a", "1", true)}, parent: "307 /r/1", // a 307 is a redirect for GET and HEAD only
			reqs: []string{"POST /r/1 a=1"}},
		{name: "303 after a POST", code: 303, props: []string{"path", "/r/1", "method", "POST", "follow_redirects", "true"},
			args: []string{harg("a", "1", true)}, subs: []string{"go-0 303 /r/1", "go-1 200 /r/0"}, parent: "200 /r/0",
			reqs: []string{"POST /r/1 a=1", "GET /r/0 "}},
		{name: "a space in Location", code: 301, props: []string{"path", "/spaced", "follow_redirects", "true"},
			subs: []string{"go-0 301 /spaced", "go-1 200 /r/has%20space"}, parent: "200 /r/has%20space",
			reqs: []string{"GET /spaced ", "GET /r/has%20space "}},
		{name: "not followed", code: 302, props: []string{"path", "/r/1"}, parent: "302 /r/1", reqs: []string{"GET /r/1 "}},
		{name: "redirected automatically", code: 302, props: []string{"path", "/r/2", "auto_redirects", "true"},
			parent: "200 /r/0", reqs: []string{"GET /r/2 ", "GET /r/1 ", "GET /r/0 "}},
		{name: "a 302 without Location", code: 302, props: []string{"path", "/noloc", "follow_redirects", "true"},
			parent: "Non HTTP response code: java.lang.IllegalArgumentException /noloc", reqs: []string{"GET /noloc "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := hNewServer(t, hRedirector(tc.code))
			sink := hRun(t, hPlan("", 1, httpSpec{name: "go", props: tc.props, args: tc.args}), w.props(), nil)
			var reqs []string
			for _, r := range w.requests() {
				reqs = append(reqs, r.Method+" "+r.Target+" "+r.Body)
			}
			if strings.Join(reqs, "\n") != strings.Join(tc.reqs, "\n") {
				t.Errorf("requests\n%s\nwant\n%s", strings.Join(reqs, "\n"), strings.Join(tc.reqs, "\n"))
			}
			s := sink.samples[0]
			var subs []string
			var bytes, sent int64
			for _, sub := range s.Sub {
				subs = append(subs, hSubLine(sub, w.srv.URL))
				bytes += sub.Bytes
				sent += sub.SentBytes
				if sub.Start.Before(s.Start) || sub.End().After(s.End()) {
					t.Errorf("%s lies outside its parent", sub.Label)
				}
			}
			if strings.Join(subs, "\n") != strings.Join(tc.subs, "\n") {
				t.Errorf("sub-samples\n%s\nwant\n%s", strings.Join(subs, "\n"), strings.Join(tc.subs, "\n"))
			}
			if got := strings.ReplaceAll(s.Code+" "+s.URL, w.srv.URL, ""); s.Label != "go" || got != tc.parent {
				t.Errorf("sample %q %q, want %q", s.Label, got, tc.parent)
			}
			if len(s.Sub) > 0 && (s.Bytes != bytes || s.SentBytes != sent) {
				t.Errorf("bytes %d/%d, the sub-samples' add up to %d/%d", s.Bytes, s.SentBytes, bytes, sent)
			}
		})
	}
}

func TestHTTPRedirectLimits(t *testing.T) {
	w := hNewServer(t, hRedirector(302))
	sink := hRun(t, hPlan("", 1,
		httpSpec{name: "follow", props: []string{"path", "/loop", "follow_redirects", "true"}},
		httpSpec{name: "auto", props: []string{"path", "/r/25", "auto_redirects", "true"}},
		httpSpec{name: "circular", props: []string{"path", "/loop", "auto_redirects", "true"}},
	), w.props(), nil)
	f := sink.samples[0]
	if len(f.Sub) != 22 {
		t.Fatalf("follow: %d sub-samples, want the request, 20 redirects and the error", len(f.Sub))
	}
	last := f.Sub[21]
	if last.Label != "follow-21" || last.Code != "Non HTTP response code: java.io.IOException" ||
		last.Message != "Non HTTP response message: Exceeded maximum number of redirects: 20" || last.Success {
		t.Errorf("last sub-sample %s %q %q", last.Label, last.Code, last.Message)
	}
	if f.Code != last.Code || f.Success || f.Sub[20].Code != "302" {
		t.Errorf("follow: %q %v", f.Code, f.Success)
	}
	a := sink.samples[1]
	if len(a.Sub) != 0 || a.Code != "Non HTTP response code: org.apache.http.client.ClientProtocolException" || a.Success {
		t.Errorf("auto: %d subs, %q %q", len(a.Sub), a.Code, a.Message)
	}
	c := sink.samples[2]
	if c.Code != "Non HTTP response code: org.apache.http.client.ClientProtocolException" ||
		!strings.Contains(c.Message, "Circular redirect to '"+w.srv.URL+"/loop'") {
		t.Errorf("circular: %q %q", c.Code, c.Message)
	}
	// 1 + 20 (follow), 21 (auto: HttpClient gives up at the 21st redirect), 2 (circular)
	if n := len(w.requests()); n != 21+21+2 {
		t.Errorf("%d requests", n)
	}
}

// hSitePages serves pages with embedded resources: /page, its frame, a style
// sheet with an @import, images (one missing).
func hSitePages(w http.ResponseWriter, r *http.Request) {
	html := func(s string) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, s)
	}
	switch p := r.URL.Path; {
	case p == "/page":
		html(`<html><head><base href="/site/"><link rel="stylesheet" href="a.css"><script src="/js/app.js"></script>
<script src="data:text/javascript,1"></script></head><body background="img/bg.gif">
<img src="img/1.gif"><IMG SRC="img/1.gif"><img src="javascript:void(0)"><img src=" img/2.gif#top ">
<iframe src="frame.html"></iframe><embed src="movie.swf"><table background="img/table.gif"><tr><td style="background:url('img/td.gif')"></td></tr></table>
<object data="obj.bin"></object><applet code="App.class" codebase="applets"></applet><input type="image" src="img/btn.gif"></body></html>`)
	case p == "/site/frame.html":
		html(`<html><body><img src="img/in-frame.gif"><img src="img/1.gif"></body></html>`)
	case p == "/site/a.css":
		w.Header().Set("Content-Type", "text/css")
		io.WriteString(w, `/* @import "commented.css"; */ @import "b.css"; @import url(c.css) print; body { background: url(img/rule.gif) }`)
	case p == "/site/movie.swf":
		http.NotFound(w, r)
	case strings.HasSuffix(p, ".css"):
		w.Header().Set("Content-Type", "text/css")
		io.WriteString(w, "p {}")
	case p == "/self":
		html(`<iframe src="/self"></iframe>`)
	default:
		w.Header().Set("Content-Type", "image/gif")
		io.WriteString(w, "GIF89a")
	}
}

func TestHTTPEmbeddedResources(t *testing.T) {
	const all = `/page /site/a.css /site/b.css /site/c.css /js/app.js /site/img/bg.gif /site/img/1.gif /site/img/2.gif ` +
		`/site/frame.html /site/img/in-frame.gif /site/img/1.gif /site/movie.swf /site/img/table.gif /site/img/td.gif ` +
		`/site/obj.bin /site/applets/App.class /site/img/btn.gif`
	tree := `page 404 /page
 page-0 200 /page
 page-1 200 /site/a.css
  page-0 200 /site/a.css
  page-1 200 /site/b.css
  page-2 200 /site/c.css
 page-2 200 /js/app.js
 page-3 200 /site/img/bg.gif
 page-4 200 /site/img/1.gif
 page-5 200 /site/img/2.gif#top
 page-6 200 /site/frame.html
  page-0 200 /site/frame.html
  page-1 200 /site/img/in-frame.gif
  page-2 200 /site/img/1.gif
 page-7 404 /site/movie.swf
 page-8 200 /site/img/table.gif
 page-9 200 /site/img/td.gif
 page-10 200 /site/obj.bin
 page-11 200 /site/applets/App.class
 page-12 200 /site/img/btn.gif
`
	serialBytes := map[string][2]int64{}
	for _, tc := range []struct {
		name    string
		props   []string
		reqs    string // targets in order ("" when the order is not fixed)
		set     string // targets, any order
		tree    string
		message string
	}{
		{name: "serial", props: []string{"image_parser", "true"}, reqs: all, tree: tree,
			message: "Embedded resource download error:URL/site/movie.swf code:404 message:Not Found, "},
		{name: "parallel", props: []string{"image_parser", "true", "concurrentDwn", "true", "concurrentPool", "4"}, set: all, tree: tree,
			message: "Embedded resource download error:URL/site/movie.swf code:404 message:Not Found, "},
		{name: "URLs must match", props: []string{"image_parser", "true", "embedded_url_re", ".*/img/[12]\\.gif.*"},
			reqs: "/page /site/img/1.gif /site/img/2.gif", tree: "page 200 /page\n page-0 200 /page\n page-1 200 /site/img/1.gif\n page-2 200 /site/img/2.gif#top\n"},
		{name: "URLs must not match", props: []string{"image_parser", "true", "embedded_url_exclude_re", ".*(gif|css|js|html|swf|bin|class).*"},
			reqs: "/page", tree: "page 200 /page\n page-0 200 /page\n"},
		{name: "off", reqs: "/page", tree: "page 200 /page\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := hNewServer(t, hSitePages)
			sink := hRun(t, hPlan("", 1, httpSpec{name: "page", props: append([]string{"path", "/page"}, tc.props...)}), w.props(), nil)
			var got []string
			for _, r := range w.requests() {
				got = append(got, r.Target)
			}
			if tc.reqs != "" && strings.Join(got, " ") != tc.reqs {
				t.Errorf("requests %s\nwant     %s", strings.Join(got, " "), tc.reqs)
			}
			if tc.set != "" {
				want := strings.Fields(tc.set)
				sort.Strings(want)
				sort.Strings(got)
				if strings.Join(got, " ") != strings.Join(want, " ") {
					t.Errorf("requests %s\nwant     %s", strings.Join(got, " "), strings.Join(want, " "))
				}
			}
			s := sink.samples[0]
			var b strings.Builder
			var walk func(ss []*report.Sample, depth int)
			var bytes int64
			walk = func(ss []*report.Sample, depth int) {
				for _, x := range ss {
					if depth == 1 {
						bytes += x.Bytes
					}
					fmt.Fprintf(&b, "%s%s\n", strings.Repeat(" ", depth), hSubLine(x, w.srv.URL))
					walk(x.Sub, depth+1)
				}
			}
			walk([]*report.Sample{&s}, 0)
			want := tc.tree
			if tc.message == "" {
				want = strings.Replace(want, "page 404", "page 200", 1)
			}
			if got := b.String(); got != strings.Replace(want, "page 404", "page 200", 1) {
				t.Errorf("samples\n%s\nwant\n%s", got, want)
			}
			if msg := strings.ReplaceAll(s.Message, w.srv.URL, "URL"); tc.message != "" && (s.Success || msg != tc.message) {
				t.Errorf("page: %v %q, want the failed resource named", s.Success, msg)
			} else if tc.message == "" && !s.Success {
				t.Errorf("page failed: %q", s.Message)
			}
			if len(s.Sub) > 0 && s.Bytes != bytes {
				t.Errorf("page bytes %d, its sub-samples add up to %d", s.Bytes, bytes)
			}
			// Parallel downloads share connections: each resource still
			// counts the bytes of its own exchange, as a serial one does.
			for _, sub := range s.Sub {
				key := strings.TrimPrefix(sub.URL, w.srv.URL)
				switch tc.name {
				case "serial":
					serialBytes[key] = [2]int64{sub.Bytes, sub.SentBytes}
				case "parallel":
					if got := [2]int64{sub.Bytes, sub.SentBytes}; got != serialBytes[key] {
						t.Errorf("%s: bytes %v in parallel, %v serially", key, got, serialBytes[key])
					}
				}
			}
		})
	}
}

func TestHTTPEmbeddedFramesNestFiveDeep(t *testing.T) {
	w := hNewServer(t, hSitePages)
	sink := hRun(t, hPlan("", 1, httpSpec{name: "self", props: []string{"path", "/self", "image_parser", "true"}}), w.props(), nil)
	s := &sink.samples[0]
	depth := 0
	for len(s.Sub) == 2 && s.Sub[1].Code == "200" {
		s = s.Sub[1]
		depth++
	}
	if n := len(w.requests()); n != 7 || depth != 6 {
		t.Fatalf("%d requests, %d frames deep", n, depth)
	}
	e := s.Sub[len(s.Sub)-1]
	if e.Code != "Non HTTP response code: java.lang.Exception" || e.Message != "Non HTTP response message: Maximum frame/iframe nesting depth exceeded." {
		t.Errorf("deepest frame: %q %q", e.Code, e.Message)
	}
}

func TestHTTPAuthorizationManager(t *testing.T) {
	const user, pass = "alice", "s3cret"
	digestOK := func(r *http.Request) bool {
		v := r.Header.Get("Authorization")
		if !strings.HasPrefix(v, "Digest ") {
			return false
		}
		p := map[string]string{}
		for _, kv := range regexp.MustCompile(`(\w+)=("[^"]*"|[^,]*)`).FindAllStringSubmatch(v, -1) {
			p[kv[1]] = strings.Trim(kv[2], `"`)
		}
		h := func(s string) string { sum := md5.Sum([]byte(s)); return hex.EncodeToString(sum[:]) }
		ha1, ha2 := h(user+":lab:"+pass), h(r.Method+":"+r.URL.RequestURI())
		return p["uri"] == r.URL.RequestURI() && p["opaque"] == "op" &&
			p["response"] == h(ha1+":n0nce:"+p["nc"]+":"+p["cnonce"]+":auth:"+ha2)
	}
	handler := func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasPrefix(r.URL.Path, "/basic") && r.Header.Get("Authorization") == "Basic "+base64.StdEncoding.EncodeToString([]byte(user+":"+pass)):
			io.WriteString(w, "in")
		case strings.HasPrefix(r.URL.Path, "/basic"):
			w.Header().Set("WWW-Authenticate", `Basic realm="lab"`)
			w.WriteHeader(401)
		case digestOK(r):
			io.WriteString(w, "in")
		default:
			w.Header().Set("WWW-Authenticate", `Digest realm="lab", qop="auth,auth-int", nonce="n0nce", opaque="op"`)
			w.WriteHeader(401)
		}
	}
	auth := func(path, mech, realm string) string {
		return `<AuthManager guiclass="AuthPanel" testclass="AuthManager" testname="Auth"><collectionProp name="AuthManager.auth_list">` +
			`<elementProp name="" elementType="Authorization">` + hprop("Authorization.url", "http://${__P(host)}:${__P(port)}"+path) +
			hprop("Authorization.username", user) + hprop("Authorization.password", "${pw}") + hprop("Authorization.realm", realm) +
			hprop("Authorization.mechanism", mech) + `</elementProp></collectionProp></AuthManager><hashTree/>`
	}
	for _, tc := range []struct {
		name, config, path string
		props              map[string]string
		children           string
		code               string
		auths              string // the Authorization schemes sent, request by request
	}{
		{name: "Basic goes with the first request", config: auth("/basic", "BASIC", ""), path: "/basic/x", code: "200", auths: "Basic"},
		{name: "old BASIC_DIGEST entries too", config: auth("/basic", "BASIC_DIGEST", ""), path: "/basic/x", code: "200", auths: "Basic"},
		{name: "not preemptive: after the challenge", config: auth("/basic", "BASIC", ""), path: "/basic/x",
			props: map[string]string{"httpclient4.auth.preemptive": "false"}, code: "200", auths: "-,Basic"},
		{name: "Digest answers the challenge", config: auth("/digest", "DIGEST", ""), path: "/digest/x?q=1", code: "200", auths: "-,Digest"},
		{name: "a URL no entry starts", config: auth("/other", "BASIC", ""), path: "/basic/x", code: "401", auths: "-"},
		{name: "another realm", config: auth("/digest", "DIGEST", "elsewhere"), path: "/digest/x", code: "401", auths: "-"},
		{name: "the Header Manager's Authorization wins", config: auth("/basic", "BASIC", ""), path: "/basic/x",
			children: hHeaders("Authorization", "Bearer t"), code: "401", auths: "Bearer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := hNewServer(t, handler)
			props := w.props()
			props["pw"] = pass
			for k, v := range tc.props {
				props[k] = v
			}
			plan := strings.Replace(hPlan(tc.config, 1, httpSpec{name: "s", props: []string{"path", tc.path}, children: tc.children}),
				`<collectionProp name="Arguments.arguments"/></elementProp></TestPlan>`,
				`<collectionProp name="Arguments.arguments">`+harg("pw", "${__P(pw)}", false)+`</collectionProp></elementProp></TestPlan>`, 1)
			sink := hRun(t, plan, props, nil)
			var auths []string
			for _, r := range w.requests() {
				a, _, _ := strings.Cut(r.Header.Get("Authorization"), " ")
				if a == "" {
					a = "-"
				}
				auths = append(auths, a)
			}
			if got := strings.Join(auths, ","); got != tc.auths || sink.samples[0].Code != tc.code {
				t.Errorf("sent %s, got %s; want %s, %s", got, sink.samples[0].Code, tc.auths, tc.code)
			}
		})
	}
	if err := hCompile(t, hPlan(auth("/", "KERBEROS", ""), 1, httpSpec{name: "s", props: []string{"path", "/"}}), nil); err == nil ||
		!strings.Contains(err.Error(), "Kerberos") {
		t.Errorf("a Kerberos entry: %v", err)
	}
}

func TestHTTPDNSCacheManagerStaticHosts(t *testing.T) {
	w := hNewServer(t, nil)
	_, port, _ := net.SplitHostPort(w.hostPort())
	dns := `<DNSCacheManager guiclass="DNSCachePanel" testclass="DNSCacheManager" testname="DNS">` +
		`<collectionProp name="DNSCacheManager.servers"/><collectionProp name="DNSCacheManager.hosts">` +
		`<elementProp name="app.test" elementType="StaticHost">` + hprop("StaticHost.Name", "app.test") +
		hprop("StaticHost.Address", "127.0.0.2, 127.0.0.1") + `</elementProp></collectionProp>` +
		hprop("DNSCacheManager.clearEachIteration", "true") + hprop("DNSCacheManager.isCustomResolver", "false") + `</DNSCacheManager><hashTree/>`
	sink := hRun(t, hPlan(dns, 2, httpSpec{name: "s", props: []string{"path", "http://app.test:" + port + "/x", "connect_timeout", "300"}}), w.props(), nil)
	reqs := w.requests()
	if len(reqs) != 2 || reqs[0].Host != "app.test:"+port {
		t.Fatalf("requests %+v", reqs)
	}
	for _, s := range sink.samples {
		if !s.Success || s.URL != "http://app.test:"+port+"/x" {
			t.Errorf("sample %s %s %s", s.Code, s.Message, s.URL)
		}
	}
}

func TestHTTPCacheManager(t *testing.T) {
	handler := func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/fresh":
			w.Header().Set("Cache-Control", "max-age=3600")
		case "/etag":
			if r.Header.Get("If-None-Match") == `"v1"` {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			w.Header().Set("ETag", `"v1"`)
			w.Header().Set("Last-Modified", "Mon, 02 Jan 2006 15:04:05 GMT")
		case "/nostore":
			w.Header().Set("Cache-Control", "no-store, max-age=3600")
		}
		io.WriteString(w, "body")
	}
	cache := func(props ...string) string { return hElement("CacheManager", "Cache", props...) }
	for _, tc := range []struct {
		name, config, path string
		loops              int
		props              map[string]string
		reqs               int      // requests that reach the server
		samples            []string // code and message of each sample
		validators         string   // If-None-Match / If-Modified-Since of the last request
	}{
		{name: "a fresh entry answers without a sample", config: cache("useExpires", "true"), path: "/fresh", loops: 3,
			reqs: 1, samples: []string{"200 OK"}},
		{name: "… or with JMeter's 200 (ex cache)", config: cache("useExpires", "true"), path: "/fresh", loops: 2,
			props: map[string]string{"cache_manager.cached_resource_mode": "RETURN_200_CACHE"}, reqs: 1, samples: []string{"200 OK", "200 (ex cache)"}},
		{name: "Expires not used: revalidated", config: cache("useExpires", "false"), path: "/fresh", loops: 2,
			reqs: 2, samples: []string{"200 OK", "200 OK"}},
		{name: "ETag and Last-Modified sent back", config: cache(), path: "/etag", loops: 2,
			reqs: 2, samples: []string{"200 OK", "304 Not Modified"}, validators: `"v1"|Mon, 02 Jan 2006 15:04:05 GMT`},
		{name: "cleared each iteration", config: cache("clearEachIteration", "true"), path: "/etag", loops: 2,
			reqs: 2, samples: []string{"200 OK", "200 OK"}, validators: "|"},
		{name: "no-store is not kept", config: cache("useExpires", "true"), path: "/nostore", loops: 2,
			reqs: 2, samples: []string{"200 OK", "200 OK"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := hNewServer(t, handler)
			props := w.props()
			for k, v := range tc.props {
				props[k] = v
			}
			sink := hRun(t, hPlan(tc.config, tc.loops, httpSpec{name: "s", props: []string{"path", tc.path}}), props, nil)
			reqs := w.requests()
			var samples []string
			for _, s := range sink.samples {
				samples = append(samples, s.Code+" "+s.Message)
			}
			if len(reqs) != tc.reqs || strings.Join(samples, ",") != strings.Join(tc.samples, ",") {
				t.Fatalf("%d requests, samples %q; want %d, %q", len(reqs), samples, tc.reqs, tc.samples)
			}
			last := reqs[len(reqs)-1].Header
			if got := last.Get("If-None-Match") + "|" + last.Get("If-Modified-Since"); tc.validators != "" && got != tc.validators {
				t.Errorf("validators %q, want %q", got, tc.validators)
			}
		})
	}
}

func TestHTTPResponseBodies(t *testing.T) {
	handler := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		if r.URL.Path == "/gz" {
			w.Header().Set("Content-Encoding", "gzip")
			zw := gzip.NewWriter(w)
			io.WriteString(zw, "compressed hello")
			zw.Close()
			return
		}
		io.WriteString(w, "plain hello")
	}
	assertBody := func(text string) string {
		return `<ResponseAssertion guiclass="AssertionGui" testclass="ResponseAssertion" testname="has">` +
			`<collectionProp name="Asserion.test_strings"><stringProp name="1">` + hEsc(text) + `</stringProp></collectionProp>` +
			hprop("Assertion.test_field", "Assertion.response_data") + `<intProp name="Assertion.test_type">16</intProp></ResponseAssertion><hashTree/>`
	}
	sum := md5.Sum([]byte("plain hello"))
	w := hNewServer(t, handler)
	sink := hRun(t, hPlan("", 1,
		httpSpec{name: "gzip", props: []string{"path", "/gz"}, children: hHeaders("Accept-Encoding", "gzip") + assertBody("compressed hello")},
		httpSpec{name: "md5", props: []string{"path", "/p", "md5", "true"}, children: assertBody(hex.EncodeToString(sum[:]))},
	), w.props(), nil)
	for _, s := range sink.samples {
		if !s.Success {
			t.Errorf("%s: %s", s.Label, s.FailureMessage)
		}
	}
	if got := w.requests()[0].Header.Get("Accept-Encoding"); got != "gzip" {
		t.Errorf("Accept-Encoding %q", got)
	}
}

// dnsServer answers A queries for any name with 127.0.0.1 over UDP and
// counts them.
func dnsServer(t *testing.T) (addr string, queries *atomic.Int64) {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	queries = new(atomic.Int64)
	go func() {
		buf := make([]byte, 512)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			var p dnsmessage.Parser
			h, err := p.Start(buf[:n])
			if err != nil {
				continue
			}
			q, err := p.Question()
			if err != nil {
				continue
			}
			queries.Add(1)
			b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true})
			b.StartQuestions()
			b.Question(q)
			b.StartAnswers()
			if q.Type == dnsmessage.TypeA {
				b.AResource(dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 60},
					dnsmessage.AResource{A: [4]byte{127, 0, 0, 1}})
			}
			msg, _ := b.Finish()
			pc.WriteTo(msg, from)
		}
	}()
	return pc.LocalAddr().String(), queries
}

func TestHTTPDNSCacheManagerCustomServer(t *testing.T) {
	w := hNewServer(t, nil)
	_, port, _ := net.SplitHostPort(w.hostPort())
	dnsAddr, queries := dnsServer(t)
	dns := `<DNSCacheManager guiclass="DNSCachePanel" testclass="DNSCacheManager" testname="DNS">` +
		`<collectionProp name="DNSCacheManager.servers"><stringProp name="1">` + dnsAddr + `</stringProp></collectionProp>` +
		hprop("DNSCacheManager.clearEachIteration", "false") + hprop("DNSCacheManager.isCustomResolver", "true") + `</DNSCacheManager><hashTree/>`
	sink := hRun(t, hPlan(dns, 3, httpSpec{name: "s", props: []string{"path", "http://api.example.invalid:" + port + "/x",
		"use_keepalive", "false"}}), w.props(), nil)
	if len(w.requests()) != 3 {
		t.Fatalf("%d requests reached the server", len(w.requests()))
	}
	for _, s := range sink.samples {
		if !s.Success {
			t.Errorf("%s %s", s.Code, s.Message)
		}
	}
	// The virtual user keeps the answer: one lookup (A only) for three
	// connections.
	if n := queries.Load(); n != 1 {
		t.Errorf("%d DNS queries, want 1", n)
	}
}

// Without renaming (functional test mode, subresults.disable_renaming), a
// sub-sample is labelled with its URL, as before JMeter 5.
func TestHTTPSubSamplesKeepTheirURLs(t *testing.T) {
	w := hNewServer(t, hRedirector(302))
	props := w.props()
	props["subresults.disable_renaming"] = "true"
	sink := hRun(t, hPlan("", 1, httpSpec{name: "go", props: []string{"path", "/r/1", "follow_redirects", "true"}}), props, nil)
	s := sink.samples[0]
	var labels []string
	for _, sub := range s.Sub {
		labels = append(labels, strings.TrimPrefix(sub.Label, w.srv.URL))
	}
	if s.Label != "go" || strings.Join(labels, " ") != "/r/1 /r/0" {
		t.Errorf("%s: %q", s.Label, labels)
	}
}
