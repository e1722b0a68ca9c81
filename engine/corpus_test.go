package engine

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gojm/gojm/jmx"
)

// corpus is a set of real plans under ../shared/corpus, each run from its
// own tree: the working folder is the plan's repository (a folder of
// corpus/repos), or corpus/jmx for the flat first corpus, so that the
// data files a plan names are where its users keep them.
type corpus struct {
	name string
	// plans lists the plans and the working folder of each.
	plans func(root string) (plans, workDirs []string)
	// floor is the least share of plans that must run (validate exits 0):
	// the share measured when it was set, so that a change that makes
	// gojm refuse more plans fails the test.
	floor float64
}

var corpora = []corpus{
	{name: "corpus/jmx", floor: 0.92, plans: func(root string) ([]string, []string) {
		m, _ := filepath.Glob(filepath.Join(root, "*.jmx"))
		work := make([]string, len(m))
		for i := range m {
			work[i] = root
		}
		return m, work
	}},
	{name: "corpus/repos", floor: 0.93, plans: func(root string) (plans, work []string) {
		dirs, _ := os.ReadDir(root)
		for _, d := range dirs {
			if !d.IsDir() {
				continue
			}
			repo := filepath.Join(root, d.Name())
			filepath.WalkDir(repo, func(p string, e fs.DirEntry, err error) error {
				if err == nil && !e.IsDir() && strings.HasSuffix(p, ".jmx") {
					plans, work = append(plans, p), append(work, repo)
				}
				return nil
			})
		}
		return plans, work
	}},
}

// TestCorpusCompiles compiles every real plan of both corpora as gojm
// validate does: none may panic, every refusal must name an element, and
// the share of plans that run without a refusal is printed per corpus
// (go test ./engine -run Corpus -v) and may not fall below its floor.
func TestCorpusCompiles(t *testing.T) {
	for _, c := range corpora {
		t.Run(strings.ReplaceAll(c.name, "/", "_"), func(t *testing.T) {
			root, err := filepath.Abs(filepath.Join("../../shared", c.name))
			if err != nil {
				t.Fatal(err)
			}
			plans, work := c.plans(root)
			if len(plans) == 0 {
				t.Skipf("no corpus at %s: the real-plan tests need ../shared beside the clone", root)
			}
			var tally corpusTally
			for i, f := range plans {
				tally.plan(t, f, work[i])
			}
			share := float64(tally.runs) / float64(len(plans))
			t.Logf("%s: %d of %d plans run (%.0f%%): %d have an element gojm does not run, %d stop at something else",
				c.name, tally.runs, len(plans), 100*share, tally.byElement, len(plans)-tally.runs-tally.byElement)
			tally.logTop(t, 40)
			if share < c.floor {
				t.Errorf("%s: %.1f%% of the plans run, below the %.0f%% they ran when the floor was set", c.name, 100*share, 100*c.floor)
			}
		})
	}
}

// corpusTally counts the plans of a corpus that run, and why the others
// do not.
type corpusTally struct {
	runs, byElement int
	refusedBy       map[string]int // a class or other problem: the plans it stops
}

// plan compiles one plan from work, its working folder.
func (c *corpusTally) plan(t *testing.T, f, work string) {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(work); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := os.Chdir(wd); err != nil {
			t.Fatal(err)
		}
	}()
	if c.refusedBy == nil {
		c.refusedBy = map[string]int{}
	}
	name := strings.TrimPrefix(f, filepath.Dir(work)+"/")
	src, err := jmx.Load(f)
	if err != nil {
		t.Logf("%s: does not load: %v", name, err)
		c.refusedBy["(does not load) "+lastError(err.Error())]++
		return
	}
	if _, err = Compile(src, Options{}); err == nil {
		c.runs++
		return
	}
	// A refusal names the element (or, for the file as a whole, the file).
	var perr *jmx.Error
	if !errors.As(err, &perr) {
		t.Errorf("%s: a refusal that names no element: %v", name, err)
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
		c.byElement++
	}
	if err != nil {
		for _, line := range strings.Split(err.Error(), "\n") {
			seen["(other) "+lastError(line)] = true
		}
	}
	for k := range seen {
		c.refusedBy[k]++
	}
}

// lastError is the innermost part of an error line, where its reason is.
func lastError(line string) string {
	if i := strings.LastIndex(line, ": "); i >= 0 {
		return line[i+2:]
	}
	return line
}

// logTop logs the n causes that stop the most plans.
func (c *corpusTally) logTop(t *testing.T, n int) {
	type kv struct {
		k string
		n int
	}
	var top []kv
	for k, n := range c.refusedBy {
		top = append(top, kv{k, n})
	}
	sort.Slice(top, func(i, j int) bool { return top[i].n > top[j].n || top[i].n == top[j].n && top[i].k < top[j].k })
	for i, x := range top {
		if i == n {
			break
		}
		t.Logf("  refused in %3d plans: %s", x.n, x.k)
	}
}
