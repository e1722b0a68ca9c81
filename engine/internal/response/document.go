package response

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// JMeter's "Document (text)" field (Assertion.response_data_as_document)
// is the text Apache Tika extracts from the body, the type detected from
// the bytes alone (JMeter's Document.getTextFromDocument gives Tika no
// Content-Type). gojm extracts the text of the documents that are text:
// HTML (its body's text, a line per block, as Tika's HTML parser writes
// it), XML (its character data) and any other text (JSON, plain text) as
// it is. A binary document (PDF, Office, images) is not extracted: its
// text is JMeter's message for a document Tika gave no text for.

// MissingTika is JMeter's text for a document Tika gives no text for
// (view_results_response_missing_tika).
const MissingTika = "Missing tika-app.jar in classpath. Unable to convert to plain text this kind of document.\n" +
	"Download the tika-app-x.x.jar file from http://tika.apache.org/download.html\n" +
	"And put the file in <JMeter>/lib directory."

// DocumentText is the text of a response body as the "Document (text)"
// field reads it.
func DocumentText(body []byte) string {
	if len(body) == 0 {
		return ""
	}
	kind := http.DetectContentType(body)
	var text string
	switch {
	case strings.HasPrefix(kind, "text/html"):
		text = htmlText(body)
	case strings.HasPrefix(kind, "text/xml"):
		text = xmlText(body)
	case strings.HasPrefix(kind, "text/"), strings.HasPrefix(kind, "application/json"):
		text = string(body)
	}
	if text == "" {
		return MissingTika
	}
	return text
}

// htmlBlocks end a line of the text, as Tika's XHTML output does; cells
// end with a tab.
var htmlBlocks = map[atom.Atom]string{
	atom.P: "\n", atom.Div: "\n", atom.H1: "\n", atom.H2: "\n", atom.H3: "\n", atom.H4: "\n", atom.H5: "\n", atom.H6: "\n",
	atom.Ul: "\n", atom.Ol: "\n", atom.Dl: "\n", atom.Li: "\n", atom.Dt: "\n", atom.Dd: "\n", atom.Pre: "\n", atom.Hr: "\n",
	atom.Blockquote: "\n", atom.Address: "\n", atom.Fieldset: "\n", atom.Table: "\n", atom.Tr: "\n", atom.Form: "\n",
	atom.Br: "\n", atom.Select: "\n", atom.Option: "\n", atom.Td: "\t", atom.Th: "\t",
	atom.Article: "\n", atom.Section: "\n", atom.Header: "\n", atom.Footer: "\n", atom.Nav: "\n", atom.Main: "\n",
}

// htmlText is the text of an HTML document's body: its text nodes as they
// are, without scripts, styles or the head, each block ending a line.
func htmlText(body []byte) string {
	doc, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		return ""
	}
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch {
		case n.Type == html.TextNode:
			b.WriteString(n.Data)
			return
		case n.Type == html.ElementNode && (n.DataAtom == atom.Head || n.DataAtom == atom.Script || n.DataAtom == atom.Style):
			return
		}
		for k := n.FirstChild; k != nil; k = k.NextSibling {
			walk(k)
		}
		if n.Type == html.ElementNode {
			b.WriteString(htmlBlocks[n.DataAtom])
		}
	}
	walk(doc)
	return b.String()
}

// xmlText is an XML document's character data, as Tika's XML parser gives
// it; a document that is not well-formed gives what was read before the
// error.
func xmlText(body []byte) string {
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Strict = false
	var b strings.Builder
	for {
		tok, err := d.Token()
		if err != nil {
			if !errors.Is(err, io.EOF) && b.Len() == 0 {
				return ""
			}
			return b.String()
		}
		if cd, ok := tok.(xml.CharData); ok {
			b.Write(cd)
		}
	}
}
