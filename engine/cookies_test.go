package engine

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
)

// xCookie is one of a Cookie Manager's user-defined cookies, as JMeter's
// GUI saves it.
func xCookie(name, value, domain, path string, secure bool, expires int64) string {
	return `<elementProp name="` + name + `" elementType="Cookie" testname="` + name + `">` +
		sp("Cookie.value", value) + sp("Cookie.domain", domain) + sp("Cookie.path", path) + bp("Cookie.secure", secure) +
		fmt.Sprintf(`<longProp name="Cookie.expires">%d</longProp>`, expires) +
		bp("Cookie.path_specified", true) + bp("Cookie.domain_specified", true) + `</elementProp>`
}

func xCookieManager(clear bool, cookies ...string) string {
	return xmlEl("CookieManager", "cookies", `<collectionProp name="CookieManager.cookies">`+strings.Join(cookies, "")+`</collectionProp>`+
		bp("CookieManager.clearEachIteration", clear))
}

// A Cookie Manager's user-defined cookies start every user's jar, come
// back when the jar is cleared, and are sent where JMeter 5.6 sends them:
// to their host (or domain), under their path, over HTTPS only when
// secure, until they expire; their ${} fields are evaluated at each request.
func TestUserDefinedCookies(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		host, _, _ := net.SplitHostPort(r.Host)
		seen = append(seen, scheme+" "+host+r.URL.Path+": "+r.Header.Get("Cookie"))
		mu.Unlock()
		if r.URL.Path == "/set" {
			http.SetCookie(w, &http.Cookie{Name: "server", Value: "1", Path: "/"})
		}
		if r.URL.Path == "/setsecure" {
			http.SetCookie(w, &http.Cookie{Name: "ss", Value: "1", Path: "/", Secure: true})
			http.SetCookie(w, &http.Cookie{Name: "plain", Value: "1", Path: "/"})
		}
	})
	plain := httptest.NewServer(handler)
	defer plain.Close()
	tls := httptest.NewTLSServer(handler)
	defer tls.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(plain.URL, "http://"))
	_, tlsPort, _ := net.SplitHostPort(strings.TrimPrefix(tls.URL, "https://"))
	// Host names the DNS Cache Manager maps to the loopback, for domain
	// cookies.
	static := func(name string) string {
		return `<elementProp name="` + name + `" elementType="StaticHost">` + sp("StaticHost.Name", name) + sp("StaticHost.Address", "127.0.0.1") + `</elementProp>`
	}
	dns := xmlEl("DNSCacheManager", "DNS", `<collectionProp name="DNSCacheManager.servers"/><collectionProp name="DNSCacheManager.hosts">`+
		static("app.test")+static("www.app.test")+`</collectionProp>`+bp("DNSCacheManager.isCustomResolver", false))
	req := func(scheme, host, path string) string {
		p := port
		if scheme == "https" {
			p = tlsPort
		}
		return xmlEl("HTTPSamplerProxy", scheme+" "+host+path, sp("HTTPSampler.domain", host)+sp("HTTPSampler.port", p)+
			sp("HTTPSampler.protocol", scheme)+sp("HTTPSampler.path", path)+sp("HTTPSampler.method", "GET")+bp("HTTPSampler.use_keepalive", true))
	}
	for _, tt := range []struct {
		name     string
		udv      string
		loops    string
		manager  string
		requests []string // scheme and path
		want     []string
	}{
		{name: "exact domain",
			manager:  xCookieManager(false, xCookie("here", "1", "app.test", "/", false, 0), xCookie("elsewhere", "2", "example.org", "/", false, 0), xCookie("nodomain", "3", "", "/", false, 0)),
			requests: []string{"http app.test/"},
			want:     []string{"http app.test/: here=1"}},
		{name: "domain cookie on subdomains",
			manager:  xCookieManager(false, xCookie("dom", "1", ".app.test", "/", false, 0), xCookie("www", "2", "www.app.test", "/", false, 0)),
			requests: []string{"http app.test/", "http www.app.test/"},
			want:     []string{"http app.test/: dom=1", "http www.app.test/: dom=1; www=2"}},
		{name: "loopback address",
			manager:  xCookieManager(false, xCookie("ip", "1", "127.0.0.1", "/", false, 0), xCookie("ipsec", "2", "127.0.0.1", "/", true, 0)),
			requests: []string{"http 127.0.0.1/", "http app.test/"},
			want:     []string{"http 127.0.0.1/: ip=1", "http app.test/: "}},
		{name: "secure not sent to localhost over http",
			manager:  xCookieManager(false, xCookie("sec", "1", "localhost", "/", true, 0), xCookie("plain", "2", "localhost", "/", false, 0)),
			requests: []string{"http localhost/", "https localhost/"},
			want:     []string{"http localhost/: plain=2", "https localhost/: sec=1; plain=2"}},
		{name: "a server's secure cookie not sent to the loopback over http",
			manager:  xCookieManager(false),
			requests: []string{"http 127.0.0.1/setsecure", "http 127.0.0.1/"},
			want:     []string{"http 127.0.0.1/setsecure: ", "http 127.0.0.1/: plain=1"}},
		{name: "path prefix",
			manager:  xCookieManager(false, xCookie("app", "1", "app.test", "/app", false, 0)),
			requests: []string{"http app.test/app", "http app.test/app/x", "http app.test/other", "http app.test/apple"},
			want:     []string{"http app.test/app: app=1", "http app.test/app/x: app=1", "http app.test/other: ", "http app.test/apple: "}},
		{name: "secure only over https",
			manager:  xCookieManager(false, xCookie("sec", "1", "app.test", "/", true, 0), xCookie("plain", "2", "app.test", "/", false, 0)),
			requests: []string{"http app.test/", "https app.test/"},
			want:     []string{"http app.test/: plain=2", "https app.test/: sec=1; plain=2"}},
		{name: "expired never sent, expires 0 for the session",
			manager:  xCookieManager(false, xCookie("old", "1", "app.test", "/", false, 1000), xCookie("session", "2", "app.test", "/", false, 0), xCookie("later", "3", "app.test", "/", false, 4102444800)),
			requests: []string{"http app.test/"},
			want:     []string{"http app.test/: session=2; later=3"}},
		{name: "clearEachIteration keeps the user-defined ones",
			loops:    "2",
			manager:  xCookieManager(true, xCookie("mine", "1", "app.test", "/", false, 0)),
			requests: []string{"http app.test/set", "http app.test/check"},
			want:     []string{"http app.test/set: mine=1", "http app.test/check: mine=1; server=1", "http app.test/set: mine=1", "http app.test/check: mine=1; server=1"}},
		{name: "variables evaluated at each request",
			udv:      xUDV("v", "abc"),
			loops:    "2",
			manager:  xCookieManager(false, xCookie("var", "${v}", "app.test", "/", false, 0), xCookie("iter", "${__jm__G__idx}", "app.test", "/", false, 0)),
			requests: []string{"http app.test/"},
			want:     []string{"http app.test/: var=abc; iter=0", "http app.test/: var=abc; iter=1"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mu.Lock()
			seen = nil
			mu.Unlock()
			var kids []string
			kids = append(kids, tt.manager, dns)
			for _, r := range tt.requests {
				scheme, url, _ := strings.Cut(r, " ")
				host, path, _ := strings.Cut(url, "/")
				kids = append(kids, req(scheme, host, "/"+path))
			}
			runPlanXML(t, xPlan(tt.udv, xGroup("G", groupOpts{loops: tt.loops}, kids...)), nil)
			mu.Lock()
			defer mu.Unlock()
			if !slices.Equal(seen, tt.want) {
				t.Errorf("server saw\n%s\nwant\n%s", strings.Join(seen, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// A Cookie Manager's own cookies are evaluated once per sample, before
// its first request, as JMeter evaluates them once per sampler: the page
// and every embedded resource (downloaded one by one or by parallel
// lanes) carry the same value, and no lane evaluates the user's
// templates or touches its seeds (run with -race).
func TestUserCookiesOncePerSample(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.URL.Path+": "+r.Header.Get("Cookie"))
		mu.Unlock()
		if r.URL.Path == "/" {
			w.Header().Set("Content-Type", "text/html")
			var b strings.Builder
			b.WriteString("<html><body>")
			for i := range 12 {
				fmt.Fprintf(&b, `<img src="/i%d.png">`, i)
			}
			b.WriteString("</body></html>")
			w.Write([]byte(b.String()))
			return
		}
		w.Header().Set("Content-Type", "image/png")
	}))
	defer srv.Close()
	host, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	for _, tt := range []struct {
		name  string
		props string
	}{
		{"serial", bp("HTTPSampler.image_parser", true)},
		{"parallel", bp("HTTPSampler.image_parser", true) + bp("HTTPSampler.concurrentDwn", true) + sp("HTTPSampler.concurrentPool", "6")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mu.Lock()
			seen = nil
			mu.Unlock()
			manager := xCookieManager(false, xCookie("n", "${__counter(TRUE,)}", host, "/", false, 0))
			page := xmlEl("HTTPSamplerProxy", "page", sp("HTTPSampler.domain", host)+sp("HTTPSampler.port", port)+
				sp("HTTPSampler.path", "/")+sp("HTTPSampler.method", "GET")+bp("HTTPSampler.use_keepalive", true)+tt.props)
			runPlanXML(t, xPlan("", xGroup("G", groupOpts{loops: "2"}, manager, page)), nil)
			mu.Lock()
			defer mu.Unlock()
			if len(seen) != 26 {
				t.Fatalf("server saw %d requests, want 26:\n%s", len(seen), strings.Join(seen, "\n"))
			}
			for i, s := range seen {
				_, got, _ := strings.Cut(s, ": ")
				if want := fmt.Sprintf("n=%d", i/13+1); got != want {
					t.Errorf("request %d, %s: cookie %q, want %q", i, s, got, want)
				}
			}
		})
	}
}
