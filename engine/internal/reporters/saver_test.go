package reporters

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/elementtest"
	"github.com/gojm/gojm/report"
)

func TestInside(t *testing.T) {
	for in, want := range map[string]string{
		"resp_": "resp_", "out/resp_": "out/resp_", "/tmp/resp_": "tmp/resp_", "../../etc/x": "etc/x",
		`C:\Users\me\resp_`: "Users/me/resp_", "a/../../b": "b", "": "",
	} {
		if got := filepath.ToSlash(inside(in)); got != want {
			t.Errorf("inside(%q) = %q, want %q", in, got, want)
		}
	}
}

// Each sample and sub-sample in its own numbered file inside the output
// folder, named as JMeter names them, with the variables set.
func TestSaver(t *testing.T) {
	for _, tt := range []struct {
		name  string
		kv    []string
		files map[string]string // path in the output folder → content
		vars  string
	}{
		{"numbered with suffixes", []string{propFilename, "r/resp_", propVariable, "f"},
			map[string]string{"r/resp_1.html": "<p>main</p>", "r/resp_2.plain": "sub", "r/resp_3.unknown": "fail",
				"r/resp_4.html": "<p>main</p>", "r/resp_5.plain": "sub", "r/resp_6.unknown": "fail"},
			"f=r/resp_4.html; f1=r/resp_5.plain; f2=r/resp_6.unknown"},
		{"errors only, padded", []string{propFilename, "/abs/e_", propErrors, "true", propPad, "3"},
			map[string]string{"abs/e_001.unknown": "fail", "abs/e_002.unknown": "fail"}, ""},
		{"successes only, no number", []string{propFilename, "s", propSuccesses, "true", propNoNumber, "true"},
			map[string]string{"s.html": "<p>main</p>", "s.plain": "sub"}, ""},
		{"no suffix", []string{propFilename, "x", propNoSuffix, "true", propErrors, "true"},
			map[string]string{"x1": "fail", "x2": "fail"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := elementtest.New(nil, "", "")
			l, err := BuildSaver(b, elementtest.El("ResultSaver", tt.kv...))
			if err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			b.Run().OutDir = out
			vu := b.VU(1)
			for range 2 {
				r := elementtest.Response("<p>main</p>")
				r.Head.Set("Content-Type", "text/html; charset=UTF-8")
				r.Sub = []*report.Sample{
					{Label: "sub", Success: true, Detail: &report.Detail{ResponseHeaders: "HTTP/1.1 200 OK\nContent-Type: text/plain\n", ResponseData: []byte("sub")}},
					{Label: "failed", Detail: &report.Detail{ResponseData: []byte("fail")}},
				}
				l.SampleOccurred(vu, r)
			}
			got := map[string]string{}
			filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					b, _ := os.ReadFile(p)
					rel, _ := filepath.Rel(out, p)
					got[filepath.ToSlash(rel)] = string(b)
				}
				return nil
			})
			if !sameMap(got, tt.files) {
				t.Errorf("files %v\nwant  %v", got, tt.files)
			}
			if tt.vars != "" {
				vars := strings.ReplaceAll(elementtest.Vars(vu, "f", "f1", "f2"), out+string(filepath.Separator), "")
				if vars != tt.vars {
					t.Errorf("vars %s, want %s", vars, tt.vars)
				}
			}
		})
	}
}

// A transaction's own sample is not saved unless asked; without an
// output folder nothing is.
func TestSaverSkips(t *testing.T) {
	b := elementtest.New(nil, "", "")
	l, _ := BuildSaver(b, elementtest.El("ResultSaver", propFilename, "t_"))
	out := t.TempDir()
	vu := b.VU(1)
	r := elementtest.Response("x")
	l.SampleOccurred(vu, r) // no output folder yet
	b.Run().OutDir = out
	r.Transaction = true
	l.SampleOccurred(vu, r)
	if names, _ := os.ReadDir(out); len(names) != 0 {
		t.Errorf("saved %v", names)
	}
}

func sameMap(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if b[k] != a[k] {
			return false
		}
	}
	return true
}

var _ element.SampleListener = (*saver)(nil)
