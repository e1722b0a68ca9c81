import groovy.json.JsonOutput;
import groovy.json.JsonSlurper;
import groovy.lang.Binding;
import groovy.lang.GroovyShell;
import groovy.lang.Script;
import java.io.*;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import org.apache.jmeter.assertions.AssertionResult;
import org.apache.jmeter.config.Argument;
import org.apache.jmeter.protocol.http.control.Header;
import org.apache.jmeter.protocol.http.control.HeaderManager;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerProxy;
import org.apache.jmeter.protocol.http.control.Cookie;
import org.apache.jmeter.protocol.http.control.CookieManager;
import org.apache.jmeter.samplers.StandInSampler;
import org.apache.jmeter.protocol.http.util.HTTPArgument;
import org.apache.jmeter.samplers.*;
import org.apache.jmeter.threads.*;
import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;

/**
 * Runs every case of the script tables with Groovy and BeanShell and the
 * stand-in bindings, and writes what each one did (variables, properties,
 * value, exception, log, output, sample, assertion) as goldens.json.
 * Clock, random seeds, UUIDs and sleeps are fixed for Groovy through its
 * metaclasses; a case that still varies between two runs marks what varied.
 */
public class Record {
    /** A logger that keeps "level message" lines, SLF4J's {} formatting. */
    public static class RecLogger implements Logger {
        final List<String> lines;
        RecLogger(List<String> lines) { this.lines = lines; }
        void log(String level, String f, Object... args) {
            Throwable t = null;
            int n = 0;
            for (int i = f == null ? -1 : f.indexOf("{}"); i >= 0; i = f.indexOf("{}", i + 2)) n++;
            if (args.length > n && args.length > 0 && args[args.length - 1] instanceof Throwable) {
                t = (Throwable) args[args.length - 1];
                args = Arrays.copyOf(args, args.length - 1);
            }
            StringBuilder b = new StringBuilder();
            String s = String.valueOf(f);
            int k = 0, i = 0;
            while (i < s.length()) {
                int j = s.indexOf("{}", i);
                if (j < 0 || k >= args.length) { b.append(s.substring(i)); break; }
                b.append(s, i, j).append(String.valueOf(args[k++]));
                i = j + 2;
            }
            if (t != null) b.append("\n").append(t.toString());
            lines.add(level + " " + b);
        }
        public void info(String m) { log("info", m); }
        public void info(String f, Object a) { log("info", f, a); }
        public void info(String f, Object a, Object b) { log("info", f, a, b); }
        public void info(String f, Object... a) { log("info", f, a); }
        public void info(String m, Throwable t) { log("info", m, t); }
        public void warn(String m) { log("warn", m); }
        public void warn(String f, Object a) { log("warn", f, a); }
        public void warn(String f, Object a, Object b) { log("warn", f, a, b); }
        public void warn(String f, Object... a) { log("warn", f, a); }
        public void warn(String m, Throwable t) { log("warn", m, t); }
        public void error(String m) { log("error", m); }
        public void error(String f, Object a) { log("error", f, a); }
        public void error(String f, Object a, Object b) { log("error", f, a, b); }
        public void error(String f, Object... a) { log("error", f, a); }
        public void error(String m, Throwable t) { log("error", m, t); }
        public void debug(String m) { log("debug", m); }
        public void debug(String f, Object a) { log("debug", f, a); }
        public void debug(String f, Object a, Object b) { log("debug", f, a, b); }
        public void debug(String f, Object... a) { log("debug", f, a); }
        public void debug(String m, Throwable t) { log("debug", m, t); }
        public boolean isDebugEnabled() { return false; }
        public boolean isInfoEnabled() { return true; }
        public boolean isWarnEnabled() { return true; }
        public boolean isErrorEnabled() { return true; }
    }

    static final String STUBS =
        "import org.codehaus.groovy.runtime.*\n" +
        "System.metaClass.static.currentTimeMillis = { -> RecClock.now }\n" +
        "System.metaClass.static.nanoTime = { -> RecClock.now * 1000000L }\n" +
        "Random.metaClass.constructor = { -> RecClock.newRandom() }\n" +
        "Math.metaClass.static.random = { -> RecClock.random() }\n" +
        "UUID.metaClass.static.randomUUID = { -> RecClock.uuid() }\n" +
        "Thread.metaClass.static.sleep = { long ms -> RecClock.sleep(ms) }\n" +
        "Thread.metaClass.sleep = { long ms -> RecClock.sleep(ms) }\n" +
        "Object.metaClass.sleep = { long ms -> RecClock.sleep(ms) }\n";

