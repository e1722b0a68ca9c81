package chart

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gojm/gojm/report"
)

// Charts is the sink behind every chart of one run: Graph Results and the
// Timeline, fed the same samples as the run's statistics.
type Charts struct {
	Graph    *GraphResults
	Timeline *Timeline
}

// New returns the charts of one run; title (a plan or run name, may be
// empty) is printed under each chart's title. st is the run's one
// statistics source, fed the same samples as the charts (before them):
// every figure of a legend or a note is one of its figures, over the same
// rows.
func New(title string, st *report.Stats) *Charts {
	return &Charts{
		Graph:    NewGraphResults(title, st.Options()),
		Timeline: NewTimeline(TimelineConfig{Title: title, Stats: st}),
	}
}

// Add passes the sample to Graph Results and the Timeline.
func (c *Charts) Add(s *report.Sample) {
	c.Graph.Add(s)
	c.Timeline.Add(s)
}

// Close implements report.Sink; the charts stay available.
func (c *Charts) Close() error { return nil }

// WriteAll writes every chart as a PNG file into dir, creating it if
// needed, and returns the file names (graph-results.png first, then the
// Timeline's charts in a fixed order).
func (c *Charts) WriteAll(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("charts: %w", err)
	}
	if err := c.Graph.WritePNG(filepath.Join(dir, FileGraphResults)); err != nil {
		return nil, err
	}
	names, err := c.Timeline.WriteAll(dir)
	return append([]string{FileGraphResults}, names...), err
}

// Captions returns the text of every chart WriteAll writes, in its order:
// titles, legends and notes, for pages that show the charts and for tests
// that hold their figures to the statistics.
func (c *Charts) Captions() []Caption {
	return append([]Caption{c.Graph.Caption(FileGraphResults)}, c.Timeline.Captions()...)
}

var (
	_ report.Sink = (*Charts)(nil)
	_ report.Sink = (*GraphResults)(nil)
	_ report.Sink = (*Timeline)(nil)
)
