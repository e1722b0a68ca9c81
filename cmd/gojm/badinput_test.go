package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testPlan is a one-user, one-iteration plan: before the thread group come
// the elements in planLevel; the group's users field is users and its one
// HTTP Request goes to path on the host and port properties.
func testPlan(users, planLevel, path string) string {
	return fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3"><hashTree>
<TestPlan testclass="TestPlan" testname="Plan"/><hashTree>
%s
<ThreadGroup testclass="ThreadGroup" testname="Users">
  <elementProp name="ThreadGroup.main_controller" elementType="LoopController" testclass="LoopController">
    <boolProp name="LoopController.continue_forever">false</boolProp>
    <stringProp name="LoopController.loops">1</stringProp></elementProp>
  <stringProp name="ThreadGroup.num_threads">%s</stringProp>
</ThreadGroup><hashTree>
<HTTPSamplerProxy testclass="HTTPSamplerProxy" testname="Home">
  <stringProp name="HTTPSampler.domain">${__P(host,127.0.0.1)}</stringProp>
  <stringProp name="HTTPSampler.port">${__P(port,1)}</stringProp>
  <stringProp name="HTTPSampler.path">%s</stringProp>
</HTTPSamplerProxy><hashTree/>
</hashTree></hashTree></hashTree></jmeterTestPlan>
`, planLevel, users, path)
}

// Each kind of bad input ends the run before anything is sent, with one
// message naming the file, the element and what to do, and a non-zero
// exit; none panics.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	malformed := write("malformed.jmx", `<jmeterTestPlan version="1.2"><hashTree><TestPlan testname="P">`)
	pom := write("pom.xml", `<?xml version="1.0"?><project><modelVersion>4.0.0</modelVersion></project>`)
	plugin := write("plugin.jmx", testPlan("1",
		`<com.example.MagicThing guiclass="com.example.MagicThingGui" testclass="com.example.MagicThing" testname="Magic"/><hashTree/>`, "/"))
	threads := write("threads.jmx", testPlan("${__P(users,abc)}", "", "/"))
	random := write("random.jmx", testPlan("1", "", "/fast?r=${__Random(1,}"))
	csv := write("csv.jmx", testPlan("1", `<CSVDataSet testclass="CSVDataSet" testname="Users file">
  <stringProp name="filename">users.csv</stringProp><stringProp name="variableNames">user</stringProp>
  <stringProp name="delimiter">,</stringProp><stringProp name="shareMode">shareMode.all</stringProp></CSVDataSet><hashTree/>`, "/"))
	ok := write("ok.jmx", testPlan("1", "", "/"))
	aFile := write("afile", "not a folder")

	tests := []struct {
		name string
		args []string
		code int
		// stderr is the whole of stderr, or its last line when lastLine
		// is set (a run that started logs what stopped it as it happens).
		stderr   string
		lastLine bool
	}{
		{"malformed XML", []string{"run", malformed, "-o", filepath.Join(dir, "out")}, exitError,
			"gojm: " + malformed + ": malformed XML: the file ends inside <TestPlan>, opened on line 1 (is it cut short?); fix the file, or save the plan again from JMeter\n", false},
		{"XML that is not a plan", []string{"run", pom, "-o", filepath.Join(dir, "out")}, exitError,
			"gojm: " + pom + ": root element <project>: not a JMeter test plan (the root element is not <jmeterTestPlan>); give gojm a .jmx file saved by JMeter\n", false},
		{"unknown or plugin element", []string{"run", plugin, "-o", filepath.Join(dir, "out")}, exitUnsupported,
			"gojm: cannot run " + plugin + ":\n  - " + plugin + ": Plan › Magic: unsupported element com.example.MagicThing: gojm cannot run it; " +
				"disable or remove the element, or run with --skip-unsupported to run the plan without it\n", false},
		{"a number that is not one, with --strict", []string{"run", "--strict", threads, "-o", filepath.Join(dir, "out-threads")}, exitUnsupported,
			"gojm: cannot run " + threads + ":\n  - " + threads + `: Plan › Users: number of threads "abc" (from ${__P(users,abc)}) is not a whole number: ` +
				"JMeter reads it as 0, so the group starts no user; set it with -J users=N (a warning; --strict makes warnings refusals)\n", false},
		{"a broken function call", []string{"run", random, "-o", filepath.Join(dir, "out")}, exitUnsupported,
			"gojm: cannot run " + random + ":\n  - " + random + `: Plan › Users › Home: HTTPSampler.path: bad ${…} expression "/fast?r=${__Random(1,}": ` +
				"__Random: expected ) after the arguments\n", false},
		{"a missing CSV file with --strict", []string{"run", "--strict", csv, "-o", filepath.Join(dir, "out")}, exitUnsupported,
			"gojm: cannot run " + csv + ":\n  - " + csv + `: Plan › Users file: CSV Data Set file "users.csv" not found (looked for ` +
				filepath.Join(dir, "users.csv") + ", " + filepath.Join(wd, "users.csv") + `): JMeter runs the plan without it, and each thread stops ` +
				`when it reaches the CSV Data Set (JMeter 5.6: "must exist and be readable"); put the file beside the plan or fix its name ` +
				"(a warning; --strict makes warnings refusals)\n", false},
		{"an output folder that cannot be made", []string{"run", ok, "-o", filepath.Join(aFile, "out")}, exitError,
			"gojm: cannot create the output folder " + filepath.Join(aFile, "out") + " (mkdir " + aFile + ": not a directory); choose another with -o\n", false},
		{"a results file that cannot be written", []string{"-n", "-t", ok, "-l", filepath.Join(aFile, "r.jtl")}, exitError,
			"gojm: cannot write the results file " + filepath.Join(aFile, "r.jtl") + " (jtl: mkdir " + aFile + ": not a directory); choose another with -l\n", false},
		{"a plan that is not there", []string{"run", filepath.Join(dir, "nope.jmx")}, exitError,
			"gojm: " + filepath.Join(dir, "nope.jmx") + ": open " + filepath.Join(dir, "nope.jmx") + ": no such file or directory\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tt.args, &stdout, &stderr)
			if code != tt.code {
				t.Errorf("exit %d, want %d", code, tt.code)
			}
			got := stderr.String()
			if tt.lastLine {
				lines := strings.Split(strings.TrimRight(got, "\n"), "\n")
				got = lines[len(lines)-1]
			}
			if got != tt.stderr {
				t.Errorf("stderr:\n%s\nwant:\n%s", got, tt.stderr)
			}
		})
	}
}

// A results file that exists is appended to, as JMeter does, and gojm
// says so; -f starts it afresh.
func TestExistingResultsFileIsAppended(t *testing.T) {
	port := targetPort(t)
	dir := t.TempDir()
	plan := filepath.Join(dir, "ok.jmx")
	if err := os.WriteFile(plan, []byte(testPlan("1", "", "/fast")), 0o644); err != nil {
		t.Fatal(err)
	}
	jtl := filepath.Join(dir, "results.jtl")
	notice := "gojm: " + jtl + " exists: appending this run's results to it, as JMeter does (-f deletes it first)\n"
	for i, tt := range []struct {
		force      bool
		notice     bool
		wantLines  int
		wantHeader int
	}{
		{false, false, 2, 1}, // a new file: header and one row
		{false, true, 3, 1},  // appended: one more row, no second header
		{true, false, 2, 1},  // -f: afresh
	} {
		args := []string{"-n", "-t", plan, "-l", jtl, "-J", "port=" + port}
		if tt.force {
			args = append(args, "-f")
		}
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Fatalf("run %d: exit %d: %s", i, code, stderr.String())
		}
		if got := strings.Contains(stderr.String(), notice); got != tt.notice {
			t.Errorf("run %d: notice %v, want %v; stderr:\n%s", i, got, tt.notice, stderr.String())
		}
		data, err := os.ReadFile(jtl)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		headers := 0
		for _, l := range lines {
			if strings.HasPrefix(l, "timeStamp,") {
				headers++
			}
		}
		if len(lines) != tt.wantLines || headers != tt.wantHeader {
			t.Errorf("run %d: %d lines, %d headers; want %d, %d:\n%s", i, len(lines), headers, tt.wantLines, tt.wantHeader, data)
		}
	}
}
