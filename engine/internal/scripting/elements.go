package scripting

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/expr-lang/expr/vm"

	"github.com/gojm/gojm/engine/internal/assert"
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/function"
	"github.com/gojm/gojm/engine/script"
	"github.com/gojm/gojm/internal/cache"
	"github.com/gojm/gojm/internal/files"
	"github.com/gojm/gojm/internal/java"
	"github.com/gojm/gojm/jmx"
	"github.com/gojm/gojm/report"
)

// Script elements: JSR223, BeanShell and BSF samplers, pre- and
// post-processors, assertions, timers and listeners. Groovy and BeanShell
// scripts are translated to JavaScript (package script) and run on pooled
// runtimes; JavaScript runs as written; JSR223's JEXL runs through the
// __jexl3 machinery. The script text's ${…} is replaced before it runs, as
// JMeter does; a script file (filename) is read once, relative to the plan.

// scriptFamily is the JMeter family of a script element: it decides the
// bindings and how errors read.
type scriptFamily uint8

const (
	famJSR223 scriptFamily = iota
	famBeanShell
	famBSF
)

// scriptElem is a compiled script element's script.
type scriptElem struct {
	name   string
	family scriptFamily
	lang   script.Dialect
	jexl   bool
	sp     *scriptPlan
	text   *element.Template // the script's text, ${…} to replace; nil from a file
	prog   *script.Program   // compiled once: a constant text or a file
	jexlP  *vm.Program
	params *element.Template
	file   string
	// empty: JSR223 and BSF refuse to run an empty script (an error each run).
	empty bool
	// missing is JMeter's exception for a script file that cannot be read,
	// the element's error each time it runs (missingFile).
	missing error
	// langName is the language as the plan names it, for messages.
	langName string
	// holeProg runs a text whose ${…} all stand in string literals: it
	// is compiled once, each run filling the holes with holes' values.
	holeProg *script.Program
	holes    []*element.Part
	// fresh keeps the programs of texts compiled at run time.
	fresh *cache.Func[string, *script.Program]
}

// freshPrograms holds the programs of an element's texts made at run time
// (its ${…} outside string literals, or values that are not plain text
// there), at most freshMax of them; the run holds their literals.
func (sp *scriptPlan) freshPrograms(d script.Dialect) *cache.Func[string, *script.Program] {
	return cache.NewFunc(freshMax, func(text string) (*script.Program, error) {
		p, err := script.CompileFresh(text, d)
		sp.lits.Hold(p)
		return p, err
	})
}

const freshMax = 64

// refusal is a script element gojm does not run, with the reason.
type refusal struct{ reason string }

func (r *refusal) Error() string { return r.reason }

