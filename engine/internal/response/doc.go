// Package response is what extractors, assertions and scripts read of a
// sample: which samples an element looks at (JMeter's Sample.scope: the
// main sample, its sub-samples, both, or a variable), which part of one
// (the "field to check": body, headers, URL, code, message, request data,
// the text of a document as JMeter's "Document (text)" reads it),
// JSON documents (and YAML ones, read into the same tree) in key order
// with Jayway's JSONPath (a definite path followed through a JSON text
// without building the tree), XPath documents
// (XML, or HTML read tolerantly), and pattern fields compiled once or by
// value. Values read from a document are written back as Java writes them.
//
// It imports element, internal/java and internal/cache, jmx, report,
// httpx (the response header), ojg (JSONPath), go.yaml.in/yaml/v3,
// antchfx's xpath, xmlquery and htmlquery, and golang.org/x/net/html.
package response
