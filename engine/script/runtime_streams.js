// java.io.FileOutputStream, a PrintStream over one (or over a file), and
// BeanShell's this.interpreter.setOut/setErr, through the files policy as
// the writers (runtime_files.js). Java's FileOutputStream does not buffer:
// what a script prints is in the file when it prints it, closed or not.
// gojm hands the host each whole line as it is printed (so that users
// appending to one file never tear each other's lines) and the rest when
// the stream closes or the script run ends.
$mk.exts.push(function ($, J, H, bsh) {
"use strict";
const ex = $.ex, def = $.def, N = $.N;
Object.assign($.parents, { FileOutputStream: "OutputStream" });

const open = []; // the sinks this run opened
let interpOut = null;
function stream(path, append) {
	const s = $.fileSink(path, append);
	open.push(s);
	return s;
}
// write puts text on a sink and hands the host its whole lines.
function write(s, text) {
	$.sinkPut(s, text);
	$.sinkDrain(s, false);
}
function fos(s) { return { $t: "FileOutputStream", s: s }; }
function ps(s, auto) { return { $t: "Out", err: false, s: s, auto: auto, failed: false }; }
function psTarget(x, what) {
	if (typeof x === "string" || x && x.$t === "File") return stream($.pathOf(x), false);
	if (x && x.s && (x.$t === "FileOutputStream" || x.$t === "Out")) return x.s;
	throw ex("IllegalArgumentException", "gojm: " + what + " over a " + $.typeName(x) + " (only a file name, a File, a FileOutputStream or a PrintStream)");
}
N.FileOutputStream = {
	1: (p) => fos(stream($.pathOf(p), false)),
	2: (p, append) => fos(stream($.pathOf(p), $.truth(append))),
};
N.PrintStream = {
	1: (x) => ps(psTarget(x, "a PrintStream"), false),
	// (OutputStream, autoFlush), or (file name, charset): gojm writes UTF-8
	2: (x, y) => ps(psTarget(x, "a PrintStream"), typeof y === "boolean" ? y : false),
};
// bytes are written as their UTF-8 text
function bytesText(b, off, len) {
	if (typeof b === "number") return J.decode([b & 0xff], "UTF-8");
	const a = $.bytesArg(b);
	return J.decode(off === undefined ? a : a.slice(off, off + len), "UTF-8");
}
function checkOpen(s) { if (s.closed) throw ex("IOException", "Stream Closed"); }
def("FileOutputStream", {
	"write/1": ["Null", (f, b) => { checkOpen(f.s); write(f.s, bytesText(b)); return null; }],
	"write/3": ["Null", (f, b, off, len) => { checkOpen(f.s); write(f.s, bytesText(b, $.toInt(off), $.toInt(len))); return null; }],
	"flush/0": ["Null", () => null],
	"close/0": ["Null", (f) => { $.sinkClose(f.s); return null; }],
});
// A PrintStream never throws: after close it drops what it is given and
// checkError() is true, as Java's.
$.streamWrite = function (o, text) {
	if (o.s.closed) { o.failed = true; return; }
	write(o.s, text);
};
def("Out", {
	"write/1": ["Null", (o, b) => { if (o.s) $.streamWrite(o, bytesText(b)); else H.out(bytesText(b), o.err); return null; }],
	"append/1": ["Out", (o, x) => { const t = x === null || x === undefined ? "null" : $.javaStr(x); if (o.s) $.streamWrite(o, t); else H.out(t, o.err); return o; }],
	"close/0": ["Null", (o) => { if (o.s) $.sinkClose(o.s); return null; }],
	"checkError/0": ["Boolean", (o) => !!o.failed],
});

// this.interpreter: BeanShell's interpreter, whose output print() writes
// to; setOut holds for the rest of the script run.
$.interp = { $t: "Interpreter" };
function outArg(p) {
	if (p && p.$t === "Out") return p;
	if (p === null || p === undefined) throw ex("NullPointerException", null);
	throw ex("IllegalArgumentException", "gojm: setOut takes a PrintStream, not a " + $.typeName(p));
}
def("Interpreter", {
	"setOut/1": ["Null", (i, p) => { interpOut = outArg(p); return null; }],
	"setErr/1": ["Null", (i, p) => { outArg(p); return null; }], // nothing the subset runs prints to BeanShell's error stream
});
if (bsh) {
	const println = $.println;
	$.println = function (x) {
		if (interpOut === null) return println.apply(null, arguments);
		$.streamWrite(interpOut, (arguments.length ? $.str(x) : "") + "\n");
		return null;
	};
}

// what a run left open is written when it ends (flushObjects)
const flush = $.flushObjects;
$.flushObjects = function () {
	if (open.length) {
		for (const s of open) if (!s.closed) $.sinkDrain(s, true);
		open.length = 0;
	}
	interpOut = null;
	flush();
};
});
