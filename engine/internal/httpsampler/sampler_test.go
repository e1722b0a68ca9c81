package httpsampler

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The page of JMeter's batch test HTMLParserTestFile_2 and the resources
// JMeter's unit tests expect its parser to find.
func TestHTTPEmbeddedLinksOfJMeterTestFile(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "..", "shared", "corpus", "jmeter-testfiles")
	page, err := os.ReadFile(filepath.Join(dir, "HTMLParserTestFile_2.html"))
	if err != nil {
		t.Skipf("JMeter's test files are not here: %v", err)
	}
	want, err := os.ReadFile(filepath.Join(dir, "HTMLParserTestFile_2.all"))
	if err != nil {
		t.Fatal(err)
	}
	base, _ := url.Parse("http://localhost/HTMLParserTestFile_2.html")
	got := strings.Join(htmlLinks(page, base), "\n")
	if w := strings.ReplaceAll(strings.TrimSpace(string(want)), "file:", "http://localhost/"); got != w {
		t.Errorf("links\n%s\nwant\n%s", got, w)
	}
}

func TestHTTPDataType(t *testing.T) {
	for ct, want := range map[string]string{
		"": "", "text/html; charset=UTF-8": "text", "application/json": "text", "application/octet-stream": "text",
		"image/png": "bin", "image/svg+xml": "text", "audio/mpeg": "bin", "audio/x-mpegurl": "text", "video/mp4": "bin",
	} {
		if got := dataType(ct); got != want {
			t.Errorf("dataType(%q) = %q, want %q", ct, got, want)
		}
	}
}

func TestHostHeaderLeavesOutTheDefaultPort(t *testing.T) {
	if got := hostHeader("example.test:443", "https://127.0.0.1:1/x"); got != "example.test" {
		t.Errorf("the default port is left out of Host: %q", got)
	}
}
