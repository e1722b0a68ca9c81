package extract

//lint:file-ignore ST1005 some error texts here are JMeter's (or Java's) own, word for word: they end up in results files, where plans and JMeter's users compare them

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/response"
	"github.com/gojm/gojm/jmx"
)

// JSON extractors: JMeter's JSON Extractor (JSONPostProcessor) and the
// older jp@gc JSON Path Extractor, over the documents and JSONPath of
// response.go's JSON reading.

// JSON Extractor ----------------------------------------------------------

// jsonExtract is one variable of a JSON Extractor.
type jsonExtract struct {
	ref     *element.Template
	path    *response.JSONPathField
	def     *element.Template
	number  int
	matchNr string // ref_matchNr, made once when the name is constant
}

func (v *jsonExtract) matchNrName(ref string) string {
	if v.matchNr != "" {
		return v.matchNr
	}
	return ref + matchNrSuffix
}

type jsonExtractor struct {
	name   string
	scope  response.Scope
	vars   []jsonExtract
	concat bool
	bad    error // a malformed match number: the extractor does nothing
}

// splitJava is Java's String.split(";"): trailing empty pieces dropped
// unless keepTrailing (split(";", -1)).
func splitJava(s string, keepTrailing bool) []string {
	parts := strings.Split(s, ";")
	if !keepTrailing {
		for len(parts) > 1 && parts[len(parts)-1] == "" {
			parts = parts[:len(parts)-1]
		}
	}
	return parts
}

func BuildJSON(c element.Builder, e *jmx.Element) (element.PostProcessor, error) {
	names := splitJava(e.Str("JSONPostProcessor.referenceNames"), false)
	paths := splitJava(e.Str("JSONPostProcessor.jsonPathExprs"), false)
	defs := splitJava(e.Str("JSONPostProcessor.defaultValues"), true)
	if len(names) != len(paths) || len(names) != len(defs) {
		return nil, errors.New("Mismatch between number of variables, json expressions and default values")
	}
	x := &jsonExtractor{name: e.Name, scope: response.ReadScope(c, e), concat: e.Bool("JSONPostProcessor.compute_concat", false)}
	numbers := make([]int, len(defs))
	if m := e.Str("JSONPostProcessor.match_numbers"); strings.TrimSpace(m) != "" {
		for i, s := range strings.Split(m, ";") {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			switch {
			case err != nil:
				x.bad = fmt.Errorf("match number %q is not a number", s)
			case i >= len(numbers):
				x.bad = errors.New("more match numbers than variables")
			default:
				numbers[i] = n
			}
		}
	}
	if x.bad != nil {
		// JMeter's extractor throws each time it runs and sets nothing.
		c.Plan().Log.Warn("the element will fail each time it runs", "element", e.Path(), "error", x.bad)
	}
	for i := range paths {
		pf := response.NewJSONPathField(c, e, c.Template(e, "JSONPostProcessor.jsonPathExprs", strings.TrimSpace(paths[i])))
		v := jsonExtract{
			ref:    c.Template(e, "JSONPostProcessor.referenceNames", strings.TrimSpace(names[i])),
			path:   pf,
			def:    c.Template(e, "JSONPostProcessor.defaultValues", defs[i]),
			number: numbers[i],
		}
		if v.ref.Const() {
			v.matchNr = v.ref.Raw() + matchNrSuffix
		}
		x.vars = append(x.vars, v)
	}
	return x, nil
}

func (x *jsonExtractor) PostProcess(vu *element.VU, r *element.Result) {
	if x.bad != nil {
		vu.Warnf("JSON Extractor %q: %v", x.name, x.bad)
		return
	}
	// Each document is read as far as the paths need, once for all of them.
	var buf [1]response.JSONDoc
	docs := buf[:0]
	var bad error
	hasInput := false
	if x.scope.Kind == response.ScopeVariable {
		hasInput = true
		if s, ok := vu.Vars.Get(x.scope.Var.Eval(vu)); ok {
			docs = append(docs, response.JSONDoc{Text: s})
		} else {
			bad = errors.New("the variable is not defined")
		}
	} else {
		var views [1]response.View
		for _, t := range x.scope.Samples(r, views[:0]) {
			s := response.BodyString(t.Body)
			if strings.TrimSpace(s) == "" {
				continue
			}
			hasInput = true
			docs = append(docs, response.JSONDoc{Text: s})
		}
	}
	for i := range x.vars {
		v := &x.vars[i]
		ref, def := v.ref.Eval(vu), v.def.Eval(vu)
		nrName := v.matchNrName(ref)
		vu.Vars.Remove(nrName)
		for n := 1; ; n++ {
			name := nthName(ref, n)
			if _, ok := vu.Vars.Get(name); !ok {
				break
			}
			vu.Vars.Remove(name)
		}
		if !hasInput {
			vu.Vars.Put(ref, def)
			continue
		}
		path, err := v.path.Get(vu)
		var buf [2]any
		found := buf[:0]
		if err == nil {
			err = bad
			for j := range docs {
				var derr error
				if found, derr = path.AppendAll(found, &docs[j]); derr != nil {
					err = derr // the last document that is not JSON, as JMeter's loop leaves it
				}
			}
		}
		if err != nil {
			vu.Warnf("JSON Extractor %q: %v", x.name, err)
			vu.Vars.Put(ref, def)
			continue
		}
		x.save(vu, ref, nrName, def, v.number, found)
	}
}

