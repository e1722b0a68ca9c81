package extract

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/andybalholm/cascadia"
	"github.com/antchfx/xpath"
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/response"
	"github.com/gojm/gojm/jmx"
	"github.com/gojm/gojm/report"
	"golang.org/x/net/html"
)

// Markup extractors: the CSS Selector Extractor (HtmlExtractor, JSoup's
// selectors run by cascadia) and the XPath and XPath2 Extractors (run by
// antchfx/xpath over xmlquery documents, or htmlquery ones for tolerant
// HTML parsing).

// CSS Selector Extractor --------------------------------------------------

type cssExtractor struct {
	name     string
	scope    response.Scope
	ref      *element.Template
	sel      *element.Template
	fixed    cascadia.Sel
	attr     *element.Template
	match    *element.Template
	def      *element.Template
	emptyDef bool
}

// jsoupIndex matches JSoup's sibling-index pseudo-classes, which cascadia
// spells as :nth-child.
var jsoupIndex = regexp.MustCompile(`:(eq|lt|gt)\((\d+)\)`)

// compileCSS compiles a JSoup selector with cascadia, rewriting :eq(n),
// :lt(n) and :gt(n) first.
func compileCSS(s string) (cascadia.Sel, error) {
	s = jsoupIndex.ReplaceAllStringFunc(s, func(m string) string {
		p := jsoupIndex.FindStringSubmatch(m)
		n, _ := strconv.Atoi(p[2])
		switch p[1] {
		case "eq":
			return ":nth-child(" + strconv.Itoa(n+1) + ")"
		case "lt":
			return ":nth-child(-n+" + strconv.Itoa(n) + ")"
		}
		return ":nth-child(n+" + strconv.Itoa(n+2) + ")"
	})
	sel, err := cascadia.Parse(quoteAttrValues(s))
	if err != nil {
		return nil, fmt.Errorf("CSS selector %q: %w", s, err)
	}
	return sel, nil
}

// quoteAttrValues quotes each unquoted value of an attribute selector, as
// JSoup reads one: the whole text between the operator and the closing ]
// (article[class=esh-orders-items row] matches class="esh-orders-items
// row"), which CSS and cascadia take as an identifier only.
func quoteAttrValues(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '"' || s[i] == '\'' {
			j := closingQuote(s, i)
			b.WriteString(s[i:j])
			i = j
			continue
		}
		if s[i] != '[' {
			b.WriteByte(s[i])
			i++
			continue
		}
		end := i + 1
		for end < len(s) && s[end] != ']' {
			if s[end] == '"' || s[end] == '\'' {
				end = closingQuote(s, end)
				continue
			}
			end++
		}
		if end == len(s) {
			b.WriteString(s[i:]) // unbalanced: cascadia reports it
			break
		}
		b.WriteByte('[')
		b.WriteString(quoteAttrValue(s[i+1 : end]))
		b.WriteByte(']')
		i = end + 1
	}
	return b.String()
}

// quoteAttrValue quotes the value of one attribute selector's inside
// ("class=a b" gives class="a b"), leaving a quoted one and a bare name.
func quoteAttrValue(in string) string {
	op := strings.IndexByte(in, '=')
	if op < 0 {
		return in
	}
	val := strings.TrimSpace(in[op+1:])
	if val == "" || val[0] == '"' || val[0] == '\'' {
		return in
	}
	// An unquoted value is all the text, trimmed, as JSoup's
	// AttributeWithValue takes it.
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return in[:op+1] + `"` + r.Replace(val) + `"`
}

// closingQuote is the index after the quoted string that starts at i.
func closingQuote(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return len(s)
}

func BuildCSS(c element.Builder, e *jmx.Element) (element.PostProcessor, error) {
	if impl := e.Str("HtmlExtractor.extractor_impl"); impl != "" && impl != "JSOUP" && impl != "JODD" {
		return nil, fmt.Errorf("extractor implementation %q is unknown", impl)
	}
	x := &cssExtractor{
		name:     e.Name,
		scope:    response.ReadScope(c, e),
		ref:      c.Prop(e, "HtmlExtractor.refname"),
		sel:      c.Prop(e, "HtmlExtractor.expr"),
		attr:     c.Prop(e, "HtmlExtractor.attribute"),
		match:    c.Prop(e, "HtmlExtractor.match_number"),
		def:      c.Prop(e, "HtmlExtractor.default"),
		emptyDef: e.Bool("HtmlExtractor.default_empty_value", false),
	}
	if x.sel.Const() {
		sel, err := compileCSS(x.sel.Raw())
		if err != nil {
			return nil, err
		}
		x.fixed = sel
	}
	return x, nil
}

