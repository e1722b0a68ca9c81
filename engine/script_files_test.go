package engine

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gojm/gojm/internal/files"
	"github.com/gojm/gojm/internal/testsvc"
	"github.com/gojm/gojm/jmx"
)

// scriptFilesPlan: users that each write their lines to one file from a
// BeanShell sampler, one that tries a file outside the allowed folders,
// and a setUp script starting JMeter's HTTP Mirror Server that nothing
// stops, asked by an HTTP request.
const scriptFilesPlan = `<?xml version="1.0" encoding="UTF-8"?>
<jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3">
  <hashTree>
    <TestPlan testclass="TestPlan" testname="Files" enabled="true"/>
    <hashTree>
      <SetupThreadGroup testclass="SetupThreadGroup" testname="setUp" enabled="true">
        <elementProp name="ThreadGroup.main_controller" elementType="LoopController" testclass="LoopController">
          <boolProp name="LoopController.continue_forever">false</boolProp>
          <stringProp name="LoopController.loops">1</stringProp>
        </elementProp>
        <stringProp name="ThreadGroup.num_threads">1</stringProp>
      </SetupThreadGroup>
      <hashTree>
        <JSR223Sampler testclass="JSR223Sampler" testname="start mirror" enabled="true">
          <stringProp name="scriptLanguage">groovy</stringProp>
          <stringProp name="script">import org.apache.jmeter.protocol.http.control.HttpMirrorServer
def m = new HttpMirrorServer(${__P(port)}, 10, 10)
props.put("MIRROR", m)
m.start()</stringProp>
        </JSR223Sampler>
        <hashTree/>
      </hashTree>
      <ThreadGroup testclass="ThreadGroup" testname="Users" enabled="true">
        <elementProp name="ThreadGroup.main_controller" elementType="LoopController" testclass="LoopController">
          <boolProp name="LoopController.continue_forever">false</boolProp>
          <stringProp name="LoopController.loops">20</stringProp>
        </elementProp>
        <stringProp name="ThreadGroup.num_threads">4</stringProp>
      </ThreadGroup>
      <hashTree>
        <BeanShellSampler testclass="BeanShellSampler" testname="write" enabled="true">
          <stringProp name="BeanShellSampler.query">import java.io.*;
BufferedWriter bw = new BufferedWriter(new FileWriter("${__P(out)}", true));
bw.write(ctx.getThreadNum() + "," + vars.getIteration() + ",${__P(pad)}");
bw.newLine();
bw.close();</stringProp>
        </BeanShellSampler>
        <hashTree/>
        <HTTPSamplerProxy testclass="HTTPSamplerProxy" testname="mirror" enabled="true">
          <stringProp name="HTTPSampler.domain">127.0.0.1</stringProp>
          <stringProp name="HTTPSampler.port">${__P(port)}</stringProp>
          <stringProp name="HTTPSampler.path">/echo</stringProp>
          <stringProp name="HTTPSampler.method">GET</stringProp>
        </HTTPSamplerProxy>
        <hashTree/>
        <JSR223Sampler testclass="JSR223Sampler" testname="outside" enabled="true">
          <stringProp name="scriptLanguage">groovy</stringProp>
          <stringProp name="script">new File("${__P(outside)}").write("x")</stringProp>
        </JSR223Sampler>
        <hashTree/>
      </hashTree>
    </hashTree>
  </hashTree>
</jmeterTestPlan>`

