package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gojm/gojm/internal/files"
	"github.com/gojm/gojm/jmx"
)

// streamsPlan is the shape of a corpus plan (Jagman13__ccwebapp): users
// of one thread group append their addresses to a CSV through a
// PrintStream over a FileOutputStream, with BeanShell's print() sent there
// by this.interpreter.setOut; the next group's CSV Data Set reads it.
const streamsPlan = `<?xml version="1.0" encoding="UTF-8"?>
<jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3">
  <hashTree>
    <TestPlan testclass="TestPlan" testname="Streams" enabled="true">
      <boolProp name="TestPlan.serialize_threadgroups">true</boolProp>
    </TestPlan>
    <hashTree>
      <ThreadGroup testclass="ThreadGroup" testname="Register" enabled="true">
        <elementProp name="ThreadGroup.main_controller" elementType="LoopController" testclass="LoopController">
          <boolProp name="LoopController.continue_forever">false</boolProp>
          <stringProp name="LoopController.loops">2</stringProp>
        </elementProp>
        <stringProp name="ThreadGroup.num_threads">3</stringProp>
      </ThreadGroup>
      <hashTree>
        <BeanShellSampler testclass="BeanShellSampler" testname="register" enabled="true">
          <stringProp name="BeanShellSampler.query">f = new FileOutputStream(FileServer.getFileServer().getBaseDir()+"/emails.csv", true);
p = new PrintStream(f);
this.interpreter.setOut(p);
print("u" + ctx.getThreadNum() + "-" + vars.getIteration() + "@example.com");
p.close();f.close();</stringProp>
        </BeanShellSampler>
        <hashTree/>
      </hashTree>
      <ThreadGroup testclass="ThreadGroup" testname="Read" enabled="true">
        <elementProp name="ThreadGroup.main_controller" elementType="LoopController" testclass="LoopController">
          <boolProp name="LoopController.continue_forever">false</boolProp>
          <stringProp name="LoopController.loops">6</stringProp>
        </elementProp>
        <stringProp name="ThreadGroup.num_threads">1</stringProp>
      </ThreadGroup>
      <hashTree>
        <CSVDataSet testclass="CSVDataSet" testname="emails" enabled="true">
          <stringProp name="filename">./emails.csv</stringProp>
          <stringProp name="variableNames">email</stringProp>
          <boolProp name="recycle">false</boolProp>
          <boolProp name="stopThread">true</boolProp>
          <stringProp name="shareMode">shareMode.all</stringProp>
        </CSVDataSet>
        <hashTree/>
        <BeanShellSampler testclass="BeanShellSampler" testname="read" enabled="true">
          <stringProp name="BeanShellSampler.query">SampleResult.setSampleLabel("read " + vars.get("email"));</stringProp>
        </BeanShellSampler>
        <hashTree/>
      </hashTree>
    </hashTree>
  </hashTree>
</jmeterTestPlan>`

