package scripting

import (
	"strings"

	"github.com/gojm/gojm/engine/httpx"
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/script"
)

// A script sees its virtual user's cookie jar as sampler.getCookieManager()
// (null without a Cookie Manager in the thread group or at plan level):
// the same jar the user's HTTP and WebSocket samplers send from.

// userJar is script.CookieJar over a user's jar.
type userJar struct{ j *httpx.Jar }

// cookiesFor gives env the jar of vu, when vu has one.
func (st *scriptVU) cookiesFor(sp *scriptPlan, vu *element.VU, env *script.Env) {
	if vu == nil || vu.Group == nil || !vu.Group.Cookies {
		return
	}
	if u := sp.cookies.Get(vu); u.Jar != nil {
		st.jar.j = u.Jar
		env.Cookies = &st.jar
	}
}

func (u *userJar) Len() int { return u.j.Len() }

func (u *userJar) Get(i int) (script.Cookie, bool) {
	c, ok := u.j.Get(i)
	return script.Cookie{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path, Secure: c.Secure,
		Expires: c.Expires, PathSpecified: c.PathSpecified, DomainSpecified: c.DomainSpecified}, ok
}

func (u *userJar) Remove(i int) bool { return u.j.Remove(i) }

func (u *userJar) Add(c script.Cookie) {
	u.j.Add(httpx.Cookie{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path, Secure: c.Secure,
		Expires: c.Expires, PathSpecified: c.PathSpecified, DomainSpecified: c.DomainSpecified})
}

func (u *userJar) Clear() { u.j.Clear() }

func (u *userJar) SetValue(name, domain, path, value string) { u.j.SetValue(name, domain, path, value) }

// httpSamplerClass is the class of an HTTP Request, what
// sampler.getClass() gives for one.
const httpSamplerClass = "org.apache.jmeter.protocol.http.sampler.HTTPSamplerProxy"

// samplerClassOf is the class a post-processor's script sees for the
// sampler of r: an HTTP Request's for a sample with an HTTP URL.
func samplerClassOf(r *element.Result) string {
	if strings.HasPrefix(r.URL, "http://") || strings.HasPrefix(r.URL, "https://") {
		return httpSamplerClass
	}
	return ""
}
