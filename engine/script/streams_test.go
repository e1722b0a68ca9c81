package script

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScriptStreams: FileOutputStream and PrintStream write through the
// files policy, and this.interpreter.setOut sends BeanShell's print() to
// the stream for the rest of the run.
func TestScriptStreams(t *testing.T) {
	dir := t.TempDir()
	pol := inDir(t, dir)
	for _, c := range []struct {
		name string
		src  string
		vars map[string]string
		file string // out.txt afterwards
		out  string // what print() sent to the host's output
	}{
		{"the corpus script", `f = new FileOutputStream("out.txt", true);
			p = new PrintStream(f);
			this.interpreter.setOut(p);
			p.println(vars.get("email") + "@gmail.com");
			p.close(); f.close();`, nil, "u1@gmail.com\n", ""},
		{"print after setOut", `PrintStream p = new PrintStream(new FileOutputStream("out.txt"));
			print("before");
			this.interpreter.setOut(p);
			print("after"); p.print(2.5); p.println(); p.printf("%03d%n", new Object[]{7}); p.close();
			p.println("dropped"); vars.put("err", "" + p.checkError());`, map[string]string{"err": "true"}, "after\n2.5\n007\n", "before\n"},
		{"unclosed stream is written", `FileOutputStream f = new FileOutputStream(new File("out.txt")); f.write("raw\n".getBytes()); f.write(65);`, nil, "raw\nA", ""},
		{"truncates unless append", `new PrintStream("out.txt").close(); FileOutputStream f = new FileOutputStream("out.txt", true); f.write("a\n".getBytes()); f.close();
			f = new FileOutputStream("out.txt"); f.write("b\n".getBytes()); f.close();`, nil, "b\n", ""},
		{"write after close", `FileOutputStream f = new FileOutputStream("out.txt"); f.close();
			try { f.write(1); } catch (IOException e) { vars.put("e", e.getMessage()); }`, map[string]string{"e": "Stream Closed"}, "", ""},
		{"base dir", `p = new PrintStream(new FileOutputStream(FileServer.getFileServer().getBaseDir() + "/out.txt", true)); p.println("x"); p.close();`, nil, "x\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.Remove(filepath.Join(dir, "out.txt"))
			p, err := CompileFresh(c.src, BeanShell)
			if err != nil {
				t.Fatal(err)
			}
			h := newTestHost()
			h.vars["email"] = "u1"
			h.base = dir
			if _, err := p.Run(&Env{Host: h, Files: pol}); err != nil {
				t.Fatal(err)
			}
			for k, want := range c.vars {
				if got := h.vars[k]; got != want {
					t.Errorf("%s = %q, want %q", k, got, want)
				}
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "out.txt")); string(b) != c.file {
				t.Errorf("out.txt = %q, want %q", b, c.file)
			}
			if got := h.out.String(); got != c.out {
				t.Errorf("output %q, want %q", got, c.out)
			}
		})
	}
}

// TestScriptStreamsRefused: a stream's file obeys the policy as a
// writer's; this. stays refused but for interpreter.setOut/setErr.
func TestScriptStreamsRefused(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	pol := inDir(t, dir)
	for _, c := range []struct{ name, src, want string }{
		{"outside", `new FileOutputStream("` + filepath.Join(outside, "x.csv") + `", true)`, "is not allowed"},
		{"dot-name", `new PrintStream(".profile")`, "SecurityException"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := runWith(t, pol, BeanShell, c.src)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
	for _, src := range []string{`this.interpreter.getOut()`, `this.toString()`, `x = this.interpreter;`, `this.interpreter.setOut(p)`} {
		_, err := CompileFresh(src, BeanShell)
		if src == `this.interpreter.setOut(p)` {
			if err != nil {
				t.Errorf("%s: %v", src, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "this (the script object needs a JVM)") {
			t.Errorf("%s: %v, want the refusal of this", src, err)
		}
	}
}
