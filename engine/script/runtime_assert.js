// Groovy's power assert, binding variables, switch, regular expression
// operators, and the facades JavaScript scripts see.
$mk.exts.push(function ($, J, H, bsh) {
"use strict";
const { JEx } = $;
const ex = $.ex, str = $.str;

// ---- power assert ----------------------------------------------------------
// rec records the value of a subexpression at its column.
$.rec = function (R, col, v) { R.push([col, v]); return v; };
// assertFail throws Groovy's PowerAssertionError, rendered as its
// AssertionRenderer does.
$.assertFail = function (text, R) {
	const lines = [text, ""];
	const starts = [0, 0];
	const vals = R.map((r, i) => [r[0], r[1], i]);
	vals.sort((a, b) => b[0] - a[0] || a[2] - b[2]);
	const place = (j, s, col) => {
		let l = lines[j];
		while (l.length < col - 1) l += " ";
		lines[j] = l.substring(0, col - 1) + s + l.substring(col - 1 + s.length);
	};
	next:
	for (let i = 0; i < vals.length; i++) {
		const [col, v] = vals[i];
		if (i + 1 < vals.length && vals[i + 1][0] === col) continue;
		const s = str(v);
		const parts = s.split(/\r\n|\r|\n/);
		const end = parts.length === 1 ? col + s.length : Infinity;
		for (let j = 1; j < lines.length; j++) {
			if (end < starts[j]) {
				place(j, s, col);
				starts[j] = col;
				continue next;
			}
			place(j, "|", col);
			if (j > 1) starts[j] = col + 1;
		}
		for (const p of parts) {
			lines.push("");
			starts.push(col);
			place(lines.length - 1, p, col);
		}
	}
	throw new JEx("org.codehaus.groovy.runtime.powerassert.PowerAssertionError", lines.join("\n"));
};
// assertMsg: assert with a message.
$.assertMsg = function (msg, text, values) {
	if (msg === null || msg === undefined) throw new JEx("org.codehaus.groovy.runtime.powerassert.PowerAssertionError", text);
	let m = str(msg) + ". Expression: " + text;
	const vs = [];
	for (const [name, f] of values) {
		try { vs.push(name + " = " + str(f())); } catch (e) { /* unreadable */ }
	}
	if (vs.length) m += ". Values: " + vs.join(", ");
	throw new JEx("java.lang.AssertionError", m);
};

// ---- binding variables -----------------------------------------------------------
// gv reads a Groovy binding variable; bv a BeanShell global (void: null).
$.gv = function (G, name) {
	if (name in G) return G[name];
	throw ex("groovy.lang.MissingPropertyException", "No such property: " + name + " for class: Script1");
};
$.bv = function (G, name) { return name in G ? G[name] : $.VOID; };

// ---- switch ------------------------------------------------------------------------
$.swIdx = function (v, groups) {
	for (let i = 0; i < groups.length; i++) for (const c of groups[i]) if ($.isCase(c, v)) return i;
	return -1;
};
$.bswIdx = function (v, groups) {
	for (let i = 0; i < groups.length; i++) for (const c of groups[i]) if ($.eq(c, v)) return i;
	return -1;
};

// ---- regular expression operators -------------------------------------------------
$.reMatch = function (s, re) {
	if (s === null || s === undefined) return false;
	return J.reMatches(str(s), str(re));
};
$.reFindB = function (s, re) {
	if (s === null || s === undefined) return false;
	return J.reFind(str(s), str(re), 0) !== null;
};

// ---- JavaScript scripts ---------------------------------------------------------------
// jsFacade lets JavaScript call the bindings as Nashorn does: JS values
// convert to Java ones (numbers to strings where a String is wanted).
function fromJS(v) {
	if (v === undefined || v === null) return null;
	if (typeof v === "number") return Number.isInteger(v) && v >= -2147483648 && v <= 2147483647 ? v : $.d(v);
	if (typeof v === "bigint") return v;
	return v;
}
function toJS(v) {
	if (v === null || v === undefined) return v === undefined ? undefined : null;
	if (typeof v === "bigint") return Number(v);
	if (v instanceof $.JD) return v.v;
	if (v instanceof $.Dec) return $.decToDouble(v);
	if (v instanceof $.Ch) return String.fromCharCode(v.c);
	if (v && v.$t) return facade(v);
	return v;
}
const stringArgs = { Vars: { put: [0, 1], putObject: [0], get: [0], getObject: [0], remove: [0] }, Props: { setProperty: [0, 1], getProperty: [0, 1], put: [0], get: [0] } };
function facade(o) {
	if (o.$facade) return o.$facade;
	const f = new Proxy(o, {
		get(target, name) {
			if (typeof name !== "string") return undefined;
			if (name === "toString") return () => $.javaStr(target);
			return function (...args) {
				const conv = stringArgs[target.$t] && stringArgs[target.$t][name];
				const a = args.map((x, i) => conv && conv.includes(i) && x !== null && x !== undefined ? String(x) : fromJS(x));
				return toJS($.m(target, name, a));
			};
		},
	});
	Object.defineProperty(o, "$facade", { value: f });
	return f;
}
$.jsFacade = (o) => (o && o.$t ? facade(o) : o);
});
