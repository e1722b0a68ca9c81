// The virtual user's cookie jar as JMeter's CookieManager shows it to a
// script: sampler.getCookieManager() (null without a Cookie Manager),
// getCookieCount, get, remove, add, clear, getCookies; and Cookie. The
// cookies live in the host (H.ck…): the manager reads them at each call,
// and a change reaches the jar at once. A manager kept with
// vars.putObject is the same user's jar when read back.
$mk.exts.push(function ($, J, H, bsh) {
"use strict";
const ex = $.ex, str = $.str, def = $.def, N = $.N;
Object.assign($.javaNames, {
	CookieManager: "org.apache.jmeter.protocol.http.control.CookieManager",
	Cookie: "org.apache.jmeter.protocol.http.control.Cookie",
	CollectionProperty: "org.apache.jmeter.testelement.property.CollectionProperty",
});
// Cookie's getters give "" for a null field, as getPropertyAsString does.
const sArg = (v) => v === null || v === undefined ? "" : str(v);
const lArg = (v) => typeof v === "bigint" ? Number(v) : $.toInt(v);
function outOfRange(i, n) { return ex("IndexOutOfBoundsException", "Index " + i + " out of bounds for length " + n); }

// jar is true for a cookie of the manager's (get, add): setValue then
// changes the jar's cookie too, as it is the same object in JMeter.
function cookie(n, v, d, p, s, e, ps, ds) {
	return { $t: "Cookie", n: n, v: v, d: d, p: p, s: s, e: e, ps: ps, ds: ds, jar: false,
		$str: function () { return this.d + "\tTRUE\t" + this.p + "\t" + (this.s ? "TRUE" : "FALSE") + "\t" + this.e + "\t" + this.n + "\t" + this.v; },
		$store: function () { return [this.n, this.v, this.d, this.p, this.s, this.e, this.ps, this.ds]; } };
}
$.restore.Cookie = (a) => cookie(...a);
function fromJar(row) {
	const c = cookie(...row);
	c.jar = true;
	return c;
}
N.Cookie = {
	0: () => cookie("", "", "", "", false, 0, false, false),
	6: (n, v, d, p, s, e) => cookie(sArg(n), sArg(v), sArg(d), sArg(p), $.truth(s), lArg(e), true, true),
	8: (n, v, d, p, s, e, ps, ds) => cookie(sArg(n), sArg(v), sArg(d), sArg(p), $.truth(s), lArg(e), $.truth(ps), $.truth(ds)),
};
def("Cookie", {
	"getName/0": ["String", (c) => c.n],
	"getValue/0": ["String", (c) => c.v],
	"getDomain/0": ["String", (c) => c.d],
	"getPath/0": ["String", (c) => c.p],
	"getSecure/0": ["Boolean", (c) => c.s],
	"getExpires/0": ["Long", (c) => BigInt(c.e)],
	"getExpiresMillis/0": ["Long", (c) => BigInt(c.e) * 1000n],
	"isPathSpecified/0": ["Boolean", (c) => c.ps],
	"isDomainSpecified/0": ["Boolean", (c) => c.ds],
	"setValue/1": ["Null", (c, v) => { c.v = sArg(v); if (c.jar && H.ckHas()) H.ckSetValue(c.n, c.d, c.p, c.v); return null; }],
	"toString/0": ["String", (c) => c.$str()],
});

// The one manager object of a run, which stands for the user's jar.
const manager = { $t: "CookieManager", $str: () => "HTTP Cookie Manager", $store: () => 0 };
$.restore.CookieManager = () => manager;
function need(m, name) {
	if (!H.ckHas()) throw ex("NullPointerException", null); // a manager kept from a user without one
}
function at(m, i, name) {
	need(m, name);
	i = $.toInt(i);
	const n = H.ckLen();
	if (i < 0 || i >= n) throw outOfRange(i, n);
	return i;
}
function all() {
	const out = [];
	for (let i = 0, n = H.ckLen(); i < n; i++) { const row = H.ckGet(i); if (row !== null) out.push(fromJar(row)); }
	return out;
}
def("CookieManager", {
	"getCookieCount/0": ["Integer", (m) => { need(m); return H.ckLen(); }],
	"get/1": ["Cookie", (m, i) => fromJar(H.ckGet(at(m, i)))],
	"remove/1": ["Null", (m, i) => { H.ckRemove(at(m, i)); return null; }],
	"add/1": ["Null", (m, c) => {
		need(m);
		if (c === null || c === undefined) throw ex("NullPointerException", null);
		if (c.$t !== "Cookie") throw $.missing(m, "add", [c]);
		H.ckAdd(c.n, c.v, c.d, c.p, c.s, c.e, c.ps, c.ds);
		c.jar = true;
		return null;
	}],
	"clear/0": ["Null", (m) => { need(m); H.ckClear(); return null; }],
	// getCookies is a CollectionProperty of the cookies; scripts iterate it
	// or ask its size.
	"getCookies/0": ["CookieList", (m) => { need(m); return { $t: "CookieList", list: all(), $str: function () { return "[" + this.list.map((c) => c.$str()).join(", ") + "]"; } }; }],
	"toString/0": ["String", (m) => m.$str()],
});
// CollectionProperty's few methods scripts use: its size, its items as
// JMeterProperty whose getObjectValue() is the Cookie, and iteration.
def("CookieList", {
	"size/0": ["Integer", (l) => l.list.length],
	"get/1": ["CookieProp", (l, i) => { i = $.toInt(i); if (i < 0 || i >= l.list.length) throw outOfRange(i, l.list.length); return { $t: "CookieProp", c: l.list[i] }; }],
	"iterator/0": ["Iterator", (l) => $.m(l.list.map((c) => ({ $t: "CookieProp", c: c })), "iterator", [])],
	"isEmpty/0": ["Boolean", (l) => l.list.length === 0],
	"toString/0": ["String", (l) => l.$str()],
});
def("CookieProp", {
	"getObjectValue/0": ["Cookie", (p) => p.c],
	"getName/0": ["String", (p) => p.c.n],
	"getStringValue/0": ["String", (p) => p.c.$str()],
	"toString/0": ["String", (p) => p.c.$str()],
});
def("Sampler", {
	"getCookieManager/0": ["CookieManager", () => H.ckHas() ? manager : null],
	// getClass() tells an HTTP Request from the other samplers, as scripts
	// that keep the manager of an HTTP Request check.
	"getClass/0": ["SamplerClass", () => {
		const n = H.samplerClass() || "org.apache.jmeter.samplers.AbstractSampler";
		return { $t: "SamplerClass", n: n, $str: () => "class " + n };
	}],
});
def("SamplerClass", {
	"getName/0": ["String", (c) => c.n],
	"getSimpleName/0": ["String", (c) => c.n.substring(c.n.lastIndexOf(".") + 1)],
	"toString/0": ["String", (c) => c.$str()],
});
});
