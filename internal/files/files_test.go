package files

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// layout makes a plan folder, a working folder (the test's) and a folder
// outside both, with a file in each and links from the plan's folder out.
func layout(t *testing.T) (planDir, work, out string) {
	t.Helper()
	base := t.TempDir()
	planDir, work, out = filepath.Join(base, "plan"), filepath.Join(base, "work"), filepath.Join(base, "outside")
	for _, d := range []string{planDir, filepath.Join(planDir, "sub"), work, out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(planDir, "plan.jmx"), "<jmeterTestPlan/>")
	write(filepath.Join(planDir, "data.csv"), "a,b\n")
	write(filepath.Join(planDir, "sub", "users.csv"), "u\n")
	write(filepath.Join(work, "only-here.csv"), "w\n")
	write(filepath.Join(out, "secret.txt"), "secret\n")
	for link, target := range map[string]string{
		"secret-link": filepath.Join(out, "secret.txt"),
		"out-dir":     out,
		"dangling":    filepath.Join(out, "new.jtl"),
		"inner-link":  filepath.Join(planDir, "data.csv"),
	} {
		if err := os.Symlink(target, filepath.Join(planDir, link)); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(work)
	return planDir, work, out
}

func TestReadPolicy(t *testing.T) {
	planDir, work, out := layout(t)
	cases := []struct {
		name  string
		opt   Options
		path  string
		allow bool
	}{
		{"plan folder", Options{}, filepath.Join(planDir, "data.csv"), true},
		{"plan subfolder", Options{}, filepath.Join(planDir, "sub", "users.csv"), true},
		{"working folder", Options{}, filepath.Join(work, "only-here.csv"), true},
		{"relative to the working folder", Options{}, "only-here.csv", true},
		{"absolute, outside", Options{}, filepath.Join(out, "secret.txt"), false},
		{"dot-dot out of the plan folder", Options{}, filepath.Join(planDir, "..", "outside", "secret.txt"), false},
		{"etc passwd", Options{}, "/etc/passwd", false},
		{"link out of the plan folder", Options{}, filepath.Join(planDir, "secret-link"), false},
		{"file under a linked folder", Options{}, filepath.Join(planDir, "out-dir", "secret.txt"), false},
		{"link inside the plan folder", Options{}, filepath.Join(planDir, "inner-link"), true},
		{"allowed folder", Options{AllowRead: []string{out}}, filepath.Join(out, "secret.txt"), true},
		{"allowed folder through a link", Options{AllowRead: []string{out}}, filepath.Join(planDir, "secret-link"), true},
		{"all files", Options{AllowAll: true}, "/etc/passwd", true},
		{"proc", Options{AllowAll: true}, "/proc/self/environ", false},
		{"proc through its link", Options{AllowAll: true}, "/dev/stdin", false},
		{"sys", Options{AllowAll: true}, "/sys/kernel/hostname", false},
		{"device", Options{AllowAll: true}, "/dev/zero", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.opt.Plan = filepath.Join(planDir, "plan.jmx")
			p := New(c.opt)
			err := p.CheckRead(c.path)
			if c.allow != (err == nil) {
				t.Fatalf("CheckRead(%s) = %v, want allowed %v", c.path, err, c.allow)
			}
			f, oerr := p.Open(c.path)
			if f != nil {
				f.Close()
			}
			if !c.allow {
				if !errors.Is(err, ErrDenied) || !errors.Is(oerr, ErrDenied) {
					t.Errorf("refusals %v, %v do not wrap ErrDenied", err, oerr)
				}
				if !strings.Contains(err.Error(), c.path) {
					t.Errorf("refusal %q does not name the path", err)
				}
			} else if oerr != nil && !errors.Is(oerr, fs.ErrNotExist) {
				t.Errorf("Open(%s): %v", c.path, oerr)
			}
		})
	}
}

func TestRefusalNamesTheFlag(t *testing.T) {
	planDir, _, out := layout(t)
	p := New(Options{Plan: filepath.Join(planDir, "plan.jmx")})
	err := p.CheckRead(filepath.Join(out, "secret.txt"))
	for _, want := range []string{"--allow-read " + out, "--allow-all-files", "the plan's folder " + planDir} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %v does not say %q", err, want)
		}
	}
	if err := p.CheckRead("/proc/self/environ"); err == nil || strings.Contains(err.Error(), "--allow") {
		t.Errorf("a /proc refusal offers a flag: %v", err)
	}
}

