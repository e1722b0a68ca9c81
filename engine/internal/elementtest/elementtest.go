package elementtest

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gojm/gojm/engine/httpx"
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/function"
	"github.com/gojm/gojm/jmx"
	"github.com/gojm/gojm/report"
)

// Builder is an element.Builder for tests: it compiles templates as the
// engine does and keeps the failures and refusals it is told of.
type Builder struct {
	plan *element.Plan
	tmpl *function.Compiler
	run  *element.Run
	// Errs are the failures, Refused the refusals and Warnings the
	// warnings recorded so far.
	Errs     []error
	Refused  []string
	Warnings []string
}

var _ element.Builder = (*Builder)(nil)

// New returns a builder of a plan file in folder dir, with properties.
func New(props map[string]string, file, dir string) *Builder {
	p := element.NewPlan(file, dir, element.NewProps(props), nil)
	return &Builder{plan: p, tmpl: function.NewCompiler(p, function.Table(nil))}
}

// Plan is the plan being built.
func (b *Builder) Plan() *element.Plan { return b.plan }

// Compile compiles a template, for a test of its own.
func (b *Builder) Compile(s string) (*element.Template, error) { return b.tmpl.Compile(s) }

// Template compiles text, a field of e.
func (b *Builder) Template(e *jmx.Element, field, text string) *element.Template {
	t, err := b.tmpl.Compile(text)
	for _, w := range b.tmpl.TakeWarnings() {
		b.Warn(e, field+": "+w)
	}
	if err != nil {
		b.Fail(e, errors.New(field+": "+err.Error()))
		return element.Text(text)
	}
	return t
}

// Prop compiles e's property name.
func (b *Builder) Prop(e *jmx.Element, name string) *element.Template {
	return b.Template(e, name, e.Str(name))
}

// Static evaluates t with the properties (a plan in memory has no
// user-defined variables).
func (b *Builder) Static(t *element.Template) (string, bool) {
	if t.Const() {
		return t.Raw(), true
	}
	s := t.Eval(b.VU(0))
	return s, !strings.Contains(s, "${")
}

// Fail records a failure.
func (b *Builder) Fail(e *jmx.Element, err error) {
	b.Errs = append(b.Errs, errors.New(e.Class+": "+err.Error()))
}

// Refuse records a refusal.
func (b *Builder) Refuse(e *jmx.Element, reason string) {
	b.Refused = append(b.Refused, e.Class+": "+reason)
}

// Warn records a warning.
func (b *Builder) Warn(e *jmx.Element, msg string) {
	b.Warnings = append(b.Warnings, e.Class+": "+msg)
}

// Run returns the run of the builder's users, made on first use: once
// every element is built, since it takes the shared state's slots then.
func (b *Builder) Run() *element.Run {
	if b.run == nil {
		b.run = element.NewRun(b.plan, 42, func(error) {}, func(error) {})
	}
	return b.run
}

// VU returns user num of a thread group called "TG" in the builder's run.
func (b *Builder) VU(num int) *element.VU {
	g := element.NewGroup(b.plan)
	g.Name, g.Index = "TG", 1
	ctx := context.Background()
	return element.NewVU(b.plan, g, b.Run(), num, "TG 1-"+strconv.Itoa(num), ctx, ctx)
}

// El builds an element of a test class from name/value pairs; a value
// starting with "\x00" is a collection of strings separated by "\x00"
// (see Strs).
func El(class string, kv ...string) *jmx.Element {
	e := &jmx.Element{Class: class, Name: class}
	for i := 0; i+1 < len(kv); i += 2 {
		if strings.HasPrefix(kv[i+1], "\x00") {
			p := &jmx.Prop{Kind: "collection", Name: kv[i]}
			for _, s := range strings.Split(kv[i+1][1:], "\x00") {
				p.Props = append(p.Props, &jmx.Prop{Kind: "string", Name: "0", Value: s})
			}
			e.Props = append(e.Props, p)
			continue
		}
		e.Props = append(e.Props, &jmx.Prop{Kind: "string", Name: kv[i], Value: kv[i+1]})
	}
	return e
}

// Strs is a collection value for El.
func Strs(s ...string) string { return "\x00" + strings.Join(s, "\x00") }

// Response is an HTTP-like sample with a body and headers.
func Response(body string) *element.Result {
	return &element.Result{
		Sample: report.Sample{Label: "req", Code: "200", Message: "OK", Success: true,
			URL: "http://127.0.0.1:8080/login?x=1", Elapsed: 1500 * time.Millisecond, Bytes: int64(len(body) + 100)},
		Body:    []byte(body),
		Head:    httpx.HeadOf(http.Header{"Content-Type": {"text/html"}, "Set-Cookie": {"sid=abc"}}),
		ReqHead: "Accept: */*\n",
	}
}

// Vars renders the named variables as "name=value" (or "name unset"),
// joined by "; ".
func Vars(vu *element.VU, names ...string) string {
	var out []string
	for _, n := range names {
		if v, ok := vu.Vars.Get(n); ok {
			out = append(out, n+"="+v)
		} else {
			out = append(out, n+" unset")
		}
	}
	return strings.Join(out, "; ")
}
