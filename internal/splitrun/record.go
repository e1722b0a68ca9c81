package splitrun

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// RecordFile is the file in every run's output folder that says which run
// and which segment the folder's results are: what a merge checks before
// it adds folders together. A run in one process writes it too, as
// segment 0 of 1, so that a split run's results are read as any run's.
const RecordFile = "segment.json"

// StateFile is the file beside it that holds the segment's statistics in
// a form that merges exactly (report.Stats.WriteState).
const StateFile = "state.json"

// Record is what segment.json holds.
type Record struct {
	Info
	Plan    string `json:"plan"`    // the plan's name
	Results string `json:"results"` // the results file (JTL), relative to the folder when inside it
}

// WriteRecord writes dir's segment.json.
func WriteRecord(dir string, r Record) error {
	return writeJSON(filepath.Join(dir, RecordFile), r)
}

// A Part is one segment's output folder, as Parts finds it.
type Part struct {
	Dir string
	Record
}

// Parts finds the output folders of one run: dir itself when it is one
// (a run in one process), else its subfolders that are (a split run's
// folder, or folders copied together from several machines). It checks
// that they are one run's segments 0 to n-1, each once, and names what is
// missing or does not belong.
func Parts(dir string) ([]Part, error) {
	if p, err := readPart(dir); err == nil {
		return check(dir, []Part{p})
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var parts []Part
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		p, err := readPart(filepath.Join(dir, e.Name()))
		switch {
		case errors.Is(err, os.ErrNotExist):
			continue
		case err != nil:
			return nil, err
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("%s holds no run's results: no %s in it or in its folders", dir, RecordFile)
	}
	return check(dir, parts)
}

func readPart(dir string) (Part, error) {
	var r Record
	if err := readJSON(filepath.Join(dir, RecordFile), &r); err != nil {
		return Part{}, err
	}
	if r.Results != "" && !filepath.IsAbs(r.Results) {
		r.Results = filepath.Join(dir, r.Results)
	}
	return Part{Dir: dir, Record: r}, nil
}

// check orders the parts by index and reports a run that is not whole:
// two runs mixed, a segment twice, a segment missing.
func check(dir string, parts []Part) ([]Part, error) {
	sort.Slice(parts, func(a, b int) bool { return parts[a].Index < parts[b].Index })
	first := parts[0]
	n := first.Segments
	if n < 1 {
		return nil, fmt.Errorf("%s: %s says the run had %d segments", first.Dir, RecordFile, n)
	}
	have := make([]string, n)
	var errs []error
	for _, p := range parts {
		switch {
		case p.Run != first.Run || p.Segments != n:
			errs = append(errs, fmt.Errorf("%s is another run's (run %s, segment %d of %d) than %s (run %s, %d segments)",
				p.Dir, p.Run, p.Index, p.Segments, first.Dir, first.Run, n))
		case p.Index < 0 || p.Index >= n:
			errs = append(errs, fmt.Errorf("%s: segment %d of %d", p.Dir, p.Index, n))
		case have[p.Index] != "":
			errs = append(errs, fmt.Errorf("segment %d is there twice: %s and %s", p.Index, have[p.Index], p.Dir))
		default:
			have[p.Index] = p.Dir
		}
	}
	var missing []string
	for i, d := range have {
		if d == "" {
			missing = append(missing, fmt.Sprint(i))
		}
	}
	if len(missing) > 0 {
		errs = append(errs, fmt.Errorf("the run had %d segments; the results of segment %s are not in %s (the segment did not finish: killed, or still running)",
			n, strings.Join(missing, ", "), dir))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return parts, nil
}
