package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestK8sManifest renders the manifest of a plan with a text and a binary
// data file against its golden file; deploy/k8s decodes that file
// strictly into Kubernetes' own types.
func TestK8sManifest(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"k8s", "manifest", "testdata/k8s/plan/quickstart.jmx", "--segments", "4",
		"--image", "registry.example/gojm:1", "--run-id", "20261201-120000-abcdef",
		"--file", "data/users.csv", "--file", "data/key.bin", "--storage-class", "nfs",
		"-J", "users=40", "--threshold", "p95<500ms"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	golden := filepath.Join("testdata", "k8s", "manifest.yaml")
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("the manifest differs from %s (go test -update rewrites it):\n%s", golden, out.String())
	}
}

func TestK8sManifestRefusals(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"no image", []string{"testdata/k8s/plan/quickstart.jmx"}, "--image"},
		{"a file outside the plan's folder", []string{"testdata/k8s/plan/quickstart.jmx", "--image", "i", "--file", "../../book.jtl.golden"}, "outside the plan's folder"},
		{"a missing data file", []string{"testdata/k8s/plan/quickstart.jmx", "--image", "i", "--file", "data/none.csv"}, "none.csv"},
		{"no segments", []string{"testdata/k8s/plan/quickstart.jmx", "--image", "i", "--segments", "0"}, "at least one segment"},
		{"no plan", []string{"--image", "i"}, "takes one plan"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(append([]string{"k8s", "manifest"}, tt.args...), &out, &errb)
			if code == 0 || !strings.Contains(errb.String(), tt.want) {
				t.Errorf("exit %d, stderr %q; want a failure naming %q", code, errb.String(), tt.want)
			}
			if out.Len() != 0 {
				t.Errorf("printed a manifest on a failure: %q", out.String())
			}
		})
	}
}

// The data files a plan's fields name ship with it without --file; one
// outside the plan's folder is named and left out.
func TestK8sManifestFindsDataFiles(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "elsewhere.csv")
	csv := func(name string) string {
		return `<CSVDataSet testclass="CSVDataSet" testname="` + name + `"><stringProp name="filename">` + name +
			`</stringProp><stringProp name="variableNames">v</stringProp></CSVDataSet><hashTree/>`
	}
	plan := `<?xml version="1.0" encoding="UTF-8"?><jmeterTestPlan version="1.2"><hashTree>
<TestPlan testclass="TestPlan" testname="P"/><hashTree>
<ThreadGroup testclass="ThreadGroup" testname="Users">
  <elementProp name="ThreadGroup.main_controller" elementType="LoopController"><boolProp name="LoopController.continue_forever">false</boolProp><stringProp name="LoopController.loops">1</stringProp></elementProp>
  <stringProp name="ThreadGroup.num_threads">1</stringProp><stringProp name="ThreadGroup.ramp_time">0</stringProp>
</ThreadGroup><hashTree>` + csv("data/users.csv") + csv(outside) + csv("missing.csv") + `</hashTree>
</hashTree></hashTree></jmeterTestPlan>`
	for name, text := range map[string]string{"plan.jmx": plan, "data/users.csv": "alice\n", outside: "x\n"} {
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		os.MkdirAll(filepath.Dir(name), 0o755)
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"k8s", "manifest", filepath.Join(dir, "plan.jmx"), "--image", "i"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "path: data/users.csv") || !strings.Contains(out.String(), "alice") {
		t.Errorf("data/users.csv is not shipped:\n%s", out.String())
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if p, ok := strings.CutPrefix(strings.TrimSpace(line), "path: "); ok && p != "plan.jmx" && p != "data/users.csv" {
			t.Errorf("%s is shipped: only the plan and data/users.csv are there to ship", p)
		}
	}
	if !strings.Contains(errb.String(), "elsewhere.csv is outside the plan's folder") {
		t.Errorf("the file outside is not named: %q", errb.String())
	}
}
