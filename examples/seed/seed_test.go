package seed

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// compare.sh runs both plans against the example target and prints gojm
// compare's table and verdict for the book list without and with its
// cache, and writes the comparison charts; both plans run every request
// they name, and each run writes its dashboard and its Graph Results.
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
	// The verdict: the cached list against the list, one line for the
	// sampler and one for the Total.
	verdict := regexp.MustCompile(`(?m)^  (HTTP Request|Total): (cached book list (slower|faster) than book list — median [-+]|no difference beyond noise between book list and cached book list)`)
	if n := len(verdict.FindAllString(text, -1)); n != 2 {
		t.Errorf("compare.sh printed %d verdicts, want HTTP Request's and the Total's:\n%s", n, text)
	}
	for _, want := range []string{
		"book.jmx: summary =    100 in ", "Err:     0 (0.00%)",
		"bookCached.jmx: summary =    500 in ",
		"book list", "cached book list", "HTTP Request",
		"Verdicts: ", "Comparison in " + filepath.Join(results, "compare"),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("compare.sh printed no %q:\n%s", want, text)
		}
	}
	for _, f := range []string{"compare/compare-mean-median.png", "compare/compare-percentiles.png", "compare/compare.txt",
		"book/index.html", "bookCached/index.html", "book/graph-results.png"} {
		if _, err := os.Stat(filepath.Join(results, f)); err != nil {
			t.Error(err)
		}
	}
}
