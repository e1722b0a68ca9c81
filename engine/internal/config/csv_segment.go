package config

import (
	"github.com/gojm/gojm/engine/internal/element"
)

// read is the next record of f for vu. A file shared by several threads
// in a split run is striped as its threads are: of the records one
// process would hand out (the v-th read of the run, across recycles), a
// segment takes those it owns, so that together the segments read each
// once. A file each thread reads on its own is read whole: its threads
// are the ones striped.
func (ds *csvDataSet) read(f *csvFile, vu *element.VU) ([]string, error) {
	seg := vu.Run.Segment
	if ds.mode == shareThread || !seg.Split() {
		return f.next(ds)
	}
	f.stripe.Lock()
	defer f.stripe.Unlock()
	for {
		vals, err := f.next(ds)
		if err != nil || len(vals) == 0 {
			return vals, err
		}
		f.reads++
		if seg.Owns(f.reads - 1) {
			return vals, nil
		}
	}
}
