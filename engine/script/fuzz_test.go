package script

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzCompile: no text makes the tokenizer, parser or translator panic;
// each is translated or refused with an *Error.
func FuzzCompile(f *testing.F) {
	for _, name := range []string{"corpus.json", "semantics.json"} {
		b, err := os.ReadFile(filepath.Join(tableDir, name))
		if err != nil {
			continue
		}
		var cs []tableCase
		if json.Unmarshal(b, &cs) == nil {
			for _, c := range cs {
				f.Add(c.Script, c.Lang == "beanshell")
			}
		}
	}
	f.Fuzz(func(t *testing.T, src string, bsh bool) {
		d := Groovy
		if bsh {
			d = BeanShell
		}
		p, err := CompileFresh(src, d)
		if err == nil && p == nil {
			t.Fatal("no program and no error")
		}
	})
}
