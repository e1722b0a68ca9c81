package engine

import (
	"context"
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
