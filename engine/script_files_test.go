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
