package script

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/dop251/goja"
)

// catalog is what the runtime implements, read from the runtime itself so
// that the translator refuses exactly what would not run: methods by kind,
// static methods, static fields and constructors by class.
type catalog struct {
	methods [2]map[string]map[string]string // dialect → kind → "name/arity" → return kind
	statics [2]map[string]map[string]string // dialect → class → "name/arity" → return kind
	fields  map[string]map[string]string    // class → field → kind
	ctors   map[string]map[string]bool      // class → arity ("*" any)
	parents map[string]string
	// classKind is the kind of values a class's constructor makes.
	classKind map[string]string
}

var (
	catOnce sync.Once
	cat     *catalog
	catErr  error
)

func loadCatalog() (*catalog, error) {
	catOnce.Do(func() { cat, catErr = readCatalog() })
	return cat, catErr
}

func readCatalog() (*catalog, error) {
	prog, err := compilePrelude()
	if err != nil {
		return nil, err
	}
	vm := goja.New()
	mk, err := vm.RunProgram(prog)
	if err != nil {
		return nil, fmt.Errorf("script runtime: %w", err)
	}
	mkFn, _ := goja.AssertFunction(mk)
	stub := vm.NewObject()
	c := &catalog{fields: map[string]map[string]string{}, ctors: map[string]map[string]bool{}, parents: map[string]string{}, classKind: map[string]string{}}
	for d := 0; d < 2; d++ {
		rtv, err := mkFn(goja.Undefined(), vm.ToValue(d == 1), stub, stub)
		if err != nil {
			return nil, fmt.Errorf("script runtime: %w", err)
		}
		rt := rtv.ToObject(vm)
		c.methods[d] = table(vm, rt.Get("T").ToObject(vm))
		c.statics[d] = table(vm, rt.Get("S").ToObject(vm))
		if d == 0 {
			kindOf, _ := goja.AssertFunction(rt.Get("kindOf"))
			F := rt.Get("F").ToObject(vm)
			for _, cls := range F.Keys() {
				fo := F.Get(cls).ToObject(vm)
				m := map[string]string{}
				for _, name := range fo.Keys() {
					k, _ := kindOf(rt, fo.Get(name))
					m[name] = k.String()
				}
				c.fields[cls] = m
			}
			// System.out and System.err are getters
			c.fields["System"] = map[string]string{"out": "Out", "err": "Out"}
			N := rt.Get("N").ToObject(vm)
			for _, cls := range N.Keys() {
				m := map[string]bool{}
				for _, ar := range N.Get(cls).ToObject(vm).Keys() {
					m[ar] = true
				}
				c.ctors[cls] = m
			}
			P := rt.Get("parents").ToObject(vm)
			for _, k := range P.Keys() {
				c.parents[k] = P.Get(k).String()
			}
		}
	}
	for cls, kind := range map[string]string{
		"Random": "Random", "StringBuilder": "StringBuilder", "StringBuffer": "StringBuilder", "ArrayList": "List",
		"LinkedList": "List", "HashMap": "Map", "LinkedHashMap": "Map", "LinkedHashSet": "Set", "String": "String",
		"BigDecimal": "BigDecimal", "Integer": "Integer", "Long": "Long", "Double": "Double", "JsonSlurper": "JsonSlurper",
		"Object": "", "URL": "URL", "SecureRandom": "Random",
		"Date": "Date", "SimpleDateFormat": "SimpleDateFormat",
		"Header": "Header", "Argument": "Argument", "HTTPArgument": "HTTPArgument", "Arguments": "Arguments",
		"Cookie": "Cookie",
	} {
		c.classKind[cls] = kind
	}
	for cls, kind := range fileClassKinds {
		c.classKind[cls] = kind
	}
	return c, nil
}

func table(vm *goja.Runtime, o *goja.Object) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, kind := range o.Keys() {
		t := o.Get(kind).ToObject(vm)
		m := map[string]string{}
		for _, k := range t.Keys() {
			entry := t.Get(k).ToObject(vm)
			m[k] = entry.Get("0").String()
		}
		out[kind] = m
	}
	return out
}

func (c *catalog) lookupIn(t map[string]map[string]string, kind, name string, n int) (string, bool) {
	key := name + "/" + strconv.Itoa(n)
	for k := kind; k != ""; {
		if m, ok := t[k]; ok {
			if r, ok := m[key]; ok {
				return r, true
			}
			if r, ok := m[name+"/*"]; ok {
				return r, true
			}
		}
		if k == "Object" {
			break
		}
		p, ok := c.parents[k]
		if !ok {
			p = "Object"
		}
		k = p
	}
	return "", false
}

