package main

import (
	"bytes"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestWriteVersion(t *testing.T) {
	tests := []struct {
		name string
		bi   debug.BuildInfo
		want string
	}{
		{"installed at a version", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/gojm/gojm", Version: "v1.2.3"}},
			"gojm v1.2.3\ngo      go1.26.8\nmodule  github.com/gojm/gojm\n"},
		{"built from a clone", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/gojm/gojm", Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "a00e86a0123456789"}, {Key: "vcs.time", Value: "2026-12-01T23:00:00Z"}, {Key: "vcs.modified", Value: "false"}}},
			"gojm (devel)\ncommit  a00e86a0123456789, 2026-12-01T23:00:00Z\ngo      go1.26.8\nmodule  github.com/gojm/gojm\n"},
		{"with changes", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/gojm/gojm", Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "a00e86a"}, {Key: "vcs.modified", Value: "true"}}},
			"gojm (devel)\ncommit  a00e86a (with uncommitted changes)\ngo      go1.26.8\nmodule  github.com/gojm/gojm\n"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		writeVersion(&b, &tt.bi)
		if b.String() != tt.want {
			t.Errorf("%s:\n%s\nwant\n%s", tt.name, b.String(), tt.want)
		}
	}
}

// gojm version reads the build information of the binary it is.
func TestVersionCommand(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}, {"-v"}} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
		}
		if !strings.HasPrefix(stdout.String(), "gojm ") || !strings.Contains(stdout.String(), "go      "+runtime.Version()+"\n") {
			t.Errorf("%v:\n%s", args, stdout.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"version", "extra"}, &stdout, &stderr); code != exitUsage {
		t.Errorf("version extra: exit %d", code)
	}
}
