package engine

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

const http2Class = "com.blazemeter.jmeter.http2.sampler.HTTP2Sampler"

// h2Req is what a loopback server saw of one request.
type h2Req struct {
	proto, method, path string
	query               url.Values
	header              http.Header
	body                string
	close               bool
}

// h2Server is a loopback server over TLS (a test certificate), with
// HTTP/2 offered by ALPN or not, or in clear text, accepting HTTP/2 with
// prior knowledge or not. It records every request, then answers with h.
type h2Server struct {
	mu   sync.Mutex
	reqs []h2Req
	srv  *httptest.Server
}

func newH2Server(t *testing.T, tlsOn, http2On bool, h http.HandlerFunc) *h2Server {
	t.Helper()
	s := &h2Server{}
	s.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.reqs = append(s.reqs, h2Req{proto: r.Proto, method: r.Method, path: r.URL.Path, query: r.URL.Query(),
			header: r.Header.Clone(), body: string(body), close: r.Close})
		s.mu.Unlock()
		h(w, r)
	}))
	p := new(http.Protocols)
	p.SetHTTP1(true)
	if tlsOn {
		p.SetHTTP2(http2On)
		s.srv.EnableHTTP2 = http2On
	} else {
		p.SetUnencryptedHTTP2(http2On)
	}
	s.srv.Config.Protocols = p
	if tlsOn {
		s.srv.StartTLS()
	} else {
		s.srv.Start()
	}
	t.Cleanup(s.srv.Close)
	return s
}

func (s *h2Server) requests() []h2Req {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]h2Req(nil), s.reqs...)
}

func (s *h2Server) props() map[string]string { return hostPortProps(s.srv.URL) }

const cookieManager = `<CookieManager guiclass="CookiePanel" testclass="CookieManager" testname="Cookies">` +
	`<collectionProp name="CookieManager.cookies"/><boolProp name="CookieManager.clearEachIteration">false</boolProp></CookieManager><hashTree/>`

