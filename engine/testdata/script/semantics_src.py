# Generates semantics.json: one case per construct, for record.sh and the
# Go tests. Edit here, then: python3 semantics_src.py && ./record.sh
import json
G, B = "groovy", "beanshell"
cases = []
def case(name, lang, script, element=None, **inputs):
    if element is None:
        element = "JSR223Sampler" if lang == G else "BeanShellSampler"
    c = {"id": "sem/%s/%s" % ("groovy" if lang == G else "bsh", name), "name": name, "element": element, "lang": lang, "script": script}
    if inputs:
        c["inputs"] = inputs
    cases.append(c)

# ---- Groovy: declarations, numbers, strings ----
case("declarations", G, 'def a = 1; int b = 2; String s = "x"; long l = 3L; double d = 1.5d; boolean f = true\n"" + a + b + s + l + d + f')
case("division", G, '[7/2, 1/3, 10/4, 6/3, 100/132, 2/3, 7.intdiv(2), -7 % 3, 7 % 3, 2**10, 2**0.5]')
case("decimals", G, 'def a = 0.1 + 0.2; def b = 1.1 * 3; def c = 1.50 + 1; def d = 2.0 - 0.5; [a, b, c, d, a.class.simpleName == null]'.replace(', a.class.simpleName == null', ''))
case("double literals", G, '[1.5d + 1, 3.0d, 1e7d, 1.0E-5d, 12345678.9d, 0.1d + 0.2d, 100.0d / 3, Double.parseDouble("2.50")]')
case("int overflow", G, 'int x = Integer.MAX_VALUE; [x + 1, Integer.MIN_VALUE - 1, 65536 * 65536, 3000000000L * 4]')
case("long arithmetic", G, 'long t = System.currentTimeMillis(); def start = t - 86400000; [t, start, t - start, (t / 1000) as long]')
case("conversions", G, '["5" as int, "5".toInteger(), Integer.parseInt("42"), Integer.valueOf("7"), Long.parseLong("9000000000"), (int) 3.9d, 3.7 as int, "1.50".toBigDecimal(), 5.toString(), String.valueOf(5), "12" as Long, "2.5" as double, 42 as String, "x" as String]')
case("typed coercion", G, 'int i = "7"; String s = 5; boolean b = "false"; boolean e = ""; double d = 3; long l = 4\n[i, s, b, e, d, l]')
case("cast error", G, 'int i = "77"')
case("number format error", G, 'Integer.parseInt("12a")')
case("gstrings", G, 'def n = "w"; def m = [k: 1, j: [z: 2]]; def l = [1, 2]\n"hi ${n} $n ${m.k} $m.j.z ${1 + 2} ${l[1]} \\${x} ${null}"')
case("gstring dollar error", G, 'def x = "cost $ 5"')
case("triple and slashy strings", G, "def a = '''one\n'two' \"three\"'''\ndef b = /\\d+\\/x/\ndef c = \"\"\"x ${a.size()}\ny\"\"\"\n[a, b, c]")
case("string methods", G, 'def s = " Hello, World "\n[s.trim(), s.toUpperCase(), s.toLowerCase(), s.length(), s.indexOf("o"), s.lastIndexOf("o"), s.contains("World"), s.startsWith(" H"), s.endsWith(" "), s.substring(1, 6), s.substring(8), s.charAt(1), s.replace("l", "L"), s.isEmpty(), "".isEmpty(), s.equalsIgnoreCase(" hello, world "), s.trim().split(", "), s.matches(".*World.*"), s.concat("!"), s.compareTo(" Hello"), "abc".hashCode()]')
case("groovy string methods", G, 'def s = "abcdef"\n[s.take(3), s.drop(2), s.reverse(), s.capitalize(), s.padLeft(8, "*"), s.padRight(8), s.center(10, "-"), s.count("c"), s[0], s[-1], s[1..3], s[-3..-1], s[3..1], s * 2, s - "cd", "a b  c".tokenize(), "a,b;c".tokenize(",;"), "12".isNumber(), "1x".isInteger(), "12".isInteger(), s.size(), s.toList(), s.find(/c./), "a1b22c333".findAll(/\\d+/)]')
case("regex replace and split", G, 's = "-----123--456--------------------789---"\n[s.replaceAll("-+", "-"), s.replaceAll("(\\\\d)(\\\\d)", \'$2$1\'), s.replaceFirst("\\\\d+", "N"), s.split("-+"), s.split("-+").length, s.split("-", 3), "a1b2".split("\\\\d"), "a,b,,".split(","), ",a".split(","), "".split(","), "x".replaceAll("x", \'\\\\$\')]')
case("regex operators", G, 'def s = "order-1234"\ndef r = []\nif (s ==~ /order-\\d+/) r << "full"\nif (s =~ /\\d{3}/) r << "found"\nif (!(s =~ /zzz/)) r << "none"\nr << ("abc" ==~ "a.c")\nr')
case("string format", G, '[String.format("%d|%5d|%-5d|%05d|%,d|%x|%X|%o", 42, 42, 42, 42, 1234567, 255, 255, 8), String.format("%.2f|%8.3f|%-8.1f|%e|%.0f|%f", 3.14159d, 2.5d, 1.25d, 12345.678d, 2.5d, 1.0d/3), String.format("%s|%S|%10s|%-10s|%.2s|%b|%c|%%|%n", "abc", "abc", "r", "l", "trunc", null, 65 as char), String.format("%s and %s", 1.5, 10L), String.format("%1$s %1$s %2$s", "a", "b"), String.format("%.2f", 1.005), String.format("%.1f", 0.25d), String.format("%.3f", 2.0005d)]')
case("format error", G, 'String.format("%d", "x")')
case("math", G, '[Math.max(3, 7), Math.min(2.5d, 1), Math.abs(-4), Math.round(2.5d), Math.round(-2.5d), Math.floor(2.7d), Math.ceil(2.1d), Math.sqrt(16), Math.pow(2, 8), Math.PI, Math.abs(-1.5), Math.max(1L, 2)]')
case("random seeded", G, 'def r = new Random(7)\n[r.nextInt(50), r.nextInt(), r.nextLong(), r.nextDouble(), r.nextBoolean(), r.nextGaussian(), r.nextGaussian(), r.nextInt(1024), r.nextInt(1 << 20)]')
case("random unseeded", G, 'def r = new Random()\ndef l = (1..10).toList()\nCollections.shuffle(l, new Random(3))\n[r.nextInt(100), new Random().nextInt(100), l, Math.random() < 1]')
case("uuid", G, '[UUID.randomUUID().toString(), UUID.randomUUID().toString().length(), UUID.fromString("3F2D6A4E-8C1B-4D2A-9E57-0B6C1F2A7D94").toString()]')
case("time and sleep", G, 'def t0 = System.currentTimeMillis()\nThread.sleep(250)\nsleep(100)\n"" + t0')

