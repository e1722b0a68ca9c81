package main

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// The open-model example drops the arrivals its two threads cannot take up,
// and the end report says how many, never skipping them silently.
func TestRunReportsDroppedIterations(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"run", "../../examples/plans/open-model.jmx", "-o", filepath.Join(t.TempDir(), "out")}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	m := regexp.MustCompile(`Arrivals: (\d+) due, (\d+) begun, dropped iterations: (\d+);`).FindStringSubmatch(stdout.String())
	if m == nil {
		t.Fatalf("no arrivals line in:\n%s", stdout.String())
	}
	due, _ := strconv.Atoi(m[1])
	begun, _ := strconv.Atoi(m[2])
	dropped, _ := strconv.Atoi(m[3])
	if due != 20 || dropped == 0 || begun+dropped != due {
		t.Errorf("due %d, begun %d, dropped %d: want 20 due, some dropped, due = begun + dropped", due, begun, dropped)
	}
}
