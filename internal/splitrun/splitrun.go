package splitrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gojm/gojm/internal/atomicfile"
	"github.com/gojm/gojm/internal/segment"
)

// Info is what a segment says of itself when it is ready: the segments
// of one run must agree on everything but Index and Clock.
type Info struct {
	Run      string    `json:"run"`      // the run's id: its plan and properties, hashed
	Segments int       `json:"segments"` // n
	Index    int       `json:"index"`    // i
	Version  string    `json:"version"`  // gojm's version
	Host     string    `json:"host"`
	Clock    time.Time `json:"clock"` // when the segment was ready, by its clock
}

// Poll is how often a segment looks at the folder for the others' files:
// a shared folder (NFS, a cloud volume) tells no one of a change.
const Poll = 50 * time.Millisecond

// Lead is the time from the last segment's ready to the start: enough for
// the others to see its file.
const Lead = 2 * time.Second

// Heartbeat is how often a running segment says it is alive; Stale, how
// long a silence makes the others take it for dead.
const (
	Heartbeat = time.Second
	Stale     = 15 * time.Second
)

// Session is one segment's part in a split run's folder.
type Session struct {
	dir  string
	seg  segment.Segment
	info Info
	// others are the segments' ready files, by index, once Join returns.
	others  []Info
	start   time.Time
	silence time.Duration // Stale, or SetStale's
}

// Join writes this segment's ready file and waits for all n, refusing a
// mismatch (another plan, other properties, another version or count);
// the run starts at the latest ready clock plus Lead.
func Join(ctx context.Context, dir string, seg segment.Segment, info Info) (*Session, error) {
	n := seg.Seq.Len()
	info.Segments, info.Index, info.Clock = n, seg.Index, time.Now()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("the sync folder: %w", err)
	}
	s := &Session{dir: dir, seg: seg, info: info, silence: Stale}
	if err := writeJSON(s.path("ready", seg.Index), info); err != nil {
		return nil, err
	}
	others := make([]Info, n)
	seen := make([]bool, n)
	for left := n; left > 0; {
		for i := range n {
			if seen[i] {
				continue
			}
			var o Info
			switch err := readJSON(s.path("ready", i), &o); {
			case errors.Is(err, os.ErrNotExist):
				continue
			case err != nil:
				return nil, err
			}
			if err := agree(info, o); err != nil {
				s.Stop(err.Error())
				return nil, err
			}
			others[i], seen[i] = o, true
			left--
		}
		if left == 0 {
			break
		}
		if reason, stopped := s.Stopped(); stopped {
			return nil, fmt.Errorf("the run was stopped before it started: %s", reason)
		}
		if err := wait(ctx); err != nil {
			return nil, fmt.Errorf("waiting for the other segments' ready files in %s (%d of %d there): %w", dir, n-left, n, err)
		}
	}
	s.others = others
	for _, o := range others {
		if o.Clock.After(s.start) {
			s.start = o.Clock
		}
	}
	s.start = s.start.Add(Lead)
	return s, nil
}

// agree reports how two segments' ready files disagree.
func agree(a, b Info) error {
	switch {
	case a.Segments != b.Segments:
		return fmt.Errorf("segment %d was started as one of %d, segment %d as one of %d", a.Index, a.Segments, b.Index, b.Segments)
	case a.Run != b.Run:
		return fmt.Errorf("segment %d runs another plan or other properties than segment %d (run %s, not %s): every segment must run the same", b.Index, a.Index, b.Run, a.Run)
	case a.Version != b.Version:
		return fmt.Errorf("segment %d runs gojm %s, segment %d gojm %s: every segment must run the same gojm", b.Index, b.Version, a.Index, a.Version)
	case a.Index == b.Index && a.Host != b.Host:
		return fmt.Errorf("segment %d was started twice, on %s and on %s", a.Index, a.Host, b.Host)
	}
	return nil
}

// SetStale sets how long a silent segment is waited for (Stale by
// default): longer on a shared folder slow to show changes.
func (s *Session) SetStale(d time.Duration) {
	if d > 0 {
		s.silence = d
	}
}

// Start is when every segment starts its run.
func (s *Session) Start() time.Time { return s.start }

// Segments are the ready files of the segments, by index.
func (s *Session) Segments() []Info { return s.others }

