package httpx

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// The jar against real servers on the loopback, over HTTP and HTTPS: each
// step asks the server for Set-Cookie lines (X-Set) and records the
// Cookie header the request carried. Host names reach the loopback
// through the request's resolver, so that domains can be told apart.
func TestJarMatching(t *testing.T) {
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, v := range r.Header.Values("X-Set") {
			w.Header().Add("Set-Cookie", v)
		}
		w.Header().Set("X-Got", r.Header.Get("Cookie"))
		if r.URL.Path == "/redirect" {
			w.Header().Add("Set-Cookie", "r=1")
			http.Redirect(w, r, "/landed", http.StatusFound)
		}
	})
	plain := httptest.NewServer(handler)
	defer plain.Close()
	secure := httptest.NewTLSServer(handler)
	defer secure.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(plain.URL, "http://"))
	_, tlsPort, _ := net.SplitHostPort(strings.TrimPrefix(secure.URL, "https://"))
	past := time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat)

	type step struct {
		url  string // scheme://host/path, the port added
		set  []string
		own  string // the plan's own Cookie header (a Header Manager's)
		want string // the Cookie header sent
	}
	for _, tt := range []struct {
		name  string
		steps []step
	}{
		{"host-only cookie stays on its host", []step{
			{url: "http://app.test/", set: []string{"a=1"}},
			{url: "http://app.test/x", want: "a=1"},
			{url: "http://www.app.test/", want: ""},
		}},
		{"domain cookie on the domain and its subdomains", []step{
			{url: "http://www.app.test/", set: []string{"d=1; Domain=.App.Test"}},
			{url: "http://app.test/", want: "d=1"},
			{url: "http://a.b.app.test/", want: "d=1"},
			{url: "http://otherapp.test/", want: ""},
		}},
		{"a domain that does not cover the host is refused", []step{
			{url: "http://app.test/", set: []string{"x=1; Domain=other.test", "y=1; Domain=www.app.test", "z=1"}},
			{url: "http://other.test/", want: ""},
			{url: "http://www.app.test/", want: ""},
			{url: "http://app.test/", want: "z=1"},
		}},
		{"an IP address only as itself", []step{
			{url: "http://127.0.0.1/", set: []string{"ip=1; Domain=127.0.0.1", "bad=1; Domain=0.0.1"}},
			{url: "http://127.0.0.1/", want: "ip=1"},
			{url: "http://app.test/", want: ""},
		}},
		{"path prefix on segment bounds", []step{
			{url: "http://app.test/", set: []string{"p=1; Path=/app"}},
			{url: "http://app.test/app", want: "p=1"},
			{url: "http://app.test/app/x", want: "p=1"},
			{url: "http://app.test/apple", want: ""},
			{url: "http://app.test/", want: ""},
		}},
		{"a trailing slash in the cookie's path", []step{
			{url: "http://app.test/", set: []string{"p=1; Path=/app/"}},
			{url: "http://app.test/app", want: "p=1"},
			{url: "http://app.test/app/x", want: "p=1"},
		}},
		{"the default path is the request's folder", []step{
			{url: "http://app.test/dir/page", set: []string{"f=1"}},
			{url: "http://app.test/dir/other", want: "f=1"},
			{url: "http://app.test/dir", want: "f=1"},
			{url: "http://app.test/", want: ""},
		}},
		{"secure only over https, the loopback included", []step{
			{url: "https://localhost/", set: []string{"s=1; Secure", "p=2"}},
			{url: "http://localhost/", want: "p=2"},
			{url: "https://localhost/", want: "s=1; p=2"},
			{url: "http://127.0.0.1/", want: ""},
		}},
		{"same name, domain and path replaces, and goes last", []step{
			{url: "http://app.test/", set: []string{"a=1", "b=1"}},
			{url: "http://app.test/", set: []string{"a=2"}, want: "a=1; b=1"},
			{url: "http://app.test/", want: "b=1; a=2"},
		}},
		{"a repeated line keeps one cookie, moved last", []step{
			{url: "http://app.test/", set: []string{"a=1", "b=1"}},
			{url: "http://app.test/", set: []string{"a=1"}, want: "a=1; b=1"},
			{url: "http://app.test/", want: "b=1; a=1"},
		}},
		{"longer paths first", []step{
			{url: "http://app.test/", set: []string{"a=1; Path=/", "a=2; Path=/x/y", "b=3; Path=/x"}},
			{url: "http://app.test/x/y/z", want: "a=2; b=3; a=1"},
		}},
		{"expiry in the past, Max-Age 0 and an empty value remove", []step{
			{url: "http://app.test/", set: []string{"e=1", "m=1", "v=1", "keep=1; Max-Age=3600"}},
			{url: "http://app.test/", set: []string{"e=1; Expires=" + past, "m=1; Max-Age=0", "v="}, want: "e=1; m=1; v=1; keep=1"},
			{url: "http://app.test/", want: "keep=1"},
		}},
		{"a cookie set already expired is not stored", []step{
			{url: "http://app.test/", set: []string{"old=1; Expires=" + past}},
			{url: "http://app.test/", want: ""},
		}},
		{"values that need quotes", []step{
			{url: "http://app.test/", set: []string{`q="a b"`, "c=x,y"}},
			{url: "http://app.test/", want: `q="a b"; c="x,y"`},
		}},
		{"values Go's parser refuses, read and sent as HttpClient 4 does", []step{
			{url: "http://app.test/", set: []string{`d={"a":1}`, "m=héllo", `b=x\y`, `e="q\"t\\"`, `s = 1  2 ; Path=/`, `w="a;b"; Path=/`,
				"noequals", "=nameless", "x;y=1"}},
			{url: "http://app.test/", want: `d={a:1}; m=héllo; b="x\\y"; e="q\"t\\"; s="1 2"; w="a;b"`},
		}},
		{"the jar's cookies replace the plan's Cookie header, as JMeter's HTTPHC4Impl sets them over it", []step{
			{url: "http://app.test/", own: "plan=1", want: "plan=1"},
			{url: "http://app.test/", set: []string{"a=1"}},
			{url: "http://app.test/", own: "plan=1", want: "a=1"},
			{url: "http://other.test/", own: "plan=1", want: "plan=1"},
		}},
		{"the same jar through redirects the client follows", []step{
			{url: "http://app.test/", set: []string{"a=1"}},
			{url: "http://app.test/redirect", want: "a=1; r=1"}, // what the last hop got
			{url: "http://app.test/", want: "a=1; r=1"},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := New(Options{Jar: &Jar{}})
			defer c.CloseIdle()
			for i, st := range tt.steps {
				scheme, rest, _ := strings.Cut(st.url, "://")
				host, path, _ := strings.Cut(rest, "/")
				p := port
				if scheme == "https" {
					p = tlsPort
				}
				req := &Request{Method: "GET", URL: scheme + "://" + host + ":" + p + "/" + path, KeepAlive: true, Resolve: loopback{}}
				req.AutoRedirects = path == "redirect"
				for _, v := range st.set {
					req.Header = append(req.Header, Header{"X-Set", v})
				}
				if st.own != "" {
					req.Header = append(req.Header, Header{"Cookie", st.own})
				}
				var res Result
				c.Do(context.Background(), req, &res)
				if res.Err != nil || res.Status != 200 {
					t.Fatalf("step %d: %d %v", i, res.Status, res.Err)
				}
				if got := res.Head.Get("X-Got"); got != st.want || !req.AutoRedirects && st.own == "" && res.Cookies != got {
					t.Errorf("step %d, %s: sent %q (reported %q), want %q", i, st.url, got, res.Cookies, st.want)
				}
			}
		})
	}
}

