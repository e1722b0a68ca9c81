package script

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gojm/gojm/internal/files"
)

// inDir makes dir the working folder for the test (relative paths in
// scripts are the working folder's) and returns a policy of a plan there.
func inDir(t *testing.T, dir string) *files.Policy {
	t.Helper()
	t.Chdir(dir)
	return files.New(files.Options{Plan: filepath.Join(dir, "plan.jmx")})
}

func runWith(t *testing.T, pol *files.Policy, d Dialect, src string) (*testHost, error) {
	t.Helper()
	p, err := CompileFresh(src, d)
	if err != nil {
		t.Fatalf("compile %q: %v", src, err)
	}
	h := newTestHost()
	env := &Env{Host: h}
	if pol != nil {
		env.Files = pol
	}
	_, err = p.Run(env)
	return h, err
}

func TestScriptFiles(t *testing.T) {
	dir := t.TempDir()
	pol := inDir(t, dir)
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte("a\nb\r\nc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		d    Dialect
		src  string
		vars map[string]string
		file string // out.txt afterwards
	}{
		{"FileWriter append", BeanShell, `FileWriter fr = new FileWriter("out.txt", true); fr.write("x" + 1); fr.write("\n"); fr.close();
			fr = new FileWriter("out.txt", true); fr.write("y\n"); fr.close();`, nil, "x1\ny\n"},
		{"FileWriter truncates", BeanShell, `new FileWriter("out.txt", true).close(); FileWriter w = new FileWriter("out.txt"); w.write("z"); w.close();`, nil, "z"},
		{"BufferedWriter newLine", Groovy, `def bw = new BufferedWriter(new FileWriter("out.txt", true)); bw.write("a"); bw.newLine(); bw.append("b").append('c'); bw.close()`, nil, "a\nbc"},
		{"unclosed writer writes nothing", BeanShell, `FileWriter w = new FileWriter("out.txt"); w.write("lost");`, nil, ""},
		{"flush writes whole lines", Groovy, `def w = new FileWriter("out.txt"); w.write("one\ntw"); w.flush(); vars.put("len", "" + new File("out.txt").length()); w.write("o\n"); w.close()`, map[string]string{"len": "4"}, "one\ntwo\n"},
		{"PrintWriter println", Groovy, `def p = new PrintWriter(new FileWriter("out.txt", true)); p.println("n=" + 3); p.print(2.5d); p.println(); p.close()`, nil, "n=3\n2.5\n"},
		{"PrintWriter of a name", BeanShell, `PrintWriter p = new PrintWriter("out.txt"); p.printf("%03d%n", new Object[]{7}); p.close();`, nil, "007\n"},
		{"File read and facts", Groovy, `def f = new File("in.txt"); vars.put("t", f.text); vars.put("n", f.readLines().size().toString());
			vars.put("name", f.getName()); vars.put("path", f.path); vars.put("isFile", "" + f.isFile() + f.isDirectory() + f.exists());
			vars.put("len", "" + f.length()); vars.put("abs", "" + (f.getAbsolutePath() == System.getProperty("user.dir") + File.separator + "in.txt"))
			def seen = []; f.eachLine { seen << it }; vars.put("lines", seen.join("|"))`,
			map[string]string{"t": "a\nb\r\nc\n", "n": "3", "name": "in.txt", "path": "in.txt", "isFile": "truefalsetrue", "len": "7", "abs": "true", "lines": "a|b|c"}, ""},
		{"File delete", BeanShell, `new FileWriter("out.txt").close(); vars.put("d", "" + new File("out.txt").delete() + new File("out.txt").delete() + new File("out.txt").exists());`,
			map[string]string{"d": "truefalsefalse"}, "-"},
		{"FileUtils", Groovy, `import org.apache.commons.io.FileUtils
			FileUtils.writeStringToFile(new File("out.txt"), "p", "UTF-8"); FileUtils.writeStringToFile(new File("out.txt"), "q", "UTF-8", true)
			vars.put("s", FileUtils.readFileToString(new File("out.txt"), "UTF-8"))`, map[string]string{"s": "pq"}, "pq"},
		{"base dir and separator", Groovy, `vars.put("p", new File(FileServer.getFileServer().getBaseDir() + System.getProperty('file.separator') + 'x.csv').getPath())`,
			map[string]string{"p": "/plans/shop/x.csv"}, ""},
		{"absent file", Groovy, `try { new File("nope.txt").text } catch (FileNotFoundException e) { vars.put("e", e.getMessage()) }`,
			map[string]string{"e": "nope.txt (No such file or directory)"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.Remove(filepath.Join(dir, "out.txt"))
			h, err := runWith(t, pol, c.d, c.src)
			if err != nil {
				t.Fatal(err)
			}
			for k, want := range c.vars {
				if got := h.vars[k]; got != want {
					t.Errorf("%s = %q, want %q", k, got, want)
				}
			}
			b, err := os.ReadFile(filepath.Join(dir, "out.txt"))
			switch {
			case c.file == "-":
				if err == nil {
					t.Errorf("out.txt is there: %q", b)
				}
			case string(b) != c.file:
				t.Errorf("out.txt = %q, want %q", b, c.file)
			}
		})
	}
}