// WaitStart sleeps until the start.
func (s *Session) WaitStart(ctx context.Context) error {
	t := time.NewTimer(time.Until(s.start))
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// SetUpDone is engine.RunOptions.SetUpDone for a split run: segment 0,
// which ran the setUp groups, publishes the properties as they are; the
// other segments wait for them (or for a stop).
func (s *Session) SetUpDone(ctx context.Context, props map[string]string) (map[string]string, error) {
	file := filepath.Join(s.dir, "setup.json")
	if s.seg.Index == 0 {
		return nil, writeJSON(file, props)
	}
	for {
		var got map[string]string
		switch err := readJSON(file, &got); {
		case err == nil:
			return got, nil
		case !errors.Is(err, os.ErrNotExist):
			return nil, err
		}
		if reason, stopped := s.Stopped(); stopped {
			return nil, fmt.Errorf("the run stopped during setUp: %s", reason)
		}
		if err := s.aliveOr(ctx, 0); err != nil {
			return nil, fmt.Errorf("waiting for segment 0's setUp groups: %w", err)
		}
	}
}

// MainDone is engine.RunOptions.MainDone for a split run: the other
// segments say their main groups have ended; segment 0 waits for them
// all (or for a stop, or the silence of a dead one) before its tearDown.
func (s *Session) MainDone(ctx context.Context) error {
	if s.seg.Index != 0 {
		return writeJSON(s.path("main-done", s.seg.Index), s.info.Host)
	}
	for i := 1; i < s.seg.Seq.Len(); i++ {
		for !exists(s.path("main-done", i)) {
			if _, stopped := s.Stopped(); stopped {
				return nil // a stopped run tidies up without waiting
			}
			if err := s.aliveOr(ctx, i); err != nil {
				return fmt.Errorf("waiting for segment %d's main groups: %w", i, err)
			}
		}
	}
	return nil
}

// Stop tells every segment to stop, with the reason; the first reason
// written is kept.
func (s *Session) Stop(reason string) {
	f, err := os.OpenFile(filepath.Join(s.dir, "stop"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return // already stopped (or the folder is gone: nothing to tell)
	}
	fmt.Fprintf(f, "segment %d (%s): %s\n", s.seg.Index, s.info.Host, reason)
	f.Close()
}

// Stopped reports whether a segment asked the run to stop, and why.
func (s *Session) Stopped() (string, bool) {
	b, err := os.ReadFile(filepath.Join(s.dir, "stop"))
	if err != nil {
		return "", false
	}
	return strings.TrimSpace(string(b)), true
}

// Watch keeps this segment's heartbeat and calls stop once, until ctx
// ends, when the run is to stop: another segment has stopped it, or has
// fallen silent (killed, its machine lost), which this one then tells
// the others.
func (s *Session) Watch(ctx context.Context, stop func(reason string)) {
	beat := time.NewTicker(Heartbeat)
	poll := time.NewTicker(Poll * 4)
	defer beat.Stop()
	defer poll.Stop()
	s.beat()
	for {
		select {
		case <-ctx.Done():
			return
		case <-beat.C:
			s.beat()
			if err := s.silent(); err != nil {
				s.Stop(err.Error())
				stop(err.Error())
				return
			}
		case <-poll.C:
			if reason, stopped := s.Stopped(); stopped {
				stop(reason)
				return
			}
		}
	}
}

// silent reports the first other segment that has been silent too long
// and has not said its results are whole.
func (s *Session) silent() error {
	for i := range s.others {
		if i == s.seg.Index || exists(s.path("done", i)) {
			continue
		}
		if err := s.stale(i); err != nil {
			return err
		}
	}
	return nil
}

// Done writes this segment's done file: its results are whole.
func (s *Session) Done(exit int) error {
	return writeJSON(s.path("done", s.seg.Index), map[string]any{"host": s.info.Host, "exit": exit})
}

// AwaitDone is segment 0's wait for the others' results: it returns the
// segments that ended without their done file (dead, killed), once every
// other has either written one or fallen silent.
func (s *Session) AwaitDone(ctx context.Context) (missing []int, err error) {
	for i := 1; i < s.seg.Seq.Len(); i++ {
		for !exists(s.path("done", i)) {
			if err := s.aliveOr(ctx, i); err != nil {
				if ctx.Err() != nil {
					return missing, err
				}
				missing = append(missing, i)
				break
			}
		}
	}
	sort.Ints(missing)
	return missing, nil
}

// beat records that this segment is alive.
func (s *Session) beat() {
	p := s.path("alive", s.seg.Index)
	now := time.Now()
	if err := os.Chtimes(p, now, now); err != nil {
		os.WriteFile(p, nil, 0o644)
	}
}

// aliveOr waits one poll; it fails when ctx ends or segment i has been
// silent for longer than Stale since it was ready.
func (s *Session) aliveOr(ctx context.Context, i int) error {
	if err := wait(ctx); err != nil {
		return err
	}
	return s.stale(i)
}

// stale fails when segment i has been silent for longer than the stale
// time since it was ready.
func (s *Session) stale(i int) error {
	last := s.others[i].Clock
	if st, err := os.Stat(s.path("alive", i)); err == nil && st.ModTime().After(last) {
		last = st.ModTime()
	}
	if time.Since(last) > s.silence {
		return fmt.Errorf("segment %d (%s) has been silent for %s: it is taken for dead", i, s.others[i].Host, time.Since(last).Round(time.Second))
	}
	return nil
}

func (s *Session) path(kind string, i int) string {
	return filepath.Join(s.dir, kind+"-"+strconv.Itoa(i))
}

func wait(ctx context.Context) error {
	t := time.NewTimer(Poll)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// writeJSON writes v to p whole: to a temporary file, then renamed, so
// that a reader never sees half of it.
func writeJSON(p string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(p, b, 0o644); err != nil {
		return fmt.Errorf("the sync folder: %w", err)
	}
	return nil
}

func readJSON(p string, v any) error {
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	return nil
}
