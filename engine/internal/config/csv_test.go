package config

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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
				rec, err := parseCSVRecord(r, ',')
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
	} {
		if got := splitLine(tc.line, tc.delim); !slices.Equal(got, tc.want) {
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
