package main

import (
	"container/heap"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gojm/gojm/internal/splitrun"
	"github.com/gojm/gojm/report"
	"github.com/gojm/gojm/report/chart"
	"github.com/gojm/gojm/report/dashboard"
)

// merged is a run's results read back from its output folders: the
// segments' statistics merged exactly (their state.json files) and, when
// asked, the charts and the dashboard's series drawn from their results
// files.
type merged struct {
	parts  []splitrun.Part
	stats  *report.Stats
	charts *chart.Charts
	series *dashboard.Series
}

// readMerged reads the statistics of the run whose output folders are
// dir (one folder, or a split run's folder holding one per segment). It
// refuses a run that is not whole: a segment missing, two runs mixed.
func readMerged(dir string) (*merged, error) {
	parts, err := splitrun.Parts(dir)
	if err != nil {
		return nil, err
	}
	m := &merged{parts: parts}
	for _, p := range parts {
		st, err := readState(filepath.Join(p.Dir, splitrun.StateFile))
		if err != nil {
			return nil, fmt.Errorf("segment %d: %w", p.Index, err)
		}
		if m.stats == nil {
			m.stats = st
			continue
		}
		if err := m.stats.Merge(st); err != nil {
			return nil, fmt.Errorf("segment %d: %w", p.Index, err)
		}
	}
	return m, nil
}

func readState(file string) (*report.Stats, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := report.ReadState(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return st, nil
}

// draw makes the charts and the dashboard's series from every row of the
// segments' results files, the earliest ending first across the files, as one
// process's collector would have seen them. The statistics (every legend's
// figure, every table) come from the states, not from these rows.
func (m *merged) draw(title string) error {
	m.charts = chart.New(title, m.stats)
	m.series = dashboard.NewSeries(m.stats)
	sinks := report.Sinks{m.charts, m.series}
	var q sampleQueue
	for _, p := range m.parts {
		if p.Results == "" {
			return fmt.Errorf("segment %d wrote no results file: its charts cannot be drawn", p.Index)
		}
		s := newJTLStream(p.Results)
		if next, ok := s.next(); ok {
			q = append(q, queued{next, s})
		} else if err := s.wait(); err != nil {
			return err
		}
	}
	heap.Init(&q)
	for q.Len() > 0 {
		sinks.Add(q[0].s)
		if next, ok := q[0].from.next(); ok {
			q[0].s = next
			heap.Fix(&q, 0)
			continue
		}
		if err := q[0].from.wait(); err != nil {
			return err
		}
		heap.Pop(&q)
	}
	return nil
}

// jtlStream reads one results file in the background, a row at a time.
type jtlStream struct {
	rows chan *report.Sample
	err  chan error
}

func newJTLStream(file string) *jtlStream {
	s := &jtlStream{rows: make(chan *report.Sample, 1024), err: make(chan error, 1)}
	go func() {
		defer close(s.rows)
		f, err := os.Open(file)
		if err != nil {
			s.err <- err
			return
		}
		defer f.Close()
		s.err <- report.ReadJTL(f, file, copySink(s.rows), report.ReadOptions{})
	}()
	return s
}

func (s *jtlStream) next() (*report.Sample, bool) {
	r, ok := <-s.rows
	return r, ok
}

// wait returns the reader's error once the rows have ended.
func (s *jtlStream) wait() error { return <-s.err }

// copySink sends a copy of every row: the reader reuses its sample.
type copySink chan<- *report.Sample

func (c copySink) Add(s *report.Sample) {
	cp := *s
	cp.Vars = nil
	c <- &cp
}

func (c copySink) Close() error { return nil }

type queued struct {
	s    *report.Sample
	from *jtlStream
}

// sampleQueue orders the heads of the streams by their end.
type sampleQueue []queued

func (q sampleQueue) Len() int { return len(q) }
func (q sampleQueue) Less(i, j int) bool {
	return q[i].s.End().Before(q[j].s.End())
}
func (q sampleQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *sampleQueue) Push(x any)   { *q = append(*q, x.(queued)) }
func (q *sampleQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// header is the end report's first line for a run of several segments.
func (m *merged) header() string {
	if len(m.parts) == 1 {
		return ""
	}
	return fmt.Sprintf("The results of the %d segments of run %s, merged\n\n", len(m.parts), m.parts[0].Run)
}