// method reports whether values of kind have the method, and its return kind.
func (c *catalog) method(d Dialect, kind, name string, n int) (string, bool) {
	return c.lookupIn(c.methods[d], kind, name, n)
}

// anyMethod reports whether some kind has the method.
func (c *catalog) anyMethod(d Dialect, name string, n int) bool {
	key := name + "/" + strconv.Itoa(n)
	for _, m := range c.methods[d] {
		if _, ok := m[key]; ok {
			return true
		}
		if _, ok := m[name+"/*"]; ok {
			return true
		}
	}
	return false
}

func (c *catalog) static(d Dialect, cls, name string, n int) (string, bool) {
	m, ok := c.statics[d][cls]
	if !ok {
		return "", false
	}
	if r, ok := m[name+"/"+strconv.Itoa(n)]; ok {
		return r, true
	}
	r, ok := m[name+"/*"]
	return r, ok
}

func (c *catalog) hasField(cls, name string) bool {
	_, ok := c.fields[cls][name]
	return ok
}

func (c *catalog) fieldKind(cls, name string) string { return c.fields[cls][name] }

func (c *catalog) hasCtor(cls string, n int) bool {
	m := c.ctors[cls]
	return m[strconv.Itoa(n)] || m["*"]
}

func (c *catalog) ctorKind(cls string) string { return c.classKind[cls] }

// knownClasses maps the names a script may write for a class gojm runs
// (simple or qualified) to the runtime's class name.
var knownClasses = func() map[string]string {
	m := map[string]string{}
	add := func(pkg string, names ...string) {
		for _, n := range names {
			simple, runtime := n, n
			if i := strings.IndexByte(n, '='); i >= 0 {
				simple, runtime = n[:i], n[i+1:]
			}
			m[simple] = runtime
			if pkg != "" {
				m[pkg+"."+simple] = runtime
			}
		}
	}
	add("java.lang", "String", "Integer", "Long", "Double", "Boolean", "Character", "Math", "StrictMath=Math", "System",
		"Thread", "StringBuilder", "StringBuffer", "Object", "Number", "CharSequence", "Iterable",
		"Exception", "RuntimeException", "Throwable", "Error", "AssertionError", "NullPointerException",
		"IllegalArgumentException", "IllegalStateException", "NumberFormatException", "ArithmeticException",
		"ClassCastException", "IndexOutOfBoundsException", "ArrayIndexOutOfBoundsException",
		"StringIndexOutOfBoundsException", "UnsupportedOperationException", "InterruptedException")
	add("java.util", "Random", "UUID", "ArrayList", "LinkedList", "List", "Map", "HashMap", "LinkedHashMap", "Set",
		"LinkedHashSet", "Collection", "Arrays", "Collections", "Iterator", "Enumeration", "Base64", "NoSuchElementException",
		"Map.Entry=Entry")
	add("java.math", "BigDecimal", "RoundingMode")
	add("java.net", "URLEncoder", "URLDecoder", "URL")
	add("java.nio.charset", "StandardCharsets")
	add("java.io", "PrintStream", "IOException", "UnsupportedEncodingException")
	add("groovy.json", "JsonSlurper", "JsonOutput", "JsonException")
	add("groovy.lang", "Closure", "MissingPropertyException", "MissingMethodException")
	add("org.apache.jmeter.util", "JMeterUtils")
	add("org.apache.commons.lang3", "RandomStringUtils", "SystemUtils")
	add("org.apache.commons.lang", "RandomStringUtils")
	add("org.apache.jmeter.threads", "JMeterVariables", "JMeterContext", "JMeterThread")
	add("org.apache.jmeter.samplers", "SampleResult", "Sampler", "SampleEvent")
	add("org.apache.jmeter.protocol.http.sampler", "HTTPSampleResult=SampleResult")
	add("org.apache.jmeter.assertions", "AssertionResult")
	add("org.slf4j", "Logger")
	add("java.util", "Properties")
	add("java.util.concurrent", "ThreadLocalRandom", "TimeUnit")
	add("java.security", "SecureRandom")
	add("org.apache.jmeter.services", "FileServer")
	add("java.util", "Date", "TimeZone", "Calendar", "GregorianCalendar=Calendar")
	add("java.text", "SimpleDateFormat", "ParseException")
	add("java.security", "MessageDigest", "NoSuchAlgorithmException")
	add("org.apache.commons.codec.digest", "DigestUtils")
	add("java.io", "File")
	add("java.time", "LocalDate", "LocalDateTime", "Instant", "Duration")
	add("java.time.format", "DateTimeFormatter", "DateTimeParseException")
	// the HTTP Request's parts a pre-processor changes (runtime_http.js)
	add("org.apache.jmeter.protocol.http.control", "HeaderManager", "Header")
	// the user's cookie jar (runtime_cookies.js)
	add("org.apache.jmeter.protocol.http.control", "CookieManager", "Cookie")
	add("org.apache.jmeter.config", "Arguments", "Argument")
	add("org.apache.jmeter.protocol.http.util", "HTTPArgument")
	add("org.apache.jmeter.protocol.http.sampler", "HTTPSamplerProxy=Sampler", "HTTPSamplerBase=Sampler", "HTTPSampler=Sampler")
	m["org.apache.commons.codec.binary.Base64"] = "CodecBase64"
	m["org.apache.commons.net.util.Base64"] = "NetBase64"
	m["Entry"] = "Entry"
	return m
}()