# ---- Groovy: collections and closures ----
case("lists", G, 'def l = [3, 1, 2]\nl << 5\nl.add(4)\nl.add(0, 9)\ndef m = l + [7] - [1]\n[l, m, l.size(), l[0], l[-1], l[1..2], l.get(2), l.indexOf(2), l.contains(5), l.isEmpty(), [].isEmpty(), l.sum(), l.max(), l.min(), l.first(), l.last(), l.join("-"), l.reverse(), l.sort(false), l, l.unique(false), l.take(2), l.drop(4), l.remove(0), l.remove((Object) 5), l]')
case("list sort mutates", G, 'def l = [3, 1, 2]\ndef s = l.sort()\n[s, l, s.is(l), [[2, "b"], [1, "a"]].sort { it[0] }, ["bb", "a", "ccc"].sort { a, b -> a.size() <=> b.size() }]')
case("closures", G, 'def l = [1, 2, 3, 4]\n[l.collect { it * 2 }, l.findAll { it % 2 == 0 }, l.find { it > 2 }, l.find { it > 9 }, l.any { it > 3 }, l.every { it > 0 }, l.inject(0) { a, b -> a + b }, l.count { it > 1 }, l.groupBy { it % 2 }, l.collectEntries { [(it): it * it] }, l.withIndex().collect { v, i -> v * i }, l.sum { it * 10 }, l.max { -it }, (1..3).collect { it }, 3.times { }, l.eachWithIndex { v, i -> }, l.each { }]')
case("closure values", G, 'def twice = { x -> x * 2 }\ndef add = { a, b = 10 -> a + b }\ndef noArg = { -> "n" }\nint count = 0\n[1, 2].each { count += it }\n[twice(3), twice.call(4), add(1), add(1, 2), noArg(), count, [1, 2].collect(twice), { it }.call(5)]')
case("maps", G, 'def m = [b: 1, a: "x", "c d": [1, 2]]\nm.e = 5\nm["f"] = null\nm.put("g", 7)\ndef keys = []\nm.each { k, v -> keys << k }\ndef ents = []\nm.each { e -> ents << e.key + "=" + e.value }\ndef r = [m.toString(), m.b, m["c d"], m.get("a"), m.nope, m.size(), m.keySet().toString(), m.values().toString(), m.containsKey("f"), m.containsValue(7), keys, ents, m.collect { k, v -> k }, m.findAll { k, v -> v instanceof Integer }, m.find { it.value == 7 }.key, m.remove("g"), m.toString(), [:], [:].size(), m.getOrDefault("zz", 3), m.get("zz", 4), m.zz]\nr')
case("hashmap order", G, 'def h = new HashMap()\n["zeta", "alpha", "beta", "gamma", "delta", "epsilon", "x1", "x2"].eachWithIndex { k, i -> h.put(k, i) }\nh.put(10, "ten")\nh.put(3, "three")\n[h.toString(), h.keySet().toList(), new LinkedHashMap(h).toString()]')
case("ranges", G, '[(1..5).sum(), (5..1).collect { it }, (0..<3).toList(), (1..10).step(3) == null, (1..4).size(), (1..4).contains(3), 2 in (1..3), (100..999).toList().get(630)]'.replace(", (1..10).step(3) == null", ""))
case("spread and safe navigation", G, 'def l = ["a", "bb", null]\ndef m = null\n[l*.size(), l*.toUpperCase(), m?.foo, m?.size(), l[2]?.size(), [[a: 1], [a: 2]]*.a]')
case("equality", G, '[1 == 1.0, 1 == 1L, 1L.equals(1), 1.equals(1), "a" == "a", "a" == \'a\', [1, 2] == [1, 2], [a: 1] == [a: 1], null == null, null == 0, "5" == 5, 1.0 == 1.00, 1.0.equals(1.00), \'a\'.charAt(0) == "a", 3 <=> 5, "b" <=> "a", 2 in [1, 2], "x" in ["y"]]')
case("groovy truth", G, 'def r = []\nfor (v in ["", "x", 0, 1, [], [0], [:], null, 0.0, "false", 0L]) { r << (v ? "T" : "F") }\n[r.join(), "" ?: "dflt", "v" ?: "dflt", null ?: 0, !"", !null]')
case("control flow", G, 'def out = []\nfor (int i = 0; i < 5; i++) { if (i == 1) continue; if (i == 4) break; out << i }\nfor (x in [10, 20]) out << x\nfor (i in 0..<2) out << "r" + i\nint w = 3\nwhile (w > 0) { out << w; w-- }\ndef v = 7\nif (v < 5) out << "small" else if (v < 10) out << "medium" else out << "large"\nout')
case("switch", G, 'def f = { x ->\n  def r = ""\n  switch (x) {\n    case "a": r += "A"\n    case "b": r += "B"; break\n    case 1: r = "one"; break\n    case [2, 3]: r = "two-three"; break\n    case 4..6: r = "range"; break\n    case ~/z.*/: r = "z"; break\n    default: r = "other"\n  }\n  r\n}\n["a", "b", 1, 3, 5, "zoo", 9].collect(f)'.replace("    case ~/z.*/: r = \"z\"; break\n", "    case \"zoo\": r = \"z\"; break\n"))
case("try catch finally", G, 'def out = []\ntry { Integer.parseInt("x") } catch (NumberFormatException e) { out << "nfe:" + e.message } finally { out << "finally" }\ntry { throw new IllegalStateException("bad") } catch (IllegalArgumentException | IllegalStateException e) { out << e.getClass() == null ? "" : e.toString() }\ntry { def n = null; n.size() } catch (Exception e) { out << (e instanceof NullPointerException) }\ntry { def m = [:]; m.nope.x } catch (e) { out << e.message }\nout'.replace("out << e.getClass() == null ? \"\" : e.toString()", "out << e.toString()"))
case("uncaught exception", G, 'throw new RuntimeException("boom")')
case("missing property", G, 'vars.put("a", "b")\nundefinedName.length()')
case("methods", G, 'def add(a, b) { a + b }\nint twice(int x) { return x * 2 }\ndef greet(String n = "you") { "hi " + n }\n[add(1, 2), add("a", "b"), twice(21), greet(), greet("me")]')
case("binding variables", G, 'x = 5\ny = x + 1\ndef f = { -> x * 10 }\n[x, y, f()]')
case("string builder", G, 'def sb = new StringBuilder()\nsb.append("a").append(1).append(2.5d).append(\'c\').append(null).append(true)\nsb << "x"\nsb.insert(0, "[")\n[sb.toString(), sb.length(), sb.reverse().toString(), new StringBuilder("ab").deleteCharAt(0).toString()]')
case("json", G, 'import groovy.json.*\ndef o = new JsonSlurper().parseText(\'{"a": [1, 2.50, "x", true, null], "b": {"c": 12345678901, "d": -1.5e3}, "e": "\\\\u00e9\\\\n"}\')\n[o.a, o.a[1], o.b.c, o.b.d, o.e, o.a.size(), o.keySet(), JsonOutput.toJson(o), JsonOutput.toJson([x: 1, y: [true, null, "q\\"", 1.5d, 2L], z: "é/"]), JsonOutput.prettyPrint(\'{"a":1,"b":[1,2],"c":{}}\')]')
case("json error", G, 'new groovy.json.JsonSlurper().parseText("{bad")')
case("jsonslurper fields", G, 'def r = new groovy.json.JsonSlurper().parseText(prev.getResponseDataAsString())\nvars.put("token", r.data.token)\nvars.put("count", r.data.items.size().toString())\nvars.put("first", r.data.items[0].name)\nr.data.items.collect { it.id }.sum()', element="JSR223PostProcessor",
     prev={"label": "login", "code": "200", "message": "OK", "body": '{"data": {"token": "abc123", "items": [{"id": 1, "name": "one"}, {"id": 2, "name": "two"}]}}'})
