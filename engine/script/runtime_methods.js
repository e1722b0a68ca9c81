// Methods, properties, static members and constructors of the Java and
// Groovy classes scripts use. T[kind]["name/arity"] = [return kind, fn,
// flags]: fn gets the receiver then the arguments; flag "g" marks a Groovy
// method (DefaultGroovyMethods), absent in BeanShell; arity "*" takes any
// number of arguments.
$mk.exts.push(function ($, J, H, bsh) {
"use strict";
const { JD, Dec, Ch, Range, JEx } = $;
const ex = $.ex, str = $.str, eq = $.eq, truth = $.truth, kindOf = $.kindOf, d = $.d;
const iter = $.iter;

const T = {};   // instance methods by kind
const S = {};   // static methods by class
const F = {};   // static fields by class
const N = {};   // constructors by class
$.T = T; $.S = S; $.F = F; $.N = N;

const parents = {
	Integer: "Num", Long: "Num", Double: "Num", BigDecimal: "Num", Num: "Object",
	List: "Coll", Array: "Coll", Set: "Coll", Range: "Coll", Coll: "Object",
};
$.parents = parents;

function def(kind, methods, flags) {
	const t = T[kind] || (T[kind] = {});
	for (const k of Object.keys(methods)) {
		const [ret, fn] = methods[k];
		if (flags === "g" && bsh) continue;
		t[k] = [ret, fn, flags || ""];
	}
}
$.def = def;
function defS(cls, methods, flags) {
	const t = S[cls] || (S[cls] = {});
	for (const k of Object.keys(methods)) { if (flags === "g" && bsh) continue; t[k] = methods[k]; }
}
$.defS = defS;

function lookup(kind, name, n) {
	for (let k = kind; k; k = parents[k] || (k === "Object" ? null : "Object")) {
		const t = T[k];
		if (!t) { if (k === "Object") break; continue; }
		const f = t[name + "/" + n] || t[name + "/*"];
		if (f) return f;
		if (k === "Object") break;
	}
	return null;
}
$.lookup = lookup;

function missing(r, name, args) {
	if (bsh) return ex("bsh.EvalError", "Error in method invocation: Method " + name + "(" + args.map($.typeName).join(", ") + ") not found in class'" + $.typeName(r) + "'");
	return ex("groovy.lang.MissingMethodException", "No signature of method: " + $.typeName(r) + "." + name + "() is applicable for argument types: (" + args.map($.typeName).join(", ") + ") values: " + $.listStr(args));
}
$.missing = missing;

// apply calls fn(r, ...args) without spreading (slow in goja) for the
// usual argument counts.
function apply(fn, r, args) {
	switch (args.length) {
	case 0: return fn(r);
	case 1: return fn(r, args[0]);
	case 2: return fn(r, args[0], args[1]);
	case 3: return fn(r, args[0], args[1], args[2]);
	}
	return fn(r, ...args);
}
function applyS(fn, args) {
	switch (args.length) {
	case 0: return fn();
	case 1: return fn(args[0]);
	case 2: return fn(args[0], args[1]);
	case 3: return fn(args[0], args[1], args[2]);
	}
	return fn(...args);
}
// m calls a method on a value.
$.m = function (r, name, args) {
	if (r === null || r === undefined) return nullCall(name, args);
	if (r === $.VOID) throw ex("bsh.EvalError", "Attempt to resolve method: " + name + "() on undefined variable or class name");
	const k = kindOf(r);
	const f = lookup(k, name, args.length);
	if (f) return apply(f[1], r, args);
	if (!bsh && r instanceof Map) {
		// a closure stored in a map: map.fn(args)
		const v = $.mapGet(r, name);
		if (typeof v === "function") return applyS(v, args);
	}
	throw missing(r, name, args);
};
$.msafe = (r, name, args) => r === null || r === undefined ? null : $.m(r, name, args);
$.mspread = function (r, name, args) {
	if (r === null || r === undefined) return null;
	return Array.from(iter(r)).map((x) => x === null ? null : $.m(x, name, args));
};
function nullCall(name, args) {
	if (!bsh) {
		switch (name + "/" + args.length) {
		case "toString/0": return "null";
		case "equals/1": return args[0] === null || args[0] === undefined;
		case "is/1": return args[0] === null || args[0] === undefined;
		case "asBoolean/0": return false;
		case "plus/1": if (typeof args[0] === "string") return "null" + args[0]; break;
		case "iterator/0": return [][Symbol.iterator]();
		}
	}
	throw $.npe(name + "()");
}
// call invokes a closure value.
$.call = function (f, args) {
	if (typeof f === "function") return applyS(f, args);
	if (f === null || f === undefined) throw $.npe("call()");
	return $.m(f, "call", args);
};
// sm calls a static method; sf reads a static field; nw constructs.
$.sm = function (cls, name, args) {
	const t = S[cls];
	const f = t && (t[name + "/" + args.length] || t[name + "/*"]);
	if (!f) {
		if (bsh) throw ex("bsh.EvalError", "Static method " + name + "(" + args.map($.typeName).join(", ") + ") not found in class'" + cls + "'");
		throw ex("groovy.lang.MissingMethodException", "No signature of method: static " + cls + "." + name + "() is applicable for argument types: (" + args.map($.typeName).join(", ") + ")");
	}
	return applyS(f[1], args);
};
$.sf = function (cls, name) {
	const t = F[cls];
	if (!t || !(name in t)) throw ex("groovy.lang.MissingPropertyException", "No such property: " + name + " for class: " + cls);
	const v = t[name];
	return typeof v === "function" && v.$lazy ? v() : v;
};
$.nw = function (cls, args) {
	const t = N[cls];
	const f = t && (t[args.length] || t["*"]);
	if (!f) {
		if ($.exShort[cls] || cls.endsWith("Exception") || cls.endsWith("Error")) return $.newEx(cls, args);
		throw ex(bsh ? "bsh.EvalError" : "groovy.lang.GroovyRuntimeException", "Could not find matching constructor for: " + cls + "(" + args.map($.typeName).join(", ") + ")");
	}
	return applyS(f, args);
};

// ---- properties ------------------------------------------------------------

function cap(name) { return name.charAt(0).toUpperCase() + name.substring(1); }
function getter(k, name) {
	return lookup(k, "get" + cap(name), 0) || lookup(k, "is" + cap(name), 0);
}
$.p = function (r, name) {
	if (r === null || r === undefined) {
		if (bsh) throw ex("bsh.EvalError", "Null Pointer while evaluating: ." + name);
		throw ex("NullPointerException", "Cannot get property '" + name + "' on null object");
	}
	const k = kindOf(r);
	if (r instanceof Map) {
		if (!bsh) return $.mapGet(r, name);
	}
	if (k === "Array" && name === "length") return r.length;
	if (r.$prop) { const v = r.$prop(name); if (v !== undefined) return v; }
	const g = getter(k, name);
	if (g) return g[1](r);
	if (!bsh && (k === "List" || k === "Set" || k === "Array" || k === "Range")) {
		return Array.from(iter(r)).map((x) => x === null || x === undefined ? null : $.p(x, name));
	}
	if (bsh) throw ex("bsh.EvalError", "No such property: " + name + " in " + $.typeName(r));
	throw ex("groovy.lang.MissingPropertyException", "No such property: " + name + " for class: " + $.typeName(r));
};
$.psafe = (r, name) => r === null || r === undefined ? null : $.p(r, name);
$.pspread = (r, name) => r === null || r === undefined ? null : Array.from(iter(r)).map((x) => x === null ? null : $.p(x, name));
$.setp = function (r, name, v) {
	if (r === null || r === undefined) {
		throw ex("NullPointerException", "Cannot set property '" + name + "' on null object");
	}
	if (r instanceof Map && !bsh) { $.mapPut(r, name, v); return v; }
	if (r.$setProp && r.$setProp(name, v)) return v;
	const s = lookup(kindOf(r), "set" + cap(name), 1);
	if (s) { s[1](r, v); return v; }
	if (bsh) throw ex("bsh.EvalError", "No such property: " + name + " in " + $.typeName(r));
	throw ex("groovy.lang.MissingPropertyException", "No such property: " + name + " for class: " + $.typeName(r));
};

// ---- indexes -------------------------------------------------------------------

function normIndex(i, len) { return i < 0 ? i + len : i; }
function rangeIdx(r, len) {
	let from = normIndex(r.from, len), to = normIndex(r.to, len);
	return [from, to, r.rev];
}
$.ix = function (r, i) {
	if (r === null || r === undefined) {
		if (bsh) throw ex("bsh.EvalError", "Null Pointer in array access");
		throw $.npe("getAt()");
	}
	if (bsh && !(Array.isArray(r) && r.$arr)) throw ex("bsh.EvalError", "Not an array");
	if (typeof r === "string") {
		if (i instanceof Range) {
			let [from, to, rev] = rangeIdx(i, r.length);
			if (from > to) [from, to] = [to, from];
			if (from < 0 || to >= r.length) throw ex("StringIndexOutOfBoundsException", "begin " + from + ", end " + (to + 1) + ", length " + r.length);
			let s = r.substring(from, to + 1);
			if (rev !== (normIndex(i.from, r.length) > normIndex(i.to, r.length))) s = s.split("").reverse().join("");
			return s;
		}
		const k = normIndex($.toInt(i), r.length);
		if (k < 0 || k >= r.length) throw ex("StringIndexOutOfBoundsException", "index " + k + ", length " + r.length);
		return r[k];
	}
	if (Array.isArray(r) || r instanceof Range) {
		const a = Array.isArray(r) ? r : r.toArray();
		if (i instanceof Range) {
			let [from, to] = rangeIdx(i, a.length);
			const rev = from > to !== i.rev;
			if (from > to) [from, to] = [to, from];
			if (from < 0 || to >= a.length) throw ex("IndexOutOfBoundsException", "toIndex = " + (to + 1));
			let out = a.slice(from, to + 1);
			if (rev) out.reverse();
			return r.$arr ? $.mkArray(r.$arr, out) : out;
		}
		if (Array.isArray(i)) return i.map((x) => $.ix(r, x));
		const k = normIndex($.toInt(i), a.length);
		if (k < 0 || k >= a.length) {
			if (r.$arr) {
				if (bsh) throw ex("bsh.EvalError", "Array index out of bounds: " + k);
				throw ex("ArrayIndexOutOfBoundsException", "Index " + k + " out of bounds for length " + a.length);
			}
			if (k < 0) throw ex("ArrayIndexOutOfBoundsException", "Negative array index [" + (k - a.length) + "] too large for array size " + a.length);
			return null;
		}
		return a[k];
	}
	if (r instanceof Map) return $.mapGet(r, i);
	if (r.$getAt) return r.$getAt(i);
	if (typeof i === "string") return $.p(r, i);
	throw missing(r, "getAt", [i]);
};
$.ixsafe = (r, i) => r === null || r === undefined ? null : $.ix(r, i);
$.setix = function (r, i, v) {
	if (r === null || r === undefined) throw $.npe("putAt()");
	if (bsh && !(Array.isArray(r) && r.$arr)) throw ex("bsh.EvalError", "Not an array");
	if (Array.isArray(r)) {
		let k = normIndex($.toInt(i), r.length);
		if (r.$arr) {
			if (k < 0 || k >= r.length) throw ex("ArrayIndexOutOfBoundsException", "Index " + k + " out of bounds for length " + r.length);
			v = elemCast(r.$arr, v);
			r[k] = v;
			return v;
		}
		if (k < 0) throw ex("IndexOutOfBoundsException", "Negative index [" + (k - r.length) + "] too large for list size " + r.length);
		while (r.length < k) r.push(null);
		r[k] = v;
		return v;
	}
	if (r instanceof Map) { $.mapPut(r, i, v); return v; }
	if (r.$putAt) { r.$putAt(i, v); return v; }
	if (typeof i === "string") return $.setp(r, i, v);
	throw missing(r, "putAt", [i, v]);
};
function elemCast(t, v) {
	switch (t) {
	case "int": case "long": case "double": case "char": case "boolean": case "String": case "byte":
		return t === "byte" ? (($.toInt(v) << 24) >> 24) : $.cast(v, t);
	}
	return v;
}
$.elemCast = elemCast;
$.newArray = function (t, dims) {
	const n = $.toInt(dims[0]);
	if (n < 0) throw ex("NegativeArraySizeException", String(n));
	const zero = { int: 0, long: 0n, double: d(0), boolean: false, char: new Ch(0), byte: 0 };
	const a = [];
	for (let i = 0; i < n; i++) a.push(dims.length > 1 ? $.newArray(t, dims.slice(1)) : (t in zero ? zero[t] : null));
	return $.mkArray(dims.length > 1 ? t + "[]" : t, a);
};
$.arrayOf = (t, items) => $.mkArray(t, items.map((x) => elemCast(t, x)));

// ---- Object ---------------------------------------------------------------

def("Object", {
	"toString/0": ["String", (r) => str(r)],
	"equals/1": ["Boolean", (r, o) => $.jequals(r, o)],
	"hashCode/0": ["Integer", (r) => $.javaHash(r)],
	"compareTo/1": ["Integer", (r, o) => { const c = $.cmp(r, o); return c < 0 ? -1 : c > 0 ? 1 : 0; }],
});
def("Object", {
	"is/1": ["Boolean", (r, o) => r === o],
	"asBoolean/0": ["Boolean", (r) => truth(r)],
	"toBoolean/0": ["Boolean", (r) => truth(r)],
	"asType/1": ["", (r, t) => $.as(r, t)],
	"inspect/0": ["String", (r) => inspect(r)],
	"with/1": ["", (r, f) => f(r)],
	"plus/1": ["", (r, o) => $.add(r, o)],
	"minus/1": ["", (r, o) => $.sub(r, o)],
	"multiply/1": ["", (r, o) => $.mul(r, o)],
	"div/1": ["", (r, o) => $.div(r, o)],
	"mod/1": ["", (r, o) => $.mod(r, o)],
	"power/1": ["", (r, o) => $.pow(r, o)],
	"isCase/1": ["Boolean", (r, o) => $.isCase(r, o)],
	"println/1": ["Null", (r, o) => { H.out($.str(o) + "\n"); return null; }],
	"println/0": ["Null", (r) => { H.out("\n"); return null; }],
	"print/1": ["Null", (r, o) => { H.out($.str(o)); return null; }],
	"sleep/1": ["Null", (r, ms) => { $.sleep(ms); return null; }],
}, "g");
function inspect(v) {
	if (typeof v === "string") return "'" + v.replace(/\\/g, "\\\\").replace(/'/g, "\\'") + "'";
	if (Array.isArray(v)) return "[" + v.map(inspect).join(", ") + "]";
	if (v instanceof Map) { if (v.size === 0) return "[:]"; return "[" + $.mapEntries(v).map(([k, x]) => inspect(k) + ":" + inspect(x)).join(", ") + "]"; }
	return str(v);
}
$.isCase = function (c, v) {
	if (c === null || c === undefined) return v === null || v === undefined;
	if (Array.isArray(c) || c instanceof Range) { for (const x of iter(c)) if (eq(x, v)) return true; return false; }
	if (c instanceof Map) return truth($.mapGet(c, v));
	if (typeof c === "function") return truth(c(v));
	if (c.$t === "Pattern") return c.$matches(str(v));
	if (c.$t === "Class") return $.isInst(v, c.name);
	return eq(c, v);
};
$.inop = (v, c) => $.isCase(c, v);

// ---- String ----------------------------------------------------------------

function needStr(v, what) {
	if (v === null || v === undefined) throw $.npe(what);
	if (typeof v === "string") return v;
	if (!bsh && (v instanceof Ch)) return String.fromCharCode(v.c);
	return v;
}
function sIndex(s, x, from) {
	if (x instanceof Ch) x = String.fromCharCode(x.c);
	else if (typeof x === "number") x = String.fromCharCode(x);
	return s.indexOf(x, from);
}
function checkRange(s, b, e) {
	if (b < 0 || e > s.length || b > e) throw ex("StringIndexOutOfBoundsException", "begin " + b + ", end " + e + ", length " + s.length);
}
function charArg(x) { return x instanceof Ch ? String.fromCharCode(x.c) : str(x); }
def("String", {
	"length/0": ["Integer", (s) => s.length],
	"charAt/1": ["Character", (s, i) => { i = $.toInt(i); if (i < 0 || i >= s.length) throw ex("StringIndexOutOfBoundsException", "index " + i + ", length " + s.length); return new Ch(s.charCodeAt(i)); }],
	"codePointAt/1": ["Integer", (s, i) => s.codePointAt($.toInt(i))],
	"substring/1": ["String", (s, b) => { b = $.toInt(b); checkRange(s, b, s.length); return b === 0 ? s : s.substring(b); }],
	"substring/2": ["String", (s, b, e) => { b = $.toInt(b); e = $.toInt(e); checkRange(s, b, e); return b === 0 && e === s.length ? s : s.substring(b, e); }],
	"subSequence/2": ["String", (s, b, e) => { b = $.toInt(b); e = $.toInt(e); checkRange(s, b, e); return s.substring(b, e); }],
	"indexOf/1": ["Integer", (s, x) => sIndex(s, x)],
	"indexOf/2": ["Integer", (s, x, f) => sIndex(s, x, Math.max(0, $.toInt(f)))],
	"lastIndexOf/1": ["Integer", (s, x) => s.lastIndexOf(charArg(x))],
	"lastIndexOf/2": ["Integer", (s, x, f) => $.toInt(f) < 0 ? -1 : s.lastIndexOf(charArg(x), $.toInt(f))],
	"contains/1": ["Boolean", (s, x) => { if (x === null) throw $.npe(); return s.includes(str(x)); }],
	"startsWith/1": ["Boolean", (s, x) => s.startsWith(needStr(x, "startsWith"))],
	"startsWith/2": ["Boolean", (s, x, o) => { o = $.toInt(o); return o >= 0 && s.startsWith(needStr(x, "startsWith"), o); }],
	"endsWith/1": ["Boolean", (s, x) => s.endsWith(needStr(x, "endsWith"))],
	"equals/1": ["Boolean", (s, o) => typeof o === "string" && s === o],
	"equalsIgnoreCase/1": ["Boolean", (s, o) => typeof o === "string" && (s === o || s.length === o.length && s.toUpperCase() === o.toUpperCase() && s.toLowerCase() === o.toLowerCase())],
	"compareTo/1": ["Integer", (s, o) => { o = needStr(o, "compareTo"); return javaStrCmp(s, o); }],
	"compareToIgnoreCase/1": ["Integer", (s, o) => javaStrCmp(s.toUpperCase().toLowerCase(), needStr(o, "compareToIgnoreCase").toUpperCase().toLowerCase())],
	"isEmpty/0": ["Boolean", (s) => s.length === 0],
	"isBlank/0": ["Boolean", (s) => s.trim().length === 0 && /^[\s\u001c-\u001f]*$/.test(s)],
	"trim/0": ["String", (s) => javaTrim(s)],
	"strip/0": ["String", (s) => s.replace(/^\s+|\s+$/g, "")],
	// Java hands back the string itself where nothing changes (identity.go)
	"toUpperCase/0": ["String", (s) => { const u = s.toUpperCase(); return u === s ? s : u; }],
	"toLowerCase/0": ["String", (s) => { const l = s.toLowerCase(); return l === s ? s : l; }],
	"replace/2": ["String", (s, a, b) => {
		a = charArg(needStr(a, "replace")); b = charArg(needStr(b, "replace"));
		if (a === "") return insertAll(s, b);
		if (s.indexOf(a) < 0 || a.length === 1 && a === b) return s;
		return s.split(a).join(b);
	}],
	"replaceAll/2": ["String", (s, re, rep) => J.reReplace(s, needStr(re, "replaceAll"), needStr(rep, "replaceAll"), true)],
	"replaceFirst/2": ["String", (s, re, rep) => J.reReplace(s, needStr(re, "replaceFirst"), needStr(rep, "replaceFirst"), false)],
	"matches/1": ["Boolean", (s, re) => J.reMatches(s, needStr(re, "matches"))],
	"split/1": ["Array", (s, re) => $.mkArray("String", J.reSplit(s, needStr(re, "split"), 0))],
	"split/2": ["Array", (s, re, n) => $.mkArray("String", J.reSplit(s, needStr(re, "split"), $.toInt(n)))],
	"concat/1": ["String", (s, o) => { o = needStr(o, "concat"); return o === "" ? s : s === "" ? J.fresh(o) : s + o; }],
	"hashCode/0": ["Integer", (s) => $.javaHash(s)],
	"toString/0": ["String", (s) => s],
	"intern/0": ["String", (s) => J.intern(s)],
	"repeat/1": ["String", (s, n) => { n = $.toInt(n); if (n < 0) throw ex("IllegalArgumentException", "count is negative: " + n); return s.repeat(n); }],
	"getBytes/0": ["Array", (s) => $.mkArray("byte", J.encode(s, "UTF-8"))],
	"getBytes/1": ["Array", (s, cs) => $.mkArray("byte", J.encode(s, charset(cs)))],
	"toCharArray/0": ["Array", (s) => $.mkArray("char", Array.from({ length: s.length }, (_, i) => new Ch(s.charCodeAt(i))))],
	"chars/0": ["List", (s) => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i))],
});
function charset(cs) {
	if (cs && cs.$t === "Charset") return cs.name;
	return str(cs);
}
$.charset = charset;
function javaStrCmp(a, b) {
	const n = Math.min(a.length, b.length);
	for (let i = 0; i < n; i++) { const c = a.charCodeAt(i) - b.charCodeAt(i); if (c !== 0) return c; }
	return a.length - b.length;
}
function javaTrim(s) {
	let b = 0, e = s.length;
	while (b < e && s.charCodeAt(b) <= 32) b++;
	while (e > b && s.charCodeAt(e - 1) <= 32) e--;
	return b === 0 && e === s.length ? s : s.substring(b, e);
}
function insertAll(s, x) { let out = x; for (const c of s) out += c + x; return out; }
$.javaTrim = javaTrim;

const numRe = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
def("String", {
	"toInteger/0": ["Integer", (s) => $.strToInt(s.trim ? s.trim() : s)],
	"toLong/0": ["Long", (s) => $.strToLong(s.trim())],
	"toDouble/0": ["Double", (s) => d($.strToDouble(s))],
	"toBigDecimal/0": ["BigDecimal", (s) => $.decParse(s.trim())],
	"toBoolean/0": ["Boolean", (s) => { const t = s.trim().toLowerCase(); return t === "true" || t === "y" || t === "1"; }],
	"toCharacter/0": ["Character", (s) => new Ch(s.charCodeAt(0))],
	"isInteger/0": ["Boolean", (s) => { try { $.strToInt(s.trim()); return true; } catch (e) { return false; } }],
	"isLong/0": ["Boolean", (s) => { try { $.strToLong(s.trim()); return true; } catch (e) { return false; } }],
	"isNumber/0": ["Boolean", (s) => numRe.test(s.trim())],
	"isBigDecimal/0": ["Boolean", (s) => numRe.test(s.trim())],
	"isDouble/0": ["Boolean", (s) => { try { $.strToDouble(s); return true; } catch (e) { return false; } }],
	"size/0": ["Integer", (s) => s.length],
	"take/1": ["String", (s, n) => s.substring(0, Math.max(0, Math.min(s.length, $.toInt(n))))],
	"drop/1": ["String", (s, n) => s.substring(Math.max(0, Math.min(s.length, $.toInt(n))))],
	"takeRight/1": ["String", (s, n) => s.substring(Math.max(0, s.length - Math.max(0, $.toInt(n))))],
	"reverse/0": ["String", (s) => Array.from(s).reverse().join("")],
	"capitalize/0": ["String", (s) => s.length ? s[0].toUpperCase() + s.substring(1) : s],
	"uncapitalize/0": ["String", (s) => s.length ? s[0].toLowerCase() + s.substring(1) : s],
	"padLeft/1": ["String", (s, n) => s.padStart($.toInt(n), " ")],
	"padLeft/2": ["String", (s, n, p) => pad(s, $.toInt(n), str(p), true)],
	"padRight/1": ["String", (s, n) => s.padEnd($.toInt(n), " ")],
	"padRight/2": ["String", (s, n, p) => pad(s, $.toInt(n), str(p), false)],
	"center/1": ["String", (s, n) => center(s, $.toInt(n), " ")],
	"center/2": ["String", (s, n, p) => center(s, $.toInt(n), str(p))],
	"count/1": ["Integer", (s, x) => { x = str(x); if (x === "") return s.length + 1; let n = 0, i = 0; while ((i = s.indexOf(x, i)) >= 0) { n++; i++; } return n; }],
	"tokenize/0": ["List", (s) => s.split(/[ \t\n\r\f]+/).filter((x) => x !== "")],
	"tokenize/1": ["List", (s, delims) => tokenize(s, str(delims))],
	"split/0": ["Array", (s) => $.mkArray("String", s.split(/\s+/).filter((x) => x !== ""))],
	"getAt/1": ["String", (s, i) => $.ix(s, i)],
	"each/1": ["String", (s, f) => { for (const c of s) f(c); return s; }],
	"eachLine/1": ["", (s, f) => { let r = null; for (const l of lines(s)) r = f(l); return r; }],
	"readLines/0": ["List", (s) => lines(s)],
	"find/1": ["String", (s, re) => { const m = J.reFind(s, re.$t === "Pattern" ? re.src : str(re), 0); return m ? m[0] : null; }],
	"findAll/1": ["List", (s, re) => J.reFindAll(s, re.$t === "Pattern" ? re.src : str(re)).map((m) => m[0])],
	"toList/0": ["List", (s) => Array.from({ length: s.length }, (_, i) => s[i])],
	"toSet/0": ["Set", (s) => $.mkSet(Array.from({ length: s.length }, (_, i) => s[i]))],
	"next/0": ["String", (s) => s.length ? s.substring(0, s.length - 1) + String.fromCharCode(s.charCodeAt(s.length - 1) + 1) : "\u0000"],
	"stripIndent/0": ["String", (s) => stripIndent(s)],
	"stripMargin/0": ["String", (s) => lines(s).map((l) => l.replace(/^\s*\|/, "")).join("\n")],
	"denormalize/0": ["String", (s) => s],
	"normalize/0": ["String", (s) => s.replace(/\r\n?/g, "\n")],
	"encodeBase64/0": ["Writable", (s) => writable(J.b64(J.encode(s, "UTF-8"), false))],
	"decodeBase64/0": ["Array", (s) => $.mkArray("byte", J.unb64(s))],
	"encodeURL/0": ["String", (s) => J.urlEncode(s, "UTF-8")],
	"minus/1": ["String", (s, x) => $.sub(s, x)],
	"plus/1": ["String", (s, x) => s + str(x)],
	"multiply/1": ["String", (s, n) => $.mul(s, n)],
	"contains/1": ["Boolean", (s, x) => s.includes(str(x))],
	"asBoolean/0": ["Boolean", (s) => s.length > 0],
	"isAllWhitespace/0": ["Boolean", (s) => /^\s*$/.test(s)],
	"md5/0": ["String", (s) => J.digest("MD5", s)],
	"sha256/0": ["String", (s) => J.digest("SHA-256", s)],
	"digest/1": ["String", (s, a) => J.digest(str(a), s)],
	"format/*": ["String", (s, ...args) => { throw missing(s, "format", args); }],
}, "g");
function pad(s, n, p, left) {
	if (s.length >= n || p === "") return s;
	let fill = "";
	while (fill.length < n - s.length) fill += p;
	fill = fill.substring(0, n - s.length);
	return left ? fill + s : s + fill;
}
function center(s, n, p) {
	if (s.length >= n) return s;
	const total = n - s.length, left = Math.floor(total / 2);
	return pad("", left, p, true) + s + pad("", total - left, p, true);
}
function lines(s) { const out = s.split(/\r\n|\r|\n/); if (out.length && out[out.length - 1] === "" ) out.pop(); return out; }
function tokenize(s, delims) {
	const out = [];
	let cur = "";
	for (const c of s) {
		if (delims.includes(c)) { if (cur !== "") out.push(cur); cur = ""; } else cur += c;
	}
	if (cur !== "") out.push(cur);
	return out;
}
function stripIndent(s) {
	const ls = s.split("\n");
	let min = Infinity;
	for (const l of ls) { if (l.trim() === "") continue; const m = /^[ \t]*/.exec(l)[0].length; min = Math.min(min, m); }
	if (min === Infinity) min = 0;
	return ls.map((l) => l.substring(Math.min(min, l.length))).join("\n");
}
function writable(s) { return { $t: "Writable", s: s, $str: function () { return this.s; } }; }
$.writable = writable;
def("Writable", { "toString/0": ["String", (w) => w.s] });

// ---- numbers ---------------------------------------------------------------

function numToStr(r) { return str(r); }
def("Num", {
	"toString/0": ["String", numToStr],
	"intValue/0": ["Integer", (r) => $.toInt(r)],
	"longValue/0": ["Long", (r) => $.toLong(r)],
	"doubleValue/0": ["Double", (r) => d($.toDouble(r))],
	"shortValue/0": ["Integer", (r) => ($.toInt(r) << 16) >> 16],
	"byteValue/0": ["Integer", (r) => ($.toInt(r) << 24) >> 24],
	"compareTo/1": ["Integer", (r, o) => { if (kindOf(o) !== kindOf(r) && bsh) throw ex("ClassCastException", $.typeName(o)); const c = $.numCmp(r, o); return c < 0 ? -1 : c > 0 ? 1 : 0; }],
	"equals/1": ["Boolean", (r, o) => $.jequals(r, o)],
	"hashCode/0": ["Integer", (r) => $.javaHash(r)],
	"isNaN/0": ["Boolean", (r) => r instanceof JD && Number.isNaN(r.v)],
	"isInfinite/0": ["Boolean", (r) => r instanceof JD && (r.v === Infinity || r.v === -Infinity)],
});
def("Num", {
	"toInteger/0": ["Integer", (r) => $.toInt(r)],
	"toLong/0": ["Long", (r) => $.toLong(r)],
	"toDouble/0": ["Double", (r) => d($.toDouble(r))],
	"toBigDecimal/0": ["BigDecimal", (r) => $.decOf(r)],
	"abs/0": ["", (r) => $.rank(r) === 3 ? new Dec(r.u < 0n ? -r.u : r.u, r.s) : ($.cmp(r, 0) < 0 ? $.neg(r) : r)],
	"times/1": ["Null", (r, f) => { const n = $.toLong(r); for (let i = 0; i < n; i++) f(typeof r === "bigint" ? BigInt(i) : i); return null; }],
	"upto/2": ["Null", (r, to, f) => { for (let i = r; $.cmp(i, to) <= 0; i = $.inc(i)) f(i); return null; }],
	"downto/2": ["Null", (r, to, f) => { for (let i = r; $.cmp(i, to) >= 0; i = $.dec_(i)) f(i); return null; }],
	"step/3": ["Null", (r, to, step, f) => { if ($.cmp(step, 0) > 0) { for (let i = r; $.cmp(i, to) < 0; i = $.add(i, step)) f(i); } else { for (let i = r; $.cmp(i, to) > 0; i = $.add(i, step)) f(i); } return null; }],
	"intdiv/1": ["", (r, o) => $.intdiv(r, o)],
	"round/0": ["", (r) => { if (r instanceof JD) return BigInt(Math.floor(r.v + 0.5)); if (r instanceof Dec) return $.decSetScale(r, 0); return r; }],
	"round/1": ["", (r, n) => { n = $.toInt(n); if (r instanceof JD) { return d(J.roundHalfUp(r.v, n)); } if (r instanceof Dec) return $.decSetScale(r, n); return r; }],
	"setScale/2": ["BigDecimal", (r, n, mode) => $.decSetScale($.decOf(r), $.toInt(n), mode && mode.$t === "RoundingMode" ? mode.name : str(mode))],
	"setScale/1": ["BigDecimal", (r, n) => $.decSetScale($.decOf(r), $.toInt(n), "UNNECESSARY")],
	"toPlainString/0": ["String", (r) => $.decPlain($.decOf(r))],
	"stripTrailingZeros/0": ["BigDecimal", (r) => { let x = $.decOf(r); if (x.u === 0n) return new Dec(0n, 0); while (x.u % 10n === 0n) x = new Dec(x.u / 10n, x.s - 1); return x; }],
	"scale/0": ["Integer", (r) => $.decOf(r).s],
	"precision/0": ["Integer", (r) => $.decPrecision($.decOf(r))],
	"max/1": ["", (r, o) => $.cmp(r, o) >= 0 ? r : o],
	"min/1": ["", (r, o) => $.cmp(r, o) <= 0 ? r : o],
	"power/1": ["", (r, o) => $.pow(r, o)],
	"mod/1": ["", (r, o) => $.mod(r, o)],
	"plus/1": ["", (r, o) => $.add(r, o)],
	"minus/1": ["", (r, o) => $.sub(r, o)],
	"multiply/1": ["", (r, o) => $.mul(r, o)],
	"div/1": ["", (r, o) => $.div(r, o)],
	"next/0": ["", (r) => $.inc(r)],
	"previous/0": ["", (r) => $.dec_(r)],
	"asBoolean/0": ["Boolean", (r) => truth(r)],
}, "g");
def("BigDecimal", {
	"add/1": ["BigDecimal", (r, o) => $.decAdd(r, decArg(o))],
	"subtract/1": ["BigDecimal", (r, o) => $.decSub(r, decArg(o))],
	"multiply/1": ["BigDecimal", (r, o) => $.decMul(r, decArg(o))],
	"divide/1": ["BigDecimal", (r, o) => { const q = $.decDivExact(r, decArg(o)); if (q === null) throw ex("ArithmeticException", "Non-terminating decimal expansion; no exact representable decimal result."); return q; }],
	"divide/3": ["BigDecimal", (r, o, n, mode) => decDivScale(r, decArg(o), $.toInt(n), mode && mode.$t === "RoundingMode" ? mode.name : "HALF_UP")],
	"negate/0": ["BigDecimal", (r) => new Dec(-r.u, r.s)],
	"signum/0": ["Integer", (r) => r.u > 0n ? 1 : r.u < 0n ? -1 : 0],
});
function decArg(o) { if (!(o instanceof Dec)) throw ex("ClassCastException", $.typeName(o)); return o; }
function decDivScale(a, b, scale, mode) {
	if (b.u === 0n) throw ex("ArithmeticException", "/ by zero");
	// a/b at scale with rounding: compute at scale+3 digits then round
	const shift = scale - a.s + b.s;
	let num = a.u, den = b.u;
	if (shift >= 0) num *= 10n ** BigInt(shift + 3); else { den *= 10n ** BigInt(-shift); num *= 1000n; }
	let q = num / den;
	if (num % den !== 0n) q = q * 10n + (q < 0n || num < 0n !== den < 0n ? -1n : 1n); else q *= 10n;
	return $.decSetScale(new Dec(q, scale + 4), scale, mode);
}

def("Boolean", {
	"booleanValue/0": ["Boolean", (b) => b],
	"toString/0": ["String", (b) => b ? "true" : "false"],
	"equals/1": ["Boolean", (b, o) => o === b],
});
def("Character", {
	"charValue/0": ["Character", (c) => c],
	"toString/0": ["String", (c) => String.fromCharCode(c.c)],
	"equals/1": ["Boolean", (c, o) => o instanceof Ch && o.c === c.c],
	"compareTo/1": ["Integer", (c, o) => c.c - o.c],
});
def("Character", {
	"isDigit/0": ["Boolean", (c) => /\d/.test(String.fromCharCode(c.c))],
	"isLetter/0": ["Boolean", (c) => /\p{L}/u.test(String.fromCharCode(c.c))],
	"isWhitespace/0": ["Boolean", (c) => /\s/.test(String.fromCharCode(c.c))],
	"isUpperCase/0": ["Boolean", (c) => /\p{Lu}/u.test(String.fromCharCode(c.c))],
	"isLowerCase/0": ["Boolean", (c) => /\p{Ll}/u.test(String.fromCharCode(c.c))],
	"toUpperCase/0": ["Character", (c) => new Ch(String.fromCharCode(c.c).toUpperCase().charCodeAt(0))],
	"toLowerCase/0": ["Character", (c) => new Ch(String.fromCharCode(c.c).toLowerCase().charCodeAt(0))],
	"plus/1": ["", (c, o) => $.add(c, o)],
}, "g");

// ---- collections -------------------------------------------------------------

function arr(r) { return Array.isArray(r) ? r : r.toArray(); }
function copyLike(r, a) { if (r.$set) { const s = $.mkSet(); for (const x of a) $.setAddTo(s, x); return s; } return a; }
function call1(f, x) { return f(x); }
function sortCmp(f) {
	if (!f) return (a, b) => $.cmp(a, b);
	if (f.length === 2) return (a, b) => $.toInt(f(a, b));
	return (a, b) => $.cmp(f(a), f(b));
}
function stableSort(a, c) {
	const idx = a.map((x, i) => [x, i]);
	idx.sort((x, y) => c(x[0], y[0]) || x[1] - y[1]);
	return idx.map((x) => x[0]);
}
function sumOf(a, init) {
	let acc = init;
	for (const x of a) acc = acc === undefined ? x : $.add(acc, x);
	return acc === undefined ? null : acc;
}
function flatten(a, out) { for (const x of a) { if (Array.isArray(x) || x instanceof Range) flatten(iter(x), out); else out.push(x); } return out; }
def("Coll", {
	"size/0": ["Integer", (r) => r instanceof Range ? r.size() : r.length],
	"isEmpty/0": ["Boolean", (r) => arr(r).length === 0],
	"contains/1": ["Boolean", (r, x) => arr(r).some((y) => eq(y, x))],
	"iterator/0": ["Iterator", (r) => iterator(arr(r).slice())],
	"toString/0": ["String", (r) => str(r)],
	"hashCode/0": ["Integer", (r) => { let h = 1; for (const x of iter(r)) h = (Math.imul(31, h) + (x === null ? 0 : $.javaHash(x))) | 0; return h; }],
	"equals/1": ["Boolean", (r, o) => $.jequals(r, o)],
});
def("List", {
	"get/1": ["", (r, i) => { i = $.toInt(i); if (i < 0 || i >= r.length) throw ex("IndexOutOfBoundsException", "Index " + i + " out of bounds for length " + r.length); return r[i]; }],
	"set/2": ["", (r, i, v) => { i = $.toInt(i); if (i < 0 || i >= r.length) throw ex("IndexOutOfBoundsException", "Index " + i + " out of bounds for length " + r.length); const old = r[i]; r[i] = v; return old; }],
	"add/1": ["Boolean", (r, x) => { r.push(x); return true; }],
	"add/2": ["Null", (r, i, x) => { i = $.toInt(i); if (i < 0 || i > r.length) throw ex("IndexOutOfBoundsException", "Index: " + i + ", Size: " + r.length); r.splice(i, 0, x); return null; }],
	"addAll/1": ["Boolean", (r, c) => { const a = Array.from(iter(c)); r.push(...a); return a.length > 0; }],
	"remove/1": ["", (r, x) => {
		if (typeof x === "number") { if (x < 0 || x >= r.length) throw ex("IndexOutOfBoundsException", "Index " + x + " out of bounds for length " + r.length); return r.splice(x, 1)[0]; }
		const i = r.findIndex((y) => eq(y, x)); if (i < 0) return false; r.splice(i, 1); return true;
	}],
	"indexOf/1": ["Integer", (r, x) => r.findIndex((y) => eq(y, x))],
	"lastIndexOf/1": ["Integer", (r, x) => { for (let i = r.length - 1; i >= 0; i--) if (eq(r[i], x)) return i; return -1; }],
	"clear/0": ["Null", (r) => { r.length = 0; return null; }],
	"subList/2": ["List", (r, a, b) => { a = $.toInt(a); b = $.toInt(b); if (a < 0 || b > r.length || a > b) throw ex("IndexOutOfBoundsException", "fromIndex: " + a + ", toIndex: " + b); return r.slice(a, b); }],
	"toArray/0": ["Array", (r) => $.mkArray("Object", r)],
	"containsAll/1": ["Boolean", (r, c) => Array.from(iter(c)).every((x) => r.some((y) => eq(x, y)))],
	"removeAll/1": ["Boolean", (r, c) => { const rm = Array.from(iter(c)); const n = r.length; const keep = r.filter((x) => !rm.some((y) => eq(x, y))); r.length = 0; r.push(...keep); return keep.length !== n; }],
	"retainAll/1": ["Boolean", (r, c) => { const rm = Array.from(iter(c)); const n = r.length; const keep = r.filter((x) => rm.some((y) => eq(x, y))); r.length = 0; r.push(...keep); return keep.length !== n; }],
});
def("Set", {
	"add/1": ["Boolean", (r, x) => { if (r.some((y) => eq(y, x))) return false; r.push(x); return true; }],
	"addAll/1": ["Boolean", (r, c) => { let ch = false; for (const x of iter(c)) { if (!r.some((y) => eq(y, x))) { r.push(x); ch = true; } } return ch; }],
	"remove/1": ["Boolean", (r, x) => { const i = r.findIndex((y) => eq(y, x)); if (i < 0) return false; r.splice(i, 1); return true; }],
	"clear/0": ["Null", (r) => { r.length = 0; return null; }],
	"toArray/0": ["Array", (r) => $.mkArray("Object", r)],
});
def("Range", {
	"getFrom/0": ["Integer", (r) => r.from],
	"getTo/0": ["Integer", (r) => r.to],
	"get/1": ["Integer", (r, i) => { i = $.toInt(i); if (i < 0 || i >= r.size()) throw ex("IndexOutOfBoundsException", "Index: " + i + " should not be greater than size of range"); return r.rev ? r.to - i : r.from + i; }],
	"isReverse/0": ["Boolean", (r) => r.rev],
});
def("Coll", {
	"each/1": ["", (r, f) => { for (const x of arr(r).slice()) f(x); return r; }],
	"eachWithIndex/1": ["", (r, f) => { let i = 0; for (const x of arr(r).slice()) f(x, i++); return r; }],
	"reverseEach/1": ["", (r, f) => { for (const x of arr(r).slice().reverse()) f(x); return r; }],
	"collect/0": ["List", (r) => arr(r).slice()],
	"collect/1": ["List", (r, f) => arr(r).map((x) => call1(f, x))],
	"collectMany/1": ["List", (r, f) => { const out = []; for (const x of arr(r)) out.push(...iter(f(x))); return out; }],
	"collectEntries/1": ["Map", (r, f) => { const m = new Map(); for (const x of arr(r)) { const e = f(x); putEntry(m, e); } return m; }],
	"collectEntries/0": ["Map", (r) => { const m = new Map(); for (const x of arr(r)) putEntry(m, x); return m; }],
	"findAll/1": ["List", (r, f) => copyLike(r, arr(r).filter((x) => truth(f(x))))],
	"findAll/0": ["List", (r) => copyLike(r, arr(r).filter((x) => truth(x)))],
	"find/1": ["", (r, f) => { for (const x of arr(r)) if (truth(f(x))) return x; return null; }],
	"find/0": ["", (r) => { for (const x of arr(r)) if (truth(x)) return x; return null; }],
	"findIndexOf/1": ["Integer", (r, f) => arr(r).findIndex((x) => truth(f(x)))],
	"findResult/1": ["", (r, f) => { for (const x of arr(r)) { const v = f(x); if (v !== null && v !== undefined) return v; } return null; }],
	"any/1": ["Boolean", (r, f) => arr(r).some((x) => truth(f(x)))],
	"any/0": ["Boolean", (r) => arr(r).some((x) => truth(x))],
	"every/1": ["Boolean", (r, f) => arr(r).every((x) => truth(f(x)))],
	"every/0": ["Boolean", (r) => arr(r).every((x) => truth(x))],
	"count/1": ["Integer", (r, f) => typeof f === "function" ? arr(r).filter((x) => truth(f(x))).length : arr(r).filter((x) => eq(x, f)).length],
	"join/0": ["String", (r) => arr(r).map(str).join("")],
	"join/1": ["String", (r, sep) => arr(r).map(str).join(str(sep))],
	"sum/0": ["", (r) => sumOf(arr(r))],
	"sum/1": ["", (r, f) => typeof f === "function" ? sumOf(arr(r).map((x) => f(x))) : sumOf(arr(r), f)],
	"max/0": ["", (r) => { let m = null; for (const x of arr(r)) if (m === null || $.cmp(x, m) > 0) m = x; return m; }],
	"min/0": ["", (r) => { let m = null; for (const x of arr(r)) if (m === null || $.cmp(x, m) < 0) m = x; return m; }],
	"max/1": ["", (r, f) => { const c = sortCmp(f); let m = null, first = true; for (const x of arr(r)) { if (first || c(x, m) > 0) m = x; first = false; } return m; }],
	"min/1": ["", (r, f) => { const c = sortCmp(f); let m = null, first = true; for (const x of arr(r)) { if (first || c(x, m) < 0) m = x; first = false; } return m; }],
	"first/0": ["", (r) => { const a = arr(r); if (!a.length) throw ex("NoSuchElementException", "Cannot access first() element from an empty List"); return a[0]; }],
	"last/0": ["", (r) => { const a = arr(r); if (!a.length) throw ex("NoSuchElementException", "Cannot access last() element from an empty List"); return a[a.length - 1]; }],
	"head/0": ["", (r) => { const a = arr(r); if (!a.length) throw ex("NoSuchElementException", "Cannot access first() element from an empty List"); return a[0]; }],
	"tail/0": ["List", (r) => { const a = arr(r); if (!a.length) throw ex("NoSuchElementException", "Cannot access tail() for an empty List"); return a.slice(1); }],
	"init/0": ["List", (r) => arr(r).slice(0, -1)],
	"take/1": ["List", (r, n) => arr(r).slice(0, Math.max(0, $.toInt(n)))],
	"drop/1": ["List", (r, n) => arr(r).slice(Math.max(0, $.toInt(n)))],
	"takeRight/1": ["List", (r, n) => { const a = arr(r); return a.slice(Math.max(0, a.length - $.toInt(n))); }],
	"reverse/0": ["List", (r) => { const out = arr(r).slice().reverse(); return r.$arr ? $.mkArray(r.$arr, out) : out; }],
	"sort/0": ["List", (r) => sortIn(r, sortCmp(null), true)],
	"sort/1": ["List", (r, f) => typeof f === "boolean" ? sortIn(r, sortCmp(null), f) : sortIn(r, sortCmp(f), true)],
	"sort/2": ["List", (r, mut, f) => sortIn(r, sortCmp(f), truth(mut))],
	"unique/0": ["List", (r) => uniq(r, null, true)],
	"unique/1": ["List", (r, f) => typeof f === "boolean" ? uniq(r, null, f) : uniq(r, f, true)],
	"toUnique/0": ["List", (r) => uniq(r, null, false)],
	"inject/2": ["", (r, init, f) => { let acc = init; for (const x of arr(r)) acc = f(acc, x); return acc; }],
	"inject/1": ["", (r, f) => { const a = arr(r); if (!a.length) throw ex("NoSuchElementException", "Cannot call inject() on an empty collection without passing an initial value."); let acc = a[0]; for (const x of a.slice(1)) acc = f(acc, x); return acc; }],
	"groupBy/1": ["Map", (r, f) => { const m = new Map(); for (const x of arr(r)) { const k = f(x); let l = $.mapGet(m, k); if (l === null) { l = []; $.mapPut(m, k, l); } l.push(x); } return m; }],
	"countBy/1": ["Map", (r, f) => { const m = new Map(); for (const x of arr(r)) { const k = f(x); $.mapPut(m, k, ($.mapGet(m, k) || 0) + 1); } return m; }],
	"flatten/0": ["List", (r) => flatten(arr(r), [])],
	"toList/0": ["List", (r) => arr(r).slice()],
	"asList/0": ["List", (r) => Array.isArray(r) && !r.$arr ? r : arr(r).slice()],
	"toSet/0": ["Set", (r) => $.mkSet(arr(r))],
	"asImmutable/0": ["List", (r) => r],
	"getAt/1": ["", (r, i) => $.ix(r, i)],
	"putAt/2": ["Null", (r, i, v) => { $.setix(r, i, v); return null; }],
	"plus/1": ["List", (r, x) => $.add(Array.isArray(r) && !r.$arr ? r : arr(r).slice(), x)],
	"minus/1": ["List", (r, x) => $.sub(Array.isArray(r) && !r.$arr ? r : arr(r).slice(), x)],
	"leftShift/1": ["List", (r, x) => { r.push(x); return r; }],
	"intersect/1": ["List", (r, c) => { const b = Array.from(iter(c)); return arr(r).filter((x) => b.some((y) => eq(x, y))); }],
	"disjoint/1": ["Boolean", (r, c) => { const b = Array.from(iter(c)); return !arr(r).some((x) => b.some((y) => eq(x, y))); }],
	"withIndex/0": ["List", (r) => arr(r).map((x, i) => [x, i])],
	"indexed/0": ["Map", (r) => { const m = new Map(); arr(r).forEach((x, i) => m.set(i, x)); return m; }],
	"collate/1": ["List", (r, n) => { n = $.toInt(n); const a = arr(r), out = []; for (let i = 0; i < a.length; i += n) out.push(a.slice(i, i + n)); return out; }],
	"shuffled/0": ["List", (r) => { const a = arr(r).slice(); shuffle(a, $.newRandom()); return a; }],
	"shuffle/0": ["Null", (r) => { shuffle(r, $.newRandom()); return null; }],
	"asBoolean/0": ["Boolean", (r) => arr(r).length > 0],
	"isCase/1": ["Boolean", (r, x) => $.isCase(r, x)],
	"length/0": ["Integer", (r) => arr(r).length],
	"pop/0": ["", (r) => { if (!r.length) throw ex("NoSuchElementException", "Cannot pop() an empty List"); return r.shift(); }],
	"push/1": ["Boolean", (r, x) => { r.unshift(x); return true; }],
	"removeAt/1": ["", (r, i) => r.splice($.toInt(i), 1)[0]],
	"removeElement/1": ["Boolean", (r, x) => { const i = r.findIndex((y) => eq(y, x)); if (i < 0) return false; r.splice(i, 1); return true; }],
	"removeIf/1": ["Boolean", (r, f) => { const n = r.length; const keep = r.filter((x) => !truth(f(x))); r.length = 0; r.push(...keep); return keep.length !== n; }],
	"transpose/0": ["List", (r) => { const a = arr(r); if (!a.length) return []; const n = Math.min(...a.map((x) => x.length)); const out = []; for (let i = 0; i < n; i++) out.push(a.map((x) => x[i])); return out; }],
}, "g");
function putEntry(m, e) {
	if (Array.isArray(e)) { if (e.length !== 2) throw ex("IllegalArgumentException", "collectEntries expects key-value pairs"); $.mapPut(m, e[0], e[1]); }
	else if (e instanceof Map) { for (const [k, v] of $.mapEntries(e)) $.mapPut(m, k, v); }
	else if (e && e.$t === "Entry") $.mapPut(m, e.k, e.v);
	else throw ex("IllegalArgumentException", "collectEntries: not a key-value pair: " + str(e));
}
function sortIn(r, c, mutate) {
	const sorted = stableSort(arr(r), c);
	if (mutate && Array.isArray(r)) { r.length = 0; r.push(...sorted); return r; }
	return r.$arr ? $.mkArray(r.$arr, sorted) : sorted;
}
function uniq(r, f, mutate) {
	const out = [];
	const same = !f ? eq : f.length === 2 ? (a, b) => $.toInt(f(a, b)) === 0 : (a, b) => eq(f(a), f(b));
	for (const x of arr(r)) if (!out.some((y) => same(y, x))) out.push(x);
	if (mutate && Array.isArray(r)) { r.length = 0; r.push(...out); return r; }
	return out;
}
function shuffle(a, rnd) {
	for (let i = a.length; i > 1; i--) { const j = rnd.nextInt(i); const t = a[i - 1]; a[i - 1] = a[j]; a[j] = t; }
}
$.shuffle = shuffle;
function iterator(a) {
	let i = 0;
	return { $t: "Iterator", hasNext: () => i < a.length, next: () => { if (i >= a.length) throw ex("NoSuchElementException", null); return a[i++]; }, $iter: function* () { while (i < a.length) yield a[i++]; } };
}
def("Iterator", {
	"hasNext/0": ["Boolean", (it) => it.hasNext()],
	"next/0": ["", (it) => it.next()],
});
// java.util.concurrent.TimeUnit: conversions truncate toward zero and
// saturate at Long's bounds, as Java's do.
const timeUnits = [["NANOSECONDS", 1n], ["MICROSECONDS", 1000n], ["MILLISECONDS", 1000000n], ["SECONDS", 1000000000n],
	["MINUTES", 60000000000n], ["HOURS", 3600000000000n], ["DAYS", 86400000000000n]];
F.TimeUnit = {};
for (const [name, ns] of timeUnits) F.TimeUnit[name] = { $t: "TimeUnit", name: name, ns: ns, $str: function () { return this.name; } };
$.javaNames.TimeUnit = "java.util.concurrent.TimeUnit";
const LONG_MAX = 9223372036854775807n, LONG_MIN = -9223372036854775808n;
function unitConvert(v, from, to) {
	const x = $.toLong(v) * from / to;
	return x > LONG_MAX ? LONG_MAX : x < LONG_MIN ? LONG_MIN : x;
}
const unitDefs = {
	"convert/2": ["Long", (u, d, from) => unitConvert(d, from.ns, u.ns)],
	"sleep/1": ["Null", (u, d) => { const ms = unitConvert(d, u.ns, 1000000n); if (ms > 0n) $.sleep(ms); return null; }],
	"name/0": ["String", (u) => u.name],
	"toString/0": ["String", (u) => u.name],
	"ordinal/0": ["Integer", (u) => timeUnits.findIndex((t) => t[0] === u.name)],
};
const unitMethods = ["toNanos", "toMicros", "toMillis", "toSeconds", "toMinutes", "toHours", "toDays"];
timeUnits.forEach(([, ns], i) => { unitDefs[unitMethods[i] + "/1"] = ["Long", (u, d) => unitConvert(d, u.ns, ns)]; });
def("TimeUnit", unitDefs);
defS("TimeUnit", { "valueOf/1": ["TimeUnit", (n) => { const u = F.TimeUnit[str(n)]; if (!u) throw ex("IllegalArgumentException", "No enum constant java.util.concurrent.TimeUnit." + str(n)); return u; }] });

// Enumeration (Properties.propertyNames(), keys(), elements()): an
// iterator by its older names.
$.enumeration = function (a) { const it = iterator(a); it.$t = "Enumeration"; return it; };
$.javaNames.Enumeration = "java.util.Hashtable$Enumerator";
def("Enumeration", {
	"hasMoreElements/0": ["Boolean", (it) => it.hasNext()],
	"nextElement/0": ["", (it) => it.next()],
	"asIterator/0": ["Iterator", (it) => iterator(Array.from(it.$iter()))],
});

// Map
function mapEach(m, f) {
	for (const [k, v] of $.mapEntries(m)) { if (f.length === 2) f(k, v); else f($.entry(m, k, v)); }
}
function mapArgs(f, m, k, v) { return f.length === 2 ? f(k, v) : f($.entry(m, k, v)); }
function keySet(m) { return $.mkSet($.mapEntries(m).map((e) => e[0])); }
def("Map", {
	"get/1": ["", (m, k) => $.mapGet(m, k)],
	"put/2": ["", (m, k, v) => $.mapPut(m, k, v)],
	"containsKey/1": ["Boolean", (m, k) => $.mapHas(m, k)],
	"containsValue/1": ["Boolean", (m, v) => Array.from(m.values()).some((x) => eq(x, v))],
	"remove/1": ["", (m, k) => $.mapRemove(m, k)],
	"size/0": ["Integer", (m) => m.size],
	"isEmpty/0": ["Boolean", (m) => m.size === 0],
	"clear/0": ["Null", (m) => { m.clear(); return null; }],
	"keySet/0": ["Set", (m) => keySet(m)],
	"values/0": ["List", (m) => $.mapEntries(m).map((e) => e[1])],
	"entrySet/0": ["Set", (m) => { const s = $.mkSet(); for (const [k, v] of $.mapEntries(m)) s.push($.entry(m, k, v)); return s; }],
	"putAll/1": ["Null", (m, o) => { for (const [k, v] of $.mapEntries(o)) $.mapPut(m, k, v); return null; }],
	"getOrDefault/2": ["", (m, k, dflt) => $.mapHas(m, k) ? $.mapGet(m, k) : dflt],
	"putIfAbsent/2": ["", (m, k, v) => { const old = $.mapGet(m, k); if (old === null) $.mapPut(m, k, v); return old; }],
	"toString/0": ["String", (m) => str(m)],
	"equals/1": ["Boolean", (m, o) => eq(m, o)],
	"hashCode/0": ["Integer", (m) => { let h = 0; for (const [k, v] of $.mapEntries(m)) h = (h + (($.javaHash(k) ^ (v === null ? 0 : $.javaHash(v))) | 0)) | 0; return h; }],
});
def("Map", {
	"get/2": ["", (m, k, dflt) => { if ($.mapHas(m, k)) return $.mapGet(m, k); $.mapPut(m, k, dflt); return dflt; }],
	"each/1": ["Map", (m, f) => { mapEach(m, f); return m; }],
	"eachWithIndex/1": ["Map", (m, f) => { let i = 0; for (const [k, v] of $.mapEntries(m)) f($.entry(m, k, v), i++); return m; }],
	"collect/1": ["List", (m, f) => $.mapEntries(m).map(([k, v]) => mapArgs(f, m, k, v))],
	"collectEntries/1": ["Map", (m, f) => { const out = new Map(); for (const [k, v] of $.mapEntries(m)) putEntry(out, mapArgs(f, m, k, v)); return out; }],
	"findAll/1": ["Map", (m, f) => { const out = new Map(); for (const [k, v] of $.mapEntries(m)) if (truth(mapArgs(f, m, k, v))) $.mapPut(out, k, v); return out; }],
	"find/1": ["Entry", (m, f) => { for (const [k, v] of $.mapEntries(m)) if (truth(mapArgs(f, m, k, v))) return $.entry(m, k, v); return null; }],
	"any/1": ["Boolean", (m, f) => $.mapEntries(m).some(([k, v]) => truth(mapArgs(f, m, k, v)))],
	"every/1": ["Boolean", (m, f) => $.mapEntries(m).every(([k, v]) => truth(mapArgs(f, m, k, v)))],
	"count/1": ["Integer", (m, f) => $.mapEntries(m).filter(([k, v]) => truth(mapArgs(f, m, k, v))).length],
	"sort/0": ["Map", (m) => { const out = new Map(); for (const [k, v] of stableSort($.mapEntries(m), (a, b) => $.cmp(a[0], b[0]))) $.mapPut(out, k, v); return out; }],
	"sort/1": ["Map", (m, f) => { const out = new Map(); const c = f.length === 2 ? (a, b) => $.toInt(f($.entry(m, a[0], a[1]), $.entry(m, b[0], b[1]))) : (a, b) => $.cmp(f($.entry(m, a[0], a[1])), f($.entry(m, b[0], b[1]))); for (const [k, v] of stableSort($.mapEntries(m), c)) $.mapPut(out, k, v); return out; }],
	"getAt/1": ["", (m, k) => $.mapGet(m, k)],
	"putAt/2": ["Null", (m, k, v) => { $.mapPut(m, k, v); return null; }],
	"plus/1": ["Map", (m, o) => $.add(m, o)],
	"minus/1": ["Map", (m, o) => $.sub(m, o)],
	"subMap/1": ["Map", (m, keys) => { const out = new Map(); for (const k of iter(keys)) if ($.mapHas(m, k)) $.mapPut(out, k, $.mapGet(m, k)); return out; }],
	"asBoolean/0": ["Boolean", (m) => m.size > 0],
	"max/1": ["Entry", (m, f) => { let best = null, bv; for (const [k, v] of $.mapEntries(m)) { const e = $.entry(m, k, v); const x = f.length === 2 ? null : f(e); if (best === null || $.cmp(x, bv) > 0) { best = e; bv = x; } } return best; }],
	"min/1": ["Entry", (m, f) => { let best = null, bv; for (const [k, v] of $.mapEntries(m)) { const e = $.entry(m, k, v); const x = f(e); if (best === null || $.cmp(x, bv) < 0) { best = e; bv = x; } } return best; }],
	"groupBy/1": ["Map", (m, f) => { const out = new Map(); for (const [k, v] of $.mapEntries(m)) { const g = mapArgs(f, m, k, v); let sub = $.mapGet(out, g); if (sub === null) { sub = new Map(); $.mapPut(out, g, sub); } $.mapPut(sub, k, v); } return out; }],
	"inject/2": ["", (m, init, f) => { let acc = init; for (const [k, v] of $.mapEntries(m)) acc = f.length === 3 ? f(acc, k, v) : f(acc, $.entry(m, k, v)); return acc; }],
	"isCase/1": ["Boolean", (m, k) => truth($.mapGet(m, k))],
	"keySet/0": ["Set", (m) => keySet(m)],
}, "g");
def("Entry", {
	"getKey/0": ["", (e) => e.k],
	"getValue/0": ["", (e) => e.v],
	"setValue/1": ["", (e, v) => { const old = e.v; e.v = v; $.mapPut(e.m, e.k, v); return old; }],
	"toString/0": ["String", (e) => e.$str()],
});

def("Closure", {
	"call/*": ["", (f, ...args) => f(...args)],
	"getMaximumNumberOfParameters/0": ["Integer", (f) => f.length],
}, "g");

// ---- exceptions --------------------------------------------------------------

def("Exception", {
	"getMessage/0": ["String", (e) => e.msg],
	"getLocalizedMessage/0": ["String", (e) => e.msg],
	"toString/0": ["String", (e) => e.toString()],
	"getCause/0": ["Exception", (e) => e.cause],
	"printStackTrace/0": ["Null", (e) => { H.log("error", e.toString()); return null; }],
});

// ---- Random, StringBuilder, UUID ---------------------------------------------------

// java.util.Random, with Java's generator (48-bit LCG).
const MULT = 0x5DEECE66Dn, MASK = (1n << 48n) - 1n;
function Random(seed) {
	this.$t = "Random";
	this.setSeed(seed);
}
Random.prototype.setSeed = function (seed) { this.seed = (BigInt.asIntN(64, BigInt(seed)) ^ MULT) & MASK; this.haveG = false; };
Random.prototype.next = function (bits) {
	this.seed = (this.seed * MULT + 0xBn) & MASK;
	return Number(BigInt.asIntN(32, this.seed >> BigInt(48 - bits)));
};
Random.prototype.nextInt = function (bound) {
	if (bound === undefined) return this.next(32);
	if (bound <= 0) throw ex("IllegalArgumentException", "bound must be positive");
	if ((bound & -bound) === bound) return Number((BigInt(bound) * BigInt(this.next(31))) >> 31n);
	let bits, val;
	do { bits = this.next(31); val = bits % bound; } while (bits - val + (bound - 1) > 2147483647);
	return val;
};
Random.prototype.nextLong = function () { return L64((BigInt(this.next(32)) << 32n) + BigInt(this.next(32))); };
Random.prototype.nextDouble = function () { return Number((BigInt(this.next(26)) << 27n) + BigInt(this.next(27))) * 2 ** -53; };
Random.prototype.nextBoolean = function () { return this.next(1) !== 0; };
Random.prototype.nextGaussian = function () {
	if (this.haveG) { this.haveG = false; return this.nextG; }
	let v1, v2, s;
	do { v1 = 2 * this.nextDouble() - 1; v2 = 2 * this.nextDouble() - 1; s = v1 * v1 + v2 * v2; } while (s >= 1 || s === 0);
	const mul = J.strictSqrt(-2 * J.strictLog(s) / s);
	this.nextG = v2 * mul; this.haveG = true;
	return v1 * mul;
};
Random.prototype.nextBytes = function (n) {
	const out = [];
	for (let i = 0; i < n;) { for (let rnd = this.nextInt(), k = Math.min(n - i, 4); k-- > 0; rnd >>= 8) out[i++] = (rnd << 24) >> 24; }
	return out;
};
function L64(x) { return BigInt.asIntN(64, x); }
$.RandomClass = Random;
$.newRandom = function (seed) { return new Random(seed === undefined ? H.seed() : seed); };
def("Random", {
	"nextInt/0": ["Integer", (r) => r.nextInt()],
	"nextInt/1": ["Integer", (r, b) => r.nextInt($.toInt(b))],
	"nextInt/2": ["Integer", (r, o, b) => { o = $.toInt(o); b = $.toInt(b); if (o >= b) throw ex("IllegalArgumentException", "bound must be greater than origin"); const n = b - o; if (n > 0) return o + r.nextInt(n); let x; do { x = r.nextInt(); } while (x < o || x >= b); return x; }],
	"nextLong/0": ["Long", (r) => r.nextLong()],
	"nextDouble/0": ["Double", (r) => d(r.nextDouble())],
	"nextBoolean/0": ["Boolean", (r) => r.nextBoolean()],
	"nextGaussian/0": ["Double", (r) => d(r.nextGaussian())],
	"setSeed/1": ["Null", (r, s) => { r.setSeed($.toLong(s)); return null; }],
	"nextBytes/1": ["Null", (r, a) => { const b = r.nextBytes(a.length); for (let i = 0; i < b.length; i++) a[i] = b[i]; return null; }],
});

function SB(s) { this.$t = "StringBuilder"; this.sb = s; }
SB.prototype.$str = function () { return this.sb; };
function sbArg(x) { return str(x); }
def("StringBuilder", {
	"append/1": ["StringBuilder", (b, x) => { b.sb += Array.isArray(x) && x.$arr === "char" ? x.map((c) => String.fromCharCode(c.c)).join("") : sbArg(x); return b; }],
	"toString/0": ["String", (b) => b.sb],
	"length/0": ["Integer", (b) => b.sb.length],
	"insert/2": ["StringBuilder", (b, i, x) => { i = $.toInt(i); if (i < 0 || i > b.sb.length) throw ex("StringIndexOutOfBoundsException", "offset " + i + ", length " + b.sb.length); b.sb = b.sb.substring(0, i) + sbArg(x) + b.sb.substring(i); return b; }],
	"reverse/0": ["StringBuilder", (b) => { b.sb = Array.from(b.sb).reverse().join(""); return b; }],
	"setLength/1": ["Null", (b, n) => { n = $.toInt(n); b.sb = n <= b.sb.length ? b.sb.substring(0, n) : b.sb + "\u0000".repeat(n - b.sb.length); return null; }],
	"deleteCharAt/1": ["StringBuilder", (b, i) => { i = $.toInt(i); if (i < 0 || i >= b.sb.length) throw ex("StringIndexOutOfBoundsException", "index " + i + ",length " + b.sb.length); b.sb = b.sb.substring(0, i) + b.sb.substring(i + 1); return b; }],
	"delete/2": ["StringBuilder", (b, s, e) => { s = $.toInt(s); e = Math.min($.toInt(e), b.sb.length); if (s < 0 || s > e) throw ex("StringIndexOutOfBoundsException", "start " + s + ", end " + e + ", length " + b.sb.length); b.sb = b.sb.substring(0, s) + b.sb.substring(e); return b; }],
	"charAt/1": ["Character", (b, i) => { i = $.toInt(i); if (i < 0 || i >= b.sb.length) throw ex("StringIndexOutOfBoundsException", "index " + i + ",length " + b.sb.length); return new Ch(b.sb.charCodeAt(i)); }],
	"indexOf/1": ["Integer", (b, s) => b.sb.indexOf(str(s))],
	"lastIndexOf/1": ["Integer", (b, s) => b.sb.lastIndexOf(str(s))],
	"substring/1": ["String", (b, s) => { s = $.toInt(s); checkRange(b.sb, s, b.sb.length); return b.sb.substring(s); }],
	"substring/2": ["String", (b, s, e) => { s = $.toInt(s); e = $.toInt(e); checkRange(b.sb, s, e); return b.sb.substring(s, e); }],
	"setCharAt/2": ["Null", (b, i, c) => { i = $.toInt(i); b.sb = b.sb.substring(0, i) + String.fromCharCode(c.c) + b.sb.substring(i + 1); return null; }],
	"replace/3": ["StringBuilder", (b, s, e, x) => { s = $.toInt(s); e = Math.min($.toInt(e), b.sb.length); b.sb = b.sb.substring(0, s) + str(x) + b.sb.substring(e); return b; }],
	"isEmpty/0": ["Boolean", (b) => b.sb.length === 0],
});
def("StringBuilder", {
	"leftShift/1": ["StringBuilder", (b, x) => { b.sb += str(x); return b; }],
	"size/0": ["Integer", (b) => b.sb.length],
}, "g");

function UUID(s) { this.$t = "UUID"; this.s = s; }
UUID.prototype.$str = function () { return this.s; };
UUID.prototype.$eq = function (o) { return this.s === o.s; };
function uuidFromBytes(b) {
	b[6] = (b[6] & 0x0f) | 0x40;
	b[8] = (b[8] & 0x3f) | 0x80;
	const h = b.map((x) => ((x & 0xff) + 0x100).toString(16).substring(1)).join("");
	return new UUID(h.substring(0, 8) + "-" + h.substring(8, 12) + "-" + h.substring(12, 16) + "-" + h.substring(16, 20) + "-" + h.substring(20));
}
def("UUID", {
	"toString/0": ["String", (u) => u.s],
	"equals/1": ["Boolean", (u, o) => o instanceof UUID && o.s === u.s],
	"version/0": ["Integer", (u) => parseInt(u.s[14], 16)],
});

def("Thread", {
	"getName/0": ["String", () => H.threadName()],
	"sleep/1": ["Null", (t, ms) => { $.sleep(ms); return null; }],
	"isInterrupted/0": ["Boolean", () => false],
});
def("URL", {
	"toString/0": ["String", (u) => u.s],
	"getProtocol/0": ["String", (u) => u.parts[0]],
	"getHost/0": ["String", (u) => u.parts[1]],
	"getPort/0": ["Integer", (u) => u.parts[2]],
	"getPath/0": ["String", (u) => u.parts[3]],
	"getQuery/0": ["String", (u) => u.parts[4]],
	"getFile/0": ["String", (u) => u.parts[4] === null ? u.parts[3] : u.parts[3] + "?" + u.parts[4]],
	"toExternalForm/0": ["String", (u) => u.s],
});
$.url = function (s) { if (s === null || s === "") return null; const p = J.urlParts(s); return { $t: "URL", s: s, parts: p, $str: function () { return this.s; } }; };

// ---- statics -------------------------------------------------------------------

$.sleep = function (ms) {
	ms = $.toLong(ms);
	if (ms < 0n) throw ex("IllegalArgumentException", "timeout value is negative");
	H.sleep(Number(ms));
};
function parseIntRadix(s, radix) {
	if (s === null || s === undefined) throw ex("NumberFormatException", bsh ? "null" : "Cannot parse null string: null");
	s = str(s);
	if (radix === undefined || radix === 10) return $.strToInt(s);
	const re = new RegExp("^[+-]?[" + "0123456789abcdefghijklmnopqrstuvwxyz".substring(0, radix) + "]+$", "i");
	if (!re.test(s)) throw ex("NumberFormatException", "For input string: \"" + s + "\" under radix " + radix);
	const v = parseInt(s, radix);
	if (v > 2147483647 || v < -2147483648) throw ex("NumberFormatException", "For input string: \"" + s + "\" under radix " + radix);
	return v;
}
function parseLong(s) {
	if (s === null || s === undefined) throw ex("NumberFormatException", bsh ? "null" : "Cannot parse null string: null");
	return $.strToLong(str(s));
}
function parseDouble(s) {
	if (s === null || s === undefined) throw ex("NullPointerException", null);
	return d($.strToDouble(str(s)));
}
function hexStr(x, bits) { return (bits === 32 ? (x >>> 0) : BigInt.asUintN(64, BigInt(x))).toString(16); }
defS("Integer", {
	"parseInt/1": ["Integer", (s) => parseIntRadix(s)],
	"parseInt/2": ["Integer", (s, r) => parseIntRadix(s, $.toInt(r))],
	"valueOf/1": ["Integer", (s) => typeof s === "string" ? parseIntRadix(s) : $.cast(s, "Integer")],
	"toString/1": ["String", (i) => String($.toInt(i))],
	"toString/2": ["String", (i, r) => $.toInt(i).toString($.toInt(r))],
	"toHexString/1": ["String", (i) => hexStr($.toInt(i), 32)],
	"toBinaryString/1": ["String", (i) => ($.toInt(i) >>> 0).toString(2)],
	"max/2": ["Integer", (a, b) => Math.max($.toInt(a), $.toInt(b))],
	"min/2": ["Integer", (a, b) => Math.min($.toInt(a), $.toInt(b))],
	"sum/2": ["Integer", (a, b) => ($.toInt(a) + $.toInt(b)) | 0],
	"compare/2": ["Integer", (a, b) => Math.sign($.toInt(a) - $.toInt(b))],
	"signum/1": ["Integer", (a) => Math.sign($.toInt(a))],
});
defS("Long", {
	"parseLong/1": ["Long", (s) => parseLong(s)],
	"valueOf/1": ["Long", (s) => typeof s === "string" ? parseLong(s) : $.cast(s, "Long")],
	"toString/1": ["String", (i) => $.toLong(i).toString()],
	"toHexString/1": ["String", (i) => hexStr($.toLong(i), 64)],
	"max/2": ["Long", (a, b) => { a = $.toLong(a); b = $.toLong(b); return a > b ? a : b; }],
	"min/2": ["Long", (a, b) => { a = $.toLong(a); b = $.toLong(b); return a < b ? a : b; }],
	"compare/2": ["Integer", (a, b) => { a = $.toLong(a); b = $.toLong(b); return a < b ? -1 : a > b ? 1 : 0; }],
});
defS("Double", {
	"parseDouble/1": ["Double", (s) => parseDouble(s)],
	"valueOf/1": ["Double", (s) => typeof s === "string" ? parseDouble(s) : $.cast(s, "Double")],
	"toString/1": ["String", (x) => $.doubleStr($.toDouble(x))],
	"isNaN/1": ["Boolean", (x) => Number.isNaN($.toDouble(x))],
	"compare/2": ["Integer", (a, b) => Math.sign($.toDouble(a) - $.toDouble(b))],
});
defS("Boolean", {
	"parseBoolean/1": ["Boolean", (s) => typeof s === "string" && s.toLowerCase() === "true"],
	"valueOf/1": ["Boolean", (s) => typeof s === "boolean" ? s : typeof s === "string" && s.toLowerCase() === "true"],
	"toString/1": ["String", (b) => b ? "true" : "false"],
});
defS("String", {
	"valueOf/1": ["String", (x) => Array.isArray(x) && x.$arr === "char" ? x.map((c) => String.fromCharCode(c.c)).join("") : str(x)],
	"format/*": ["String", (f, ...args) => $.format(f, args)],
	"join/*": ["String", (sep, ...items) => { if (items.length === 1 && (Array.isArray(items[0]) || items[0] instanceof Range)) items = Array.from(iter(items[0])); return items.map(str).join(str(sep)); }],
});
defS("Character", {
	"isDigit/1": ["Boolean", (c) => /\p{Nd}/u.test(chr(c))],
	"isLetter/1": ["Boolean", (c) => /\p{L}/u.test(chr(c))],
	"isLetterOrDigit/1": ["Boolean", (c) => /[\p{L}\p{Nd}]/u.test(chr(c))],
	"isWhitespace/1": ["Boolean", (c) => /[\t\n\u000b\f\r\u001c-\u001f \u1680\u2000-\u2006\u2008-\u200a\u2028\u2029\u205f\u3000]/.test(chr(c))],
	"isUpperCase/1": ["Boolean", (c) => /\p{Lu}/u.test(chr(c))],
	"isLowerCase/1": ["Boolean", (c) => /\p{Ll}/u.test(chr(c))],
	"toUpperCase/1": ["Character", (c) => new Ch(chr(c).toUpperCase().charCodeAt(0))],
	"toLowerCase/1": ["Character", (c) => new Ch(chr(c).toLowerCase().charCodeAt(0))],
	"toString/1": ["String", (c) => chr(c)],
	"valueOf/1": ["Character", (c) => c instanceof Ch ? c : new Ch($.toInt(c))],
	"getNumericValue/1": ["Integer", (c) => { const s = chr(c); return /\d/.test(s) ? parseInt(s, 10) : /[a-z]/i.test(s) ? parseInt(s, 36) : -1; }],
});
function chr(c) { return c instanceof Ch ? String.fromCharCode(c.c) : String.fromCharCode($.toInt(c)); }
function mathD(f) { return (...a) => d(f(...a.map($.toDouble))); }
function mathNum(fi, fl, fd) {
	return (...a) => {
		const r = Math.max(...a.map($.rank));
		if (r <= 1) return fi(...a.map($.toInt));
		if (r === 2) return fl(...a.map($.toLong));
		return d(fd(...a.map($.toDouble)));
	};
}
defS("Math", {
	"abs/1": ["", mathNum((x) => x === $.INT_MIN ? x : Math.abs(x), (x) => x < 0n ? L64(-x) : x, Math.abs)],
	"max/2": ["", mathNum(Math.max, (a, b) => a > b ? a : b, Math.max)],
	"min/2": ["", mathNum(Math.min, (a, b) => a < b ? a : b, Math.min)],
	"round/1": ["Long", (x) => { if ($.rank(x) <= 2) return $.toLong(x); const v = $.toDouble(x); return $.doubleToLong(Math.floor(v + 0.5)); }],
	"floor/1": ["Double", mathD(Math.floor)],
	"ceil/1": ["Double", mathD(Math.ceil)],
	"rint/1": ["Double", mathD((x) => { const f = Math.floor(x), r = x - f; return r > 0.5 ? f + 1 : r < 0.5 ? f : (f % 2 === 0 ? f : f + 1); })],
	"sqrt/1": ["Double", mathD(J.strictSqrt)],
	"cbrt/1": ["Double", mathD(Math.cbrt)],
	"pow/2": ["Double", mathD(J.strictPow)],
	"exp/1": ["Double", mathD(J.strictExp)],
	"log/1": ["Double", mathD(J.strictLog)],
	"log10/1": ["Double", mathD(Math.log10)],
	"sin/1": ["Double", mathD(Math.sin)],
	"cos/1": ["Double", mathD(Math.cos)],
	"tan/1": ["Double", mathD(Math.tan)],
	"atan/1": ["Double", mathD(Math.atan)],
	"atan2/2": ["Double", mathD(Math.atan2)],
	"hypot/2": ["Double", mathD(Math.hypot)],
	"signum/1": ["Double", mathD(Math.sign)],
	"toRadians/1": ["Double", mathD((x) => x / 180 * Math.PI)],
	"toDegrees/1": ["Double", mathD((x) => x * 180 / Math.PI)],
	"random/0": ["Double", () => d($.mathRandom().nextDouble())],
	"floorDiv/2": ["", mathNum((a, b) => { if (b === 0) throw ex("ArithmeticException", "/ by zero"); return Math.floor(a / b) | 0; }, (a, b) => { if (b === 0n) throw ex("ArithmeticException", "/ by zero"); const q = a / b; return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q; }, (a, b) => Math.floor(a / b))],
	"floorMod/2": ["", mathNum((a, b) => { if (b === 0) throw ex("ArithmeticException", "/ by zero"); return ((a % b) + b) % b; }, (a, b) => { if (b === 0n) throw ex("ArithmeticException", "/ by zero"); return ((a % b) + b) % b; }, (a, b) => ((a % b) + b) % b)],
	"toIntExact/1": ["Integer", (x) => { x = $.toLong(x); if (x > 2147483647n || x < -2147483648n) throw ex("ArithmeticException", "integer overflow"); return Number(x); }],
	"addExact/2": ["", mathNum((a, b) => { const r = a + b; if (r > $.INT_MAX || r < $.INT_MIN) throw ex("ArithmeticException", "integer overflow"); return r; }, (a, b) => { const r = a + b; if (r !== L64(r)) throw ex("ArithmeticException", "long overflow"); return r; }, (a, b) => a + b)],
});
F.Math = { PI: d(Math.PI), E: d(Math.E) };
F.Integer = { MAX_VALUE: $.INT_MAX, MIN_VALUE: $.INT_MIN };
F.Long = { MAX_VALUE: 9223372036854775807n, MIN_VALUE: -9223372036854775808n };
F.Double = { MAX_VALUE: d(Number.MAX_VALUE), MIN_VALUE: d(Number.MIN_VALUE), NaN: d(NaN), POSITIVE_INFINITY: d(Infinity), NEGATIVE_INFINITY: d(-Infinity) };
F.Boolean = { TRUE: true, FALSE: false };
F.StandardCharsets = { UTF_8: { $t: "Charset", name: "UTF-8", $str: () => "UTF-8" }, ISO_8859_1: { $t: "Charset", name: "ISO-8859-1", $str: () => "ISO-8859-1" }, US_ASCII: { $t: "Charset", name: "US-ASCII", $str: () => "US-ASCII" } };
F.RoundingMode = {};
for (const m of ["HALF_UP", "HALF_DOWN", "HALF_EVEN", "UP", "DOWN", "CEILING", "FLOOR", "UNNECESSARY"]) F.RoundingMode[m] = { $t: "RoundingMode", name: m, $str: () => m };
F.BigDecimal = { ZERO: new Dec(0n, 0), ONE: new Dec(1n, 0), TEN: new Dec(10n, 0), ROUND_HALF_UP: 4, ROUND_HALF_EVEN: 6, ROUND_DOWN: 1, ROUND_UP: 0 };
F.System = {};
// File's separators, for paths a script builds (FileServer's base
// directory + File.separator + a name); the separators of the system gojm
// runs on, as Java's are.
F.File = { separator: J.fileSep || "/", pathSeparator: J.pathSep || ":" };
// commons-lang3's SystemUtils.IS_OS_…: the system gojm runs on.
F.SystemUtils = { IS_OS_WINDOWS: J.goos === "windows", IS_OS_MAC: J.goos === "darwin", IS_OS_MAC_OSX: J.goos === "darwin",
	IS_OS_LINUX: J.goos === "linux", IS_OS_UNIX: J.goos !== "windows" && J.goos !== undefined };
Object.defineProperty(F.System, "out", { get: () => $.OUT, enumerable: true });
Object.defineProperty(F.System, "err", { get: () => $.ERR, enumerable: true });
defS("System", {
	"currentTimeMillis/0": ["Long", () => BigInt(H.now())],
	"nanoTime/0": ["Long", () => BigInt(H.nanos())],
	"lineSeparator/0": ["String", () => "\n"],
});
defS("Thread", {
	"sleep/1": ["Null", (ms) => { $.sleep(ms); return null; }],
	"currentThread/0": ["Thread", () => ({ $t: "Thread" })],
});
defS("UUID", {
	"randomUUID/0": ["UUID", () => uuidFromBytes(H.uuidBytes())],
	"fromString/1": ["UUID", (s) => { s = str(s); if (!/^[0-9a-fA-F]{1,8}-[0-9a-fA-F]{1,4}-[0-9a-fA-F]{1,4}-[0-9a-fA-F]{1,4}-[0-9a-fA-F]{1,12}$/.test(s)) throw ex("IllegalArgumentException", "Invalid UUID string: " + s); const p = s.split("-"); const w = [8, 4, 4, 4, 12]; return new UUID(p.map((x, i) => x.toLowerCase().padStart(w[i], "0")).join("-")); }],
});
$.uuidFromBytes = uuidFromBytes;
defS("Arrays", {
	"asList/*": ["List", (...a) => a.length === 1 && Array.isArray(a[0]) && a[0].$arr ? a[0].slice() : a],
	"toString/1": ["String", (a) => a === null ? "null" : "[" + a.map(str).join(", ") + "]"],
	"sort/1": ["Null", (a) => { const s = stableSort(a.slice(), sortCmp(null)); for (let i = 0; i < s.length; i++) a[i] = s[i]; return null; }],
});
defS("Collections", {
	"shuffle/1": ["Null", (l) => { shuffle(l, $.newRandom()); return null; }],
	"shuffle/2": ["Null", (l, r) => { shuffle(l, r); return null; }],
	"sort/1": ["Null", (l) => { sortIn(l, sortCmp(null), true); return null; }],
	"reverse/1": ["Null", (l) => { l.reverse(); return null; }],
	"emptyList/0": ["List", () => []],
	"emptyMap/0": ["Map", () => new Map()],
	"singletonList/1": ["List", (x) => [x]],
	"unmodifiableList/1": ["List", (x) => x],
	"max/1": ["", (l) => { let m = null, first = true; for (const x of iter(l)) { if (first || $.cmp(x, m) > 0) m = x; first = false; } return m; }],
	"min/1": ["", (l) => { let m = null, first = true; for (const x of iter(l)) { if (first || $.cmp(x, m) < 0) m = x; first = false; } return m; }],
	"frequency/2": ["Integer", (l, x) => Array.from(iter(l)).filter((y) => eq(y, x)).length],
});
defS("URLEncoder", {
	"encode/2": ["String", (s, cs) => J.urlEncode(str(s), charset(cs))],
	"encode/1": ["String", (s) => J.urlEncode(str(s), "UTF-8")],
});
defS("URLDecoder", {
	"decode/2": ["String", (s, cs) => J.urlDecode(str(s), charset(cs))],
	"decode/1": ["String", (s) => J.urlDecode(str(s), "UTF-8")],
});
defS("Base64", {
	"getEncoder/0": ["B64Encoder", () => ({ $t: "B64Encoder", url: false })],
	"getUrlEncoder/0": ["B64Encoder", () => ({ $t: "B64Encoder", url: true })],
	"getDecoder/0": ["B64Decoder", () => ({ $t: "B64Decoder", url: false })],
	"getUrlDecoder/0": ["B64Decoder", () => ({ $t: "B64Decoder", url: true })],
});
def("B64Encoder", {
	"encodeToString/1": ["String", (e, b) => J.b64(bytesArg(b), e.url)],
	"encode/1": ["Array", (e, b) => $.mkArray("byte", J.encode(J.b64(bytesArg(b), e.url), "ISO-8859-1"))],
});
def("B64Decoder", {
	"decode/1": ["Array", (e, s) => $.mkArray("byte", J.unb64(typeof s === "string" ? s : J.decode(bytesArg(s), "ISO-8859-1"), e.url))],
});
// commons-codec's and commons-net's Base64: byte arrays in and out, no
// line breaks (their encodeBase64(byte[]) does not chunk).
function b64Str(s) { return typeof s === "string" ? s : J.decode(bytesArg(s), "ISO-8859-1"); }
const commonsB64 = {
	"encodeBase64/1": ["Array", (b) => $.mkArray("byte", J.encode(J.b64(bytesArg(b), false), "ISO-8859-1"))],
	"decodeBase64/1": ["Array", (s) => $.mkArray("byte", J.unb64(b64Str(s), false))],
};
defS("CodecBase64", Object.assign({
	"encodeBase64String/1": ["String", (b) => J.b64(bytesArg(b), false)],
	"encodeBase64URLSafeString/1": ["String", (b) => J.b64(bytesArg(b), true).replace(/=+$/, "")],
}, commonsB64));
defS("NetBase64", commonsB64);
// ThreadLocalRandom.current() and new SecureRandom(): a java.util.Random
// seeded as one created without a seed is (the numbers are random either
// way; no script can tell their generator apart).
// ---- java.util.Date, SimpleDateFormat, TimeZone, MessageDigest ------------
// A Date is milliseconds since the epoch; formats and zones are Go's
// (J.dateFormat keeps SimpleDateFormat's pattern letters). A zone of ""
// is the system's, as the JVM's default.
function JDate(ms) { this.$t = "Date"; this.ms = ms; }
JDate.prototype.$str = function () { return J.dateFormat("EEE MMM dd HH:mm:ss zzz yyyy", this.ms, ""); };
JDate.prototype.$eq = function (o) { return o instanceof JDate && o.ms === this.ms; };
$.javaNames.Date = "java.util.Date";
$.javaNames.SimpleDateFormat = "java.text.SimpleDateFormat";
$.javaNames.TimeZone = "java.util.TimeZone";
$.javaNames.MessageDigest = "java.security.MessageDigest";
function dateArg(x) {
	if (x instanceof JDate) return x;
	if (x === null || x === undefined) throw ex("NullPointerException", null);
	throw ex("IllegalArgumentException", "Cannot format given Object as a Date");
}
function msArg(x) { return Number($.toLong(x)); }
N.Date = { 0: () => new JDate(H.now()), 1: (ms) => new JDate(msArg(ms)) };
def("Date", {
	"getTime/0": ["Long", (t) => BigInt(t.ms)],
	"setTime/1": ["Null", (t, ms) => { t.ms = msArg(ms); return null; }],
	"before/1": ["Boolean", (t, o) => t.ms < dateArg(o).ms],
	"after/1": ["Boolean", (t, o) => t.ms > dateArg(o).ms],
	"compareTo/1": ["Integer", (t, o) => Math.sign(t.ms - dateArg(o).ms)],
	"equals/1": ["Boolean", (t, o) => t.$eq(o)],
	"toString/0": ["String", (t) => t.$str()],
});
def("Date", {
	"format/1": ["String", (t, p) => J.dateFormat(str(p), t.ms, "")],
	"format/2": ["String", (t, p, z) => J.dateFormat(str(p), t.ms, z && z.$t === "TimeZone" ? z.id : "")],
}, "g");
N.SimpleDateFormat = {
	0: () => ({ $t: "SimpleDateFormat", p: "M/d/yy, h:mm a", z: "" }),
	1: (p) => { p = str(p); J.dateFormat(p, 0, ""); return { $t: "SimpleDateFormat", p: p, z: "" }; },
};
def("SimpleDateFormat", {
	"format/1": ["String", (f, x) => J.dateFormat(f.p, $.isNum(x) ? msArg(x) : dateArg(x).ms, f.z)],
	"parse/1": ["Date", (f, s) => new JDate(J.dateParse(f.p, str(s), f.z))],
	"setTimeZone/1": ["Null", (f, z) => { f.z = z.id; return null; }],
	"setLenient/1": ["Null", () => null],
	"toPattern/0": ["String", (f) => f.p],
	"applyPattern/1": ["Null", (f, p) => { p = str(p); J.dateFormat(p, 0, ""); f.p = p; return null; }],
});
// Calendar: an instant and a zone; fields by Java's numbers (J.calGet).
$.javaNames.Calendar = "java.util.GregorianCalendar";
F.Calendar = { ERA: 0, YEAR: 1, MONTH: 2, WEEK_OF_YEAR: 3, WEEK_OF_MONTH: 4, DATE: 5, DAY_OF_MONTH: 5, DAY_OF_YEAR: 6,
	DAY_OF_WEEK: 7, DAY_OF_WEEK_IN_MONTH: 8, AM_PM: 9, HOUR: 10, HOUR_OF_DAY: 11, MINUTE: 12, SECOND: 13, MILLISECOND: 14,
	SUNDAY: 1, MONDAY: 2, TUESDAY: 3, WEDNESDAY: 4, THURSDAY: 5, FRIDAY: 6, SATURDAY: 7,
	JANUARY: 0, FEBRUARY: 1, MARCH: 2, APRIL: 3, MAY: 4, JUNE: 5, JULY: 6, AUGUST: 7, SEPTEMBER: 8, OCTOBER: 9, NOVEMBER: 10, DECEMBER: 11 };
function cal(ms, z) { return { $t: "Calendar", ms: ms, z: z }; }
defS("Calendar", {
	"getInstance/0": ["Calendar", () => cal(H.now(), "")],
	"getInstance/1": ["Calendar", (z) => cal(H.now(), z.id)],
});
function calSetAll(c, vals) {
	const fields = [1, 2, 5, 11, 12, 13];
	for (let i = 0; i < vals.length; i++) c.ms = J.calSet(c.ms, c.z, fields[i], $.toInt(vals[i]));
	return null;
}
def("Calendar", {
	"get/1": ["Integer", (c, f) => J.calGet(c.ms, c.z, $.toInt(f))],
	"add/2": ["Null", (c, f, n) => { c.ms = J.calAdd(c.ms, c.z, $.toInt(f), $.toInt(n)); return null; }],
	"set/2": ["Null", (c, f, v) => { c.ms = J.calSet(c.ms, c.z, $.toInt(f), $.toInt(v)); return null; }],
	"set/3": ["Null", (c, ...v) => calSetAll(c, v)],
	"set/5": ["Null", (c, ...v) => calSetAll(c, v)],
	"set/6": ["Null", (c, ...v) => calSetAll(c, v)],
	"getTime/0": ["Date", (c) => new JDate(c.ms)],
	"setTime/1": ["Null", (c, d) => { c.ms = dateArg(d).ms; return null; }],
	"getTimeInMillis/0": ["Long", (c) => BigInt(c.ms)],
	"setTimeInMillis/1": ["Null", (c, ms) => { c.ms = msArg(ms); return null; }],
	"setTimeZone/1": ["Null", (c, z) => { c.z = z.id; return null; }],
	"before/1": ["Boolean", (c, o) => c.ms < o.ms],
	"after/1": ["Boolean", (c, o) => c.ms > o.ms],
	"clone/0": ["Calendar", (c) => cal(c.ms, c.z)],
});
defS("TimeZone", { "getTimeZone/1": ["TimeZone", (id) => ({ $t: "TimeZone", id: J.zoneID(str(id)), $str: function () { return "TimeZone[" + this.id + "]"; } })] });
def("TimeZone", { "getID/0": ["String", (z) => z.id] });
defS("MessageDigest", {
	"getInstance/1": ["MessageDigest", (alg) => {
		alg = str(alg);
		if (!J.digestOK(alg)) throw ex("java.security.NoSuchAlgorithmException", alg + " MessageDigest not available");
		return { $t: "MessageDigest", alg: alg, buf: [] };
	}],
});
function digestOf(m, b) {
	if (b !== undefined) for (const x of bytesArg(b)) m.buf.push(x);
	const out = Array.from(J.digestBytes(m.alg, m.buf));
	m.buf = [];
	return $.mkArray("byte", out);
}
def("MessageDigest", {
	"update/1": ["Null", (m, b) => { for (const x of bytesArg(b)) m.buf.push(x); return null; }],
	"digest/0": ["Array", (m) => digestOf(m)],
	"digest/1": ["Array", (m, b) => digestOf(m, b)],
	"reset/0": ["Null", (m) => { m.buf = []; return null; }],
	"getAlgorithm/0": ["String", (m) => m.alg],
});
// commons-codec's DigestUtils: of a String's UTF-8 bytes or of a byte[].
function digestArg(x) { return typeof x === "string" ? Array.from(J.encode(x, "UTF-8")) : bytesArg(x); }
function hexOf(b) { return b.map((x) => ((x & 0xff) + 0x100).toString(16).substring(1)).join(""); }
const digestUtils = {};
for (const [name, alg] of [["md5", "MD5"], ["sha1", "SHA-1"], ["sha256", "SHA-256"], ["sha384", "SHA-384"], ["sha512", "SHA-512"]]) {
	digestUtils[name + "/1"] = ["Array", (x) => $.mkArray("byte", Array.from(J.digestBytes(alg, digestArg(x))))];
	digestUtils[name + "Hex/1"] = ["String", (x) => hexOf(Array.from(J.digestBytes(alg, digestArg(x))))];
}
digestUtils["shaHex/1"] = digestUtils["sha1Hex/1"];
defS("DigestUtils", digestUtils);

// FileServer.getFileServer().getBaseDir(): the plan's folder.
const fileServer = { $t: "FileServer" };
defS("FileServer", { "getFileServer/0": ["FileServer", () => fileServer] });
def("FileServer", { "getBaseDir/0": ["String", () => H.baseDir()] });
defS("ThreadLocalRandom", { "current/0": ["Random", () => $.newRandom()] });
function bytesArg(b) {
	if (Array.isArray(b)) return b.map((x) => $.toInt(x));
	throw ex("ClassCastException", $.typeName(b) + " is not a byte[]");
}
$.bytesArg = bytesArg;
def("Array", {
	"encodeBase64/0": ["Writable", (a) => writable(J.b64(bytesArg(a), false))],
	"encodeHex/0": ["Writable", (a) => writable(bytesArg(a).map((x) => ((x & 0xff) + 0x100).toString(16).substring(1)).join(""))],
}, "g");
defS("RandomStringUtils", {
	"randomAlphanumeric/1": ["String", (n) => randomChars($.toInt(n), "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")],
	"randomAlphabetic/1": ["String", (n) => randomChars($.toInt(n), "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")],
	"randomNumeric/1": ["String", (n) => randomChars($.toInt(n), "0123456789")],
	"random/2": ["String", (n, chars) => randomChars($.toInt(n), str(chars))],
});
function randomChars(n, set) { const r = $.mathRandom(); let s = ""; for (let i = 0; i < n; i++) s += set[r.nextInt(set.length)]; return s; }
defS("JsonOutput", {
	"toJson/1": ["String", (v) => $.toJson(v)],
	"prettyPrint/1": ["String", (s) => $.prettyJson(str(s))],
}, "g");
defS("TimeUnit", {}, "g");

// Constructors.
N.Random = { 0: () => $.newRandom(), 1: (s) => $.newRandom($.toLong(s)) };
N.SecureRandom = { 0: () => $.newRandom() };
N.StringBuilder = { 0: () => new SB(""), 1: (x) => new SB(typeof x === "number" ? "" : str(needStr(x, "StringBuilder"))) };
N.StringBuffer = N.StringBuilder;
N.ArrayList = { 0: () => [], 1: (x) => typeof x === "number" ? [] : Array.from(iter(x)) };
N.LinkedList = N.ArrayList;
N.HashMap = { 0: () => $.newHashMap(), 1: (x) => { const m = $.newHashMap(); if (x instanceof Map) for (const [k, v] of $.mapEntries(x)) $.mapPut(m, k, v); return m; } };
N.LinkedHashMap = { 0: () => { const m = new Map(); if (bsh) Object.defineProperty(m, "$java", { value: true }); return m; }, 1: (x) => { const m = new Map(); if (bsh) Object.defineProperty(m, "$java", { value: true }); if (x instanceof Map) for (const [k, v] of $.mapEntries(x)) $.mapPut(m, k, v); return m; } };
N.LinkedHashSet = { 0: () => $.mkSet(), 1: (x) => typeof x === "number" ? $.mkSet() : $.mkSet(iter(x)) };
N.String = {
	0: () => "",
	1: (x) => Array.isArray(x) ? (x.$arr === "char" ? x.map((c) => String.fromCharCode(c.c)).join("") : J.decode(bytesArg(x), "UTF-8")) : J.fresh(str(needStr(x, "String"))),
	2: (x, cs) => J.decode(bytesArg(x), charset(cs)),
};
N.BigDecimal = { 1: (x) => typeof x === "string" ? $.decParse(x) : $.decOf(x) };
N.Integer = { 1: (x) => typeof x === "string" ? parseIntRadix(x) : $.toInt(x) };
N.Long = { 1: (x) => typeof x === "string" ? parseLong(x) : $.toLong(x) };
N.Double = { 1: (x) => typeof x === "string" ? parseDouble(x) : d($.toDouble(x)) };
N.JsonSlurper = { 0: () => ({ $t: "JsonSlurper" }) };
N.Object = { 0: () => ({ $t: "Object" }) };
N.URL = { 1: (s) => $.url(str(s)) };
def("JsonSlurper", {
	"parseText/1": ["", (j, s) => { if (s === null || s === undefined || s === "") throw ex("IllegalArgumentException", "Text must not be null or empty"); return $.parseJson(str(s)); }],
}, "g");
});
