package files

import (
	"cmp"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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

	// Outside the folders, through a link leading out, over the plan.
	link := filepath.Join(dir, "link")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data.csv")
	os.WriteFile(data, []byte("x\n"), 0o644)
	if _, err := p.Find(data); err != nil {
		t.Fatal(err)
	}
	plan := filepath.Join(dir, "plan.jmx")
	os.WriteFile(plan, []byte("<jmeterTestPlan/>"), 0o644)
	for _, path := range []string{filepath.Join(outside, "x"), filepath.Join(link, "x"), plan, "/proc/self/x"} {
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
	if b, _ := os.ReadFile(plan); string(b) != "<jmeterTestPlan/>" {
		t.Errorf("the plan became %q", b)
	}
	// A file the plan reads a script may write (a listener may not).
	if err := p.Append(data, "y\n"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(data); string(b) != "x\ny\n" {
		t.Errorf("the plan's input is %q, want the script's line appended", b)
	}
}

// Scripts write and delete only under the plan's folder, the output folder
// and --allow-write folders, never the working folder outside them (it may
// be the user's home) and never a dot-file or dot-folder but with
// --allow-all-files; listeners keep writing into the working folder.
func TestScriptWritePolicy(t *testing.T) {
	planDir, work, out := layout(t)
	results := filepath.Join(t.TempDir(), "results")
	cases := []struct {
		name   string
		opt    Options
		output string // a folder given by AllowWrite once made
		path   string
		allow  bool
		want   string // in the refusal
	}{
		{"plan folder", Options{}, "", filepath.Join(planDir, "out.txt"), true, ""},
		{"plan subfolder", Options{}, "", filepath.Join(planDir, "sub", "out.txt"), true, ""},
		{"output folder", Options{}, results, filepath.Join(results, "out.txt"), true, ""},
		{"output folder as an option", Options{AllowWrite: []string{results}}, "", filepath.Join(results, "out.txt"), true, ""},
		{"allowed folder", Options{AllowWrite: []string{out}}, "", filepath.Join(out, "out.txt"), true, ""},
		{"all files, working folder", Options{AllowAll: true}, "", filepath.Join(work, ".bashrc"), true, ""},
		{"all files, dot-folder", Options{AllowAll: true}, "", filepath.Join(planDir, ".ssh", "authorized_keys"), true, ""},
		{"working folder, relative", Options{}, "", "out.txt", false, "--allow-write " + work},
		{"working folder, absolute", Options{}, results, filepath.Join(work, "out.txt"), false, "a script writes only under the plan's folder"},
		{"working folder's dot-file", Options{}, "", filepath.Join(work, ".bashrc"), false, "--allow-write"},
		{"dot-file", Options{}, "", filepath.Join(planDir, ".bashrc"), false, "starts with a dot (.bashrc)"},
		{"dot-folder", Options{}, "", filepath.Join(planDir, ".ssh", "authorized_keys"), false, "starts with a dot (.ssh)"},
		{"dot-file in an allowed folder", Options{AllowWrite: []string{out}}, "", filepath.Join(out, ".profile"), false, "allow it with --allow-all-files"},
		{"dot-folder in the output folder", Options{}, results, filepath.Join(results, ".git", "config"), false, "starts with a dot (.git)"},
		{"output folder in a dot-folder of the plan's", Options{}, filepath.Join(planDir, ".results"), filepath.Join(planDir, ".results", "out.txt"), true, ""},
		{"outside", Options{}, "", filepath.Join(out, "out.txt"), false, "--allow-write " + out},
		{"an input", Options{}, "", filepath.Join(planDir, "data.csv"), true, ""}, // a listener may not (TestWritePolicy)
		{"an input, all files", Options{AllowAll: true}, "", filepath.Join(planDir, "data.csv"), true, ""},
		{"the plan itself", Options{AllowAll: true}, "", filepath.Join(planDir, "plan.jmx"), false, "the plan itself"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.opt.Plan = filepath.Join(planDir, "plan.jmx")
			p := New(c.opt)
			if c.output != "" {
				p.AllowWrite(c.output)
			}
			os.WriteFile(filepath.Join(planDir, "data.csv"), []byte("a,b\n"), 0o644) // a case before may have removed it
			if _, err := p.Find("data.csv"); err != nil {
				t.Fatal(err)
			}
			for _, d := range []string{results, c.output} {
				if err := os.MkdirAll(cmp.Or(d, results), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			err := p.CheckScriptWrite(c.path)
			if c.allow != (err == nil) {
				t.Fatalf("CheckScriptWrite(%s) = %v, want allowed %v", c.path, err, c.allow)
			}
			if err != nil && (!errors.Is(err, ErrDenied) || !strings.Contains(err.Error(), c.want)) {
				t.Errorf("refusal %v does not wrap ErrDenied or say %q", err, c.want)
			}
			// (an allowed write into an absent folder fails as in Java)
			for name, err := range map[string]error{"Create": p.Create(c.path, false), "Append": p.Append(c.path, "")} {
				if c.allow == errors.Is(err, ErrDenied) {
					t.Errorf("%s(%s) = %v, want allowed %v", name, c.path, err, c.allow)
				}
			}
			if err := p.Remove(c.path); c.allow == errors.Is(err, ErrDenied) {
				t.Errorf("Remove(%s) = %v, want allowed %v", c.path, err, c.allow)
			}
		})
	}
	// The listeners' rules are today's: the working folder, and dot-files.
	p := New(Options{Plan: filepath.Join(planDir, "plan.jmx")})
	for _, path := range []string{"out.jtl", filepath.Join(planDir, ".out.jtl")} {
		if err := p.CheckWrite(path); err != nil {
			t.Errorf("CheckWrite(%s) = %v", path, err)
		}
	}
}

// The plan's code (an included plan, a script file) is part of the plan:
// no script writes over it, nor over the plan, under any name that is the
// same file (a symbolic or a hard link); the data the plan reads a script
// may write, and a listener may not.
func TestNoWriteOverThePlansCode(t *testing.T) {
	planDir, _, _ := layout(t)
	in := func(name string) string { return filepath.Join(planDir, name) }
	for name, s := range map[string]string{"frag.jmx": "<jmeterTestPlan/>", "login.bsh": `vars.put("a", "b");`} {
		if err := os.WriteFile(in(name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"plan-copy.jmx": "plan.jmx", "login.txt": "login.bsh", "data-copy.csv": "data.csv"} {
		if err := os.Link(in(target), in(link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(in("frag.jmx"), in("frag-link")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name             string
		path             string
		script, listener bool // allowed
		want             string
	}{
		{"data the plan reads", "data.csv", true, false, "the plan reads it"},
		{"a hard link to data", "data-copy.csv", true, true, ""},
		{"the plan", "plan.jmx", false, false, "the plan itself"},
		{"a hard link to the plan", "plan-copy.jmx", false, false, "the plan itself"},
		{"an included plan", "frag.jmx", false, false, "part of the plan"},
		{"a link to an included plan", "frag-link", false, false, "part of the plan"},
		{"a script file, read as data too", "login.bsh", false, false, "part of the plan"},
		{"a hard link to a script file", "login.txt", false, false, "part of the plan"},
		{"another file", "new.txt", true, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, o := range []Options{{}, {AllowAll: true}} {
				o.Plan = in("plan.jmx")
				p := New(o)
				if _, err := p.Find("data.csv"); err != nil {
					t.Fatal(err)
				}
				for _, f := range []string{"frag.jmx", "login.bsh"} {
					if _, err := p.FindCode(f); err != nil {
						t.Fatal(err)
					}
				}
				if _, err := p.ReadFile(in("login.bsh")); err != nil { // read again, as data
					t.Fatal(err)
				}
				for _, w := range []struct {
					who   string
					check func(string) error
					allow bool
				}{{"script", p.CheckScriptWrite, c.script}, {"listener", p.CheckWrite, c.listener}} {
					err := w.check(in(c.path))
					if w.allow != (err == nil) {
						t.Errorf("all files %v: a %s writing %s: %v, want allowed %v", o.AllowAll, w.who, c.path, err, w.allow)
						continue
					}
					var de *DeniedError
					if err != nil && (!errors.As(err, &de) || !de.Input || !strings.Contains(err.Error(), c.want)) {
						t.Errorf("all files %v: a %s writing %s: refusal %v is not an input's or does not say %q", o.AllowAll, w.who, c.path, err, c.want)
					}
				}
			}
		})
	}
}
