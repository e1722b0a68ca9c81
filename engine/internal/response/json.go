package response

//lint:file-ignore ST1005 some error texts here are JMeter's (or Java's) own, word for word: they end up in results files, where plans and JMeter's users compare them

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/internal/java"
	"github.com/gojm/gojm/jmx"
	"github.com/ohler55/ojg/jp"
)

// JSON documents and JSONPath, as JMeter's JSON extractors and assertions
// read them. JMeter evaluates JSONPath with Jayway's library over
// json-smart values; gojm evaluates it with ojg's jp package over values
// that keep the document's key order (as json-smart's LinkedHashMap does),
// and writes values back as Java would: numbers through Double.toString,
// objects through json-smart (slashes escaped, top-level keys in
// java.util.HashMap order).

// jobj is a JSON object that keeps its keys in document order. It satisfies
// ojg's jp.Keyed, so JSONPath wildcards and deep scans see keys in order.
type Object struct {
	keys []string
	vals []any
	idx  map[string]int // built for larger objects
}

func (o *Object) find(k string) int {
	if o.idx != nil {
		if i, ok := o.idx[k]; ok {
			return i
		}
		return -1
	}
	for i, key := range o.keys {
		if key == k {
			return i
		}
	}
	return -1
}

// ValueForKey implements jp.Keyed.
func (o *Object) ValueForKey(k string) (any, bool) {
	if i := o.find(k); i >= 0 {
		return o.vals[i], true
	}
	return nil, false
}

// SetValueForKey implements jp.Keyed; a repeated key keeps its first place.
func (o *Object) SetValueForKey(k string, v any) {
	if i := o.find(k); i >= 0 {
		o.vals[i] = v
		return
	}
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, v)
	if o.idx != nil {
		o.idx[k] = len(o.keys) - 1
	} else if len(o.keys) > 16 {
		o.idx = make(map[string]int, len(o.keys))
		for i, key := range o.keys {
			o.idx[key] = i
		}
	}
}

// RemoveValueForKey implements jp.Keyed.
func (o *Object) RemoveValueForKey(k string) {
	i := o.find(k)
	if i < 0 {
		return
	}
	o.keys = append(o.keys[:i], o.keys[i+1:]...)
	o.vals = append(o.vals[:i], o.vals[i+1:]...)
	if o.idx != nil {
		delete(o.idx, k)
		for j := i; j < len(o.keys); j++ {
			o.idx[o.keys[j]] = j
		}
	}
}

// Keys implements jp.Keyed.
func (o *Object) Keys() []string { return o.keys }

// errJSON is a document that is not JSON.
var ErrNotJSON = errors.New("not a JSON document")

// parseJSON reads a JSON document into *jobj, []any, string, int64,
// float64, json.Number (integers beyond int64), bool and nil.
func ParseJSON(s string) (any, error) {
	p := jsonParser{s: s}
	p.ws()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i < len(p.s) {
		return nil, p.errorf("unexpected character (%c)", p.s[p.i])
	}
	return v, nil
}

type jsonParser struct {
	s string
	i int
}

func (p *jsonParser) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format+" at position %d", append([]any{ErrNotJSON}, append(args, p.i)...)...)
}

func (p *jsonParser) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) value(depth int) (any, error) {
	if depth > 1000 {
		return nil, p.errorf("nested too deep")
	}
	if p.i >= len(p.s) {
		return nil, p.errorf("unexpected end")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		p.i++
		o := &Object{}
		p.ws()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return o, nil
		}
		for {
			p.ws()
			if p.i >= len(p.s) || p.s[p.i] != '"' {
				return nil, p.errorf("expected a key")
			}
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			p.ws()
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return nil, p.errorf("expected ':'")
			}
			p.i++
			p.ws()
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			o.SetValueForKey(k, v)
			p.ws()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				return o, nil
			}
			return nil, p.errorf("expected ',' or '}'")
		}
	case c == '[':
		p.i++
		a := []any{}
		p.ws()
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return a, nil
		}
		for {
			p.ws()
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
			p.ws()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == ']' {
				p.i++
				return a, nil
			}
			return nil, p.errorf("expected ',' or ']'")
		}
	case c == '"':
		return p.str()
	case c == 't' && strings.HasPrefix(p.s[p.i:], "true"):
		p.i += 4
		return true, nil
	case c == 'f' && strings.HasPrefix(p.s[p.i:], "false"):
		p.i += 5
		return false, nil
	case c == 'n' && strings.HasPrefix(p.s[p.i:], "null"):
		p.i += 4
		return nil, nil
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	default:
		r, _ := utf8.DecodeRuneInString(p.s[p.i:])
		return nil, p.errorf("unexpected character (%c)", r)
	}
}

