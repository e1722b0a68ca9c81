package function

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/internal/files"
	"github.com/gojm/gojm/jmx"
)

// testCompiler is a compiler of templates with every function of the
// package, and the one run its users share.
type testCompiler struct {
	*Compiler
	run  *element.Run
	errs []error
}

// testCompiler is the Builder of the elements the tests compile
// (JavaScript conditions).
var _ element.Builder = (*testCompiler)(nil)

func (c *testCompiler) Template(_ *jmx.Element, _, text string) *element.Template {
	t, err := c.Compile(text)
	if err != nil {
		c.errs = append(c.errs, err)
		return element.Text(text)
	}
	return t
}

func (c *testCompiler) Prop(e *jmx.Element, name string) *element.Template {
	return c.Template(e, name, e.Str(name))
}

func (c *testCompiler) Static(t *element.Template) (string, bool) { return t.Raw(), t.Const() }
func (c *testCompiler) Fail(_ *jmx.Element, err error)            { c.errs = append(c.errs, err) }
func (c *testCompiler) Refuse(e *jmx.Element, reason string) {
	c.errs = append(c.errs, errors.New(e.Class+": "+reason))
}
func (c *testCompiler) Warn(*jmx.Element, string) {}

// fnCompiler returns a compiler for templates alone, with properties and
// the plan folder testdata/data.
func fnCompiler(props map[string]string) *testCompiler {
	p := element.NewPlan("testdata/data/plan.jmx", "testdata/data", element.NewProps(props), nil)
	return &testCompiler{Compiler: NewCompiler(p, Table(nil))}
}

// fnVU returns virtual user n of a thread group called "TG", once every
// template has been compiled; the users of one compiler share a run.
func fnVU(c *testCompiler, n int, vars map[string]string) *element.VU {
	if c.run == nil {
		c.run = element.NewRun(c.Plan(), 42, func(error) {}, func(error) {})
	}
	g := element.NewGroup(c.Plan())
	g.Name, g.Index = "TG", 1
	ctx := context.Background()
	vu := element.NewVU(c.Plan(), g, c.run, n, "TG 1-"+strconv.Itoa(n), ctx, ctx)
	vu.SamplerName, vu.Iteration = "Login", 1
	for k, v := range vars {
		vu.Vars.Put(k, v)
	}
	return vu
}

// evalOnce compiles src and evaluates it for one virtual user.
func evalOnce(t *testing.T, src string, vars, props map[string]string) (string, *element.VU) {
	t.Helper()
	c := fnCompiler(props)
	tpl, err := c.Compile(src)
	if err != nil {
		t.Fatalf("compile %q: %v", src, err)
	}
	vu := fnVU(c, 1, vars)
	return tpl.Eval(vu), vu
}

func TestTemplateParsing(t *testing.T) {
	vars := map[string]string{"x": "X", "a b": "AB", "tpl": "${x}!"}
	for _, tc := range []struct{ name, src, want string }{
		{"constant", "plain text", "plain text"},
		{"constant keeps backslashes", `a\,b\\c`, `a\,b\\c`},
		{"variable", "${x}", "X"},
		{"undefined stays", "${nope}", "${nope}"},
		{"variable with space", "${a b}", "AB"},
		{"text around", "<${x}>", "<X>"},
		{"two variables", "${x}${x}", "XX"},
		{"escaped only is kept raw", `\${x}`, `\${x}`},
		{"escaped with a function", `\${__P(p1)}${x}`, "${__P(p1)}X"},
		{"escaped comma", `a\,b${x}`, "a,bX"},
		{"backslashes", `a\b\\c${x}\d`, `a\b\cX\d`},
		{"unterminated drops ${", "abc${def", "abcdef"},
		{"dollar dollar", "$${x}", "$X"},
		{"function without parens", "${__threadNum}", "1"},
		{"nested call", "${__V(${__V(k)})}", "X"},
		{"comma splits inside parens", "${__V(a(b,c))}", "c)"},
		{"escaped comma argument", `${__split(a\,b;c,S,;)}|${S_1}`, "a,b;c|a,b"},
		{"name is trimmed before the call", "${ __P(p1)}", "1"},
		{"space before the paren is no call", "${__P (p1)}", "${__P (p1)}"},
		{"unknown name with parens is a variable", "${foo(1)}", "${foo(1)}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := map[string]string{"k": "x"}
			for k, s := range vars {
				v[k] = s
			}
			got, _ := evalOnce(t, tc.src, v, nil)
			if got != tc.want {
				t.Errorf("%q = %q, want %q", tc.src, got, tc.want)
			}
		})
	}
}