// primitiveKinds: primitive types → kind and cast.
var primitiveKinds = map[string][2]string{
	"int": {"Integer", "int"}, "short": {"Integer", "short"}, "byte": {"Integer", "byte"},
	"long": {"Long", "long"}, "double": {"Double", "double"}, "boolean": {"Boolean", "boolean"},
	"char": {"Character", "char"},
}

// typeKinds: declared class → kind and cast.
var typeKinds = map[string][2]string{
	"Integer": {"Integer", "Integer"}, "Long": {"Long", "Long"}, "Double": {"Double", "Double"},
	"Boolean": {"Boolean", "Boolean"}, "Character": {"Character", "Character"}, "String": {"String", "String"},
	"CharSequence": {"", "Object"}, "Object": {"", "Object"}, "Number": {"", "Number"},
	"BigDecimal": {"BigDecimal", "BigDecimal"}, "List": {"List", "List"}, "ArrayList": {"List", "List"},
	"LinkedList": {"List", "List"}, "Collection": {"", "Collection"}, "Iterable": {"", "Object"},
	"Map": {"Map", "Map"}, "HashMap": {"Map", "Map"}, "LinkedHashMap": {"Map", "Map"},
	"Set": {"Set", "Set"}, "LinkedHashSet": {"Set", "Set"}, "Random": {"Random", "Random"},
	"StringBuilder": {"StringBuilder", "StringBuilder"}, "StringBuffer": {"StringBuilder", "StringBuilder"},
	"UUID": {"UUID", "UUID"}, "JsonSlurper": {"JsonSlurper", "JsonSlurper"}, "Iterator": {"Iterator", "Iterator"},
	"LocalDate": {"LocalDate", "LocalDate"}, "LocalDateTime": {"LocalDateTime", "LocalDateTime"}, "Instant": {"Instant", "Instant"},
	"Duration": {"Duration", "Duration"}, "DateTimeFormatter": {"DateTimeFormatter", "DateTimeFormatter"},
	"Enumeration": {"Enumeration", "Enumeration"}, "TimeUnit": {"TimeUnit", "TimeUnit"}, "JMeterThread": {"JMeterThread", "JMeterThread"},
	"Entry": {"Entry", "Entry"}, "Closure": {"Closure", "Closure"}, "JMeterVariables": {"Vars", "Vars"},
	"Properties": {"Props", "Props"}, "Logger": {"Logger", "Logger"}, "JMeterContext": {"Ctx", "Ctx"},
	"SampleResult": {"Result", "Result"}, "AssertionResult": {"AssertionResult", "AssertionResult"},
	"Sampler": {"Sampler", "Sampler"}, "SampleEvent": {"SampleEvent", "SampleEvent"}, "PrintStream": {"Out", "Out"},
	"URL": {"URL", "URL"}, "RoundingMode": {"RoundingMode", "RoundingMode"},
	"SecureRandom": {"Random", "Random"}, "ThreadLocalRandom": {"Random", "Random"},
	"Date": {"Date", "Date"}, "SimpleDateFormat": {"SimpleDateFormat", "SimpleDateFormat"},
	"TimeZone": {"TimeZone", "TimeZone"}, "MessageDigest": {"MessageDigest", "MessageDigest"},
	"Calendar":      {"Calendar", "Calendar"},
	"HeaderManager": {"HeaderManager", "HeaderManager"}, "Header": {"Header", "Header"},
	"CookieManager": {"CookieManager", "CookieManager"}, "Cookie": {"Cookie", "Cookie"},
	"Arguments": {"Arguments", "Arguments"}, "Argument": {"Argument", "Argument"}, "HTTPArgument": {"HTTPArgument", "HTTPArgument"},
	"HTTPSamplerProxy": {"Sampler", "Sampler"}, "HTTPSamplerBase": {"Sampler", "Sampler"}, "HTTPSampler": {"Sampler", "Sampler"},
}

// kindJavaNames name kinds in refusals.
var kindJavaNames = map[string]string{
	"Vars": "vars (JMeterVariables)", "Props": "props (Properties)", "Logger": "log (Logger)", "Ctx": "ctx (JMeterContext)",
	"Result": "SampleResult", "Out": "PrintStream", "List": "List", "Map": "Map", "Array": "array",
}

