package report

import "path/filepath"

// ResultFiles opens results files for a run. Listeners naming the same
// file share it, as JMeter's ResultCollectors share one writer per file
// name: the file gets one header (XML: one root element) from its first
// opener, and each listener's samples go into the same buffer as whole
// rows, in the order the listeners receive them, each encoded by that
// listener's own save configuration. Two writers of their own would each
// write a header and interleave their buffers mid-row. Not safe for
// concurrent use.
type ResultFiles struct {
	open   map[string]*jtlOut
	detail bool
}

// SavesDetail reports whether a file opened so far keeps some part of the
// samples' Detail (SaveConfig.SavesDetail).
func (rf *ResultFiles) SavesDetail() bool { return rf.detail }

// Open opens path as OpenResultFile does, or, when it is open already,
// returns a writer for cfg into it. The first opener's sink writes out,
// ends and closes the file; the others' Close does nothing.
func (rf *ResultFiles) Open(path string, cfg SaveConfig, varNames []string) (Sink, error) {
	rf.detail = rf.detail || cfg.SavesDetail()
	key, err := filepath.Abs(path)
	if err != nil {
		key = filepath.Clean(path)
	}
	if out, ok := rf.open[key]; ok {
		return joinOut(out, cfg, varNames)
	}
	s, err := OpenResultFile(path, cfg, varNames)
	if err != nil {
		return nil, err
	}
	if rf.open == nil {
		rf.open = map[string]*jtlOut{}
	}
	switch w := s.(type) {
	case *CSVWriter:
		rf.open[key] = w.out
	case *XMLWriter:
		rf.open[key] = w.out
	}
	return s, nil
}

// joinOut returns a writer for cfg into an open file, without the opening
// lines the file has already.
func joinOut(out *jtlOut, cfg SaveConfig, varNames []string) (Sink, error) {
	if cfg.XML {
		xw, err := newXMLWriter(nil, cfg, varNames)
		if err != nil {
			return nil, err
		}
		xw.out = out
		return joined{xw}, nil
	}
	cw, err := newCSVWriter(nil, cfg, len(varNames))
	if err != nil {
		return nil, err
	}
	cw.out = out
	return joined{cw}, nil
}

// joined is a further listener's writer into a shared results file. It is
// no Ticker and its Close does nothing: the first opener's sink writes
// the file out, ends and closes it.
type joined struct{ Sink }

func (joined) Close() error { return nil }