// compileScript reads a script element: its language, its text or file,
// and compiles it when its text is constant. A script gojm cannot run
// comes back as a *refusal naming why.
func compileScript(c element.Builder, e *jmx.Element, fam scriptFamily) (*scriptElem, error) {
	sp := scriptsOf(c.Plan())
	s := &scriptElem{name: e.Name, family: fam, sp: sp}
	var textProp, fileProp, paramsProp, langName string
	switch fam {
	case famJSR223:
		textProp, fileProp, paramsProp = "script", "filename", "parameters"
		langName = strings.TrimSpace(e.Str("scriptLanguage"))
		if langName == "" {
			langName = "groovy"
		}
	case famBeanShell:
		prefix := ""
		switch e.Class {
		case "BeanShellSampler":
			prefix = "BeanShellSampler."
		case "BeanShellAssertion":
			prefix = "BeanShellAssertion."
		}
		textProp, fileProp, paramsProp = prefix+"query", prefix+"filename", prefix+"parameters"
		if prefix == "" {
			textProp, fileProp, paramsProp = "script", "filename", "parameters"
		}
		langName = "beanshell"
	case famBSF:
		textProp, fileProp, paramsProp = "script", "filename", "parameters"
		if !e.Has("script") && e.Has("BSFSampler.query") {
			textProp, fileProp, paramsProp = "BSFSampler.query", "BSFSampler.filename", "BSFSampler.parameters"
		}
		langName = strings.TrimSpace(e.StrOr("scriptLanguage", e.Str("BSFSampler.language")))
	}
	s.langName = langName
	if sp.noScripts {
		return nil, &refusal{"scripts are turned off (--no-scripts)"}
	}
	switch strings.ToLower(langName) {
	case "groovy":
		s.lang = script.Groovy
	case "beanshell", "bsh", "java":
		s.lang = script.BeanShell
	case "javascript", "js", "ecmascript", "nashorn", "rhino", "graal.js":
		s.lang = script.JavaScript
	case "jexl", "jexl2", "jexl3":
		if fam != famJSR223 {
			return nil, &refusal{"the script language " + langName}
		}
		s.jexl = true
	case "":
		return nil, &refusal{"a script element without a script language"}
	default:
		return nil, &refusal{"the script language " + langName + " (gojm runs Groovy, BeanShell, JavaScript and JEXL)"}
	}
	s.params = c.Prop(e, paramsProp)
	s.fresh = sp.freshPrograms(s.lang)
	if f := strings.TrimSpace(e.Str(fileProp)); f != "" {
		if strings.Contains(f, "${") {
			return nil, &refusal{"a script file named with ${…} (" + f + ")"}
		}
		found, err := c.Plan().Files.FindCode(f)
		if errors.Is(err, files.ErrDenied) {
			return nil, fmt.Errorf("the script file: %w", err)
		}
		if err != nil {
			s.missingFile(c, e, f, found.Named, err)
			return s, nil
		}
		if found.Where != "" {
			c.Warn(e, fmt.Sprintf("the script file %q is not there (%s): running the file of that name %s instead, %s", f, found.Named, found.Where, found.Path))
		}
		b, err := c.Plan().Files.ReadFile(found.Path)
		if err != nil {
			s.missingFile(c, e, f, found.Path, err)
			return s, nil
		}
		s.file = f
		if err := s.compileText(string(b)); err != nil {
			return nil, err
		}
		return s, nil
	}
	text := e.Str(textProp)
	if strings.TrimSpace(text) == "" {
		s.empty = fam != famBeanShell
		if !s.empty {
			s.text = c.Template(e, textProp, "")
		}
		return s, nil
	}
	t := c.Template(e, textProp, text)
	s.text = t
	if t.Const() {
		if err := s.compileText(t.Raw()); err != nil {
			return nil, err
		}
		return s, nil
	}
	// With ${…}: where each stands in a string literal, compile once with
	// holes; otherwise check the text with each ${…} as a neutral value
	// now, and compile the text each run makes.
	if !s.jexl && s.lang != script.JavaScript {
		var holed, skel strings.Builder
		var holes []*element.Part
		for i := range t.Parts() {
			p := &t.Parts()[i]
			if p.Kind == element.LitPart {
				holed.WriteString(p.Lit)
				skel.WriteString(p.Lit)
				continue
			}
			holed.WriteString(script.HoleMarker(len(holes)))
			skel.WriteString("0")
			holes = append(holes, p)
		}
		hp, err := script.CompileHoles(holed.String(), s.lang, len(holes))
		if err == nil {
			s.holeProg, s.holes = hp, holes
			sp.lits.Hold(hp)
			return s, nil
		}
		var se *script.Error
		if errors.As(err, &se) && se.Refused {
			return nil, s.refusal(err)
		}
		skp, err := script.CompileFresh(skel.String(), s.lang)
		if err != nil && errors.As(err, &se) && se.Refused {
			return nil, s.refusal(err)
		}
		sp.lits.Hold(skp) // the literals each text the run makes shares
	}
	return s, nil
}

func (s *scriptElem) refusal(err error) error {
	return &refusal{fmt.Sprintf("cannot translate its %s script, %v", s.langTitle(), err)}
}

func (s *scriptElem) langTitle() string {
	switch {
	case s.jexl:
		return "JEXL"
	case s.lang == script.Groovy:
		return "Groovy"
	case s.lang == script.BeanShell:
		return "BeanShell"
	}
	return "JavaScript"
}