func (x *cssExtractor) PostProcess(vu *element.VU, r *element.Result) {
	ref := x.ref.Eval(vu)
	number := intProp(vu, x.match, 0)
	if def := x.def.Eval(vu); def != "" || x.emptyDef {
		vu.Vars.Put(ref, def)
	}
	sel := x.fixed
	if sel == nil {
		var err error
		if sel, err = compileCSS(x.sel.Eval(vu)); err != nil {
			vu.Warnf("CSS Selector Extractor %q: %v", x.name, err)
			return
		}
	}
	attr := strings.TrimSpace(x.attr.Eval(vu))
	var matches []string
	find := func(in string) {
		doc, err := html.Parse(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, n := range cascadia.QueryAll(doc, sel) {
			if number > 0 && len(matches) == number {
				return
			}
			if attr != "" {
				matches = append(matches, htmlAttr(n, attr))
			} else {
				matches = append(matches, jsoupText(n))
			}
		}
	}
	if x.scope.Kind == response.ScopeVariable {
		in, _ := vu.Vars.Get(x.scope.Var.Eval(vu))
		if in == "" {
			return
		}
		find(in)
	} else {
		var buf [1]response.View
		for _, t := range x.scope.Samples(r, buf[:0]) {
			find(response.BodyString(t.Body))
			if number > 0 && len(matches) == number {
				break
			}
		}
	}
	prev := 0
	if _, ok := vu.Vars.Get(ref + matchNrSuffix); ok {
		prev = countVar(vu, ref+matchNrSuffix)
		vu.Vars.Remove(ref + matchNrSuffix)
	}
	count := 0
	if number >= 0 {
		if i := pick(vu, number, len(matches)); i >= 0 {
			vu.Vars.Put(ref, matches[i])
		}
	} else {
		count = len(matches)
		vu.Vars.Put(ref+matchNrSuffix, strconv.Itoa(count))
		for i, m := range matches {
			vu.Vars.Put(nthName(ref, i+1), m)
		}
	}
	for i := count + 1; i <= prev; i++ {
		vu.Vars.Remove(nthName(ref, i))
	}
}

// htmlAttr is JSoup's Element.attr: the value, or "" when absent.
func htmlAttr(n *html.Node, name string) string {
	name = strings.ToLower(name)
	for _, a := range n.Attr {
		if strings.ToLower(a.Key) == name {
			return a.Val
		}
	}
	return ""
}

// jsoupBlock are the tags JSoup treats as blocks when it joins text.
var jsoupBlock = map[string]bool{}

func init() {
	for _, t := range strings.Fields(`html head body frameset script noscript style meta link title frame noframes
		section nav aside hgroup header footer p h1 h2 h3 h4 h5 h6 ul ol pre div blockquote hr address figure
		figcaption form fieldset ins del dl dt dd li table caption thead tfoot tbody colgroup col tr th td video
		audio canvas details menu plaintext template article main svg math center dir applet marquee listing`) {
		jsoupBlock[t] = true
	}
}

// jsoupText is JSoup's Element.text(): the text of the element and its
// descendants, whitespace collapsed, a space between blocks and at <br>.
func jsoupText(n *html.Node) string {
	var b strings.Builder
	lastSpace := func() bool {
		s := b.String()
		return s == "" || s[len(s)-1] == ' '
	}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			prevWS := lastSpace()
			for _, r := range n.Data {
				if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' {
					if !prevWS {
						b.WriteByte(' ')
						prevWS = true
					}
					continue
				}
				b.WriteRune(r)
				prevWS = false
			}
		case html.ElementNode:
			if (jsoupBlock[n.Data] || n.Data == "br") && !lastSpace() {
				b.WriteByte(' ')
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.TrimSpace(b.String())
}

// addAssertionFailure records an extractor's trouble on the sample as a
// failed assertion result, as JMeter's XPath extractors do; failSample also
// marks the sample failed.
func addAssertionFailure(r *element.Result, name, msg string, failSample bool) {
	r.Assertions = append(r.Assertions, report.AssertionResult{Name: name, Failure: true, Message: msg})
	if !r.MsgSet {
		r.FailureMessage, r.MsgSet = msg, true
	}
	if failSample {
		r.Success = false
	}
}

// XPath Extractor --------------------------------------------------------

type xpathExtractor struct {
	name     string
	v2       bool
	scope    response.Scope
	ref      *element.Template
	query    *response.XPathField
	def      *element.Template
	match    *element.Template
	fragment bool
	tolerant bool
}

func BuildXPath(c element.Builder, e *jmx.Element) (element.PostProcessor, error) {
	q, err := response.NewXPathField(c, e, c.Prop(e, "XPathExtractor.xpathQuery"), nil)
	if err != nil {
		return nil, err
	}
	return &xpathExtractor{
		name:     e.Name,
		scope:    response.ReadScope(c, e),
		ref:      c.Prop(e, "XPathExtractor.refname"),
		query:    q,
		def:      c.Prop(e, "XPathExtractor.default"),
		match:    c.Prop(e, "XPathExtractor.matchNumber"),
		fragment: e.Bool("XPathExtractor.fragment", false),
		tolerant: e.Bool("XPathExtractor.tolerant", false),
	}, nil
}

func BuildXPath2(c element.Builder, e *jmx.Element) (element.PostProcessor, error) {
	q, err := response.NewXPathField(c, e, c.Prop(e, "XPathExtractor2.xpathQuery"), response.ParseNamespaces(e.Str("XPathExtractor2.namespaces")))
	if err != nil {
		return nil, err
	}
	return &xpathExtractor{
		name:     e.Name,
		v2:       true,
		scope:    response.ReadScope(c, e),
		ref:      c.Prop(e, "XPathExtractor2.refname"),
		query:    q,
		def:      c.Prop(e, "XPathExtractor2.default"),
		match:    c.Prop(e, "XPathExtractor2.matchNumber"),
		fragment: e.Bool("XPathExtractor2.fragment", false),
	}, nil
}

func (x *xpathExtractor) PostProcess(vu *element.VU, r *element.Result) {
	ref := x.ref.Eval(vu)
	vu.Vars.Put(ref, x.def.Eval(vu))
	nr := ref + "_matchNr"
	prev := countVar(vu, nr)
	vu.Vars.Put(nr, "0")
	vu.Vars.Remove(ref + "_1")
	def := -1
	if x.v2 {
		def = 0
	}
	number := intProp(vu, x.match, def)
	var matches []*string
	var inputs []string
	if x.scope.Kind == response.ScopeVariable {
		if s, ok := vu.Vars.Get(x.scope.Var.Eval(vu)); ok && s != "" {
			inputs = append(inputs, s)
		}
	} else {
		var buf [1]response.View
		for _, t := range x.scope.Samples(r, buf[:0]) {
			if x.v2 {
				// JMeter's XPath2 Extractor reads the main sample once per
				// sample in scope.
				inputs = append(inputs, response.BodyString(r.Body))
			} else {
				inputs = append(inputs, response.BodyString(t.Body))
			}
		}
	}
	for _, in := range inputs {
		doc, err := response.ParseXPathDoc(in, x.tolerant)
		if err != nil {
			vu.Warnf("XPath Extractor %q: %v", x.name, err)
			addAssertionFailure(r, x.name, err.Error()+"\nSee log file for further details.", x.tolerant)
			return
		}
		expr, src, err := x.query.Get(vu, doc)
		if err != nil {
			addAssertionFailure(r, x.name, err.Error()+"\nSee log file for further details.", false)
			return
		}
		if strings.TrimSpace(src) == "" {
			continue
		}
		matches = x.values(vu, doc, expr, number, matches)
	}
	count := len(matches)
	vu.Vars.Put(nr, strconv.Itoa(count))
	if count > 0 && matches[0] != nil {
		vu.Vars.Put(ref, *matches[0])
	}
	for i, m := range matches {
		if m != nil {
			vu.Vars.Put(nthName(ref, i+1), *m)
		}
	}
	vu.Vars.Remove(nthName(ref, count+1))
	for i := count + 2; i <= prev; i++ {
		vu.Vars.Remove(nthName(ref, i))
	}
}

// values evaluates the expression and appends the selected values: nil
// for an XPath 1.0 element whose first child is not text (JMeter's
// getValueForNode), the string value for XPath2.
func (x *xpathExtractor) values(vu *element.VU, doc *response.XPathDoc, expr *xpath.Expr, number int, out []*string) []*string {
	res := expr.Evaluate(doc.Nav())
	it, ok := res.(*xpath.NodeIterator)
	if !ok {
		var s string
		switch v := res.(type) {
		case float64:
			s = response.XPathNumber(v)
		case bool:
			s = strconv.FormatBool(v)
		case string:
			s = v
		default:
			return out
		}
		if x.v2 && number > 1 {
			return out
		}
		return append(out, &s)
	}
	var nodes []xpath.NodeNavigator
	for it.MoveNext() {
		nodes = append(nodes, it.Current().Copy())
	}
	pickOne := number
	if number == 0 && len(nodes) > 0 {
		pickOne = vu.Rand.IntN(len(nodes)) + 1
	}
	for i, n := range nodes {
		if pickOne >= 0 && pickOne != i+1 {
			continue
		}
		out = append(out, x.nodeValue(n))
	}
	return out
}

func (x *xpathExtractor) nodeValue(n xpath.NodeNavigator) *string {
	if x.fragment {
		s := response.Outer(n)
		return &s
	}
	if x.v2 || n.NodeType() != xpath.ElementNode {
		s := n.Value()
		return &s
	}
	c := n.Copy()
	if !c.MoveToChild() || c.NodeType() == xpath.ElementNode {
		return nil
	}
	s := c.Value()
	return &s
}
