package files

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestScriptWrites(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	p := New(Options{Plan: filepath.Join(dir, "plan.jmx")})
	in := filepath.Join(dir, "out.txt")
	if err := p.Create(in, true); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"a\n", "b\n"} {
		if err := p.Append(in, s); err != nil {
			t.Fatal(err)
		}
	}
	if b, err := p.Read(in); err != nil || string(b) != "a\nb\n" {
		t.Fatalf("Read = %q, %v", b, err)
	}
	if err := p.Create(in, false); err != nil { // read by a script, still writable
		t.Fatal(err)
	}
	if st, err := p.Stat(in); err != nil || st.Size() != 4 {
		t.Fatalf("Stat = %v, %v", st, err)
	}
	if err := p.Remove(in); err != nil {
		t.Fatal(err)
	}
	if err := p.Remove(in); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("removing an absent file: %v", err)
	}

	// Outside the folders, through a link leading out, over an input.
	link := filepath.Join(dir, "link")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data.csv")
	os.WriteFile(data, []byte("x\n"), 0o644)
	if _, err := p.Find(data); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(outside, "x"), filepath.Join(link, "x"), data, "/proc/self/x"} {
		for name, err := range map[string]error{"Create": p.Create(path, true), "Append": p.Append(path, "x"), "Remove": p.Remove(path)} {
			if !errors.Is(err, ErrDenied) {
				t.Errorf("%s(%s) = %v, want a denial", name, path, err)
			}
		}
	}
	if _, err := p.Stat(filepath.Join(outside, "x")); !errors.Is(err, ErrDenied) {
		t.Errorf("Stat outside: %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("denied writes made %v", entries)
	}
	if b, _ := os.ReadFile(data); string(b) != "x\n" {
		t.Errorf("the plan's input became %q", b)
	}
}
