package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestContainerImage builds the image of the Containerfile with
// scripts/image.sh and checks what it holds: a non-root user, gojm as the
// entrypoint, and a static gojm that runs. Where no container tool is
// installed the test skips; where containers cannot start (a sandbox that
// refuses their limits) the binary is taken out of the image and run here.
func TestContainerImage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an image: not in -short")
	}
	tool := ""
	for _, c := range []string{"podman", "buildah"} {
		if _, err := exec.LookPath(c); err == nil {
			tool = c
			break
		}
	}
	if tool == "" {
		t.Skip("neither podman nor buildah is installed (scripts/test-deps.sh installs podman)")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	tag := "localhost/gojm:image-test"
	if out, err := exec.Command(filepath.Join(root, "scripts", "image.sh"), tag).CombinedOutput(); err != nil {
		t.Fatalf("scripts/image.sh: %v\n%s", err, out)
	}
	defer exec.Command(tool, "rmi", "-f", tag).Run()
	inspect := func(format string) string {
		t.Helper()
		cmd := exec.Command(tool, "inspect", "--format", format, tag)
		if tool == "buildah" {
			cmd = exec.Command(tool, "inspect", "--type", "image", "--format", format, tag)
		}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s inspect: %v", tool, err)
		}
		return strings.TrimSpace(string(out))
	}
	if tool == "podman" {
		if u := inspect("{{.Config.User}}"); u != "65532:65532" {
			t.Errorf("the image runs as %q, want the unprivileged 65532:65532", u)
		}
		if ep := inspect("{{.Config.Entrypoint}}"); ep != "[/gojm]" {
			t.Errorf("entrypoint %s, want [/gojm]", ep)
		}
	}
	run := exec.Command(tool, "run", "--rm", tag, "version")
	out, err := run.CombinedOutput()
	switch {
	case err == nil:
		if !strings.HasPrefix(string(out), "gojm ") {
			t.Errorf("gojm version in the image printed %q", out)
		}
		return
	case tool != "podman" || !strings.Contains(string(out), "permission denied"):
		t.Fatalf("%s run: %v\n%s", tool, err, out)
	}
	t.Logf("containers cannot start here (%s); running the image's gojm outside it", strings.TrimSpace(string(out)))
	id, err := exec.Command(tool, "create", tag).Output()
	if err != nil {
		t.Fatal(err)
	}
	cid := strings.TrimSpace(string(id))
	defer exec.Command(tool, "rm", cid).Run()
	bin := filepath.Join(t.TempDir(), "gojm")
	if out, err := exec.Command(tool, "cp", cid+":/gojm", bin).CombinedOutput(); err != nil {
		t.Fatalf("%s cp: %v\n%s", tool, err, out)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "version").Output(); err != nil || !strings.HasPrefix(string(out), "gojm ") {
		t.Errorf("the image's gojm: %v, %q", err, out)
	}
}
