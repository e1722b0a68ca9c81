package engine

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// modifierSite is a site whose pages the HTTP modifiers read: links and a
// form (/start), session ids (/sess, /enc), parameters to extract
// (/params), and plain pages.
func modifierSite(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html")
	switch r.URL.Path {
	case "/start":
		io.WriteString(w, `<html><head><title>start</title></head><body>
<a href="/item?id=1&amp;cat=a">one</a> <a href="item?id=2&amp;cat=b">two</a>
<a href="/other">other</a> <a href="javascript:go()">script</a> <a name="anchor">no href</a>
<form action="/login" method="post">
  <input type="hidden" name="token" value="t%2B1"><input name="user" value="">
  <select name="lang"><option>en</option><option value="fr">French</option></select>
  <textarea name="note">hello</textarea>
  <input type="submit" name="op" value="Log in">
</form>
<form method="post"><input name="noaction" value="x"></form>
</body></html>`)
	case "/frames":
		io.WriteString(w, `<html><head><base href="http://`+r.Host+`/sub/"></head><frameset><frame src="left?side=l"><frame src="/right"></frameset></html>`)
	case "/sess":
		io.WriteString(w, `<a href="/next;jsessionid=ABC123">next</a> <form><input type="hidden" name="sid" value="S42"></form>`)
	case "/enc":
		io.WriteString(w, `<a href="/next?jsessionid=a%2Fb">next</a>`)
	case "/params":
		io.WriteString(w, `name=p1 value=v1; name=p2 value=v2;`)
	default:
		io.WriteString(w, "plain")
	}
}

// mod is a modifier element with its properties.
func mod(class string, props ...string) string { return hElement(class, class, props...) }

// modifierCase is a plan's HTTP Requests and what the server receives from
// them: the targets (and POST bodies), a line with | listing what a random
// choice may give.
type modifierCase struct {
	name     string
	samplers []httpSpec
	want     []string
}