// save stores the values found for one variable as JMeter's
// JSONPostProcessor does; nrName is ref_matchNr.
func (x *jsonExtractor) save(vu *element.VU, ref, nrName, def string, number int, found []any) {
	str := func(v any) string {
		if v == nil {
			return def
		}
		return response.JavaString(v)
	}
	switch {
	case len(found) == 0:
		vu.Vars.Put(ref, def)
		vu.Vars.Put(nrName, "0")
		if number < 0 && x.concat {
			vu.Vars.Put(ref+"_ALL", "")
		}
		return
	case len(found) == 1:
		name := ref
		if number < 0 {
			name = nthName(ref, 1)
		}
		putVar(vu, name, str(found[0]))
		if number < 0 && x.concat {
			putVar(vu, ref+"_ALL", str(found[0]))
		}
	case number < 0:
		var all strings.Builder
		for i, v := range found {
			s := str(v)
			putVar(vu, nthName(ref, i+1), s)
			if x.concat {
				if i > 0 {
					all.WriteByte(',')
				}
				all.WriteString(s)
			}
		}
		if x.concat {
			vu.Vars.Put(ref+"_ALL", all.String())
		}
	case number == 0:
		putVar(vu, ref, str(found[vu.Rand.IntN(len(found))]))
	case number > len(found):
		vu.Vars.Put(ref, def)
	default:
		putVar(vu, ref, str(found[number-1]))
	}
	if number != 0 {
		vu.Vars.Put(nrName, strconv.Itoa(len(found)))
	}
}

// jp@gc JSON Path Extractor -------------------------------------------------

type pluginJSONExtractor struct {
	name    string
	parse   func(string) (any, error) // the input format's reader, nil for JSON
	ref     *element.Template
	path    *response.JSONPathField
	def     *element.Template
	fromVar bool
	src     *element.Template
}

func BuildPluginJSON(c element.Builder, e *jmx.Element) (element.PostProcessor, error) {
	parse, err := response.PluginInput(e)
	if err != nil {
		return nil, err
	}
	pf := response.NewJSONPathField(c, e, c.Prop(e, "JSONPATH"))
	return &pluginJSONExtractor{
		name:    e.Name,
		parse:   parse,
		ref:     c.Prop(e, "VAR"),
		path:    pf,
		def:     c.Prop(e, "DEFAULT"),
		fromVar: e.Str("SUBJECT") == "VAR",
		src:     c.Prop(e, "VARIABLE"),
	}, nil
}

func (x *pluginJSONExtractor) PostProcess(vu *element.VU, r *element.Result) {
	ref := x.ref.Eval(vu)
	var in string
	ok := true
	if x.fromVar {
		in, ok = vu.Vars.Get(x.src.Eval(vu))
	} else {
		in = response.BodyString(r.Body)
	}
	clear := func() {
		for k := 1; ; k++ {
			n := nthName(ref, k)
			if _, ok := vu.Vars.Get(n); !ok {
				return
			}
			vu.Vars.Remove(n)
		}
	}
	fail := func(err error) {
		vu.Warnf("jp@gc JSON Path Extractor %q: %v", x.name, err)
		vu.Vars.Put(ref, x.def.Eval(vu))
		vu.Vars.Put(ref+matchNrSuffix, "0")
		clear()
	}
	if !ok {
		fail(errors.New("the source variable is not defined"))
		return
	}
	// The path is read first: its walk checks the document on the way, and
	// a document that is not JSON still fails first.
	doc := response.JSONDoc{Text: in, Parse: x.parse}
	path, perr := x.path.Get(vu)
	var v any
	var err error
	if perr == nil {
		v, err = path.ReadDoc(&doc)
	}
	for _, e := range []error{doc.Err(), perr, err} {
		if e != nil {
			fail(e)
			return
		}
	}
	arr, isArr := v.([]any)
	if !isArr {
		putVar(vu, ref, response.PluginString(v))
		return
	}
	if len(arr) == 0 {
		fail(errors.New("Extracted array is empty"))
		return
	}
	putVar(vu, ref, response.PluginString(v))
	vu.Vars.Put(ref+matchNrSuffix, strconv.Itoa(len(arr)))
	clear()
	for n, e := range arr {
		putVar(vu, nthName(ref, n+1), response.PluginString(e))
	}
}
