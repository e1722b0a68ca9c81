package report

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (go test -update rewrites it)\n--- got:\n%s\n--- want:\n%s", path, got, want)
	}
}

// corpusDir is JMeter's batch-test outputs in the shared corpus, or skips.
func corpusDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join("..", "..", "shared", "corpus", "jmeter-testfiles")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("JMeter batch-test files not found at %s (the shared corpus is not on this machine)", dir)
	}
	return dir
}

// t0 is a fixed start time for hand-made samples.
var t0 = time.UnixMilli(1700000000000)

func ms(n int64) time.Duration { return time.Duration(n) * time.Millisecond }

// collect is a Sink keeping deep copies of the samples it gets.
type collect struct {
	samples []*Sample
	closed  bool
}

func (c *collect) Add(s *Sample) { c.samples = append(c.samples, cloneSample(s)) }
func (c *collect) Close() error  { c.closed = true; return nil }

func cloneSample(s *Sample) *Sample {
	cp := *s
	cp.Vars = append([]string(nil), s.Vars...)
	cp.Assertions = append([]AssertionResult(nil), s.Assertions...)
	cp.Sub = nil
	for _, sub := range s.Sub {
		cp.Sub = append(cp.Sub, cloneSample(sub))
	}
	return &cp
}

// defaultCSV is a CSVWriter into w with JMeter 5.6's default columns.
func defaultCSV(t testing.TB, w io.Writer, varNames []string) *CSVWriter {
	t.Helper()
	cw, err := NewCSVWriter(w, DefaultSaveConfig(), varNames)
	if err != nil {
		t.Fatal(err)
	}
	return cw
}

// defaultXML is an XMLWriter into w with JMeter 5.6's default fields.
func defaultXML(t testing.TB, w io.Writer, varNames []string) *XMLWriter {
	t.Helper()
	xw, err := NewXMLWriter(w, DefaultSaveConfig(), varNames)
	if err != nil {
		t.Fatal(err)
	}
	return xw
}
