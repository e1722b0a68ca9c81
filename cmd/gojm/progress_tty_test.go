package main

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gojm/gojm/examples/target"
)

// tmux runs a command in a real terminal (tmux, which scripts/test-deps.sh
// installs) of a given size, for tests of what a person sees on screen.
type tmux struct {
	t    *testing.T
	bin  string
	name string
}

func newTmux(t *testing.T, cols, rows int, command string) *tmux {
	t.Helper()
	bin, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux not found (scripts/test-deps.sh installs it); the live progress is not checked on a terminal")
	}
	m := &tmux{t: t, bin: bin, name: fmt.Sprintf("gojm-test-%d", time.Now().UnixNano())}
	// The shell keeps the pane open once the command has ended, to be
	// read; it ignores the Ctrl-C the test types, which the command (run
	// with the default disposition back) gets.
	m.run("new-session", "-d", "-s", m.name, "-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows),
		"sh", "-c", "trap '' INT; (trap - INT; exec "+command+"); echo GOJM-EXITED $?; sleep 600")
	t.Cleanup(func() { exec.Command(m.bin, "kill-session", "-t", m.name).Run() })
	return m
}

func (m *tmux) run(args ...string) string {
	m.t.Helper()
	out, err := exec.Command(m.bin, args...).CombinedOutput()
	if err != nil {
		m.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// screen is the pane's text, the lines scrolled off included.
func (m *tmux) screen() string { return m.run("capture-pane", "-p", "-t", m.name, "-S", "-200") }

// waitFor waits until the screen shows s; it fails the test after a minute.
func (m *tmux) waitFor(s string) string {
	m.t.Helper()
	limit := time.Now().Add(time.Minute)
	for {
		if sc := m.screen(); strings.Contains(sc, s) {
			return sc
		} else if time.Now().After(limit) {
			m.t.Fatalf("the screen never showed %q:\n%s", s, sc)
		}
		time.Sleep(20 * time.Millisecond) // polling the screen, not standing in for an event
	}
}

// On an 80-column terminal the live block fits, and after a Ctrl-C the
// screen holds the stop message, then the block once in its final state,
// then the end report: no stale or doubled lines, no line cut by a redraw.
func TestProgressOnTerminal(t *testing.T) {
	bin := buildGojm(t)
	srv := target.NewServer(target.Options{CountOnly: true})
	if err := srv.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	port := strings.TrimPrefix(srv.URL(), "http://127.0.0.1:")
	out := t.TempDir()
	cmd := fmt.Sprintf("%s run %s -o %s/out -J host=127.0.0.1 -J port=%s", bin, foreverPlan(t, 4, "/sleep?ms=5"), out, port)
	m := newTmux(t, 80, 60, cmd)
	live := m.waitFor("VUs")
	// tmux wraps a line as wide as the terminal: a line of 80 columns
	// on screen is one that did not fit.
	for _, line := range strings.Split(live, "\n") {
		if n := len([]rune(line)); n >= 80 {
			t.Errorf("a line of %d columns on an 80-column terminal: %q", n, line)
		}
	}
	m.waitFor("samples, 0 errors")
	m.run("send-keys", "-t", m.name, "C-c")
	final := m.waitFor("GOJM-EXITED")

	stop := strings.Index(final, "stopping: running samples")
	head := strings.Index(final, "gojm Interrupted")
	summary := strings.Index(final, "summary =")
	if stop < 0 || head < 0 || summary < 0 || !(stop < head && head < summary) {
		t.Errorf("want the stop message, the block, then the summary line:\n%s", final)
	}
	if n := strings.Count(final, "gojm Interrupted"); n != 1 {
		t.Errorf("the block's header is on screen %d times:\n%s", n, final)
	}
	if !strings.Contains(final, "0/4 VUs done") {
		t.Errorf("the block's last state is not on screen:\n%s", final)
	}
	for _, line := range strings.Split(final, "\n") {
		if strings.Contains(line, "gojm") && !strings.HasPrefix(line, "gojm") && !strings.HasPrefix(line, bin) {
			t.Errorf("a line the redraw left dirty: %q", line)
		}
	}
}
