package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gojm/gojm/engine"
	"github.com/gojm/gojm/examples/target"
	"github.com/gojm/gojm/jmx"
)

// startTarget starts the example target on the loopback for one test and
// returns it with its port.
func startTarget(t *testing.T, opt target.Options) (*target.Server, string) {
	t.Helper()
	srv := target.NewServer(opt)
	if err := srv.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv, strings.TrimPrefix(srv.URL(), "http://127.0.0.1:")
}

// groupPlan is a one-user, one-iteration plan whose thread group holds
// kids, and whose plan level holds planLevel.
func groupPlan(planLevel, kids string) string {
	return fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3"><hashTree>
<TestPlan testclass="TestPlan" testname="Plan"/><hashTree>
%s
<ThreadGroup testclass="ThreadGroup" testname="Users">
  <elementProp name="ThreadGroup.main_controller" elementType="LoopController" testclass="LoopController">
    <boolProp name="LoopController.continue_forever">false</boolProp>
    <stringProp name="LoopController.loops">1</stringProp></elementProp>
  <stringProp name="ThreadGroup.num_threads">1</stringProp>
</ThreadGroup><hashTree>
%s
</hashTree></hashTree></hashTree></jmeterTestPlan>
`, planLevel, kids)
}

// postSampler is an HTTP Request to path on the host and port properties,
// with extra properties (an upload).
func postSampler(name, path, extra string) string {
	return fmt.Sprintf(`<HTTPSamplerProxy testclass="HTTPSamplerProxy" testname="%s">
  <stringProp name="HTTPSampler.domain">${__P(host,127.0.0.1)}</stringProp>
  <stringProp name="HTTPSampler.port">${__P(port,1)}</stringProp>
  <stringProp name="HTTPSampler.path">%s</stringProp>
  <stringProp name="HTTPSampler.method">POST</stringProp>%s
</HTTPSamplerProxy><hashTree/>`, name, path, extra)
}

func csvDataSet(name, file string) string {
	return fmt.Sprintf(`<CSVDataSet testclass="CSVDataSet" testname="%s">
  <stringProp name="filename">%s</stringProp><stringProp name="variableNames">v</stringProp>
  <stringProp name="delimiter">,</stringProp></CSVDataSet><hashTree/>`, name, file)
}

func resultFile(name, file string) string {
	return fmt.Sprintf(`<ResultCollector guiclass="SimpleDataWriter" testclass="ResultCollector" testname="%s">
  <stringProp name="filename">%s</stringProp></ResultCollector><hashTree/>`, name, file)
}

func upload(file string) string {
	return fmt.Sprintf(`
  <boolProp name="HTTPSampler.DO_MULTIPART_POST">true</boolProp>
  <elementProp name="HTTPsampler.Files" elementType="HTTPFileArgs"><collectionProp name="HTTPFileArgs.files">
    <elementProp name="f" elementType="HTTPFileArg"><stringProp name="File.path">%s</stringProp>
    <stringProp name="File.paramname">file</stringProp></elementProp></collectionProp></elementProp>`, file)
}

// A plan reads only under its folder and the working folder and writes
// only there and into the output folder: every other path is refused
// before anything is sent, naming the element, the path and the flag that
// allows it; the plan itself and the files it reads are never written;
// /proc, /sys and devices are never read, whatever the flags.
func TestPlanReadsAndWritesOnlyWhereAllowed(t *testing.T) {
	srv, port := startTarget(t, target.Options{CountOnly: true})

	root := t.TempDir()
	planDir, workDir, outside := filepath.Join(root, "plans"), filepath.Join(root, "work"), filepath.Join(root, "outside")
	for _, d := range []string{planDir, workDir, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	secret := filepath.Join(outside, "secret.txt")
	included := filepath.Join(outside, "lib.jmx")
	for p, c := range map[string]string{
		filepath.Join(planDir, "users.csv"):     "alice\n",
		secret:                                  "hunter2\n",
		filepath.Join(outside, "script.groovy"): "vars.put('x', '1')",
		included: groupPlan(`<TestFragmentController testclass="TestFragmentController" testname="F"/><hashTree>`+
			postSampler("lib", "/lib", "")+`</hashTree>`, ""),
	} {
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(workDir)
	rel, _ := filepath.Rel(planDir, secret) // ../outside/secret.txt

	cases := []struct {
		name    string
		plan    string
		flags   []string
		refused []string // what stderr says; nil: the plan runs
	}{
		{"CSV Data Set by absolute path", groupPlan(csvDataSet("Data", secret), postSampler("s", "/a", "")), nil,
			[]string{"Plan › Data: CSV Data Set file: reading " + secret + " is not allowed", "--allow-read " + outside}},
		{"CSV Data Set by ../", groupPlan(csvDataSet("Data", rel), postSampler("s", "/a", "")), nil,
			[]string{"Plan › Data: CSV Data Set file: reading " + secret, "--allow-read " + outside}},
		{"CSV Data Set allowed", groupPlan(csvDataSet("Data", secret), postSampler("s", "/a", "")), []string{"--allow-read", outside}, nil},
		{"/etc/passwd through __StringFromFile", groupPlan("", postSampler("s", "/a?p=${__StringFromFile(/etc/passwd)}", "")), nil,
			[]string{"Plan › Users › s: HTTPSampler.path: bad ${…} expression", "reading /etc/passwd is not allowed", "--allow-read /etc"}},
		{"/etc/shadow through __StringFromFile", groupPlan("", postSampler("s", "/a", "")+
			`<HeaderManager testclass="HeaderManager" testname="H"><collectionProp name="HeaderManager.headers"><elementProp name="" elementType="Header">
  <stringProp name="Header.name">X-S</stringProp><stringProp name="Header.value">${__StringFromFile(/etc/shadow)}</stringProp></elementProp></collectionProp></HeaderManager><hashTree/>`), nil,
			[]string{"Plan › Users › s: header X-S: bad ${…} expression", "reading /etc/shadow is not allowed", "--allow-read /etc"}},
		{"/proc/self/environ through __FileToString", groupPlan("", postSampler("s", "/a?e=${__FileToString(/proc/self/environ)}", "")), []string{"--allow-all-files"},
			[]string{"reading /proc/self/environ is not allowed: files under /proc are never read as data"}},
		{"a device through __CSVRead", groupPlan("", postSampler("s", "/a?z=${__CSVRead(/dev/zero,0)}", "")), []string{"--allow-all-files"},
			[]string{"reading /dev/zero is not allowed: files under /dev are never read as data"}},
		{"an upload", groupPlan("", postSampler("up", "/a", upload(secret))), nil,
			[]string{"Plan › Users › up: file to upload: reading " + secret + " is not allowed"}},
		{"a script file", groupPlan("", `<JSR223Sampler testclass="JSR223Sampler" testname="Script">
  <stringProp name="scriptLanguage">groovy</stringProp><stringProp name="filename">`+filepath.Join(outside, "script.groovy")+`</stringProp></JSR223Sampler><hashTree/>`), nil,
			[]string{"Plan › Users › Script: the script file: reading " + filepath.Join(outside, "script.groovy") + " is not allowed"}},
		{"an included plan", groupPlan("", `<IncludeController testclass="IncludeController" testname="Inc">
  <stringProp name="IncludeController.includepath">`+included+`</stringProp></IncludeController><hashTree/>`), nil,
			[]string{"Plan › Users › Inc: included plan: reading " + included + " is not allowed"}},
		{"a listener outside", groupPlan(resultFile("Log", filepath.Join(outside, "r.jtl")), postSampler("s", "/a", "")), []string{"--strict"},
			[]string{"Plan › Log: the results file is not written: writing " + filepath.Join(outside, "r.jtl") + " is not allowed", "--allow-write " + outside}},
		{"a listener allowed", groupPlan(resultFile("Log", filepath.Join(outside, "allowed.jtl")), postSampler("s", "/a", "")), []string{"--allow-write", outside}, nil},
		{"a listener over the plan", groupPlan(resultFile("Log", "%PLAN%"), postSampler("s", "/a", "")), []string{"--allow-all-files", "--strict"},
			[]string{"Plan › Log: the results file is not written: writing %PLAN% is not allowed: it is the plan itself"}},
		{"a listener over an input", groupPlan(resultFile("Log", filepath.Join(planDir, "users.csv"))+csvDataSet("Data", "users.csv"), postSampler("s", "/a", "")),
			[]string{"--allow-all-files", "--strict"}, []string{"the results file is not written: writing " + filepath.Join(planDir, "users.csv") + " is not allowed: the plan reads it"}},
		{"-l over the plan", groupPlan("", postSampler("s", "/a", "")), []string{"-l", "%PLAN%"},
			[]string{"the results file: writing %PLAN% is not allowed: it is the plan itself; choose another with -l"}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			plan := filepath.Join(planDir, fmt.Sprintf("plan%d.jmx", i))
			if err := os.WriteFile(plan, []byte(strings.ReplaceAll(c.plan, "%PLAN%", plan)), 0o644); err != nil {
				t.Fatal(err)
			}
			before := int(srv.Count())
			args := []string{"run", plan, "-o", filepath.Join(root, "results", fmt.Sprint(i)), "-J", "port=" + port}
			for _, f := range c.flags {
				args = append(args, strings.ReplaceAll(f, "%PLAN%", plan))
			}
			var stdout, stderr bytes.Buffer
			code := run(args, &stdout, &stderr)
			if c.refused == nil {
				if code != exitOK {
					t.Fatalf("exit %d: %s", code, stderr.String())
				}
				return
			}
			if code == exitOK {
				t.Fatalf("the plan ran: %s", stdout.String())
			}
			for _, want := range c.refused {
				if want = strings.ReplaceAll(want, "%PLAN%", plan); !strings.Contains(stderr.String(), want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
				}
			}
			if n := int(srv.Count()) - before; n != 0 {
				t.Errorf("a refused plan sent %d requests", n)
			}
		})
	}
	// A listener only reports: one whose file is outside runs without it.
	t.Run("a listener outside runs without it", func(t *testing.T) {
		plan := filepath.Join(planDir, "listener.jmx")
		if err := os.WriteFile(plan, []byte(groupPlan(resultFile("Log", filepath.Join(outside, "r.jtl")), postSampler("s", "/a", ""))), 0o644); err != nil {
			t.Fatal(err)
		}
		before := int(srv.Count())
		var stdout, stderr bytes.Buffer
		if code := run([]string{"run", plan, "-o", filepath.Join(root, "results", "listener"), "-J", "port=" + port}, &stdout, &stderr); code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		for _, want := range []string{"the results file is not written: writing " + filepath.Join(outside, "r.jtl") + " is not allowed", `element="Plan › Log"`,
			"--allow-write " + outside, "the plan runs without it"} {
			if !strings.Contains(stderr.String(), want) {
				t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
			}
		}
		if n := int(srv.Count()) - before; n != 1 {
			t.Errorf("the plan sent %d requests, want 1", n)
		}
		if _, err := os.Stat(filepath.Join(outside, "r.jtl")); err == nil {
			t.Error("a results file outside the allowed folders was written")
		}
	})
	// Nor over a file the plan reads: JMeter would write into it, gojm runs
	// the plan without that listener.
	t.Run("a listener over an input runs without it", func(t *testing.T) {
		plan := filepath.Join(planDir, "over-input.jmx")
		if err := os.WriteFile(plan, []byte(groupPlan(resultFile("Log", filepath.Join(planDir, "users.csv"))+csvDataSet("Data", "users.csv"), postSampler("s", "/a", ""))), 0o644); err != nil {
			t.Fatal(err)
		}
		before := int(srv.Count())
		var stdout, stderr bytes.Buffer
		if code := run([]string{"run", plan, "-o", filepath.Join(root, "results", "over-input"), "-J", "port=" + port}, &stdout, &stderr); code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		if want := "the results file is not written: writing " + filepath.Join(planDir, "users.csv") + " is not allowed: the plan reads it; the plan runs without it"; !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
		if n := int(srv.Count()) - before; n != 1 {
			t.Errorf("the plan sent %d requests, want 1", n)
		}
	})
	if b, _ := os.ReadFile(filepath.Join(planDir, "users.csv")); string(b) != "alice\n" {
		t.Errorf("an input was written over: %q", b)
	}
}

// Bounded input: a plan that is a device or larger than 64 MiB, a CSV line
// longer than 1 MiB and more users than the machine's memory holds each
// stop with a clear message instead of filling the memory.
func TestBoundedInput(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	huge := filepath.Join(dir, "huge.jmx")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(64<<20 + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	users := filepath.Join(dir, "users.jmx")
	if err := os.WriteFile(users, []byte(testPlan("10000000", "", "/")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"a device", []string{"validate", "/dev/zero"}, exitError, "/dev/zero: not a regular file"},
		{"a plan over 64 MiB", []string{"validate", huge}, exitError, "the file is 64 MiB: gojm reads plans of at most 64 MiB"},
		{"ten million users", []string{"run", users, "-o", filepath.Join(dir, "out")}, exitUnsupported,
			"the plan asks for 10000000 users at once: at about 24 KiB each that is 234375 MiB"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if avail, ok := availableMemory(); c.code == exitUnsupported && (!ok || avail > 10000000*bytesPerUser) {
				t.Skip("this machine has the memory for ten million users, or no /proc/meminfo")
			}
			var stdout, stderr bytes.Buffer
			if code := run(c.args, &stdout, &stderr); code != c.code {
				t.Errorf("exit %d, want %d: %s", code, c.code, stderr.String())
			}
			if !strings.Contains(stderr.String(), c.want) {
				t.Errorf("stderr %q lacks %q", stderr.String(), c.want)
			}
		})
	}
	// --no-memory-check goes past the check (the run itself is not
	// started: it would take the memory).
	src, err := jmx.Load(users)
	if err != nil {
		t.Fatal(err)
	}
	p, err := engine.Compile(src, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := checkMemory(p, true); err != nil {
		t.Errorf("with --no-memory-check: %v", err)
	}
}
