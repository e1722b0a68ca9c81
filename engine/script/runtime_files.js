// Files from scripts: java.io.File (and Groovy's methods on it),
// FileWriter, BufferedWriter, PrintWriter, commons-io FileUtils and
// System.getProperty's file properties. Every read and write goes to the
// host (J.file…), which asks the plan's files policy. A writer keeps what
// a script writes and hands the host whole lines only (on flush, on close
// and when its buffer fills), so that users appending to one file never
// tear each other's lines.
$mk.exParents["java.io.FileNotFoundException"] = "java.io.IOException";
$mk.exParents["java.lang.SecurityException"] = "java.lang.RuntimeException";
$mk.exShort.FileNotFoundException = "java.io.FileNotFoundException";
$mk.exShort.SecurityException = "java.lang.SecurityException";
$mk.exParents["java.net.BindException"] = "java.io.IOException";
$mk.exts.push(function ($, J, H, bsh) {
"use strict";
const ex = $.ex, str = $.str, def = $.def, defS = $.defS, N = $.N, F = $.F;
const sep = J.fileSep || "/";

Object.assign($.parents, { FileWriter: "Writer", BufferedWriter: "Writer", PrintWriter: "Writer" });

// ---- File ---------------------------------------------------------------
// Java's File keeps its path normalized: no doubled or trailing separator.
function normPath(p) {
	p = str(p);
	let s = p.replace(/\/+/g, "/");
	if (s.length > 1 && s.endsWith("/")) s = s.substring(0, s.length - 1);
	return s;
}
function mkFile(p) {
	if (p === null || p === undefined) throw ex("NullPointerException", null);
	return { $t: "File", path: normPath(p), $str() { return this.path; }, $eq(o) { return o && o.$t === "File" && o.path === this.path; } };
}
$.mkFile = mkFile;
function pathOf(x) {
	if (x && x.$t === "File") return x.path;
	if (x === null || x === undefined) throw ex("NullPointerException", null);
	return str(x);
}
N.File = {
	1: (p) => mkFile(pathOf(p)),
	2: (parent, child) => {
		if (parent === null || parent === undefined) return mkFile(child);
		const pp = pathOf(parent);
		return mkFile(pp === "" ? sep + str(child) : pp + sep + str(child));
	},
};
function stat(f) { return J.fileStat(f.path); }
function nameOf(p) { const i = p.lastIndexOf(sep); return i < 0 ? p : p.substring(i + 1); }
function readText(f, cs) { return J.fileRead(f.path, cs === undefined ? "" : $.charset(cs)); }
function lines(s) {
	const out = s.split(/\r\n|\r|\n/);
	if (out.length && out[out.length - 1] === "") out.pop();
	return out;
}
def("File", {
	"exists/0": ["Boolean", (f) => stat(f)[0]],
	"isFile/0": ["Boolean", (f) => stat(f)[1]],
	"isDirectory/0": ["Boolean", (f) => stat(f)[2]],
	"length/0": ["Long", (f) => BigInt(stat(f)[3])],
	"canRead/0": ["Boolean", (f) => stat(f)[0]],
	"delete/0": ["Boolean", (f) => J.fileDelete(f.path)],
	"getName/0": ["String", (f) => nameOf(f.path)],
	"getPath/0": ["String", (f) => f.path],
	"getAbsolutePath/0": ["String", (f) => J.fileAbs(f.path)],
	"getParent/0": ["String", (f) => { const i = f.path.lastIndexOf(sep); return i < 0 ? null : i === 0 ? sep : f.path.substring(0, i); }],
	"createNewFile/0": ["Boolean", (f) => { if (stat(f)[0]) return false; J.fileCreate(f.path, false); return true; }],
	"toString/0": ["String", (f) => f.path],
});
// Groovy's methods on File (ResourceGroovyMethods).
def("File", {
	"getText/0": ["String", (f) => readText(f)],
	"getText/1": ["String", (f, cs) => readText(f, cs)],
	"readLines/0": ["List", (f) => lines(readText(f))],
	"readLines/1": ["List", (f, cs) => lines(readText(f, cs))],
	"eachLine/1": ["", (f, fn) => { let r = null; for (const l of lines(readText(f))) r = fn(l); return r; }],
	"write/1": ["Null", (f, s) => { J.fileCreate(f.path, true); J.fileAppend(f.path, str(s)); return null; }],
	"setText/1": ["Null", (f, s) => { J.fileCreate(f.path, true); J.fileAppend(f.path, str(s)); return null; }],
	"append/1": ["Null", (f, s) => { J.fileCreate(f.path, false); J.fileAppend(f.path, str(s)); return null; }],
}, "g");

// ---- writers --------------------------------------------------------------
// A sink is one open file; the writers over it (a FileWriter, the
// BufferedWriter and PrintWriter around it) share it.
const bufMax = 8192;
function sink(path, append) {
	J.fileCreate(path, !append);
	return { path: path, buf: "", closed: false };
}
function put(s, text) {
	if (s.closed) throw ex("IOException", "Stream closed");
	s.buf += text;
	if (s.buf.length >= bufMax) drain(s, false);
}
// drain hands the host the buffer's whole lines, or all of it.
function drain(s, all) {
	if (s.buf === "") return;
	let n = s.buf.length;
	if (!all) { n = s.buf.lastIndexOf("\n") + 1; if (n === 0) return; }
	const text = s.buf.substring(0, n);
	s.buf = s.buf.substring(n);
	J.fileAppend(s.path, text);
}
function closeSink(s) {
	if (s.closed) return;
	s.closed = true;
	drain(s, true);
}
function writer(t, s, cls) { return { $t: t, s: s, cls: cls }; }
function sinkOf(x, what) {
	if (x && x.s && (x.$t === "FileWriter" || x.$t === "BufferedWriter" || x.$t === "PrintWriter")) return x.s;
	throw ex("IllegalArgumentException", "gojm: " + what + " over a " + $.typeName(x) + " (only a FileWriter, BufferedWriter or PrintWriter)");
}
N.FileWriter = {
	1: (p) => writer("FileWriter", sink(pathOf(p), false)),
	2: (p, append) => writer("FileWriter", sink(pathOf(p), $.truth(append))),
};
N.BufferedWriter = {
	1: (w) => writer("BufferedWriter", sinkOf(w, "a BufferedWriter")),
	2: (w) => writer("BufferedWriter", sinkOf(w, "a BufferedWriter")),
};
N.PrintWriter = {
	1: (x) => writer("PrintWriter", typeof x === "string" || (x && x.$t === "File") ? sink(pathOf(x), false) : sinkOf(x, "a PrintWriter")),
	2: (x, auto) => { const w = writer("PrintWriter", sinkOf(x, "a PrintWriter")); w.auto = $.truth(auto); return w; },
};
function chars(x) {
	if (typeof x === "number") return String.fromCharCode(x & 0xffff);
	if (Array.isArray(x) && x.$arr === "char") return x.map((c) => String.fromCharCode(c.c)).join("");
	return str(x);
}
function checkNull(x) { if (x === null || x === undefined) throw ex("NullPointerException", null); return x; }
// the sinks, for FileOutputStream and PrintStream (runtime_streams.js)
Object.assign($, { pathOf: pathOf, fileSink: sink, sinkPut: put, sinkDrain: drain, sinkClose: closeSink, chars: chars });
def("Writer", {
	"write/1": ["Null", (w, x) => { put(w.s, chars(checkNull(x))); return null; }],
	"write/3": ["Null", (w, x, off, len) => { put(w.s, chars(checkNull(x)).substr($.toInt(off), $.toInt(len))); return null; }],
	"append/1": ["Writer", (w, x) => { put(w.s, x === null || x === undefined ? "null" : $.javaStr(x)); return w; }],
	"newLine/0": ["Null", (w) => { put(w.s, "\n"); return null; }],
	"flush/0": ["Null", (w) => { if (w.s.closed) throw ex("IOException", "Stream closed"); drain(w.s, false); return null; }],
	"close/0": ["Null", (w) => { closeSink(w.s); return null; }],
});
// PrintWriter never throws; it prints Java's text of any value.
function pw(w, text) {
	if (w.s.closed) return;
	put(w.s, text);
	if (w.auto) drain(w.s, false);
}
def("PrintWriter", {
	"print/1": ["Null", (w, x) => { pw(w, $.javaStr(x)); return null; }],
	"println/0": ["Null", (w) => { pw(w, "\n"); return null; }],
	"println/1": ["Null", (w, x) => { pw(w, $.javaStr(x) + "\n"); return null; }],
	"printf/*": ["PrintWriter", (w, f, ...args) => { pw(w, $.format(f, args)); return w; }],
	"write/1": ["Null", (w, x) => { if (!w.s.closed) put(w.s, chars(checkNull(x))); return null; }],
	"flush/0": ["Null", (w) => { if (!w.s.closed) drain(w.s, false); return null; }],
	"checkError/0": ["Boolean", () => false],
});

// ---- commons-io FileUtils ---------------------------------------------------
function fileArg(f) {
	if (f && f.$t === "File") return f;
	throw ex("IllegalArgumentException", "gojm: FileUtils takes a File, not a " + $.typeName(f));
}
function writeString(f, data, cs, append) {
	const p = fileArg(f).path;
	J.fileCreate(p, !append);
	J.fileAppend(p, data === null || data === undefined ? "" : str(data));
	return null;
}
defS("FileUtils", {
	"readFileToString/1": ["String", (f) => readText(fileArg(f))],
	"readFileToString/2": ["String", (f, cs) => readText(fileArg(f), cs)],
	"readLines/1": ["List", (f) => lines(readText(fileArg(f)))],
	"readLines/2": ["List", (f, cs) => lines(readText(fileArg(f), cs))],
	"writeStringToFile/2": ["Null", (f, s) => writeString(f, s, "", false)],
	"writeStringToFile/3": ["Null", (f, s, x) => writeString(f, s, "", typeof x === "boolean" ? x : false)],
	"writeStringToFile/4": ["Null", (f, s, cs, append) => writeString(f, s, cs, $.truth(append))],
	"deleteQuietly/1": ["Boolean", (f) => { try { return J.fileDelete(fileArg(f).path); } catch (e) { return false; } }],
});

// ---- System.getProperty ---------------------------------------------------------
// The system properties of a JVM that scripts build paths and lines with;
// any other is null, as an unset property is.
const sysProps = { "file.separator": sep, "path.separator": J.pathSep || ":", "line.separator": "\n" };
function sysProp(k) {
	k = str(k);
	if (k === "user.dir") return J.fileAbs(".");
	return Object.prototype.hasOwnProperty.call(sysProps, k) ? sysProps[k] : null;
}
defS("System", {
	"getProperty/1": ["String", (k) => sysProp(k)],
	"getProperty/2": ["String", (k, dflt) => { const v = sysProp(k); return v === null ? dflt : v; }],
});

// ---- groovy.json.StringEscapeUtils ------------------------------------------------
// escapeJavaScript as Groovy 2.4 has it (from commons-lang 2): quotes,
// backslash and slash escaped, control characters and anything past
// U+007F as \uXXXX in upper case, except \b \t \n \f \r.
function escapeJS(s) {
	if (s === null || s === undefined) return null;
	s = str(s);
	let out = "";
	for (let i = 0; i < s.length; i++) {
		const c = s.charCodeAt(i), ch = s[i];
		if (c > 0x7f) out += "\\u" + c.toString(16).toUpperCase().padStart(4, "0");
		else if (c < 32) {
			switch (ch) {
			case "\b": out += "\\b"; break;
			case "\n": out += "\\n"; break;
			case "\t": out += "\\t"; break;
			case "\f": out += "\\f"; break;
			case "\r": out += "\\r"; break;
			default: out += "\\u" + c.toString(16).toUpperCase().padStart(4, "0");
			}
		} else if (ch === "'" || ch === "\"" || ch === "\\" || ch === "/") out += "\\" + ch;
		else out += ch;
	}
	return out;
}
defS("StringEscapeUtils", { "escapeJavaScript/1": ["String", escapeJS] });
});