func TestScriptStreamFeedsCSVDataSet(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	src, err := jmx.Read(strings.NewReader(streamsPlan), filepath.Join(dir, "streams.jmx"), dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Compile(src, Options{Files: files.New(files.Options{Plan: filepath.Join(dir, "streams.jmx")})})
	if err != nil {
		t.Fatal(err)
	}
	sink := &memSink{}
	if err := Start(context.Background(), p, sink, RunOptions{}).Wait(); err != nil {
		t.Fatal(err)
	}
	var read []string
	for _, s := range sink.samples {
		if !s.Success {
			t.Errorf("%s: %s %s", s.Label, s.Code, s.Message)
		}
		if strings.HasPrefix(s.Label, "read ") {
			read = append(read, strings.TrimPrefix(s.Label, "read "))
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "emails.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	sort.Strings(lines)
	want := []string{"u0-1@example.com", "u0-2@example.com", "u1-1@example.com", "u1-2@example.com", "u2-1@example.com", "u2-2@example.com"} // ctx.getThreadNum() counts from 0
	if strings.Join(lines, " ") != strings.Join(want, " ") {
		t.Errorf("emails.csv: %q, want %q", lines, want)
	}
	sort.Strings(read)
	if strings.Join(read, " ") != strings.Join(want, " ") {
		t.Errorf("the CSV Data Set read %q, want %q", read, want)
	}
}

// A script may write the data the plan reads, never the plan's code: the
// plan, an included plan, a script file, nor the plan under another name.
func TestScriptNeverWritesThePlansCode(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for name, s := range map[string]string{
		"data.csv":  "a\n",
		"login.bsh": `vars.put("logged", "in");`,
		"frag.jmx": `<?xml version="1.0" encoding="UTF-8"?>
<jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3"><hashTree>
<TestPlan testclass="TestPlan" testname="Fragment" enabled="true"/><hashTree>
<BeanShellSampler testclass="BeanShellSampler" testname="included" enabled="true"><stringProp name="BeanShellSampler.query">1;</stringProp></BeanShellSampler><hashTree/>
</hashTree></hashTree></jmeterTestPlan>`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		file  string
		write bool
	}{
		{"data.csv", true},
		{"frag.jmx", false},
		{"login.bsh", false},
		{"plan.jmx", false},
		{"plan-link.jmx", false}, // a hard link to the plan
		{"new.txt", true},
	}
	var samplers strings.Builder
	for _, c := range cases {
		fmt.Fprintf(&samplers, `<BeanShellSampler testclass="BeanShellSampler" testname="write %s" enabled="true"><stringProp name="BeanShellSampler.query">f = new FileOutputStream(FileServer.getFileServer().getBaseDir() + "/%s", true); f.close();</stringProp></BeanShellSampler><hashTree/>
`, c.file, c.file)
	}
	plan := `<?xml version="1.0" encoding="UTF-8"?>
<jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3"><hashTree>
<TestPlan testclass="TestPlan" testname="Code" enabled="true"/><hashTree>
<ThreadGroup testclass="ThreadGroup" testname="Users" enabled="true">
<elementProp name="ThreadGroup.main_controller" elementType="LoopController" testclass="LoopController"><boolProp name="LoopController.continue_forever">false</boolProp><stringProp name="LoopController.loops">1</stringProp></elementProp>
<stringProp name="ThreadGroup.num_threads">1</stringProp></ThreadGroup><hashTree>
<CSVDataSet testclass="CSVDataSet" testname="data" enabled="true"><stringProp name="filename">data.csv</stringProp><stringProp name="variableNames">a</stringProp></CSVDataSet><hashTree/>
<IncludeController testclass="IncludeController" testname="fragment" enabled="true"><stringProp name="IncludeController.includepath">frag.jmx</stringProp></IncludeController><hashTree/>
<BeanShellSampler testclass="BeanShellSampler" testname="login" enabled="true"><stringProp name="BeanShellSampler.filename">login.bsh</stringProp></BeanShellSampler><hashTree/>
` + samplers.String() + `</hashTree></hashTree></hashTree></jmeterTestPlan>`
	planFile := filepath.Join(dir, "plan.jmx")
	if err := os.WriteFile(planFile, []byte(plan), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(planFile, filepath.Join(dir, "plan-link.jmx")); err != nil {
		t.Fatal(err)
	}
	pol := files.New(files.Options{Plan: planFile})
	src, err := jmx.LoadFiles(planFile, pol)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Compile(src, Options{Files: pol})
	if err != nil {
		t.Fatal(err)
	}
	sink := &memSink{}
	if err := Start(context.Background(), p, sink, RunOptions{}).Wait(); err != nil {
		t.Fatal(err)
	}
	got, ok := map[string]string{}, map[string]bool{}
	for _, s := range sink.samples {
		got[s.Label], ok[s.Label] = s.Message, s.Success
		if (s.Label == "login" || s.Label == "included") && !s.Success {
			t.Errorf("%s: %s %s", s.Label, s.Code, s.Message)
		}
	}
	for _, c := range cases {
		msg, ran := got["write "+c.file]
		switch {
		case !ran:
			t.Errorf("write %s: no sample", c.file)
		case c.write && !ok["write "+c.file]:
			t.Errorf("write %s: %s, want written", c.file, msg)
		case !c.write && !strings.Contains(msg, "SecurityException"):
			t.Errorf("write %s: %q, want a SecurityException", c.file, msg)
		}
	}
	if b, _ := os.ReadFile(planFile); string(b) != plan {
		t.Errorf("the plan changed")
	}
}
