package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// flagNames lists the long names of the flags register adds to a flag set.
func flagNames(register func(*pflag.FlagSet)) []string {
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	register(fs)
	var names []string
	fs.VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	return names
}

// gojm validate --help lists the flags that decide how the plan compiles
// and none of run's output, logging or CI flags.
func TestValidateHelpListsOnlyItsFlags(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"validate", "--help"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	help := stdout.String()
	for _, want := range []string{"--testfile", "--jmeterproperty", "--globalproperty", "--addprop", "--propfile", "--skip-unsupported", "--no-scripts"} {
		if !strings.Contains(help, want) {
			t.Errorf("validate --help lacks %s:\n%s", want, help)
		}
	}
	for _, not := range []string{"--logfile", "--output", "--threshold", "--watch", "--nongui", "--stop-grace", "--systemproperty"} {
		if strings.Contains(help, not) {
			t.Errorf("validate --help lists run's %s:\n%s", not, help)
		}
	}
}

// gojm run keeps every flag validate has, under the same names, so a plan
// validated with some flags runs with the same ones.
func TestRunHasValidateFlags(t *testing.T) {
	var rf runFlags
	runNames := flagNames(rf.register)
	var pf planFlags
	for _, name := range flagNames(pf.register) {
		if !slices.Contains(runNames, name) {
			t.Errorf("gojm run lacks validate's --%s", name)
		}
	}
	// JMeter's command line, which only gojm run takes.
	for _, name := range []string{"testfile", "logfile", "nongui", "jmeterproperty", "globalproperty", "systemproperty", "addprop", "propfile", "reportatendofloadtests", "forceDeleteResultFile", "jmeterlogfile", "loglevel", "jmeterlogconf", "output"} {
		if !slices.Contains(runNames, name) {
			t.Errorf("gojm run lacks JMeter's --%s", name)
		}
	}
}

func TestValidateFlags(t *testing.T) {
	dir := t.TempDir()
	refused := filepath.Join(dir, "refused.jmx")
	if err := os.WriteFile(refused, []byte(refusedPlan), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"-t names the plan", []string{"-t", "../../engine/testdata/book.jmx"}, exitOK, "the plan can run"},
		{"--skip-unsupported passes a refused element", []string{refused, "--skip-unsupported"}, exitOK, "REFUSED      Query (JMSSampler)"},
		{"without it the element fails", []string{refused}, exitUnsupported, "1 element(s) cannot run"},
		{"-J is read", []string{"../../engine/testdata/book.jmx", "-J", "novalue"}, exitUsage, `-J "novalue": want name=value`},
		{"-q is read", []string{"../../engine/testdata/book.jmx", "-q", filepath.Join(dir, "nope.properties")}, exitError, "nope.properties"},
		{"run's flags are not validate's", []string{"../../engine/testdata/book.jmx", "-l", filepath.Join(dir, "out.jtl")}, exitUsage, "unknown shorthand flag: 'l'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"validate"}, tt.args...), &stdout, &stderr)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tt.code, stderr.String())
			}
			if all := stdout.String() + stderr.String(); !strings.Contains(all, tt.want) {
				t.Errorf("output lacks %q:\n%s", tt.want, all)
			}
		})
	}
}

// gojm validate lists what the plan runs only by JMeter's leniency as
// warnings and exits 0; with --strict it refuses the plan.
func TestValidateListsWarnings(t *testing.T) {
	dir := t.TempDir()
	plan := filepath.Join(dir, "csv.jmx")
	if err := os.WriteFile(plan, []byte(testPlan("1", `<CSVDataSet testclass="CSVDataSet" testname="Users file">
  <stringProp name="filename">C:/Users/someone/users.csv</stringProp><stringProp name="variableNames">user</stringProp></CSVDataSet><hashTree/>`, "/")), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"validate", plan}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{`warning  Plan › Users file: CSV Data Set file "C:/Users/someone/users.csv" not found`,
		plan + ": the plan can run, with 1 warning(s) (--strict refuses them)"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"validate", "--strict", plan}, &stdout, &stderr); code != exitUnsupported {
		t.Errorf("--strict: exit %d, want %d: %s", code, exitUnsupported, stderr.String())
	}
}