// JMeter's HTTP Mirror Server, as JMeter's batch plans start it from a
// script (new HttpMirrorServer(port[, maxPool, maxQueue]).start(), kept in
// props, stopServer() at the end). The host serves it on the loopback
// only. As in JMeter, start() does not throw: a port it cannot bind is
// logged and kept as getException().
$mk.exts.push(function ($, J, H, bsh) {
"use strict";
const def = $.def, N = $.N;
function mirror(port) {
	return { $t: "HttpMirrorServer", port: $.toInt(port), err: null, $store() { return this.port; }, $str() { return "HttpMirrorServer[" + this.port + "]"; } };
}
$.restore.HttpMirrorServer = (port) => mirror(port);
N.HttpMirrorServer = { 1: (p) => mirror(p), 3: (p) => mirror(p) };
def("HttpMirrorServer", {
	"start/0": ["Null", (m) => {
		const e = J.mirrorStart(m.port);
		if (e) { m.err = $.ex("java.net.BindException", e); H.log("error", "Failed to start HttpMirrorServer on port " + m.port + ": " + e); }
		return null;
	}],
	"stopServer/0": ["Null", (m) => { J.mirrorStop(m.port); return null; }],
	"getException/0": ["Exception", (m) => m.err],
	"getPort/0": ["Integer", (m) => m.port],
});
});
