package assert

import (
	"github.com/antchfx/xpath"
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/response"
	"github.com/gojm/gojm/jmx"
)

// The XPath Assertion (XPath 1.0, Xalan in JMeter) and the XPath2 Assertion
// (Saxon in JMeter), both run by antchfx/xpath here.

type xpathAssertion struct {
	v2       bool
	scope    response.Scope
	query    *response.XPathField
	negate   bool
	tolerant bool
}

func BuildXPath(c element.Builder, e *jmx.Element) (element.Assertion, error) {
	t := c.Template(e, "XPath.xpath", e.StrOr("XPath.xpath", "/"))
	q, err := response.NewXPathField(c, e, t, nil)
	if err != nil {
		return nil, err
	}
	a := &xpathAssertion{scope: response.ReadAssertionScope(c, e), query: q, negate: e.Bool("XPath.negate", false),
		tolerant: e.Bool("XPath.tolerant", false)}
	return newAssert(c, e, a), nil
}

func BuildXPath2(c element.Builder, e *jmx.Element) (element.Assertion, error) {
	t := c.Template(e, "XPath.xpath", e.StrOr("XPath.xpath", "/"))
	q, err := response.NewXPathField(c, e, t, response.ParseNamespaces(e.Str("XPath.namespaces")))
	if err != nil {
		return nil, err
	}
	a := &xpathAssertion{v2: true, scope: response.ReadAssertionScope(c, e), query: q, negate: e.Bool("XPath.negate", false)}
	return newAssert(c, e, a), nil
}

func (a *xpathAssertion) check(vu *element.VU, t response.View) Verdict {
	var in string
	if a.scope.Kind == response.ScopeVariable {
		s, ok := vu.Vars.Get(a.scope.Var.Eval(vu))
		if !ok || s == "" {
			return responseWasNull()
		}
		in = s
	} else {
		in = response.BodyString(t.Body)
		if in == "" && !a.v2 {
			return responseWasNull()
		}
	}
	doc, err := response.ParseXPathDoc(in, a.tolerant)
	if err != nil {
		if a.v2 {
			return Errored("Exception occurred computing assertion with XPath:" + a.query.Source.Eval(vu) + ", error:" + err.Error())
		}
		return Errored("SAXException: " + err.Error())
	}
	expr, src, err := a.query.Get(vu, doc)
	if err != nil {
		if a.v2 {
			return Errored("Exception: " + err.Error() + " for:" + src)
		}
		return Errored("TransformerException: " + err.Error() + " for: " + src)
	}
	res := expr.Evaluate(doc.Nav())
	if a.v2 {
		ok := true
		switch v := res.(type) {
		case *xpath.NodeIterator:
			ok = v.MoveNext()
		case bool:
			ok = v
		}
		v := Verdict{Failure: ok == a.negate, MessageSet: true}
		if a.negate {
			v.Message = "Nodes Matched for " + src
		} else {
			v.Message = "No Nodes Matched for " + src
		}
		return v
	}
	switch v := res.(type) {
	case *xpath.NodeIterator:
		if !v.MoveNext() {
			return Verdict{Failure: !a.negate, Message: "No Nodes Matched " + src, MessageSet: true}
		}
		if a.negate {
			return Failed("Specified XPath was found... Turn off negate if this is not desired")
		}
		return passedWith("")
	case bool:
		out := Verdict{Failure: v == a.negate, MessageSet: true}
		if a.negate {
			out.Message = "Nodes Matched for " + src
		} else {
			out.Message = "No Nodes Matched for " + src
		}
		return out
	}
	return Failed("Cannot understand: " + src)
}
