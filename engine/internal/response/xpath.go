package response

//lint:file-ignore ST1005 some error texts here are JMeter's (or Java's) own, word for word: they end up in results files, where plans and JMeter's users compare them

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/antchfx/htmlquery"
	"github.com/antchfx/xmlquery"
	"github.com/antchfx/xpath"
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
	"golang.org/x/net/html"
)

// XPath documents, as JMeter's XPath extractors and assertions read them:
// XML parsed by xmlquery, or HTML parsed tolerantly by htmlquery, queried
// by antchfx/xpath.

// xpathDoc is a parsed document ready for XPath: XML, or tolerant HTML.
type XPathDoc struct {
	xml  *xmlquery.Node
	html *html.Node
	ns   map[string]string // prefixes declared on the document element
}

func ParseXPathDoc(s string, tolerant bool) (*XPathDoc, error) {
	if tolerant {
		n, err := htmlquery.Parse(strings.NewReader(s))
		if err != nil {
			return nil, err
		}
		return &XPathDoc{html: n}, nil
	}
	n, err := xmlquery.Parse(strings.NewReader(s))
	if err != nil {
		return nil, err
	}
	if n.SelectElement("*") == nil && xmlRoot(n) == nil {
		return nil, errors.New("Premature end of file.")
	}
	d := &XPathDoc{xml: n}
	if root := xmlRoot(n); root != nil {
		for _, a := range root.Attr {
			if a.Name.Space == "xmlns" {
				if d.ns == nil {
					d.ns = map[string]string{}
				}
				d.ns[a.Name.Local] = a.Value
			}
		}
	}
	return d, nil
}

func xmlRoot(n *xmlquery.Node) *xmlquery.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == xmlquery.ElementNode {
			return c
		}
	}
	return nil
}

func (d *XPathDoc) Nav() xpath.NodeNavigator {
	if d.html != nil {
		return htmlquery.CreateXPathNavigator(d.html)
	}
	return xmlquery.CreateXPathNavigator(d.xml)
}

// outer renders the node under a navigator as markup (the "fragment" option).
func Outer(n xpath.NodeNavigator) string {
	switch x := n.(type) {
	case *xmlquery.NodeNavigator:
		if n.NodeType() == xpath.AttributeNode {
			return n.Value()
		}
		return x.Current().OutputXML(true)
	case *htmlquery.NodeNavigator:
		if n.NodeType() == xpath.AttributeNode {
			return n.Value()
		}
		return htmlquery.OutputHTML(x.Current(), true)
	}
	return n.Value()
}

// xpathField is an XPath expression field: compiled once when constant.
type XPathField struct {
	Source *element.Template
	fixed  *xpath.Expr
	err    error
	ns     map[string]string
}

// newXPathField compiles an XPath field. A constant expression that does
// not compile fails each time the element runs, as in JMeter; the plan
// still runs, with a warning now.
func NewXPathField(c element.Builder, e *jmx.Element, t *element.Template, ns map[string]string) (*XPathField, error) {
	f := &XPathField{Source: t, ns: ns}
	if t.Const() && strings.TrimSpace(t.Raw()) != "" {
		f.fixed, f.err = CompileXPath(t.Raw(), ns)
		if f.err != nil {
			c.Plan().Log.Warn("the element will fail each time it runs", "element", e.Path(), "error", f.err)
		}
	}
	return f, nil
}

func CompileXPath(s string, ns map[string]string) (*xpath.Expr, error) {
	var x *xpath.Expr
	var err error
	if len(ns) > 0 {
		x, err = xpath.CompileWithNS(s, ns)
	} else {
		x, err = xpath.Compile(s)
	}
	if err != nil {
		return nil, fmt.Errorf("XPath %q: %w", s, err)
	}
	return x, nil
}

// get returns the expression, compiled with the document's own prefixes
// added when asked.
func (f *XPathField) Get(vu *element.VU, doc *XPathDoc) (*xpath.Expr, string, error) {
	src := f.Source.Eval(vu)
	if f.err != nil {
		return nil, src, f.err
	}
	if doc != nil && len(doc.ns) > 0 {
		ns := map[string]string{}
		for k, v := range doc.ns {
			ns[k] = v
		}
		for k, v := range f.ns {
			ns[k] = v
		}
		x, err := CompileXPath(src, ns)
		return x, src, err
	}
	if f.fixed != nil {
		return f.fixed, src, nil
	}
	x, err := CompileXPath(src, f.ns)
	return x, src, err
}

// xpathNumber prints an XPath 1.0 number as Xalan's XNumber.toString does.
func XPathNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == math.Trunc(f) && math.Abs(f) < 1e18:
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// parseNamespaces reads "prefix=uri" lines (JMeter's XPath2 namespaces).
func ParseNamespaces(s string) map[string]string {
	var m map[string]string
	for _, line := range strings.Split(s, "\n") {
		k, v, ok := strings.Cut(strings.TrimRight(line, "\r"), "=")
		if !ok {
			continue
		}
		if m == nil {
			m = map[string]string{}
		}
		m[k] = v
	}
	return m
}