case("base64 and url encoding", G, 'def b = "user:pass".bytes.encodeBase64().toString()\n[b, new String(b.decodeBase64()), URLEncoder.encode("a b&c=d/é", "UTF-8"), URLDecoder.decode("a+b%26c", "UTF-8"), Base64.getEncoder().encodeToString("hi".getBytes("UTF-8")), new String(Base64.getDecoder().decode("aGk="), "UTF-8")]')
case("thread local random", G, 'import java.util.concurrent.ThreadLocalRandom\nint kmin = vars.get("min") as int\ndef key = ThreadLocalRandom.current().nextInt(kmin, kmin + 5)\nvars.put("inRange", (key >= kmin && key < kmin + 5).toString())\nThreadLocalRandom.current().nextInt(1)', element="JSR223PreProcessor", vars={"min": "10"})
case("commons-codec base64 groovy", G, 'org.apache.commons.codec.binary.Base64.encodeBase64String("user:pass".bytes) + "/" + new String(org.apache.commons.codec.binary.Base64.decodeBase64("dXNlcjpwYXNz"))')
case("dates groovy", G, 'def d = new Date(1700000000000L)\nvars.put("y", d.format("yyyy"))\nvars.put("utc", d.format("HH:mm EEE MMM", TimeZone.getTimeZone("UTC")))\ntry { new java.text.SimpleDateFormat("yyyy-MM-dd").parse("soon") } catch (java.text.ParseException e) { vars.put("err", e.getMessage()) }\nnew java.text.SimpleDateFormat("yyyyMMdd").format(d)', element="JSR223PreProcessor")
case("message digest", G, 'import java.security.MessageDigest\ndef md = MessageDigest.getInstance("SHA-256")\nmd.update("abc".getBytes("UTF-8"))\nvars.put("sha", md.digest().encodeHex().toString())\nvars.put("md5", org.apache.commons.codec.digest.DigestUtils.md5Hex("abc"))\nvars.put("sha1", org.apache.commons.codec.digest.DigestUtils.sha1Hex("abc".getBytes("UTF-8")))\nMessageDigest.getInstance("MD5").digest("x".getBytes("UTF-8")).length', element="JSR223PreProcessor")
case("message digest unknown", G, 'java.security.MessageDigest.getInstance("SHA-999")')
case("system utils", G, 'import org.apache.commons.lang3.SystemUtils\n"" + SystemUtils.IS_OS_LINUX + SystemUtils.IS_OS_WINDOWS + SystemUtils.IS_OS_MAC + SystemUtils.IS_OS_UNIX')
case("calendar groovy", G, 'def c = Calendar.getInstance(TimeZone.getTimeZone("Asia/Kolkata"))\nc.setTime(new Date(1700000000000L))\nc.add(Calendar.YEAR, 1)\nc.add(Calendar.DAY_OF_MONTH, 20)\ndef f = new java.text.SimpleDateFormat("yyyy-MM-dd HH:mm")\nf.setTimeZone(TimeZone.getTimeZone("Asia/Kolkata"))\nf.format(c.getTime()) + " " + c.get(Calendar.DAY_OF_YEAR)', element="JSR223PreProcessor")
case("assert passes", G, 'def x = 5\nassert x == 5\nassert [1, 2].size() == 2 : "size"\n"ok"', element="JSR223Assertion")
case("power assert", G, 'def body = prev.getResponseDataAsString()\nassert body.contains("welcome") && prev.getResponseCode() == "200"', element="JSR223Assertion",
     prev={"label": "home", "code": "404", "message": "Not Found", "body": "not here"})
case("assert message", G, 'def code = prev.getResponseCode()\nassert code == "200" : "bad code " + code', element="JSR223Assertion",
     prev={"label": "home", "code": "500", "message": "Error", "body": ""})