// number reads a number: an int64, a json.Number beyond int64, or a
// float64.
func (p *jsonParser) number() (any, error) {
	text, isFloat := p.numberText()
	if !isFloat {
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			return n, nil
		}
		if text == "-" {
			return nil, p.errorf("bad number")
		}
		return json.Number(text), nil
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return nil, p.errorf("bad number %s", text)
	}
	return f, nil
}

// numberOK moves past a number as number does, without its value.
func (p *jsonParser) numberOK() bool {
	text, isFloat := p.numberText()
	if !isFloat {
		return text != "-"
	}
	_, err := strconv.ParseFloat(text, 64)
	return err == nil
}

// numberText moves past the characters of a number.
func (p *jsonParser) numberText() (text string, isFloat bool) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c >= '0' && c <= '9' {
			p.i++
		} else if c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-' {
			isFloat = true
			p.i++
		} else {
			break
		}
	}
	return p.s[start:p.i], isFloat
}

func (p *jsonParser) str() (string, error) {
	p.i++ // opening quote
	start := p.i
	for p.i < len(p.s) && p.s[p.i] != '"' && p.s[p.i] != '\\' {
		p.i++
	}
	if p.i < len(p.s) && p.s[p.i] == '"' {
		p.i++
		return p.s[start : p.i-1], nil
	}
	var b strings.Builder
	b.WriteString(p.s[start:p.i])
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c == '\\' && p.i+1 < len(p.s):
			p.i++
			switch e := p.s[p.i]; e {
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				if p.i+4 >= len(p.s) {
					return "", p.errorf("bad \\u escape")
				}
				n, err := strconv.ParseUint(p.s[p.i+1:p.i+5], 16, 16)
				if err != nil {
					return "", p.errorf("bad \\u escape")
				}
				p.i += 4
				r := rune(n)
				if utf16.IsSurrogate(r) && p.i+6 < len(p.s) && p.s[p.i+1] == '\\' && p.s[p.i+2] == 'u' {
					if m, err := strconv.ParseUint(p.s[p.i+3:p.i+7], 16, 16); err == nil {
						if d := utf16.DecodeRune(r, rune(m)); d != utf8.RuneError {
							r = d
							p.i += 6
						}
					}
				}
				b.WriteRune(r)
			default:
				b.WriteByte(e)
			}
			p.i++
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return "", p.errorf("unterminated string")
}

// Writing values as Java does -------------------------------------------

// javaDecimal is java.text.DecimalFormat("#.#") with at least one and at
// most 340 fraction digits: plain notation, as the JSON assertions print
// doubles.
func javaDecimal(f float64) string {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// javaString is Java's toString of an extracted JSON value (JSONManager and
// JSONPostProcessor): strings as they are, numbers and booleans as Java
// prints them, objects and arrays as json-smart writes them.
func JavaString(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case json.Number:
		return string(x)
	case float64:
		return java.DoubleString(x)
	case bool:
		return strconv.FormatBool(x)
	case *Object:
		var b strings.Builder
		writeJSONObject(&b, x, true)
		return b.String()
	case []any:
		var b strings.Builder
		writeJSON(&b, x)
		return b.String()
	}
	return fmt.Sprint(v)
}

// pluginString is the jp@gc plugins' objectToString: like javaString but
// doubles in plain notation.
func PluginString(v any) string {
	if f, ok := v.(float64); ok {
		return javaDecimal(f)
	}
	return JavaString(v)
}

func writeJSON(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case string:
		b.WriteByte('"')
		escapeJSON4Web(b, x)
		b.WriteByte('"')
	case *Object:
		writeJSONObject(b, x, false)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, e)
		}
		b.WriteByte(']')
	default:
		b.WriteString(JavaString(v))
	}
}

// writeJSONObject writes an object as json-smart does. The extracted object
// itself is copied into a java.util.HashMap (net.minidev.json.JSONObject)
// before it is written, so its keys come in HashMap order; objects inside it
// keep the document's order.
func writeJSONObject(b *strings.Builder, o *Object, top bool) {
	b.WriteByte('{')
	order := func(i int) int { return i }
	var perm []int
	if top {
		perm = java.HashMapOrder(o.keys)
		order = func(i int) int { return perm[i] }
	}
	for i := range o.keys {
		j := order(i)
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		escapeJSON4Web(b, o.keys[j])
		b.WriteString(`":`)
		writeJSON(b, o.vals[j])
	}
	b.WriteByte('}')
}

