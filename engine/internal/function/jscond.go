package function

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/internal/cache"
	"github.com/gojm/gojm/jmx"
)

// The If Controller's JavaScript conditions. JMeter hands the condition, its
// ${…} already replaced, to a JavaScript engine and wants the text "true" or
// "false" back. gojm translates the part of JavaScript that conditions are
// written in into an expr program whose helper functions keep JavaScript's
// rules (loose == between a number and a string, truthiness of && and ||,
// string or number comparison): literals (numbers, 'strings', "strings",
// true, false, null, undefined, NaN, Infinity), parentheses, ! - +, * / %,
// + -, < <= > >=, == != === !==, && ||. Anything else (a method call, a
// property, a variable such as vars) is refused when the plan is compiled.

// jsCondition is one If Controller's condition.
type jsCondition struct {
	fixed *vm.Program                      // the condition has no ${…}: compiled once
	texts *cache.Func[string, *vm.Program] // conditions with ${…}, by text
}

// maxJSCache bounds the programs one condition keeps.
const maxJSCache = 256

// compileJSCondition checks a condition when the plan is compiled. Each
// ${…} is checked as a value standing where it stands (inside a string
// literal it is only text).
func compileJSCondition(t *element.Template) (*jsCondition, error) {
	j := &jsCondition{texts: cache.NewFunc(maxJSCache, compileJS)}
	if t.Const() {
		p, err := compileJS(strings.TrimSpace(t.Raw()))
		if err != nil {
			return nil, err
		}
		j.fixed = p
		return j, nil
	}
	var skel strings.Builder
	for _, p := range t.Parts() {
		if p.Kind == element.LitPart {
			skel.WriteString(p.Lit)
		} else {
			skel.WriteString("0")
		}
	}
	if _, err := translateJS(strings.TrimSpace(skel.String())); err != nil {
		return nil, err
	}
	return j, nil
}

// eval evaluates the condition's text (its ${…} replaced).
func (j *jsCondition) eval(src string) (bool, error) {
	p := j.fixed
	if p == nil {
		var err error
		if p, err = j.texts.Get(src); err != nil {
			return false, err
		}
	}
	out, err := expr.Run(p, nil)
	if err != nil {
		return false, err
	}
	switch jsToString(out) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("BAD CONDITION :: %s :: expected true or false", src)
}

func compileJS(src string) (*vm.Program, error) {
	x, err := translateJS(src)
	if err != nil {
		return nil, err
	}
	p, err := expr.Compile(x, jsFunctions...)
	if err != nil {
		return nil, fmt.Errorf("translating %q: %w", src, err)
	}
	return p, nil
}

// translateJS turns a JavaScript condition into expr source.
func translateJS(src string) (string, error) {
	toks, err := jsTokens(src)
	if err != nil {
		return "", err
	}
	p := &jsParser{toks: toks}
	if len(toks) == 0 {
		return "", errors.New("empty condition")
	}
	out, err := p.expr(0)
	if err != nil {
		return "", err
	}
	if p.peek().kind == jsSemi {
		p.pos++
	}
	if t := p.peek(); t.kind != jsEOF {
		return "", fmt.Errorf("unsupported JavaScript at %q", t.text)
	}
	return out, nil
}

type jsTokKind uint8

const (
	jsEOF jsTokKind = iota
	jsNum
	jsStr
	jsIdent
	jsOp
	jsLParen
	jsRParen
	jsSemi
)

type jsTok struct {
	kind jsTokKind
	text string  // operator or identifier; raw text for errors
	str  string  // string literal value
	num  float64 // number literal value
}

var jsOps = []string{"===", "!==", "==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "+", "-", "*", "/", "%"}

func jsTokens(s string) ([]jsTok, error) {
	var out []jsTok
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '(':
			out = append(out, jsTok{kind: jsLParen, text: "("})
			i++
		case c == ')':
			out = append(out, jsTok{kind: jsRParen, text: ")"})
			i++
		case c == ';':
			out = append(out, jsTok{kind: jsSemi, text: ";"})
			i++
		case c == '"' || c == '\'':
			v, n, err := jsString(s[i:])
			if err != nil {
				return nil, err
			}
			out = append(out, jsTok{kind: jsStr, text: s[i : i+n], str: v})
			i += n
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			v, n, err := jsNumber(s[i:])
			if err != nil {
				return nil, err
			}
			out = append(out, jsTok{kind: jsNum, text: s[i : i+n], num: v})
			i += n
		case c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(s) && (s[j] == '_' || s[j] == '$' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			out = append(out, jsTok{kind: jsIdent, text: s[i:j]})
			i = j
		default:
			op := ""
			for _, o := range jsOps {
				if strings.HasPrefix(s[i:], o) {
					op = o
					break
				}
			}
			if op == "" {
				if c == '.' {
					return nil, fmt.Errorf("unsupported JavaScript: property or method access at %q", s[i:])
				}
				r, _ := utf8.DecodeRuneInString(s[i:])
				return nil, fmt.Errorf("unsupported JavaScript at %q", string(r))
			}
			out = append(out, jsTok{kind: jsOp, text: op})
			i += len(op)
		}
	}
	return out, nil
}

