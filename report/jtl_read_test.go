package report

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// sameSample compares two samples field by field, times by instant.
func sameSample(t *testing.T, what string, got, want *Sample) {
	t.Helper()
	if !got.Start.Equal(want.Start) {
		t.Errorf("%s: Start %v, want %v", what, got.Start, want.Start)
	}
	g, w := *got, *want
	g.Start, w.Start = time.Time{}, time.Time{}
	g.Sub, w.Sub = nil, nil
	if len(g.Vars) == 0 {
		g.Vars = nil
	}
	if len(w.Vars) == 0 {
		w.Vars = nil
	}
	if len(g.Assertions) == 0 {
		g.Assertions = nil
	}
	if len(w.Assertions) == 0 {
		w.Assertions = nil
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s:\n got %+v\nwant %+v", what, g, w)
	}
	if len(got.Sub) != len(want.Sub) {
		t.Errorf("%s: %d sub-samples, want %d", what, len(got.Sub), len(want.Sub))
		return
	}
	for i := range got.Sub {
		sameSample(t, what+" sub "+want.Sub[i].Label, got.Sub[i], want.Sub[i])
	}
}

func TestCSVRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w := defaultCSV(t, &buf, fixtureVars)
	for _, s := range fixture() {
		w.Add(s)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	// A CSV JTL holds each sub-result as a row with its parent's variables,
	// and no assertion results.
	var want []*Sample
	var flat func(s *Sample, vars []string)
	flat = func(s *Sample, vars []string) {
		c := *s
		c.Sub, c.Assertions, c.Vars = nil, nil, vars
		want = append(want, &c)
		for _, sub := range s.Sub {
			flat(sub, vars)
		}
	}
	for _, s := range fixture() {
		flat(s, s.Vars)
	}
	var got collect
	if err := ReadJTL(&buf, "roundtrip.csv", &got, ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(got.samples) != len(want) {
		t.Fatalf("decoded %d samples, want %d", len(got.samples), len(want))
	}
	for i := range want {
		sameSample(t, want[i].Label, got.samples[i], want[i])
	}
}

func TestXMLRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w := defaultXML(t, &buf, fixtureVars)
	for _, s := range fixture() {
		w.Add(s)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	// Sub-samples carry their parent's variables; the failure message comes
	// back from the first failed assertion.
	want := fixture()
	for _, s := range want {
		for _, sub := range s.Sub {
			sub.Vars = s.Vars
		}
	}
	var got collect
	if err := ReadJTL(&buf, "roundtrip.xml", &got, ReadOptions{VarNames: fixtureVars}); err != nil {
		t.Fatal(err)
	}
	if len(got.samples) != len(want) {
		t.Fatalf("decoded %d samples, want %d", len(got.samples), len(want))
	}
	for i := range want {
		sameSample(t, want[i].Label, got.samples[i], want[i])
	}
}

func TestReadCSVVariants(t *testing.T) {
	local := func(layout, v string) time.Time {
		tm, err := time.ParseInLocation(layout, v, time.Local)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	tests := []struct {
		name  string
		in    string
		opt   ReadOptions
		want  []Sample
		vars0 []string
	}{
		{
			name: "subset header",
			in:   "label,success,elapsed\nA,true,12\nB,false,7\n",
			want: []Sample{
				{Label: "A", Success: true, Elapsed: ms(12), Start: time.UnixMilli(0)},
				{Label: "B", Elapsed: ms(7), Start: time.UnixMilli(0)},
			},
		},
		{
			name: "header with another delimiter, CRLF",
			in:   "timeStamp|elapsed|label|success\r\n1000|5|a|b|true\r\n",
			want: nil, // "a|b" unquoted splits: too many fields is tolerated, label "a", success "b" → false
		},
		{
			name: "semicolon header found by its first separator",
			in:   "timeStamp;elapsed;label;URL\n1000;5;x,y;null\n2000;6;\"q;\"\"r\";http://h/\n",
			want: []Sample{
				{Start: time.UnixMilli(1000), Elapsed: ms(5), Label: "x,y"},
				{Start: time.UnixMilli(2000), Elapsed: ms(6), Label: `q;"r`, URL: "http://h/"},
			},
		},
		{
			name: "CR line ends and a quoted line break",
			in:   "label,responseMessage,success\r\"a\nb\",\"m\r\nn\",true\rc,,false",
			want: []Sample{
				{Label: "a\nb", Message: "m\r\nn", Success: true, Start: time.UnixMilli(0)},
				{Label: "c", Start: time.UnixMilli(0)},
			},
		},
		{
			name: "byte order mark, blank lines, variables",
			in:   "\xef\xbb\xbflabel,\"v1\",\"v2\"\n\nx,1,\"2,3\"\n\n",
			want: []Sample{{Label: "x", Start: time.UnixMilli(0), Vars: []string{"1", "2,3"}}},
		},
		{
			name: "date timestamps",
			in:   "timeStamp,label\n2011/03/13 07:06:40.005,a\n2011-03-13 07:06:41,b\n",
			want: []Sample{
				{Start: local("2006/01/02 15:04:05.000", "2011/03/13 07:06:40.005"), Label: "a"},
				{Start: local("2006-01-02 15:04:05", "2011-03-13 07:06:41"), Label: "b"},
			},
		},
		{
			name: "no header, columns from properties",
			in:   "12\tA\t1\n",
			opt: ReadOptions{Properties: map[string]string{
				"jmeter.save.saveservice.timestamp_format":                  "none",
				"jmeter.save.saveservice.label":                             "true",
				"jmeter.save.saveservice.default_delimiter":                 `\t`,
				"jmeter.save.saveservice.response_code":                     "false",
				"jmeter.save.saveservice.response_message":                  "false",
				"jmeter.save.saveservice.thread_name":                       "false",
				"jmeter.save.saveservice.data_type":                         "false",
				"jmeter.save.saveservice.successful":                        "false",
				"jmeter.save.saveservice.assertion_results_failure_message": "false",
				"jmeter.save.saveservice.bytes":                             "false",
				"jmeter.save.saveservice.sent_bytes":                        "false",
				"jmeter.save.saveservice.thread_counts":                     "false",
				"jmeter.save.saveservice.url":                               "false",
				"jmeter.save.saveservice.latency":                           "false",
				"jmeter.save.saveservice.idle_time":                         "false",
				"jmeter.save.saveservice.connect_time":                      "false",
				"sample_variables":                                          "n",
			}},
			want: []Sample{{Elapsed: ms(12), Label: "A", Start: time.UnixMilli(0), Vars: []string{"1"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got collect
			err := ReadJTL(strings.NewReader(tt.in), "in.csv", &got, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == nil {
				if len(got.samples) != 1 || got.samples[0].Label != "a" || got.samples[0].Success {
					t.Errorf("got %+v", got.samples)
				}
				return
			}
			if len(got.samples) != len(tt.want) {
				t.Fatalf("decoded %d samples, want %d: %+v", len(got.samples), len(tt.want), got.samples)
			}
			for i := range tt.want {
				sameSample(t, tt.want[i].Label, got.samples[i], &tt.want[i])
			}
		})
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"bad integer", "timeStamp,elapsed,label\n1,2,a\n3,x4,b\n", "bad.jtl:3: elapsed: not an integer"},
		{"too few fields", "timeStamp,elapsed,label,success\n1,2,a\n", "bad.jtl:2: success: row has 3 fields, expected 4"},
		{"quote in plain field", "label,success\nab\"c,true\n", "bad.jtl:2: malformed CSV quoting: a quote inside an unquoted field"},
		{"lone quote", "label,success\n\"a\"b,true\n", "bad.jtl:2: malformed CSV quoting: a lone quote"},
		{"unterminated quote", "label,success\nx,true\n\"a,\nb\n", "bad.jtl:3: malformed CSV quoting: missing closing quote"},
		{"line count after quoted line end", "label,elapsed\n\"a\nb\",1\r\nc,2\rd,x\n", "bad.jtl:5: elapsed: not an integer"},
		{"bad date", "timeStamp,label\n2011-99-99,a\n", "bad.jtl:2: timeStamp: not milliseconds nor a known date format"},
		{"xml bad attribute", "<testResults>\n<sample t=\"1\"/>\n<sample\n t=\"x\"/>\n</testResults>", "bad.jtl:4: t: not an integer"},
		{"xml wrong root", "<html></html>", "bad.jtl:1: root element is <html>"},
		{"xml cut inside a sample", "<testResults>\n<sample t=\"1\">\n<assertionResult>", "bad.jtl:3: unexpected EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ReadJTL(strings.NewReader(tt.in), "bad.jtl", &collect{}, ReadOptions{})
			if tt.want == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
			var je *JTLError
			if !errors.As(err, &je) {
				t.Errorf("error %T is not a *JTLError", err)
			}
		})
	}
}

func TestReadXMLWithoutEnd(t *testing.T) {
	in := xmlHeader + xmlResultsOpen + `<sample t="5" lb="a" s="true"/>` + "\n" + `<sample t="6" lb="b" s="false"/>` + "\n"
	var got collect
	if err := ReadJTL(strings.NewReader(in), "killed.xml", &got, ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(got.samples) != 2 || got.samples[1].Success {
		t.Errorf("got %+v", got.samples)
	}
}

// TestReadV2Headerless decodes a hand-made JMeter 2.x file (no header, ';'
// between fields, columns from a properties file) and checks the
// statistics worked out by hand.
func TestReadV2Headerless(t *testing.T) {
	props, err := LoadSaveServiceProperties(filepath.Join("testdata", "jtl", "jmeter2.properties"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := props["not.a.save.property"]; ok {
		t.Error("LoadSaveServiceProperties kept an unrelated key")
	}
	f, err := os.Open(filepath.Join("testdata", "jtl", "v2_headerless.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st := NewStats(StatsOptions{})
	var got collect
	if err := ReadJTL(f, "v2_headerless.csv", Sinks{st, &got}, ReadOptions{Properties: props}); err != nil {
		t.Fatal(err)
	}
	if len(got.samples) != 6 {
		t.Fatalf("decoded %d samples, want 6", len(got.samples))
	}
	tx := got.samples[4]
	if !tx.Transaction || tx.Label != "Tx" || tx.Latency != ms(740) || tx.Bytes != 1300 {
		t.Errorf("transaction sample decoded as %+v", tx)
	}
	if l := got.samples[5].Label; l != "Log;in" {
		t.Errorf("quoted label decoded as %q", l)
	}
	checkStats(t, st, []statsWant{
		{label: "Total", count: 5, errors: 1, mean: 640, min: 100, max: 1600, median: 500, p90: 1600,
			throughput: 2.5, kbps: 3700.0 / 2 / 1024, apdex: 0.5},
		{label: "Home", count: 3, mean: 2000.0 / 3, min: 100, max: 1600, median: 300, p90: 1600,
			throughput: 1.5, kbps: 3300.0 / 2 / 1024, apdex: 2.0 / 3},
		{label: "Login", count: 1, errors: 1, mean: 700, min: 700, max: 700, median: 700, p90: 700,
			throughput: 1000.0 / 700, kbps: 300.0 / 0.7 / 1024, apdex: 0},
		{label: "Tx", count: 1, errors: 1, mean: 900, min: 900, max: 900, median: 900, p90: 900,
			throughput: 1000.0 / 900, kbps: 1300.0 / 0.9 / 1024, apdex: 0, transaction: true},
		{label: "Log;in", count: 1, mean: 500, min: 500, max: 500, median: 500, p90: 500,
			throughput: 2, kbps: 100.0 / 0.5 / 1024, apdex: 1},
	})
}

// TestReadXMLSubSamples decodes a hand-made XML file with nested samples,
// an assertion result and response data to skip.
func TestReadXMLSubSamples(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "jtl", "subsamples.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var got collect
	if err := ReadJTL(bytes.NewReader(data), "subsamples.xml", &got, ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(got.samples) != 3 {
		t.Fatalf("decoded %d samples, want 3", len(got.samples))
	}
	page, tx, nos := got.samples[0], got.samples[1], got.samples[2]
	if len(page.Sub) != 2 || page.Sub[1].URL != "http://127.0.0.1/b?x=1&y=2" || page.Sub[0].Code != "302" ||
		page.Connect != ms(5) || page.SentBytes != 100 {
		t.Errorf("page decoded as %+v (subs %+v)", page, page.Sub)
	}
	if !tx.Transaction || len(tx.Sub) != 1 || tx.Sub[0].FailureMessage != `Expected "ok"` ||
		len(tx.Sub[0].Assertions) != 1 || !tx.Sub[0].Assertions[0].Failure {
		t.Errorf("transaction decoded as %+v (subs %+v)", tx, tx.Sub)
	}
	if !nos.Success || nos.Elapsed != ms(10) {
		t.Errorf("a sample without s= is a success, got %+v", nos)
	}

	tests := []struct {
		name   string
		opt    StatsOptions
		labels []string
		total  int64
	}{
		{"top level", StatsOptions{}, []string{"Page", "Tx", "NoS"}, 2},
		{"with sub-results", StatsOptions{SubResults: true}, []string{"Page", "Page-0", "Page-1", "Tx", "Check", "NoS"}, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := NewStats(tt.opt)
			if err := ReadJTL(bytes.NewReader(data), "subsamples.xml", st, ReadOptions{}); err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, l := range st.Labels() {
				names = append(names, l.Label)
			}
			if !reflect.DeepEqual(names, tt.labels) {
				t.Errorf("labels %q, want %q", names, tt.labels)
			}
			if st.Total().Count != tt.total {
				t.Errorf("total count %d, want %d", st.Total().Count, tt.total)
			}
		})
	}
}

func TestParseCSVHeader(t *testing.T) {
	tests := []struct {
		line string
		ok   bool
		vars []string
		cols string
	}{
		{line: DefaultSaveConfig().CSVHeader([]string{"a", "b"}), ok: true, vars: []string{"a", "b"},
			cols: DefaultSaveConfig().CSVHeader([]string{"a", "b"})},
		{line: "label\tsuccess", ok: true, cols: "label\tsuccess"},
		{line: "timeStamp,elapsed,label,bogus", ok: false},
		{line: "1700000000000,1,a", ok: false},
		{line: "", ok: false},
	}
	for _, tt := range tests {
		cfg, vars, ok := ParseCSVHeader(tt.line)
		if ok != tt.ok {
			t.Errorf("%q: ok=%v, want %v", tt.line, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		if !reflect.DeepEqual(vars, tt.vars) {
			t.Errorf("%q: vars %q, want %q", tt.line, vars, tt.vars)
		}
		if got := cfg.CSVHeader(vars); got != tt.cols {
			t.Errorf("%q: config gives header %q", tt.line, got)
		}
	}
}

func FuzzReadJTL(f *testing.F) {
	f.Add([]byte("timeStamp,elapsed,label,success\n1,2,\"a,b\",true\n"))
	f.Add([]byte("1;2;x\r\n"))
	f.Add([]byte(xmlHeader + xmlResultsOpen + `<sample t="1"><sample t="2"/></sample>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var c collect
		_ = ReadJTL(bytes.NewReader(data), "fuzz", &c, ReadOptions{}) // must not panic
	})
}

func BenchmarkReadJTLCSV(b *testing.B) {
	var buf bytes.Buffer
	w := defaultCSV(b, &buf, nil)
	for range 10000 {
		for _, s := range fixture() {
			w.Add(s)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	rows := bytes.Count(data, []byte("\n")) - 1
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := ReadJTL(bytes.NewReader(data), "bench.csv", Sinks{}, ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rows*b.N)/b.Elapsed().Seconds(), "rows/s")
}

// signal is a Sink telling a channel about each sample.
type signal chan string

func (s signal) Add(x *Sample) { s <- x.Label }
func (s signal) Close() error  { return nil }

// TestReadJTLStreams checks that a row is delivered as soon as it has
// arrived, without waiting for more input (a JTL read from a pipe while
// the run is still writing it). Within the bubble, a decoder waiting for
// input that never comes is reported as a deadlock instead of hanging.
func TestReadJTLStreams(t *testing.T) {
	for _, in := range []string{
		"label,success\na,true\n",
		xmlHeader + xmlResultsOpen + `<sample lb="a" s="true"/>` + "\n",
	} {
		synctest.Test(t, func(t *testing.T) {
			pr, pw := io.Pipe()
			got := make(signal)
			done := make(chan error)
			go func() { done <- ReadJTL(pr, "pipe", got, ReadOptions{}) }()
			if _, err := io.WriteString(pw, in); err != nil {
				t.Fatal(err)
			}
			if l := <-got; l != "a" { // the row arrives before the writer closes
				t.Errorf("label %q", l)
			}
			pw.Close()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		})
	}
}

func BenchmarkReadJTLXML(b *testing.B) {
	var buf bytes.Buffer
	w := defaultXML(b, &buf, nil)
	for range 2000 {
		for _, s := range fixture() {
			w.Add(s)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := ReadJTL(bytes.NewReader(data), "bench.xml", Sinks{}, ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(2000*len(fixture())*b.N)/b.Elapsed().Seconds(), "samples/s")
}
