package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func completionScript(t *testing.T, shell string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"completion", shell}, &stdout, &stderr); code != exitOK {
		t.Fatalf("completion %s: exit %d: %s", shell, code, stderr.String())
	}
	file := filepath.Join(t.TempDir(), "gojm."+shell)
	if err := os.WriteFile(file, stdout.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// Every script names every command and every flag of every command, as
// the commands register them.
func TestCompletionNamesEverything(t *testing.T) {
	for _, shell := range shells {
		t.Run(shell, func(t *testing.T) {
			b, err := os.ReadFile(completionScript(t, shell))
			if err != nil {
				t.Fatal(err)
			}
			script := string(b)
			for _, c := range commands {
				for _, w := range c.words() {
					if !strings.Contains(script, w) {
						t.Errorf("no command %s", w)
					}
				}
				for _, f := range c.completedFlags() {
					long := "--" + f.long
					if shell == "fish" {
						long = "-l " + f.long
					}
					if !strings.Contains(script, long) {
						t.Errorf("gojm %s: no %s", c.name, long)
					}
				}
			}
		})
	}
}

// bash: the script registers the completion and completes each command's
// own flags, the commands and the plans.
func TestCompletionBash(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	script := completionScript(t, "bash")
	dir := t.TempDir()
	for _, f := range []string{"a.jmx", "b.jtl", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command("bash", "-c", `complete -p gojm`).CombinedOutput()
	if err == nil {
		t.Fatalf("gojm has a completion before the script: %s", out)
	}
	tests := []struct {
		words     string
		want, not []string
	}{
		{"gojm va", []string{"validate"}, nil},
		{"gojm validate --", []string{"--schedule", "--testfile", "--help"}, []string{"--watch", "--junit", "--prometheus", "--threshold"}},
		{"gojm run --thr", []string{"--threshold", "--thresholds"}, nil},
		{"gojm k8s ", []string{"manifest"}, nil},
		{"gojm k8s manifest --seg", []string{"--segments"}, nil},
		{"gojm -n -t a.jmx --log", []string{"--logfile"}, nil},
		{"gojm run ", []string{"a.jmx"}, []string{"b.jtl", "notes.txt"}},
		{"gojm report ", []string{"b.jtl"}, []string{"a.jmx", "notes.txt"}},
		{"gojm run a.jmx -l ", []string{"b.jtl", "notes.txt"}, nil},
		{"gojm completion ", []string{"bash", "zsh", "fish"}, nil},
	}
	for _, tt := range tests {
		words := strings.Fields(tt.words)
		cword := len(words)
		if !strings.HasSuffix(tt.words, " ") {
			cword--
		} else {
			words = append(words, "")
		}
		var quoted []string
		for _, w := range words {
			quoted = append(quoted, "'"+w+"'")
		}
		cmd := exec.Command("bash", "-c", `source "$1" && complete -p gojm >/dev/null && COMP_WORDS=(`+strings.Join(quoted, " ")+`) && COMP_CWORD=`+strconv.Itoa(cword)+` && { _gojm; printf '%s\n' "${COMPREPLY[@]}"; }`, "bash", script)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%q: %v: %s", tt.words, err, out)
		}
		checkCompletions(t, tt.words, strings.Fields(string(out)), tt.want, tt.not)
	}
}

// zsh: the script parses and registers _gojm for gojm with compinit.
func TestCompletionZsh(t *testing.T) {
	if _, err := exec.LookPath("zsh"); err != nil {
		t.Skip("zsh is not installed (scripts/test-deps.sh installs it)")
	}
	script := completionScript(t, "zsh")
	if out, err := exec.Command("zsh", "-n", script).CombinedOutput(); err != nil {
		t.Fatalf("zsh -n: %v: %s", err, out)
	}
	out, err := exec.Command("zsh", "-f", "-c", `autoload -U compinit && compinit -u -D && source "$1" && print -- $_comps[gojm]`, "zsh", script).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "_gojm" {
		t.Fatalf("gojm's completion in zsh is %q (%v)", out, err)
	}
}

// fish: fish completes with the script what a user would type.
func TestCompletionFish(t *testing.T) {
	if _, err := exec.LookPath("fish"); err != nil {
		t.Skip("fish is not installed (scripts/test-deps.sh installs it)")
	}
	script := completionScript(t, "fish")
	tests := []struct {
		line      string
		want, not []string
	}{
		{"gojm ", []string{"run", "validate", "report", "merge", "compare", "k8s", "completion", "version"}, nil},
		{"gojm validate --", []string{"--schedule", "--testfile"}, []string{"--watch", "--junit", "--prometheus", "--threshold"}},
		{"gojm k8s ", []string{"manifest"}, nil},
		{"gojm k8s manifest --im", []string{"--image"}, nil},
		{"gojm completion ", []string{"bash", "zsh", "fish"}, nil},
	}
	for _, tt := range tests {
		out, err := exec.Command("fish", "--no-config", "-c", `source $argv[1]; complete -C $argv[2]`, script, tt.line).CombinedOutput()
		if err != nil {
			t.Fatalf("%q: %v: %s", tt.line, err, out)
		}
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			got = append(got, strings.SplitN(l, "\t", 2)[0])
		}
		checkCompletions(t, tt.line, got, tt.want, tt.not)
	}
}

// checkCompletions checks that what line completes to has every word of
// want and none of not.
func checkCompletions(t *testing.T, line string, got, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("%q completes to %v, lacking %s", line, got, w)
		}
	}
	for _, n := range not {
		if slices.Contains(got, n) {
			t.Errorf("%q completes to %v, with %s", line, got, n)
		}
	}
}
