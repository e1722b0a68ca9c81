package httpsampler

import (
	"bytes"
	"net/url"
	"regexp"
	"strings"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
	"golang.org/x/net/html"
)

// linkParser is JMeter's HTML Link Parser (AnchorModifier): the HTTP
// Request's protocol, host, path and parameters are patterns (a field
// matches when it is equal or its regular expression matches the whole
// value); the links (<a href>, <frame src>) and forms of the previous
// HTML response that match them are gathered, and one, at random, becomes
// the request: its protocol, host and path, and for a link its query
// parameters, for a form a value for each of the request's parameters
// from the form's fields that match it (name and value), each field used
// once. The request's port and method stay its own.
type linkParser struct{}

func BuildLinkParser(element.Builder, *jmx.Element) (element.PreProcessor, error) {
	return linkParser{}, nil
}

// PreProcess does nothing: the modifier runs bound to its sampler.
func (linkParser) PreProcess(*element.VU) {}

// link is a link or form of a page as JMeter makes a sampler of it.
type link struct {
	protocol, domain, path string
	args                   []evalArg
	form                   bool // a form, which JMeter marks POST
}

func (linkParser) Modify(vu *element.VU, s element.Sampler) {
	h, ok := httpOf(s)
	prev := previousResponse(vu)
	if !ok || prev == nil || prev.Head.None() {
		return // JMeter: the previous sample is not an HTTP one
	}
	base, err := url.Parse(prev.URL)
	if err != nil {
		return
	}
	body := prev.Body
	if i := bytes.IndexByte(body, '<'); i > 0 {
		body = body[i:]
	}
	doc, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		return
	}
	rq := h.EditRequest(vu)
	pat := patternsOf(vu, rq)
	var found []link
	for _, l := range pageLinks(doc, base) {
		if pat.matches(&l) {
			found = append(found, l)
		}
	}
	if len(found) == 0 {
		return
	}
	l := found[vu.Rand.IntN(len(found))]
	rq.Domain.Set(l.domain)
	rq.Path.Set(l.path)
	if l.form {
		for i := range rq.Args {
			l.fill(vu, &rq.Args[i], pat.names[i])
		}
	} else {
		rq.Args = rq.Args[:0]
		for _, a := range l.args {
			rq.Args = append(rq.Args, fixedArg(a))
		}
	}
	rq.Protocol.Set(l.protocol)
}

// fill gives arg the name and value of a field of the form that matches
// it, chosen at random, and takes the field (and its equals) off the form.
func (l *link) fill(vu *element.VU, arg *element.RequestArg, name pattern) {
	value := patternOf(arg.Value.Get(vu))
	var can []int
	for i, f := range l.args {
		if name.is(f.name) && value.is(f.value) {
			can = append(can, i)
		}
	}
	if len(can) == 0 {
		return
	}
	f := l.args[can[vu.Rand.IntN(len(can))]]
	arg.Name.Set(f.name)
	arg.Value.Set(f.value)
	kept := l.args[:0:0]
	for _, o := range l.args {
		if o.name != f.name || o.value != f.value {
			kept = append(kept, o)
		}
	}
	l.args = kept
}

// pattern is a request field as the HTML Link Parser reads it (JMeter's
// isEqualOrMatches): a text matches when it is equal or the expression
// matches all of it; a field that is not a valid expression only by being
// equal.
type pattern struct {
	text string
	re   *regexp.Regexp
}

func patternOf(text string) pattern {
	return pattern{text, compiled(`^(?:` + text + `)$`)}
}

func (p pattern) is(s string) bool { return s == p.text || p.re != nil && p.re.MatchString(s) }

// linkPatterns are a request's fields as patterns for the links of a page.
type linkPatterns struct {
	protocol, domain pattern
	path             string
	pathRe           *regexp.Regexp   // [/]*path, all of it
	names            []pattern        // the request's parameter names
	found            []*regexp.Regexp // each name as an expression found anywhere
}

// patternsOf reads the request's fields the link parser matches against:
// protocol, host, path and parameter names (not the values, which only a
// form reads).
func patternsOf(vu *element.VU, rq *element.Request) *linkPatterns {
	proto := rq.Protocol.Get(vu)
	if proto == "" {
		proto = "http" // HTTPSamplerBase.getProtocol
	}
	path := rq.Path.Get(vu)
	p := &linkPatterns{protocol: patternOf(proto), domain: patternOf(rq.Domain.Get(vu)), path: path}
	p.pathRe = compiled(`^(?:[/]*` + path + `)$`)
	for i := range rq.Args {
		name := rq.Args[i].Name.Get(vu)
		p.names = append(p.names, patternOf(name))
		p.found = append(p.found, compiled(name))
	}
	return p
}

// matches is JMeter's HtmlParsingUtils.isAnchorMatched: the protocol, the
// host (when the request has one), the path, and each of the request's
// parameter names found in the link's query ("name=", or the name as an
// expression anywhere in it).
func (p *linkPatterns) matches(l *link) bool {
	if !p.protocol.is(l.protocol) {
		return false
	}
	if p.domain.text != "" && !p.domain.is(l.domain) {
		return false
	}
	if l.path != p.path && (p.pathRe == nil || !p.pathRe.MatchString(l.path)) {
		return false
	}
	var q strings.Builder
	for _, a := range l.args {
		if a.name == "" {
			continue
		}
		if q.Len() > 0 {
			q.WriteByte('&')
		}
		q.WriteString(a.name + "=" + a.value)
	}
	query := q.String()
	for i, name := range p.names {
		if !strings.Contains(query, name.text+"=") && (p.found[i] == nil || !p.found[i].MatchString(query)) {
			return false
		}
	}
	return true
}

