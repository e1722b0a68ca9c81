package response

import "testing"

// The "Document (text)" field: the text of text documents, the type told
// from the bytes as Tika tells it.
func TestDocumentText(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"empty", "", ""},
		{"plain text", "just text", "just text"},
		{"JSON", `{"a": [1, 2]}`, `{"a": [1, 2]}`},
		{"HTML: the body's text, a line per block", "<!DOCTYPE html><html><head><title>T</title><style>p{}</style></head><body>" +
			"<h1>Title</h1><p>Hello <b>big</b> world</p><script>var x;</script><ul><li>one</li><li>two</li></ul></body></html>",
			"Title\nHello big world\none\ntwo\n\n"},
		{"HTML table cells", "<html><body><table><tr><td>a</td><td>b</td></tr></table></body></html>", "a\tb\t\n\n"},
		{"XML: the character data", `<?xml version="1.0"?><r><a>x</a> <b>y</b></r>`, "x y"},
		{"XML cut short", `<?xml version="1.0"?><r><a>x</a><b>y`, "xy"},
		{"a PDF is not extracted", "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj", MissingTika},
		{"binary", "\x00\x01\x02\x03", MissingTika},
	} {
		if got := DocumentText([]byte(tc.body)); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