func TestTemplateRefusals(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"${__nosuch(1)}", "unknown function __nosuch"},
		{"${__P(a,b,c)}", "__P takes 1 to 2 arguments, got 3"},
		{"${__UUID(1)}", "__UUID takes 0 arguments"},
		{"${__P(x", "expected ) after the arguments"},
		{"${__jexl3(1 +)}", "JEXL expression"},
		{"${__javaScript(1 +)}", "JavaScript"},
		{"${__digest(MD4,x)}", "unknown algorithm"},
	} {
		c := fnCompiler(nil)
		_, err := c.Compile(tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one containing %q", tc.src, err, tc.want)
		}
	}
}

func TestFunctions(t *testing.T) {
	os.Setenv("TZ", "UTC")
	time.Local = time.UTC
	props := map[string]string{"p": " spaced ", "host": "h", "time.YMD": "yyyy/MM/dd"}
	vars := map[string]string{"x": "X", "n": "5", "tpl": "${x}!", "list": "a||c|"}
	for _, tc := range []struct {
		name, src, want string
		vars            map[string]string // variables set afterwards
	}{
		{"P", "${__P(host)}", "h", nil},
		{"P trims", "${__P(p)}", "spaced", nil},
		{"P default", "${__P(nope,dflt)}", "dflt", nil},
		{"P default 1", "${__P(nope)}", "1", nil},
		{"property", "${__property(host)}", "h", nil},
		{"property name default", "${__property(nope)}", "nope", nil},
		{"property var", "${__property(nope,V,d)}", "d", map[string]string{"V": "d"}},
		{"setProperty", "${__setProperty(host,H2,true)}${__P(host)}", "hH2", nil},
		{"isPropDefined", "${__isPropDefined(host)}${__isPropDefined(no)}", "truefalse", nil},
		{"threadNum", "${__threadNum}", "1", nil},
		{"threadGroupName", "${__threadGroupName}", "TG", nil},
		{"samplerName", "${__samplerName(S)}", "Login", map[string]string{"S": "Login"}},
		{"TestPlanName", "${__TestPlanName}", "plan.jmx", nil},
		{"Random one value", "${__Random(7,7,R)}", "7", map[string]string{"R": "7"}},
		{"numbers written in a text", "u${__threadNum}-${__Random(7,7)}|${__Random(-3,-3)}", "u1-7|-3", nil},
		{"Random saved, in a text", "r=${__Random(7,7,R)}!", "r=7!", map[string]string{"R": "7"}},
		{"Random saved under a blank name", "${__Random(7,7, )}x", "7x", nil},
		{"Random without bounds, in a text", "r=${__Random(9,1)}.", "r=.", nil},
		{"RandomString", "${__RandomString(5,a)}", "aaaaa", nil},
		{"counter per user", "${__counter(TRUE)}${__counter(TRUE,C)}", "11", map[string]string{"C": "1"}},
		{"counter global", "${__counter(FALSE)}", "1", nil},
		{"V", "${__V(x)}|${__V(nope)}|${__V(nope,d)}", "X|nope|d", nil},
		{"eval", "${__eval(${tpl})}", "X!", nil},
		{"evalVar", "${__evalVar(tpl)}|${__evalVar(nope)}", "X!|", nil},
		{"isVarDefined", "${__isVarDefined(x)}${__isVarDefined(nope)}", "truefalse", nil},
		{"intSum", "${__intSum(1,2,SUM)}|${__intSum(2147483647,1)}|${__intSum(1,2,3)}", "3|-2147483648|6", map[string]string{"SUM": "3"}},
		{"longSum", "${__longSum(2147483647,1,L)}", "2147483648", map[string]string{"L": "2147483648"}},
		{"split", "${__split(${list},S,|)}", "a||c|", map[string]string{"S_n": "4", "S_1": "a", "S_2": "?", "S_3": "c", "S_4": "?"}},
		{"split leading", "${__split(|a,T,|)}", "|a", map[string]string{"T_n": "1", "T_1": "a"}},
		{"split default comma", "${__split(a\\,b,U)}", "a,b", map[string]string{"U_n": "2", "U_2": "b"}},
		{"char", "${__char(65,0x42,#43,0103)}", "ABCC", nil},
		{"changeCase", "${__changeCase(abc)}|${__changeCase(ABC,lower)}|${__changeCase(abc d,CAPITALIZE,CC)}", "ABC|abc|Abc d", map[string]string{"CC": "Abc d"}},
		{"urlencode", "${__urlencode(a b&c=é*~)}", "a+b%26c%3D%C3%A9*%7E", nil},
		{"urldecode", "${__urldecode(a+b%26c%3D%C3%A9)}", "a b&c=é", nil},
		{"escapeHtml", `${__escapeHtml(<"é&>')}`, "&lt;&quot;&eacute;&amp;&gt;'", nil},
		{"unescapeHtml", "${__unescapeHtml(&lt;&eacute;&#65;&#x42;&amp;&foo;)}", "<éAB&&foo;", nil},
		{"escapeXml", "${__escapeXml(<a b='c'>&é</a>)}", "&lt;a b=&apos;c&apos;&gt;&amp;&#xe9;&lt;/a&gt;", nil},
		{"unescape", `${__unescape(a\\tb\\u0041)}`, "a\tbA", nil},
		{"escapeOroRegexpChars", "${__escapeOroRegexpChars(a.b[1])}", `a\.b\[1\]`, nil},
		{"digest", "${__digest(SHA-256,abc)}", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", nil},
		{"digest salt upper", "${__digest(MD5,a,bc,true,D)}", "900150983CD24FB0D6963F7D28E17F72", map[string]string{"D": "900150983CD24FB0D6963F7D28E17F72"}},
		{"base64", "${__base64Encode(hello)}|${__base64Decode(aGVsbG8=)}", "aGVsbG8=|hello", nil},
		{"dateTimeConvert millis", "${__dateTimeConvert(1700000000000,,yyyy-MM-dd HH:mm:ss)}", "2023-11-14 22:13:20", nil},
		{"dateTimeConvert formats", "${__dateTimeConvert(14/11/2023 10:13,dd/MM/yyyy HH:mm,yyyyMMdd'T'HHmm)}", "20231114T1013", nil},
		{"timeShift", "${__timeShift(yyyy-MM-dd,2023-01-31,P1D,,TS)}", "2023-02-01", map[string]string{"TS": "2023-02-01"}},
		{"timeShift millis", "${__timeShift(,1000,PT1M,)}", "61000", nil},
		{"timeShift negative", "${__timeShift(dd MMM yyyy HH:mm,01 Mar 2024 00:30,-PT1H,)}", "29 Feb 2024 23:30", nil},
		{"RandomDate one day", "${__RandomDate(yyyy-MM-dd,2020-02-29,2020-03-01,,RD)}", "2020-02-29", map[string]string{"RD": "2020-02-29"}},
		{"RandomDate format", "${__RandomDate(dd/MM/yyyy,01/01/2021,02/01/2021)}", "01/01/2021", nil},
		{"jexl3 arithmetic", "${__jexl3(1+2)}|${__jexl3(7/2)}|${__jexl3(7.0/2)}|${__jexl3(2*3.0)}", "3|3|3.5|6.0", nil},
		{"jexl3 coercion", `${__jexl3("5" == 5)}|${__jexl3("a" + 1)}|${__jexl3(${n} > 3)}`, "true|a1|true", nil},
		{"jexl3 vars", `${__jexl3(vars.get("x").toLowerCase() + vars.get("n"))}`, "x5", nil},
		{"jexl3 undefined", "${__jexl3(nothing)}", "", nil},
		{"jexl3 words", `${__jexl3(1 lt 2 and not (2 eq 3))}|${__jexl3("abc" =~ "a.c")}|${__jexl3(empty(""))}`, "true|true|true", nil},
		{"jexl3 string methods", `${__jexl3("abc".length())}|${__jexl3("a\,b".split("\,").size())}|${__jexl3("abc".substring(1))}`, "3|2|bc", nil},
		{"jexl3 threadName ctx", "${__jexl3(threadName + ctx.getThreadNum())}", "TG 1-10", nil},
		{"jexl3 var arg", "${__jexl3(2+2,J)}", "4", map[string]string{"J": "4"}},
		{"jexl2 ternary", `${__jexl2(vars.get("nope") == null ? "none" : "some")}`, "none", nil},
		{"javaScript", "${__javaScript(1+2)}|${__javaScript(1/2)}|${__javaScript(undefined)}|${__javaScript(null)}|${__javaScript(2*3.0)}", "3|0.5|undefined|null|6", nil},
		{"javaScript vars", `${__javaScript('a'+vars.get('x'))}|${__javaScript(vars.put('y'\,'Y'))}${y}|${__javaScript(threadName)}`, "aX|undefinedY|TG 1-1", nil},
		{"javaScript var arg", "${__javaScript(40+2,JS)}", "42", map[string]string{"JS": "42"}},
		{"machineName", "${__machineName(M)}", hostname(), map[string]string{"M": hostname()}},
		{"log", "${__log(hello)}|${__logn(hi)}", "hello|", nil},
		{"FileToString", "${__FileToString(lines.txt)}", "one\ntwo\n", nil},
		{"FileToString missing", "${__FileToString(nope.txt)}", "**ERR**", nil},
		{"StringFromFile", "${__StringFromFile(lines.txt)}${__StringFromFile(lines.txt,,)}", "oneone", map[string]string{"StringFromFile_": "one"}},
		{"CSVRead", "${__CSVRead(csvread.csv,0)}${__CSVRead(csvread.csv,1)}${__CSVRead(csvread.csv,next)}${__CSVRead(csvread.csv,0)}", "a1b1a2", nil},
		{"CSVRead alias", "${__CSVRead(csvread.csv,*F)}${__CSVRead(*F,2)}", "c1", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, vu := evalOnce(t, tc.src, vars, props)
			if got != tc.want {
				t.Errorf("%s = %q, want %q", tc.src, got, tc.want)
			}
			for k, want := range tc.vars {
				if v, _ := vu.Vars.Get(k); v != want {
					t.Errorf("variable %s = %q, want %q", k, v, want)
				}
			}
		})
	}
}

