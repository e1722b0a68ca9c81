// JSON (Groovy's JsonOutput and JsonSlurper), Java's toString, String.format
// and the encoding of values kept outside a script run (vars.putObject,
// props.put of a non-string).
$mk.exts.push(function ($, J, H, bsh) {
"use strict";
const { JD, Dec, Ch, Range, JEx } = $;
const ex = $.ex, str = $.str, kindOf = $.kindOf;

// javaStr is String.valueOf: Java's toString, not Groovy's.
function javaStr(v) {
	if (v === null || v === undefined) return "null";
	if (v instanceof Map) {
		const parts = [];
		for (const [k, x] of $.mapEntries(v)) parts.push(javaStr(k) + "=" + (x === v ? "(this Map)" : javaStr(x)));
		return "{" + parts.join(", ") + "}";
	}
	if (Array.isArray(v)) {
		if (v.$arr) return "[" + ({ int: "I", long: "J", double: "D", byte: "B", char: "C", boolean: "Z" }[v.$arr] || "L" + ($.javaNames[v.$arr] || "java.lang.Object") + ";") + "@" + $.hashHex(v);
		return "[" + v.map((x) => x === v ? "(this Collection)" : javaStr(x)).join(", ") + "]";
	}
	if (v instanceof Range) return "[" + v.toArray().join(", ") + "]";
	if (v && v.$t === "Entry") return javaStr(v.k) + "=" + javaStr(v.v);
	return str(v);
}
$.javaStr = javaStr;

// ---- String.format --------------------------------------------------------
function tagArg(v) {
	if (v === null || v === undefined) return ["n"];
	switch (typeof v) {
	case "string": return ["s", v];
	case "number": return ["i", v];
	case "bigint": return ["l", v.toString()];
	case "boolean": return ["b", v];
	}
	if (v instanceof JD) return ["d", v.v];
	if (v instanceof Dec) return ["D", $.decPlain(v), $.decStr(v)];
	if (v instanceof Ch) return ["c", v.c];
	return ["o", javaStr(v), $.typeName(v)];
}
$.format = function (f, args) {
	if (f === null || f === undefined) throw ex("NullPointerException", null);
	if (args.length === 1 && Array.isArray(args[0]) && args[0].$arr && args[0].$arr !== "byte" && args[0].$arr !== "int" && args[0].$arr !== "char") args = args[0];
	return goCall(() => J.format(str(f), args.map(tagArg)));
};
// goCall turns a Go helper's error ("class\u0000message") into a Java exception.
function goCall(f) {
	try { return f(); } catch (e) {
		if (e instanceof JEx) throw e;
		const m = String(e && e.message !== undefined ? e.message : e);
		const i = m.indexOf("\u0000");
		if (i >= 0) { const j = m.lastIndexOf("\u0001"); throw ex(m.substring(m.lastIndexOf(" ", i) + 1, i), m.substring(i + 1, j >= 0 ? j : m.length)); }
		throw e;
	}
}
$.goCall = goCall;
let mathRnd = null;
$.mathRandom = function () { if (mathRnd === null) mathRnd = $.newRandom(H.mathSeed()); return mathRnd; };
$.resetRun = function () { mathRnd = null; $.resetResults(); $.resetObjects(); $.resetHTTP(); };

// ---- JsonOutput ----------------------------------------------------------------
function jsonStr(s) {
	let out = "\"";
	for (let i = 0; i < s.length; i++) {
		const c = s.charCodeAt(i);
		switch (c) {
		case 0x22: out += "\\\""; break;
		case 0x5c: out += "\\\\"; break;
		case 0x08: out += "\\b"; break;
		case 0x0c: out += "\\f"; break;
		case 0x0a: out += "\\n"; break;
		case 0x0d: out += "\\r"; break;
		case 0x09: out += "\\t"; break;
		default:
			if (c < 0x20 || c > 0x7e) out += "\\u" + (c + 0x10000).toString(16).substring(1);
			else out += s[i];
		}
	}
	return out + "\"";
}
function toJson(v) {
	if (v === null || v === undefined) return "null";
	switch (typeof v) {
	case "string": return jsonStr(v);
	case "number": return String(v);
	case "bigint": return v.toString();
	case "boolean": return v ? "true" : "false";
	case "function": throw ex("UnsupportedOperationException", "gojm: JsonOutput of a closure");
	}
	if (v instanceof JD) {
		if (!Number.isFinite(v.v)) throw ex("groovy.json.JsonException", "Number " + $.doubleStr(v.v) + " can't be serialized as JSON");
		return $.doubleStr(v.v);
	}
	if (v instanceof Dec) return $.decStr(v);
	if (v instanceof Ch) return jsonStr(String.fromCharCode(v.c));
	if (Array.isArray(v) || v instanceof Range) return "[" + Array.from($.iter(v)).map(toJson).join(",") + "]";
	if (v instanceof Map) return "{" + $.mapEntries(v).map(([k, x]) => jsonStr(str(k)) + ":" + toJson(x)).join(",") + "}";
	if (v.$t === "UUID" || v.$t === "Writable" || v.$t === "StringBuilder") return jsonStr(str(v));
	if (v.$t === "Entry") return "{" + jsonStr(str(v.k)) + ":" + toJson(v.v) + "}";
	throw ex("UnsupportedOperationException", "gojm: JsonOutput of a " + $.typeName(v));
}
$.toJson = toJson;
// prettyJson is JsonOutput.prettyPrint: re-indents JSON text, four spaces a level.
$.prettyJson = function (s) {
	let out = "", indent = 0, i = 0;
	const nl = () => "\n" + "    ".repeat(indent);
	while (i < s.length) {
		const c = s[i];
		if (c === "\"") {
			let j = i + 1;
			while (j < s.length && s[j] !== "\"") { if (s[j] === "\\") j++; j++; }
			out += s.substring(i, j + 1);
			i = j + 1;
			continue;
		}
		switch (c) {
		case "{": case "[":
			indent++;
			out += c + nl();
			break;
		case "}": case "]":
			indent--;
			out += nl() + c;
			break;
		case ",":
			out += "," + nl();
			break;
		case ":":
			out += ": ";
			break;
		case " ": case "\t": case "\n": case "\r":
			break;
		default:
			out += c;
		}
		i++;
	}
	return out;
};

// ---- JsonSlurper -----------------------------------------------------------------
$.parseJson = function (s) {
	let i = 0;
	const fail = (msg) => { throw ex("groovy.json.JsonException", msg + " on line 1, column " + (i + 1)); };
	const ws = () => { while (i < s.length && " \t\n\r".includes(s[i])) i++; };
	function value() {
		ws();
		const c = s[i];
		if (c === "{") {
			i++;
			const m = new Map();
			ws();
			if (s[i] === "}") { i++; return m; }
			for (;;) {
				ws();
				if (s[i] !== "\"") fail("Expecting '\"' but got '" + (s[i] || "EOF") + "'");
				const k = string();
				ws();
				if (s[i] !== ":") fail("Expecting ':' but got '" + (s[i] || "EOF") + "'");
				i++;
				$.mapPut(m, k, value());
				ws();
				if (s[i] === ",") { i++; continue; }
				if (s[i] === "}") { i++; return m; }
				fail("Expecting ',' or '}' but got '" + (s[i] || "EOF") + "'");
			}
		}
		if (c === "[") {
			i++;
			const a = [];
			ws();
			if (s[i] === "]") { i++; return a; }
			for (;;) {
				a.push(value());
				ws();
				if (s[i] === ",") { i++; continue; }
				if (s[i] === "]") { i++; return a; }
				fail("Expecting ',' or ']' but got '" + (s[i] || "EOF") + "'");
			}
		}
		if (c === "\"") return string();
		if (s.startsWith("true", i)) { i += 4; return true; }
		if (s.startsWith("false", i)) { i += 5; return false; }
		if (s.startsWith("null", i)) { i += 4; return null; }
		const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(s.substring(i));
		if (!m) fail("Unable to determine the current character, it is not a string, number, array, or object");
		i += m[0].length;
		if (m[1] || m[2]) return $.decParse(m[0]);
		const n = BigInt(m[0]);
		if (n >= -2147483648n && n <= 2147483647n) return Number(n);
		if (n >= -9223372036854775808n && n <= 9223372036854775807n) return n;
		throw ex("UnsupportedOperationException", "gojm: a JSON integer beyond 64 bits (BigInteger)");
	}
	function string() {
		i++;
		let out = "";
		for (;;) {
			if (i >= s.length) fail("Expected a '\"' to close the string");
			const c = s[i++];
			if (c === "\"") return out;
			if (c !== "\\") { out += c; continue; }
			const e = s[i++];
			switch (e) {
			case "n": out += "\n"; break;
			case "t": out += "\t"; break;
			case "r": out += "\r"; break;
			case "b": out += "\b"; break;
			case "f": out += "\f"; break;
			case "u": out += String.fromCharCode(parseInt(s.substring(i, i + 4), 16)); i += 4; break;
			default: out += e;
			}
		}
	}
	const v = value();
	ws();
	if (i < s.length) fail("Unexpected character '" + s[i] + "'");
	return v;
};

// ---- values kept between runs ------------------------------------------------------
// exportVal encodes a value as JSON text with type tags, so that another
// runtime (another virtual user's script) can rebuild it.
function enc(v) {
	if (v === null || v === undefined) return null;
	switch (typeof v) {
	case "string": return v;
	case "boolean": return v;
	case "number": return { I: v };
	case "bigint": return { L: v.toString() };
	}
	if (v instanceof JD) return { D: Number.isFinite(v.v) ? v.v : $.doubleStr(v.v) };
	if (v instanceof Dec) return { B: $.decStr(v) };
	if (v instanceof Ch) return { C: v.c };
	if (Array.isArray(v)) {
		if (v.$arr) return { R: v.$arr, A: v.map(enc) };
		if (v.$set) return { S: v.map(enc) };
		return { A: v.map(enc) };
	}
	if (v instanceof Map) return { M: $.mapEntries(v).map(([k, x]) => [enc(k), enc(x)]), h: !!v.$hash };
	if (v instanceof Range) return { G: [v.from, v.to, v.rev] };
	if (v.$t === "UUID") return { U: v.s };
	if (v.$store) return { X: v.$t, v: v.$store() };
	throw ex("UnsupportedOperationException", "gojm keeps only strings, numbers, booleans, lists and maps between script runs, not a " + $.typeName(v));
}
// restore rebuilds the values of other kinds that keep themselves
// ($store), by kind.
$.restore = {};
$.exportVal = (v) => JSON.stringify(enc(v));
function dec(o) {
	if (o === null || typeof o === "string" || typeof o === "boolean") return o;
	if ("I" in o) return o.I;
	if ("L" in o) return BigInt(o.L);
	if ("D" in o) return $.d(typeof o.D === "number" ? o.D : $.strToDouble(o.D));
	if ("B" in o) return $.decParse(o.B);
	if ("C" in o) return new Ch(o.C);
	if ("R" in o) return $.mkArray(o.R, o.A.map(dec));
	if ("S" in o) return $.mkSet(o.S.map(dec));
	if ("A" in o) return o.A.map(dec);
	if ("M" in o) { const m = o.h ? $.newHashMap() : new Map(); for (const [k, x] of o.M) $.mapPut(m, dec(k), dec(x)); return m; }
	if ("G" in o) return new Range(o.G[0], o.G[1], o.G[2]);
	if ("X" in o && $.restore[o.X]) return $.restore[o.X](o.v);
	if ("U" in o) return $.m($.sm("UUID", "fromString", [o.U]), "toString", []) && $.sm("UUID", "fromString", [o.U]);
	throw ex("IllegalStateException", "gojm: bad stored value");
}
$.importVal = (s) => dec(JSON.parse(s));
// plainVal turns a value into plain JSON-able data for the host (a
// script's return value, a BeanShell variable read back).
$.plainVal = function (v) { return enc(v); };
});
