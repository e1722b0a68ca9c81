// Java and Groovy values and operators for scripts translated to
// JavaScript. $mk(bsh, J, H) builds the runtime of one dialect: bsh is true
// for BeanShell (Java's rules), false for Groovy. J holds helpers written in
// Go (regular expressions, String.format); H reaches the host (the engine:
// variables, properties, results).
//
// Values: null; JS string = java.lang.String; JS number = Integer (int32);
// BigInt = Long; JD = Double; Dec = BigDecimal (unscaled BigInt, scale);
// Ch = Character; boolean; JS array = ArrayList (a Java array when it has
// $arr, a Set when it has $set); JS Map = LinkedHashMap (HashMap when it
// has $hash); Range = Groovy's IntRange; function = Closure; JEx = a Java
// exception; other objects carry their type name in $t.
"use strict";
var $mk = (function () {

class JD { constructor(v) { this.v = v; } }
class Dec { constructor(u, s) { this.u = u; this.s = s; } }
class Ch { constructor(c) { this.c = c; } }
class Range {
	constructor(from, to, rev) { this.from = from; this.to = to; this.rev = rev; }
	size() { return this.to - this.from + 1; }
	toArray() {
		const out = [];
		if (this.rev) { for (let i = this.to; i >= this.from; i--) out.push(i); }
		else { for (let i = this.from; i <= this.to; i++) out.push(i); }
		return out;
	}
	*[Symbol.iterator]() {
		if (this.rev) { for (let i = this.to; i >= this.from; i--) yield i; }
		else { for (let i = this.from; i <= this.to; i++) yield i; }
	}
}
// JEx is a Java exception: cls is its class's full name.
class JEx {
	constructor(cls, msg, cause) { this.cls = cls; this.msg = msg === undefined ? null : msg; this.cause = cause || null; }
	toString() { return this.msg === null ? this.cls : this.cls + ": " + this.msg; }
}

const INT_MIN = -2147483648, INT_MAX = 2147483647;
const L64 = (x) => BigInt.asIntN(64, x);

// Exception classes and their parents (for catch).
const exParents = {
	"java.lang.Throwable": null,
	"java.lang.Exception": "java.lang.Throwable",
	"java.lang.Error": "java.lang.Throwable",
	"java.lang.AssertionError": "java.lang.Error",
	"org.codehaus.groovy.runtime.powerassert.PowerAssertionError": "java.lang.AssertionError",
	"java.lang.RuntimeException": "java.lang.Exception",
	"java.lang.NullPointerException": "java.lang.RuntimeException",
	"java.lang.IllegalArgumentException": "java.lang.RuntimeException",
	"java.lang.IllegalStateException": "java.lang.RuntimeException",
	"java.lang.NumberFormatException": "java.lang.IllegalArgumentException",
	"java.lang.ArithmeticException": "java.lang.RuntimeException",
	"java.lang.ClassCastException": "java.lang.RuntimeException",
	"java.lang.IndexOutOfBoundsException": "java.lang.RuntimeException",
	"java.lang.ArrayIndexOutOfBoundsException": "java.lang.IndexOutOfBoundsException",
	"java.lang.StringIndexOutOfBoundsException": "java.lang.IndexOutOfBoundsException",
	"java.lang.UnsupportedOperationException": "java.lang.RuntimeException",
	"java.util.NoSuchElementException": "java.lang.RuntimeException",
	"java.util.ConcurrentModificationException": "java.lang.RuntimeException",
	"java.util.regex.PatternSyntaxException": "java.lang.IllegalArgumentException",
	"java.util.IllegalFormatException": "java.lang.IllegalArgumentException",
	"java.util.MissingFormatArgumentException": "java.util.IllegalFormatException",
	"java.util.UnknownFormatConversionException": "java.util.IllegalFormatException",
	"java.util.IllegalFormatConversionException": "java.util.IllegalFormatException",
	"java.io.IOException": "java.lang.Exception",
	"java.io.UnsupportedEncodingException": "java.io.IOException",
	"java.lang.InterruptedException": "java.lang.Exception",
	"java.text.ParseException": "java.lang.Exception",
	"java.security.GeneralSecurityException": "java.lang.Exception",
	"java.security.NoSuchAlgorithmException": "java.security.GeneralSecurityException",
	"groovy.lang.GroovyRuntimeException": "java.lang.RuntimeException",
	"groovy.lang.MissingMethodException": "groovy.lang.GroovyRuntimeException",
	"groovy.lang.MissingPropertyException": "groovy.lang.GroovyRuntimeException",
	"org.codehaus.groovy.runtime.typehandling.GroovyCastException": "java.lang.ClassCastException",
	"groovy.json.JsonException": "java.lang.RuntimeException",
	"bsh.EvalError": "java.lang.Exception",
	"bsh.TargetError": "bsh.EvalError",
};
// Short names a script may write in catch or new.
const exShort = {};
for (const k of Object.keys(exParents)) exShort[k.substring(k.lastIndexOf(".") + 1)] = k;

function exIs(cls, want) {
	for (let c = cls; c; c = exParents[c]) { if (c === want) return true; }
	return false;
}

function $mk(bsh, J, H) {
const $ = { bsh: bsh, JD: JD, Dec: Dec, Ch: Ch, Range: Range, JEx: JEx };

function ex(cls, msg) { return new JEx(exShort[cls] || cls, msg); }
$.ex = ex;
function npe(what) {
	if (bsh) return ex("NullPointerException", "Null Pointer in Method Invocation");
	return ex("NullPointerException", what ? "Cannot invoke method " + what + " on null object" : null);
}
$.npe = npe;

// ---- kinds and names --------------------------------------------------

function kindOf(v) {
	if (v === null || v === undefined) return "Null";
	switch (typeof v) {
	case "string": return "String";
	case "number": return "Integer";
	case "bigint": return "Long";
	case "boolean": return "Boolean";
	case "function": return "Closure";
	}
	if (v instanceof JD) return "Double";
	if (v instanceof Dec) return "BigDecimal";
	if (v instanceof Ch) return "Character";
	if (Array.isArray(v)) return v.$arr ? "Array" : v.$set ? "Set" : "List";
	if (v instanceof Map) return "Map";
	if (v instanceof Range) return "Range";
	if (v instanceof JEx) return "Exception";
	return v.$t || "Object";
}
$.kindOf = kindOf;

const javaNames = {
	String: "java.lang.String", Integer: "java.lang.Integer", Long: "java.lang.Long", Double: "java.lang.Double",
	BigDecimal: "java.math.BigDecimal", Boolean: "java.lang.Boolean", Character: "java.lang.Character",
	List: "java.util.ArrayList", Set: "java.util.LinkedHashSet", Map: "java.util.LinkedHashMap", Range: "groovy.lang.IntRange",
	Closure: "groovy.lang.Closure", Random: "java.util.Random", StringBuilder: "java.lang.StringBuilder",
	UUID: "java.util.UUID", JsonSlurper: "groovy.json.JsonSlurper", Entry: "java.util.Map$Entry",
	Vars: "org.apache.jmeter.threads.JMeterVariables", Props: "java.util.Properties",
	Logger: "org.slf4j.Logger", Ctx: "org.apache.jmeter.threads.JMeterContext",
	Result: "org.apache.jmeter.samplers.SampleResult", AssertionResult: "org.apache.jmeter.assertions.AssertionResult",
	Sampler: "org.apache.jmeter.samplers.Sampler", Out: "java.io.PrintStream", SampleEvent: "org.apache.jmeter.samplers.SampleEvent",
	Thread: "java.lang.Thread", ThreadGroup: "org.apache.jmeter.threads.AbstractThreadGroup", URL: "java.net.URL",
	Writable: "groovy.lang.Writable",
};
function typeName(v) {
	const k = kindOf(v);
	if (k === "Array") return javaArrayName(v.$arr);
	if (k === "Exception") return v.cls;
	if (k === "Map" && v.$hash) return "java.util.HashMap";
	return javaNames[k] || k;
}
function javaArrayName(t) {
	const prim = { int: "I", long: "J", double: "D", byte: "B", char: "C", boolean: "Z" };
	if (prim[t]) return "[" + prim[t];
	return "[L" + (javaNames[t] || "java.lang.Object") + ";";
}
$.typeName = typeName;

// ---- numbers ------------------------------------------------------------

const isNum = (v) => typeof v === "number" || typeof v === "bigint" || v instanceof JD || v instanceof Dec;
$.isNum = isNum;
function d(v) { return new JD(v); }
$.d = d;
$.ch = (c) => new Ch(c);
$.dec = (s) => decParse(s);

// rank: 1 int, 2 long, 3 BigDecimal, 4 double
function rank(v) {
	switch (typeof v) {
	case "number": return 1;
	case "bigint": return 2;
	}
	if (v instanceof Dec) return 3;
	if (v instanceof JD) return 4;
	if (v instanceof Ch) return bsh ? 1 : 0;
	return 0;
}
function toDouble(v) {
	switch (typeof v) {
	case "number": return v;
	case "bigint": return Number(v);
	}
	if (v instanceof JD) return v.v;
	if (v instanceof Dec) return decToDouble(v);
	if (v instanceof Ch) return v.c;
	throw ex("ClassCastException", typeName(v) + " is not a number");
}
function toLong(v) {
	switch (typeof v) {
	case "number": return BigInt(v);
	case "bigint": return v;
	}
	if (v instanceof JD) return doubleToLong(v.v);
	if (v instanceof Dec) return L64(decTrunc(v));
	if (v instanceof Ch) return BigInt(v.c);
	throw ex("ClassCastException", typeName(v) + " is not a number");
}
function doubleToLong(x) {
	if (Number.isNaN(x)) return 0n;
	if (x >= 9223372036854775807) return 9223372036854775807n;
	if (x <= -9223372036854775808) return -9223372036854775808n;
	return BigInt(Math.trunc(x));
}
function doubleToInt(x) {
	if (Number.isNaN(x)) return 0;
	if (x >= INT_MAX) return INT_MAX;
	if (x <= INT_MIN) return INT_MIN;
	return Math.trunc(x);
}
function toInt(v) {
	switch (typeof v) {
	case "number": return v;
	case "bigint": return Number(BigInt.asIntN(32, v));
	}
	if (v instanceof JD) return doubleToInt(v.v);
	if (v instanceof Dec) return Number(BigInt.asIntN(32, decTrunc(v)));
	if (v instanceof Ch) return v.c;
	throw ex("ClassCastException", typeName(v) + " is not a number");
}
$.toInt = toInt; $.toLong = toLong; $.toDouble = toDouble;

// BigDecimal arithmetic on (unscaled BigInt, scale).
const TEN = 10n;
function pow10(n) { return TEN ** BigInt(n); }
function decOf(v) {
	if (v instanceof Dec) return v;
	switch (typeof v) {
	case "number": return new Dec(BigInt(v), 0);
	case "bigint": return new Dec(v, 0);
	}
	if (v instanceof JD) return decParse(doubleStr(v.v));
	if (v instanceof Ch) return new Dec(BigInt(v.c), 0);
	throw ex("ClassCastException", typeName(v) + " is not a number");
}
function decParse(s) {
	const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(s.trim());
	if (!m || (m[2] === "" && (m[3] === undefined || m[3] === ""))) throw ex("NumberFormatException", "Character array is missing \"exponent\" mark 'e' or 'E'.");
	const frac = m[3] || "";
	let u = BigInt((m[2] || "0") + frac);
	if (m[1] === "-") u = -u;
	let scale = frac.length - (m[4] ? parseInt(m[4], 10) : 0);
	return new Dec(u, scale);
}
function decAlign(a, b) {
	if (a.s === b.s) return [a.u, b.u, a.s];
	if (a.s > b.s) return [a.u, b.u * pow10(a.s - b.s), a.s];
	return [a.u * pow10(b.s - a.s), b.u, b.s];
}
function decCmp(a, b) {
	const [x, y] = decAlign(a, b);
	return x < y ? -1 : x > y ? 1 : 0;
}
function decTrunc(a) {
	if (a.s <= 0) return a.u * pow10(-a.s);
	return a.u / pow10(a.s);
}
function decToDouble(a) { return parseFloat(decStr(a)); }
function digitsOf(u) { return (u < 0n ? -u : u).toString().length; }
function decPrecision(a) { return a.u === 0n ? 1 : digitsOf(a.u); }
// decRound rounds a to scale s with HALF_UP (or the given mode).
function decSetScale(a, s, mode) {
	if (s >= a.s) return new Dec(a.u * pow10(s - a.s), s);
	const div = pow10(a.s - s);
	let q = a.u / div;
	const r = a.u % div;
	if (r !== 0n) {
		const neg = a.u < 0n;
		const twice = (r < 0n ? -r : r) * 2n;
		let up;
		switch (mode || "HALF_UP") {
		case "HALF_UP": up = twice >= div; break;
		case "HALF_DOWN": up = twice > div; break;
		case "HALF_EVEN": up = twice > div || (twice === div && (q % 2n !== 0n)); break;
		case "UP": up = true; break;
		case "DOWN": up = false; break;
		case "CEILING": up = !neg; break;
		case "FLOOR": up = neg; break;
		case "UNNECESSARY": throw ex("ArithmeticException", "Rounding necessary");
		default: throw ex("IllegalArgumentException", "bad rounding mode " + mode);
		}
		if (up) q += neg ? -1n : 1n;
	}
	return new Dec(q, s);
}
// decRoundPrec rounds to p significant digits, HALF_UP (MathContext).
function decRoundPrec(a, p) {
	const n = decPrecision(a);
	if (n <= p) return a;
	let r = decSetScale(a, a.s - (n - p));
	if (decPrecision(r) > p) r = decSetScale(r, r.s - 1);
	return r;
}
function decAdd(a, b) { const [x, y, s] = decAlign(a, b); return new Dec(x + y, s); }
function decSub(a, b) { const [x, y, s] = decAlign(a, b); return new Dec(x - y, s); }
function decMul(a, b) { return new Dec(a.u * b.u, a.s + b.s); }
// decDivExact is BigDecimal.divide(divisor): the exact quotient at the
// preferred scale or the smallest larger one; null when it does not end.
function decDivExact(a, b) {
	if (b.u === 0n) throw ex("ArithmeticException", a.u === 0n ? "Division undefined" : "Division by zero");
	const pref = a.s - b.s;
	if (a.u === 0n) return new Dec(0n, Math.max(pref, 0) > pref ? pref : pref);
	// a.u * 10^k / b.u exact for some k ≥ 0
	let den = b.u < 0n ? -b.u : b.u;
	let num = a.u < 0n ? -a.u : a.u;
	const g = gcd(num, den);
	den /= g;
	let k = 0;
	while (den % 2n === 0n) { den /= 2n; k++; }
	let k5 = 0;
	while (den % 5n === 0n) { den /= 5n; k5++; }
	if (den !== 1n) return null;
	const extra = Math.max(k, k5);
	let q = (a.u * pow10(extra)) / b.u;
	let r = new Dec(q, pref + extra);
	// strip zeros down to the preferred scale
	while (r.s > pref && r.u % TEN === 0n) r = new Dec(r.u / TEN, r.s - 1);
	return r;
}
function gcd(a, b) { while (b !== 0n) { [a, b] = [b, a % b]; } return a; }
// decDivGroovy is Groovy's BigDecimal division (BigDecimalMath.divideImpl).
function decDivGroovy(a, b) {
	const exact = decDivExact(a, b);
	if (exact !== null) return exact;
	const prec = Math.max(decPrecision(a), decPrecision(b)) + 10;
	// quotient to prec significant digits, HALF_UP
	const q = decDivPrec(a, b, prec);
	let scale = Math.max(q.s, a.s, b.s);
	if (scale > 10) scale = 10;
	return decSetScale(q, scale);
}
function decDivPrec(a, b, prec) {
	// compute with enough extra digits, then round to prec significant digits
	const num = a.u, den = b.u;
	// scale so that the integer quotient has at least prec+2 digits
	let shift = prec + 2 + digitsOf(den) - digitsOf(num);
	if (shift < 0) shift = 0;
	const q = (num * pow10(shift)) / den;
	const rem = (num * pow10(shift)) % den;
	let r = new Dec(q * 10n + (rem === 0n ? 0n : (q < 0n || (q === 0n && (num < 0n) !== (den < 0n)) ? -1n : 1n)), a.s - b.s + shift + 1);
	return decRoundPrec(r, prec);
}
function decStr(a) {
	// BigDecimal.toString: plain when scale ≥ 0 and the adjusted exponent ≥ -6
	const neg = a.u < 0n;
	let digits = (neg ? -a.u : a.u).toString();
	const adj = -a.s + (digits.length - 1);
	let out;
	if (a.s === 0) out = digits;
	else if (a.s > 0 && adj >= -6) {
		if (digits.length <= a.s) digits = "0".repeat(a.s - digits.length + 1) + digits;
		out = digits.substring(0, digits.length - a.s) + "." + digits.substring(digits.length - a.s);
	} else {
		out = digits.length > 1 ? digits[0] + "." + digits.substring(1) : digits;
		out += "E" + (adj >= 0 ? "+" : "") + adj;
	}
	return neg ? "-" + out : out;
}
function decPlain(a) {
	const neg = a.u < 0n;
	let digits = (neg ? -a.u : a.u).toString();
	let out;
	if (a.s <= 0) out = digits + "0".repeat(-a.s);
	else {
		if (digits.length <= a.s) digits = "0".repeat(a.s - digits.length + 1) + digits;
		out = digits.substring(0, digits.length - a.s) + "." + digits.substring(digits.length - a.s);
	}
	return neg ? "-" + out : out;
}
$.decStr = decStr;

// doubleStr is Double.toString.
function doubleStr(x) {
	if (Number.isNaN(x)) return "NaN";
	if (x === Infinity) return "Infinity";
	if (x === -Infinity) return "-Infinity";
	if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
	const neg = x < 0;
	const e = Math.abs(x).toExponential(); // shortest digits, d.dddde±n
	const m = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(e);
	let digits = m[1] + (m[2] || "");
	const exp = parseInt(m[3], 10);
	let out;
	if (Math.abs(x) >= 1e-3 && Math.abs(x) < 1e7) {
		if (exp >= 0) {
			if (digits.length <= exp + 1) digits += "0".repeat(exp + 1 - digits.length);
			const ip = digits.substring(0, exp + 1);
			const fp = digits.substring(exp + 1) || "0";
			out = ip + "." + fp;
		} else {
			out = "0." + "0".repeat(-exp - 1) + digits;
		}
	} else {
		out = digits[0] + "." + (digits.substring(1) || "0") + "E" + exp;
	}
	return neg ? "-" + out : out;
}
$.doubleStr = doubleStr;

// Arithmetic. Groovy: int op int stays int (overflow wraps), long if
// either is long, BigDecimal if either is, double if either is. / on
// integers gives a BigDecimal in Groovy, an integer in Java.
function numPair(a, b, op) {
	if (a === null || b === null || a === undefined || b === undefined) {
		if (bsh) throw ex("bsh.EvalError", "illegal use of null value or 'null' literal in binary operation");
		throw npe(op + "()");
	}
	if (!isNum(a) && !(a instanceof Ch) || !isNum(b) && !(b instanceof Ch)) {
		throw noMethod(a, opName[op] || op, [b]);
	}
	return Math.max(rank(a), rank(b), 1);
}
const opName = { "+": "plus", "-": "minus", "*": "multiply", "/": "div", "%": "mod", "**": "power", "<<": "leftShift", ">>": "rightShift", ">>>": "rightShiftUnsigned", "&": "and", "|": "or", "^": "xor" };
function noMethod(recv, name, args) {
	if (bsh) return ex("bsh.EvalError", "Operator '" + name + "' inappropriate for objects");
	return ex("groovy.lang.MissingMethodException", "No signature of method: " + typeName(recv) + "." + name + "() is applicable for argument types: (" + args.map(typeName).join(", ") + ") values: " + listStr(args));
}
$.noMethod = noMethod;

function arith(op, a, b) {
	const r = numPair(a, b, op);
	switch (r) {
	case 1: {
		const x = toInt(a), y = toInt(b);
		switch (op) {
		case "+": return (x + y) | 0;
		case "-": return (x - y) | 0;
		case "*": return Math.imul(x, y);
		case "%": if (y === 0) throw ex("ArithmeticException", "/ by zero"); return (x % y) | 0;
		case "/": if (y === 0) throw ex("ArithmeticException", "/ by zero"); return (x / y) | 0;
		}
		break;
	}
	case 2: {
		const x = toLong(a), y = toLong(b);
		switch (op) {
		case "+": return L64(x + y);
		case "-": return L64(x - y);
		case "*": return L64(x * y);
		case "%": if (y === 0n) throw ex("ArithmeticException", "/ by zero"); return x % y;
		case "/": if (y === 0n) throw ex("ArithmeticException", "/ by zero"); return L64(x / y);
		}
		break;
	}
	case 3: {
		const x = decOf(a), y = decOf(b);
		switch (op) {
		case "+": return decAdd(x, y);
		case "-": return decSub(x, y);
		case "*": return decMul(x, y);
		case "/": return decDivGroovy(x, y);
		case "%": throw ex("UnsupportedOperationException", "Cannot use mod() on this number type: java.math.BigDecimal with value: " + decStr(x));
		}
		break;
	}
	case 4: {
		const x = toDouble(a), y = toDouble(b);
		switch (op) {
		case "+": return d(x + y);
		case "-": return d(x - y);
		case "*": return d(x * y);
		case "/": return d(x / y);
		case "%": return d(x % y);
		}
	}
	}
	throw ex("UnsupportedOperationException", op);
}
$.arith = arith;

$.add = function (a, b) {
	if (typeof a === "string" || typeof b === "string" && (bsh || a === null || a === undefined || isNum(a) || a instanceof Ch || typeof a === "boolean")) {
		// Java: either side a String; Groovy: String.plus, Number.plus(String), null.plus(String)
		const x = str(a), y = str(b);
		// BeanShell's + makes a new String, which Go's does not where a side is empty
		if (bsh && (x === "" || y === "")) return J.fresh(x + y);
		return x + y;
	}
	if (!bsh) {
		if (Array.isArray(a) && !a.$arr) {
			const out = a.$set ? mkSet(a) : a.slice();
			if (Array.isArray(b) || b instanceof Range) { for (const x of iter(b)) setAddTo(out, x); }
			else setAddTo(out, b);
			return out;
		}
		if (a instanceof Map && b instanceof Map) {
			const out = new Map(a); for (const [k, v] of b) mapPut(out, k, v); return out;
		}
		if (typeof b === "string") throw noMethod(a, "plus", [b]);
	}
	return arith("+", a, b);
};
function setAddTo(arr, x) {
	if (arr.$set) { if (!arr.some((y) => eq(y, x))) arr.push(x); }
	else arr.push(x);
}
$.sub = function (a, b) {
	if (!bsh) {
		if (typeof a === "string") { const s = str(b); const i = a.indexOf(s); return i < 0 ? a : a.substring(0, i) + a.substring(i + s.length); }
		if (Array.isArray(a) && !a.$arr) {
			const rm = Array.isArray(b) || b instanceof Range ? Array.from(iter(b)) : [b];
			const out = a.filter((x) => !rm.some((y) => eq(x, y)));
			if (a.$set) out.$set = true;
			return out;
		}
		if (a instanceof Map && b instanceof Map) {
			const out = new Map();
			for (const [k, v] of a) { if (!(b.has(k) && eq(b.get(k), v))) out.set(k, v); }
			return out;
		}
	}
	return arith("-", a, b);
};
$.mul = function (a, b) {
	if (!bsh) {
		if (typeof a === "string" && typeof b === "number") { if (b < 0) throw ex("IllegalArgumentException", "count is negative: " + b); return a.repeat(b); }
		if (Array.isArray(a) && !a.$arr && typeof b === "number") { let out = []; for (let i = 0; i < b; i++) out = out.concat(a); return out; }
	}
	return arith("*", a, b);
};
$.div = function (a, b) {
	if (!bsh) {
		const r = numPair(a, b, "/");
		if (r <= 3) return decDivGroovy(decOf(a), decOf(b));
	}
	return arith("/", a, b);
};
$.mod = (a, b) => arith("%", a, b);
$.intdiv = function (a, b) {
	const r = numPair(a, b, "intdiv");
	if (r >= 3) throw ex("UnsupportedOperationException", "Cannot use intdiv() on this number type: " + typeName(rank(a) >= 3 ? a : b));
	return r === 1 ? arith1("/", toInt(a), toInt(b)) : arith("/", toLong(a), toLong(b));
};
function arith1(op, x, y) { if (y === 0) throw ex("ArithmeticException", "/ by zero"); return (x / y) | 0; }
$.pow = function (a, b) {
	const r = numPair(a, b, "**");
	if (r === 4 || (r === 3 && !(typeof b === "number" && b >= 0))) return d(Math.pow(toDouble(a), toDouble(b)));
	if (r === 3) { const x = decOf(a); return new Dec(x.u ** BigInt(b), x.s * b); }
	const y = toLong(b);
	if (y < 0n) return d(Math.pow(toDouble(a), toDouble(b)));
	const v = toLong(a) ** y;
	if (typeof a === "number" && typeof b === "number" && v >= -2147483648n && v <= 2147483647n) return Number(v);
	if (v >= -9223372036854775808n && v <= 9223372036854775807n) return v;
	throw ex("ArithmeticException", "gojm: " + str(a) + " ** " + str(b) + " needs a BigInteger");
};
$.neg = function (a) {
	if (typeof a === "number") return a === INT_MIN ? a : -a;
	if (typeof a === "bigint") return L64(-a);
	if (a instanceof JD) return d(-a.v);
	if (a instanceof Dec) return new Dec(-a.u, a.s);
	if (a instanceof Ch && bsh) return -a.c;
	if (a === null || a === undefined) throw npe("negative()");
	throw noMethod(a, "negative", []);
};
$.pos = function (a) {
	if (isNum(a)) return a;
	if (a instanceof Ch && bsh) return a.c;
	throw noMethod(a, "positive", []);
};
function intBits(op, a, b) {
	const r = numPair(a, b, op);
	if (r >= 3) throw noMethod(a, opName[op], [b]);
	if (r === 1) {
		const x = toInt(a), y = toInt(b);
		switch (op) {
		case "&": return x & y;
		case "|": return x | y;
		case "^": return x ^ y;
		case "<<": return x << y;
		case ">>": return x >> y;
		case ">>>": return x >>> y | 0;
		}
	}
	const x = toLong(a), y = toLong(b);
	switch (op) {
	case "&": return x & y;
	case "|": return x | y;
	case "^": return x ^ y;
	case "<<": return L64(x << (y & 63n));
	case ">>": return x >> (y & 63n);
	case ">>>": return L64(BigInt.asUintN(64, x) >> (y & 63n));
	}
}
$.band = (a, b) => typeof a === "boolean" && typeof b === "boolean" ? a && b : intBits("&", a, b);
$.bor = (a, b) => typeof a === "boolean" && typeof b === "boolean" ? a || b : intBits("|", a, b);
$.bxor = (a, b) => typeof a === "boolean" && typeof b === "boolean" ? a !== b : intBits("^", a, b);
$.shl = function (a, b) {
	if (!bsh && Array.isArray(a)) { a.push(b); return a; }
	if (!bsh && a && a.$t === "StringBuilder") { a.sb += str(b); return a; }
	return intBits("<<", a, b);
};
$.shr = (a, b) => intBits(">>", a, b);
$.ushr = (a, b) => intBits(">>>", a, b);
$.bnot = function (a) {
	if (typeof a === "number") return ~a;
	if (typeof a === "bigint") return L64(~a);
	throw noMethod(a, "bitwiseNegate", []);
};
// inc and dec are ++ and -- (Groovy's next() and previous()).
$.inc = function (a) {
	if (typeof a === "number") return (a + 1) | 0;
	if (typeof a === "bigint") return L64(a + 1n);
	if (a instanceof JD) return d(a.v + 1);
	if (a instanceof Dec) return decAdd(a, new Dec(1n, 0));
	if (a instanceof Ch) return new Ch((a.c + 1) & 0xFFFF);
	if (a === null || a === undefined) throw npe("next()");
	throw noMethod(a, "next", []);
};
$.dec_ = function (a) {
	if (typeof a === "number") return (a - 1) | 0;
	if (typeof a === "bigint") return L64(a - 1n);
	if (a instanceof JD) return d(a.v - 1);
	if (a instanceof Dec) return decSub(a, new Dec(1n, 0));
	if (a instanceof Ch) return new Ch((a.c - 1) & 0xFFFF);
	if (a === null || a === undefined) throw npe("previous()");
	throw noMethod(a, "previous", []);
};

// ---- comparison and equality -------------------------------------------

function numCmp(a, b) {
	const r = Math.max(rank(a), rank(b), 1);
	if (r === 4) { const x = toDouble(a), y = toDouble(b); return x < y ? -1 : x > y ? 1 : x === y ? 0 : NaN; }
	if (r === 3) return decCmp(decOf(a), decOf(b));
	if (r === 2) { const x = toLong(a), y = toLong(b); return x < y ? -1 : x > y ? 1 : 0; }
	const x = toInt(a), y = toInt(b);
	return x < y ? -1 : x > y ? 1 : 0;
}
function strCmp(x, y) { return x < y ? -1 : x > y ? 1 : 0; }
// cmp is compareTo with Groovy's coercions; it throws for values that do
// not compare.
function cmp(a, b) {
	if (a === undefined) a = null;
	if (b === undefined) b = null;
	if (a === null || b === null) {
		if (bsh) throw ex("bsh.EvalError", "Null value or 'null' literal in binary operation");
		if (a === b) return 0;
		return a === null ? -1 : 1;
	}
	const na = isNum(a) || a instanceof Ch, nb = isNum(b) || b instanceof Ch;
	if (na && nb) {
		if (!bsh && a instanceof Ch && b instanceof Ch) return a.c - b.c;
		return numCmp(a, b);
	}
	if (typeof a === "string" && typeof b === "string") return strCmp(a, b);
	if (!bsh) {
		if (typeof a === "string" && b instanceof Ch) return strCmp(a, String.fromCharCode(b.c));
		if (a instanceof Ch && typeof b === "string") return strCmp(String.fromCharCode(a.c), b);
		if (typeof a === "boolean" && typeof b === "boolean") return a === b ? 0 : a ? 1 : -1;
	}
	if (bsh) throw ex("bsh.EvalError", "Operator inappropriate for objects");
	throw ex("IllegalArgumentException", "Cannot compare " + typeName(a) + " with value '" + str(a) + "' and " + typeName(b) + " with value '" + str(b) + "'");
}
$.cmp = cmp;
$.lt = (a, b) => cmp(a, b) < 0;
$.le = (a, b) => cmp(a, b) <= 0;
$.gt = (a, b) => cmp(a, b) > 0;
$.ge = (a, b) => cmp(a, b) >= 0;
$.spaceship = function (a, b) { const c = cmp(a, b); return c < 0 ? -1 : c > 0 ? 1 : 0; };

// eq is Groovy's == (equals with numeric and string coercions).
function eq(a, b) {
	if (a === undefined) a = null;
	if (b === undefined) b = null;
	if (a === b) return true;
	if (a === null || b === null) return false;
	if ((isNum(a) || a instanceof Ch) && (isNum(b) || b instanceof Ch)) {
		if (a instanceof Ch && b instanceof Ch) return a.c === b.c;
		const c = numCmp(a, b);
		return c === 0;
	}
	if (typeof a === "string" && b instanceof Ch) return a.length === 1 && a.charCodeAt(0) === b.c;
	if (a instanceof Ch && typeof b === "string") return b.length === 1 && b.charCodeAt(0) === a.c;
	const la = Array.isArray(a) || a instanceof Range, lb = Array.isArray(b) || b instanceof Range;
	if (la && lb) {
		if (a.$set || b.$set) {
			if (!(a.$set && b.$set)) return false;
			return a.length === b.length && a.every((x) => b.some((y) => eq(x, y)));
		}
		const x = Array.from(iter(a)), y = Array.from(iter(b));
		if (x.length !== y.length) return false;
		for (let i = 0; i < x.length; i++) if (!eq(x[i], y[i])) return false;
		return true;
	}
	if (a instanceof Map && b instanceof Map) {
		if (a.size !== b.size) return false;
		for (const [k, v] of a) { if (!mapHas(b, k) || !eq(v, mapGet(b, k))) return false; }
		return true;
	}
	if (a instanceof JEx || b instanceof JEx) return false;
	if (a.$t && a.$t === b.$t && a.$eq) return a.$eq(b);
	return false;
}
$.eq = eq;
$.ne = (a, b) => !eq(a, b);
// jequals is Java's equals: same type and value.
function jequals(a, b) {
	if (a === undefined) a = null;
	if (b === undefined) b = null;
	if (a === null) throw npe("equals()");
	if (b === null) return false;
	const ka = kindOf(a), kb = kindOf(b);
	if (ka !== kb) {
		if ((ka === "List" || ka === "Range") && (kb === "List" || kb === "Range")) return eq(a, b);
		return false;
	}
	switch (ka) {
	case "Double": return a.v === b.v || Number.isNaN(a.v) && Number.isNaN(b.v);
	case "BigDecimal": return a.u === b.u && a.s === b.s;
	case "Character": return a.c === b.c;
	case "Closure": case "Exception": return a === b;
	}
	return eq(a, b);
}
$.jequals = jequals;
// beq is BeanShell's ==: primitives by value, objects by reference.
$.beq = function (a, b) {
	if (a === undefined) a = null;
	if (b === undefined) b = null;
	if (a === null || b === null) return a === b;
	const pa = isNum(a) && !(a instanceof Dec) || a instanceof Ch || typeof a === "boolean";
	const pb = isNum(b) && !(b instanceof Dec) || b instanceof Ch || typeof b === "boolean";
	if (pa && pb) {
		if (typeof a === "boolean" || typeof b === "boolean") return a === b;
		return numCmp(a, b) === 0;
	}
	// two strings: one object or not (identity.go)
	if (typeof a === "string" && typeof b === "string") return a === b && J.same(a, b);
	return a === b;
};
$.intern = J.intern;
$.ident = (a, b) => a === b || (a === null || a === undefined) && (b === null || b === undefined);

// truth is Groovy truth.
function truth(v) {
	if (v === null || v === undefined) return false;
	switch (typeof v) {
	case "boolean": return v;
	case "string": return v.length > 0;
	case "number": return v !== 0;
	case "bigint": return v !== 0n;
	case "function": return true;
	}
	if (v instanceof JD) return v.v !== 0;
	if (v instanceof Dec) return v.u !== 0n;
	if (v instanceof Ch) return v.c !== 0;
	if (Array.isArray(v)) return v.length > 0;
	if (v instanceof Map) return v.size > 0;
	if (v instanceof Range) return v.size() > 0;
	if (v.$t === "StringBuilder") return v.sb.length > 0;
	if (v.$t === "Matcher") return v.find();
	return true;
}
$.truth = truth;
// cond is a BeanShell condition: a boolean.
$.cond = function (v) {
	if (typeof v === "boolean") return v;
	throw ex("bsh.EvalError", "Condition must evaluate to a Boolean or Primitive Boolean: " + (v === null || v === undefined ? "null" : typeName(v)));
};
$.not = (v) => bsh ? !$.cond(v) : !truth(v);
$.elvis = function (v, f) { return truth(v) ? v : f(); };

// ---- strings -----------------------------------------------------------

// str is toString as Groovy (or Java, for BeanShell) writes values.
function str(v) {
	if (v === null || v === undefined) return "null";
	switch (typeof v) {
	case "string": return v;
	case "number": return String(v);
	case "bigint": return v.toString();
	case "boolean": return v ? "true" : "false";
	case "function": return bsh ? "Closure" : "Script1$_run_closure1@" + hashHex(v);
	}
	if (v instanceof JD) return doubleStr(v.v);
	if (v instanceof Dec) return decStr(v);
	if (v instanceof Ch) return String.fromCharCode(v.c);
	if (Array.isArray(v)) {
		if (v.$arr && bsh) return javaArrayName(v.$arr) + "@" + hashHex(v);
		return listStr(v);
	}
	if (v instanceof Map) return mapStr(v);
	if (v instanceof Range) return listStr(v.toArray());
	if (v instanceof JEx) return v.toString();
	if (v.$str) return v.$str();
	return typeName(v) + "@" + hashHex(v);
}
$.str = str;
let hashSeq = 0x1b6d3586;
const hashes = new WeakMap();
function hashHex(o) {
	let h = hashes.get(o);
	if (h === undefined) { hashSeq = (hashSeq * 1103515245 + 12345) >>> 0; h = hashSeq.toString(16); hashes.set(o, h); }
	return h;
}
function listStr(a) {
	if (bsh) return "[" + a.map((x) => x === a ? "(this Collection)" : str(x)).join(", ") + "]";
	return "[" + a.map((x) => x === a ? "(this Collection)" : inspectIn(x)).join(", ") + "]";
}
function inspectIn(x) { return str(x); }
function mapStr(m) {
	const parts = [];
	if (bsh || m.$java) { for (const [k, v] of mapEntries(m)) parts.push(str(k) + "=" + str(v)); return "{" + parts.join(", ") + "}"; }
	if (m.size === 0) return "[:]";
	for (const [k, v] of mapEntries(m)) parts.push(str(k) + ":" + (v === m ? "(this Map)" : str(v)));
	return "[" + parts.join(", ") + "]";
}
$.listStr = listStr;
// gs joins a GString's pieces.
$.gs = function (lits, vals) {
	let s = lits[0];
	for (let i = 0; i < vals.length; i++) s += str(vals[i]) + lits[i + 1];
	return s;
};

// ---- collections ---------------------------------------------------------

function mkSet(items) { const a = []; a.$set = true; if (items) for (const x of items) setAddTo(a, x); return a; }
$.mkSet = mkSet;
function mkArray(type, items) { const a = items ? Array.from(items) : []; Object.defineProperty(a, "$arr", { value: type }); return a; }
$.mkArray = mkArray;
// cl gives a closure of n parameters Groovy's spreading of a single list
// argument, keeping its parameter count.
// VOID is BeanShell's value of an undefined name.
$.VOID = { $t: "Void", $str: () => "void" };
$.cl = function (n, f) {
	const g = function (...args) {
		if (args.length === 1 && Array.isArray(args[0]) && !args[0].$arr && !args[0].$set) args = args[0];
		return f(...args);
	};
	Object.defineProperty(g, "length", { value: n });
	return g;
};
// Map keys: numbers, strings, BigInts and booleans are compared by value;
// a Double or BigDecimal key is keyed by its text.
function keyOf(k) {
	if (k instanceof JD) return "\u0000D" + doubleStr(k.v);
	if (k instanceof Dec) return "\u0000B" + decStr(k);
	if (k instanceof Ch) return "\u0000C" + k.c;
	return k === undefined ? null : k;
}
function mapGet(m, k) { const v = m.get(keyOf(k)); return v === undefined ? null : v; }
function mapHas(m, k) { return m.has(keyOf(k)); }
function mapPut(m, k, v) {
	const kk = keyOf(k);
	const old = m.has(kk) ? m.get(kk) : null;
	if (kk !== k) { if (!m.$keys) Object.defineProperty(m, "$keys", { value: new Map() }); m.$keys.set(kk, k); }
	m.set(kk, v);
	if (m.$hash) hashGrow(m);
	return old;
}
function mapRemove(m, k) {
	const kk = keyOf(k);
	const old = m.has(kk) ? m.get(kk) : null;
	m.delete(kk);
	return old;
}
function realKey(m, kk) { return m.$keys && m.$keys.has(kk) ? m.$keys.get(kk) : kk; }
// mapEntries lists entries in iteration order: insertion order, or
// java.util.HashMap's bucket order for a HashMap.
function mapEntries(m) {
	const out = [];
	for (const [kk, v] of m) out.push([realKey(m, kk), v]);
	if (m.$hash) {
		const cap = m.$cap;
		const idx = (k) => { const h = javaHash(k); return (h ^ (h >>> 16)) & (cap - 1); };
		const keyed = out.map((e, i) => [idx(e[0]), i, e]);
		keyed.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
		return keyed.map((x) => x[2]);
	}
	return out;
}
function hashGrow(m) { while (m.size > m.$cap * 0.75) m.$cap *= 2; }
function newHashMap() { const m = new Map(); Object.defineProperty(m, "$hash", { value: true }); Object.defineProperty(m, "$cap", { value: 16, writable: true }); Object.defineProperty(m, "$java", { value: bsh }); return m; }
$.newHashMap = newHashMap;
function javaHash(v) {
	if (v === null || v === undefined) return 0;
	switch (typeof v) {
	case "string": { let h = 0; for (let i = 0; i < v.length; i++) h = (Math.imul(31, h) + v.charCodeAt(i)) | 0; return h; }
	case "number": return v;
	case "bigint": return Number(BigInt.asIntN(32, v ^ (BigInt.asUintN(64, v) >> 32n)));
	case "boolean": return v ? 1231 : 1237;
	}
	if (v instanceof Ch) return v.c;
	throw ex("UnsupportedOperationException", "gojm: a HashMap keyed by " + typeName(v) + " (its order depends on object hashes)");
}
$.javaHash = javaHash;
$.mapGet = mapGet; $.mapPut = mapPut; $.mapHas = mapHas; $.mapRemove = mapRemove; $.mapEntries = mapEntries;
$.map = function (kv) {
	const m = new Map();
	for (let i = 0; i < kv.length; i += 2) mapPut(m, kv[i], kv[i + 1]);
	return m;
};
$.range = function (a, b, excl) {
	if (typeof a === "string" || typeof b === "string") throw ex("UnsupportedOperationException", "gojm: ranges of strings");
	let from = toInt(a), to = toInt(b);
	if (!(typeof a === "number" || typeof a === "bigint") || !(typeof b === "number" || typeof b === "bigint")) throw ex("UnsupportedOperationException", "gojm: ranges of " + typeName(a));
	let rev = false;
	if (from > to) { [from, to] = [to, from]; rev = true; }
	if (excl) { if (rev) from++; else to--; }
	return new Range(from, to, rev);
};
// iter iterates what a for-in loop iterates.
function* iter(v) {
	if (v === null || v === undefined) return;
	if (Array.isArray(v)) { yield* v.slice(); return; }
	if (v instanceof Range) { yield* v; return; }
	if (v instanceof Map) { for (const [k, x] of mapEntries(v)) yield entry(v, k, x); return; }
	if (typeof v === "string") { for (let i = 0; i < v.length; i++) yield bsh ? new Ch(v.charCodeAt(i)) : v[i]; return; }
	if (v.$iter) { yield* v.$iter(); return; }
	yield v;
}
$.iter = function (v) {
	if (bsh && (v === null || v === undefined)) throw npe();
	if (bsh && typeof v === "string") throw ex("bsh.EvalError", "Can't iterate over type: class java.lang.String");
	return iter(v);
};
function entry(m, k, v) {
	return { $t: "Entry", k: k, v: v, m: m, $str: function () { return str(this.k) + (bsh || m.$java ? "=" : ":") + str(this.v); }, $eq: function (o) { return eq(this.k, o.k) && eq(this.v, o.v); } };
}
$.entry = entry;

// ---- casts -------------------------------------------------------------------

function castFail(v, t) {
	if (bsh) return ex("bsh.EvalError", "Cannot cast " + typeName(v) + " to " + t);
	return ex("org.codehaus.groovy.runtime.typehandling.GroovyCastException", "Cannot cast object '" + str(v) + "' with class '" + typeName(v) + "' to class '" + (primJava[t] || javaNames[t] || t) + "'");
}
const primJava = { int: "int", long: "long", double: "double", boolean: "boolean", char: "char", Integer: "java.lang.Integer", Long: "java.lang.Long", Double: "java.lang.Double" };
// cast is an assignment to a typed variable or a (T) cast.
$.cast = function (v, t) {
	if (v === undefined) v = null;
	switch (t) {
	case "def": case "Object": return v;
	case "int": case "long": case "double": case "char": case "boolean":
		if (v === null) {
			if (bsh) throw ex("bsh.EvalError", "Can't assign null to primitive " + t);
			throw ex("org.codehaus.groovy.runtime.typehandling.GroovyCastException", "Cannot cast object 'null' with class 'null' to class '" + t + "'. Try 'java.lang." + ({ int: "Integer", long: "Long", double: "Double", char: "Character", boolean: "Boolean" })[t] + "' instead");
		}
	}
	switch (t) {
	case "int": case "Integer": case "short": case "byte":
		if (v === null) return null;
		if (isNum(v) || v instanceof Ch) return toInt(v);
		if (!bsh && typeof v === "string" && v.length === 1 && t === "int") return v.charCodeAt(0);
		throw castFail(v, t);
	case "long": case "Long":
		if (v === null) return null;
		if (isNum(v) || v instanceof Ch) return toLong(v);
		throw castFail(v, t);
	case "double": case "Double": case "float": case "Float":
		if (v === null) return null;
		if (isNum(v) || v instanceof Ch) return d(toDouble(v));
		throw castFail(v, t);
	case "BigDecimal":
		if (v === null) return null;
		if (isNum(v)) return decOf(v);
		throw castFail(v, t);
	case "Number":
		if (v === null || isNum(v)) return v;
		throw castFail(v, t);
	case "char": case "Character":
		if (v === null) return null;
		if (v instanceof Ch) return v;
		if (typeof v === "number") return new Ch(v & 0xFFFF);
		if (typeof v === "string" && v.length === 1) return new Ch(v.charCodeAt(0));
		throw castFail(v, t);
	case "boolean": case "Boolean":
		if (v === null) return null;
		if (typeof v === "boolean") return v;
		if (bsh) throw castFail(v, t);
		if (t === "boolean") return truth(v);
		throw castFail(v, t);
	case "String": case "CharSequence":
		if (v === null) return null;
		if (typeof v === "string") return v;
		if (bsh) throw castFail(v, t);
		return str(v);
	case "List": case "ArrayList": case "Collection": case "Iterable":
		if (v === null) return null;
		if (Array.isArray(v) && !v.$arr && !v.$set) return v;
		if (!bsh && (Array.isArray(v) || v instanceof Range)) return Array.from(iter(v));
		if (bsh && t !== "List" && t !== "ArrayList") return v;
		throw castFail(v, t);
	case "Set": case "HashSet": case "LinkedHashSet":
		if (v === null) return null;
		if (Array.isArray(v) && v.$set) return v;
		if (!bsh && (Array.isArray(v) || v instanceof Range)) return mkSet(iter(v));
		throw castFail(v, t);
	case "Map": case "HashMap": case "LinkedHashMap":
		if (v === null || v instanceof Map) return v;
		throw castFail(v, t);
	}
	if (t.endsWith("[]")) {
		if (v === null) return null;
		const et = t.substring(0, t.length - 2);
		if (Array.isArray(v) && v.$arr) return v;
		if (!bsh && (Array.isArray(v) || v instanceof Range)) return mkArray(et, Array.from(iter(v)).map((x) => $.cast(x, et)));
		throw castFail(v, t);
	}
	// host and helper types
	if (v === null) return null;
	const k = kindOf(v);
	if (k === t || t === "Exception" && v instanceof JEx || t === "Throwable" && v instanceof JEx) return v;
	for (let p = $.parents[k]; p; p = $.parents[p]) if (p === t) return v;
	if (v instanceof JEx && exIs(v.cls, exShort[t] || t)) return v;
	throw castFail(v, t);
};
// as is Groovy's "as".
$.as = function (v, t) {
	if (v === null || v === undefined) return t === "boolean" ? false : null;
	switch (t) {
	case "int": case "Integer": case "long": case "Long": case "short": case "byte":
		if (typeof v === "string") return t === "long" || t === "Long" ? strToLong(v) : strToInt(v);
		if (v instanceof Ch) return (t === "long" || t === "Long") ? BigInt(v.c) : v.c;
		break;
	case "double": case "Double": case "float": case "Float":
		if (typeof v === "string") return d(strToDouble(v));
		break;
	case "BigDecimal": case "Number":
		if (typeof v === "string") return decParse(v);
		break;
	case "boolean": case "Boolean":
		return truth(v);
	case "String":
		if (Array.isArray(v) && v.$arr === "char") return v.map((c) => String.fromCharCode(c.c)).join("");
		return str(v);
	case "char": case "Character":
		if (typeof v === "string" && v.length > 0) return new Ch(v.charCodeAt(0));
		break;
	}
	return $.cast(v, t);
};
function strToInt(s, radix) {
	const t = s;
	const re = radix === 16 ? /^[+-]?[0-9a-fA-F]+$/ : /^[+-]?\d+$/;
	if (!re.test(t)) throw ex("NumberFormatException", "For input string: \"" + s + "\"" + (radix && radix !== 10 ? " under radix " + radix : ""));
	const v = parseInt(t, radix || 10);
	if (v > INT_MAX || v < INT_MIN) throw ex("NumberFormatException", "For input string: \"" + s + "\"" + (radix && radix !== 10 ? " under radix " + radix : ""));
	return v;
}
function strToLong(s) {
	if (!/^[+-]?\d+$/.test(s)) throw ex("NumberFormatException", "For input string: \"" + s + "\"");
	const v = BigInt(s);
	if (v > 9223372036854775807n || v < -9223372036854775808n) throw ex("NumberFormatException", "For input string: \"" + s + "\"");
	return v;
}
function strToDouble(s) {
	const t = s.trim();
	if (/^[+-]?(NaN|Infinity)$/.test(t)) return t.includes("NaN") ? NaN : (t[0] === "-" ? -Infinity : Infinity);
	if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?$/.test(t)) throw ex("NumberFormatException", t === "" ? "empty String" : "For input string: \"" + s + "\"");
	return parseFloat(t.replace(/[fFdD]$/, ""));
}
$.strToInt = strToInt; $.strToLong = strToLong; $.strToDouble = strToDouble; $.decParse = decParse;
$.decSetScale = decSetScale; $.decPlain = decPlain; $.decOf = decOf; $.decCmp = decCmp; $.decRoundPrec = decRoundPrec;
$.isInst = function (v, t) {
	if (v === null || v === undefined) return false;
	const k = kindOf(v);
	switch (t) {
	case "Object": return true;
	case "Number": return isNum(v);
	case "String": case "CharSequence": return k === "String";
	case "Integer": case "Long": case "Double": case "BigDecimal": case "Boolean": case "Character": case "Map": case "Set": case "Range":
		return k === t;
	case "List": case "ArrayList": case "Collection": return k === "List" || k === "Range" || (t === "Collection" && k === "Set");
	case "Closure": return k === "Closure";
	}
	if (t.endsWith("[]")) return k === "Array";
	if (v instanceof JEx) return exIs(v.cls, exShort[t] || t);
	return k === t;
};
$.exIs = function (e, types) {
	if (!(e instanceof JEx)) return false;
	for (const t of types) if (exIs(e.cls, exShort[t] || t)) return true;
	return false;
};
// toThrow checks what a throw statement throws.
$.toThrow = function (v) {
	if (v instanceof JEx) return v;
	if (v === null || v === undefined) return npe();
	throw ex("ClassCastException", typeName(v) + " cannot be thrown");
};
$.newEx = function (cls, args) {
	const full = exShort[cls] || cls;
	let msg = null, cause = null;
	if (args.length >= 1) {
		if (args[0] instanceof JEx) { cause = args[0]; msg = cause.toString(); }
		else msg = args[0] === null ? null : str(args[0]);
	}
	if (args.length >= 2 && args[1] instanceof JEx) cause = args[1];
	return new JEx(full, msg, cause);
};

$.rank = rank; $.decAdd = decAdd; $.decSub = decSub; $.decMul = decMul; $.decDivExact = decDivExact; $.decDivGroovy = decDivGroovy;
$.decTrunc = decTrunc; $.decPrecision = decPrecision; $.decToDouble = decToDouble; $.numCmp = numCmp; $.strCmp = strCmp;
$.setAddTo = setAddTo; $.mapStr = mapStr; $.hashHex = hashHex; $.exIsCls = exIs; $.exShort = exShort; $.javaNames = javaNames;
$.doubleToLong = doubleToLong; $.doubleToInt = doubleToInt; $.INT_MIN = INT_MIN; $.INT_MAX = INT_MAX;
for (const f of $mk.exts) f($, J, H, bsh);
return $;
}
$mk.exts = [];
$mk.JD = JD; $mk.Dec = Dec; $mk.Ch = Ch; $mk.Range = Range; $mk.JEx = JEx; $mk.exParents = exParents; $mk.exShort = exShort;
return $mk;
})();