    public static void main(String[] a) throws Exception {
        List<Map<String, Object>> cases = new ArrayList<>();
        for (int i = 0; i < a.length - 1; i++) {
            cases.addAll((List<Map<String, Object>>) new JsonSlurper().parse(new File(a[i]), "UTF-8"));
        }
        new GroovyShell().evaluate(STUBS);
        Map<String, Object> out = new TreeMap<>();
        for (Map<String, Object> c : cases) {
            String lang = String.valueOf(c.get("lang"));
            if (!lang.equals("groovy") && !lang.equals("beanshell") && !lang.equals("java")) continue;
            String text = (String) (c.containsKey("text") ? c.get("text") : c.get("script"));
            if (text == null || text.trim().isEmpty()) continue;
            // gojm refuses these; running them would read files or end the JVM
            if (String.valueOf(c.get("id")).contains("/refused ")) continue;
            Map<String, Object> r1 = run(c, text);
            Thread.sleep(3);
            Map<String, Object> r2 = run(c, text);
            List<String> varying = new ArrayList<>();
            diff("", r1, r2, varying);
            if (!varying.isEmpty()) r1.put("varying", varying);
            out.put((String) c.get("id"), r1);
        }
        Files.write(Paths.get(a[a.length - 1]), (JsonOutput.prettyPrint(JsonOutput.toJson(out)) + "\n").getBytes(StandardCharsets.UTF_8));
        System.err.println(out.size() + " cases recorded");
    }

    static void diff(String path, Object x, Object y, List<String> out) {
        if (x instanceof Map && y instanceof Map) {
            Set<Object> keys = new TreeSet<>(((Map<?, ?>) x).keySet());
            keys.addAll(((Map<?, ?>) y).keySet());
            for (Object k : keys) diff(path + "/" + k, ((Map<?, ?>) x).get(k), ((Map<?, ?>) y).get(k), out);
            return;
        }
        if (!Objects.equals(String.valueOf(x), String.valueOf(y))) out.add(path);
    }