// escapeJSON4Web escapes a string as json-smart's default style does:
// quotes, backslashes, control characters, '/' and the ranges
// U+007F–U+009F and U+2000–U+20FF.
func escapeJSON4Web(b *strings.Builder, s string) {
	const hexd = "0123456789ABCDEF"
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '/':
			b.WriteString(`\/`)
		default:
			if r <= 0x1F || r >= 0x7F && r <= 0x9F || r >= 0x2000 && r <= 0x20FF {
				b.WriteString(`\u`)
				b.WriteByte(hexd[r>>12&0xF])
				b.WriteByte(hexd[r>>8&0xF])
				b.WriteByte(hexd[r>>4&0xF])
				b.WriteByte(hexd[r&0xF])
			} else {
				b.WriteRune(r)
			}
		}
	}
}

// JSONPath ----------------------------------------------------------------

// jsonPath is a compiled JSONPath expression in Jayway's dialect.
type JSONPath struct {
	Source   string
	expr     jp.Expr
	Definite bool
	fn       string // a trailing Jayway function: length, size, min, max…
	// steps are a definite path's keys and indexes, followed through the
	// text when lazy (jsondoc.go); a negative index needs the tree.
	steps []step
	lazy  bool
}

// jaywayFuncs are the path functions Jayway accepts at the end of a path.
var jaywayFuncs = map[string]bool{"length": true, "size": true, "min": true, "max": true, "avg": true,
	"stddev": true, "sum": true, "keys": true, "first": true, "last": true}

// compileJSONPath compiles a Jayway path. As Jayway does, a path that does
// not start with '$' or '@' is taken relative to the root.
func CompileJSONPath(src string) (*JSONPath, error) {
	p := strings.TrimSpace(src)
	if !strings.HasPrefix(p, "$") && !strings.HasPrefix(p, "@") {
		p = "$." + p
	}
	jpth := &JSONPath{Source: src}
	if strings.HasSuffix(p, ")") {
		if i := strings.LastIndex(p, "."); i > 0 {
			name, rest, ok := strings.Cut(p[i+1:], "(")
			if ok && jaywayFuncs[name] && strings.TrimSpace(strings.TrimSuffix(rest, ")")) == "" {
				jpth.fn = name
				p = p[:i]
			}
		}
	}
	x, err := jp.ParseString(p)
	if err != nil {
		return nil, fmt.Errorf("JSONPath %q: %w", src, err)
	}
	jpth.expr = x
	jpth.Definite, jpth.lazy = true, true
	for _, f := range x {
		switch k := f.(type) {
		case jp.Root, jp.At, jp.Bracket:
		case jp.Child:
			jpth.steps = append(jpth.steps, step{key: string(k)})
		case jp.Nth:
			jpth.steps = append(jpth.steps, step{nth: int(k), isNth: true})
			jpth.lazy = jpth.lazy && k >= 0
		default:
			jpth.Definite, jpth.lazy = false, false
		}
	}
	if !jpth.lazy {
		jpth.steps = nil
	}
	return jpth, nil
}

// jsonPathField is a JSONPath field of an element: compiled once when
// constant, on each use otherwise.
type JSONPathField struct {
	Source *element.Template
	p      *JSONPath
	err    error
}

// newJSONPathField compiles a path field. A constant path that does not
// compile fails each time the element runs, as in JMeter (an extractor
// falls back to its default, an assertion fails); the plan still runs, with
// a warning now.
func NewJSONPathField(c element.Builder, e *jmx.Element, t *element.Template) *JSONPathField {
	f := &JSONPathField{Source: t}
	if t.Const() {
		f.p, f.err = CompileJSONPath(t.Raw())
		if f.err != nil {
			c.Plan().Log.Warn("the element will fail each time it runs", "element", e.Path(), "error", f.err)
		}
	}
	return f
}

func (f *JSONPathField) Get(vu *element.VU) (*JSONPath, error) {
	if f.p != nil || f.err != nil {
		return f.p, f.err
	}
	return CompileJSONPath(f.Source.Eval(vu))
}

// all returns every value the path selects (Jayway's ALWAYS_RETURN_LIST);
// a path ending in a function selects nothing there (Jayway refuses
// functions with that option, and JMeter's extractor falls back to its
// default value).
func (p *JSONPath) All(doc any) []any {
	if p.fn != "" {
		return nil
	}
	if p.Definite {
		v, err := p.walk(doc)
		if err != nil {
			return nil
		}
		return []any{v}
	}
	return p.expr.Get(doc)
}

// read is Jayway's JsonPath.read with the default configuration: the value
// of a definite path (an error when it is missing), the list of values of an
// indefinite one, or a function's result.
func (p *JSONPath) Read(doc any) (any, error) {
	var v any
	if p.Definite {
		w, err := p.walk(doc)
		if err != nil {
			return nil, err
		}
		v = w
	} else {
		v = p.expr.Get(doc)
		if v.([]any) == nil {
			v = []any{}
		}
	}
	if p.fn == "" {
		return v, nil
	}
	return jaywayFunction(p.fn, v, p.Source)
}