func hostname() string { h, _ := os.Hostname(); return h }

// TestFunctionsVary checks functions whose value is random or the time.
func TestFunctionsVary(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want *regexp.Regexp
	}{
		{"${__Random(1,10)}", regexp.MustCompile(`^([1-9]|10)$`)},
		{"${__RandomString(8,abc)}", regexp.MustCompile(`^[abc]{8}$`)},
		{"${__RandomString(3)}", regexp.MustCompile(`^.{3}$`)},
		{"${__UUID}", regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)},
		{"${__time()}", regexp.MustCompile(`^1\d{12}$`)},
		{"${__time(/1000)}", regexp.MustCompile(`^1\d{9}$`)},
		{"t=${__time()}&s=${__time( /1000 )}", regexp.MustCompile(`^t=1\d{12}&s=1\d{9}$`)},
		{"${__time(,T)}|${T}", regexp.MustCompile(`^(1\d{12})\|1\d{12}$`)},
		{"${__time(YMD)}", regexp.MustCompile(`^\d{8}$`)},
		{"${__time(yyyy-MM-dd'T'HH:mm:ss.SSSXXX)}", regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d)$`)},
		{"${__timeShift(yyyy-MM-dd,,P1D,,)}", regexp.MustCompile(`^\d{4}-\d\d-\d\d$`)},
		{"${__RandomDate(,,2099-12-31,,)}", regexp.MustCompile(`^20\d\d-\d\d-\d\d$`)},
		{"${__machineIP()}", regexp.MustCompile(`^[0-9a-f.:]+$`)},
	} {
		for range 20 {
			got, _ := evalOnce(t, tc.src, nil, nil)
			if !tc.want.MatchString(got) {
				t.Fatalf("%s = %q, want a match of %s", tc.src, got, tc.want)
			}
		}
	}
}

func TestCounterFunctionCountsPerUserAndGlobally(t *testing.T) {
	c := fnCompiler(nil)
	per, _ := c.Compile("${__counter(TRUE)}")
	glob, _ := c.Compile("${__counter(FALSE)}")
	a, b := fnVU(c, 1, nil), fnVU(c, 2, nil)
	var got []string
	for _, vu := range []*element.VU{a, b, a} {
		got = append(got, per.Eval(vu)+"/"+glob.Eval(vu))
	}
	if want := "1/1 1/2 2/3"; strings.Join(got, " ") != want {
		t.Errorf("counters = %v, want %s", got, want)
	}
}

func TestStringFromFileLoopsOverTheFile(t *testing.T) {
	c := fnCompiler(nil)
	tpl, _ := c.Compile("${__StringFromFile(lines.txt,L)}")
	vu := fnVU(c, 1, nil)
	var got []string
	for range 5 {
		got = append(got, tpl.Eval(vu))
	}
	if want := "one two one two one"; strings.Join(got, " ") != want {
		t.Errorf("lines = %v, want %s", got, want)
	}
}

func TestStringFromFileSequence(t *testing.T) {
	dir := t.TempDir()
	for i, s := range []string{"a\n", "b\nc\n"} {
		if err := os.WriteFile(filepath.Join(dir, "f"+strconv.Itoa(i+1)+".txt"), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := fnCompiler(nil)
	c.Plan().Dir = dir
	c.Plan().Files = files.New(files.Options{Dir: dir})
	tpl, _ := c.Compile("${__StringFromFile(f#'.txt',,1,2)}")
	vu := fnVU(c, 1, nil)
	var got []string
	for range 5 {
		got = append(got, tpl.Eval(vu))
	}
	if want := "a b c **ERR** **ERR**"; strings.Join(got, " ") != want {
		t.Errorf("lines = %v, want %s", got, want)
	}
}

func TestCSVReadRowsAreSharedAndPerUser(t *testing.T) {
	c := fnCompiler(nil)
	col, _ := c.Compile("${__CSVRead(csvread.csv,0)}")
	next, _ := c.Compile("${__CSVRead(csvread.csv,next)}")
	a, b := fnVU(c, 1, nil), fnVU(c, 2, nil)
	got := []string{col.Eval(a), col.Eval(b), col.Eval(a)}
	next.Eval(a)
	got = append(got, col.Eval(a), col.Eval(b))
	// a takes row 1, b row 2; after next, a takes row 3, then (wrapping) row 1 again later.
	if want := "a1 a2 a1 a3 a2"; strings.Join(got, " ") != want {
		t.Errorf("columns = %v, want %s", got, want)
	}
}

func TestEvalFunctionSeesVariablesNotKnownAtCompileTime(t *testing.T) {
	c := fnCompiler(nil)
	tpl, _ := c.Compile("${__evalVar(t)}")
	vu := fnVU(c, 1, nil)
	vu.Vars.Put("t", "<${late}>")
	vu.Vars.Put("late", "L")
	if got := tpl.Eval(vu); got != "<L>" {
		t.Errorf("evalVar = %q, want <L>", got)
	}
	vu.Vars.Put("late", "M")
	if got := tpl.Eval(vu); got != "<M>" {
		t.Errorf("evalVar (cached) = %q, want <M>", got)
	}
}

func TestTranslateJexl(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`a eq "eq" and b ne null`, `a == "eq" && b != nil`},
		{`x =~ 'a.*'`, `x  matches  'a.*'`},
		{`size(list) gt 2`, `__size(list) > 2`},
		{`vars.size`, `vars.size`},
	} {
		if got := translateJexl(tc.in); got != tc.want {
			t.Errorf("translateJexl(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCompileJavaScriptForConditions(t *testing.T) {
	c := fnCompiler(nil)
	e := &jmx.Element{Class: "IfController", Name: "If"}
	p, err := compileJavaScript(c, e, `"${x}" == "X" && ${n} > 2`)
	if err != nil {
		t.Fatal(err)
	}
	vu := fnVU(c, 1, map[string]string{"x": "X", "n": "3"})
	if got, err := p.eval(vu); err != nil || got != "true" {
		t.Errorf("eval = %q, %v; want true", got, err)
	}
	vu.Vars.Put("n", "1")
	if got, _ := p.eval(vu); got != "false" {
		t.Errorf("eval = %q; want false", got)
	}
	if _, err := compileJavaScript(c, e, "1 +"); err == nil {
		t.Error("a syntax error was accepted")
	}
}

// FuzzTemplate compiles and evaluates arbitrary field text: neither may
// panic. Run with: go test ./engine/internal/function -run XXX -fuzz FuzzTemplate
func FuzzTemplate(f *testing.F) {
	for _, s := range []string{"${x}", `a\,b${__P(p,${y})}`, "${__split(a|b,S,|)}", "abc${def", "${__V(a(b,c))}",
		"${__jexl3(1 + ${n})}", "${__javaScript('x'.length)}", "${__char(65)}${__intSum(1,2)}", `\${x}\\`, "${__time(yyyy)}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := fnCompiler(nil)
		tpl, err := c.Compile(s)
		if err != nil {
			return
		}
		if strings.Contains(s, "__StringFromFile") || strings.Contains(s, "__FileToString") || strings.Contains(s, "__CSVRead") || strings.Contains(s, "__log") {
			return // reads or writes outside the test
		}
		if strings.Contains(s, "__javaScript") && strings.ContainsAny(s, "wfd") {
			return // a script may loop for ever (while, for, do), as in JMeter
		}
		tpl.Eval(fnVU(c, 1, map[string]string{"n": "1"}))
	})
}

// ${__P(host)} keeps the value it read until a property is set, by this
// user or any other.
func TestPropertyFunctionSeesEverySet(t *testing.T) {
	c := fnCompiler(map[string]string{"host": "a"})
	get, _ := c.Compile("${__P(host,dflt)}")
	set, _ := c.Compile("${__setProperty(host,b)}")
	u1, u2 := fnVU(c, 1, nil), fnVU(c, 2, nil)
	var got []string
	got = append(got, get.Eval(u1), get.Eval(u2))
	set.Eval(u2)
	got = append(got, get.Eval(u1))
	c.Plan().Props.Set("host", " c ")
	got = append(got, get.Eval(u2))
	c.Plan().Props.Set("other", "x")
	got = append(got, get.Eval(u1))
	if want := "a a b c c"; strings.Join(got, " ") != want {
		t.Errorf("__P over the run = %v, want %s", got, want)
	}
}