// pageLinks lists a page's links as the HTML Link Parser gathers them:
// the <a href> (but javascript:) links, then the forms with an action,
// then the <frame src> links, resolved against the page's URL and its
// first <base href>.
func pageLinks(doc *html.Node, page *url.URL) []link {
	ctx := page
	if b := firstElement(doc, "base"); b != nil {
		if ref, err := url.Parse(attr(b, "href")); err == nil {
			ctx = page.ResolveReference(ref)
		}
	}
	var out []link
	walk(doc, func(n *html.Node) {
		if n.Data == "a" {
			if href, ok := attrOK(n, "href"); ok && !strings.HasPrefix(href, "javascript:") {
				if l, ok := linkTo(ctx, href); ok {
					out = append(out, l)
				}
			}
		}
	})
	forms := formLinks(doc, page)
	out = append(out, forms...)
	walk(doc, func(n *html.Node) {
		if n.Data == "frame" {
			if src, ok := attrOK(n, "src"); ok {
				if l, ok := linkTo(ctx, src); ok {
					out = append(out, l)
				}
			}
		}
	})
	return out
}

// linkTo is JMeter's createUrlFromAnchor: the URL's protocol, host, path
// and query parameters (decoded, to be encoded again when sent).
func linkTo(ctx *url.URL, href string) (link, bool) {
	ref, err := url.Parse(strings.TrimSpace(href))
	if err != nil {
		return link{}, false
	}
	u := ctx.ResolveReference(ref)
	l := link{protocol: u.Scheme, domain: u.Hostname(), path: u.EscapedPath()}
	if u.RawQuery != "" {
		for _, part := range strings.Split(u.RawQuery, "&") {
			name, value, eq := strings.Cut(part, "=")
			if name == "" {
				continue
			}
			meta := ""
			if eq {
				meta = "="
			}
			l.args = append(l.args, encodedArg(name, value, meta))
		}
	}
	return l, true
}

// encodedArg is JMeter's addEncodedArgument: a name and value taken from a
// page (encoded already) are decoded, and encoded again when sent.
func encodedArg(name, value, meta string) evalArg {
	if d, err := urlDecode(name, utf8Charset); err == nil {
		name = d
	}
	if d, err := urlDecode(value, utf8Charset); err == nil {
		value = d
	}
	return evalArg{name: name, value: value, encode: true, meta: meta, contentType: "text/plain"}
}

// formLinks is JMeter's createURLFromForm: each form with an action, with
// the fields (input, textarea, option of a select) that follow it in the
// page. As in JMeter, fields after a form's end still join the last form.
func formLinks(doc *html.Node, page *url.URL) []link {
	var forms []link
	inForm := false
	// selectName reaches the options under a select (JMeter passes it
	// down the tree, not across); an option outside any select is passed
	// over, as JMeter's null name makes it.
	var visit func(n *html.Node, selectName *string)
	visit = func(n *html.Node, selectName *string) {
		if n.Type == html.ElementNode {
			switch tag := n.Data; {
			case tag == "form":
				inForm = false
				if action, ok := attrOK(n, "action"); ok {
					if l, ok := linkTo(page, action); ok {
						l.form = true
						forms = append(forms, l)
						inForm = true
					}
				}
			case !inForm:
			case tag == "input":
				f := &forms[len(forms)-1]
				f.args = append(f.args, encodedArg(attr(n, "name"), attr(n, "value"), "="))
			case tag == "textarea":
				f := &forms[len(forms)-1]
				if c := n.FirstChild; c != nil && c.Type == html.TextNode {
					f.args = append(f.args, encodedArg(attr(n, "name"), c.Data, "="))
				} else {
					f.args = append(f.args, evalArg{name: attr(n, "name"), encode: true, meta: "=", contentType: "text/plain"})
				}
			case tag == "select":
				name := attr(n, "name")
				selectName = &name
			case tag == "option" && selectName != nil:
				// JMeter reads a missing value attribute as "" (its fallback
				// to the option's text never runs).
				f := &forms[len(forms)-1]
				f.args = append(f.args, encodedArg(*selectName, attr(n, "value"), "="))
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			visit(c, selectName)
		}
	}
	visit(doc, nil)
	return forms
}

// walk calls f on every element under n, in document order.
func walk(n *html.Node, f func(*html.Node)) {
	if n.Type == html.ElementNode {
		f(n)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, f)
	}
}

func firstElement(n *html.Node, tag string) *html.Node {
	var found *html.Node
	walk(n, func(e *html.Node) {
		if found == nil && e.Data == tag {
			found = e
		}
	})
	return found
}

func attrOK(n *html.Node, name string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val, true
		}
	}
	return "", false
}

func attr(n *html.Node, name string) string {
	v, _ := attrOK(n, name)
	return v
}
