package seed

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// compare.sh runs both plans against the example target and prints gojm
// compare's table for the book list without and with its cache, and
// writes the comparison charts; both plans run every request they name.
func TestSeedDecision(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to run compare.sh with")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command for compare.sh to build gojm with")
	}
	// A free port on the loopback for the target.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	results := t.TempDir()
	cmd := exec.Command(bash, "compare.sh")
	cmd.Env = append(os.Environ(), "PORT="+port, "RESULTS="+results)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("compare.sh: %v\n%s", err, out)
	}
	text := string(out)
	for _, want := range []string{
		"book.jmx: summary =    100 in ", "Err:     0 (0.00%)",
		"bookCached.jmx: summary =    500 in ",
		"book list", "cached book list", "HTTP Request",
		"Comparison in " + filepath.Join(results, "compare"),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("compare.sh printed no %q:\n%s", want, text)
		}
	}
	for _, f := range []string{"compare/compare-mean-median.png", "compare/compare-percentiles.png", "compare/compare.txt",
		"book/index.html", "bookCached/index.html", "book/graph-results-Graph-Results.png"} {
		if _, err := os.Stat(filepath.Join(results, f)); err != nil {
			t.Error(err)
		}
	}
}