// jsString reads a quoted literal, returning its value and length.
func jsString(s string) (string, int, error) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); {
		c := s[i]
		switch {
		case c == q:
			return b.String(), i + 1, nil
		case c == '\n':
			return "", 0, errors.New("unterminated string literal")
		case c == '\\' && i+1 < len(s):
			e := s[i+1]
			i += 2
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'v':
				b.WriteByte('\v')
			case '0':
				b.WriteByte(0)
			case '\n':
			case 'x', 'u':
				n := 2
				if e == 'u' {
					n = 4
				}
				if i+n > len(s) {
					return "", 0, errors.New("bad escape in string literal")
				}
				v, err := strconv.ParseUint(s[i:i+n], 16, 32)
				if err != nil {
					return "", 0, errors.New("bad escape in string literal")
				}
				b.WriteRune(rune(v))
				i += n
			default:
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
			i++
		}
	}
	return "", 0, errors.New("unterminated string literal")
}

// jsNumber reads a numeric literal, returning its value and length.
func jsNumber(s string) (float64, int, error) {
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		j := 2
		for j < len(s) && strings.IndexByte("0123456789abcdefABCDEF", s[j]) >= 0 {
			j++
		}
		v, err := strconv.ParseUint(s[2:j], 16, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("bad number %q", s[:j])
		}
		return float64(v), j, nil
	}
	j := 0
	digits := func() {
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
	}
	digits()
	if j < len(s) && s[j] == '.' {
		j++
		digits()
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && s[k] >= '0' && s[k] <= '9' {
			j = k
			digits()
		}
	}
	if j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] == '.') {
		return 0, 0, fmt.Errorf("unsupported JavaScript at %q", s[:j+1])
	}
	v, err := strconv.ParseFloat(s[:j], 64)
	if err != nil {
		return 0, 0, fmt.Errorf("bad number %q", s[:j])
	}
	return v, j, nil
}

type jsParser struct {
	toks []jsTok
	pos  int
}

func (p *jsParser) peek() jsTok {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return jsTok{kind: jsEOF, text: "end of condition"}
}

// jsBinary are the binary operators by precedence (higher binds tighter)
// and the helper each becomes.
var jsBinary = map[string]struct {
	prec int
	fn   string
}{
	"||": {1, "jsOr"}, "&&": {2, "jsAnd"},
	"==": {3, "jsEq"}, "!=": {3, "jsNe"}, "===": {3, "jsSeq"}, "!==": {3, "jsSne"},
	"<": {4, "jsLt"}, "<=": {4, "jsLe"}, ">": {4, "jsGt"}, ">=": {4, "jsGe"},
	"+": {5, "jsAdd"}, "-": {5, "jsSub"},
	"*": {6, "jsMul"}, "/": {6, "jsDiv"}, "%": {6, "jsMod"},
}

// expr parses operators binding tighter than min, left to right.
func (p *jsParser) expr(min int) (string, error) {
	left, err := p.unary()
	if err != nil {
		return "", err
	}
	for {
		t := p.peek()
		op, ok := jsBinary[t.text]
		if t.kind != jsOp || !ok || op.prec <= min {
			return left, nil
		}
		p.pos++
		right, err := p.expr(op.prec)
		if err != nil {
			return "", err
		}
		left = op.fn + "(" + left + ", " + right + ")"
	}
}

func (p *jsParser) unary() (string, error) {
	t := p.peek()
	if t.kind == jsOp && (t.text == "!" || t.text == "-" || t.text == "+") {
		p.pos++
		x, err := p.unary()
		if err != nil {
			return "", err
		}
		fn := map[string]string{"!": "jsNot", "-": "jsNeg", "+": "jsPos"}[t.text]
		return fn + "(" + x + ")", nil
	}
	return p.primary()
}

