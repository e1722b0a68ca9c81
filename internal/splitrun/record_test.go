package splitrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParts(t *testing.T) {
	rec := func(run string, i, n int) Record {
		return Record{Info: Info{Run: run, Index: i, Segments: n, Host: "h"}, Plan: "P", Results: "results.jtl"}
	}
	for _, tc := range []struct {
		name    string
		folders map[string]Record // "" is the folder itself
		want    []int             // the indexes found, in order
		err     string
	}{
		{name: "a run in one process", folders: map[string]Record{"": rec("r", 0, 1)}, want: []int{0}},
		{name: "a split run's folder", folders: map[string]Record{"segment-2": rec("r", 2, 3), "segment-0": rec("r", 0, 3), "segment-1": rec("r", 1, 3)}, want: []int{0, 1, 2}},
		{name: "a segment missing", folders: map[string]Record{"segment-0": rec("r", 0, 3), "segment-2": rec("r", 2, 3)}, err: "the results of segment 1 are not in"},
		{name: "a segment twice", folders: map[string]Record{"a": rec("r", 0, 2), "b": rec("r", 0, 2), "c": rec("r", 1, 2)}, err: "segment 0 is there twice"},
		{name: "two runs mixed", folders: map[string]Record{"a": rec("r", 0, 2), "b": rec("other", 1, 2)}, err: "is another run's"},
		{name: "nothing there", folders: map[string]Record{}, err: "holds no run's results"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for sub, r := range tc.folders {
				d := filepath.Join(dir, sub)
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := WriteRecord(d, r); err != nil {
					t.Fatal(err)
				}
			}
			parts, err := Parts(dir)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, p := range parts {
				got = append(got, p.Index)
				if p.Results != filepath.Join(p.Dir, "results.jtl") {
					t.Errorf("segment %d's results %s, want them in its folder %s", p.Index, p.Results, p.Dir)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("found segments %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("found segments %v, want %v", got, tc.want)
				}
			}
		})
	}
}
