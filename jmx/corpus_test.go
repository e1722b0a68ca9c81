package jmx

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// sharedDir is the project's shared reference material beside the clone.
const sharedDir = "../../shared"

// corpusPlans lists the real plans of ../shared/corpus (both corpora, JMeter's
// batch plans and the seed plans), or skips the test
// where the corpus is absent (a clone on its own).
func corpusPlans(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, dir := range []string{"corpus/jmx", "corpus/jmeter-testfiles", "corpus/seed"} {
		m, _ := filepath.Glob(filepath.Join(sharedDir, dir, "*.jmx"))
		files = append(files, m...)
	}
	// corpus/repos holds each plan at its path in its repository.
	filepath.WalkDir(filepath.Join(sharedDir, "corpus/repos"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jmx") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		t.Skipf("no corpus at %s: the real-plan tests need ../shared beside the clone", sharedDir)
	}
	return files
}

// Every real plan must load without a panic; the ones that fail must fail
// with an error naming the file.
func TestCorpusLoads(t *testing.T) {
	loaded := 0
	for _, f := range corpusPlans(t) {
		p, err := Load(f)
		if err != nil {
			var perr *Error
			if !errors.As(err, &perr) || perr.File == "" {
				t.Errorf("%s: error without a file: %v", f, err)
			}
			t.Logf("%s: %v", filepath.Base(f), err)
			continue
		}
		loaded++
		if p.Root == nil {
			t.Errorf("%s: no root", f)
		}
	}
	t.Logf("%d plans loaded", loaded)
	if loaded == 0 {
		t.Fatal("no plan loaded")
	}
}
