// Command gen extracts the Groovy and BeanShell scripts of the corpus
// plans into corpus.json, the table that engine/script's tests run and
// record.sh records with the real interpreters.
//
//	go run ./engine/testdata/script/gen -corpus ../shared/corpus/jmx -out engine/testdata/script/corpus.json
//
// Each script element (JSR223, BeanShell and BSF elements in Groovy,
// BeanShell or Java) and each ${__groovy(…)} and ${__BeanShell(…)} call is
// one case; identical scripts of the same kind of element are one case
// with the count of their occurrences. ${…} in a script is replaced as
// JMeter would before running it, with the case's input variables from
// inputs.json and fixed values for functions whose value changes.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gojm/gojm/jmx"
)

// Case is one script of the table.
type Case struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Element string `json:"element"` // test class, or __groovy / __BeanShell
	Lang    string `json:"lang"`    // groovy, beanshell, java, javascript…
	// Script is the text as the plan has it; Text the text run, ${…} replaced.
	Script     string   `json:"script"`
	Text       string   `json:"text"`
	Filename   string   `json:"filename,omitempty"`
	Parameters string   `json:"parameters,omitempty"`
	Count      int      `json:"count"`
	Plans      []string `json:"plans"`
	Disabled   bool     `json:"disabled,omitempty"`
	// Inputs are the case's entry in inputs.json: variables, objects,
	// properties and the previous sample the script sees.
	Inputs json.RawMessage `json:"inputs,omitempty"`
}

// Inputs are the part of a case's inputs (see inputs.json) the
// substitution of ${…} reads.
type Inputs struct {
	Vars map[string]string `json:"vars"`
}

// fixed are the values of functions whose value changes, as the table
// uses them.
var fixed = map[string]string{
	"__UUID":           "3f2d6a4e-8c1b-4d2a-9e57-0b6c1f2a7d94",
	"__UUID()":         "3f2d6a4e-8c1b-4d2a-9e57-0b6c1f2a7d94",
	"__time()":         "1700000000000",
	"__time(,)":        "1700000000000",
	"__counter(FALSE)": "1",
	"__counter(TRUE)":  "1",
}

func main() {
	corpus := flag.String("corpus", "../shared/corpus/jmx", "folder of the corpus plans")
	out := flag.String("out", "engine/testdata/script/corpus.json", "table to write")
	inputsFile := flag.String("inputs", "engine/testdata/script/inputs.json", "input variables by case")
	flag.Parse()
	inputs := map[string]Inputs{}
	raw := map[string]json.RawMessage{}
	if b, err := os.ReadFile(*inputsFile); err == nil {
		if err := json.Unmarshal(b, &inputs); err != nil {
			log.Fatalf("%s: %v", *inputsFile, err)
		}
		if err := json.Unmarshal(b, &raw); err != nil {
			log.Fatalf("%s: %v", *inputsFile, err)
		}
	}
	files, err := filepath.Glob(filepath.Join(*corpus, "*.jmx"))
	if err != nil {
		log.Fatal(err)
	}
	sort.Strings(files)
	var cases []*Case
	byKey := map[string]*Case{}
	ids := map[string]int{}
	add := func(plan, element, lang, name, script, filename, params string, disabled bool) {
		stem := strings.TrimSuffix(filepath.Base(plan), ".jmx")
		id := stem + "#" + name
		ids[id]++
		if n := ids[id]; n > 1 {
			id = fmt.Sprintf("%s#%d", id, n)
		}
		key := element + "\x00" + lang + "\x00" + script + "\x00" + filename
		if c, ok := byKey[key]; ok {
			c.Count++
			if c.Plans[len(c.Plans)-1] != stem {
				c.Plans = append(c.Plans, stem)
			}
			return
		}
		c := &Case{ID: id, Name: name, Element: element, Lang: lang, Script: script, Filename: filename, Parameters: params,
			Count: 1, Plans: []string{stem}, Disabled: disabled, Inputs: raw[id]}
		c.Text = substitute(script, inputs[id].Vars)
		byKey[key] = c
		cases = append(cases, c)
	}
	for _, f := range files {
		p, err := jmx.Load(f)
		if err != nil {
			log.Printf("%s: %v (skipped)", f, err)
			continue
		}
		var walk func(e *jmx.Element, disabled bool)
		walk = func(e *jmx.Element, disabled bool) {
			for _, k := range e.All {
				d := disabled || k.Disabled
				if lang, script, filename, params, ok := scriptOf(k); ok {
					add(f, k.Class, lang, k.Name, script, filename, params, d)
				}
				for _, pr := range k.Props {
					scanFunctions(pr, func(fn, arg string) {
						lang := "groovy"
						if fn == "__BeanShell" {
							lang = "beanshell"
						}
						add(f, fn, lang, k.Name+" "+fn, arg, "", "", d)
					})
				}
				walk(k, d)
			}
		}
		walk(p.Root, false)
	}
	b, err := json.MarshalIndent(cases, "", "  ")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, append(b, '\n'), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d cases from %d plans\n", len(cases), len(files))
}

