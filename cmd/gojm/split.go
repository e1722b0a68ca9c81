package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/gojm/gojm/engine"
	"github.com/gojm/gojm/internal/atomicfile"
	"github.com/gojm/gojm/internal/segment"
	"github.com/gojm/gojm/internal/splitrun"
	"github.com/gojm/gojm/report"
)

// splitFlags are gojm run's flags for one segment of a split run
// (docs/scale-out.md).
type splitFlags struct {
	segment string
	syncDir string
	startAt string
	stale   time.Duration
}

func (f *splitFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.segment, "segment", "", "run segment i of a split run of n (0/4 is the first of four); with --sync-dir or --start-at")
	fs.StringVar(&f.syncDir, "sync-dir", "", "the folder the segments share: they start together, stop together and leave their results there; segment 0 merges them")
	fs.StringVar(&f.startAt, "start-at", "", "start at this instant (RFC 3339: 2026-12-01T10:00:00Z) instead of meeting in --sync-dir")
	fs.DurationVar(&f.stale, "sync-stale", splitrun.Stale, "with --sync-dir: how long a segment may be silent before the others take it for dead")
}

// split is this process's part in a run: the whole run (segment 0 of 1)
// unless --segment says otherwise.
type split struct {
	seg     segment.Segment
	dir     string    // --sync-dir, or ""
	startAt time.Time // --start-at, or zero
	info    splitrun.Info
	seed    uint64
	stale   time.Duration
	sess    *splitrun.Session // once joined, with --sync-dir
	stderr  io.Writer
	// stopWatch ends the session's heartbeat and stop watch, once the
	// segment's results are whole.
	stopWatch context.CancelFunc
}

// openSplit reads the split flags of a run of p. Every run has one: the
// whole run is segment 0 of 1, and writes the same record of itself as a
// segment does. With --sync-dir and no -o, the results go to the
// segment's folder in the sync folder.
func openSplit(f *runFlags, p *engine.Plan, stderr io.Writer) (*split, error) {
	sf := &f.split
	sp := &split{seg: segment.Whole(), dir: sf.syncDir, stale: sf.stale, stderr: stderr}
	if sf.segment != "" {
		seg, err := segment.Parse(sf.segment)
		if err != nil {
			return nil, &exitErr{exitUsage, fmt.Errorf("--segment: %w", err)}
		}
		sp.seg = seg
	}
	if sf.startAt != "" {
		t, err := time.Parse(time.RFC3339Nano, sf.startAt)
		if err != nil {
			return nil, &exitErr{exitUsage, fmt.Errorf("--start-at %q: want an instant in RFC 3339 (2026-12-01T10:00:00Z)", sf.startAt)}
		}
		sp.startAt = t
	}
	switch {
	case sp.seg.Split() && sp.dir == "" && sp.startAt.IsZero():
		return nil, &exitErr{exitUsage, errors.New("--segment needs --sync-dir (a folder every segment shares) or --start-at (one instant for all)")}
	case !sp.seg.Split() && (sp.dir != "" || !sp.startAt.IsZero()):
		return nil, &exitErr{exitUsage, errors.New("--sync-dir and --start-at are for a split run: give --segment i/n too")}
	}
	run, err := runID(f, p)
	if err != nil {
		return nil, err
	}
	host, _ := os.Hostname()
	sp.info = splitrun.Info{Run: run, Segments: sp.seg.Seq.Len(), Index: sp.seg.Index, Version: version(), Host: host}
	// The segments draw one sequence of random schedules: the seed comes
	// from what they share, the run and its folder or instant.
	h := sha256.Sum256([]byte(run + "\x00" + filepath.Base(filepath.Clean(sp.dir)) + "\x00" + sf.startAt))
	if sp.seg.Split() {
		sp.seed = binary.LittleEndian.Uint64(h[:8]) | 1
	}
	if sp.dir != "" && f.out == "" {
		f.out = filepath.Join(sp.dir, fmt.Sprintf("segment-%d", sp.seg.Index))
	}
	return sp, nil
}

// runID is the run's identity as its segments must share it: the plan's
// bytes and the properties it runs with, hashed.
func runID(f *runFlags, p *engine.Plan) (string, error) {
	b, err := os.ReadFile(f.plan)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	h.Write(b)
	props := p.Props.Snapshot()
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(h, "\x00%s=%s", k, props[k])
	}
	return hex.EncodeToString(h.Sum(nil)[:8]), nil
}