// modifierCases are the HTTP modifiers' cases: the first request fetches a
// page, the next ones are changed by the modifier from it.
func modifierCases() []modifierCase {
	get := func(name, path string, args ...string) httpSpec {
		return httpSpec{name: name, props: []string{"path", path, "method", "GET"}, args: args}
	}
	with := func(s httpSpec, children ...string) httpSpec { s.children = strings.Join(children, ""); return s }
	rewrite := func(props ...string) string {
		return mod("URLRewritingModifier", append([]string{"argument_name", "jsessionid"}, props...)...)
	}
	extractor := hElement("RegexExtractor", "listParams", "RegexExtractor.refname", "listParams",
		"RegexExtractor.regex", `name=(\w+) value=(\w+)`, "RegexExtractor.template", "$1$", "RegexExtractor.match_number", "-1")
	regexParams := mod("RegExUserParameters", "RegExUserParameters.regex_ref_name", "listParams",
		"RegExUserParameters.param_names_gr_nr", "1", "RegExUserParameters.param_values_gr_nr", "2")
	return []modifierCase{
		{"link parser: the link whose query the parameter names as an expression",
			[]httpSpec{get("page", "/start"), with(get("follow", "/item", harg("id=2", "", false)), mod("AnchorModifier"))},
			[]string{"GET /start", "GET /item?id=2&cat=b"}},
		{"link parser: one of the links that match, at random",
			[]httpSpec{get("page", "/start"), with(get("follow", "/it.m", harg("cat", "", false)), mod("AnchorModifier"))},
			[]string{"GET /start", "GET /item?id=1&cat=a | GET /item?id=2&cat=b"}},
		{"link parser: a POST takes a form's fields that match its parameters",
			[]httpSpec{get("page", "/start"), with(httpSpec{name: "login", props: []string{"path", "/log.*", "method", "POST"},
				args: []string{harg("token", ".*", true), harg("op", ".*", true), harg("lang", "f.", true), harg("note", "h.*", true), harg("user", "", true)}},
				mod("AnchorModifier"))},
			[]string{"GET /start", "POST /login token=t%2B1&op=Log+in&lang=fr&note=hello&user="}},
		{"link parser: no link matches, the request is its own",
			[]httpSpec{get("page", "/start"), with(get("follow", "/nomatch", harg("q", "1", true)), mod("AnchorModifier"))},
			[]string{"GET /start", "GET /nomatch?q=1"}},
		{"link parser: frames resolve against the page's base",
			[]httpSpec{get("page", "/frames"), with(get("frame", "/sub/le.t"), mod("AnchorModifier"))},
			[]string{"GET /frames", "GET /sub/left?side=l"}},
		{"link parser: nothing before the first sample",
			[]httpSpec{with(get("first", "/first"), mod("AnchorModifier"))},
			[]string{"GET /first"}},
		{"url rewriting: the session id as a parameter",
			[]httpSpec{get("page", "/sess"), with(get("next", "/next", harg("x", "1", true)), rewrite())},
			[]string{"GET /sess", "GET /next?x=1&jsessionid=ABC123"}},
		{"url rewriting: the id from a form field, replacing the parameter",
			[]httpSpec{get("page", "/sess"), with(get("next", "/next", harg("sid", "old", true), harg("x", "1", true)),
				mod("URLRewritingModifier", "argument_name", "sid"))},
			[]string{"GET /sess", "GET /next?x=1&sid=S42"}},
		// JMeter 2.13 kept the id already in the path and appended the new
		// one (;jsessionid=OLD;jsessionid=ABC123); 5.6 replaces it.
		{"url rewriting: path extension",
			[]httpSpec{get("page", "/sess"), with(get("next", "/next;jsessionid=OLD"), rewrite("path_extension", "true"))},
			[]string{"GET /sess", "GET /next;jsessionid=ABC123"}},
		{"url rewriting: path extension without the equals sign",
			[]httpSpec{get("page", "/sess"), with(get("next", "/next"), rewrite("path_extension", "true", "path_extension_no_equals", "true"))},
			[]string{"GET /sess", "GET /next;jsessionid=ABC123"}},
		{"url rewriting: an id taken as encoded already",
			[]httpSpec{get("page", "/enc"), with(get("a", "/a"), rewrite())},
			[]string{"GET /enc", "GET /a?jsessionid=a%2Fb"}},
		{"url rewriting: an id encoded again",
			[]httpSpec{get("page", "/enc"), with(get("a", "/a"), rewrite("encode", "true"))},
			[]string{"GET /enc", "GET /a?jsessionid=a%252Fb"}},
		{"regex user parameters: the extracted names give their values",
			[]httpSpec{with(get("page", "/params"), extractor),
				with(get("send", "/send", harg("p1", "x", true), harg("p3", "keep", true), harg("p2", "y", true)), regexParams)},
			[]string{"GET /params", "GET /send?p1=v1&p3=keep&p2=v2"}},
		{"regex user parameters: without the extractor's variables nothing changes",
			[]httpSpec{get("page", "/params"), with(get("send", "/send", harg("p1", "x", true)), regexParams)},
			[]string{"GET /params", "GET /send?p1=x"}},
	}
}

// TestHTTPModifiers runs the HTML Link Parser, the HTTP URL Re-writing
// Modifier and RegEx User Parameters against a loopback site: the first
// request fetches a page, the next ones are changed by the modifier from
// it; the server records what it received.
func TestHTTPModifiers(t *testing.T) {
	for _, tc := range modifierCases() {
		t.Run(tc.name, func(t *testing.T) {
			srv := hNewServer(t, modifierSite)
			m := hRun(t, hPlan("", 1, tc.samplers...), srv.props(), nil)
			for _, s := range m.samples {
				if !s.Success {
					t.Errorf("%s failed: %s %s", s.Label, s.Code, s.Message)
				}
			}
			reqs := srv.requests()
			if len(reqs) != len(tc.want) {
				t.Fatalf("%d requests, want %d", len(reqs), len(tc.want))
			}
			var got []string
			for _, r := range reqs {
				line := r.Method + " " + r.Target
				if r.Body != "" {
					line += " " + r.Body
				}
				got = append(got, line)
			}
			for i, w := range tc.want {
				if !slices.Contains(strings.Split(w, " | "), got[i]) {
					t.Errorf("request %d: %q, want %q", i+1, got[i], w)
				}
			}
		})
	}
}

