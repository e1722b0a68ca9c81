package engine

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gojm/gojm/internal/segment"
	"github.com/gojm/gojm/jmx"
)

// TestCorpusScheduleSegments checks, for every plan of both corpora that
// compiles, that what 3 and 4 segments of a split run plan to start
// together equals what the whole run plans, start for start.
func TestCorpusScheduleSegments(t *testing.T) {
	var files []string
	flat, _ := filepath.Glob("../../shared/corpus/jmx/*.jmx")
	files = append(files, flat...)
	filepath.WalkDir("../../shared/corpus/repos", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jmx") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		t.Skip("no corpus at ../../shared: the real-plan tests need ../shared beside the clone")
	}
	lines := func(p *Plan, seg segment.Segment) []string {
		var out []string
		for _, g := range p.Schedule(seg, 7, "", 20000) {
			for _, s := range g.Starts {
				out = append(out, g.Group+"\t"+s.String())
			}
			if g.Err != nil && seg.Index == 0 {
				out = append(out, g.Group+"\t"+g.Err.Error())
			}
		}
		for _, d := range p.DataReads(seg, 20000) {
			for _, r := range d.Reads {
				out = append(out, fmt.Sprintf("%s\t%d\t%d", d.Element, r.Read, r.Row))
			}
			if d.Err != nil && seg.Index == 0 {
				out = append(out, d.Element+"\t"+d.Err.Error())
			}
		}
		slices.Sort(out)
		return out
	}
	checked, dataFiles := 0, 0
	for _, f := range files {
		src, err := jmx.Load(f)
		if err != nil {
			continue
		}
		p, err := Compile(src, Options{SkipUnsupported: true})
		if err != nil {
			continue
		}
		checked++
		dataFiles += len(p.Plan.DataFiles)
		whole := lines(p, segment.Whole())
		for _, n := range []int{3, 4} {
			seq, _ := segment.Equal(n)
			var union []string
			for i := range n {
				union = append(union, lines(p, segment.Segment{Seq: seq, Index: i})...)
			}
			slices.Sort(union)
			if !slices.Equal(union, whole) {
				t.Errorf("%s: %d segments plan %d starts together, the whole run %d", f, n, len(union), len(whole))
			}
		}
	}
	t.Logf("%d of %d corpus plans compile (%d shared data files); the segments' schedules and reads of each equal the whole run's", checked, len(files), dataFiles)
}