# ---- Groovy: JMeter bindings ----
case("vars api", G, 'vars.put("a", "1")\nvars.putObject("o", [1, 2])\ndef l = vars.getObject("o")\nl << 3\nvars.put("n", null)\n[vars.get("a"), vars["a"], vars.a, vars.get("nope"), vars.getObject("o"), vars.remove("a"), vars.get("a"), vars.getIteration(), vars.get("in")]', element="JSR223PreProcessor", vars={"in": "given", "n": "x"})
case("vars put non-string", G, 'vars.put("n", 5)', element="JSR223PreProcessor")
case("vars put gstring", G, 'def i = 3\nvars.put("g", "item-${i}")\nvars.put("c", \'x\'.charAt(0) as String)', element="JSR223PreProcessor")
case("vars get object as string", G, 'vars.putObject("m", [a: 1])\nvars.get("m")', element="JSR223PreProcessor")
case("props api", G, 'props.put("p1", "v1")\nprops.setProperty("p2", "v2")\nprops["p3"] = "v3"\nprops.put("num", 5)\n[props.get("p1"), props.getProperty("p2"), props.p3, props.get("num"), props.getProperty("num"), props.getProperty("nope", "d"), props.get("nope"), props.get("given")]', element="JSR223PreProcessor", props={"given": "yes"})
case("props put null", G, 'props.put("x", vars.get("missing"))', element="JSR223PreProcessor")
case("log and out", G, 'log.info("plain")\nlog.info("one {} two {}", 1, "b")\nlog.warn("warned {}", [1, 2])\nlog.error("err", new RuntimeException("x"))\nlog.debug("quiet")\nOUT.println("out line")\nprintln "println line"\nprint "no newline"\nprintln()\nSystem.out.println("sys")', element="JSR223PreProcessor")
case("ctx and sampler", G, '[ctx.getThreadNum(), ctx.getVariables().get("v"), ctx.getCurrentSampler().getName(), ctx.getThreadGroup().getName(), ctx.getProperties().getProperty("p"), sampler.getName(), ctx.getPreviousResult().getSampleLabel()]', element="JSR223PreProcessor", vars={"v": "vv"}, props={"p": "pp"})
case("prev in post-processor", G, 'def body = prev.getResponseDataAsString()\nvars.put("len", body.length().toString())\nvars.put("code", prev.getResponseCode())\nvars.put("label", prev.getSampleLabel())\nvars.put("ok", prev.isSuccessful().toString())\nvars.put("time", prev.getTime().toString())\nif (body.contains("error")) {\n    prev.setSuccessful(false)\n    prev.setResponseMessage("found error")\n    prev.setResponseCode("599")\n}\nprev.setSampleLabel(prev.getSampleLabel() + " (checked)")', element="JSR223PostProcessor",
     prev={"label": "api", "code": "200", "message": "OK", "body": "an error here", "time": 123})
case("sampler result", G, 'SampleResult.setResponseCode("201")\nSampleResult.setResponseMessage("Created")\nSampleResult.setSuccessful(true)\n"the response"')
case("sampler response data", G, 'SampleResult.setResponseData("set data", "UTF-8")\n"ignored return"')
case("sampler failure", G, 'SampleResult.setSuccessful(false)\nSampleResult.setResponseCode("500")\nSampleResult.setResponseMessage("bad")\nnull')
case("sampler if value", G, 'int cpt = vars["n"].toInteger()\nif (cpt > 1) {\n  "big"\n} else {\n  "small"\n}', vars={"n": "3"})
case("sampler declaration value", G, 'def x = 6 * 7')
case("sampler bytes", G, 'SampleResult.setResponseData(new byte[5])\nnull')
case("assertion result", G, 'if (!prev.getResponseDataAsString().contains("ok")) {\n  AssertionResult.setFailure(true)\n  AssertionResult.setFailureMessage("no ok in " + prev.getSampleLabel())\n}', element="JSR223Assertion",
     prev={"label": "page", "code": "200", "message": "OK", "body": "nope"})
case("assertion passes", G, 'AssertionResult.setFailure(prev.getResponseCode() != "200")', element="JSR223Assertion")
case("args and parameters", G, '[args.length, args[0], args[1], Parameters, Label]', element="JSR223PreProcessor")
case("jmeterutils", G, 'import org.apache.jmeter.util.JMeterUtils\nJMeterUtils.setProperty("jm.p", "1")\n[JMeterUtils.getProperty("jm.p"), JMeterUtils.getPropDefault("jm.p", 0), JMeterUtils.getPropDefault("nope", 5), JMeterUtils.getPropDefault("nope", "s")]', element="JSR223PreProcessor")
case("listener", G, 'def r = sampleEvent.getResult()\nprintln "${r.getSampleLabel()} ${r.isSuccessful()} ${sampleResult.getResponseCode()}"', element="JSR223Listener",
     prev={"label": "x", "code": "404", "message": "nf", "success": False})
case("groovy function", G, '"${vars.get("a")}-${threadName}".toUpperCase()', element="__groovy", vars={"a": "q"})

# ---- files (relative to the working folder, which record.sh and the
# tests make a fresh one) ----
case("file write and read", G, 'def f = new File("gojm-case.txt")\ndef w = new BufferedWriter(new FileWriter(f, true)); w.write("a"); w.newLine(); w.write("b\\n"); w.close()\n[f.text, f.readLines(), f.length(), f.getName(), f.getPath(), f.isFile(), f.isDirectory(), f.exists(), f.delete(), f.exists(), f.delete()]')
case("file writer truncates", G, 'new FileWriter("gojm-t.txt", true).close()\ndef w = new FileWriter("gojm-t.txt"); w.write("one\\n"); w.close()\nw = new FileWriter("gojm-t.txt", true); w.append("two").append(\'\\n\' as char); w.close()\nw = new FileWriter("gojm-t.txt"); w.write("lost"); def t = new File("gojm-t.txt").text; w.close()\n[t, new File("gojm-t.txt").text, new File("gojm-t.txt").delete()]')
case("print writer", G, 'def p = new PrintWriter(new FileWriter("gojm-p.txt")); p.println("x"); p.print(1.5d); p.println(); p.printf("%03d%n", 7); p.print(null); p.close()\ndef f = new File("gojm-p.txt"); def t = f.text; f.delete(); t')
case("groovy file methods", G, 'def f = new File("gojm-g.txt"); f.write("l1\\r\\nl2\\n"); f.append("l3")\ndef seen = []; f.eachLine { seen << it.toUpperCase() }\n[seen, f.readLines().size(), f.getText("UTF-8").length(), f.delete()]')
case("commons-io FileUtils", G, 'import org.apache.commons.io.FileUtils\ndef f = new File("gojm-u.txt")\nFileUtils.writeStringToFile(f, "p\\n", "UTF-8"); FileUtils.writeStringToFile(f, "q", "UTF-8", true)\ndef r = [FileUtils.readFileToString(f, "UTF-8"), FileUtils.readLines(f, "UTF-8")]; f.delete(); r')
case("file absent", G, 'def r = [new File("gojm-absent.txt").exists(), new File("gojm-absent.txt").length(), new File("gojm-absent.txt").delete()]\ntry { new File("gojm-absent.txt").text } catch (FileNotFoundException e) { r << e.getMessage() }\nr')
case("file paths", G, '[new File("a//b/").getPath(), new File("a/b.csv").getName(), new File("a", "b.csv").getPath(), new File("x.csv").getAbsolutePath() == System.getProperty("user.dir") + File.separator + "x.csv", System.getProperty("file.separator"), File.separator, System.getProperty("no.such.property"), System.getProperty("no.such.property", "d")]')
case("escapeJavaScript", G, 'groovy.json.StringEscapeUtils.escapeJavaScript("a\'b\\"c/d\\\\e\\n\\t\\r\\f\\b\\u00e9\\u20ac\\u0001\\u001f~")')
case("mirror server", G, 'import org.apache.jmeter.protocol.http.control.HttpMirrorServer\nHttpMirrorServer m = new HttpMirrorServer(8081, 10, 10)\nprops.put("MIRROR", m)\nm.start()\n((HttpMirrorServer) props.get("MIRROR")).stopServer()\n[m.getException(), m.getPort()]')
# ---- refused Groovy constructs ----
case("refused process", G, '"ls".execute().text')
case("refused evaluate", G, 'evaluate("1 + 1")')
case("refused class", G, 'class Foo { int x }\nnew Foo().x')
case("date of now", G, 'new Date().format("yyyy").length()')
case("refused thread", G, 'Thread.start { }')
case("refused import", G, 'import java.sql.DriverManager\nDriverManager.getConnection("jdbc:x")')
case("refused getclass", G, '"x".getClass().getName()')
case("refused system exit", G, 'System.exit(0)')
case("refused float", G, 'float f = 1.5f')

