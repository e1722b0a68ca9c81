package config

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/elementtest"
	"github.com/gojm/gojm/jmx"
)

func TestParseCSVRecord(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     [][]string // records until the end of the input
		err      string
	}{
		{"plain", "a,b,c\nd,e,f\n", [][]string{{"a", "b", "c"}, {"d", "e", "f"}}, ""},
		{"crlf", "a,b\r\nc,d", [][]string{{"a", "b"}, {"c", "d"}}, ""},
		{"empty fields", ",b,\n", [][]string{{"", "b", ""}}, ""},
		{"empty line", "a\n\nb\n", [][]string{{"a"}, {""}, {"b"}}, ""},
		{"quoted delimiter", `"a,b",c` + "\n", [][]string{{"a,b", "c"}}, ""},
		{"doubled quote", `"say ""hi""",x`, [][]string{{`say "hi"`, "x"}}, ""},
		{"newline in quotes", "\"multi\nline\",z\nn\n", [][]string{{"multi\nline", "z"}, {"n"}}, ""},
		{"empty quoted", `"",a`, [][]string{{"", "a"}}, ""},
		{"quote in plain field", `ab"c,d`, nil, `cannot have quote-char in plain field:[ab"]`},
		{"text after quote", `"ab"c,d`, nil, `cannot have single quote-char in quoted field:[ab"]`},
		{"missing quote", `"abc`, nil, `missing trailing quote-char in quoted field:["abc]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := bufio.NewReader(strings.NewReader(tc.in))
			var got [][]string
			for {
				rec, err := parseCSVRecord(r, ',', nil)
				if err != nil {
					if tc.err == "" || err.Error() != tc.err {
						t.Fatalf("error %v, want %q", err, tc.err)
					}
					return
				}
				if rec == nil {
					break
				}
				got = append(got, rec)
			}
			if tc.err != "" {
				t.Fatalf("no error, want %q", tc.err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("records %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSplitLine(t *testing.T) {
	for _, tc := range []struct {
		line, delim string
		want        []string
	}{
		{"a,b", ",", []string{"a", "b"}},
		{"a,,b,", ",", []string{"a", "", "b", ""}},
		{",a", ",", []string{"", "a"}},
		{"", ",", nil},
		{"a::b", "::", []string{"a", "b"}},
		{"a\tb", "\t", []string{"a", "b"}},
		{"abc", ",", []string{"abc"}},
		{"ab", "", []string{"a", "b"}},
		{"a,b,c,d,e,f", ",", []string{"a", "b", "c", "d", "e", "f"}}, // more fields than the buffer holds
	} {
		if got := splitLine(tc.line, tc.delim, []string{"old", "fields"}); !slices.Equal(got, tc.want) {
			t.Errorf("splitLine(%q, %q) = %q, want %q", tc.line, tc.delim, got, tc.want)
		}
	}
}

func TestParseShareMode(t *testing.T) {
	for _, tc := range []struct {
		in   string
		mode csvShareMode
	}{
		{"shareMode.all", shareAll}, {"", shareAll}, {"All threads", shareAll},
		{"shareMode.group", shareGroup}, {"Current thread group", shareGroup},
		{"shareMode.thread", shareThread}, {"current thread", shareThread},
		{"my key", shareKey},
	} {
		if m, _ := parseShareMode(tc.in); m != tc.mode {
			t.Errorf("parseShareMode(%q) = %d, want %d", tc.in, m, tc.mode)
		}
	}
}

// BenchmarkCSVDataSetIteration is one iteration start of a shared,
// recycling CSV Data Set over a 10,000-line file: a line read under the
// reader's lock and its values set.
func BenchmarkCSVDataSetIteration(b *testing.B) {
	dir := b.TempDir()
	var sb strings.Builder
	sb.WriteString("user,pass\n")
	for i := range 10000 {
		fmt.Fprintf(&sb, "user%d,\"secret,%d\"\n", i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "users.csv"), []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	c := elementtest.New(nil, "", dir)
	e := &jmx.Element{Class: "CSVDataSet", Name: "users", Props: []*jmx.Prop{
		{Kind: "string", Name: "filename", Value: "users.csv"},
		{Kind: "bool", Name: "quotedData", Value: "true"},
	}}
	ds, err := BuildCSVDataSet(c, e)
	if err != nil {
		b.Fatal(err)
	}
	vu := c.VU(1)
	b.ReportAllocs()
	for b.Loop() {
		ds.IterationStart(vu)
	}
	if v, _ := vu.Vars.Get("pass"); !strings.HasPrefix(v, "secret,") {
		b.Fatalf("pass = %q", v)
	}
}

// BenchmarkCSVDataSetRecycle is a shared CSV Data Set over a short file
// read round and round, as plans read a handful of test users: a header,
// four records, the file started again after every fourth read.
func BenchmarkCSVDataSetRecycle(b *testing.B) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "users.csv"), []byte("user,pass\nalice,a1\nbob,b2\ncarol,c3\ndave,d4\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	c := elementtest.New(nil, "", dir)
	ds, err := BuildCSVDataSet(c, elementtest.El("CSVDataSet", "filename", "users.csv", "recycle", "true"))
	if err != nil {
		b.Fatal(err)
	}
	vu := c.VU(1)
	b.ReportAllocs()
	for b.Loop() {
		ds.IterationStart(vu)
	}
	if v, _ := vu.Vars.Get("pass"); len(v) != 2 {
		b.Fatalf("pass = %q", v)
	}
}

// A line longer than 1 MiB (a file of one endless line) is read no
// further: the CSV Data Set takes it as the end of the file, as JMeter
// takes a read error, in plain and quoted mode.
func TestCSVLineLimit(t *testing.T) {
	dir := t.TempDir()
	long := "ok\n" + strings.Repeat("x", 1<<20+1) + "\nafter\n"
	if err := os.WriteFile(filepath.Join(dir, "long.csv"), []byte(long), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, quoted := range []string{"false", "true"} {
		c := elementtest.New(nil, "", dir)
		e := &jmx.Element{Class: "CSVDataSet", Name: "long", Props: []*jmx.Prop{
			{Kind: "string", Name: "filename", Value: "long.csv"},
			{Kind: "string", Name: "variableNames", Value: "v"},
			{Kind: "bool", Name: "quotedData", Value: quoted},
			{Kind: "bool", Name: "recycle", Value: "false"},
		}}
		ds, err := BuildCSVDataSet(c, e)
		if err != nil {
			t.Fatal(err)
		}
		vu := c.VU(1)
		var got []string
		for range 3 {
			ds.IterationStart(vu)
			v, _ := vu.Vars.Get("v")
			got = append(got, v)
		}
		if want := []string{"ok", eofValue, eofValue}; !slices.Equal(got, want) {
			t.Errorf("quoted %s: values %q, want %q", quoted, got, want)
		}
	}
}

// A file that is not there is a warning when the plan compiles, and each
// user stops at the CSV Data Set's first iteration, as JMeter 5.6's
// threads do.
func TestCSVMissingFileStopsTheThread(t *testing.T) {
	c := elementtest.New(nil, "", t.TempDir())
	e := &jmx.Element{Class: "CSVDataSet", Name: "gone", Props: []*jmx.Prop{
		{Kind: "string", Name: "filename", Value: "/home/alice/gone.csv"},
		{Kind: "string", Name: "variableNames", Value: "v"},
	}}
	ds, err := BuildCSVDataSet(c, e)
	if err != nil || len(c.Errs) > 0 {
		t.Fatal(err, c.Errs)
	}
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], `"/home/alice/gone.csv" not found`) {
		t.Fatalf("warnings %q", c.Warnings)
	}
	vu := c.VU(1)
	ds.IterationStart(vu)
	if !vu.Stopped() {
		t.Error("the user goes on past a CSV Data Set without its file")
	}
	if _, ok := vu.Vars.Get("v"); ok {
		t.Error("the variable was set")
	}
}

// A data set read past the end of its file: with recycle it starts again
// from the first record (after the header line, or the line
// ignoreFirstLine skips), as JMeter's FileServer does by reopening it;
// without, its variables hold <EOF>, or the thread stops. Users sharing
// the file go on where the last one left off.
func TestCSVRecycle(t *testing.T) {
	for _, tc := range []struct {
		name    string
		content string
		props   []string // besides the file name
		users   int      // reading in turn; 1 when 0
		reads   int
		want    string // each read's u-p, space-separated, the users taking turns
	}{
		{name: "names from the header line", content: "u,p\na,1\nb,2\n", reads: 5,
			want: "a-1 b-2 a-1 b-2 a-1"},
		{name: "names given, no header", content: "a,1\nb,2\n", props: []string{"variableNames", "u,p"}, reads: 3,
			want: "a-1 b-2 a-1"},
		{name: "names given, ignoreFirstLine", content: "user,pass\na,1\nb,2\n", props: []string{"variableNames", "u,p", "ignoreFirstLine", "true"}, reads: 4,
			want: "a-1 b-2 a-1 b-2"},
		{name: "no line end at the end", content: "u,p\na,1\nb,2", reads: 3,
			want: "a-1 b-2 a-1"},
		{name: "CRLF and a byte-order mark", content: "\ufeffu,p\r\na,1\r\nb,2\r\n", reads: 3,
			want: "a-1 b-2 a-1"},
		{name: "ISO-8859-1", content: "u,p\ncaf\xe9,1\n", props: []string{"fileEncoding", "ISO-8859-1"}, reads: 2,
			want: "café-1 café-1"},
		{name: "quoted", content: "u,p\n\"a,x\",1\n\"b\nline\",2\n", props: []string{"quotedData", "true"}, reads: 3,
			want: "a,x-1 b\nline-2 a,x-1"},
		{name: "shared by three users", content: "u,p\na,1\nb,2\n", users: 3, reads: 5,
			want: "a-1 b-2 a-1 b-2 a-1"},
		{name: "a header and no data", content: "u,p\n", reads: 2,
			want: "<EOF>-<EOF> <EOF>-<EOF>"},
		{name: "recycle off", content: "u,p\na,1\n", props: []string{"recycle", "false"}, reads: 3,
			want: "a-1 <EOF>-<EOF> <EOF>-<EOF>"},
		{name: "recycle off, quoted", content: "u,p\na,1\n", props: []string{"recycle", "false", "quotedData", "true"}, reads: 2,
			want: "a-1 <EOF>-<EOF>"},
		{name: "stopThread", content: "u,p\na,1\n", props: []string{"recycle", "false", "stopThread", "true"}, reads: 3,
			want: "a-1 stopped stopped"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "d.csv"), []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			c := elementtest.New(nil, "", dir)
			ds, err := BuildCSVDataSet(c, elementtest.El("CSVDataSet", append([]string{"filename", "d.csv"}, tc.props...)...))
			if err != nil || len(c.Errs) > 0 {
				t.Fatal(err, c.Errs)
			}
			vus := make([]*element.VU, max(tc.users, 1))
			for i := range vus {
				vus[i] = c.VU(i + 1)
			}
			var got []string
			for i := range tc.reads {
				vu := vus[i%len(vus)]
				if vu.Stopped() {
					got = append(got, "stopped")
					continue
				}
				ds.IterationStart(vu)
				if vu.Stopped() {
					got = append(got, "stopped")
					continue
				}
				u, _ := vu.Vars.Get("u")
				p, _ := vu.Vars.Get("p")
				got = append(got, u+"-"+p)
			}
			if g := strings.Join(got, " "); g != tc.want {
				t.Errorf("read %q\nwant %q", g, tc.want)
			}
		})
	}
}
