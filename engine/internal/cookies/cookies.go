package cookies

import (
	"strings"
	"sync/atomic"

	"github.com/gojm/gojm/engine/httpx"
	"github.com/gojm/gojm/engine/internal/element"
)

// User is a virtual user's cookies: its jar, nil without a Cookie Manager.
type User struct {
	Jar *httpx.Jar
	// emptied counts the times the jar was emptied, shared with the
	// user's Parallel Controller branches, whose own seeds it starts over.
	emptied *atomic.Uint64
	seeds   seeds
}

var usersKey = element.NewKey[*element.Local[User]]("cookie jars")

// Users is the plan's one handle on its users' jars.
func Users(p *element.Plan) *element.Local[User] {
	return element.Once(p, usersKey, func() *element.Local[User] {
		l := element.NewLocal(p, newUser)
		l.Fork = func(_ *element.VU, parent *User) *User { return parent.Branch() }
		return l
	})
}

// Branch is u for a Parallel Controller's branch: the same jar, seeds of
// its own.
func (u *User) Branch() *User { return &User{Jar: u.Jar, emptied: u.emptied} }

func newUser(vu *element.VU) *User {
	g := vu.Group
	u := &User{emptied: new(atomic.Uint64)}
	if g == nil || !g.Cookies {
		return u
	}
	u.Jar = &httpx.Jar{}
	vu.OnIteration(func(*element.VU) {
		if !g.SameUser || g.ClearCookies {
			u.Jar.Clear()
			u.emptied.Add(1)
		}
	})
	return u
}

// Seed puts into the jar the Cookie Managers' own cookies whose fields
// changed. It is called once per sample, before its first request, on
// the user's own goroutine (never from a lane downloading resources, as
// it evaluates the user's templates). Every user starts with them and
// gets them back when the jar is emptied, and a cookie goes in again only when its
// fields evaluate to something new or the jar was emptied, so that a
// cookie the server set over it stays, as JMeter's removeMatchingCookies
// keeps the server's. Without such cookies it does nothing and allocates
// nothing.
func (u *User) Seed(vu *element.VU) {
	defs := vu.Group.UserCookies
	if len(defs) == 0 || u.Jar == nil {
		return
	}
	s := &u.seeds
	gen := u.emptied.Load()
	fresh := !s.put || s.gen != gen
	if len(s.last) != len(defs) {
		s.last = make([]fields, len(defs))
		fresh = true
	}
	s.put, s.gen = true, gen
	for i := range defs {
		d := &defs[i]
		f := fields{name: d.Name.Eval(vu), value: d.Value.Eval(vu), domain: d.Domain.Eval(vu), path: d.Path.Eval(vu)}
		if !fresh && f == s.last[i] {
			continue
		}
		s.last[i] = f
		if ck, ok := jarCookie(d, f); ok {
			u.Jar.Add(ck)
		}
	}
}

// seeds is what Seed last put in the jar.
type seeds struct {
	gen  uint64 // the times the jar was emptied when they went in
	put  bool   // whether they went in at all
	last []fields
}

// fields are a user cookie's evaluated fields.
type fields struct{ name, value, domain, path string }

// jarCookie makes the jar's cookie of d: JMeter sends a cookie with no
// domain nowhere, one with no path everywhere on its host, a secure one
// only over HTTPS, and one whose expiry is 0 for the session.
func jarCookie(d *element.UserCookie, f fields) (httpx.Cookie, bool) {
	host := strings.TrimLeft(f.domain, ".")
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
