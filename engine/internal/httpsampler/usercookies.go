package httpsampler

import (
	"strings"

	"github.com/gojm/gojm/engine/httpx"
	"github.com/gojm/gojm/engine/internal/element"
)

// userCookies keeps a user's jar holding its Cookie Managers' own cookies
// (element.UserCookie), as JMeter 5.6 does: every user starts with them,
// gets them back when the jar is emptied (clearEachIteration, or a new
// user each iteration), and their ${} fields are evaluated at each
// request. A cookie goes into the jar again only when its fields evaluate
// to something new or the jar was emptied, so that a cookie the server
// set over it stays, as JMeter's removeMatchingCookies keeps the server's.
type userCookies struct {
	gen  uint64 // the jar generation the cookies were put in
	put  bool   // whether they were put in at all
	last []cookieFields
}

// cookieFields are a user cookie's evaluated fields.
type cookieFields struct{ name, value, domain, path string }

// seed puts the user cookies whose fields changed into the client's jar.
// Without user cookies it does nothing and allocates nothing.
func (uc *userCookies) seed(st *httpState, vu *element.VU) {
	defs := vu.Group.UserCookies
	jar := st.client.Jar()
	if len(defs) == 0 || jar == nil {
		return
	}
	fresh := !uc.put || uc.gen != st.client.JarGen()
	if len(uc.last) != len(defs) {
		uc.last = make([]cookieFields, len(defs))
		fresh = true
	}
	uc.put, uc.gen = true, st.client.JarGen()
	for i := range defs {
		d := &defs[i]
		f := cookieFields{name: d.Name.Eval(vu), value: d.Value.Eval(vu), domain: d.Domain.Eval(vu), path: d.Path.Eval(vu)}
		if !fresh && f == uc.last[i] {
			continue
		}
		uc.last[i] = f
		if ck, ok := jarCookie(d, f); ok {
			jar.Add(ck)
		}
	}
}

// jarCookie makes the jar's cookie of d: JMeter sends a cookie with no
// domain nowhere, one with no path everywhere on its host, a secure one
// only over HTTPS, and one whose expiry is 0 for the session.
func jarCookie(d *element.UserCookie, f cookieFields) (httpx.Cookie, bool) {
	host := f.domain
	for len(host) > 0 && host[0] == '.' {
		host = host[1:]
	}
	if host == "" || f.name == "" {
		return httpx.Cookie{}, false
	}
	path := f.path
	if path == "" || path[0] != '/' {
		path = "/"
	}
	return httpx.Cookie{Name: f.name, Value: f.value, Domain: strings.ToLower(host), Path: path, Secure: d.Secure,
		Expires: max(d.Expires, 0), DomainSpecified: d.DomainSpecified, PathSpecified: true}, true
}
