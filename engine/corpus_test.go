package engine

import (
	"errors"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gojm/gojm/jmx"
)

// TestCorpusCompiles compiles every real plan of ../shared/corpus: none may
// panic, every refusal must name an element, and the share of plans gojm
// runs without refusing anything is printed (go test -run Corpus -v).
func TestCorpusCompiles(t *testing.T) {
	var files []string
	for _, dir := range []string{"corpus/jmx", "corpus/seed"} {
		m, _ := filepath.Glob(filepath.Join("../../shared", dir, "*.jmx"))
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Skip("no corpus at ../../shared: the real-plan tests need ../shared beside the clone")
	}
	runs, byElement := 0, 0
	refusedBy := map[string]int{}
	for _, f := range files {
		src, err := jmx.Load(f)
		if err != nil {
			t.Logf("%s: does not load: %v", filepath.Base(f), err)
			continue
		}
		_, err = Compile(src, Options{})
		if err == nil {
			runs++
			continue
		}
		var perr *jmx.Error
		if !errors.As(err, &perr) {
			t.Errorf("%s: error without an element path: %v", filepath.Base(f), err)
		}
		// Count each plan once per class (or other problem) that stops it.
		seen := map[string]bool{}
		p, err := Compile(src, Options{SkipUnsupported: true})
		unsupported := false
		if p != nil {
			for _, e := range p.Elements {
				if e.Status == Refused && !strings.HasPrefix(e.Reason, "inside") {
					seen[e.Class] = true
					unsupported = unsupported || strings.Contains(e.Reason, "not supported") || strings.Contains(e.Reason, "needs a JVM")
				}
			}
		}
		if unsupported {
			byElement++
		}
		if err != nil {
			for _, line := range strings.Split(err.Error(), "\n") {
				if i := strings.LastIndex(line, ": "); i >= 0 {
					line = line[i+2:]
				}
				seen["(other) "+line] = true
			}
		}
		for k := range seen {
			refusedBy[k]++
		}
	}
	t.Logf("corpus: %d of %d plans run without a refused element (%.0f%%); of the others, %d have an element gojm does not run and %d stop at something else (mostly data or include files the corpus does not ship)",
		runs, len(files), 100*float64(runs)/float64(len(files)), byElement, len(files)-runs-byElement)
	type kv struct {
		k string
		n int
	}
	var top []kv
	for k, n := range refusedBy {
		top = append(top, kv{k, n})
	}
	sort.Slice(top, func(i, j int) bool { return top[i].n > top[j].n || top[i].n == top[j].n && top[i].k < top[j].k })
	for i, x := range top {
		if i == 40 {
			break
		}
		t.Logf("  refused in %3d plans: %s", x.n, x.k)
	}
}