# ---- BeanShell ----
case("declarations", B, 'int a = 7; double d = 2.5; String s = "x"; long l = 10L; boolean b = true; char c = \'z\';\nreturn a + " " + d + " " + s + " " + l + " " + b + " " + c;'.replace("return ", ""))
case("arithmetic", B, 'int a = 7; int b = 2; double d = 7;\na / b + "|" + a % b + "|" + d / b + "|" + (a / 2.0) + "|" + (1 / 3) + "|" + (1.0 / 3) + "|" + (a * 1L) + "|" + (\'a\' + 1) + "|" + (char) 98 + "|" + (int) 3.9 + "|" + (10 - 3 * 2)')
case("loose variables", B, 'x = 5;\ny = x * 2;\nz = "s" + y;\nz')
case("string methods", B, 'String s = " Hello, World ";\ns.trim() + "|" + s.toUpperCase() + "|" + s.length() + "|" + s.indexOf("o") + "|" + s.contains("World") + "|" + s.substring(1, 6) + "|" + s.replace("l", "L") + "|" + s.equals(" Hello, World ") + "|" + s.split(",").length + "|" + s.charAt(1) + "|" + s.replaceAll("[lo]+", "_") + "|" + String.valueOf(12) + "|" + s.startsWith(" H")')
case("control flow", B, 'String out = "";\nfor (int i = 0; i < 5; i++) { if (i == 1) continue; if (i == 4) break; out += i; }\nint w = 3;\nwhile (w > 0) { out += "w" + w; w--; }\nswitch (w) { case 0: out += "zero"; break; default: out += "other"; }\nif (out.length() > 3) { out += "!"; } else { out += "?"; }\nout')
case("arrays", B, 'String[] parts = "a,b,c".split(",");\nint[] n = new int[3];\nn[1] = 5;\nString[] lit = {"x", "y"};\nparts.length + parts[0] + n[1] + n[0] + lit[1] + lit.length')
case("collections", B, 'import java.util.*;\nList l = new ArrayList();\nl.add("a"); l.add("b"); l.add(0, "z");\nMap m = new HashMap();\nm.put("zeta", "1"); m.put("alpha", "2"); m.put("beta", "3");\nMap lm = new LinkedHashMap();\nlm.put("zeta", "1"); lm.put("alpha", "2");\nl.toString() + " " + l.size() + " " + l.get(0) + " " + m.toString() + " " + m.get("alpha") + " " + lm.toString() + " " + m.containsKey("beta")')
case("try catch", B, 'String r = "";\ntry { Integer.parseInt("x"); } catch (NumberFormatException e) { r += "nfe " + e.getMessage(); } finally { r += " finally"; }\ntry { Object o = null; o.toString(); } catch (Exception e) { r += " npe"; }\nr')
case("methods", B, 'int add(int a, int b) { return a + b; }\nString greet(String n) { return "hi " + n; }\nadd(2, 3) + " " + greet("bsh")')
case("string builder", B, 'StringBuilder sb = new StringBuilder();\nsb.append("a").append(1).append(2.5).append(\'c\').append(true);\nsb.insert(0, "[");\nsb.toString() + sb.length()')
case("conversions", B, 'Integer.parseInt("42") + 1 + "|" + Long.parseLong("9000000000") + "|" + Double.parseDouble("1.5") + "|" + Math.round(2.5) + "|" + Math.round(-2.5) + "|" + Integer.valueOf(7) + "|" + Math.max(3, 9) + "|" + Math.abs(-2.5) + "|" + Boolean.parseBoolean("TRUE")')
case("sampler variables", B, 'IsSuccess = false;\nResponseCode = "503";\nResponseMessage = "Busy " + vars.get("who");\nreturn "body text";'.replace("return ", ""), vars={"who": "me"})
case("sampler value", B, 'vars.put("x", "1");\n12 * 12')
case("sampler label", B, 'SampleResult.setSampleLabel("renamed " + vars.get("n"));', vars={"n": "7"})
case("assertion variables", B, 'if (!ResponseCode.equals("200")) { Failure = true; FailureMessage = "code " + ResponseCode + " for " + SampleLabel; }', element="BeanShellAssertion",
     prev={"label": "p", "code": "404", "message": "nf", "body": "x"})
case("assertion passes", B, 'Failure = !new String(ResponseData).contains("x");', element="BeanShellAssertion",
     prev={"label": "p", "code": "200", "message": "OK", "body": "x"})
