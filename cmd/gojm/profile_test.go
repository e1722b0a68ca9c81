package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The profile flags come out of any command line, wherever they stand, and
// leave the rest as it was.
func TestProfilingFlags(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "mem.prof")
	for _, tc := range []struct {
		name string
		args []string
		rest []string
		cpu  bool
		mem  bool
	}{
		{"none", []string{"-n", "-t", "p.jmx"}, []string{"-n", "-t", "p.jmx"}, false, false},
		{"both, spaced", []string{"-n", "--cpuprofile", cpu, "-t", "p.jmx", "--memprofile", mem}, []string{"-n", "-t", "p.jmx"}, true, true},
		{"with =", []string{"report", "--cpuprofile=" + cpu, "r.jtl"}, []string{"report", "r.jtl"}, true, false},
		{"after --", []string{"run", "--", "--cpuprofile", cpu}, []string{"run", "--", "--cpuprofile", cpu}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(cpu)
			os.Remove(mem)
			rest, stop, err := profiling(tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(rest, tc.rest) {
				t.Errorf("rest %q, want %q", rest, tc.rest)
			}
			if err := stop(); err != nil {
				t.Fatal(err)
			}
			for _, f := range []struct {
				path string
				want bool
			}{{cpu, tc.cpu}, {mem, tc.mem}} {
				st, err := os.Stat(f.path)
				if got := err == nil && st.Size() > 0; got != f.want {
					t.Errorf("%s written: %v, want %v", filepath.Base(f.path), got, f.want)
				}
			}
		})
	}
	if _, _, err := profiling([]string{"-n", "--memprofile"}); err == nil {
		t.Error("--memprofile without a file name accepted")
	}
}