// join meets the other segments in the sync folder (or waits for
// --start-at) and sleeps until the common start, or until ctx is done (a
// signal). A segment that cannot take part tells the others (abandon).
func (sp *split) join(ctx context.Context) error {
	if !sp.seg.Split() {
		return nil
	}
	start := sp.startAt
	if sp.dir != "" {
		fmt.Fprintf(sp.stderr, "gojm: segment %s: waiting in %s for the other segments\n", sp.seg, sp.dir)
		sess, err := splitrun.Join(ctx, sp.dir, sp.seg, sp.info)
		if err != nil {
			return err
		}
		sess.SetStale(sp.stale)
		sp.sess = sess
		if start.IsZero() {
			start = sess.Start()
		}
	}
	if d := time.Until(start); d > 0 {
		fmt.Fprintf(sp.stderr, "gojm: segment %s starts at %s (in %s)\n", sp.seg, start.Format("15:04:05.000"), d.Round(time.Millisecond))
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// abandon tells the other segments that this one will not run: a plan
// it cannot load, outputs it cannot open.
func (f *splitFlags) abandon(err error) {
	seg, perr := segment.Parse(f.segment)
	if f.syncDir == "" || perr != nil || !seg.Split() {
		return
	}
	host, _ := os.Hostname()
	stopFile(f.syncDir, seg.Index, host, err)
}

// stopFile writes the sync folder's stop file for a segment that has not
// joined (or cannot any more).
func stopFile(dir string, index int, host string, err error) {
	os.MkdirAll(dir, 0o755)
	f, ferr := os.OpenFile(filepath.Join(dir, "stop"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if ferr != nil {
		return
	}
	fmt.Fprintf(f, "segment %d (%s): %s\n", index, host, strings.ReplaceAll(err.Error(), "\n", "; "))
	f.Close()
}

// runOptions are the engine's options for this segment.
func (sp *split) runOptions() engine.RunOptions {
	if sp == nil {
		return engine.RunOptions{}
	}
	opt := engine.RunOptions{Segment: sp.seg, Seed: sp.seed}
	if !sp.seg.Split() {
		return opt
	}
	// Thread names are global across segments, as their numbers are;
	// the host tells the machines apart as JMeter's remote runs do.
	opt.ThreadPrefix = sp.info.Host + "-"
	if sp.sess != nil {
		opt.SetUpDone = sp.sess.SetUpDone
		opt.MainDone = sp.sess.MainDone
		opt.OnStop = func(cause error) { sp.sess.Stop(cause.Error()) }
	}
	return opt
}

// watch stops r when another segment stops the run, and keeps this
// segment's heartbeat until its results are whole (finish).
func (sp *split) watch(r *engine.Run) {
	if sp == nil || sp.sess == nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	sp.stopWatch = cancel
	go sp.sess.Watch(ctx, func(reason string) {
		fmt.Fprintf(sp.stderr, "gojm: stopping: %s\n", reason)
		r.Stop(errors.New(reason))
	})
}

// mergesHere reports whether this process merges the split run's results
// at its end: segment 0, which then prints the merged report in place of
// its own.
func (sp *split) mergesHere() bool { return sp.sess != nil && sp.seg.Index == 0 }

// judgedElsewhere reports whether thresholds are judged on another
// process's merge, not on this segment's figures.
func (sp *split) judgedElsewhere() bool { return sp.seg.Split() && !sp.mergesHere() }

// record writes the output folder's state.json and segment.json: the
// statistics in a form that merges exactly, then what run and segment
// they are (last, so that a record means whole results).
func (sp *split) record(o *runOutputs, jtl string) error {
	if sp == nil || o.outDir == "" {
		return nil
	}
	var state bytes.Buffer
	if err := o.stats.WriteState(&state); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(o.outDir, splitrun.StateFile), state.Bytes(), 0o644); err != nil {
		return fmt.Errorf("statistics state: %w", err)
	}
	if rel, err := filepath.Rel(o.outDir, jtl); err == nil && !strings.HasPrefix(rel, "..") {
		jtl = rel
	} else if jtl != "" {
		jtl, _ = filepath.Abs(jtl)
	}
	return splitrun.WriteRecord(o.outDir, splitrun.Record{Info: sp.info, Plan: o.p.Name, Results: jtl})
}

// finish ends this segment's part: it tells the others why it failed, if
// it did, and that its results are whole. Segment 0 then waits for the
// others' and merges them into the sync folder (merge.go).
func (sp *split) finish(runErr error) error {
	if sp.sess == nil {
		return nil
	}
	if runErr != nil {
		sp.sess.Stop(runErr.Error())
	}
	if err := sp.sess.Done(0); err != nil {
		return err
	}
	defer sp.stopWatch()
	if sp.seg.Index != 0 {
		return nil
	}
	missing, err := sp.sess.AwaitDone(context.Background())
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		names := make([]string, len(missing))
		for i, m := range missing {
			names[i] = fmt.Sprintf("segment %d (%s)", m, sp.sess.Segments()[m].Host)
		}
		return fmt.Errorf("%s ended without results: no merged result is written, since it would miss their samples", strings.Join(names, ", "))
	}
	return nil
}

// mergedReport is segment 0's end of a split run: the segments' results
// merged into the sync folder, the end report over them on stdout, and
// the thresholds judged on them. As for a run's own end report,
// summary.txt and statistics.json come first (a segment's results file
// that cannot be read back for the charts loses them nothing), and
// repeated signals (hurried) skip the charts and the dashboard.
func (o *runOutputs) mergedReport(stdout io.Writer, dir string, hurried func() bool) error {
	m, err := readMerged(dir)
	if err != nil {
		return err
	}
	var summary strings.Builder
	summary.WriteString(m.header())
	if err := report.WriteEndReport(&summary, m.stats, report.ABInfo{}); err != nil {
		return err
	}
	o.live.stats, o.live.judgedElsewhere = m.stats, false
	if err := o.live.report(&summary); err != nil {
		return err
	}
	if err := writeSummaryFiles(dir, summary.String(), m.stats); err != nil {
		return err
	}
	fmt.Fprint(stdout, "\n"+summary.String())
	// The charts read every segment's results file again: after the
	// summary, and not at all when hurried.
	if !hurried() {
		if err := m.draw(o.p.Name); err != nil {
			return err
		}
		if err := writeCharts(dir, m.charts, nil, hurried); err != nil {
			return err
		}
	}
	if hurried() {
		fmt.Fprintf(stdout, "\nResults in %s (charts and dashboard skipped; each segment's in its segment-i folder)\n", dir)
		return nil
	}
	if o.series != nil { // -e: the dashboard over the merged statistics and rows
		if err := writeRunDashboard(dir, o.p, summary.String(), m.stats, m.series); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "\nResults in %s (each segment's in its segment-i folder)\n", dir)
	return nil
}