func TestScriptFilesAndMirrorPlan(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	port := testsvc.FreePort(t)
	out := filepath.Join(dir, "ids.csv")
	pad := strings.Repeat("p", 5000)
	src, err := jmx.Read(strings.NewReader(scriptFilesPlan), "files.jmx", dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Compile(src, Options{
		Props: map[string]string{"port": strconv.Itoa(port), "out": out, "pad": pad, "outside": filepath.Join(outside, "x.txt")},
		Files: files.New(files.Options{Dir: dir}),
	})
	if err != nil {
		t.Fatal(err)
	}
	sink := &memSink{}
	if err := Start(context.Background(), p, sink, RunOptions{}).Wait(); err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, s := range sink.samples {
		switch {
		case s.Label == "outside":
			if s.Success || !strings.Contains(s.Message, "SecurityException") {
				t.Errorf("outside: success %v, %q", s.Success, s.Message)
			}
		case !s.Success:
			t.Errorf("%s: %s %s", s.Label, s.Code, s.Message)
		}
		counts[s.Label]++
	}
	if counts["mirror"] != 80 || counts["write"] != 80 {
		t.Errorf("samples %v", counts)
	}
	if _, err := os.Stat(filepath.Join(outside, "x.txt")); err == nil {
		t.Error("a script wrote outside the allowed folders")
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	seen := map[string]bool{}
	for _, l := range lines {
		f := strings.Split(l, ",")
		if len(f) != 3 || f[2] != pad {
			t.Fatalf("torn line %.60q", l)
		}
		seen[f[0]+","+f[1]] = true
	}
	if len(lines) != 80 || len(seen) != 80 {
		t.Errorf("%d lines, %d distinct, want 80", len(lines), len(seen))
	}
	// The plan never stopped its mirror: the run's end did.
	if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
		c.Close()
		t.Error("the mirror server outlived the run")
	}
}

// A body reads a file beside the plan in __groovy, as dgf__billing's
// GraphQL requests do: FileServer's base directory, the file separator
// property and File.text, escaped for a JSON string.
func TestGroovyFunctionReadsFileBesidePlan(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "q.graphql"), []byte("query {\n  \"x\" }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plan := oneUserPlan(`<DebugSampler testclass="DebugSampler" testname="{&quot;query&quot;: &quot;${__groovy(groovy.json.StringEscapeUtils.escapeJavaScript(new File(org.apache.jmeter.services.FileServer.getFileServer().getBaseDir() + System.getProperty(&apos;file.separator&apos;) + &apos;q.graphql&apos;).text),)}&quot;}"/><hashTree/>`)
	src, err := jmx.Read(strings.NewReader(plan), "q.jmx", dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Compile(src, Options{Files: files.New(files.Options{Dir: dir})})
	if err != nil {
		t.Fatal(err)
	}
	sink := &memSink{}
	if err := Start(context.Background(), p, sink, RunOptions{}).Wait(); err != nil {
		t.Fatal(err)
	}
	want := `{"query": "query {\n  \"x\" }\n"}`
	if len(sink.samples) != 1 || sink.samples[0].Label != want {
		t.Fatalf("samples %+v, want the label %s", sink.samples, want)
	}
}

// validate warns of a file a script names with a constant path that the
// policy denies: a writer's file outside the folders a script may write or
// a dot-file, a File outside those it may read.
func TestScriptFileWarnings(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	plan := oneUserPlan(`<BeanShellSampler testclass="BeanShellSampler" testname="out">
  <stringProp name="BeanShellSampler.query">FileWriter f = new FileWriter("OUT/x.csv", true); f.write("x"); f.close();</stringProp></BeanShellSampler><hashTree/>
<JSR223Sampler testclass="JSR223Sampler" testname="read">
  <stringProp name="scriptLanguage">groovy</stringProp><stringProp name="script">new File("OUT" + File.separator + "in.txt").text</stringProp></JSR223Sampler><hashTree/>
<JSR223Sampler testclass="JSR223Sampler" testname="beside">
  <stringProp name="scriptLanguage">groovy</stringProp><stringProp name="script">new PrintWriter(FileServer.getFileServer().getBaseDir() + "/ok.txt").close()</stringProp></JSR223Sampler><hashTree/>
<JSR223Sampler testclass="JSR223Sampler" testname="dot">
  <stringProp name="scriptLanguage">groovy</stringProp><stringProp name="script">new FileWriter(FileServer.getFileServer().getBaseDir() + "/.bashrc", true).close()</stringProp></JSR223Sampler><hashTree/>`)
	src, err := jmx.Read(strings.NewReader(strings.ReplaceAll(plan, "OUT", outside)), "w.jmx", dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Compile(src, Options{Files: files.New(files.Options{Dir: dir})})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, w := range p.Warnings {
		got[w.Path] = w.Message
	}
	for path, want := range map[string]string{
		"Plan › Users › out":  "its script would write " + filepath.Join(outside, "x.csv") + ", which fails when it runs: writing",
		"Plan › Users › read": "its script would read " + filepath.Join(outside, "in.txt") + ", which fails when it runs: reading",
		"Plan › Users › dot":  "its script would write " + filepath.Join(dir, ".bashrc") + ", which fails when it runs: writing",
	} {
		if !strings.HasPrefix(got[path], want) {
			t.Errorf("%s: warning %q, want %q…", path, got[path], want)
		}
	}
	if w, ok := got["Plan › Users › beside"]; ok {
		t.Errorf("a file beside the plan warned: %s", w)
	}
}

// oneUserPlan is a plan of one user running elements once.
func oneUserPlan(elements string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>
<jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3"><hashTree>
<TestPlan testclass="TestPlan" testname="Plan"/><hashTree>
<ThreadGroup testclass="ThreadGroup" testname="Users">
  <elementProp name="ThreadGroup.main_controller" elementType="LoopController" testclass="LoopController">
    <boolProp name="LoopController.continue_forever">false</boolProp>
    <stringProp name="LoopController.loops">1</stringProp></elementProp>
  <stringProp name="ThreadGroup.num_threads">1</stringProp>
</ThreadGroup><hashTree>
` + elements + `
</hashTree></hashTree></hashTree></jmeterTestPlan>`
}