// compileText compiles a constant script.
func (s *scriptElem) compileText(text string) error {
	if s.jexl {
		p, err := function.JEXLProgram(text)
		if err != nil {
			return &refusal{fmt.Sprintf("JEXL script: %v", err)}
		}
		s.jexlP = p
		return nil
	}
	p, err := script.Compile(text, s.lang)
	if err != nil {
		return s.refusal(err)
	}
	s.prog = p
	s.sp.lits.Hold(p)
	return nil
}

// uses reports whether the compiled script reads a binding; a script
// with ${…} is assumed to.
func (s *scriptElem) uses(name string) bool {
	if s.prog != nil {
		return s.prog.Uses(name)
	}
	if s.holeProg != nil {
		return s.holeProg.Uses(name)
	}
	return s.text != nil && !s.text.Const()
}

// missingFile makes an element whose script file cannot be read run as
// JMeter runs it: each time it runs the element's engine throws, JMeter
// logs the error, a sampler's sample fails with the exception as its
// message (code 500), an assertion fails with it, and the other elements
// do nothing. path is the file as the plan's name resolves.
func (s *scriptElem) missingFile(c element.Builder, e *jmx.Element, name, path string, err error) {
	abs, aerr := filepath.Abs(path)
	if aerr != nil {
		abs = path
	}
	switch s.family {
	case famJSR223:
		// JSR223TestElement.processFileOrScript.
		s.missing = errors.New("javax.script.ScriptException: Script file '" + abs + "' does not exist or is unreadable for element:" + s.name)
	case famBeanShell:
		// BeanShellInterpreter.source: the FileNotFoundException's message.
		s.missing = errors.New("org.apache.jorphan.util.JMeterException: Error invoking bsh method: source\t" + name + " (No such file or directory)")
	default:
		// BSFTestElement.processFileOrScript opens a FileInputStream.
		s.missing = errors.New("java.io.FileNotFoundException: " + name + " (No such file or directory)")
	}
	what := "it logs the error and does nothing"
	switch {
	case strings.HasSuffix(e.Class, "Sampler"):
		what = "each sample fails with JMeter's message (code 500)"
	case strings.HasSuffix(e.Class, "Assertion"):
		what = "each assertion fails with JMeter's message"
	}
	c.Warn(e, fmt.Sprintf("the script file %s cannot be read (%v): the element runs no script, as in JMeter, where %s each time it runs; add the file, or point filename at it", name, err, what))
}

// errEmptyScript is JMeter 5's error for a JSR223 or BSF element with
// neither a script nor a file.
func (s *scriptElem) errEmpty() error {
	return &script.ScriptError{Class: "javax.script.ScriptException", Message: "Both script file and script text are empty for element:" + s.name}
}

// run runs the script in env (whose Host is set) and returns its value.
func (s *scriptElem) run(vu *element.VU, env *script.Env) (script.Value, error) {
	if s.empty {
		return script.Value{}, s.errEmpty()
	}
	if s.missing != nil {
		return script.Value{}, s.missing
	}
	if s.jexl {
		return s.runJexl(vu, env)
	}
	p := s.prog
	if p == nil && s.holeProg != nil {
		st := s.sp.users.Get(vu)
		vals := st.holes[:0]
		plain := true
		for i, h := range s.holes {
			v := h.Eval(vu)
			if strings.ContainsAny(v, s.holeProg.Forbid(i)) {
				plain = false
			}
			vals = append(vals, v)
		}
		st.holes = vals
		if plain {
			env.Holes = vals
			return s.holeProg.Run(env)
		}
	}
	if p == nil {
		text := ""
		if s.text != nil {
			text = s.text.Eval(vu)
			s.sp.users.Get(vu).text = text
		}
		if strings.TrimSpace(text) == "" {
			return script.Value{Null: true}, nil
		}
		var err error
		if p, err = s.fresh.Get(text); err != nil {
			return script.Value{}, &script.ScriptError{Class: "gojm.ScriptError", Message: fmt.Sprintf("cannot translate the %s script, %v", s.langTitle(), err)}
		}
	}
	return p.Run(env)
}

