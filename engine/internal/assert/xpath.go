package engine

import (
	"github.com/antchfx/xpath"
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// The XPath Assertion (XPath 1.0, Xalan in JMeter) and the XPath2 Assertion
// (Saxon in JMeter), both run by antchfx/xpath here.

type xpathAssertion struct {
	v2       bool
	scope    sampleScope
	query    *xpathField
	negate   bool
	tolerant bool
}

func buildXPathAssertion(c element.Builder, e *jmx.Element) (Assertion, error) {
	t := c.Template(e, "XPath.xpath", e.StrOr("XPath.xpath", "/"))
	q, err := newXPathField(c, e, t, nil)
	if err != nil {
		return nil, err
	}
	a := &xpathAssertion{scope: readScope(c, e), query: q, negate: e.Bool("XPath.negate", false),
		tolerant: e.Bool("XPath.tolerant", false)}
	return newAssert(c, e, a), nil
}

func buildXPath2Assertion(c element.Builder, e *jmx.Element) (Assertion, error) {
	t := c.Template(e, "XPath.xpath", e.StrOr("XPath.xpath", "/"))
	q, err := newXPathField(c, e, t, parseNamespaces(e.Str("XPath.namespaces")))
	if err != nil {
		return nil, err
	}
	a := &xpathAssertion{v2: true, scope: readScope(c, e), query: q, negate: e.Bool("XPath.negate", false)}
	return newAssert(c, e, a), nil
}

func (a *xpathAssertion) check(vu *VU, t *sampleView) verdict {
	var in string
	if a.scope.kind == scopeVariable {
		s, ok := vu.Vars.Get(a.scope.name.Eval(vu))
		if !ok || s == "" {
			return responseWasNull()
		}
		in = s
	} else {
		in = bodyString(t.body)
		if in == "" && !a.v2 {
			return responseWasNull()
		}
	}
	doc, err := parseXPathDoc(in, a.tolerant)
	if err != nil {
		if a.v2 {
			return errored("Exception occurred computing assertion with XPath:" + a.query.t.Eval(vu) + ", error:" + err.Error())
		}
		return errored("SAXException: " + err.Error())
	}
	expr, src, err := a.query.get(vu, doc)
	if err != nil {
		if a.v2 {
			return errored("Exception: " + err.Error() + " for:" + src)
		}
		return errored("TransformerException: " + err.Error() + " for: " + src)
	}
	res := expr.Evaluate(doc.nav())
	if a.v2 {
		ok := true
		switch v := res.(type) {
		case *xpath.NodeIterator:
			ok = v.MoveNext()
		case bool:
			ok = v
		}
		v := verdict{failure: ok == a.negate, hasMsg: true}
		if a.negate {
			v.msg = "Nodes Matched for " + src
		} else {
			v.msg = "No Nodes Matched for " + src
		}
		return v
	}
	switch v := res.(type) {
	case *xpath.NodeIterator:
		if !v.MoveNext() {
			return verdict{failure: !a.negate, msg: "No Nodes Matched " + src, hasMsg: true}
		}
		if a.negate {
			return failed("Specified XPath was found... Turn off negate if this is not desired")
		}
		return passedWith("")
	case bool:
		out := verdict{failure: v == a.negate, hasMsg: true}
		if a.negate {
			out.msg = "Nodes Matched for " + src
		} else {
			out.msg = "No Nodes Matched for " + src
		}
		return out
	}
	return failed("Cannot understand: " + src)
}