    static Object fromJson(Object v) {
        if (v instanceof Map) { Map<Object, Object> m = new LinkedHashMap<>(); for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) m.put(e.getKey(), fromJson(e.getValue())); return m; }
        if (v instanceof List) { List<Object> l = new ArrayList<>(); for (Object x : (List<?>) v) l.add(fromJson(x)); return l; }
        if (v instanceof BigDecimal) return v;
        return v;
    }

    static SampleResult sample(Map<String, Object> in) {
        SampleResult r = new SampleResult();
        if (in == null) return r;
        r.label = str(in.get("label"), "");
        r.code = str(in.get("code"), "");
        r.message = str(in.get("message"), "");
        r.success = in.get("success") == null || Boolean.TRUE.equals(in.get("success"));
        r.data = str(in.get("body"), "").getBytes(StandardCharsets.UTF_8);
        r.requestHeaders = str(in.get("requestHeaders"), "");
        r.responseHeaders = str(in.get("responseHeaders"), "");
        r.samplerData = str(in.get("samplerData"), "");
        r.url = str(in.get("url"), "");
        r.redirect = (String) in.get("redirect");
        r.time = in.get("time") == null ? 0 : ((Number) in.get("time")).longValue();
        r.bytes = in.get("bytes") == null ? 0 : ((Number) in.get("bytes")).longValue();
        r.contentType = str(in.get("contentType"), "");
        int subs = in.get("subresults") == null ? 0 : ((Number) in.get("subresults")).intValue();
        for (int i = 0; i < subs; i++) { SampleResult s = new SampleResult(); s.label = r.label + "-" + i; s.code = "302"; r.subs.add(s); }
        List<?> asserts = (List<?>) in.get("assertions");
        if (asserts != null) for (Object o : asserts) {
            Map<?, ?> m = (Map<?, ?>) o;
            AssertionResult ar = new AssertionResult(str(m.get("name"), ""));
            ar.setFailure(Boolean.TRUE.equals(m.get("failure")));
            ar.setError(Boolean.TRUE.equals(m.get("error")));
            ar.setFailureMessage((String) m.get("message"));
            r.assertions.add(ar);
        }
        return r;
    }

    /** An HTTP Request about to sample, from a case's "request" input. */
    static HTTPSamplerProxy request(Map<String, Object> in) {
        if (in == null) return null;
        HTTPSamplerProxy h = new HTTPSamplerProxy();
        h.method = str(in.get("method"), "GET"); h.protocol = str(in.get("protocol"), "");
        h.domain = str(in.get("domain"), ""); h.port = str(in.get("port"), ""); h.path = str(in.get("path"), "");
        if (!Boolean.TRUE.equals(in.get("noHeaderManager"))) {
            h.headerManager = new HeaderManager();
            List<?> hs = (List<?>) in.get("headers");
            if (hs != null) for (Object o : hs) { List<?> p = (List<?>) o; h.headerManager.add(new Header((String) p.get(0), (String) p.get(1))); }
        }
        List<?> as = (List<?>) in.get("args");
        if (as != null) for (Object o : as) { List<?> p = (List<?>) o; h.arguments.addArgument(new HTTPArgument((String) p.get(0), (String) p.get(1))); }
        return h;
    }

    /** The user's Cookie Manager, from a case's "cookies" input: [name, value, domain, path, secure, expires] each; null without one. */
    static CookieManager cookies(List<?> in) {
        if (in == null) return null;
        CookieManager m = new CookieManager();
        for (Object o : in) {
            List<?> c = (List<?>) o;
            m.add(new Cookie((String) c.get(0), (String) c.get(1), (String) c.get(2), (String) c.get(3), (Boolean) c.get(4), ((Number) c.get(5)).longValue()));
        }
        return m;
    }

    /** What a script left of the request: its fields, headers and arguments. */
    static Map<String, Object> requestOut(HTTPSamplerProxy h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("method", h.method); m.put("protocol", h.protocol); m.put("domain", h.domain); m.put("port", h.port); m.put("path", h.path);
        List<String> hs = new ArrayList<>();
        if (h.headerManager != null) for (Header x : h.headerManager.list()) hs.add(x.getName() + ": " + x.getValue());
        m.put("headers", hs);
        List<String> as = new ArrayList<>();
        for (Argument a : h.arguments.list()) as.add(a.getName() + (a.getMetaData() == null ? "=" : a.getMetaData()) + a.getValue());
        m.put("args", as);
        return m;
    }

    static String str(Object o, String d) { return o == null ? d : String.valueOf(o); }

    static Map<String, Object> run(Map<String, Object> c, String text) {
        Map<String, Object> in = c.get("inputs") == null ? new HashMap<>() : (Map<String, Object>) c.get("inputs");
        String element = String.valueOf(c.get("element"));
        String name = String.valueOf(c.getOrDefault("name", element));
        JMeterVariables vars = new JMeterVariables();
        if (in.get("vars") != null) for (Map.Entry<?, ?> e : ((Map<?, ?>) in.get("vars")).entrySet()) vars.put((String) e.getKey(), (String) e.getValue());
        if (in.get("objects") != null) for (Map.Entry<?, ?> e : ((Map<?, ?>) in.get("objects")).entrySet()) vars.putObject((String) e.getKey(), fromJson(e.getValue()));
        Properties props = new Properties();
        if (in.get("props") != null) props.putAll((Map<?, ?>) in.get("props"));
        JMeterUtils.props = props;
        List<String> logs = new ArrayList<>();
        Logger log = new RecLogger(logs);
        SampleResult prev = in.containsKey("noPrev") ? null : sample((Map<String, Object>) in.get("prev"));
        if (prev != null && in.get("prev") == null) { prev.label = "prev"; prev.code = "200"; prev.message = "OK"; }
        Sampler sampler = new StandInSampler();
        HTTPSamplerProxy http = request((Map<String, Object>) in.get("request"));
        if (http != null) sampler = http;
        CookieManager cookies = cookies((List<?>) in.get("cookies"));
        if (http != null) http.cookieManager = cookies; else ((StandInSampler) sampler).cookieManager = cookies;
        JMeterContext ctx = new JMeterContext(vars, props, sampler, prev);
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream OUT = new PrintStream(buf, true);
        PrintStream saved = System.out;
        System.setOut(OUT);
        RecClock.slept = 0;
        JMeterThread.stopped = false;
        RecClock.mathRandom = null;
        String params = str(c.get("parameters"), "");
        String[] args = params.trim().isEmpty() ? new String[0] : params.trim().split(" +");
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("log", log); b.put("ctx", ctx); b.put("vars", vars); b.put("props", props); b.put("OUT", OUT);
        b.put("sampler", sampler); b.put("prev", prev); b.put("Label", name); b.put("FileName", ""); b.put("Parameters", params); b.put("args", args);
        SampleResult current = prev;
        AssertionResult assertion = null;
        boolean bsh = !String.valueOf(c.get("lang")).equals("groovy");
        switch (element) {
        case "JSR223Sampler": case "BSFSampler": case "BeanShellSampler":
            current = new SampleResult(); current.label = name; current.code = "200"; current.message = "OK"; current.success = true;
            b.put("SampleResult", current);
            if (element.equals("BeanShellSampler")) { b.put("ResponseCode", "200"); b.put("ResponseMessage", "OK"); b.put("IsSuccess", true); }
            break;
        case "JSR223Assertion": case "BeanShellAssertion": case "BSFAssertion":
            assertion = new AssertionResult(name);
            b.put("SampleResult", prev);
            if (element.equals("BeanShellAssertion")) {
                b.put("Failure", false); b.put("FailureMessage", ""); b.put("Response", prev); b.put("ResponseData", prev.getResponseData());
                b.put("ResponseCode", prev.getResponseCode()); b.put("ResponseMessage", prev.getResponseMessage());
                b.put("ResponseHeaders", prev.getResponseHeaders()); b.put("RequestHeaders", prev.getRequestHeaders());
                b.put("SampleLabel", prev.getSampleLabel()); b.put("SamplerData", prev.getSamplerData()); b.put("Successful", prev.isSuccessful());
            } else b.put("AssertionResult", assertion);
            break;
        case "JSR223Listener": case "BeanShellListener":
            b.put("sampleEvent", new SampleEvent(prev)); b.put("sampleResult", prev);
            break;
        case "__groovy": case "__BeanShell":
            b.put("threadName", "Thread Group 1-1");
            break;
        case "BeanShellPostProcessor":
            b.put("data", prev == null ? null : prev.getResponseData());
            break;
        }
        Map<String, Object> res = new LinkedHashMap<>();
        Object value = null;
        try {
            if (bsh) {
                bsh.Interpreter it = new bsh.Interpreter();
                for (Map.Entry<String, Object> e : b.entrySet()) it.set(e.getKey(), e.getValue());
                it.set("bsh.args", args);
                value = it.eval(text);
                for (String g : new String[]{"IsSuccess", "ResponseCode", "ResponseMessage", "Failure", "FailureMessage"}) {
                    if (b.containsKey(g)) {
                        Object v = it.get(g);
                        if (!res.containsKey("globals")) res.put("globals", new TreeMap<>());
                        ((Map<String, Object>) res.get("globals")).put(g, v == null ? null : String.valueOf(v));
                    }
                }
            } else {
                Binding binding = new Binding(new LinkedHashMap<>(b));
                Script s = new GroovyShell(binding).parse(text, "Script1");
                value = s.run();
            }
        } catch (bsh.TargetError e) {
            Throwable t = e.getTarget();
            res.put("error", err(t.getClass().getName(), t.getMessage()));
        } catch (bsh.EvalError e) {
            res.put("error", err(e instanceof bsh.ParseException ? "bsh.ParseException" : "bsh.EvalError", e.getMessage()));
        } catch (Throwable t) {
            res.put("error", err(t.getClass().getName(), t.getMessage()));
        } finally {
            System.setOut(saved);
        }
        res.put("value", value == null ? null : value instanceof Object[] ? Arrays.toString((Object[]) value) : String.valueOf(value));
        Map<String, String> vs = new TreeMap<>();
        for (Map.Entry<String, Object> e : vars.asMap().entrySet()) vs.put(e.getKey(), String.valueOf(e.getValue()));
        res.put("vars", vs);
        Map<String, String> ps = new TreeMap<>();
        for (String k : props.stringPropertyNames()) ps.put(k, props.getProperty(k));
        for (Map.Entry<Object, Object> e : props.entrySet()) ps.put(String.valueOf(e.getKey()), String.valueOf(e.getValue()));
        res.put("props", ps);
        res.put("log", logs);
        res.put("out", new String(buf.toByteArray(), StandardCharsets.UTF_8));
        if (current != null) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("label", current.label); s.put("code", current.code); s.put("message", current.message);
            s.put("success", current.success); s.put("body", current.getResponseDataAsString());
            s.put("bytes", current.bytes); s.put("ignore", current.ignore);
            res.put("sample", s);
        }
        if (assertion != null) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("failure", assertion.isFailure()); s.put("error", assertion.isError()); s.put("message", assertion.getFailureMessage());
            res.put("assertion", s);
        }
        if (http != null) res.put("request", requestOut(http));
        if (cookies != null) { List<String> cs = new ArrayList<>(); for (Cookie x : cookies.list()) cs.add(x.toString()); res.put("cookies", cs); }
        if (JMeterThread.stopped) res.put("stopped", true);
        res.put("slept", RecClock.slept);
        return res;
    }

    static Map<String, Object> err(String cls, String msg) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("class", cls);
        m.put("message", msg);
        return m;
    }
}
