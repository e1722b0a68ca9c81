package report

import "path/filepath"

// ResultFiles opens results files for a run. Every opener of the same file
// shares one writer, as JMeter's ResultCollectors share one per file name:
// the file gets one header (XML: one root element), and each listener's
// samples go in as whole rows, in the order the listeners receive them.
// Two writers on one file would each write a header and interleave their
// buffers mid-row. The first opener's save configuration sets the file's
// format and columns; JMeter formats each listener's rows by its own, and
// a file mixing two layouts serves no one. Not safe for concurrent use.
type ResultFiles struct {
	open map[string]Sink
}

// Open opens path as OpenResultFile does, or returns the way into the
// writer already open on it. The first opener's sink writes, flushes and
// closes the file; the others' Close does nothing.
func (rf *ResultFiles) Open(path string, cfg SaveConfig, varNames []string) (Sink, error) {
	key, err := filepath.Abs(path)
	if err != nil {
		key = filepath.Clean(path)
	}
	if s, ok := rf.open[key]; ok {
		return alias{s}, nil
	}
	s, err := OpenResultFile(path, cfg, varNames)
	if err != nil {
		return nil, err
	}
	if rf.open == nil {
		rf.open = map[string]Sink{}
	}
	rf.open[key] = s
	return s, nil
}

// alias is a further opener's way into a shared results file. It is no
// Ticker: the first opener's sink flushes the file.
type alias struct{ Sink }

func (alias) Close() error { return nil }
