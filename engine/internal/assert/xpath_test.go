package assert

import "testing"

const feed = `<?xml version="1.0"?>
<response xmlns:m="urn:m"><status>OK</status><items><item id="1">a</item><item id="2">b</item><item id="3"><x/>c</item></items><m:code>7</m:code></response>`

func TestXPathAssertions(t *testing.T) {
	runAssertCases(t, "XPathAssertion", BuildXPath, []assertCase{
		{"found", feed, []string{"XPath.xpath", "/response/status"}, nil, true, ""},
		{"not found", feed, []string{"XPath.xpath", "/response/nope"}, nil, false, "No Nodes Matched /response/nope"},
		{"negated, not found: passes but says so", feed, []string{"XPath.xpath", "/response/nope", "XPath.negate", "true"}, nil, true, "No Nodes Matched /response/nope"},
		{"negated, found", feed, []string{"XPath.xpath", "/response/status", "XPath.negate", "true"}, nil, false,
			"Specified XPath was found... Turn off negate if this is not desired"},
		{"boolean true still carries a message", feed, []string{"XPath.xpath", "count(//item)=3"}, nil, true, "No Nodes Matched for count(//item)=3"},
		{"boolean false", feed, []string{"XPath.xpath", "count(//item)=2"}, nil, false, "No Nodes Matched for count(//item)=2"},
		{"number", feed, []string{"XPath.xpath", "count(//item)"}, nil, false, "Cannot understand: count(//item)"},
		{"empty", "", []string{"XPath.xpath", "/"}, nil, false, "Response was null"},
	})
	runAssertCases(t, "XPath2Assertion", BuildXPath2, []assertCase{
		{"found", feed, []string{"XPath.xpath", "//n:code", "XPath.namespaces", "n=urn:m"}, nil, true, "No Nodes Matched for //n:code"},
		{"not found", feed, []string{"XPath.xpath", "//nope"}, nil, false, "No Nodes Matched for //nope"},
		{"negated", feed, []string{"XPath.xpath", "//item", "XPath.negate", "true"}, nil, false, "Nodes Matched for //item"},
		{"boolean", feed, []string{"XPath.xpath", "count(//item) = 3"}, nil, true, "No Nodes Matched for count(//item) = 3"},
	})
}