// TestHTTPURLRewritingCache: a URL Re-writing Modifier keeps, per user, the
// last session id it found for the responses that have none.
func TestHTTPURLRewritingCache(t *testing.T) {
	for _, tc := range []struct {
		cache string
		want  []string
	}{
		{"true", []string{"GET /sess", "GET /a?jsessionid=ABC123", "GET /b?jsessionid=ABC123"}},
		{"false", []string{"GET /sess", "GET /a?jsessionid=ABC123", "GET /b?jsessionid="}},
	} {
		t.Run("cache "+tc.cache, func(t *testing.T) {
			srv := hNewServer(t, modifierSite)
			get := func(path string) httpSpec {
				return httpSpec{name: path, props: []string{"path", path, "method", "GET"}}
			}
			rewrite := mod("URLRewritingModifier", "argument_name", "jsessionid", "cache_value", tc.cache)
			hRun(t, hPlan(rewrite, 1, get("/sess"), get("/a"), get("/b")), srv.props(), nil)
			var got []string
			for _, r := range srv.requests() {
				got = append(got, r.Method+" "+r.Target)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("requests %q, want %q", got, tc.want)
			}
		})
	}
}

// TestHTTPRemovedModifiers: the HTML Parameter Mask and the HTTP User
// Parameter Modifier, which JMeter 5.6 no longer has, are refused by name.
func TestHTTPRemovedModifiers(t *testing.T) {
	for _, class := range []string{"ParamModifier", "UserParameterModifier"} {
		plan := hPlan("", 1, httpSpec{name: "req", props: []string{"path", "/"}, children: mod(class)})
		err := hCompile(t, plan, nil)
		if err == nil || !strings.Contains(err.Error(), class) || !strings.Contains(err.Error(), "5.6 no longer has it") {
			t.Errorf("%s: %v, want a refusal naming it", class, err)
		}
	}
}

// lateUserParams are User Parameters that set v to "late".
const lateUserParams = `<UserParameters guiclass="UserParametersGui" testclass="UserParameters" testname="UP">` +
	`<collectionProp name="UserParameters.names"><stringProp name="0">v</stringProp></collectionProp>` +
	`<collectionProp name="UserParameters.thread_values"><collectionProp name="1"><stringProp name="0">late</stringProp></collectionProp></collectionProp>` +
	`</UserParameters><hashTree/>`

// TestHTTPModifierReadsFieldsLate: a field a modifier does not read is
// evaluated when the request is sent, after the pre-processors that follow
// the modifier (here User Parameters under the sampler, after the plan's
// URL Re-writing Modifier), as JMeter evaluates it on its first read.
func TestHTTPModifierReadsFieldsLate(t *testing.T) {
	srv := hNewServer(t, modifierSite)
	next := httpSpec{name: "next", props: []string{"path", "/next", "method", "GET"}, args: []string{harg("x", "${v}", true)}, children: lateUserParams}
	rewrite := mod("URLRewritingModifier", "argument_name", "jsessionid")
	hRun(t, hPlan(rewrite, 1, httpSpec{name: "page", props: []string{"path", "/sess", "method", "GET"}}, next), srv.props(), nil)
	var got []string
	for _, r := range srv.requests() {
		got = append(got, r.Method+" "+r.Target)
	}
	if want := []string{"GET /sess", "GET /next?x=late&jsessionid=ABC123"}; !slices.Equal(got, want) {
		t.Errorf("requests %q, want %q", got, want)
	}
}

