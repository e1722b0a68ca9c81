package main

import (
	"bytes"
	"encoding/json"
	"image/color"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// writeJTL writes a small CSV JTL: rows of label,start offset (ms),elapsed,success.
func writeJTL(t *testing.T, dir, name string, rows ...string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,bytes\n")
	for _, r := range rows {
		f := strings.Split(r, ",")
		code, msg := "200", "OK"
		if f[3] == "false" {
			code, msg = "500", "Internal Server Error"
		}
		start, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(strings.Join([]string{strconv.FormatInt(1700000000000+start, 10), f[2], f[0], code, msg, "Users 1-1", "text", f[3], "100"}, ",") + "\n")
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// The runs of report's TestCompareByHand (worked out there), as JTL files
// through the command line.
func TestCompareGolden(t *testing.T) {
	dir := t.TempDir()
	before := writeJTL(t, dir, "before.csv", "x,0,10,true", "y,0,100,true", "x,100,20,true", "x,200,30,true",
		"y,300,100,true", "y,900,100,true", "x,960,40,true")
	after := writeJTL(t, dir, "after.csv", "x,0,50,true", "y,0,100,true", "x,100,60,true", "x,200,70,false",
		"x,300,80,true", "y,500,100,true", "y,1900,100,true", "x,1910,90,true")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"compare", before, after}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	golden(t, "compare.txt", stdout.String())
	for _, want := range []string{"x      before", "  x: after slower than before — median +45.00 ms (+180.0%)",
		"  Total: no difference beyond noise between before and after (p = 0.339;", "Mann-Whitney U test"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("table lacks %q", want)
		}
	}
	stdout.Reset()
	if code := run([]string{"compare", before, after, "--json", "--name", "v1", "--name", "v2"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var js struct {
		Baseline string
		Runs     []string
		Rows     []struct {
			Label, Run  string
			Samples     int64
			MannWhitney *struct {
				P           float64
				Significant bool
			}
			Verdict *struct{ Direction string }
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &js); err != nil {
		t.Fatalf("--json output: %v\n%s", err, stdout.String())
	}
	if js.Baseline != "v1" || len(js.Rows) != 6 || js.Rows[3].Run != "v2" || js.Rows[3].Label != "x" ||
		js.Rows[3].MannWhitney == nil || !js.Rows[3].MannWhitney.Significant || js.Rows[2].MannWhitney != nil ||
		js.Rows[3].Verdict == nil || js.Rows[3].Verdict.Direction != "slower" {
		t.Errorf("JSON %+v", js)
	}
}

// Two JTLs written by JMeter 2.13 itself (a header-less CSV and an XML
// file): the table, its JSON and the two charts, decoded.
func TestCompareJMeterRuns(t *testing.T) {
	dir := filepath.Join("testdata", "jmeter213")
	out := filepath.Join(t.TempDir(), "cmp")
	var stdout, stderr bytes.Buffer
	args := []string{"compare", filepath.Join(dir, "csv.jtl"), filepath.Join(dir, "xml.jtl"), "-p", filepath.Join(dir, "jmeter213.properties"),
		"--name", "25 loops", "--name", "10 loops", "-o", out}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{"Total         25 loops      600", "10 loops      240", "Checked"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, stdout.String())
		}
	}
	text, _ := os.ReadFile(filepath.Join(out, fileCompareText))
	if !strings.HasPrefix(stdout.String(), string(text)) || len(text) == 0 {
		t.Errorf("compare.txt is not the table printed")
	}
	if data, err := os.ReadFile(filepath.Join(out, fileCompareJSON)); err != nil || !json.Valid(data) {
		t.Errorf("compare.json: %v", err)
	}
	blue, orange := color.RGBA{31, 119, 180, 255}, color.RGBA{255, 127, 14, 255} // runs 1 and 2
	for _, f := range []string{fileCompareMeanMedian, fileCompareByLabel, fileComparePercentiles} {
		img := decodePNG(t, filepath.Join(out, f))
		if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 700 {
			t.Errorf("%s is %v, want 1200×700", f, b.Size())
		}
		for name, c := range map[string]color.RGBA{"first run (blue)": blue, "second run (orange)": orange} {
			if n := countColour(img, c); n < 200 {
				t.Errorf("%s: %s has %d pixels, want a visible series", f, name, n)
			}
		}
	}
}

func TestCompareUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"one file", []string{"compare", "a.jtl"}, exitUsage, "two results files or more"},
		{"names do not match", []string{"compare", "a.jtl", "b.jtl", "--name", "A"}, exitUsage, "1 --name for 2 files"},
		{"bad alpha", []string{"compare", "a.jtl", "b.jtl", "--alpha", "2"}, exitUsage, "--alpha"},
		{"missing file", []string{"compare", "a.jtl", "b.jtl"}, exitError, "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(tt.args, &stdout, &stderr); code != tt.code {
				t.Errorf("exit %d, want %d", code, tt.code)
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr lacks %q:\n%s", tt.want, stderr.String())
			}
		})
	}
}

func TestDefaultRunNames(t *testing.T) {
	got := defaultRunNames([]string{"a/results.jtl", "b/results.jtl", "c/tomcat7.csv"})
	want := []string{"a/results.jtl", "b/results.jtl", "tomcat7"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("names %q, want %q", got, want)
			break
		}
	}
}
