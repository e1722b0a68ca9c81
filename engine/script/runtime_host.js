// JMeter's script bindings as Java and Groovy code sees them: vars
// (JMeterVariables), props (java.util.Properties), log (an SLF4J logger),
// ctx (JMeterContext), prev and SampleResult (SampleResult),
// AssertionResult, sampler, OUT (System.out), sampleEvent. Storage lives in
// the host (H); these tables keep JMeter's rules (vars.put takes strings
// only, props.put refuses null…).
$mk.exts.push(function ($, J, H, bsh) {
"use strict";
const { JD, Dec, Ch, JEx } = $;
const ex = $.ex, str = $.str, def = $.def, kindOf = $.kindOf;

function needName(k, what) {
	if (typeof k === "string") return k;
	if (k === null || k === undefined) return null;
	if (!bsh && (k instanceof Ch)) return String.fromCharCode(k.c);
	throw $.missing({ $t: what }, "get", [k]);
}

// ---- vars ---------------------------------------------------------------
// Objects a run reads or puts are kept here by name, so that the run
// sees one object (changes to it included), which goes back to the host
// at the end of the run (flushObjects).
const objCache = new Map();
function cached(kind, name, load) {
	const k = kind + name;
	if (objCache.has(k)) return objCache.get(k);
	const o = load(name);
	if (o === undefined) return undefined;
	const v = $.importVal(o);
	objCache.set(k, v);
	return v;
}
$.resetObjects = () => objCache.clear();
$.flushObjects = function () {
	for (const [k, v] of objCache) {
		const name = k.substring(2);
		try {
			if (k[0] === "v") H.varPutObj(name, $.exportVal(v), $.javaStr(v));
			else H.propPutObj(name, $.exportVal(v), $.javaStr(v));
		} catch (e) {
			H.log("warn", "gojm cannot keep " + name + ": " + str(e));
		}
	}
	objCache.clear();
};
function cce(val) {
	const c = $.typeName(val);
	return ex("ClassCastException", "class " + c + " cannot be cast to class java.lang.String (" + c + " and java.lang.String are in module java.base of loader 'bootstrap')");
}
function varsGet(name) {
	const val = cached("v:", name, H.varObj);
	if (val !== undefined) {
		if (typeof val !== "string") throw cce(val);
		return val;
	}
	const v = H.varGet(name);
	return v === undefined ? null : v;
}
function varsGetObject(name) {
	const val = cached("v:", name, H.varObj);
	if (val !== undefined) return val;
	const v = H.varGet(name);
	return v === undefined ? null : v;
}
function varsPut(name, v, method) {
	if (v === undefined) v = null;
	if (v !== null && typeof v !== "string") {
		// JMeterVariables.put(String, String): anything else does not match
		if (!bsh && v instanceof Ch) { v = String.fromCharCode(v.c); }
		else {
			const args = [name, v];
			if (bsh) throw ex("bsh.EvalError", "Error in method invocation: Method " + method + "(java.lang.String, " + $.typeName(v) + ") not found in class'org.apache.jmeter.threads.JMeterVariables'");
			throw ex("groovy.lang.MissingMethodException", "No signature of method: org.apache.jmeter.threads.JMeterVariables." + method + "() is applicable for argument types: (java.lang.String, " + $.typeName(v) + ") values: " + $.listStr(args) + "\nPossible solutions: " + method + "(java.lang.String, java.lang.String), putAll(java.util.Map), putObject(java.lang.String, java.lang.Object), get(java.lang.String)");
		}
	}
	if (name === null) throw ex("NullPointerException", null);
	objCache.delete("v:" + name);
	H.varPut(name, v);
	return null;
}
function varsPutObject(name, v) {
	if (v === undefined) v = null;
	if (name === null) throw ex("NullPointerException", null);
	if (v === null || typeof v === "string") { objCache.delete("v:" + name); H.varPut(name, v); return null; }
	H.varPutObj(name, $.exportVal(v), $.javaStr(v));
	objCache.set("v:" + name, v);
	return null;
}
const vars = {
	$t: "Vars",
	$getAt: (k) => varsGet(needName(k, "Vars")),
	$putAt: () => { throw ex("groovy.lang.MissingPropertyException", "No such property: (putAt) for class: org.apache.jmeter.threads.JMeterVariables"); },
	$prop: (name) => { if (bsh) return undefined; return varsGet(name); },
	$setProp: (name) => { throw ex("groovy.lang.MissingPropertyException", "No such property: " + name + " for class: org.apache.jmeter.threads.JMeterVariables"); },
	$str: () => "org.apache.jmeter.threads.JMeterVariables@" + $.hashHex(vars),
};
def("Vars", {
	"get/1": ["String", (v, k) => varsGet(needName(k, "Vars"))],
	"getObject/1": ["", (v, k) => varsGetObject(needName(k, "Vars"))],
	"put/2": ["Null", (v, k, x) => varsPut(needName(k, "Vars"), x, "put")],
	"putObject/2": ["Null", (v, k, x) => varsPutObject(needName(k, "Vars"), x)],
	"remove/1": ["", (v, k) => { k = needName(k, "Vars"); const old = varsGetObject(k); objCache.delete("v:" + k); H.varRemove(k); return old; }],
	"getIteration/0": ["Integer", () => H.iteration()],
	"getThreadName/0": ["String", () => H.threadName()],
	"entrySet/0": ["Set", () => { const s = $.mkSet(); for (const k of H.varNames()) s.push($.entry(new Map(), k, varsGetObject(k))); return s; }],
	"getIterator/0": ["Iterator", () => $.m(Array.from($.m(vars, "entrySet", [])), "iterator", [])],
	"putAll/1": ["Null", (v, m) => { for (const [k, x] of $.mapEntries(m)) varsPutObject(str(k), x); return null; }],
	"toString/0": ["String", () => vars.$str()],
});
$.vars = vars;

// ---- props ------------------------------------------------------------------
function propsGet(k) {
	if (k === null || k === undefined) throw ex("NullPointerException", null);
	const key = typeof k === "string" ? k : str(k);
	const val = cached("p:", key, H.propObj);
	if (val !== undefined) return val;
	const v = H.propGet(key);
	return v === undefined ? null : v;
}
function propsPut(k, v) {
	if (k === null || k === undefined || v === null || v === undefined) throw ex("NullPointerException", null);
	const key = typeof k === "string" ? k : str(k);
	const old = propsGet(key);
	if (typeof v === "string") { objCache.delete("p:" + key); H.propPut(key, v); }
	else { H.propPutObj(key, $.exportVal(v), $.javaStr(v)); objCache.set("p:" + key, v); }
	return old;
}
const props = {
	$t: "Props",
	$getAt: (k) => propsGet(k),
	$putAt: (k, v) => { propsPut(k, v); },
	$prop: (name) => { if (bsh) return undefined; return propsGet(name); },
	$setProp: (name, v) => { if (bsh) return false; propsPut(name, v); return true; },
	$str: () => "{" + H.propNames().map((k) => k + "=" + $.javaStr(propsGet(k))).join(", ") + "}",
	$iter: function* () { for (const k of H.propNames()) yield $.entry(new Map(), k, propsGet(k)); },
};
def("Props", {
	"get/1": ["", (p, k) => propsGet(k)],
	"getProperty/1": ["String", (p, k) => { const v = propsGet(k); return typeof v === "string" ? v : null; }],
	"getProperty/2": ["String", (p, k, dflt) => { const v = propsGet(k); return typeof v === "string" ? v : dflt; }],
	"put/2": ["", (p, k, v) => propsPut(k, v)],
	"setProperty/2": ["", (p, k, v) => {
		if (typeof v !== "string" && v !== null) throw $.missing(props, "setProperty", [k, v]);
		return propsPut(k, v);
	}],
	"remove/1": ["", (p, k) => { const old = propsGet(k); objCache.delete("p:" + str(k)); H.propRemove(str(k)); return old; }],
	"containsKey/1": ["Boolean", (p, k) => propsGet(k) !== null],
	"isEmpty/0": ["Boolean", () => H.propNames().length === 0],
	"size/0": ["Integer", () => H.propNames().length],
	"keySet/0": ["Set", () => $.mkSet(H.propNames())],
	"stringPropertyNames/0": ["Set", () => $.mkSet(H.propNames().filter((k) => typeof propsGet(k) === "string"))],
	"entrySet/0": ["Set", () => $.mkSet(Array.from(props.$iter()))],
	"propertyNames/0": ["Enumeration", () => $.enumeration(H.propNames())],
	"keys/0": ["Enumeration", () => $.enumeration(H.propNames())],
	"elements/0": ["Enumeration", () => $.enumeration(H.propNames().map(propsGet))],
	"values/0": ["List", () => H.propNames().map(propsGet)],
	"toString/0": ["String", () => props.$str()],
});
def("Props", {
	"get/2": ["", (p, k, dflt) => { const v = propsGet(k); if (v !== null) return v; propsPut(k, dflt); return dflt; }],
	"getAt/1": ["", (p, k) => propsGet(k)],
	"putAt/2": ["Null", (p, k, v) => { propsPut(k, v); return null; }],
	"each/1": ["Props", (p, f) => { for (const e of Array.from(props.$iter())) { if (f.length === 2) f(e.k, e.v); else f(e); } return props; }],
	"containsKey/1": ["Boolean", (p, k) => propsGet(k) !== null],
}, "g");
$.props = props;

// ---- log, OUT ---------------------------------------------------------------
// slf4j's {} placeholders; a Throwable as the last argument is appended.
function slf(args) {
	let msg = args.length ? (args[0] === null || args[0] === undefined ? "null" : str(args[0])) : "";
	let rest = args.slice(1);
	let thrown = null;
	if (rest.length && rest[rest.length - 1] instanceof JEx) {
		const n = (msg.match(/\{\}/g) || []).length;
		if (n < rest.length) thrown = rest.pop();
	}
	if (rest.length === 1 && Array.isArray(rest[0]) && rest[0].$arr) rest = rest[0];
	let out = "", i = 0, k = 0;
	while (i < msg.length) {
		const j = msg.indexOf("{}", i);
		if (j < 0 || k >= rest.length) { out += msg.substring(i); break; }
		if (j > 0 && msg[j - 1] === "\\" && !(j > 1 && msg[j - 2] === "\\")) { out += msg.substring(i, j - 1) + "{"; i = j + 1; continue; }
		out += msg.substring(i, j) + $.javaStr(rest[k++]);
		i = j + 2;
	}
	if (thrown) out += "\n" + thrown.toString();
	return out;
}
const levels = ["info", "warn", "error", "debug", "trace"];
const logDefs = {};
for (const lv of levels) {
	logDefs[lv + "/*"] = ["Null", (l, ...args) => { H.log(lv, slf(args)); return null; }];
	logDefs["is" + lv[0].toUpperCase() + lv.substring(1) + "Enabled/0"] = ["Boolean", () => H.logEnabled(lv)];
}
logDefs["fatalError/*"] = ["Null", (l, ...args) => { H.log("error", slf(args)); return null; }];
def("Logger", logDefs);
$.log = { $t: "Logger" };

function printer(err) {
	return { $t: "Out", err: err };
}
// outWrite prints to System.out or err, or to the file of a PrintStream a
// script made (o.s, runtime_streams.js).
function outWrite(o, text) {
	if (o.s) $.streamWrite(o, text);
	else H.out(text, o.err);
}
def("Out", {
	"println/0": ["Null", (o) => { outWrite(o, "\n"); return null; }],
	"println/1": ["Null", (o, x) => { outWrite(o, printStr(x) + "\n"); return null; }],
	"print/1": ["Null", (o, x) => { outWrite(o, printStr(x)); return null; }],
	"printf/*": ["Out", (o, f, ...args) => { outWrite(o, $.format(f, args)); return o; }],
	"format/*": ["Out", (o, f, ...args) => { outWrite(o, $.format(f, args)); return o; }],
	"flush/0": ["Null", () => null],
});
function printStr(x) {
	if (Array.isArray(x) && x.$arr === "char") return x.map((c) => String.fromCharCode(c.c)).join("");
	return $.javaStr(x);
}
$.OUT = printer(false);
$.ERR = printer(true);
// println/print of Groovy scripts and BeanShell's print().
$.println = function (x) { H.out((arguments.length ? str(x) : "") + "\n", false); return null; };
$.print = function (x) { H.out(str(x), false); return null; };
$.printf = function (f, ...args) { H.out($.format(f, args), false); return null; };

// ---- ctx, sampler, sampleEvent ---------------------------------------------------
const sampler = { $t: "Sampler", $str: () => H.samplerName() };
const threadGroup = { $t: "ThreadGroup" };
def("Sampler", {
	"getName/0": ["String", () => H.samplerName()],
	"getUrl/0": ["URL", () => $.url(H.samplerURL())],
	"toString/0": ["String", () => H.samplerName()],
});
def("ThreadGroup", {
	"getName/0": ["String", () => H.groupName()],
	"getNumThreads/0": ["Integer", () => H.groupThreads()],
	"getNumberOfThreads/0": ["Integer", () => H.groupActive()],
});
const ctx = { $t: "Ctx" };
def("Ctx", {
	"getThreadNum/0": ["Integer", () => H.threadNum()],
	"getVariables/0": ["Vars", () => vars],
	"getProperties/0": ["Props", () => props],
	"getCurrentSampler/0": ["Sampler", () => sampler],
	"getPreviousResult/0": ["Result", () => $.result(0)],
	"getThreadGroup/0": ["ThreadGroup", () => threadGroup],
	"getThread/0": ["JMeterThread", () => jmeterThread],
	"isSamplingStarted/0": ["Boolean", () => true],
});
// ctx.getThread(): the thread's name and number, and stop() (the thread
// ends once the sample in progress is done, as JMeterThread.stop()).
const jmeterThread = { $t: "JMeterThread", $str: () => H.threadName() };
$.javaNames.JMeterThread = "org.apache.jmeter.threads.JMeterThread";
def("JMeterThread", {
	"getThreadName/0": ["String", () => H.threadName()],
	"getThreadNum/0": ["Integer", () => H.threadNum()],
	"stop/0": ["Null", () => { H.stopThread(); return null; }],
	"toString/0": ["String", () => H.threadName()],
});
$.ctx = ctx;
$.sampler = sampler;
def("SampleEvent", {
	"getResult/0": ["Result", (e) => e.r],
	"getThreadGroup/0": ["String", () => H.groupName()],
	"getHostname/0": ["String", () => H.hostname()],
});
$.sampleEvent = (r) => ({ $t: "SampleEvent", r: r });

// ---- SampleResult -------------------------------------------------------------
// A result is a handle to a sample the host holds: id 0 is the previous
// (or current) sample, others are sub-samples.
const results = new Map();
$.result = function (id) {
	if (id === null || id < 0) return null;
	let r = results.get(id);
	if (!r) { r = { $t: "Result", id: id, $str: function () { return H.rget(this.id, "label"); } }; results.set(id, r); }
	return r;
};
$.resetResults = () => results.clear();
const rg = (f) => (r) => H.rget(r.id, f);
const rs = (f, conv) => (r, v) => { H.rset(r.id, f, conv ? conv(v) : v); return null; };
function needString(v, m) {
	if (v === null || v === undefined) return null;
	if (typeof v === "string") return v;
	if (!bsh) return str(v);
	throw $.missing({ $t: "Result" }, m, [v]);
}
function needBool(v, m) {
	if (typeof v === "boolean") return v;
	if (!bsh && v !== null && v !== undefined) return $.truth(v);
	throw $.missing({ $t: "Result" }, m, [v]);
}
function setData(r, v, enc) {
	if (v === null || v === undefined) throw ex("NullPointerException", null);
	if (Array.isArray(v)) { H.rsetBytes(r.id, $.bytesArg(v)); return null; }
	H.rset(r.id, "body", enc === undefined ? str(v) : str(v), enc === undefined ? "" : str(enc));
	return null;
}
def("Result", {
	"getResponseDataAsString/0": ["String", rg("body")],
	"getResponseData/0": ["Array", (r) => $.mkArray("byte", H.rgetBytes(r.id))],
	"setResponseData/1": ["Null", (r, v) => setData(r, v)],
	"setResponseData/2": ["Null", (r, v, enc) => setData(r, v, enc)],
	"getResponseCode/0": ["String", rg("code")],
	"setResponseCode/1": ["Null", (r, v) => { H.rset(r.id, "code", needString(v, "setResponseCode")); return null; }],
	"setResponseCodeOK/0": ["Null", (r) => { H.rset(r.id, "code", "200"); return null; }],
	"isResponseCodeOK/0": ["Boolean", (r) => H.rget(r.id, "code") === "200"],
	"getResponseMessage/0": ["String", rg("message")],
	"setResponseMessage/1": ["Null", (r, v) => { H.rset(r.id, "message", needString(v, "setResponseMessage")); return null; }],
	"setResponseMessageOK/0": ["Null", (r) => { H.rset(r.id, "message", "OK"); return null; }],
	"setResponseMessageKO/0": ["Null", (r) => { H.rset(r.id, "message", "KO"); return null; }],
	"setResponseOK/0": ["Null", (r) => { H.rset(r.id, "code", "200"); H.rset(r.id, "message", "OK"); H.rset(r.id, "success", true); return null; }],
	"isSuccessful/0": ["Boolean", rg("success")],
	"getErrorCount/0": ["Integer", (r) => H.rget(r.id, "success") ? 0 : 1],
	"getSampleCount/0": ["Integer", () => 1],
	"setSuccessful/1": ["Null", (r, v) => { H.rset(r.id, "success", needBool(v, "setSuccessful")); return null; }],
	"getSampleLabel/0": ["String", rg("label")],
	"setSampleLabel/1": ["Null", (r, v) => { H.rset(r.id, "label", needString(v, "setSampleLabel")); return null; }],
	"getThreadName/0": ["String", rg("threadName")],
	"getTime/0": ["Long", (r) => BigInt(H.rget(r.id, "time"))],
	"getLatency/0": ["Long", (r) => BigInt(H.rget(r.id, "latency"))],
	"getConnectTime/0": ["Long", (r) => BigInt(H.rget(r.id, "connect"))],
	"getIdleTime/0": ["Long", (r) => BigInt(H.rget(r.id, "idle"))],
	"getStartTime/0": ["Long", (r) => BigInt(H.rget(r.id, "start"))],
	"getEndTime/0": ["Long", (r) => BigInt(H.rget(r.id, "end"))],
	"getTimeStamp/0": ["Long", (r) => BigInt(H.rget(r.id, "start"))],
	"getBytes/0": ["Long", (r) => BigInt(H.rget(r.id, "bytes"))],
	"getBytesAsLong/0": ["Long", (r) => BigInt(H.rget(r.id, "bytes"))],
	"setBytes/1": ["Null", (r, v) => { H.rset(r.id, "bytes", Number($.toLong(v))); return null; }],
	"getSentBytes/0": ["Long", (r) => BigInt(H.rget(r.id, "sentBytes"))],
	"setSentBytes/1": ["Null", (r, v) => { H.rset(r.id, "sentBytes", Number($.toLong(v))); return null; }],
	"getHeadersSize/0": ["Integer", rg("headersSize")],
	"getBodySize/0": ["Long", (r) => BigInt(H.rget(r.id, "bodySize"))],
	"getResponseHeaders/0": ["String", rg("responseHeaders")],
	"setResponseHeaders/1": ["Null", (r, v) => { H.rset(r.id, "responseHeaders", needString(v, "setResponseHeaders")); return null; }],
	"getRequestHeaders/0": ["String", rg("requestHeaders")],
	"setRequestHeaders/1": ["Null", (r, v) => { H.rset(r.id, "requestHeaders", needString(v, "setRequestHeaders")); return null; }],
	"getSamplerData/0": ["String", rg("samplerData")],
	"setSamplerData/1": ["Null", (r, v) => { H.rset(r.id, "samplerData", needString(v, "setSamplerData")); return null; }],
	"getUrlAsString/0": ["String", rg("url")],
	"getURL/0": ["URL", (r) => $.url(H.rget(r.id, "url"))],
	"getDataType/0": ["String", rg("dataType")],
	"setDataType/1": ["Null", (r, v) => { H.rset(r.id, "dataType", needString(v, "setDataType")); return null; }],
	"getContentType/0": ["String", rg("contentType")],
	"setContentType/1": ["Null", (r, v) => { H.rset(r.id, "contentType", needString(v, "setContentType")); return null; }],
	"getMediaType/0": ["String", (r) => { const c = H.rget(r.id, "contentType"); const i = c.indexOf(";"); return (i < 0 ? c : c.substring(0, i)).trim(); }],
	"getDataEncodingWithDefault/0": ["String", rg("encoding")],
	"getRedirectLocation/0": ["String", rg("redirect")],
	"getSubResults/0": ["Array", (r) => $.mkArray("Result", H.rsubs(r.id).map((id) => $.result(id)))],
	"getAssertionResults/0": ["Array", (r) => $.mkArray("AssertionResult", H.rasserts(r.id).map((a) => ({ $t: "AssertionResult", ro: true, name: a[0], failure: a[1], error: a[2], msg: a[3] })))],
	"getFirstAssertionFailureMessage/0": ["String", (r) => { for (const a of H.rasserts(r.id)) { if ((a[1] || a[2]) && a[3] !== null && a[3] !== "") return a[3]; } return null; }],
	"getErrorCount/0": ["Integer", (r) => H.rget(r.id, "success") ? 0 : 1],
	"getSampleCount/0": ["Integer", () => 1],
	"setIgnore/0": ["Null", (r) => { H.rset(r.id, "ignore", true); return null; }],
	"isIgnore/0": ["Boolean", rg("ignore")],
	"setStopThread/1": ["Null", (r, v) => { H.rset(r.id, "stopThread", needBool(v, "setStopThread")); return null; }],
	"setStopTest/1": ["Null", (r, v) => { H.rset(r.id, "stopTest", needBool(v, "setStopTest")); return null; }],
	"setStopTestNow/1": ["Null", (r, v) => { H.rset(r.id, "stopTestNow", needBool(v, "setStopTestNow")); return null; }],
	"setStartNextThreadLoop/1": ["Null", (r, v) => { H.rset(r.id, "nextLoop", needBool(v, "setStartNextThreadLoop")); return null; }],
	"isStopThread/0": ["Boolean", rg("stopThread")],
	"isStopTest/0": ["Boolean", rg("stopTest")],
	"sampleStart/0": ["Null", (r) => { H.rset(r.id, "sampleStart", 0); return null; }],
	"sampleEnd/0": ["Null", (r) => { H.rset(r.id, "sampleEnd", 0); return null; }],
	"setLatency/1": ["Null", (r, v) => { H.rset(r.id, "latency", Number($.toLong(v))); return null; }],
	"setConnectTime/1": ["Null", (r, v) => { H.rset(r.id, "connect", Number($.toLong(v))); return null; }],
	"latencyEnd/0": ["Null", (r) => { H.rset(r.id, "latencyEnd", 0); return null; }],
	"toString/0": ["String", rg("label")],
});

// ---- AssertionResult --------------------------------------------------------
const assertion = { $t: "AssertionResult" };
def("AssertionResult", {
	"setFailure/1": ["Null", (a, v) => { ro(a); H.aset("failure", needBool(v, "setFailure")); return null; }],
	"isFailure/0": ["Boolean", (a) => a.ro ? a.failure : H.aget("failure")],
	"setError/1": ["Null", (a, v) => { ro(a); H.aset("error", needBool(v, "setError")); return null; }],
	"isError/0": ["Boolean", (a) => a.ro ? a.error : H.aget("error")],
	"setFailureMessage/1": ["Null", (a, v) => { ro(a); H.aset("msg", v === null || v === undefined ? null : needString(v, "setFailureMessage")); return null; }],
	"getFailureMessage/0": ["String", (a) => a.ro ? a.msg : H.aget("msg")],
	"getName/0": ["String", (a) => a.ro ? a.name : H.aget("name")],
	"setResultForFailure/1": ["Null", (a, v) => { ro(a); H.aset("failure", true); H.aset("msg", str(v)); return null; }],
	"toString/0": ["String", (a) => a.ro ? a.name : H.aget("name")],
});
function ro(a) { if (a.ro) throw ex("UnsupportedOperationException", "gojm: changing a recorded assertion result"); }
$.assertion = assertion;

// ---- JMeterUtils ---------------------------------------------------------
$.defS("JMeterUtils", {
	"getProperty/1": ["String", (k) => { const v = propsGet(k); return typeof v === "string" ? v : null; }],
	"setProperty/2": ["", (k, v) => propsPut(k, v)],
	"getPropDefault/2": ["", (k, dflt) => {
		const v = propsGet(k);
		if (typeof v !== "string") return dflt;
		const s = $.javaTrim(v);
		if (typeof dflt === "number") { try { return $.strToInt(s); } catch (e) { return dflt; } }
		if (typeof dflt === "bigint") { try { return $.strToLong(s); } catch (e) { return dflt; } }
		if (typeof dflt === "boolean") return s.toLowerCase() === "true";
		if (dflt instanceof JD) { try { return $.d($.strToDouble(s)); } catch (e) { return dflt; } }
		return v;
	}],
	"getJMeterProperties/0": ["Props", () => props],
});
});
