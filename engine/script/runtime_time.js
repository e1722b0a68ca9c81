// java.time basics: LocalDate, LocalDateTime, Instant, Duration and
// DateTimeFormatter.ofPattern. A local date or date-time is its wall time
// as milliseconds since the epoch read in UTC (no zone), so that
// SimpleDateFormat's and Calendar's helpers (J.dateFormat, J.calAdd) format
// and move it; now() reads the system's zone, as the JVM's default.
$mk.exts.push(function ($, J, H, bsh) {
"use strict";
const ex = $.ex, str = $.str, def = $.def, defS = $.defS;
const N = $.N;
Object.assign($.javaNames, {
	LocalDate: "java.time.LocalDate", LocalDateTime: "java.time.LocalDateTime", Instant: "java.time.Instant",
	Duration: "java.time.Duration", DateTimeFormatter: "java.time.format.DateTimeFormatter",
});
const DAY = 86400000;
const pad = (n, w) => String(n).padStart(w, "0");
const fields = (ms) => { const d = new Date(ms); return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()]; };
function check(v, lo, hi, name) {
	if (v < lo || v > hi) throw ex("java.time.DateTimeException", "Invalid value for " + name + " (valid values " + lo + " - " + hi + "): " + v);
	return v;
}
function wall(y, mo, d, h, mi, s) {
	y = $.toInt(y); mo = check($.toInt(mo), 1, 12, "MonthOfYear"); d = check($.toInt(d), 1, 31, "DayOfMonth");
	h = check($.toInt(h || 0), 0, 23, "HourOfDay"); mi = check($.toInt(mi || 0), 0, 59, "MinuteOfHour"); s = check($.toInt(s || 0), 0, 59, "SecondOfMinute");
	const ms = Date.UTC(y, mo - 1, d, h, mi, s);
	if (new Date(ms).getUTCDate() !== d) throw ex("java.time.DateTimeException", "Invalid date '" + ["", "JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY", "JUNE", "JULY", "AUGUST", "SEPTEMBER", "OCTOBER", "NOVEMBER", "DECEMBER"][mo] + " " + d + "'");
	return ms;
}
const localNow = () => { const now = H.now(); return now + J.zoneOffset(now, ""); };
function dateStr(ms) { const f = fields(ms); return pad(f[0], 4) + "-" + pad(f[1], 2) + "-" + pad(f[2], 2); }
function timeStr(ms, always) {
	const f = fields(ms);
	let s = pad(f[3], 2) + ":" + pad(f[4], 2);
	if (always || f[5] || f[6]) s += ":" + pad(f[5], 2);
	if (f[6]) s += "." + pad(f[6], 3);
	return s;
}
const ld = (ms) => ({ $t: "LocalDate", ms: Math.floor(ms / DAY) * DAY, $str: function () { return dateStr(this.ms); }, $eq: function (o) { return o && o.$t === this.$t && o.ms === this.ms; } });
const ldt = (ms) => ({ $t: "LocalDateTime", ms: ms, $str: function () { return dateStr(this.ms) + "T" + timeStr(this.ms, false); }, $eq: function (o) { return o && o.$t === this.$t && o.ms === this.ms; } });
const inst = (ms) => ({ $t: "Instant", ms: ms, $str: function () { return dateStr(this.ms) + "T" + timeStr(this.ms, true) + "Z"; }, $eq: function (o) { return o && o.$t === this.$t && o.ms === this.ms; } });
function durStr(ms) {
	if (ms === 0n) return "PT0S";
	const neg = ms < 0n, a = neg ? -ms : ms, sgn = neg ? "-" : "";
	const h = a / 3600000n, m = (a / 60000n) % 60n, s = (a / 1000n) % 60n, f = a % 1000n;
	let out = "PT";
	if (h) out += sgn + h + "H";
	if (m) out += sgn + m + "M";
	if (s || f) out += sgn + s + (f ? "." + String(f).padStart(3, "0").replace(/0+$/, "") : "") + "S";
	return out;
}
const dur = (ms) => ({ $t: "Duration", ms: ms, $str: function () { return durStr(this.ms); }, $eq: function (o) { return o && o.$t === "Duration" && o.ms === this.ms; } });
function parseISO(s, time) {
	s = str(s);
	const m = time ? /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/.exec(s) : /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
	if (!m) throw ex("java.time.format.DateTimeParseException", "Text '" + s + "' could not be parsed at index 0");
	const ms = wall(+m[1], +m[2], +m[3], +(m[4] || 0), +(m[5] || 0), +(m[6] || 0));
	return ms + (m[7] ? Math.floor(+(m[7] + "00").substring(0, 3)) : 0);
}
function fmtOf(f) {
	if (f === null || f === undefined) throw ex("NullPointerException", "formatter");
	if (f.$t !== "DateTimeFormatter") throw $.missing({ $t: "LocalDate" }, "format", [f]);
	return f;
}
const months = (ms, n) => J.calAdd(ms, "UTC", 2, $.toInt(n));
const years = (ms, n) => J.calAdd(ms, "UTC", 1, $.toInt(n));
const plus = (unit) => (t, n) => ({ LocalDate: ld, LocalDateTime: ldt })[t.$t](t.ms + Number($.toLong(n)) * unit);
const minus = (unit) => (t, n) => ({ LocalDate: ld, LocalDateTime: ldt })[t.$t](t.ms - Number($.toLong(n)) * unit);
const common = {
	"plusDays/1": ["", plus(DAY)], "minusDays/1": ["", minus(DAY)],
	"plusWeeks/1": ["", plus(7 * DAY)], "minusWeeks/1": ["", minus(7 * DAY)],
	"plusMonths/1": ["", (t, n) => ({ LocalDate: ld, LocalDateTime: ldt })[t.$t](months(t.ms, n))],
	"minusMonths/1": ["", (t, n) => ({ LocalDate: ld, LocalDateTime: ldt })[t.$t](months(t.ms, -$.toInt(n)))],
	"plusYears/1": ["", (t, n) => ({ LocalDate: ld, LocalDateTime: ldt })[t.$t](years(t.ms, n))],
	"minusYears/1": ["", (t, n) => ({ LocalDate: ld, LocalDateTime: ldt })[t.$t](years(t.ms, -$.toInt(n)))],
	"getYear/0": ["Integer", (t) => fields(t.ms)[0]],
	"getMonthValue/0": ["Integer", (t) => fields(t.ms)[1]],
	"getDayOfMonth/0": ["Integer", (t) => fields(t.ms)[2]],
	"getDayOfYear/0": ["Integer", (t) => Math.floor((t.ms - Date.UTC(fields(t.ms)[0], 0, 1)) / DAY) + 1],
	"format/1": ["String", (t, f) => J.dateFormat(fmtOf(f).p, t.ms, "UTC")],
	"isBefore/1": ["Boolean", (t, o) => t.ms < o.ms],
	"isAfter/1": ["Boolean", (t, o) => t.ms > o.ms],
	"isEqual/1": ["Boolean", (t, o) => t.ms === o.ms],
	"equals/1": ["Boolean", (t, o) => t.$eq(o)],
	"compareTo/1": ["Integer", (t, o) => Math.sign(t.ms - o.ms)],
	"toString/0": ["String", (t) => t.$str()],
};
def("LocalDate", Object.assign({}, common, {
	"atStartOfDay/0": ["LocalDateTime", (t) => ldt(t.ms)],
	"toEpochDay/0": ["Long", (t) => BigInt(Math.floor(t.ms / DAY))],
	"lengthOfMonth/0": ["Integer", (t) => { const f = fields(t.ms); return new Date(Date.UTC(f[0], f[1], 0)).getUTCDate(); }],
}));
def("LocalDateTime", Object.assign({}, common, {
	"plusHours/1": ["LocalDateTime", plus(3600000)], "minusHours/1": ["LocalDateTime", minus(3600000)],
	"plusMinutes/1": ["LocalDateTime", plus(60000)], "minusMinutes/1": ["LocalDateTime", minus(60000)],
	"plusSeconds/1": ["LocalDateTime", plus(1000)], "minusSeconds/1": ["LocalDateTime", minus(1000)],
	"getHour/0": ["Integer", (t) => fields(t.ms)[3]],
	"getMinute/0": ["Integer", (t) => fields(t.ms)[4]],
	"getSecond/0": ["Integer", (t) => fields(t.ms)[5]],
	"toLocalDate/0": ["LocalDate", (t) => ld(t.ms)],
}));
defS("LocalDate", {
	"now/0": ["LocalDate", () => ld(localNow())],
	"of/3": ["LocalDate", (y, m, d) => ld(wall(y, m, d))],
	"parse/1": ["LocalDate", (s) => ld(parseISO(s, false))],
	"parse/2": ["LocalDate", (s, f) => ld(J.dateParse(fmtOf(f).p, str(s), "UTC"))],
	"ofEpochDay/1": ["LocalDate", (n) => ld(Number($.toLong(n)) * DAY)],
});
defS("LocalDateTime", {
	"now/0": ["LocalDateTime", () => ldt(localNow())],
	"of/5": ["LocalDateTime", (y, m, d, h, mi) => ldt(wall(y, m, d, h, mi))],
	"of/6": ["LocalDateTime", (y, m, d, h, mi, s) => ldt(wall(y, m, d, h, mi, s))],
	"parse/1": ["LocalDateTime", (s) => ldt(parseISO(s, true))],
	"parse/2": ["LocalDateTime", (s, f) => ldt(J.dateParse(fmtOf(f).p, str(s), "UTC"))],
});
defS("Instant", {
	"now/0": ["Instant", () => inst(H.now())],
	"ofEpochMilli/1": ["Instant", (n) => inst(Number($.toLong(n)))],
	"ofEpochSecond/1": ["Instant", (n) => inst(Number($.toLong(n)) * 1000)],
});
def("Instant", {
	"toEpochMilli/0": ["Long", (t) => BigInt(t.ms)],
	"getEpochSecond/0": ["Long", (t) => BigInt(Math.floor(t.ms / 1000))],
	"plusMillis/1": ["Instant", (t, n) => inst(t.ms + Number($.toLong(n)))],
	"plusSeconds/1": ["Instant", (t, n) => inst(t.ms + Number($.toLong(n)) * 1000)],
	"minusMillis/1": ["Instant", (t, n) => inst(t.ms - Number($.toLong(n)))],
	"minusSeconds/1": ["Instant", (t, n) => inst(t.ms - Number($.toLong(n)) * 1000)],
	"isBefore/1": ["Boolean", (t, o) => t.ms < o.ms],
	"isAfter/1": ["Boolean", (t, o) => t.ms > o.ms],
	"equals/1": ["Boolean", (t, o) => t.$eq(o)],
	"toString/0": ["String", (t) => t.$str()],
});
const durOf = (unit) => (n) => dur($.toLong(n) * unit);
defS("Duration", {
	"ofMillis/1": ["Duration", durOf(1n)], "ofSeconds/1": ["Duration", durOf(1000n)], "ofMinutes/1": ["Duration", durOf(60000n)],
	"ofHours/1": ["Duration", durOf(3600000n)], "ofDays/1": ["Duration", durOf(86400000n)],
	"between/2": ["Duration", (a, b) => dur(BigInt(b.ms - a.ms))],
});
def("Duration", {
	"toMillis/0": ["Long", (d) => d.ms],
	"getSeconds/0": ["Long", (d) => d.ms >= 0n || d.ms % 1000n === 0n ? d.ms / 1000n : d.ms / 1000n - 1n],
	"toSeconds/0": ["Long", (d) => d.ms >= 0n || d.ms % 1000n === 0n ? d.ms / 1000n : d.ms / 1000n - 1n],
	"toMinutes/0": ["Long", (d) => d.ms / 60000n],
	"toHours/0": ["Long", (d) => d.ms / 3600000n],
	"toDays/0": ["Long", (d) => d.ms / 86400000n],
	"plus/1": ["Duration", (d, o) => dur(d.ms + o.ms)],
	"minus/1": ["Duration", (d, o) => dur(d.ms - o.ms)],
	"isNegative/0": ["Boolean", (d) => d.ms < 0n],
	"isZero/0": ["Boolean", (d) => d.ms === 0n],
	"equals/1": ["Boolean", (d, o) => d.$eq(o)],
	"toString/0": ["String", (d) => d.$str()],
});
defS("DateTimeFormatter", {
	"ofPattern/1": ["DateTimeFormatter", (p) => { p = str(p); J.dateFormat(p, 0, "UTC"); return { $t: "DateTimeFormatter", p: p, $str: function () { return this.p; } }; }],
});
def("DateTimeFormatter", {
	"format/1": ["String", (f, t) => {
		if (t === null || t === undefined) throw ex("NullPointerException", "temporal");
		if (t.$t !== "LocalDate" && t.$t !== "LocalDateTime") throw ex("java.time.temporal.UnsupportedTemporalTypeException", "gojm formats LocalDate and LocalDateTime only");
		return J.dateFormat(f.p, t.ms, "UTC");
	}],
});
});