func (s *scriptElem) runJexl(vu *element.VU, env *script.Env) (script.Value, error) {
	p := s.jexlP
	src := ""
	if p == nil {
		src = s.text.Eval(vu)
		s.sp.users.Get(vu).text = src
		var err error
		if p, err = function.JEXLProgram(src); err != nil {
			return script.Value{}, &script.ScriptError{Class: "javax.script.ScriptException", Message: err.Error()}
		}
	}
	out, err := s.sp.jexl.Get(vu).Run(p)
	if err != nil {
		return script.Value{}, &script.ScriptError{Class: "javax.script.ScriptException", Message: err.Error()}
	}
	if out == nil {
		return script.Value{Null: true}, nil
	}
	return script.Value{Text: function.JEXLText(out)}, nil
}

// errorText is an exception as the element reports it: JSR223 wraps
// script exceptions in javax.script.ScriptException; BeanShell's and
// gojm's own errors read as they are.
func (s *scriptElem) errorText(err error) string {
	var se *script.ScriptError
	if !errors.As(err, &se) {
		return err.Error()
	}
	if se.Timeout || se.Stopped || strings.HasPrefix(se.Class, "gojm.") {
		return se.Error()
	}
	switch {
	case s.family == famBeanShell || s.family == famBSF && s.lang == script.BeanShell:
		if strings.HasPrefix(se.Class, "bsh.") {
			return se.Error()
		}
		return "bsh.TargetError: " + se.Error()
	case s.family == famBSF:
		return "org.apache.bsf.BSFException: " + se.Error()
	case se.Class == "javax.script.ScriptException":
		return se.Error()
	}
	return "javax.script.ScriptException: " + se.Error()
}

// isAssertionError: Groovy's assert failed (an Error JMeter's thread
// turns into a failed assertion).
func isAssertionError(err error) (*script.ScriptError, bool) {
	var se *script.ScriptError
	if errors.As(err, &se) && (se.Class == "java.lang.AssertionError" || se.Class == "org.codehaus.groovy.runtime.powerassert.PowerAssertionError") {
		return se, true
	}
	return nil, false
}

// scriptParams evaluates the Parameters field.
func (s *scriptElem) paramsFor(vu *element.VU) string {
	if s.params == nil {
		return ""
	}
	return s.params.Eval(vu)
}

// previous is the virtual user's last sample (prev outside a sampler).
func previous(vu *element.VU) *element.Result {
	if vu.Res.Start.IsZero() && vu.Res.Label == "" {
		return nil
	}
	return &vu.Res
}

// compileOrRefuse compiles an element's script, refusing the element when
// gojm cannot run it (nil then).
func compileOrRefuse(c element.Builder, e *jmx.Element, fam scriptFamily) *scriptElem {
	s, err := compileScript(c, e, fam)
	if err != nil {
		var r *refusal
		if errors.As(err, &r) {
			c.Refuse(e, r.reason)
			return nil
		}
		c.Fail(e, err)
		return nil
	}
	warnFiles(c, e, s)
	for _, p := range []*script.Program{s.prog, s.holeProg} {
		if p == nil {
			continue
		}
		for _, w := range p.Warnings {
			c.Warn(e, fmt.Sprintf("its %s script, %s (JMeter logs the error; fix the script)", s.langTitle(), w))
		}
	}
	return s
}

func familyOf(class string) scriptFamily {
	switch {
	case strings.HasPrefix(class, "BeanShell"):
		return famBeanShell
	case strings.HasPrefix(class, "BSF"):
		return famBSF
	}
	return famJSR223
}

// ---- samplers -------------------------------------------------------------------

func BuildSampler(c element.Builder, e *jmx.Element, _ element.InScope) (element.Sampler, error) {
	fam := familyOf(e.Class)
	s := compileOrRefuse(c, e, fam)
	if s == nil {
		return element.SamplerFunc(func(_ *element.VU, r *element.Result) { r.None = true }), nil
	}
	if (s.prog != nil || s.holeProg != nil) && s.lang != script.JavaScript && s.uses("prev") {
		c.Refuse(e, "a sampler script reading prev (the previous sample): gojm does not keep it for samplers")
		return element.SamplerFunc(func(_ *element.VU, r *element.Result) { r.None = true }), nil
	}
	return s, nil
}

