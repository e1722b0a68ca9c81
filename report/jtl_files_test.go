package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Listeners naming one file write it through one writer: one header, and
// their rows in the order they get the samples, as JMeter's do.
func TestResultFilesShareAFile(t *testing.T) {
	for _, format := range []string{"csv", "xml"} {
		t.Run(format, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			cfg := DefaultSaveConfig()
			cfg.XML = format == "xml"
			var rf ResultFiles
			first, err := rf.Open("out.jtl", cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			second, err := rf.Open(filepath.Join(dir, "sub", "..", "out.jtl"), cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			other, err := rf.Open("other.jtl", cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i, label := range []string{"a", "b", "c"} {
				s := &Sample{Label: label, Start: time.UnixMilli(1e12), Success: true, Code: "200"}
				first.Add(s)
				if i != 1 {
					second.Add(s)
				}
			}
			other.Add(&Sample{Label: "x", Start: time.UnixMilli(1e12)})
			for _, s := range []Sink{second, first, other} {
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
			}
			b, err := os.ReadFile(filepath.Join(dir, "out.jtl"))
			if err != nil {
				t.Fatal(err)
			}
			got := string(b)
			header, root := strings.Count(got, "timeStamp,"), strings.Count(got, "<testResults")
			var labels []string
			for _, line := range strings.Split(got, "\n") {
				for _, l := range []string{"a", "b", "c"} {
					if strings.Contains(line, ",200,") && strings.Contains(line, ","+l+",") ||
						strings.Contains(line, `lb="`+l+`"`) {
						labels = append(labels, l)
					}
				}
			}
			if header+root != 1 || strings.Join(labels, "") != "aabcc" {
				t.Errorf("%d headers, %d roots, rows %v; want one header or root and rows a a b c c:\n%s",
					header, root, labels, got)
			}
			if o, _ := os.ReadFile(filepath.Join(dir, "other.jtl")); !strings.Contains(string(o), "x") {
				t.Errorf("the other file holds %q", o)
			}
		})
	}
}

// Each listener's rows follow its own save configuration, as JMeter's do.
func TestResultFilesEachListenerItsColumns(t *testing.T) {
	t.Chdir(t.TempDir())
	var rf ResultFiles
	full := DefaultSaveConfig()
	short := SaveConfig{Label: true, Code: true, Delimiter: ','}
	a, err := rf.Open("out.csv", full, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := rf.Open("out.csv", short, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := &Sample{Label: "x", Code: "200", Start: time.UnixMilli(1e12), Success: true, ThreadName: "T 1-1"}
	a.Add(s)
	b.Add(s)
	if rf.SavesDetail() {
		t.Error("SavesDetail with CSV files")
	}
	b.Close()
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile("out.csv")
	lines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "timeStamp,") || !strings.Contains(lines[1], "T 1-1") || lines[2] != "x,200" {
		t.Errorf("file:\n%s\nwant the header, the full row, then x,200", got)
	}
}