case("vars api", B, 'vars.put("a", "1");\nvars.putObject("o", new ArrayList());\nvars.get("a") + vars.get("in") + vars.get("nope") + vars.getObject("o") + vars.getIteration()', element="BeanShellPreProcessor", vars={"in": "given"})
case("vars put non-string", B, 'vars.put("n", 5);', element="BeanShellPreProcessor")
case("props api", B, 'props.put("p1", "v1");\nprops.setProperty("p2", "v2");\nprops.get("p1") + props.getProperty("p2") + props.getProperty("nope", "d") + props.get("given")', element="BeanShellPreProcessor", props={"given": "yes"})
case("props put null", B, 'props.put("token", vars.get("missing"));', element="BeanShellPostProcessor")
case("log and print", B, 'log.info("from bsh");\nlog.info("x {}", "y");\nprint("printed");\nOUT.println("out");', element="BeanShellPreProcessor")
case("ctx", B, 'ctx.getThreadNum() + " " + ctx.getVariables().get("v") + " " + ctx.getCurrentSampler().getName()', vars={"v": "vv"})
case("prev in post-processor", B, 'String body = prev.getResponseDataAsString();\nif (body.indexOf("error") >= 0) { prev.setSuccessful(false); prev.setResponseMessage("found error"); }\nvars.put("len", String.valueOf(body.length()));\nvars.put("data", new String(data));', element="BeanShellPostProcessor",
     prev={"label": "api", "code": "200", "message": "OK", "body": "an error here"})
case("time", B, 'vars.put("t", String.valueOf(System.currentTimeMillis()));\nlong start = System.currentTimeMillis();\nvars.put("elapsed", "" + (System.currentTimeMillis() - start));', element="BeanShellPostProcessor")
case("undefined variable", B, 'String s = "x" + undefinedThing;\ns')
case("null method call", B, 'String s = vars.get("missing");\ns.length()')
case("beanshell function", B, 'Math.round(50 * 0.7 / 60 * ((5000 + 10000) / 1000) + 1)', element="__BeanShell")
case("integer division function", B, '10 / 60 * 15 + 1', element="__BeanShell")
case("var keyword", B, 'var v = "ok";\nv')
# the classes plans import for tokens and random data
case("commons-net base64", B, 'import org.apache.commons.net.util.Base64;\nString source = "1117000917";\nbyte[] encodedBytes = Base64.encodeBase64(source.getBytes("UTF-8"));\nString encoded = new String(encodedBytes);\nvars.put("account", encoded);\nnew String(Base64.decodeBase64(encoded), "UTF-8")', element="BeanShellPreProcessor")
case("commons-codec base64", B, 'import org.apache.commons.codec.binary.Base64;\nbyte[] b = "gojm \u00e9?>".getBytes("UTF-8");\nBase64.encodeBase64String(b) + " " + Base64.encodeBase64URLSafeString(b) + " " + new String(Base64.encodeBase64(b)) + " " + new String(Base64.decodeBase64("Z29qbQ=="), "UTF-8")')
case("file separator", B, 'File.separator + "data" + File.separator + "users.csv"')
case("secure random", B, 'import java.security.SecureRandom;\nSecureRandom r = new SecureRandom();\nint n = r.nextInt(100);\nn >= 0 && n < 100')
case("dates", B, 'import java.text.SimpleDateFormat;\nDate d = new Date(1700000000000L);\nSimpleDateFormat f = new SimpleDateFormat("yyyy-MM-dd\'T\'HH:mm:ss.SSSZ");\nf.setTimeZone(TimeZone.getTimeZone("UTC"));\nvars.put("iso", f.format(d));\nSimpleDateFormat g = new SimpleDateFormat("dd/MM/yyyy HH:mm");\ng.setTimeZone(TimeZone.getTimeZone("Asia/Kolkata"));\nvars.put("ist", g.format(d));\nvars.put("parsed", "" + g.parse("02/01/2024 03:04").getTime());\nd.getTime() + " " + d.before(new Date(1700000000001L)) + " " + d', element="BeanShellPreProcessor")
case("calendar", B, 'import java.util.Calendar;\nCalendar c = Calendar.getInstance(TimeZone.getTimeZone("UTC"));\nc.setTimeInMillis(1706659200000L);\nc.add(Calendar.MONTH, 1);\nc.add(Calendar.DATE, -2);\nc.set(Calendar.HOUR_OF_DAY, 25);\nc.add(Calendar.MINUTE, 90);\nvars.put("when", "" + c.get(Calendar.YEAR) + "-" + c.get(Calendar.MONTH) + "-" + c.get(Calendar.DAY_OF_MONTH) + " " + c.get(Calendar.HOUR_OF_DAY) + ":" + c.get(Calendar.MINUTE) + " " + c.get(Calendar.DAY_OF_WEEK) + " " + c.get(Calendar.HOUR) + " " + c.get(Calendar.AM_PM));\nc.set(2023, Calendar.DECEMBER, 31, 23, 59, 59);\nc.add(Calendar.SECOND, 2);\nc.getTimeInMillis()', element="BeanShellPreProcessor")
case("error count", B, 'int errors = prev.getErrorCount();\nint samples = prev.getSampleCount();\nif (errors > 0) { Failure = true; FailureMessage = "errors " + errors + " of " + samples; }', element="BeanShellAssertion",
     prev={"label": "p", "code": "500", "message": "err", "body": "x", "success": False})