// sample is JSR223Sampler, BeanShellSampler and BSFSampler.sample.
func (s *scriptElem) Sample(vu *element.VU, r *element.Result) {
	st := s.sp.state(vu)
	defer st.done()
	st.timing = sampleTiming{start: time.Now()}
	r.Start = st.timing.start
	r.Success, r.Code, r.Message, r.DataType = true, "200", "OK", "text"
	env := st.newEnv(s.sp, s.name, s.paramsFor(vu))
	cur := &st.cur
	*cur = script.Result{Label: r.Label, Code: "200", Message: "OK", Success: true, DataType: "text",
		ThreadName: vu.Name, Start: r.Start.UnixMilli(), OnSampleStart: st.timing.sampleStart, OnSampleEnd: st.timing.sampleEnd}
	env.Current = cur
	env.FileName = s.file
	if s.family == famBeanShell {
		env.Globals = append(env.Globals, script.Global{Name: "ResponseCode", Value: "200"},
			script.Global{Name: "ResponseMessage", Value: "OK"}, script.Global{Name: "IsSuccess", Value: true})
		if s.text != nil {
			r.SetRequestHeaders("")
		}
	}
	v, err := s.run(vu, env)
	end := time.Now()
	if !st.timing.end.IsZero() && st.timing.end.After(st.timing.start) {
		end = st.timing.end
	}
	r.Start = st.timing.start
	r.Elapsed = end.Sub(st.timing.start)
	applyResult(r, cur, false)
	if err != nil {
		r.Success, r.Code, r.Message = false, "500", s.errorText(err)
		vu.Warnf("%s %s: %s", s.kindName("Sampler"), s.name, r.Message)
	} else {
		if !v.Null && (s.family == famBeanShell || len(r.Body) == 0) {
			r.Body = append(r.Body[:0], v.Text...)
		}
		if s.family == famBeanShell {
			for _, g := range env.Globals {
				switch g.Name {
				case "ResponseCode":
					r.Code = scriptGlobalText(g.Value)
				case "ResponseMessage":
					r.Message = scriptGlobalText(g.Value)
				case "IsSuccess":
					r.Success = strings.EqualFold(scriptGlobalText(g.Value), "true")
				}
			}
		}
	}
	r.Bytes = int64(len(r.Body))
	if r.Bytes == 0 && cur.Changed&script.ChBytes != 0 {
		r.Bytes = cur.Bytes
	}
	st.globals = env.Globals[:0]
	if vu.Details() {
		r.SamplerData = s.textOfRun(st)
	}
}

// textOfRun is the script text the last run ran, its ${…} replaced:
// JMeter's samplerData of a script sampler ("" for a script file).
func (s *scriptElem) textOfRun(st *scriptVU) string {
	switch {
	case s.text == nil:
		return ""
	case s.text.Const():
		return s.text.Raw()
	case s.holeProg == nil:
		return st.text
	}
	var b strings.Builder
	i := 0
	for _, p := range s.text.Parts() {
		if p.Kind == element.LitPart {
			b.WriteString(p.Lit)
			continue
		}
		if i < len(st.holes) {
			b.WriteString(st.holes[i])
		}
		i++
	}
	return b.String()
}