// What scripts do with the jar, JMeter's CookieManager methods: add
// replaces a match and drops an empty value, get and remove by index,
// clear; and a hostile server cannot grow it past MaxCookies.
func TestJarAPI(t *testing.T) {
	var j Jar
	j.Add(Cookie{Name: "a", Value: "1", Domain: "h", Path: "/"})
	j.Add(Cookie{Name: "b", Value: "2", Domain: "h", Path: "/"})
	j.Add(Cookie{Name: "a", Value: "3", Domain: "h", Path: "/"})
	j.Add(Cookie{Name: "a", Value: "4", Domain: "h", Path: "/x"})
	j.Add(Cookie{Name: "b", Value: "", Domain: "h", Path: "/"})
	var got []string
	for i := range j.Len() {
		c, _ := j.Get(i)
		got = append(got, c.Name+"="+c.Value+c.Path)
	}
	if s := strings.Join(got, " "); s != "a=3/ a=4/x" || j.Len() != 2 {
		t.Errorf("after adds: %s (%d)", s, j.Len())
	}
	if c, ok := j.Get(1); !ok || c.Value != "4" {
		t.Errorf("Get(1) = %v %v", c, ok)
	}
	if _, ok := j.Get(2); ok {
		t.Error("Get(2) of two cookies")
	}
	if !j.Remove(0) || j.Remove(5) || j.Len() != 1 {
		t.Errorf("Remove: %d left", j.Len())
	}
	j.Clear()
	if j.Len() != 0 {
		t.Errorf("Clear left %d", j.Len())
	}

	u := "http://127.0.0.1/"
	for i := range MaxCookies + 10 {
		o := origin{host: "127.0.0.1", path: "/"}
		j.setLine(fmt.Sprintf("c%d=1", i), &o, time.Now())
	}
	if c, _ := j.Get(0); j.Len() != MaxCookies || c.Name != "c10" {
		t.Errorf("after %d cookies from %s: %d kept, the first %s", MaxCookies+10, u, j.Len(), c.Name)
	}
}

