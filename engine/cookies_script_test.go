package engine

import (
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gorilla/websocket"
)

// Scripts reach the user's jar as JMeter's Cookie Manager (a corpus
// plan's post-processor keeps it in a variable, a pre-processor empties
// it; a WebSocket sampler's pre-processor adds a cookie), and the
// WebSocket samplers send its cookies on the upgrade, storing none of the
// upgrade response's, as Luminis' plugin does: the server sees each
// request's Cookie header as JMeter would send it.
func TestScriptsAndWebSocketUseTheJar(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	up := websocket.Upgrader{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.URL.Path+": "+r.Header.Get("Cookie"))
		mu.Unlock()
		switch r.URL.Path {
		case "/set":
			http.SetCookie(w, &http.Cookie{Name: "a", Value: "1", Path: "/"})
			http.SetCookie(w, &http.Cookie{Name: "sec", Value: "1", Path: "/", Secure: true})
		case "/ws":
			c, err := up.Upgrade(w, r, http.Header{"Set-Cookie": {"fromws=1; Path=/"}})
			if err != nil {
				return
			}
			defer c.Close()
			if op, data, err := c.ReadMessage(); err == nil {
				c.WriteMessage(op, data)
			}
		}
	}))
	defer srv.Close()
	host, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	get := func(path string, kids ...string) string {
		return xmlEl("HTTPSamplerProxy", "GET "+path, sp("HTTPSampler.domain", host)+sp("HTTPSampler.port", port)+
			sp("HTTPSampler.protocol", "http")+sp("HTTPSampler.path", path)+sp("HTTPSampler.method", "GET")+bp("HTTPSampler.use_keepalive", true), kids...)
	}
	groovy := func(class, text string) string {
		return xmlEl(class, class, sp("scriptLanguage", "groovy")+sp("script", text))
	}
	bsh := func(class, text string) string {
		return xmlEl(class, class, sp("script", text)+sp("scriptLanguage", "beanshell"))
	}
	wsClass := "eu.luminis.jmeter.wssampler.RequestResponseWebSocketSampler"
	ws := xmlEl(wsClass, "ws", bp("createNewConnection", true)+sp("server", host)+sp("port", port)+sp("path", "/ws")+
		sp("requestData", "hi")+bp("TLS", false)+sp("connectTimeout", "2000")+sp("readTimeout", "2000"),
		bsh("BeanShellPreProcessor", `import org.apache.jmeter.protocol.http.control.CookieManager;
import org.apache.jmeter.protocol.http.control.Cookie;
CookieManager manager = ctx.getCurrentSampler().getCookieManager();
manager.add(new Cookie("w", "x", "`+host+`", "/", false, 0));`))
	plan := xPlan("", xGroup("G", groupOpts{},
		xCookieManager(false),
		bsh("BeanShellPostProcessor", `if (sampler.getClass().getSimpleName().equals("HTTPSamplerProxy") && sampler.getCookieManager() != null) {
	if (vars.getObject("cm") == null) { vars.putObject("cm", sampler.getCookieManager()); }
}`),
		get("/set"),
		get("/check", groovy("JSR223PreProcessor", `import org.apache.jmeter.protocol.http.control.Cookie
def cm = sampler.getCookieManager()
cm.remove(0)
cm.add(new Cookie("c", "3", "`+host+`", "/", false, 0))
cm.add(new Cookie("gone", "1", "`+host+`", "/", false, 1000))`)),
		ws,
		get("/after-ws"),
		get("/emptied", bsh("BSFPreProcessor", `if (vars.getObject("cm") != null) {
	org.apache.jmeter.protocol.http.control.CookieManager cm = vars.getObject("cm");
	while (cm.getCookieCount() > 0) { cm.remove(0); }
}`))))
	m := runPlanXML(t, plan, nil)
	for _, s := range m.samples {
		if !s.Success {
			t.Errorf("%s failed: %s %s", s.Label, s.Code, s.FailureMessage)
		}
	}
	want := []string{"/set: ", "/check: c=3", "/ws: c=3; w=x", "/after-ws: c=3; w=x", "/emptied: "}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(seen, want) {
		t.Errorf("server saw\n%s\nwant\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}
}

// A Parallel Controller's branch has one set of the Cookie Manager's
// seeds for its HTTP and WebSocket samplers alike: a cookie the server
// set over the manager's own stays for the WebSocket upgrade that
// follows, as it does outside the controller.
func TestBranchSeedsOnce(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	up := websocket.Upgrader{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.URL.Path+": "+r.Header.Get("Cookie"))
		mu.Unlock()
		switch r.URL.Path {
		case "/set":
			http.SetCookie(w, &http.Cookie{Name: "n", Value: "server", Path: "/"})
		case "/ws":
			c, err := up.Upgrade(w, r, nil)
			if err != nil {
				return
			}
			defer c.Close()
			if op, data, err := c.ReadMessage(); err == nil {
				c.WriteMessage(op, data)
			}
		}
	}))
	defer srv.Close()
	host, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	steps := func() []string {
		set := xmlEl("HTTPSamplerProxy", "set", sp("HTTPSampler.domain", host)+sp("HTTPSampler.port", port)+
			sp("HTTPSampler.path", "/set")+sp("HTTPSampler.method", "GET")+bp("HTTPSampler.use_keepalive", true))
		ws := xmlEl("eu.luminis.jmeter.wssampler.RequestResponseWebSocketSampler", "ws", bp("createNewConnection", true)+
			sp("server", host)+sp("port", port)+sp("path", "/ws")+sp("requestData", "hi")+bp("TLS", false)+
			sp("connectTimeout", "2000")+sp("readTimeout", "2000"))
		return []string{set, ws}
	}
	manager := xCookieManager(false, xCookie("n", "mine", host, "/", false, 0))
	want := []string{"/set: n=mine", "/ws: n=server"}
	for _, tt := range []struct {
		name string
		kids []string
	}{
		{"a plain user", steps()},
		{"a Parallel Controller's branch", []string{plugParallel("par", false, 0, xSimple("branch", steps()...))}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mu.Lock()
			seen = nil
			mu.Unlock()
			runPlanXML(t, xPlan("", xGroup("G", groupOpts{}, append([]string{manager}, tt.kids...)...)), nil)
			mu.Lock()
			defer mu.Unlock()
			if !slices.Equal(seen, want) {
				t.Errorf("server saw %q, want %q", seen, want)
			}
		})
	}
}
