// The HTTP Request a pre-processor runs before, as JMeter's HTTPSamplerBase
// shows it to a script: sampler.getHeaderManager() (HeaderManager, Header),
// getArguments() (Arguments, Argument, HTTPArgument), the URL's fields. The
// request lives in the host (H.req…); a change goes back at once, and the
// sampler sends the changed request.
$mk.exts.push(function ($, J, H, bsh) {
"use strict";
const ex = $.ex, str = $.str, def = $.def, defS = $.defS;
const N = $.N;
Object.assign($.javaNames, {
	HeaderManager: "org.apache.jmeter.protocol.http.control.HeaderManager", Header: "org.apache.jmeter.protocol.http.control.Header",
	Arguments: "org.apache.jmeter.config.Arguments", Argument: "org.apache.jmeter.config.Argument",
	HTTPArgument: "org.apache.jmeter.protocol.http.util.HTTPArgument",
});
$.parents.HTTPArgument = "Argument";

// A string argument as Java passes it: null stays null.
const sArg = (v) => v === null || v === undefined ? null : str(v);
const needInt = (v) => $.toInt(v);
function outOfRange(i, n) { return ex("IndexOutOfBoundsException", "Index " + i + " out of bounds for length " + n); }

// Each run sees one manager and one argument list, made on first use.
let headers = null, args = null;
$.resetHTTP = function () { headers = null; args = null; };
function need(name) {
	if (!H.reqHas()) throw $.missing($.sampler, name, []);
}

// ---- HeaderManager, Header ------------------------------------------------
function header(n, v) { return { $t: "Header", n: n, v: v, m: null, $str: function () { return this.n + "\t" + this.v; } }; }
function headerManager() {
	if (headers === null) {
		headers = { $t: "HeaderManager", list: [], $str: () => "HTTP Header Manager" };
		for (const [n, v] of H.hdrs()) { const h = header(n, v); h.m = headers; headers.list.push(h); }
	}
	return headers;
}
function syncHeaders(m) { if (m === headers) H.hdrsSet(m.list.map((h) => [h.n === null ? "" : h.n, h.v === null ? "" : h.v])); }
function needHeader(h) {
	if (h === null || h === undefined) throw ex("NullPointerException", null);
	if (h.$t !== "Header") throw $.missing(headers, "add", [h]);
	return h;
}
N.Header = { 0: () => header("", ""), 2: (n, v) => header(sArg(n), sArg(v)) };
def("Header", {
	"getName/0": ["String", (h) => h.n],
	"getValue/0": ["String", (h) => h.v],
	"setName/1": ["Null", (h, n) => { h.n = sArg(n); if (h.m) syncHeaders(h.m); return null; }],
	"setValue/1": ["Null", (h, v) => { h.v = sArg(v); if (h.m) syncHeaders(h.m); return null; }],
	"toString/0": ["String", (h) => h.$str()],
});
def("HeaderManager", {
	"add/1": ["Null", (m, h) => { needHeader(h).m = m; m.list.push(h); syncHeaders(m); return null; }],
	"add/0": ["Null", (m) => { const h = header("", ""); h.m = m; m.list.push(h); syncHeaders(m); return null; }],
	"remove/1": ["Null", (m, i) => {
		i = needInt(i);
		if (i < 0 || i >= m.list.length) throw outOfRange(i, m.list.length);
		m.list.splice(i, 1)[0].m = null;
		syncHeaders(m);
		return null;
	}],
	"size/0": ["Integer", (m) => m.list.length],
	"get/1": ["Header", (m, i) => { i = needInt(i); if (i < 0 || i >= m.list.length) throw outOfRange(i, m.list.length); return m.list[i]; }],
	"getHeader/1": ["Header", (m, i) => { i = needInt(i); if (i < 0 || i >= m.list.length) throw outOfRange(i, m.list.length); return m.list[i]; }],
	"getFirstHeaderNamed/1": ["Header", (m, n) => {
		n = sArg(n);
		for (const h of m.list) if (h.n !== null && n !== null && h.n.toLowerCase() === n.toLowerCase()) return h;
		return null;
	}],
	"removeHeaderNamed/1": ["Null", (m, n) => {
		n = sArg(n);
		m.list = m.list.filter((h) => { const drop = h.n !== null && n !== null && h.n.toLowerCase() === n.toLowerCase(); if (drop) h.m = null; return !drop; });
		syncHeaders(m);
		return null;
	}],
	"clear/0": ["Null", (m) => { for (const h of m.list) h.m = null; m.list = []; syncHeaders(m); return null; }],
	"toString/0": ["String", (m) => m.$str()],
});

// ---- Arguments, Argument, HTTPArgument -------------------------------------
// meta is Argument's metadata ("=" or null); enc is HTTPArgument's
// always-encode flag (a plain Argument is sent as an HTTPArgument made
// from it, which encodes); ct its content type.
function argument(kind, n, v, meta) {
	return { $t: kind, n: n, v: v, meta: meta, enc: true, ct: "text/plain", m: null,
		$str: function () { return this.n + (this.meta === null ? "null" : this.meta) + this.v; } };
}
function argList() {
	if (args === null) {
		args = { $t: "Arguments", list: [], $str: function () {
			return this.list.map((a) => a.n + (a.meta === null ? "=" : a.meta) + a.v).join("&");
		} };
		for (const [n, v, meta, enc, ct] of H.args()) {
			const a = argument(enc ? "HTTPArgument" : "Argument", n, v, meta);
			a.enc = enc; a.ct = ct; a.m = args;
			args.list.push(a);
		}
	}
	return args;
}
function syncArgs(m) {
	if (m === args) H.argsSet(m.list.map((a) => [a.n === null ? "" : a.n, a.v === null ? "" : a.v, a.meta === null ? "=" : a.meta, a.enc, a.ct]));
}
function addArg(m, a) {
	if (a === null || a === undefined) throw ex("NullPointerException", null);
	if (a.$t !== "Argument" && a.$t !== "HTTPArgument") throw $.missing(m, "addArgument", [a]);
	a.m = m;
	m.list.push(a);
	syncArgs(m);
	return null;
}
N.Argument = {
	0: () => argument("Argument", "", "", null),
	2: (n, v) => argument("Argument", sArg(n), sArg(v), null),
	3: (n, v, meta) => argument("Argument", sArg(n), sArg(v), sArg(meta)),
};
N.HTTPArgument = {
	2: (n, v) => argument("HTTPArgument", sArg(n), sArg(v), "="),
	3: (n, v, meta) => {
		if (typeof meta === "boolean") return argument("HTTPArgument", sArg(n), sArg(v), "=");
		return argument("HTTPArgument", sArg(n), sArg(v), sArg(meta));
	},
};
N.Arguments = { 0: () => ({ $t: "Arguments", list: [], $str: function () { return this.list.map((a) => a.n + (a.meta === null ? "=" : a.meta) + a.v).join("&"); } }) };
def("Argument", {
	"getName/0": ["String", (a) => a.n],
	"getValue/0": ["String", (a) => a.v],
	"getMetaData/0": ["String", (a) => a.meta],
	"setName/1": ["Null", (a, n) => { a.n = sArg(n); if (a.m) syncArgs(a.m); return null; }],
	"setValue/1": ["Null", (a, v) => { a.v = sArg(v); if (a.m) syncArgs(a.m); return null; }],
	"setMetaData/1": ["Null", (a, v) => { a.meta = sArg(v); if (a.m) syncArgs(a.m); return null; }],
	"toString/0": ["String", (a) => a.$str()],
});
def("HTTPArgument", {
	"isAlwaysEncoded/0": ["Boolean", (a) => a.enc],
	"setAlwaysEncoded/1": ["Null", (a, b) => { a.enc = $.truth(b); if (a.m) syncArgs(a.m); return null; }],
	"getContentType/0": ["String", (a) => a.ct],
	"setContentType/1": ["Null", (a, v) => { a.ct = sArg(v); if (a.m) syncArgs(a.m); return null; }],
});
// getArgument: null past the end, as JMeter's; a negative index throws.
function argAt(m, i) {
	i = needInt(i);
	if (i < 0) throw outOfRange(i, m.list.length);
	return i < m.list.length ? m.list[i] : null;
}
def("Arguments", {
	"getArgument/1": ["Argument", (m, i) => argAt(m, i)],
	"getArgumentCount/0": ["Integer", (m) => m.list.length],
	"addArgument/1": ["Null", (m, a) => addArg(m, a)],
	"addArgument/2": ["Null", (m, n, v) => addArg(m, argument("Argument", sArg(n), sArg(v), null))],
	"addArgument/3": ["Null", (m, n, v, meta) => addArg(m, argument("Argument", sArg(n), sArg(v), sArg(meta)))],
	"removeArgument/1": ["Null", (m, x) => {
		if (typeof x === "number") { if (x < m.list.length) { m.list.splice(x, 1); syncArgs(m); } return null; }
		if (x !== null && typeof x === "object" && (x.$t === "Argument" || x.$t === "HTTPArgument")) m.list = m.list.filter((a) => a !== x);
		else { const n = sArg(x); m.list = m.list.filter((a) => a.n !== n); }
		syncArgs(m);
		return null;
	}],
	"removeArgument/2": ["Null", (m, n, v) => {
		n = sArg(n); v = sArg(v);
		if (v === null) throw ex("NullPointerException", null);
		m.list = m.list.filter((a) => !(a.n === n && v === a.v));
		syncArgs(m);
		return null;
	}],
	"removeAllArguments/0": ["Null", (m) => { m.list = []; syncArgs(m); return null; }],
	"clear/0": ["Null", (m) => { m.list = []; syncArgs(m); return null; }],
	"getArgumentsAsMap/0": ["Map", (m) => {
		const out = new Map();
		if (bsh) Object.defineProperty(out, "$java", { value: true });
		for (const a of m.list) if (!$.mapHas(out, a.n)) $.mapPut(out, a.n, a.v);
		return out;
	}],
	"toString/0": ["String", (m) => m.$str()],
});

// ---- the sampler's request ---------------------------------------------------
function reqField(f) { return (s) => { need("get" + f[0].toUpperCase() + f.substring(1)); return H.reqGet(f); }; }
function reqSetter(f) {
	return (s, v) => { need("set" + f[0].toUpperCase() + f.substring(1)); H.reqSet(f, v === null || v === undefined ? "" : str(v)); return null; };
}
def("Sampler", {
	"getHeaderManager/0": ["HeaderManager", () => { need("getHeaderManager"); return H.reqGet("headerManager") ? headerManager() : null; }],
	"getArguments/0": ["Arguments", () => { need("getArguments"); return argList(); }],
	"addArgument/2": ["Null", (s, n, v) => { need("addArgument"); return addArg(argList(), argument("HTTPArgument", sArg(n), sArg(v), "=")); }],
	"addArgument/3": ["Null", (s, n, v, meta) => { need("addArgument"); return addArg(argList(), argument("HTTPArgument", sArg(n), sArg(v), sArg(meta))); }],
	"getPath/0": ["String", reqField("path")],
	"setPath/1": ["Null", reqSetter("path")],
	"getDomain/0": ["String", reqField("domain")],
	"setDomain/1": ["Null", reqSetter("domain")],
	"getMethod/0": ["String", reqField("method")],
	"setMethod/1": ["Null", reqSetter("method")],
	"getProtocol/0": ["String", reqField("protocol")],
	"setProtocol/1": ["Null", reqSetter("protocol")],
	"getPort/0": ["Integer", (s) => { need("getPort"); return H.reqPort(); }],
	"setPort/1": ["Null", (s, p) => { need("setPort"); H.reqSet("port", String($.toInt(p))); return null; }],
	"getUrl/0": ["URL", () => $.url(H.reqHas() ? H.reqURL() : H.samplerURL())],
});
});
