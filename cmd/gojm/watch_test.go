package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A run with --watch writes server.csv and its chart into the output
// folder and a server block, with requests per CPU-second, into the report.
func TestRunWatchesServer(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("--watch needs /proc")
	}
	host, port, _ := bookServer(t)
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	// The server runs in this test's process: watch it by PID.
	code := run([]string{"run", "../../engine/testdata/book.jmx", "-o", out, "-J", "host=" + host, "-J", "port=" + port,
		"--watch", strconv.Itoa(os.Getpid())}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, f := range []string{"server.csv", "server.png"} {
		if fi, err := os.Stat(filepath.Join(out, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	summary, err := os.ReadFile(filepath.Join(out, "summary.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Server (watched processes)", "per CPU-second"} {
		if !strings.Contains(string(summary), want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}
	csv, _ := os.ReadFile(filepath.Join(out, "server.csv"))
	if !strings.Contains(string(csv), strconv.Itoa(os.Getpid())) {
		t.Errorf("server.csv has no row for pid %d:\n%s", os.Getpid(), csv)
	}
}

// gojm compare of two watched runs shows the server's figures per run.
func TestCompareShowsServerFigures(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("--watch needs /proc")
	}
	host, port, _ := bookServer(t)
	dir := t.TempDir()
	var jtls []string
	for _, name := range []string{"a", "b"} {
		out := filepath.Join(dir, name)
		var stdout, stderr bytes.Buffer
		code := run([]string{"run", "../../engine/testdata/book.jmx", "-o", out, "-J", "host=" + host, "-J", "port=" + port,
			"--watch", strconv.Itoa(os.Getpid())}, &stdout, &stderr)
		if code != 0 {
			t.Fatalf("run %s: exit %d: %s", name, code, stderr.String())
		}
		jtls = append(jtls, filepath.Join(out, "results.jtl"))
	}
	var stdout, stderr bytes.Buffer
	if code := run(append([]string{"compare", "--name", "A", "--name", "B"}, jtls...), &stdout, &stderr); code != 0 {
		t.Fatalf("compare: exit %d: %s", code, stderr.String())
	}
	got := stdout.String()
	i := strings.Index(got, "Server (watched processes")
	if i < 0 {
		t.Fatalf("no server table in:\n%s", got)
	}
	table := got[i:]
	for _, want := range []string{"req per CPU-s", "CPU mean %", "peak RSS MiB"} {
		if !strings.Contains(table, want) {
			t.Errorf("server table lacks %q:\n%s", want, table)
		}
	}
	if strings.Count(table, "\n") < 3 {
		t.Errorf("want a row per run:\n%s", table)
	}
}
