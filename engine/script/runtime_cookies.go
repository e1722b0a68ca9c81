package script

import "github.com/dop251/goja"

// CookieJar is the virtual user's cookie jar as a script sees it through
// sampler.getCookieManager(): JMeter's CookieManager, a list of cookies
// in order (runtime_cookies.js).
type CookieJar interface {
	Len() int
	Get(i int) (Cookie, bool)
	Remove(i int) bool
	// Add is CookieManager.add: it replaces the cookie of the same name,
	// domain and path, and a cookie with an empty value only removes it.
	Add(c Cookie)
	Clear()
	// SetValue changes the value of the cookie of that name, domain and
	// path (Cookie.setValue on a cookie of the manager's).
	SetValue(name, domain, path, value string)
}

// Cookie is JMeter's Cookie: Expires in seconds since the epoch, 0 for
// the session.
type Cookie struct {
	Name, Value, Domain, Path      string
	Secure                         bool
	Expires                        int64
	PathSpecified, DomainSpecified bool
}

// cookieBridge adds to H the functions of the Env's cookie jar.
func (r *runtime) cookieBridge(set func(name string, f func(c goja.FunctionCall) goja.Value)) {
	vm := r.vm
	jar := func() CookieJar {
		j := r.env.Cookies
		if j == nil {
			r.throw("java.lang.IllegalStateException", "gojm: no Cookie Manager")
		}
		return j
	}
	undef := goja.Undefined()
	set("samplerClass", func(goja.FunctionCall) goja.Value { return vm.ToValue(r.env.SamplerClass) })
	set("ckHas", func(goja.FunctionCall) goja.Value { return vm.ToValue(r.env.Cookies != nil) })
	set("ckLen", func(goja.FunctionCall) goja.Value { return vm.ToValue(jar().Len()) })
	set("ckGet", func(c goja.FunctionCall) goja.Value {
		ck, ok := jar().Get(int(c.Argument(0).ToInteger()))
		if !ok {
			return goja.Null()
		}
		return vm.ToValue([]any{ck.Name, ck.Value, ck.Domain, ck.Path, ck.Secure, ck.Expires, ck.PathSpecified, ck.DomainSpecified})
	})
	set("ckRemove", func(c goja.FunctionCall) goja.Value { return vm.ToValue(jar().Remove(int(c.Argument(0).ToInteger()))) })
	set("ckAdd", func(c goja.FunctionCall) goja.Value {
		jar().Add(Cookie{Name: argStr(c, 0), Value: argStr(c, 1), Domain: argStr(c, 2), Path: argStr(c, 3),
			Secure: c.Argument(4).ToBoolean(), Expires: c.Argument(5).ToInteger(),
			PathSpecified: c.Argument(6).ToBoolean(), DomainSpecified: c.Argument(7).ToBoolean()})
		return undef
	})
	set("ckClear", func(goja.FunctionCall) goja.Value { jar().Clear(); return undef })
	set("ckSetValue", func(c goja.FunctionCall) goja.Value {
		jar().SetValue(argStr(c, 0), argStr(c, 1), argStr(c, 2), argStr(c, 3))
		return undef
	})
}