// TestHTTPScriptChangesModifiedRequest: a pre-processor's script and the
// HTTP modifiers change one request, each seeing the others' changes, and a
// field the script does not read is evaluated when the request is sent,
// after the pre-processors that follow it.
func TestHTTPScriptChangesModifiedRequest(t *testing.T) {
	script := func(text string) string {
		return hElement("JSR223PreProcessor", "script", "scriptLanguage", "groovy", "script", text)
	}
	rewrite := mod("URLRewritingModifier", "argument_name", "jsessionid")
	page := httpSpec{name: "page", props: []string{"path", "/sess", "method", "GET"}}
	for _, tc := range []struct {
		name string
		next httpSpec
		want string
	}{
		{"the script sees the modifier's parameter",
			httpSpec{name: "next", props: []string{"path", "/next", "method", "GET"}, args: []string{harg("y", "1", true)},
				children: rewrite + script(`sampler.addArgument("n", "" + sampler.getArguments().getArgumentCount())`)},
			"GET /next?y=1&jsessionid=ABC123&n=2"},
		{"the modifier sees the script's path",
			httpSpec{name: "next", props: []string{"path", "/next", "method", "GET"},
				children: script(`sampler.setPath(sampler.getPath() + "/s")`) + mod("URLRewritingModifier", "argument_name", "jsessionid", "path_extension", "true")},
			"GET /next/s;jsessionid=ABC123"},
		{"a field the script does not read is read when sent",
			httpSpec{name: "next", props: []string{"path", "/next", "method", "GET"}, args: []string{harg("x", "${v}", true)},
				children: script(`sampler.setPath(sampler.getPath() + "/s")`) + lateUserParams},
			"GET /next/s?x=late"},
		{"a variable the script sets reaches a field it does not read",
			httpSpec{name: "next", props: []string{"path", "/next", "method", "GET"}, args: []string{harg("x", "${v}", true)},
				children: script(`vars.put("v", "mine"); sampler.setPath(sampler.getPath() + "/s")`)},
			"GET /next/s?x=mine"},
		{"a script function in a field the script reads leaves the script its request",
			httpSpec{name: "next", props: []string{"path", "/next", "method", "GET"}, args: []string{harg("x", `${__groovy("g")}`, true)},
				children: script(`sampler.getArguments(); sampler.addArgument("n", "1")`)},
			"GET /next?x=g&n=1"},
		{"a script function in the path the script reads",
			httpSpec{name: "next", props: []string{"path", `/next${__groovy("/" + Label)}`, "method", "GET"},
				children: script(`sampler.setPath(sampler.getPath() + "/s"); sampler.addArgument("l", Label)`)},
			"GET /next/__groovy/s?l=script"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := hNewServer(t, modifierSite)
			hRun(t, hPlan("", 1, page, tc.next), srv.props(), nil)
			var got []string
			for _, r := range srv.requests() {
				got = append(got, r.Method+" "+r.Target)
			}
			if want := []string{"GET /sess", tc.want}; !slices.Equal(got, want) {
				t.Errorf("requests %q, want %q", got, want)
			}
		})
	}
}

// sampler.getUrl() is the URL the sample sends: a script setting it as the
// path (a full URL) sends the request where it went anyway, the path's
// spaces as %20 and untrimmed.
func TestHTTPScriptGetURLIsSent(t *testing.T) {
	for _, tc := range []struct{ name, path, want string }{
		{"trailing space", "/items/9 ", "/items/9%20"},
		{"inner space", "/a b/c", "/a%20b/c"},
		{"no slash", "items", "/items"},
		{"full URL", "http://${__P(host)}:${__P(port)}/full x ", "/full%20x%20"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := hNewServer(t, nil)
			next := httpSpec{name: "next", props: []string{"path", tc.path, "method", "GET"},
				children: hElement("JSR223PreProcessor", "script", "scriptLanguage", "groovy", "script", `sampler.setPath(sampler.getUrl().toString())`)}
			hRun(t, hPlan("", 1, next), srv.props(), nil)
			var got []string
			for _, r := range srv.requests() {
				got = append(got, r.Target)
			}
			if want := []string{tc.want}; !slices.Equal(got, want) {
				t.Errorf("requests %q, want %q", got, want)
			}
		})
	}
}