# BeanShell: files, as plans write extracted values
case("file writer", B, 'import java.io.*;\nFileWriter fr = new FileWriter("gojm-b.csv", true);\nfr.write("\\n" + vars.get("v"));\nfr.close();\nBufferedWriter bw = new BufferedWriter(new FileWriter("gojm-b.csv", true));\nbw.write("x" + 1);\nbw.newLine();\nbw.flush();\nbw.close();\nFile f = new File("gojm-b.csv");\nvars.put("len", "" + f.length());\nvars.put("facts", f.getName() + f.exists() + f.isFile());\nvars.put("del", "" + f.delete() + f.exists());', vars={"v": "42"})
case("print writer", B, 'PrintWriter p = new PrintWriter(new FileWriter("gojm-bp.txt"));\np.println("a");\np.print(2);\np.close();\nFile f = new File("gojm-bp.txt");\nvars.put("len", "" + f.length());\nf.delete();')
case("file separator property", B, 'vars.put("sep", File.separator + System.getProperty("file.separator"));\nvars.put("d", "" + new File("gojm-absent.csv").delete() + new File("gojm-absent.csv").exists());')
# ---- the HTTP Request a pre-processor changes, ctx, props, SampleResult (the repos corpus's scripts) ----
REQ = {"domain": "example.com", "path": "/items", "headers": [["Accept", "*/*"], ["Authorization", "Basic x"], ["X-Old", "o"]], "args": [["q", "x"], ["drop", "y"], ["q", "z"]]}
case("header manager add", B, 'import org.apache.jmeter.protocol.http.control.Header;\nsampler.getHeaderManager().add(new Header("Authorization","Bearer " + vars.get("BEARER")));', element="BeanShellPreProcessor", vars={"BEARER": "tok"}, request=REQ)
case("header manager api", G, 'import org.apache.jmeter.protocol.http.control.Header\ndef hm = sampler.getHeaderManager()\ndef r = [hm.size(), hm.get(0).getName(), hm.getHeader(1).getValue(), hm.getFirstHeaderNamed("accept")?.getValue(), hm.getFirstHeaderNamed("nope"), hm.get(2).toString()]\nhm.removeHeaderNamed("AUTHORIZATION")\nhm.add(new Header("Authorization", "Bearer t"))\nhm.getFirstHeaderNamed("Accept").setValue("application/json")\nhm.remove(1)\ndef h = new Header("X-A", "1")\nhm.add(h)\nh.setValue("2")\nr << hm.size() << hm.get(0).getValue()\nr', element="JSR223PreProcessor", request=REQ)
case("header manager bsh", B, 'import org.apache.jmeter.protocol.http.control.HeaderManager;\nimport org.apache.jmeter.protocol.http.control.Header;\nHeaderManager hm = sampler.getHeaderManager();\nfor (int i = 0; i < hm.size(); i++) {\n  Header h = hm.getHeader(i);\n  if (h.getName().equals("X-Old")) { h.setValue("new"); }\n}\nhm.remove(0);\nhm.size() + " " + hm.get(0).getName()', element="BeanShellPreProcessor", request=REQ)
case("header index error", G, 'sampler.getHeaderManager().remove(7)', element="JSR223PreProcessor", request=REQ)
case("no header manager", G, '[sampler.getHeaderManager() == null, sampler.getArguments().getArgumentCount()]', element="JSR223PreProcessor", request={"domain": "example.com", "path": "/", "noHeaderManager": True})
case("arguments api", B, 'import org.apache.jmeter.config.Arguments;\nArguments a = sampler.getArguments();\nString r = a.getArgumentCount() + " " + a.getArgument(0).getName() + "=" + a.getArgument(0).getValue() + " " + a.getArgument(5) + " " + a.getArgumentsAsMap();\na.addArgument("added", "1");\nsampler.addArgument("more", "2");\na.removeArgument("drop");\na.getArgument(0).setValue("changed");\nr + " " + a.toString() + " " + a.getArgumentCount()', element="BeanShellPreProcessor", request=REQ)
case("arguments groovy", G, 'import org.apache.jmeter.protocol.http.util.HTTPArgument\ndef a = sampler.getArguments()\na.addArgument(new HTTPArgument("h", "v w"))\na.removeArgument(0)\na.removeArgument("q", "z")\ndef m = a.getArgumentsAsMap()\n[a.getArgumentCount(), m, a.toString(), a.getArgument(0).getMetaData()]', element="JSR223PreProcessor", request=REQ)
case("url fields", G, 'def r = [sampler.getMethod(), sampler.getProtocol(), sampler.getDomain(), sampler.getPort(), sampler.getPath(), sampler.getUrl().toString()]\nsampler.setPath("/v2" + sampler.getPath())\nsampler.setDomain("api.example.com")\nsampler.setMethod("POST")\nsampler.setPort(8443)\nsampler.setProtocol("https")\nr << sampler.getUrl().toString() << sampler.getPort()\nr', element="JSR223PreProcessor", request=REQ)
case("property names", B, '// Change file properties into variables\nEnumeration properties = props.propertyNames();\n\nwhile (properties.hasMoreElements()) {\n    String property = properties.nextElement().toString();\n\n    if (property.startsWith("files.")) {\n        vars.put(property, props.getProperty(property));\n    }\n}\n', element="BeanShellPreProcessor", props={"files.users": "users.csv", "files.items": "items.csv", "other": "x"})
case("iterate vars and props", G, 'def r = []\nfor (e in vars.entrySet()) r << e.getKey() + "=" + e.getValue()\ndef it = vars.getIterator()\nwhile (it.hasNext()) { def e = it.next(); r << e.key }\nfor (k in props.keySet()) r << k\nprops.entrySet().each { r << it.key + ":" + it.value }\ndef en = props.propertyNames()\nwhile (en.hasMoreElements()) r << "n " + en.nextElement()\nr.sort()', element="JSR223PreProcessor", vars={"a": "1", "b": "2"}, props={"p": "q"})
case("iterate vars bsh", B, 'import java.util.*;\nIterator it = vars.getIterator();\nList r = new ArrayList();\nwhile (it.hasNext()) { Map.Entry e = (Map.Entry) it.next(); r.add(e.getKey() + "=" + e.getValue()); }\nEnumeration en = props.keys();\nwhile (en.hasMoreElements()) { r.add(en.nextElement()); }\nCollections.sort(r);\nr.toString()', element="BeanShellPreProcessor", vars={"a": "1", "b": "2"}, props={"p": "q"})
case("log call across lines", B, 'if(SampleResult.isSuccessful()==false){\nlog.error\n\t("exeError at "\n\t+ "Sampler Name : " \n\t+ SampleResult.toString()\n\t+ "\\n Response Code : "\n\t+ SampleResult.getResponseCode()\n\t);\n}\nlog.warn("w {} {}", 1, "two");\nlog.debug("d");\nlog.info("i {}", "x")', element="BeanShellAssertion", prev={"label": "p", "code": "500", "message": "err", "body": "x", "success": False})
case("method JMeter lacks", B, 'import org.apache.jmeter.samplers.SampleResult;\n\nint totalRequests = ctx.getPreviousResult().getTotal();\nint failedRequests = ctx.getPreviousResult().getFailureCount();\ndouble errorRate = (failedRequests * 100.0) / totalRequests;\n\nif (errorRate > 1) {\n    Failure = true;\n    FailureMessage = "Taxa de erro excedeu 1%: " + errorRate + "%";\n}\n', element="BeanShellAssertion")
case("method JMeter lacks groovy", G, 'vars.put("before", "1")\nprev.getTotal()', element="JSR223PostProcessor")
case("sample result getters", G, 'def p = prev\n[p.getTime(), p.getLatency(), p.getConnectTime(), p.getBytesAsLong(), p.getSentBytes(), p.getResponseHeaders(), p.getRequestHeaders(), p.getSampleCount(), p.getErrorCount(), p.getContentType(), p.getDataType(), p.getEndTime(), p.getStartTime(), p.getIdleTime(), p.getURL().toString(), p.getThreadName(), p.getSubResults().length, p.getSubResults().collect { it.getTime() }]', element="JSR223PostProcessor",
     prev={"label": "p", "code": "200", "message": "OK", "body": "b", "time": 120, "bytes": 2048, "responseHeaders": "HTTP/1.1 200 OK\\n", "requestHeaders": "Accept: */*\\n", "url": "http://example.com/a?b=1", "contentType": "text/html", "subresults": 2})
