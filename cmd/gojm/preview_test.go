package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Numbers JMeter reads as 0 (its getPropertyAsInt of text it cannot parse)
// run with one warning each, in validate and in run; --strict refuses them
// before anything starts, with one message and no output folder.
func TestValidateWarnsOfNumbersReadAsZero(t *testing.T) {
	dir := t.TempDir()
	intProp := strings.Replace(testPlan("1", "", "/"), `<stringProp name="ThreadGroup.num_threads">1</stringProp>`, `<intProp name="ThreadGroup.num_threads">zz</intProp>`, 1)
	ramp := strings.Replace(testPlan("1", "", "/"), `<stringProp name="ThreadGroup.num_threads">1</stringProp>`,
		`<stringProp name="ThreadGroup.num_threads">1</stringProp><stringProp name="ThreadGroup.ramp_time">0.5</stringProp>`, 1)
	tests := []struct {
		name, plan, want string
	}{
		{"text", testPlan("abc", "", "/"), `number of threads "abc" is not a whole number: JMeter reads it as 0, so the group starts no user; write a whole number in the plan`},
		{"negative", testPlan("-5", "", "/"), "number of threads -5 is negative: the group starts no user, as in JMeter"},
		{"a fraction", testPlan("2.5", "", "/"), `number of threads "2.5" is not a whole number: JMeter reads it as 0`},
		{"a decimal point", testPlan("10.0", "", "/"), `number of threads "10.0" is not a whole number: JMeter reads it as 0`},
		{"too large", testPlan("99999999999999999999", "", "/"), `number of threads "99999999999999999999" is not a whole number: JMeter reads it as 0`},
		{"a property", testPlan("${__P(users,abc)}", "", "/"), `number of threads "abc" (from ${__P(users,abc)}) is not a whole number: JMeter reads it as 0, so the group starts no user; set it with -J users=N`},
		{"an unset variable", testPlan("${users}", "", "/"), `number of threads "${users}" is not a whole number: JMeter reads it as 0, so the group starts no user; define the variable users`},
		{"ramp-up", ramp, `ramp-up period "0.5" is not a whole number: JMeter reads it as 0, so every user starts at once`},
		{"an intProp", intProp, `number of threads "zz" is not a whole number: JMeter reads it as 0`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan := writePlan(t, dir, tt.name, tt.plan)
			var stdout, stderr bytes.Buffer
			if code := run([]string{"validate", plan}, &stdout, &stderr); code != exitOK {
				t.Errorf("validate: exit %d, want %d: %s", code, exitOK, stderr.String())
			}
			if !strings.Contains(stdout.String(), "warning  Plan › Users: "+tt.want) {
				t.Errorf("validate's stdout lacks the warning %q:\n%s", tt.want, stdout.String())
			}
			out := filepath.Join(dir, "out-"+tt.name)
			stdout.Reset()
			stderr.Reset()
			if code := run([]string{"run", "--strict", plan, "-o", out}, &stdout, &stderr); code != exitUnsupported {
				t.Errorf("run --strict: exit %d, want %d", code, exitUnsupported)
			}
			if n := strings.Count(stderr.String(), tt.want); n != 1 {
				t.Errorf("run --strict says it %d times:\n%s", n, stderr.String())
			}
			if stdout.Len() > 0 {
				t.Errorf("run --strict started: %s", stdout.String())
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("run --strict made its output folder")
			}
		})
	}
}

// A group whose fields read a property an earlier group may set is known
// only when it starts: validate says so, and run does not refuse it.
func TestValidateAfterSetUp(t *testing.T) {
	setUp := `<SetupThreadGroup testclass="SetupThreadGroup" testname="Prepare">
  <elementProp name="ThreadGroup.main_controller" elementType="LoopController" testclass="LoopController">
    <boolProp name="LoopController.continue_forever">false</boolProp>
    <stringProp name="LoopController.loops">1</stringProp></elementProp>
  <stringProp name="ThreadGroup.num_threads">1</stringProp>
</SetupThreadGroup><hashTree/>`
	plan := writePlan(t, t.TempDir(), "setup", testPlan("${__P(users,abc)}", setUp, "/"))
	var stdout, stderr bytes.Buffer
	if code := run([]string{"validate", plan}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if want := "Users (main): known when the group starts (an earlier group may set what its fields read)"; !strings.Contains(stdout.String(), want) {
		t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
	}
}

// validate shows per group its users, ramp-up, loops or duration and the
// samples where they are known, and the hosts and ports.
func TestValidatePreview(t *testing.T) {
	dir := t.TempDir()
	loops := func(n string) func(string) string {
		return func(s string) string {
			return strings.Replace(s, `<stringProp name="LoopController.loops">1</stringProp>`, `<stringProp name="LoopController.loops">`+n+`</stringProp>`, 1)
		}
	}
	scheduler := func(s string) string {
		return strings.Replace(s, `<stringProp name="ThreadGroup.num_threads">`, `<boolProp name="ThreadGroup.scheduler">true</boolProp>
  <stringProp name="ThreadGroup.duration">60</stringProp><stringProp name="ThreadGroup.delay">5</stringProp>
  <stringProp name="ThreadGroup.ramp_time">10</stringProp><stringProp name="ThreadGroup.num_threads">`, 1)
	}
	tests := []struct {
		name string
		plan string
		args []string
		want []string
	}{
		{"users and loops", loops("3")(testPlan("4", "", "/")), nil, []string{
			"Users (main): 4 users, ramp-up 0s, 3 loops each: 12 samples",
			"in all: 12 samples",
			"http://127.0.0.1:1  1 sampler in Users"}},
		{"properties", testPlan("${__P(users,2)}", "", "/"), []string{"-J", "users=7", "-J", "host=example.test", "-J", "port=8443"}, []string{
			"Users (main): 7 users, ramp-up 0s, 1 loop each: 7 samples",
			"http://example.test:8443  1 sampler in Users"}},
		{"a full URL", testPlan("1", "", "https://api.example.test/v1"), nil, []string{"https://api.example.test:443  1 sampler in Users"}},
		{"for ever", loops("-1")(testPlan("2", "", "/")), nil, []string{"2 users, ramp-up 0s, looping for ever; the samples are known only during the run"}},
		{"a loop count that is not one", loops("zz")(testPlan("2", "", "/")), nil, []string{`0 loops (loop count "zz" is not a number: the loop runs 0 times): 0 samples`}},
		{"the scheduler", scheduler(testPlan("5", "", "/")), nil, []string{"5 users, ramp-up 10s, 1 loop each, for 1m0s after a delay of 5s; the samples are known only during the run"}},
		{"files", testPlan("1", `<CSVDataSet testclass="CSVDataSet" testname="Rows"><stringProp name="filename">missing-data.csv</stringProp>`+
			`<stringProp name="variableNames">v</stringProp></CSVDataSet><hashTree/>`+
			`<ResultCollector testclass="ResultCollector" testname="Save"><stringProp name="filename">kept.jtl</stringProp></ResultCollector><hashTree/>`, "/"),
			nil, []string{"Files it reads:", "missing-data.csv (not there)", "Files its listeners write:", "kept.jtl  (Plan › Save)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan := writePlan(t, dir, tt.name, tt.plan)
			var stdout, stderr bytes.Buffer
			if code := run(append([]string{"validate", plan}, tt.args...), &stdout, &stderr); code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(stdout.String(), w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout.String())
				}
			}
		})
	}
}

// writePlan writes a plan named after a test case into dir.
func writePlan(t *testing.T, dir, name, plan string) string {
	t.Helper()
	file := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".jmx")
	if err := os.WriteFile(file, []byte(plan), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}
