package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gojm/gojm/examples/target"
)

// scriptPlan has every kind of element that runs code or commands in
// JMeter, each trying to create the file MARKER; the scripts that write a
// file write OUTSIDE/MARKER, outside the folders a plan may write.
const scriptPlan = `<?xml version="1.0" encoding="UTF-8"?>
<jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3"><hashTree>
<TestPlan testclass="TestPlan" testname="Plan"/><hashTree>
<ThreadGroup testclass="ThreadGroup" testname="Users">
  <elementProp name="ThreadGroup.main_controller" elementType="LoopController" testclass="LoopController">
    <boolProp name="LoopController.continue_forever">false</boolProp>
    <stringProp name="LoopController.loops">1</stringProp></elementProp>
  <stringProp name="ThreadGroup.num_threads">1</stringProp>
</ThreadGroup><hashTree>
<JSR223Sampler testclass="JSR223Sampler" testname="Groovy">
  <stringProp name="scriptLanguage">groovy</stringProp><stringProp name="script">"touch MARKER".execute()</stringProp></JSR223Sampler><hashTree/>
<BeanShellSampler testclass="BeanShellSampler" testname="BeanShell">
  <stringProp name="BeanShellSampler.query">Runtime.getRuntime().exec("touch MARKER");</stringProp></BeanShellSampler><hashTree/>
<SystemSampler testclass="SystemSampler" testname="OS Process">
  <stringProp name="SystemSampler.command">touch</stringProp>
  <elementProp name="SystemSampler.arguments" elementType="Arguments"><collectionProp name="Arguments.arguments">
    <elementProp name="" elementType="Argument"><stringProp name="Argument.value">MARKER</stringProp></elementProp>
  </collectionProp></elementProp></SystemSampler><hashTree/>
<DebugSampler testclass="DebugSampler" testname="Debug"/><hashTree>
  <JSR223PreProcessor testclass="JSR223PreProcessor" testname="Pre">
    <stringProp name="scriptLanguage">groovy</stringProp><stringProp name="script">new File("OUTSIDE/MARKER").text = "x"</stringProp></JSR223PreProcessor><hashTree/>
  <BeanShellPostProcessor testclass="BeanShellPostProcessor" testname="Post">
    <stringProp name="script">new ProcessBuilder(new String[]{"touch", "OUTSIDE/MARKER"}).start();</stringProp></BeanShellPostProcessor><hashTree/>
</hashTree>
<DebugSampler testclass="DebugSampler" testname="JavaScript ${__javaScript(java.lang.Runtime.getRuntime().exec('touch MARKER'))}"/><hashTree/>
%GROOVY%
</hashTree></hashTree></hashTree></jmeterTestPlan>
`

// A plan cannot run code or commands on the machine: JSR223, BeanShell and
// OS Process elements that would are refused, each by its path and class,
// and nothing they ask for happens, even when the run goes on without them.
// Scripts that write files write only where the plan may (a write
// elsewhere fails the script when it runs).
func TestPlanCannotRunCommands(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	t.Chdir(dir)
	plan := strings.ReplaceAll(scriptPlan, "OUTSIDE", outside)
	groovyFn := `<DebugSampler testclass="DebugSampler" testname="Groovy function ${__groovy(new File('` + outside + `/MARKER').text = 'x')}"/><hashTree/>`
	refused := filepath.Join(dir, "refused.jmx")
	skipped := filepath.Join(dir, "skipped.jmx")
	os.WriteFile(refused, []byte(strings.Replace(plan, "%GROOVY%", groovyFn, 1)), 0o644)
	os.WriteFile(skipped, []byte(strings.Replace(plan, "%GROOVY%", "", 1)), 0o644)

	var stdout, stderr bytes.Buffer
	if code := run([]string{"run", refused, "-o", filepath.Join(dir, "out1")}, &stdout, &stderr); code != exitUnsupported {
		t.Errorf("exit %d, want %d", code, exitUnsupported)
	}
	for _, want := range []string{
		"Plan › Users › Groovy: unsupported element", "JSR223Sampler",
		"Plan › Users › BeanShell: unsupported element", "BeanShellSampler",
		"Plan › Users › OS Process: unsupported element SystemSampler",
		"Plan › Users › Debug › Post: unsupported element", "BeanShellPostProcessor",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}

	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"run", skipped, "-o", filepath.Join(dir, "out2"), "--skip-unsupported"}, &stdout, &stderr); code != exitOK {
		t.Errorf("with --skip-unsupported: exit %d: %s", code, stderr.String())
	}
	for _, d := range []string{dir, outside} {
		if _, err := os.Stat(filepath.Join(d, "MARKER")); err == nil {
			t.Fatal("a plan created MARKER: it ran a command or a script, or wrote outside its folders")
		}
	}
}

// Files a plan reads resolve against the plan's folder, whatever the
// working directory; a run writes into its output folder and the files it
// is told to write, nowhere else.
func TestPlanFilesAndOutputs(t *testing.T) {
	srv, port := startTarget(t, target.Options{})

	root := t.TempDir()
	planDir, workDir, outDir := filepath.Join(root, "plans"), filepath.Join(root, "work"), filepath.Join(root, "results")
	for _, d := range []string{planDir, workDir, outDir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	csv := `<CSVDataSet testclass="CSVDataSet" testname="Users file">
  <stringProp name="filename">data/users.csv</stringProp><stringProp name="variableNames">user</stringProp>
  <stringProp name="delimiter">,</stringProp><stringProp name="shareMode">shareMode.all</stringProp></CSVDataSet><hashTree/>`
	plan := filepath.Join(planDir, "plan.jmx")
	files := map[string]string{
		plan:                                     testPlan("1", csv, "/mirror?user=${user}&amp;word=${__FileToString(data/word.txt)}"),
		filepath.Join(planDir, "data/users.csv"): "alice\n",
		filepath.Join(planDir, "data/word.txt"):  "hello",
	}
	for p, c := range files {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(workDir)

	var stdout, stderr bytes.Buffer
	if code := run([]string{"run", plan, "-o", filepath.Join(outDir, "run1"), "-J", "port=" + port}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Target != "/mirror?user=alice&word=hello" {
		t.Fatalf("requests %+v; want one with the plan's files read", reqs)
	}

	list := func(dir string) []string {
		var out []string
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(root, p)
				out = append(out, rel)
			}
			return nil
		})
		return out
	}
	if got, want := list(planDir), []string{"plans/data/users.csv", "plans/data/word.txt", "plans/plan.jmx"}; !slices.Equal(got, want) {
		t.Errorf("the plan's folder holds %q, want only %q", got, want)
	}
	if got := list(workDir); len(got) != 0 {
		t.Errorf("the run wrote into the working directory: %q", got)
	}
	for _, f := range list(outDir) {
		if !strings.HasPrefix(f, filepath.Join("results", "run1")+string(filepath.Separator)) {
			t.Errorf("%s is outside the output folder", f)
		}
	}
	if _, err := os.Stat(filepath.Join(outDir, "run1", "results.jtl")); err != nil {
		t.Error(err)
	}
}
