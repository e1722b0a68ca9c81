package assert

//lint:file-ignore ST1005 some error texts here are JMeter's (or Java's) own, word for word: they end up in results files, where plans and JMeter's users compare them

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/response"
	"github.com/gojm/gojm/jmx"
)

// JSON assertions: JMeter's JSON Assertion (JSONPathAssertion) and the
// older jp@gc JSON Path Assertion, which differ in how they compare values
// and in their messages.

type jsonAssertion struct {
	path     *response.JSONPathField
	expected *element.Template
	validate bool
	isNull   bool
	invert   bool
	regex    *response.RegexField // nil unless "Match as regular expression"
	plugin   bool                 // the jp@gc flavour
	want     any                  // a constant expected value, read once
	// parse reads a YAML document (the jp@gc flavour's input format
	// YAML); nil reads JSON.
	parse func(string) (any, error)
}

func BuildJSON(c element.Builder, e *jmx.Element) (element.Assertion, error) {
	return newJSONAssertion(c, e, false, nil)
}

func BuildPluginJSON(c element.Builder, e *jmx.Element) (element.Assertion, error) {
	parse, err := response.PluginInput(e)
	if err != nil {
		return nil, err
	}
	return newJSONAssertion(c, e, true, parse)
}

func newJSONAssertion(c element.Builder, e *jmx.Element, plugin bool, parse func(string) (any, error)) (element.Assertion, error) {
	pf := response.NewJSONPathField(c, e, c.Prop(e, "JSON_PATH"))
	a := &jsonAssertion{
		path:     pf,
		expected: c.Prop(e, "EXPECTED_VALUE"),
		validate: e.Bool("JSONVALIDATION", false),
		isNull:   e.Bool("EXPECT_NULL", false),
		invert:   e.Bool("INVERT", false),
		plugin:   plugin,
		parse:    parse,
	}
	if a.expected.Const() {
		a.want = lenientJSON(a.expected.Raw())
	}
	if e.Bool("ISREGEX", true) {
		rf, err := response.NewRegexField(a.expected, true)
		if err != nil {
			return nil, err
		}
		a.regex = rf
	}
	// Neither flavour is a scoped assertion: it always judges the main sample.
	return &assertNode{name: e.Name, scope: response.ScopeParent, check: a}, nil
}

func (a *jsonAssertion) check(vu *element.VU, t response.View) Verdict {
	body := response.BodyString(t.Body)
	if body == "" {
		return responseWasNull()
	}
	err := a.doAssert(vu, body)
	if !a.invert {
		if err != nil {
			return Failed(err.Error())
		}
		return passedWith("")
	}
	if err != nil {
		return passedWith("")
	}
	path := a.path.Source.Eval(vu)
	switch {
	case a.validate && a.isNull:
		return Failed("Failed that JSONPath " + path + " not matches null")
	case a.validate:
		return Failed("Failed that JSONPath " + path + " not matches " + a.expected.Eval(vu))
	}
	return Failed("Failed that JSONPath not exists: " + path)
}

