package report

import (
	"bytes"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func junitFixture(t *testing.T) []byte {
	t.Helper()
	st := thresholdStats()
	st.Add(&Sample{Start: t0, Elapsed: ms(7), Label: `Search "<all>" & more`, Success: false, Code: "500"})
	var ts []Threshold
	for _, s := range []string{"p95<500ms", "Login: error_rate<1%", "Search: p99<1s"} {
		th, err := ParseThreshold(s)
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, th)
	}
	var b bytes.Buffer
	info := JUnitInfo{Name: "Book shop", Start: t0.UTC(), Duration: 1500 * time.Millisecond, Hostname: "ci-7"}
	if err := WriteJUnit(&b, st, CheckThresholds(st, ts), info); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestWriteJUnit(t *testing.T) {
	out := junitFixture(t)
	golden(t, "junit.xml", out)

	// What a CI reader takes from it, whatever the layout.
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Cases    []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Tests != 7 || doc.Failures != 4 || len(doc.Suites) != 2 {
		t.Fatalf("tests %d failures %d suites %d; want 7, 4, 2", doc.Tests, doc.Failures, len(doc.Suites))
	}
	thr, smp := doc.Suites[0], doc.Suites[1]
	if thr.Name != "Book shop thresholds" || thr.Tests != 3 || thr.Failures != 2 {
		t.Errorf("thresholds suite %+v", thr)
	}
	if f := thr.Cases[1].Failure; f == nil || f.Message != "error_rate = 50.00%, want < 1.00%" {
		t.Errorf("Login threshold failure %+v", f)
	}
	if smp.Tests != 4 || smp.Failures != 2 {
		t.Errorf("samples suite: %d tests, %d failures; want 4 labels, 2 with errors", smp.Tests, smp.Failures)
	}
	if c := smp.Cases[3]; c.Name != `Search "<all>" & more` || c.Failure == nil || c.Failure.Message != "1 of 1 samples failed (100.00%)" {
		t.Errorf("escaped label case %+v", c)
	}
}

func TestWriteJUnitNoThresholds(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJUnit(&b, thresholdStats(), nil, JUnitInfo{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "thresholds") || strings.Count(b.String(), "<testsuite ") != 1 {
		t.Errorf("want only the samples suite:\n%s", b.String())
	}
	validateJUnit(t, b.Bytes())
}

// TestJUnitSchema validates the report against testdata/junit.xsd with
// xmllint (libxml2-utils, installed by scripts/test-deps.sh).
func TestJUnitSchema(t *testing.T) {
	validateJUnit(t, junitFixture(t))
}

func validateJUnit(t *testing.T, doc []byte) {
	t.Helper()
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint not found (Debian package libxml2-utils; scripts/test-deps.sh installs it): schema not checked")
	}
	file := filepath.Join(t.TempDir(), "junit.xml")
	if err := os.WriteFile(file, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(xmllint, "--noout", "--schema", filepath.Join("testdata", "junit.xsd"), file).CombinedOutput()
	if err != nil {
		t.Fatalf("xmllint: %v\n%s", err, out)
	}
}

// The schema must reject what CI readers would choke on, or it proves
// nothing.
func TestJUnitSchemaRejects(t *testing.T) {
	bad := []string{
		`<testsuites name="x" tests="1" failures="0" errors="0" time="1"><testsuite name="s" tests="one" failures="0" errors="0" skipped="0" time="0"/></testsuites>`,
		`<testsuites name="x" tests="1" failures="0" errors="0" time="1"><testsuite name="s" tests="1" failures="0" errors="0" skipped="0" time="0"><testcase classname="c" time="0"/></testsuite></testsuites>`,
		`<testsuites name="x" tests="1" failures="0" errors="0" time="-1"/>`,
	}
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint not found (Debian package libxml2-utils; scripts/test-deps.sh installs it)")
	}
	for i, doc := range bad {
		file := filepath.Join(t.TempDir(), "bad.xml")
		if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(xmllint, "--noout", "--schema", filepath.Join("testdata", "junit.xsd"), file).CombinedOutput(); err == nil {
			t.Errorf("bad document %d passed the schema:\n%s", i, out)
		}
	}
}