// walk follows a definite path, failing with Jayway's messages.
func (p *JSONPath) walk(doc any) (any, error) {
	cur := doc
	path := "$"
	for i, f := range p.expr {
		leaf := i == len(p.expr)-1
		switch k := f.(type) {
		case jp.Root, jp.At:
		case jp.Child:
			o, ok := cur.(*Object)
			if !ok {
				return nil, fmt.Errorf("Expected to find an object with property ['%s'] in path %s but found '%s'. This is not a json object according to the JsonProvider: 'com.jayway.jsonpath.spi.json.JsonSmartJsonProvider'.", string(k), path, JavaClass(cur))
			}
			next := path + "['" + string(k) + "']"
			v, ok := o.ValueForKey(string(k))
			if !ok {
				if leaf {
					return nil, errors.New("No results for path: " + p.jaywayString())
				}
				return nil, errors.New("Missing property in path " + next)
			}
			cur, path = v, next
		case jp.Nth:
			a, ok := cur.([]any)
			if !ok {
				return nil, fmt.Errorf("Filter: [%d] can only be applied to arrays. Current context is: %s", int(k), JavaString(cur))
			}
			n := int(k)
			if n < 0 {
				n += len(a)
			}
			if n < 0 || n >= len(a) {
				return nil, errors.New("No results for path: " + p.jaywayString())
			}
			cur, path = a[n], path+"["+strconv.Itoa(int(k))+"]"
		case jp.Bracket:
		}
	}
	return cur, nil
}

// jaywayString renders the path as Jayway's Path.toString does.
func (p *JSONPath) jaywayString() string {
	var b strings.Builder
	for _, f := range p.expr {
		switch k := f.(type) {
		case jp.Root:
			b.WriteByte('$')
		case jp.At:
			b.WriteByte('@')
		case jp.Child:
			b.WriteString("['" + string(k) + "']")
		case jp.Nth:
			b.WriteString("[" + strconv.Itoa(int(k)) + "]")
		case jp.Wildcard:
			b.WriteString("[*]")
		case jp.Descent:
			b.WriteString("..")
		case *jp.Filter:
			b.WriteString("[?]")
		case jp.Bracket:
		default:
			b.WriteString(fmt.Sprint(f))
		}
	}
	return b.String()
}

// javaClass names the Java class json-smart would hold a value in.
func JavaClass(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return "java.lang.String"
	case int64:
		if x >= math.MinInt32 && x <= math.MaxInt32 {
			return "java.lang.Integer"
		}
		return "java.lang.Long"
	case json.Number:
		return "java.math.BigInteger"
	case float64:
		return "java.lang.Double"
	case bool:
		return "java.lang.Boolean"
	case []any:
		return "net.minidev.json.JSONArray"
	case *Object:
		return "java.util.LinkedHashMap"
	}
	return "java.lang.Object"
}

// jaywayFunction applies a trailing path function to what the path read.
func jaywayFunction(fn string, v any, src string) (any, error) {
	switch fn {
	case "length", "size":
		switch x := v.(type) {
		case []any:
			return int64(len(x)), nil
		case *Object:
			return int64(len(x.keys)), nil
		case string:
			return int64(len(utf16.Encode([]rune(x)))), nil
		}
		return nil, fmt.Errorf("Aggregation function attempted to calculate value using empty array")
	case "keys":
		if o, ok := v.(*Object); ok {
			out := make([]any, len(o.keys))
			for i, k := range o.keys {
				out[i] = k
			}
			return out, nil
		}
		return nil, fmt.Errorf("Invalid function call for path %s", src)
	case "first", "last":
		a, ok := v.([]any)
		if !ok || len(a) == 0 {
			return nil, fmt.Errorf("Aggregation function attempted to calculate value using empty array")
		}
		if fn == "first" {
			return a[0], nil
		}
		return a[len(a)-1], nil
	}
	a, _ := v.([]any)
	var nums []float64
	for _, e := range a {
		switch n := e.(type) {
		case int64:
			nums = append(nums, float64(n))
		case float64:
			nums = append(nums, n)
		}
	}
	if len(nums) == 0 {
		return nil, errors.New("Aggregation function attempted to calculate value using empty array")
	}
	var sum, min, max float64 = 0, math.Inf(1), math.Inf(-1)
	for _, n := range nums {
		sum += n
		min = math.Min(min, n)
		max = math.Max(max, n)
	}
	switch fn {
	case "sum":
		return sum, nil
	case "min":
		return min, nil
	case "max":
		return max, nil
	case "avg":
		return sum / float64(len(nums)), nil
	}
	mean := sum / float64(len(nums))
	var sq float64
	for _, n := range nums {
		sq += (n - mean) * (n - mean)
	}
	return math.Sqrt(sq / float64(len(nums))), nil
}
