package config

import (
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/internal/files"
)

// read is the next record of f for vu. A file shared by several threads
// in a split run is striped as its threads are: of the records one
// process would hand out (the v-th read of the run, across recycles), a
// segment takes those it owns, so that together the segments read each
// once. A file each thread reads on its own is read whole: its threads
// are the ones striped.
func (ds *csvDataSet) read(f *csvFile, vu *element.VU, buf []string) ([]string, error) {
	seg := vu.Run.Segment
	if ds.mode == shareThread || !seg.Split() {
		return f.next(ds, buf)
	}
	f.stripe.Lock()
	defer f.stripe.Unlock()
	for {
		vals, err := f.next(ds, buf)
		if err != nil || len(vals) == 0 {
			return vals, err
		}
		f.reads++
		if seg.Owns(f.reads - 1) {
			return vals, nil
		}
	}
}

// dataFile describes the data set's file for the schedule: the rows of
// the run's reads, each read once through the file, or round and round
// when it recycles.
func (ds *csvDataSet) dataFile(pol *files.Policy, path string) element.DataFile {
	return element.DataFile{Element: ds.path, File: path, Reads: func(owns func(int64) bool, max int) ([]element.DataRead, bool, error) {
		f, err := openCSVFile(pol, path, ds.encoding, ds.delimRune, ds.ignoreHead || ds.names == nil)
		if err != nil {
			return nil, false, err
		}
		defer f.file.Close()
		var rows int64
		var buf []string
		for {
			vals, err := f.next(&csvDataSet{delim: ds.delim, quoted: ds.quoted}, buf)
			if err != nil {
				return nil, false, err
			}
			if len(vals) == 0 {
				break
			}
			buf = vals
			rows++
		}
		if rows == 0 {
			return nil, false, nil
		}
		reads := rows
		if ds.recycle || reads > int64(max) {
			reads = int64(max)
		}
		var out []element.DataRead
		for v := range reads {
			if owns(v) {
				out = append(out, element.DataRead{Read: v, Row: v%rows + 1})
			}
		}
		return out, reads < rows || ds.recycle, nil
	}}
}