func TestWritePolicy(t *testing.T) {
	planDir, work, out := layout(t)
	results := filepath.Join(t.TempDir(), "results")
	cases := []struct {
		name  string
		opt   Options
		path  string
		allow bool
	}{
		{"plan folder", Options{}, filepath.Join(planDir, "out.jtl"), true},
		{"working folder, relative", Options{}, "out.jtl", true},
		{"working folder, new subfolder", Options{}, filepath.Join(work, "a", "b.jtl"), true},
		{"output folder", Options{AllowWrite: []string{results}}, filepath.Join(results, "x.jtl"), true},
		{"outside", Options{}, filepath.Join(out, "x.jtl"), false},
		{"link out of the plan folder", Options{}, filepath.Join(planDir, "dangling"), false},
		{"allowed folder", Options{AllowWrite: []string{out}}, filepath.Join(out, "x.jtl"), true},
		{"all files", Options{AllowAll: true}, filepath.Join(out, "x.jtl"), true},
		{"the plan itself", Options{AllowAll: true}, filepath.Join(planDir, "plan.jmx"), false},
		{"the plan through a link", Options{AllowAll: true}, filepath.Join(planDir, "..", "plan", "plan.jmx"), false},
		{"an input", Options{AllowAll: true}, filepath.Join(planDir, "data.csv"), false},
		{"an input through a link", Options{AllowAll: true}, filepath.Join(planDir, "inner-link"), false},
		{"proc", Options{AllowAll: true}, "/proc/self/oom_score_adj", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.opt.Plan = filepath.Join(planDir, "plan.jmx")
			p := New(c.opt)
			if _, err := p.Find("data.csv"); err != nil {
				t.Fatal(err)
			}
			err := p.CheckWrite(c.path)
			if c.allow != (err == nil) {
				t.Fatalf("CheckWrite(%s) = %v, want allowed %v", c.path, err, c.allow)
			}
			if err != nil && !errors.Is(err, ErrDenied) {
				t.Errorf("%v does not wrap ErrDenied", err)
			}
		})
	}
}

func TestFind(t *testing.T) {
	planDir, work, out := layout(t)
	cases := []struct {
		name, file string
		want       string // the file read; "" when missing
		denied     bool
	}{
		{"beside the plan", "data.csv", filepath.Join(planDir, "data.csv"), false},
		{"in a subfolder", "sub/users.csv", filepath.Join(planDir, "sub", "users.csv"), false},
		{"only in the working folder", "only-here.csv", "only-here.csv", false},
		{"another machine's absolute path", "/home/alice/jmeter/data.csv", filepath.Join(planDir, "data.csv"), false},
		{"a Windows path", `C:\Users\alice\data.csv`, filepath.Join(planDir, "data.csv"), false},
		{"a Windows relative path", `sub\users.csv`, filepath.Join(planDir, "sub", "users.csv"), false},
		{"a stand-in in the working folder", "/opt/data/only-here.csv", filepath.Join(work, "only-here.csv"), false},
		{"absent everywhere", "/home/alice/nosuch.csv", "", false},
		{"present but outside", filepath.Join(out, "secret.txt"), "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := New(Options{Plan: filepath.Join(planDir, "plan.jmx")})
			f, err := p.Find(c.file)
			switch {
			case c.denied:
				if !errors.Is(err, ErrDenied) {
					t.Fatalf("Find(%s) = %+v, %v; want a refusal", c.file, f, err)
				}
			case c.want == "":
				var me *MissingError
				if !errors.As(err, &me) || !errors.Is(err, fs.ErrNotExist) {
					t.Fatalf("Find(%s) = %+v, %v; want missing", c.file, f, err)
				}
				if !strings.Contains(err.Error(), filepath.Join(planDir, "nosuch.csv")) {
					t.Errorf("%v does not say it looked beside the plan", err)
				}
			default:
				if err != nil || f.Path != c.want {
					t.Fatalf("Find(%s) = %+v, %v; want %s", c.file, f, err, c.want)
				}
				if (f.Where != "") != (c.want != p.Resolve(c.file)) {
					t.Errorf("Where = %q for %+v", f.Where, f)
				}
			}
		})
	}
}

func TestReadFileLimit(t *testing.T) {
	planDir, _, _ := layout(t)
	p := New(Options{Plan: filepath.Join(planDir, "plan.jmx")})
	big := filepath.Join(planDir, "big.txt")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxWholeFile + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := p.ReadFile(big); err == nil || !strings.Contains(err.Error(), "larger than 64 MiB") {
		t.Errorf("ReadFile of %d bytes: %v", MaxWholeFile+1, err)
	}
	if b, err := p.ReadFile(filepath.Join(planDir, "data.csv")); err != nil || string(b) != "a,b\n" {
		t.Errorf("ReadFile = %q, %v", b, err)
	}
}
