package elementtest

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
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

// JSONBody is a realistic API response of about 1.5 KB, for benchmarks: a
// session token, a user and a page of orders, as a login or a list call
// answers.
const JSONBody = `{"status":"ok","token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJl","expires_in":3600,` +
	`"user":{"id":42,"login":"alice","name":"Alice Martin","email":"alice@example.com","roles":["customer","beta"],` +
	`"address":{"street":"12 rue des Lilas","city":"Lyon","zip":"69003","country":"FR"}},` +
	`"orders":[` +
	`{"id":"A-1001","date":"2026-11-02T10:15:00Z","total":149.90,"currency":"EUR","status":"shipped","items":[{"sku":"SKU-881","qty":1,"price":99.90},{"sku":"SKU-102","qty":2,"price":25.00}]},` +
	`{"id":"A-1002","date":"2026-11-09T17:42:00Z","total":38.50,"currency":"EUR","status":"delivered","items":[{"sku":"SKU-310","qty":1,"price":38.50}]},` +
	`{"id":"A-1003","date":"2026-11-15T08:03:00Z","total":212.00,"currency":"EUR","status":"processing","items":[{"sku":"SKU-777","qty":4,"price":53.00}]},` +
	`{"id":"A-1004","date":"2026-11-21T12:30:00Z","total":9.99,"currency":"EUR","status":"cancelled","items":[{"sku":"SKU-005","qty":1,"price":9.99}]},` +
	`{"id":"A-1005","date":"2026-11-28T19:55:00Z","total":75.40,"currency":"EUR","status":"shipped","items":[{"sku":"SKU-640","qty":2,"price":37.70}]}],` +
	`"page":{"number":1,"size":5,"total":23},` +
	`"links":{"self":"/api/users/42/orders?page=1","next":"/api/users/42/orders?page=2","last":"/api/users/42/orders?page=5"},` +
	`"features":{"newCheckout":true,"recommendations":false,"currencySwitch":true},` +
	`"server":{"node":"app-03","region":"eu-west-1","version":"4.12.7","time_ms":12}}`

// HTMLBody is a realistic page of about 1.5 KB, for benchmarks: a login
// form with a CSRF token, a session link and a short list.
const HTMLBody = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Shop - Sign in</title>
<link rel="stylesheet" href="/static/css/site.7f3a.css"><script src="/static/js/app.91bc.js" defer></script></head>
<body class="login">
<header><nav><a href="/">Home</a> <a href="/catalog?page=1">Catalog</a> <a href="/cart">Cart (0)</a></nav></header>
<main>
<h1 id="title">Sign in to your account</h1>
<form id="login" method="post" action="/login;jsessionid=8F2A1C9D3E4B5F60718293A4B5C6D7E8">
<input type="hidden" name="csrf_token" value="b7e1c2d3-4f5a-6789-abcd-ef0123456789">
<input type="hidden" name="return" value="/account/orders">
<label for="user">User</label><input id="user" name="username" type="text" autocomplete="username">
<label for="pass">Password</label><input id="pass" name="password" type="password">
<button type="submit" class="btn btn-primary">Sign in</button>
</form>
<section class="promo"><h2>This week</h2><ul>
<li class="item" data-sku="SKU-881"><a href="/p/881">Trail shoes</a> <span class="price">99.90</span></li>
<li class="item" data-sku="SKU-102"><a href="/p/102">Wool socks</a> <span class="price">25.00</span></li>
<li class="item" data-sku="SKU-310"><a href="/p/310">Head lamp</a> <span class="price">38.50</span></li>
<li class="item" data-sku="SKU-777"><a href="/p/777">Tent, 2 persons</a> <span class="price">53.00</span></li>
</ul></section>
<p class="msg">Welcome back! Your last visit was on 2026-11-28.</p>
</main>
<footer><p>&copy; 2026 Shop. <a href="/privacy">Privacy</a> <a href="/terms">Terms</a></p>
<p class="build">build 4.12.7 node app-03 rendered in 12 ms</p></footer>
</body></html>
`

// Build builds one element with a new Builder, failing tb when the build
// or the compilation of its fields fails, and returns it with the plan's
// first virtual user.
func Build[T any](tb testing.TB, build func(element.Builder, *jmx.Element) (T, error), e *jmx.Element) (T, *element.VU) {
	tb.Helper()
	c := New(nil, "", "")
	x, err := build(c, e)
	if err != nil {
		tb.Fatalf("build: %v", err)
	}
	if len(c.Errs) > 0 {
		tb.Fatalf("compile: %v", c.Errs)
	}
	return x, c.VU(1)
}