// jmeterMethods names the public methods of the classes gojm models whole
// (JMeter 2.13's and 5.6's, and Object's): a call to one of them that gojm
// lacks is refused; a call to any other name is JMeter's failure at run
// time, as there (a warning as the plan compiles).
var jmeterMethods = func() map[string]map[string]bool {
	object := "equals hashCode getClass toString wait notify notifyAll clone"
	m := map[string]map[string]bool{}
	for kind, names := range map[string]string{
		"Result": object + " addAssertionResult addRawSubResult addSubResult cleanAfterSample connectEnd currentTimeInMillis" +
			" getAllThreads getAssertionResults getBodySize getBodySizeAsLong getBytes getBytesAsLong getConnectTime getContentType" +
			" getDataEncodingNoDefault getDataEncodingWithDefault getDataType getEndTime getErrorCount getFirstAssertionFailureMessage" +
			" getGroupThreads getHeadersSize getIdleTime getLatency getMediaType getParent getRedirectLocation getRequestHeaders" +
			" getResponseCode getResponseData getResponseDataAsString getResponseHeaders getResponseMessage getResultFileName" +
			" getSampleCount getSampleLabel getSamplerData getSaveConfig getSearchableTokens getSentBytes getStartTime getSubResults" +
			" getTestLogicalAction getThreadName getTime getTimeStamp getURL getUrlAsString isIgnore isMonitor isRenameSampleLabel" +
			" isResponseCodeOK isStampedAtStart isStartNextThreadLoop isStopTest isStopTestNow isStopThread isSuccessful latencyEnd" +
			" markFile removeAssertionResults removeSubResults sampleEnd samplePause sampleResume sampleStart setAllThreads" +
			" setBodySize setBytes setConnectTime setContentType setDataEncoding setDataType setEncodingAndType setEndTime" +
			" setErrorCount setGroupThreads setHeadersSize setIdleTime setIgnore setLatency setMonitor setParent setRedirectLocation" +
			" setRequestHeaders setResponseCode setResponseCodeOK setResponseData setResponseHeaders setResponseMessage" +
			" setResponseMessageOK setResponseOK setResultFileName setSampleCount setSampleLabel setSamplerData setSaveConfig" +
			" setSentBytes setStampAndTime setStartNextThreadLoop setStartTime setStopTest setStopTestNow setStopThread" +
			" setSuccessful setTestLogicalAction setThreadName setTimeStamp setURL storeSubResult",
		"Vars": object + " entrySet get getIteration getIterator getObject getThreadName incIteration initialize put putAll putObject remove",
		"Ctx": object + " cleanAfterSample clear getCurrentSampler getEngine getPreviousResult getPreviousSampler getProperties" +
			" getSamplerContext getTestLogicalAction getThread getThreadGroup getThreadNum getVariables isRecording" +
			" isRestartNextLoop isSamplingStarted setCurrentSampler setEngine setPreviousResult setRecording setRestartNextLoop" +
			" setSamplingStarted setTestLogicalAction setThread setThreadGroup setThreadNum setVariables",
		"AssertionResult": object + " getFailureMessage getName isError isFailure setError setFailure setFailureMessage" +
			" setResultForFailure setResultForNull",
	} {
		m[kind] = map[string]bool{}
		for _, n := range strings.Fields(names) {
			m[kind][n] = true
		}
	}
	return m
}()

// groovyObjectMethods are the methods Groovy adds to every object
// (DefaultGroovyMethods): in Groovy, JMeter's classes have them too.
var groovyObjectMethods = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields("addShutdownHook any asBoolean asType collect dump each eachWithIndex every find findAll" +
		" findIndexOf findIndexValues findLastIndexOf findResult getAt getMetaClass getMetaPropertyValues getProperties" +
		" getProperty grep hasProperty identity inject inspect invokeMethod is isCase iterator print printf println putAt" +
		" respondsTo setMetaClass setProperty sleep split sprintf tap use with withTraits") {
		m[n] = true
	}
	return m
}()

// lacksMethod reports whether kind is a class gojm models whole and JMeter's
// class has no method of that name (nor Groovy, for a Groovy script).
func lacksMethod(d Dialect, kind, name string) bool {
	ms, ok := jmeterMethods[kind]
	return ok && !ms[name] && !(d == Groovy && groovyObjectMethods[name])
}

// javaClassOf names a modelled kind's class.
func javaClassOf(kind string) string {
	switch kind {
	case "Result":
		return "SampleResult"
	case "Vars":
		return "JMeterVariables"
	case "Ctx":
		return "JMeterContext"
	}
	return kind
}