// doAssert returns nil when the assertion holds, else the failure message.
func (a *jsonAssertion) doAssert(vu *element.VU, body string) error {
	// The path is read first: its walk checks the document on the way, and
	// a document that is not JSON still fails first, as in JMeter.
	doc := response.JSONDoc{Text: body, Parse: a.parse}
	path, perr := a.path.Get(vu)
	var value any
	var err error
	if perr == nil {
		value, err = path.ReadDoc(&doc)
	}
	if err := doc.Err(); err != nil {
		if a.parse != nil {
			return err
		}
		return fmt.Errorf("net.minidev.json.parser.ParseException: %s", strings.TrimPrefix(err.Error(), response.ErrNotJSON.Error()+": "))
	}
	if perr != nil {
		return perr
	}
	if err != nil {
		return err
	}
	expected := a.expected.Eval(vu)
	if !a.validate {
		if arr, ok := value.([]any); ok && !a.plugin && len(arr) == 0 && !path.Definite {
			return fmt.Errorf("JSONPath '%s' is indefinite and the extracted Value is an empty Array. Please use an assertion value, to be sure to get a correct result. Expected value was '%s'", path.Source, expected)
		}
		return nil
	}
	if arr, ok := value.([]any); ok {
		if a.arrayMatched(vu, arr, expected) {
			return nil
		}
	} else if a.isNull && value == nil || a.equals(vu, value, expected) {
		return nil
	}
	// Both flavours print values through the same objectToString.
	shown := response.PluginString
	if a.isNull {
		if a.plugin {
			return fmt.Errorf("Value expected to be null, but found '%s'", response.JavaString(value))
		}
		return fmt.Errorf("Value in json path '%s' expected to be null, but found '%s'", path.Source, response.JavaString(value))
	}
	switch {
	case a.plugin && a.regex != nil:
		return fmt.Errorf("Value expected to match regexp '%s', but it did not match: '%s'", expected, shown(value))
	case a.plugin:
		return fmt.Errorf("Value expected to be '%s', but found '%s'", expected, shown(value))
	case a.regex != nil:
		return fmt.Errorf("Value in json path '%s' expected to match regexp '%s', but it did not match: '%s'", path.Source, expected, shown(value))
	}
	return fmt.Errorf("Value in json path '%s' expected to be '%s', but found '%s'", path.Source, expected, shown(value))
}

func (a *jsonAssertion) arrayMatched(vu *element.VU, arr []any, expected string) bool {
	if len(arr) == 0 && expected == "[]" {
		return true
	}
	for _, v := range arr {
		if v == nil && a.isNull || a.equals(vu, v, expected) {
			return true
		}
	}
	return a.equals(vu, arr, expected)
}

// equals compares a value with the expected text: as a regular expression
// on its text, as text (jp@gc), or as JSON values (JMeter's assertion,
// through json-smart's lenient parser and Java's equals).
func (a *jsonAssertion) equals(vu *element.VU, v any, expected string) bool {
	if a.regex != nil {
		re, _, err := a.regex.Get(vu)
		if err != nil {
			return false
		}
		return re.MatchString(response.PluginString(v))
	}
	if a.plugin {
		return response.PluginString(v) == expected
	}
	want := a.want
	if !a.expected.Const() {
		want = lenientJSON(expected)
	}
	return javaEquals(want, v)
}

// lenientJSON reads an expected value as json-smart's permissive
// JSONValue.parse does, for the common cases: JSON when it is JSON, the
// trimmed text itself when it is a bare word, else null.
func lenientJSON(s string) any {
	t := strings.TrimSpace(s)
	if d := (response.JSONDoc{Text: t}); d.Valid() {
		v, _ := d.Tree()
		return v
	}
	if t == "" || strings.ContainsAny(t[:1], "{[\"") {
		return nil
	}
	if strings.HasPrefix(t, "'") && strings.HasSuffix(t, "'") && len(t) >= 2 {
		return t[1 : len(t)-1]
	}
	return t
}

// javaEquals is Objects.equals over json-smart values: numbers equal only
// within the same Java type.
func javaEquals(x, y any) bool {
	switch a := x.(type) {
	case nil:
		return y == nil
	case string:
		b, ok := y.(string)
		return ok && a == b
	case bool:
		b, ok := y.(bool)
		return ok && a == b
	case int64:
		b, ok := y.(int64)
		return ok && a == b && response.JavaClass(a) == response.JavaClass(b)
	case float64:
		b, ok := y.(float64)
		return ok && a == b
	case json.Number:
		b, ok := y.(json.Number)
		return ok && a == b
	case []any:
		b, ok := y.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !javaEquals(a[i], b[i]) {
				return false
			}
		}
		return true
	case *response.Object:
		b, ok := y.(*response.Object)
		if !ok || len(a.Keys()) != len(b.Keys()) {
			return false
		}
		for _, k := range a.Keys() {
			av, _ := a.ValueForKey(k)
			bv, ok := b.ValueForKey(k)
			if !ok || !javaEquals(av, bv) {
				return false
			}
		}
		return true
	}
	return false
}