// A write outside the plan's folder and the output folder is refused at run time with a SecurityException naming the path
// and the flag, and nothing is written.
func TestScriptFilesDenied(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	pol := inDir(t, dir)
	victim := filepath.Join(outside, "x.csv")
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "data.csv"), []byte("d\n"), 0o644)
	if _, err := pol.Find("data.csv"); err != nil { // a CSV Data Set reads it
		t.Fatal(err)
	}
	for _, c := range []struct{ name, src, want string }{
		{"FileWriter", `new FileWriter("` + victim + `", true)`, "writing " + victim + " is not allowed"},
		{"File.write", `new File("` + victim + `").write("x")`, "writing " + victim + " is not allowed"},
		{"FileUtils", `org.apache.commons.io.FileUtils.writeStringToFile(new File("` + victim + `"), "x")`, "--allow-write " + outside},
		{"delete", `new File("` + filepath.Join(outside, "secret") + `").delete()`, "writing " + filepath.Join(outside, "secret") + " is not allowed"},
		{"read", `new File("` + filepath.Join(outside, "secret") + `").text`, "reading " + filepath.Join(outside, "secret") + " is not allowed"},
		{"exists", `new File("` + filepath.Join(outside, "secret") + `").exists()`, "is not allowed"},
		{"over the plan", `new FileWriter("plan.jmx")`, "the plan itself"},
		{"through ..", `new FileWriter("../` + filepath.Base(outside) + `/x.csv")`, "is not allowed"},
		{"/proc", `new File("/proc/self/environ").text`, "never read"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := runWith(t, pol, Groovy, c.src)
			if err == nil || !strings.Contains(err.Error(), "SecurityException") || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want a SecurityException with %q", err, c.want)
			}
		})
	}
	if _, err := os.Stat(victim); err == nil {
		t.Error("a denied write made", victim)
	}
	if _, err := os.Stat(filepath.Join(outside, "secret")); err != nil {
		t.Error("a denied delete removed the file")
	}
	if _, err := runWith(t, nil, Groovy, `new File("in.txt").exists()`); err == nil || !strings.Contains(err.Error(), "no file access") {
		t.Errorf("without Files: %v", err)
	}
}