// The HTTP/2 Sampler goes over HTTP/2 where TLS's ALPN agrees, over
// HTTP/1.1 elsewhere, and over HTTP/2 in clear text when asked for prior
// knowledge; the Header, Cookie Manager and arguments apply as to the HTTP
// Request, and "Use KeepAlive" off changes nothing, as in the plugin.
func TestHTTP2SamplerProtocols(t *testing.T) {
	for _, tc := range []struct {
		name          string
		tls, serverH2 bool
		props         []string
		want          string // the protocol the server saw
	}{
		{name: "https, ALPN agrees", tls: true, serverH2: true, want: "HTTP/2.0"},
		{name: "https, a server without HTTP/2", tls: true, want: "HTTP/1.1"},
		{name: "http", serverH2: true, want: "HTTP/1.1"},
		{name: "http, prior knowledge", serverH2: true, props: []string{"HTTP2Sampler.http2PriorKnowledge", "true"}, want: "HTTP/2.0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newH2Server(t, tc.tls, tc.serverH2, func(w http.ResponseWriter, r *http.Request) {
				http.SetCookie(w, &http.Cookie{Name: "sid", Value: "7"})
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{"id":1}`)
			})
			proto := "http"
			if tc.tls {
				proto = "https"
			}
			spec := httpSpec{class: http2Class, name: "Seek",
				props: append([]string{"method", "GET", "protocol", proto, "path", "/api/v1/samples", "use_keepalive", "false",
					"HTTP2Sampler.http1_upgrade", "false"}, tc.props...),
				args: []string{harg("query", "test jmeter", true), harg("limit", "20", false)}}
			sink := hRun(t, hPlan(hHeaders("X-Scope", "urn:sample:list")+cookieManager, 2, spec), srv.props(), nil)
			reqs := srv.requests()
			if len(reqs) != 2 || len(sink.samples) != 2 {
				t.Fatalf("%d requests, %d samples; want 2 and 2", len(reqs), len(sink.samples))
			}
			for i, r := range reqs {
				if r.proto != tc.want {
					t.Errorf("request %d went over %s, want %s", i, r.proto, tc.want)
				}
				if r.method != "GET" || r.path != "/api/v1/samples" || r.query.Get("query") != "test jmeter" || r.query.Get("limit") != "20" {
					t.Errorf("request %d: %s %s %v", i, r.method, r.path, r.query)
				}
				if r.header.Get("X-Scope") != "urn:sample:list" || r.close {
					t.Errorf("request %d: headers %v, Connection: close %v", i, r.header, r.close)
				}
				for _, own := range []string{"User-Agent", "Accept-Encoding"} {
					if _, ok := r.header[own]; ok {
						t.Errorf("request %d carries a %s of the client's own", i, own)
					}
				}
			}
			if got := reqs[1].header.Get("Cookie"); got != "sid=7" {
				t.Errorf("the second request's Cookie = %q, want sid=7", got)
			}
			for _, s := range sink.samples {
				if s.Label != "Seek" || s.Code != "200" || !s.Success || s.Bytes <= int64(len(`{"id":1}`)) || s.SentBytes <= 0 || len(s.Sub) != 0 {
					t.Errorf("sample %+v", s)
				}
			}
		})
	}
}

// The plugin's differences from the HTTP Request in what it sends: a
// body without a Content-Type from the plan gets Jetty's default, Basic
// credentials wait for the challenge, and a method its client does not
// send fails the sample before anything is sent.
func TestHTTP2SamplerBodiesAuthMethods(t *testing.T) {
	srv := newH2Server(t, true, true, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/basic" {
			if u, p, ok := r.BasicAuth(); !ok || u != "ann" || p != "secret" {
				w.Header().Set("WWW-Authenticate", `Basic realm="lab"`)
				w.WriteHeader(401)
				return
			}
		}
		io.WriteString(w, "ok")
	})
	raw := func(name, path, method string, children string) httpSpec {
		return httpSpec{class: http2Class, name: name, children: children,
			props: []string{"method", method, "protocol", "https", "path", path, "postBodyRaw", "true"},
			args:  []string{hargMeta("", `{"field1":"x"}`, "=", false)}}
	}
	auth := `<AuthManager guiclass="AuthPanel" testclass="AuthManager" testname="Auth"><collectionProp name="AuthManager.auth_list">` +
		`<elementProp name="" elementType="Authorization">` + hprop("Authorization.url", "https://${__P(host)}:${__P(port)}/basic") +
		hprop("Authorization.username", "ann") + hprop("Authorization.password", "secret") + hprop("Authorization.realm", "") +
		hprop("Authorization.mechanism", "BASIC") + `</elementProp></collectionProp></AuthManager><hashTree/>`
	sink := hRun(t, hPlan(auth, 1,
		raw("no type", "/create", "POST", ""),
		raw("JSON", "/create", "PUT", hHeaders("Content-Type", "application/json")),
		httpSpec{class: http2Class, name: "basic", props: []string{"method", "GET", "protocol", "https", "path", "/basic"}},
		httpSpec{class: http2Class, name: "HEAD", props: []string{"method", "HEAD", "protocol", "https", "path", "/head"}},
	), srv.props(), nil)
	reqs := srv.requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4: %+v", len(reqs), reqs)
	}
	for i, want := range []struct{ method, ctype, body string }{
		{"POST", "application/octet-stream", `{"field1":"x"}`},
		{"PUT", "application/json", `{"field1":"x"}`},
	} {
		r := reqs[i]
		if r.proto != "HTTP/2.0" || r.method != want.method || r.header.Get("Content-Type") != want.ctype || r.body != want.body {
			t.Errorf("request %d: %s %s Content-Type %q body %q", i, r.proto, r.method, r.header.Get("Content-Type"), r.body)
		}
	}
	if reqs[2].header.Get("Authorization") != "" || reqs[3].header.Get("Authorization") == "" {
		t.Errorf("Basic credentials: first %q, then %q; want none, then the answer",
			reqs[2].header.Get("Authorization"), reqs[3].header.Get("Authorization"))
	}
	if len(sink.samples) != 4 {
		t.Fatalf("%d samples", len(sink.samples))
	}
	if s := sink.samples[2]; s.Code != "200" || !s.Success {
		t.Errorf("the challenged request: %s %s", s.Code, s.Message)
	}
	s := sink.samples[3]
	if s.Success || s.Code != "Non HTTP response code: java.lang.UnsupportedOperationException" ||
		s.Message != "Non HTTP response message: Method HEAD is not supported" {
		t.Errorf("HEAD: %v %s %s", s.Success, s.Code, s.Message)
	}
}

// parallelSpec is a Parallel HTTP Requests sampler with its URL table.
func parallelSpec(name string, props []string, urls ...string) string {
	var b strings.Builder
	b.WriteString(`<com.blazemeter.jmeter.http.ParallelHTTPSampler guiclass="com.blazemeter.jmeter.http.ParallelHTTPSamplerGui" ` +
		`testclass="com.blazemeter.jmeter.http.ParallelHTTPSampler" testname="` + hEsc(name) + `">` +
		`<elementProp name="HTTPsampler.Arguments" elementType="Arguments"><collectionProp name="Arguments.arguments"/></elementProp>`)
	for i := 0; i+1 < len(props); i += 2 {
		b.WriteString(hprop(props[i], props[i+1]))
	}
	b.WriteString(`<collectionProp name="urls">`)
	for i, u := range urls {
		b.WriteString(`<collectionProp name="r` + string(rune('0'+i)) + `">` + hprop("c", u) + `</collectionProp>`)
	}
	b.WriteString(`</collectionProp></com.blazemeter.jmeter.http.ParallelHTTPSampler><hashTree/>`)
	return b.String()
}

// parallelPlan is one user running the sampler once, with the plan's
// configs.
func parallelPlan(configs, sampler string) string {
	p := hPlan(configs, 1)
	i := strings.LastIndex(p, `</hashTree></hashTree></hashTree>`)
	return p[:i] + sampler + p[i:]
}

// Parallel HTTP Requests fetches its URLs at once, at most the pool size
// at a time, as sub-samples of one sample of its own.
func TestParallelHTTPRequests(t *testing.T) {
	const pool = 2
	var mu sync.Mutex
	arrivals, inFlight, most := 0, 0, 0
	full := make(chan struct{})
	srv := hNewServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		arrivals++
		inFlight++
		most = max(most, inFlight)
		if arrivals == pool {
			close(full)
		}
		first := arrivals <= pool
		mu.Unlock()
		if first {
			// The first requests wait for each other: downloads one at a
			// time would show as one in flight (after a while, not a hang).
			select {
			case <-full:
			case <-time.After(5 * time.Second):
			}
		}
		mu.Lock()
		inFlight-- // before the answer, which frees the lane for the next URL
		mu.Unlock()
		io.WriteString(w, "ok "+r.URL.Path)
	})
	base := "http://" + srv.hostPort()
	vars := `<Arguments guiclass="ArgumentsPanel" testclass="Arguments" testname="Vars"><collectionProp name="Arguments.arguments">` +
		`<elementProp name="page" elementType="Argument">` + hprop("Argument.name", "page") + hprop("Argument.value", "/three") +
		`</elementProp></collectionProp></Arguments><hashTree/>`
	sampler := parallelSpec("All at once",
		[]string{"HTTPSampler.concurrentDwn", "true", "HTTPSampler.concurrentPool", "2", "HTTPSampler.image_parser", "true"},
		base+"/one", base+"/two", base+"${page}", base+"/four")
	sink := hRun(t, parallelPlan(hHeaders("X-Plan", "p")+vars, sampler), srv.props(), nil)
	if len(sink.samples) != 1 {
		t.Fatalf("%d samples, want 1", len(sink.samples))
	}
	s := sink.samples[0]
	if s.Label != "All at once" || s.URL != "http://parallel-urls-list" || !s.Success || len(s.Sub) != 4 {
		t.Fatalf("parent %q at %s, success %v, %d sub-samples", s.Label, s.URL, s.Success, len(s.Sub))
	}
	var bytes int64
	for i, path := range []string{"/one", "/two", "/three", "/four"} {
		sub := s.Sub[i]
		want := "All at once-" + string(rune('0'+i))
		if sub.Label != want || sub.URL != base+path || sub.Code != "200" || !sub.Success {
			t.Errorf("sub-sample %d: %q %s %s", i, sub.Label, sub.URL, sub.Code)
		}
		if sub.End().After(s.End()) {
			t.Errorf("sub-sample %d ends after its parent", i)
		}
		bytes += sub.Bytes
	}
	if s.Bytes <= bytes {
		t.Errorf("parent bytes %d, its sub-samples' %d: the parent adds its page", s.Bytes, bytes)
	}
	if most != pool {
		t.Errorf("at most %d requests in flight, want the pool size %d", most, pool)
	}
	for _, r := range srv.requests() {
		if r.Header.Get("X-Plan") != "p" {
			t.Errorf("%s without the Header Manager's header", r.Target)
		}
	}

	// A URL that fails fails the parent, as a failed embedded resource does.
	srv2 := hNewServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			w.WriteHeader(404)
			return
		}
		io.WriteString(w, "ok")
	})
	base2 := "http://" + srv2.hostPort()
	sink = hRun(t, parallelPlan("", parallelSpec("Some fail", nil, base2+"/ok", base2+"/missing")), srv2.props(), nil)
	s = sink.samples[0]
	if s.Success || !strings.HasPrefix(s.Message, "Embedded resource download error:"+base2+"/missing code:404") || len(s.Sub) != 2 {
		t.Errorf("parent of a failed URL: success %v, %q, %d sub-samples", s.Success, s.Message, len(s.Sub))
	}

	// No URL: an empty sample that succeeds, as in the plugin.
	sink = hRun(t, parallelPlan("", parallelSpec("Empty", nil)), srv2.props(), nil)
	if s = sink.samples[0]; !s.Success || len(s.Sub) != 0 || s.Code != "" {
		t.Errorf("no URL: success %v, code %q, %d sub-samples", s.Success, s.Code, len(s.Sub))
	}
}

// The HTTP/2 Sampler's redirects and embedded resources go over HTTP/2
// too, the resources in parallel on the user's one connection.
func TestHTTP2SamplerRedirectsAndResources(t *testing.T) {
	srv := newH2Server(t, true, true, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/old":
			http.Redirect(w, r, "/page", http.StatusFound)
		case "/page":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<html><body><img src="/a.png"><img src="/b.png"><script src="/c.js"></script></body></html>`)
		default:
			w.Header().Set("Content-Type", "image/png")
			io.WriteString(w, "png")
		}
	})
	spec := httpSpec{class: http2Class, name: "Page", props: []string{"method", "GET", "protocol", "https", "path", "/old",
		"follow_redirects", "true", "image_parser", "true", "concurrentDwn", "true", "concurrentPool", "3"}}
	sink := hRun(t, hPlan("", 1, spec), srv.props(), nil)
	reqs := srv.requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests, want 5 (redirect, page, 3 resources): %+v", len(reqs), reqs)
	}
	for _, r := range reqs {
		if r.proto != "HTTP/2.0" {
			t.Errorf("%s went over %s", r.path, r.proto)
		}
	}
	s := sink.samples[0]
	if !s.Success || s.Code != "200" || len(s.Sub) != 5 {
		t.Fatalf("sample %s %v with %d sub-samples, want 5", s.Code, s.Success, len(s.Sub))
	}
	for i, want := range []string{"/old", "/page", "/a.png", "/b.png", "/c.js"} {
		if sub := s.Sub[i]; !strings.HasSuffix(sub.URL, want) || sub.Label != "Page-"+string(rune('0'+i)) {
			t.Errorf("sub-sample %d: %s %s, want …%s", i, sub.Label, sub.URL, want)
		}
	}
}

// The HTTP/1.1 upgrade to h2c is not offered: one warning, which --strict
// makes a refusal.
func TestHTTP2SamplerUpgradeWarns(t *testing.T) {
	spec := func(upgrade string) string {
		return hPlan("", 1, httpSpec{class: http2Class, name: "Up", props: []string{"method", "GET", "path", "/", "HTTP2Sampler.http1_upgrade", upgrade}})
	}
	props := map[string]string{"host": "127.0.0.1", "port": "1"}
	p, err := compilePlanXML(t, spec("true"), props)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Warnings) != 1 || p.Warnings[0].Path != "Plan › Users › Up" || !strings.Contains(p.Warnings[0].Message, "h2c") {
		t.Errorf("warnings %+v, want one of Plan › Users › Up about h2c", p.Warnings)
	}
	if _, err := compilePlanXMLOpts(t, spec("true"), Options{Props: props, Strict: true}); err == nil || !strings.Contains(err.Error(), "h2c") {
		t.Errorf("--strict: %v, want a refusal", err)
	}
	p, err = compilePlanXML(t, spec("false"), props)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Warnings) != 0 {
		t.Errorf("without the upgrade: warnings %+v", p.Warnings)
	}
}
