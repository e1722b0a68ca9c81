package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every command's --help and -h go to stdout and exit 0, and say what
// testdata/help holds (go test -run TestHelp -update rewrites it).
func TestHelp(t *testing.T) {
	type helpCase struct {
		golden string
		args   []string
	}
	cases := []helpCase{{"gojm", nil}}
	for _, c := range commands {
		cases = append(cases, helpCase{strings.ReplaceAll(c.name, " ", "-"), strings.Fields(c.name)})
	}
	for _, tc := range cases {
		t.Run(tc.golden, func(t *testing.T) {
			var first string
			for _, ask := range []string{"--help", "-h"} {
				var stdout, stderr bytes.Buffer
				code := run(append(append([]string{}, tc.args...), ask), &stdout, &stderr)
				if code != exitOK || stderr.Len() > 0 {
					t.Fatalf("%s: exit %d, stderr %q", ask, code, stderr.String())
				}
				if first == "" {
					first = stdout.String()
				} else if stdout.String() != first {
					t.Errorf("-h and --help differ:\n%s\n---\n%s", first, stdout.String())
				}
			}
			golden := filepath.Join("testdata", "help", tc.golden+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(first), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if first != string(want) {
				t.Errorf("--help differs from %s (go test -run TestHelp -update rewrites it):\n%s", golden, first)
			}
		})
	}
}

// gojm help COMMAND is COMMAND --help.
func TestHelpCommand(t *testing.T) {
	for _, args := range [][]string{{"run"}, {"k8s"}, {"k8s", "manifest"}, {"validate"}} {
		var viaHelp, viaFlag, stderr bytes.Buffer
		if code := run(append([]string{"help"}, args...), &viaHelp, &stderr); code != exitOK {
			t.Fatalf("help %v: exit %d: %s", args, code, stderr.String())
		}
		flagArgs := append(append([]string{}, args...), "--help")
		if args[0] == "k8s" {
			flagArgs = []string{"k8s", "manifest", "--help"}
		}
		run(flagArgs, &viaFlag, &stderr)
		if viaHelp.String() != viaFlag.String() {
			t.Errorf("gojm help %v differs from %v", args, flagArgs)
		}
	}
}

// Each command's help lists its own flags and none of another's.
func TestHelpListsOnlyItsFlags(t *testing.T) {
	tests := []struct {
		cmd       []string
		want, not []string
	}{
		{[]string{"validate"}, []string{"--testfile", "--jmeterproperty", "--skip-unsupported", "--schedule"}, []string{"--watch", "--junit", "--prometheus", "--threshold", "--logfile", "--output", "--stop-grace"}},
		{[]string{"run"}, []string{"--threshold", "--watch", "--junit", "--prometheus", "--logfile", "--segment"}, []string{"--schedule-limit", "--apdex-satisfied", "--image"}},
		{[]string{"merge"}, []string{"--output", "--title"}, []string{"--apdex-satisfied", "--jmeterproperty"}},
		{[]string{"report"}, []string{"--apdex-satisfied", "--output"}, []string{"--name", "--alpha", "--threshold"}},
		{[]string{"compare"}, []string{"--name", "--alpha", "--json"}, []string{"--apdex-satisfied", "--threshold"}},
		{[]string{"k8s", "manifest"}, []string{"--segments", "--image", "--threshold"}, []string{"--watch", "--logfile"}},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		run(append(tt.cmd, "--help"), &stdout, &stderr)
		for _, w := range tt.want {
			if !strings.Contains(stdout.String(), w+" ") && !strings.Contains(stdout.String(), w+"[") {
				t.Errorf("%v --help lacks %s", tt.cmd, w)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(stdout.String(), n+" ") || strings.Contains(stdout.String(), n+"[") {
				t.Errorf("%v --help lists %s", tt.cmd, n)
			}
		}
	}
}

// A mistyped command line says what was meant, exit 2, on stderr.
func TestSuggestions(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"a plan without a command", []string{"book.jmx"}, "did you mean gojm run book.jmx?"},
		{"with its flags", []string{"book.jmx", "-l", "out.jtl"}, "did you mean gojm run book.jmx -l out.jtl?"},
		{"a results file", []string{"results.jtl"}, "did you mean gojm report results.jtl?"},
		{"a misspelled command", []string{"valdiate", "book.jmx"}, "did you mean gojm validate?"},
		{"a command cut short", []string{"comp"}, "did you mean gojm compare?"},
		{"no command near", []string{"frobnicate"}, `unknown command "frobnicate"` + "\nRun 'gojm --help'"},
		{"a misspelled flag", []string{"run", "book.jmx", "--treshold", "p95<1s"}, "unknown flag: --treshold; did you mean --threshold?"},
		{"with =", []string{"run", "book.jmx", "--treshold=p95<1s"}, "did you mean --threshold?"},
		{"a flag of another command", []string{"validate", "book.jmx", "--junit", "j.xml"}, "--junit is a flag of gojm run, not of gojm validate"},
		{"a shorthand of another command", []string{"validate", "book.jmx", "-l", "out.jtl"}, "-l (--logfile) is a flag of gojm run, not of gojm validate"},
		{"report's flag misspelled", []string{"report", "x.jtl", "--titel", "T"}, "did you mean --title?"},
		{"k8s", []string{"k8s", "manifset"}, "did you mean gojm k8s manifest?"},
		{"a shell", []string{"completion", "zhs"}, "did you mean gojm completion zsh?"},
		{"help of no command", []string{"help", "rnu"}, "did you mean gojm run?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(tt.args, &stdout, &stderr); code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr lacks %q:\n%s", tt.want, stderr.String())
			}
			if stdout.Len() > 0 {
				t.Errorf("stdout: %q", stdout.String())
			}
		})
	}
}

func TestNearest(t *testing.T) {
	names := []string{"threshold", "thresholds", "title", "testfile"}
	tests := []struct{ word, want string }{
		{"treshold", "threshold"},
		{"thresholdz", "threshold"},
		{"THRESHOLD", "threshold"},
		{"titl", "title"},
		{"x", ""},
		{"zzzzzzz", ""},
		{"output", ""},
		{"test", "testfile"}, // a prefix
	}
	for _, tt := range tests {
		if got := nearest(tt.word, names); got != tt.want {
			t.Errorf("nearest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}