func (p *jsParser) primary() (string, error) {
	t := p.peek()
	p.pos++
	switch t.kind {
	case jsNum:
		return jsFloatLiteral(t.num), nil
	case jsStr:
		return strconv.Quote(t.str), nil
	case jsLParen:
		x, err := p.expr(0)
		if err != nil {
			return "", err
		}
		if p.peek().kind != jsRParen {
			return "", fmt.Errorf("missing ) before %q", p.peek().text)
		}
		p.pos++
		return "(" + x + ")", nil
	case jsIdent:
		if p.peek().kind == jsLParen {
			return "", fmt.Errorf("unsupported JavaScript: function call %s(…)", t.text)
		}
		switch t.text {
		case "true", "false":
			return t.text, nil
		case "null":
			return "nil", nil
		case "undefined":
			return "jsUndefined()", nil
		case "NaN":
			return "jsNaN()", nil
		case "Infinity":
			return "jsInf()", nil
		}
		return "", fmt.Errorf("unsupported JavaScript: the name %q (gojm evaluates literals and operators only)", t.text)
	case jsEOF:
		return "", errors.New("the condition ends too early")
	}
	p.pos--
	return "", fmt.Errorf("unsupported JavaScript at %q", t.text)
}

func jsFloatLiteral(f float64) string {
	if math.IsInf(f, 0) {
		return "jsInf()"
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// JavaScript values in the helpers: float64, string, bool, nil (null) and
// jsUndef (undefined).
type jsUndef struct{}

var jsFunctions = func() []expr.Option {
	one := func(f func(any) any) func(...any) (any, error) {
		return func(a ...any) (any, error) { return f(jsValue(a[0])), nil }
	}
	two := func(f func(a, b any) any) func(...any) (any, error) {
		return func(a ...any) (any, error) { return f(jsValue(a[0]), jsValue(a[1])), nil }
	}
	num := func(f func(x, y float64) float64) func(...any) (any, error) {
		return two(func(a, b any) any { return f(jsToNumber(a), jsToNumber(b)) })
	}
	cmp := func(f func(c int) bool) func(...any) (any, error) {
		return two(func(a, b any) any {
			c, ok := jsCompare(a, b)
			return ok && f(c)
		})
	}
	fs := map[string]func(...any) (any, error){
		"jsOr":  two(func(a, b any) any { return jsPick(jsTruthy(a), a, b) }),
		"jsAnd": two(func(a, b any) any { return jsPick(jsTruthy(a), b, a) }),
		"jsEq":  two(func(a, b any) any { return jsLooseEq(a, b) }),
		"jsNe":  two(func(a, b any) any { return !jsLooseEq(a, b) }),
		"jsSeq": two(func(a, b any) any { return jsStrictEq(a, b) }),
		"jsSne": two(func(a, b any) any { return !jsStrictEq(a, b) }),
		"jsLt":  cmp(func(c int) bool { return c < 0 }),
		"jsLe":  cmp(func(c int) bool { return c <= 0 }),
		"jsGt":  cmp(func(c int) bool { return c > 0 }),
		"jsGe":  cmp(func(c int) bool { return c >= 0 }),
		"jsAdd": two(func(a, b any) any {
			_, as := a.(string)
			_, bs := b.(string)
			if as || bs {
				return jsToString(a) + jsToString(b)
			}
			return jsToNumber(a) + jsToNumber(b)
		}),
		"jsSub":       num(func(x, y float64) float64 { return x - y }),
		"jsMul":       num(func(x, y float64) float64 { return x * y }),
		"jsDiv":       num(func(x, y float64) float64 { return x / y }),
		"jsMod":       num(math.Mod),
		"jsNot":       one(func(a any) any { return !jsTruthy(a) }),
		"jsNeg":       one(func(a any) any { return -jsToNumber(a) }),
		"jsPos":       one(func(a any) any { return jsToNumber(a) }),
		"jsUndefined": func(...any) (any, error) { return jsUndef{}, nil },
		"jsNaN":       func(...any) (any, error) { return math.NaN(), nil },
		"jsInf":       func(...any) (any, error) { return math.Inf(1), nil },
	}
	var opts []expr.Option
	for name, f := range fs {
		opts = append(opts, expr.Function(name, f))
	}
	return opts
}()

func jsPick(c bool, a, b any) any {
	if c {
		return a
	}
	return b
}

// jsValue normalises what expr hands over (ints from literals never occur:
// numbers are emitted as floats, but be safe).
func jsValue(a any) any {
	switch v := a.(type) {
	case int:
		return float64(v)
	case int64:
		return float64(v)
	}
	return a
}

func jsTruthy(a any) bool {
	switch v := a.(type) {
	case bool:
		return v
	case float64:
		return v != 0 && !math.IsNaN(v)
	case string:
		return v != ""
	}
	return false // null, undefined
}

// jsToNumber is JavaScript's ToNumber.
func jsToNumber(a any) float64 {
	switch v := a.(type) {
	case float64:
		return v
	case bool:
		if v {
			return 1
		}
		return 0
	case nil:
		return 0
	case string:
		s := strings.TrimSpace(v)
		switch s {
		case "":
			return 0
		case "Infinity", "+Infinity":
			return math.Inf(1)
		case "-Infinity":
			return math.Inf(-1)
		}
		if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
			if n, err := strconv.ParseUint(s[2:], 16, 64); err == nil {
				return float64(n)
			}
			return math.NaN()
		}
		if strings.ContainsAny(s, "xXnN_iI") { // Go accepts "inf", "nan", "0x1p3", "1_000"
			return math.NaN()
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
	}
	return math.NaN()
}

// jsToString is JavaScript's ToString for the values of the subset.
func jsToString(a any) string {
	switch v := a.(type) {
	case string:
		return v
	case bool:
		return strconv.FormatBool(v)
	case nil:
		return "null"
	case jsUndef:
		return "undefined"
	case float64:
		switch {
		case math.IsNaN(v):
			return "NaN"
		case math.IsInf(v, 1):
			return "Infinity"
		case math.IsInf(v, -1):
			return "-Infinity"
		case v == math.Trunc(v) && math.Abs(v) < 1e21:
			return strconv.FormatFloat(v, 'f', -1, 64)
		}
		s := strconv.FormatFloat(v, 'g', -1, 64)
		return strings.Replace(s, "e+0", "e+", 1)
	}
	return fmt.Sprint(a)
}

func jsStrictEq(a, b any) bool {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case nil:
		return b == nil
	case jsUndef:
		_, ok := b.(jsUndef)
		return ok
	}
	return false
}

// jsLooseEq is JavaScript's == for the subset's values.
func jsLooseEq(a, b any) bool {
	nullish := func(v any) bool {
		_, u := v.(jsUndef)
		return v == nil || u
	}
	switch {
	case nullish(a) || nullish(b):
		return nullish(a) && nullish(b)
	case sameKind(a, b):
		return jsStrictEq(a, b)
	}
	return jsToNumber(a) == jsToNumber(b)
}

func sameKind(a, b any) bool {
	switch a.(type) {
	case float64:
		_, ok := b.(float64)
		return ok
	case string:
		_, ok := b.(string)
		return ok
	case bool:
		_, ok := b.(bool)
		return ok
	}
	return false
}

// jsCompare orders two values as < does: strings by code units when both
// are strings, numbers otherwise; ok is false when either is NaN.
func jsCompare(a, b any) (int, bool) {
	x, xs := a.(string)
	y, ys := b.(string)
	if xs && ys {
		return strings.Compare(x, y), true
	}
	m, n := jsToNumber(a), jsToNumber(b)
	switch {
	case math.IsNaN(m) || math.IsNaN(n):
		return 0, false
	case m < n:
		return -1, true
	case m > n:
		return 1, true
	}
	return 0, true
}

// condition is a JavaScript condition (an If Controller's): as an expr
// program when it translates, else for the JavaScript engine.
type Condition struct {
	expr   *jsCondition
	engine *jsProgram
}

// newCondition compiles t, a field of e holding a JavaScript condition.
func NewCondition(c element.Builder, e *jmx.Element, t *element.Template) (*Condition, error) {
	if js, err := compileJSCondition(t); err == nil {
		return &Condition{expr: js}, nil
	}
	p, err := compileJSEngine(c, e, t)
	if err != nil {
		return nil, err
	}
	return &Condition{engine: p}, nil
}

// eval evaluates the condition whose text, its ${…} replaced, is src.
func (c *Condition) Eval(vu *element.VU, src string) (bool, error) {
	if c.expr != nil {
		return c.expr.eval(src)
	}
	return evalJSEngine(vu, c.engine, src)
}

// compileJSEngine prepares a condition for the JavaScript engine. A
// condition with ${…} is checked with each reference as a name, since its
// text is known only when it runs.
func compileJSEngine(c element.Builder, e *jmx.Element, t *element.Template) (*jsProgram, error) {
	if t.Const() {
		return compileJavaScript(c, e, strings.TrimSpace(t.Raw()))
	}
	var skel strings.Builder
	for _, p := range t.Parts() {
		if p.Kind == element.LitPart {
			skel.WriteString(p.Lit)
		} else {
			skel.WriteString("_")
		}
	}
	if _, err := compileJavaScript(c, e, strings.TrimSpace(skel.String())); err != nil {
		return nil, err
	}
	return &jsProgram{src: t}, nil
}

// evalJSEngine runs a condition whose text is src on the JavaScript engine
// and wants JMeter's "true" or "false" back.
func evalJSEngine(vu *element.VU, p *jsProgram, src string) (bool, error) {
	prog := p.prog
	if prog == nil {
		var err error
		if prog, err = jsPrograms.Get(src); err != nil {
			return false, err
		}
	}
	out, err := runJS(vu, prog)
	if err != nil {
		return false, err
	}
	switch out {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("BAD CONDITION :: %s :: expected true or false", src)
}