// Users appending to one file at once never tear each other's lines.
func TestScriptFilesConcurrentAppend(t *testing.T) {
	dir := t.TempDir()
	pol := inDir(t, dir)
	const users, lines = 8, 200
	long := strings.Repeat("x", 3000) // three lines fill a writer's buffer
	src := `def w = new BufferedWriter(new FileWriter("shared.txt", true))
		for (int i = 0; i < ` + strconv.Itoa(lines) + `; i++) { w.write(vars.get("u") + ":" + i + ":` + long + `"); w.newLine() }
		w.close()`
	p, err := CompileFresh(src, Groovy)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, users)
	for u := range users {
		wg.Go(func() {
			h := newTestHost()
			h.vars["u"] = string(rune('a' + u))
			if _, err := p.Run(&Env{Host: h, Files: pol}); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "shared.txt"))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(got) != users*lines {
		t.Fatalf("%d lines, want %d", len(got), users*lines)
	}
	next := map[string]int{}
	for _, l := range got {
		parts := strings.Split(l, ":")
		if len(parts) != 3 || parts[2] != long {
			t.Fatalf("torn line %.40q…", l)
		}
		if n := next[parts[0]]; parts[1] != strconv.Itoa(n) {
			t.Fatalf("user %s: line %s, want %d", parts[0], parts[1], n)
		}
		next[parts[0]]++
	}
}

// A script writes and deletes only under the plan's folder, the output
// folder and --allow-write folders: not in the working folder outside them
// (a plan run from the home folder appending to .bashrc), and never a
// dot-file or into a dot-folder.
func TestScriptWritesWhere(t *testing.T) {
	base := t.TempDir()
	plan, work, out, extra := filepath.Join(base, "plan"), filepath.Join(base, "home"), filepath.Join(base, "out"), filepath.Join(base, "extra")
	for _, d := range []string{plan, work, out, extra, filepath.Join(plan, ".ssh")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(work)
	pol := files.New(files.Options{Plan: filepath.Join(plan, "plan.jmx"), AllowWrite: []string{extra}})
	pol.AllowWrite(out)
	for _, c := range []struct {
		name, path string
		allow      bool
	}{
		{"plan folder", filepath.Join(plan, "x.csv"), true},
		{"output folder", filepath.Join(out, "x.csv"), true},
		{"--allow-write", filepath.Join(extra, "x.csv"), true},
		{"working folder, relative", "x.csv", false},
		{"working folder's dot-file", filepath.Join(work, ".bashrc"), false},
		{"dot-file", filepath.Join(plan, ".bashrc"), false},
		{"dot-folder", filepath.Join(plan, ".ssh", "authorized_keys"), false},
	} {
		for _, op := range []struct{ name, src string }{
			{"FileWriter", `def w = new FileWriter("%s", true); w.write("x"); w.close()`},
			{"FileUtils", `org.apache.commons.io.FileUtils.writeStringToFile(new File("%s"), "x", "UTF-8")`},
			{"delete", `if (!new File("%s").delete()) throw new Exception("not deleted")`},
		} {
			t.Run(c.name+"/"+op.name, func(t *testing.T) {
				real := c.path
				if !filepath.IsAbs(real) {
					real = filepath.Join(work, real)
				}
				if op.name == "delete" {
					if err := os.WriteFile(real, []byte("keep"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				_, err := runWith(t, pol, Groovy, strings.ReplaceAll(op.src, "%s", c.path))
				b, rerr := os.ReadFile(real)
				switch {
				case c.allow && err != nil:
					t.Fatalf("refused: %v", err)
				case c.allow && op.name == "delete" && rerr == nil:
					t.Errorf("%s is still there", real)
				case c.allow && op.name != "delete" && string(b) != "x":
					t.Errorf("%s = %q, %v", real, b, rerr)
				case !c.allow && (err == nil || !strings.Contains(err.Error(), "SecurityException")):
					t.Fatalf("error %v, want a SecurityException", err)
				case !c.allow && op.name == "delete" && string(b) != "keep":
					t.Errorf("a refused delete left %q, %v", b, rerr)
				case !c.allow && op.name != "delete" && rerr == nil:
					t.Errorf("a refused write made %s", real)
				}
				os.Remove(real)
			})
		}
	}
}