// scriptOf reads a script element's language, text, file and parameters.
func scriptOf(e *jmx.Element) (lang, script, filename, params string, ok bool) {
	c := e.Class
	switch {
	case strings.HasPrefix(c, "JSR223"):
		lang = strings.ToLower(e.Str("scriptLanguage"))
		if lang == "" {
			lang = "groovy"
		}
		return lang, e.Str("script"), e.Str("filename"), e.Str("parameters"), true
	case strings.HasPrefix(c, "BeanShell"):
		prefix := ""
		switch c {
		case "BeanShellSampler":
			prefix = "BeanShellSampler."
		case "BeanShellAssertion":
			prefix = "BeanShellAssertion."
		}
		if prefix != "" {
			return "beanshell", e.Str(prefix + "query"), e.Str(prefix + "filename"), e.Str(prefix + "parameters"), true
		}
		return "beanshell", e.Str("script"), e.Str("filename"), e.Str("parameters"), true
	case strings.HasPrefix(c, "BSF"):
		lang = strings.ToLower(e.StrOr("scriptLanguage", e.Str("BSFSampler.language")))
		script = e.StrOr("script", e.Str("BSFSampler.query"))
		return lang, script, e.StrOr("filename", e.Str("BSFSampler.filename")), e.StrOr("parameters", e.Str("BSFSampler.parameters")), true
	}
	return "", "", "", "", false
}

// scanFunctions finds ${__groovy(…)} and ${__BeanShell(…)} calls in a
// property and its members, giving each call's first argument.
func scanFunctions(p *jmx.Prop, f func(fn, arg string)) {
	for _, fn := range []string{"__groovy", "__BeanShell"} {
		s := p.Value
		for {
			i := strings.Index(s, "${"+fn+"(")
			if i < 0 {
				break
			}
			rest := s[i+len(fn)+3:]
			arg, n := firstArg(rest)
			f(fn, arg)
			s = rest[n:]
		}
	}
	for _, m := range p.Props {
		scanFunctions(m, f)
	}
}

// firstArg reads a function's first argument: up to an unescaped comma or
// the closing parenthesis, ${…} nested.
func firstArg(s string) (string, int) {
	var b strings.Builder
	depth, parens := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			b.WriteByte(s[i+1])
			i++
			continue
		case c == '$' && i+1 < len(s) && s[i+1] == '{':
			depth++
		case c == '}' && depth > 0:
			depth--
		case c == '(' && depth == 0:
			parens++
		case c == ')' && depth == 0 && parens > 0:
			parens--
		case (c == ',' || c == ')') && depth == 0:
			return b.String(), i
		}
		b.WriteByte(c)
	}
	return b.String(), len(s)
}

// substitute replaces ${…} as JMeter does before a script runs: a
// variable by its value (left as written when undefined), a function by
// the table's fixed value.
func substitute(s string, vars map[string]string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		if i > 0 && s[i-1] == '\\' {
			b.WriteString(s[:i+2])
			s = s[i+2:]
			continue
		}
		b.WriteString(s[:i])
		depth, j := 0, i
		for ; j < len(s); j++ {
			if s[j] == '{' {
				depth++
			} else if s[j] == '}' {
				depth--
				if depth == 0 {
					break
				}
			}
		}
		if j >= len(s) {
			b.WriteString(s[i:])
			return b.String()
		}
		ref := s[i+2 : j]
		switch v, ok := vars[ref]; {
		case ok:
			b.WriteString(v)
		case fixed[ref] != "":
			b.WriteString(fixed[ref])
		default:
			b.WriteString(s[i : j+1])
		}
		s = s[j+1:]
	}
}