// scriptGlobalText is toString of a global read back (null reads "null").
func scriptGlobalText(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

func (s *scriptElem) kindName(role string) string {
	switch s.family {
	case famBeanShell:
		return "BeanShell " + role
	case famBSF:
		return "BSF " + role
	}
	return "JSR223 " + role
}

// ---- pre- and post-processors ------------------------------------------------------

type scriptPre struct{ s *scriptElem }
type scriptPost struct{ s *scriptElem }

func BuildPre(c element.Builder, e *jmx.Element) (element.PreProcessor, error) {
	s := compileOrRefuse(c, e, familyOf(e.Class))
	if s == nil {
		return nil, nil
	}
	return &scriptPre{s}, nil
}

func BuildPost(c element.Builder, e *jmx.Element) (element.PostProcessor, error) {
	s := compileOrRefuse(c, e, familyOf(e.Class))
	if s == nil {
		return nil, nil
	}
	return &scriptPost{s}, nil
}

// PreProcess runs the script where it reaches no sampler.
func (p *scriptPre) PreProcess(vu *element.VU) { p.Modify(vu, nil) }

// Modify runs the script before target, whose request it may change
// (request.go).
func (p *scriptPre) Modify(vu *element.VU, target element.Sampler) {
	s := p.s
	st := s.sp.state(vu)
	defer st.done()
	env := st.newEnv(s.sp, s.name, s.paramsFor(vu))
	env.FileName = s.file
	if prev := previous(vu); prev != nil {
		st.scriptResult(&st.prev, vu, prev)
		env.Prev = &st.prev
	}
	st.requestFor(vu, target, env)
	if _, err := s.run(vu, env); err != nil {
		vu.Log.Error(fmt.Sprintf("Problem in %s %s: %s", s.kindName("PreProcessor"), s.name, s.errorText(err)), "thread", vu.Name)
	}
	st.globals = env.Globals[:0]
}

func (p *scriptPost) PostProcess(vu *element.VU, r *element.Result) {
	s := p.s
	st := s.sp.state(vu)
	defer st.done()
	env := st.newEnv(s.sp, s.name, s.paramsFor(vu))
	env.FileName = s.file
	st.scriptResult(&st.prev, vu, r)
	env.Prev = &st.prev
	st.host.url = r.URL
	env.SamplerClass = samplerClassOf(r)
	if s.family == famBeanShell {
		env.Globals = append(env.Globals, script.Global{Name: "data", Value: r.Body})
	}
	_, err := s.run(vu, env)
	applyResult(r, &st.prev, false)
	if err != nil {
		vu.Log.Error(fmt.Sprintf("Problem in %s %s: %s", s.kindName("PostProcessor"), s.name, s.errorText(err)), "thread", vu.Name)
	}
	st.globals = env.Globals[:0]
}

// ---- assertions ------------------------------------------------------------------

type scriptAssertion struct{ s *scriptElem }

func BuildAssertion(c element.Builder, e *jmx.Element) (element.Assertion, error) {
	s := compileOrRefuse(c, e, familyOf(e.Class))
	if s == nil {
		return nil, nil
	}
	return &scriptAssertion{s}, nil
}

// assertionFailedName is the name JMeter's thread gives an assertion that
// threw an AssertionError (Groovy's assert).
const assertionFailedName = "Assertion failed! See log file (debug level, only)."

func (a *scriptAssertion) Assert(vu *element.VU, r *element.Result) {
	s := a.s
	st := s.sp.state(vu)
	defer st.done()
	env := st.newEnv(s.sp, s.name, s.paramsFor(vu))
	env.FileName = s.file
	st.scriptResult(&st.prev, vu, r)
	env.Prev = &st.prev
	st.host.url = r.URL
	env.SamplerClass = samplerClassOf(r)
	bsh := s.family == famBeanShell
	if bsh {
		p := &st.prev
		env.Globals = append(env.Globals,
			script.Global{Name: "Failure", Value: false}, script.Global{Name: "FailureMessage", Value: ""},
			script.Global{Name: "ResponseData", Value: r.Body}, script.Global{Name: "ResponseCode", Value: r.Code},
			script.Global{Name: "ResponseMessage", Value: r.Message}, script.Global{Name: "ResponseHeaders", Value: responseHeaderText(r)},
			script.Global{Name: "RequestHeaders", Value: r.RequestHeaders()}, script.Global{Name: "SampleLabel", Value: r.Label},
			script.Global{Name: "SamplerData", Value: ""}, script.Global{Name: "Successful", Value: r.Success})
		_ = p
	} else {
		st.assert = script.Assertion{Name: s.name}
		env.Assertion = &st.assert
	}
	_, err := s.run(vu, env)
	applyResult(r, &st.prev, false)
	name := s.name
	var v assert.Verdict
	switch ae, isAssert := isAssertionError(err); {
	case isAssert:
		name = assertionFailedName
		v = assert.Failed(ae.Error())
	case err != nil:
		v = assert.Errored(s.errorText(err))
		vu.Log.Error(fmt.Sprintf("Problem in %s %s: %s", s.kindName("Assertion"), s.name, v.Message), "thread", vu.Name)
	case bsh:
		for _, g := range env.Globals {
			switch g.Name {
			case "Failure":
				v.Failure = strings.EqualFold(scriptGlobalText(g.Value), "true")
			case "FailureMessage":
				v.Message, v.MessageSet = scriptGlobalText(g.Value), true
			}
		}
	default:
		v = assert.Verdict{Failure: st.assert.Failure, Error: st.assert.Error, Message: st.assert.Message, MessageSet: st.assert.MessageSet}
	}
	st.globals = env.Globals[:0]
	recordVerdict(r, name, v)
}

// recordVerdict records an assertion's verdict on a sample, as assertNode
// does.
func recordVerdict(r *element.Result, name string, v assert.Verdict) {
	r.Success = r.Success && !v.Failure && !v.Error
	r.Assertions = append(r.Assertions, reportAssertion(name, v))
	if v.MessageSet && !r.MsgSet {
		r.FailureMessage = v.Message
		r.MsgSet = true
	}
}

func reportAssertion(name string, v assert.Verdict) report.AssertionResult {
	return report.AssertionResult{Name: name, Failure: v.Failure, Error: v.Error, Message: v.Message}
}

// ---- timers --------------------------------------------------------------------

type scriptTimer struct{ s *scriptElem }

func BuildTimer(c element.Builder, e *jmx.Element) (element.Timer, error) {
	s := compileOrRefuse(c, e, familyOf(e.Class))
	if s == nil {
		return nil, nil
	}
	return &scriptTimer{s}, nil
}

// delay is the script's value in milliseconds: JSR223Timer parses it as a
// long, BeanShellTimer as Long.decode does; anything else is no delay.
func (t *scriptTimer) Delay(vu *element.VU) time.Duration {
	s := t.s
	st := s.sp.state(vu)
	defer st.done()
	env := st.newEnv(s.sp, s.name, s.paramsFor(vu))
	env.FileName = s.file
	if prev := previous(vu); prev != nil {
		st.scriptResult(&st.prev, vu, prev)
		env.Prev = &st.prev
	}
	v, err := s.run(vu, env)
	st.globals = env.Globals[:0]
	if err != nil {
		vu.Log.Error(fmt.Sprintf("Problem in %s %s: %s", s.kindName("Timer"), s.name, s.errorText(err)), "thread", vu.Name)
		return 0
	}
	if v.Null {
		if s.family != famBeanShell {
			vu.Warnf("%s %s: the script did not return a value", s.kindName("Timer"), s.name)
		}
		return 0
	}
	var ms int64
	var perr error
	if s.family == famBeanShell {
		ms, perr = java.DecodeLong(v.Text)
	} else {
		ms, perr = strconv.ParseInt(v.Text, 10, 64)
	}
	if perr != nil {
		vu.Warnf("%s %s: %q is not a delay in milliseconds", s.kindName("Timer"), s.name, v.Text)
		return 0
	}
	return time.Duration(ms) * time.Millisecond
}

// ---- listeners -------------------------------------------------------------------

// scriptListener is JSR223Listener, BeanShellListener and BSFListener:
// the thread hands it each final sample in its scope.
type scriptListener struct{ s *scriptElem }

func BuildListener(c element.Builder, e *jmx.Element) (element.SampleListener, error) {
	s := compileOrRefuse(c, e, familyOf(e.Class))
	if s == nil {
		return nil, nil
	}
	return &scriptListener{s}, nil
}

func (l *scriptListener) SampleOccurred(vu *element.VU, r *element.Result) {
	s := l.s
	st := s.sp.state(vu)
	defer st.done()
	env := st.newEnv(s.sp, s.name, s.paramsFor(vu))
	env.FileName = s.file
	st.scriptResult(&st.event, vu, r)
	env.Prev = &st.event
	env.Event = &st.event
	st.host.url = r.URL
	if _, err := s.run(vu, env); err != nil {
		vu.Log.Error(fmt.Sprintf("Problem in %s %s: %s", s.kindName("Listener"), s.name, s.errorText(err)), "thread", vu.Name)
	}
	st.globals = env.Globals[:0]
}
