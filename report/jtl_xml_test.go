package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestXMLWriterGolden(t *testing.T) {
	var buf bytes.Buffer
	w := defaultXML(t, &buf, []string{"user", "api_token"})
	for _, s := range fixture() {
		w.Add(s)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	golden(t, "default.xml", buf.Bytes())
}

// What JMeter 5.6 adds to each sample when the save configuration asks
// for headers, data and file names: an element per part in JMeter's order,
// empty ones closed at once; an HTTP sample's cookies, method, query
// string and redirect location where another keeps its sampler data;
// response data only of failed samples with response_data.on_error.
func TestXMLWriterDetailGolden(t *testing.T) {
	withDetail := func() []*Sample {
		ss := fixture()
		ss[0].Detail = &Detail{ResponseHeaders: "HTTP/1.1 200 OK\nContent-Type: text/html\n",
			RequestHeaders: "Host: 127.0.0.1:8080\n", ResponseData: []byte("<p>caf\xe9 & \"tea\"</p>"),
			Cookies: "sid=1", Method: "GET"}
		ss[1].Detail = &Detail{ResponseHeaders: "HTTP/1.1 500 Internal Server Error\n", Method: "GET",
			QueryString: "q=a,b&x=\"y\"", ResponseData: []byte("boom")}
		ss[2].Sub[0].Detail = &Detail{Method: "POST", QueryString: "u=al", Redirect: "/home"}
		ss = append(ss, &Sample{Start: ss[0].Start, Label: "java", Code: "200", Success: true, DataType: "bin",
			Detail: &Detail{ResponseData: []byte{0, 1}, SamplerData: "in\nput"}})
		return ss
	}
	for _, tc := range []struct {
		golden string
		cfg    func(*SaveConfig)
	}{
		{"detail.xml", func(c *SaveConfig) {
			c.ResponseHeaders, c.RequestHeaders, c.ResponseData, c.SamplerData, c.FileName = true, true, true, true, true
		}},
		{"detail-onerror.xml", func(c *SaveConfig) { c.ResponseDataOnError = true }},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			cfg := DefaultSaveConfig()
			cfg.XML = true
			tc.cfg(&cfg)
			if !cfg.SavesDetail() {
				t.Fatal("the configuration saves no detail")
			}
			var buf bytes.Buffer
			w, err := NewXMLWriter(&buf, cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range withDetail() {
				w.Add(s)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.golden, buf.Bytes())
		})
	}
}

func TestAppendXMLText(t *testing.T) {
	tests := []struct {
		in         string
		attr, text string
	}{
		{in: "plain", attr: "plain", text: "plain"},
		{in: `a&b<c>"d"'e'`, attr: "a&amp;b&lt;c&gt;&quot;d&quot;&apos;e&apos;", text: "a&amp;b&lt;c&gt;&quot;d&quot;&apos;e&apos;"},
		{in: "l1\nl2\tx\r", attr: "l1&#xa;l2&#x9;x&#xd;", text: "l1\nl2\tx&#xd;"},
		{in: "nul\x00 bell\x07 del\x7f", attr: "nul&#x0; bell&#x7; del&#x7f;", text: "nul&#x0; bell&#x7; del&#x7f;"},
		{in: "é ü \u0085 ✓", attr: "é ü &#x85; ✓", text: "é ü &#x85; ✓"},
	}
	for _, tt := range tests {
		if got := string(appendXMLText(nil, tt.in, true)); got != tt.attr {
			t.Errorf("attribute %q: got %q, want %q", tt.in, got, tt.attr)
		}
		if got := string(appendXMLText(nil, tt.in, false)); got != tt.text {
			t.Errorf("text %q: got %q, want %q", tt.in, got, tt.text)
		}
	}
}

func TestOpenResultFileAppendsXML(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out", "res.xml")
	cfg := DefaultSaveConfig()
	cfg.XML = true
	for range 2 {
		w, err := OpenResultFile(path, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		w.Add(fixture()[0])
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "<testResults"); n != 1 {
		t.Errorf("%d <testResults> openings, want 1:\n%s", n, data)
	}
	if n := strings.Count(string(data), "</testResults>"); n != 1 {
		t.Errorf("%d </testResults> endings, want 1:\n%s", n, data)
	}
	var got collect
	if err := ReadJTL(bytes.NewReader(data), path, &got, ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(got.samples) != 2 {
		t.Errorf("decoded %d samples, want 2", len(got.samples))
	}
}

func TestOpenResultFileXML(t *testing.T) {
	path := filepath.Join(t.TempDir(), "res.jtl")
	cfg := DefaultSaveConfig()
	cfg.XML = true
	w, err := OpenResultFile(path, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := w.(*XMLWriter); !ok {
		t.Fatalf("OpenResultFile with xml=true gave %T", w)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if want := xmlHeader + xmlResultsOpen + "\n" + xmlResultsEnd + "\n"; string(data) != want {
		t.Errorf("empty XML JTL:\n%q\nwant\n%q", data, want)
	}
}

func BenchmarkXMLWriter(b *testing.B) {
	s := fixture()[2]
	var buf bytes.Buffer
	w := defaultXML(b, &buf, nil)
	b.ReportAllocs()
	for range b.N {
		w.Add(s)
		if buf.Len() > 1<<20 {
			buf.Reset()
		}
	}
}