case("ctx thread", B, 'String r = ctx.getThread().getThreadName() + " " + ctx.getThreadGroup().getName() + " " + ctx.getThreadGroup().getNumThreads() + " " + ctx.getCurrentSampler().getName() + " " + ctx.getVariables().get("v") + " " + ctx.getProperties().getProperty("p");\nif (!vars.get("v").equals("other")) { ctx.getThread().stop(); }\nr', element="BeanShellPostProcessor", vars={"v": "vv"}, props={"p": "pp"})
case("time unit", G, 'import java.util.concurrent.TimeUnit\n[TimeUnit.SECONDS.toMillis(3), TimeUnit.MILLISECONDS.toSeconds(2999), TimeUnit.MINUTES.toSeconds(2), TimeUnit.HOURS.toMinutes(1), TimeUnit.DAYS.toHours(2), TimeUnit.NANOSECONDS.toMicros(-1999), TimeUnit.MILLISECONDS.convert(5, TimeUnit.MINUTES), TimeUnit.DAYS.toNanos(200000), TimeUnit.SECONDS, TimeUnit.valueOf("HOURS").toMillis(1)]', element="JSR223PreProcessor")
case("time unit bsh", B, 'import java.util.concurrent.TimeUnit;\nlong ms = TimeUnit.SECONDS.toMillis(Long.parseLong("90"));\nvars.put("ms", "" + ms);\nTimeUnit.MINUTES.toMillis(1) + " " + TimeUnit.MILLISECONDS.toMinutes(ms) + " " + TimeUnit.SECONDS.name()', element="BeanShellPreProcessor")
case("java time", G, 'import java.time.LocalDate\nimport java.time.LocalDateTime\nimport java.time.Instant\nimport java.time.Duration\nimport java.time.format.DateTimeFormatter\ndef d = LocalDate.of(2024, 1, 31)\ndef f = DateTimeFormatter.ofPattern("dd/MM/yyyy")\ndef t = LocalDateTime.of(2024, 2, 28, 23, 30)\n[d.toString(), d.plusDays(1).toString(), d.plusMonths(1).toString(), d.minusYears(1).format(f), d.getDayOfYear(), LocalDate.parse("2023-12-31").plusDays(1).toString(), t.toString(), t.plusMinutes(45).toString(), t.plusSeconds(5).toString(), t.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")), LocalDateTime.parse("2024-03-01T10:15:30").getHour(), Instant.ofEpochMilli(1700000000123L).toString(), Instant.ofEpochSecond(1700000000).toEpochMilli(), Duration.ofMinutes(90).toString(), Duration.ofMillis(1500).getSeconds(), Duration.ofSeconds(3661).toString(), Duration.between(Instant.ofEpochMilli(0), Instant.ofEpochMilli(2500)).toMillis(), LocalDate.parse("05/06/2024", f).toString(), d.isBefore(d.plusDays(1)), LocalDate.now().toString().length(), LocalDateTime.now().getYear() > 2000, Instant.now().toEpochMilli() > 0]', element="JSR223PreProcessor")
case("java time bsh", B, 'import java.time.LocalDate;\nimport java.time.format.DateTimeFormatter;\nLocalDate d = LocalDate.of(2024, 2, 29);\nvars.put("next", d.plusYears(1).format(DateTimeFormatter.ofPattern("yyyy-MM-dd")));\nd.plusDays(-1) + " " + d.getMonthValue() + " " + d.lengthOfMonth()', element="BeanShellPreProcessor")
# refused BeanShell constructs
case("refused string ==", B, 'if (vars.get("x") == "y") { vars.put("r", "same"); }')
case("refused groovy method", B, '"5".toInteger()')
case("refused file", B, 'import java.io.*;\nnew FileReader("x");')
# ---- the user's Cookie Manager (sampler.getCookieManager(), Cookie) ----
CKS = [["a", "1", "example.com", "/", False, 0], ["b", "2", "example.com", "/x", True, 4102444800]]
case("cookie manager api", G, 'import org.apache.jmeter.protocol.http.control.Cookie\ndef cm = sampler.getCookieManager()\ndef r = [cm.getCookieCount(), cm.get(0).getName(), cm.get(1).getPath(), cm.get(1).getSecure(), cm.get(1).getExpires(), cm.get(0).isDomainSpecified(), cm.get(1).toString()]\ncm.add(new Cookie("a", "3", "example.com", "/", false, 0))\ncm.add(new Cookie("c", "4", "example.com", "/", false, 1557578515))\ncm.add(new Cookie("b", "", "example.com", "/x", false, 0))\ndef c = cm.get(0)\nc.setValue("5")\nr << cm.getCookieCount() << cm.getCookies().size() << cm.getCookies().get(1).getObjectValue().getName() << cm.get(0).getValue() << c.getDomain()\ncm.remove(0)\nr << cm.getCookieCount()\nr', element="JSR223PreProcessor", cookies=CKS)
case("cookie manager kept in vars", B, 'import org.apache.jmeter.protocol.http.control.CookieManager;\nimport org.apache.jmeter.protocol.http.control.Cookie;\nif (sampler.getCookieManager() != null) { vars.putObject("cm", sampler.getCookieManager()); }\nCookieManager kept = vars.getObject("cm");\nkept.add(new Cookie("s", "v", "example.com", "/", false, 0));\nwhile (kept.getCookieCount() > 1) { kept.remove(0); }\nvars.remove("cm");\nkept.getCookieCount() + " " + kept.get(0).getName()', element="BeanShellPostProcessor", cookies=CKS)
case("cookie manager clear", B, 'org.apache.jmeter.protocol.http.control.CookieManager cm = ctx.getCurrentSampler().getCookieManager();\ncm.clear();\ncm.getCookieCount()', element="BeanShellPreProcessor", cookies=CKS)
case("no cookie manager", B, 'sampler.getCookieManager() == null', element="BeanShellPreProcessor")
case("cookie index out of range", G, 'sampler.getCookieManager().remove(5)', element="JSR223PreProcessor", cookies=CKS)
case("refused source", B, 'source("other.bsh");')

import os
json.dump(cases, open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "semantics.json"), "w"), indent=1, ensure_ascii=False)
print(len(cases), "cases")
