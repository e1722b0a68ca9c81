package main

import (
	"bufio"
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/png"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite golden files")

// bookServer serves the seed plan's page and counts requests. Every third
// answer takes 3 ms, so that a chart of its whole-millisecond times has
// points off the mean and median lines.
func bookServer(t *testing.T) (host, port string, count *atomic.Int64) {
	t.Helper()
	count = new(atomic.Int64)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if count.Add(1)%3 == 0 {
			time.Sleep(3 * time.Millisecond)
		}
		if r.URL.Path != "/grails-slc/book/list" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html;charset=utf-8")
		w.Header().Set("Date", "Mon, 30 Nov 2026 00:00:00 GMT")
		w.Write([]byte("<html><body><h1>Book List</h1></body></html>"))
	}))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	host, port, _ = net.SplitHostPort(u.Host)
	return host, port, count
}

// The walking skeleton: the seed plan (with its host and port made
// properties) runs its 100 samples into a JMeter 5.6 JTL, a summary and a
// Graph Results chart with visible mean and median lines.
func TestRunBookPlan(t *testing.T) {
	host, port, count := bookServer(t)
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	code := run([]string{"run", "../../engine/testdata/book.jmx", "-o", out, "-J", "host=" + host, "-Jport=" + port}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if n := count.Load(); n != 100 {
		t.Errorf("server received %d requests, want 100", n)
	}
	jtl, err := os.ReadFile(filepath.Join(out, "results.jtl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(jtl), "\n"), "\n")
	if len(lines) != 101 {
		t.Fatalf("JTL has %d lines, want header + 100", len(lines))
	}
	// Golden rows: timing columns masked, the address made generic.
	var masked []string
	for _, l := range lines[:3] {
		masked = append(masked, maskRow(strings.ReplaceAll(l, host+":"+port, "HOST:PORT")))
	}
	golden(t, "book.jtl.golden", strings.Join(masked, "\n")+"\n")

	if !strings.Contains(stdout.String(), "summary =    100 in ") {
		t.Errorf("no summariser line for 100 samples in:\n%s", stdout.String())
	}
	for _, want := range []string{"Complete requests:      100", "Failed requests:        0", "Percentage of the requests served"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("end report lacks %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "summary.txt")); err != nil {
		t.Error(err)
	}
	// The plan's one Graph Results listener sees every sample: its chart
	// would be graph-results.png again, so there is no second file.
	if _, err := os.Stat(filepath.Join(out, "graph-results-Graph-Results.png")); err == nil {
		t.Error("graph-results-Graph-Results.png written: a duplicate of graph-results.png")
	}
	img := decodePNG(t, filepath.Join(out, "graph-results.png"))
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 700 {
		t.Errorf("Graph Results is %v, want 1200×700", b.Size())
	}
	for _, want := range []struct {
		name string
		c    color.RGBA
		min  int
	}{
		{"mean line (blue)", color.RGBA{0, 0, 255, 255}, 50},
		{"median line (purple)", color.RGBA{128, 0, 128, 255}, 50},
		// Points overlap where elapsed times repeat: a few are enough.
		{"data points (black)", color.RGBA{0, 0, 0, 255}, 5},
	} {
		if n := countColour(img, want.c); n < want.min {
			t.Errorf("%s: %d pixels, want at least %d", want.name, n, want.min)
		}
	}
}

// maskRow blanks the columns that vary from run to run: timeStamp,
// elapsed, Latency, Connect.
func maskRow(row string) string {
	f := strings.Split(row, ",")
	if f[0] == "timeStamp" || len(f) < 17 {
		return row
	}
	for _, i := range []int{0, 1, 14, 16} {
		f[i] = "#"
	}
	return strings.Join(f, ",")
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n got:\n%s\nwant:\n%s", name, got, want)
	}
}

func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(bufio.NewReader(f))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

func countColour(img image.Image, c color.RGBA) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if uint8(r>>8) == c.R && uint8(g>>8) == c.G && uint8(bl>>8) == c.B {
				n++
			}
		}
	}
	return n
}

// refusedPlan has a JDBC sampler, which gojm cannot run.
const refusedPlan = `<?xml version="1.0"?><jmeterTestPlan version="1.2"><hashTree>
<TestPlan testclass="TestPlan" testname="Plan"/><hashTree>
<ThreadGroup testclass="ThreadGroup" testname="Users"><elementProp name="ThreadGroup.main_controller" elementType="LoopController"><stringProp name="LoopController.loops">1</stringProp></elementProp><stringProp name="ThreadGroup.num_threads">1</stringProp></ThreadGroup>
<hashTree><JMSSampler testclass="JMSSampler" testname="Query"/><hashTree/></hashTree>
</hashTree></hashTree></jmeterTestPlan>`

func TestValidateExitCodes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	refused := write("refused.jmx", refusedPlan)
	tests := []struct {
		name, file string
		code       int
		want       string
	}{
		{"runnable", "../../engine/testdata/book.jmx", 0, "the plan can run"},
		{"refused element", refused, 3, "REFUSED      Query (JMSSampler)"},
		{"not XML", write("bad.jmx", "<jmeterTestPlan><hashTree>"), 1, "malformed XML"},
		{"not a plan", write("pom.xml", "<project/>"), 1, "not a JMeter test plan"},
		{"missing", filepath.Join(dir, "nope.jmx"), 1, "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run([]string{"validate", tt.file}, &stdout, &stderr)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tt.code, stderr.String())
			}
			if all := stdout.String() + stderr.String(); !strings.Contains(all, tt.want) {
				t.Errorf("output lacks %q:\n%s", tt.want, all)
			}
		})
	}
}

// A refused element makes run exit 3 with its path, sending nothing.
func TestRunRefusesUnsupported(t *testing.T) {
	var stdout, stderr bytes.Buffer
	dir := t.TempDir()
	plan := filepath.Join(dir, "p.jmx")
	os.WriteFile(plan, []byte(refusedPlan), 0o644)
	code := run([]string{"run", plan, "-o", filepath.Join(dir, "out")}, &stdout, &stderr)
	if code != exitUnsupported || !strings.Contains(stderr.String(), "Plan › Users › Query") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}