// A request whose cookies are those of the last one, and a response that
// sets again the cookies it set, cost the jar nothing. (lang and x have
// the default path, /api, so they go before SESSION.)
func TestJarRepeatsAllocateNothing(t *testing.T) {
	var j Jar
	o := origin{host: "app.test", path: "/api/orders"}
	lines := []string{"SESSION=8F2A; Path=/; HttpOnly", "lang=en; Max-Age=3600", "x=1; Domain=app.test"}
	for _, l := range lines {
		j.setLine(l, &o, time.Now())
	}
	var buf []byte
	var idx []int32
	n := testing.AllocsPerRun(100, func() {
		now := time.Now()
		for _, l := range lines {
			j.setLine(l, &o, now)
		}
		buf, idx = j.header(buf[:0], idx, &o, now.Unix())
	})
	if n != 0 || string(buf) != "lang=en; x=1; SESSION=8F2A" {
		t.Errorf("%v allocations, header %q", n, buf)
	}
}

// The strings a cookie keeps are its own: none points into the response
// head its Set-Cookie line came in, which it would keep alive as long as
// the cookie.
func TestJarKeepsNoPartOfTheHead(t *testing.T) {
	for _, line := range []string{
		"a=1",
		"a=1; Domain=app.test; Path=/p",
		"a=1; Domain=.APP.test; Path=/p; Max-Age=60",
		`a="q v"; domain=app.test`,
	} {
		// the line as a part of a larger head, as Head hands it out
		head := "HTTP/1.1 200 OK\r\nSet-Cookie: " + line + "\r\nX: " + strings.Repeat("y", 1000) + "\r\n\r\n"
		start := strings.Index(head, line)
		v := head[start : start+len(line)]
		var j Jar
		j.setLine(v, &origin{host: "www.app.test", path: "/p/q"}, time.Now())
		c, ok := j.Get(0)
		if !ok {
			t.Fatalf("%s: no cookie", line)
		}
		lo := uintptr(unsafe.Pointer(unsafe.StringData(head)))
		hi := lo + uintptr(len(head))
		for _, f := range []struct{ name, s string }{{"name", c.Name}, {"value", c.Value}, {"domain", c.Domain}, {"path", c.Path}, {"line", c.raw}} {
			if p := uintptr(unsafe.Pointer(unsafe.StringData(f.s))); f.s != "" && p >= lo && p < hi {
				t.Errorf("%s: the cookie's %s %q points into the head", line, f.name, f.s)
			}
		}
	}
}
