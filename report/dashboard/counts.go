package dashboard

import "github.com/gojm/gojm/report"

// exactBelow is the range (in ms) msCounts counts in an array; longer
// times, rare in most runs, go to a map.
const exactBelow = 1024

// maxSparse bounds the distinct times above exactBelow that one msCounts
// keeps exactly. Past it, new times above exactBelow are rounded to three
// significant digits (1,237 ms counts as 1,240), so memory stays bounded
// when response times spread over minutes.
const maxSparse = 4096

// msCounts counts whole-millisecond times: the elapsed or latency times of
// one interval, to read percentiles from (through hist). It is a smaller
// report.Histogram for the hundreds of intervals a run has: 4 bytes per
// millisecond below exactBelow, a map above, and exact while it holds at
// most maxSparse distinct times of exactBelow ms or more.
type msCounts struct {
	dense  []uint32 // [0, exactBelow), grown as times are seen
	sparse map[int64]uint32
	n      int64
	min    int64
	max    int64
}

func (c *msCounts) add(ms int64) {
	ms = max(ms, 0)
	if c.n == 0 || ms < c.min {
		c.min = ms
	}
	c.max = max(c.max, ms)
	c.n++
	if ms < int64(len(c.dense)) {
		c.dense[ms]++
		return
	}
	if ms < exactBelow {
		grown := make([]uint32, min(exactBelow, max(64, 2*ms)))
		copy(grown, c.dense)
		c.dense = grown
		c.dense[ms]++
		return
	}
	if c.sparse == nil {
		c.sparse = make(map[int64]uint32)
	}
	if _, seen := c.sparse[ms]; !seen && len(c.sparse) >= maxSparse {
		ms = round3(ms)
	}
	c.sparse[ms]++
}

// round3 rounds ms to three significant digits.
func round3(ms int64) int64 {
	p := int64(1)
	for ms/p >= 1000 {
		p *= 10
	}
	return (ms + p/2) / p * p
}

// merge adds o's counts to c.
func (c *msCounts) merge(o *msCounts) {
	if o.n == 0 {
		return
	}
	if c.n == 0 || o.min < c.min {
		c.min = o.min
	}
	c.max = max(c.max, o.max)
	c.n += o.n
	if len(o.dense) > len(c.dense) {
		grown := make([]uint32, len(o.dense))
		copy(grown, c.dense)
		c.dense = grown
	}
	for v, k := range o.dense {
		c.dense[v] += k
	}
	for v, k := range o.sparse {
		if c.sparse == nil {
			c.sparse = make(map[int64]uint32, len(o.sparse))
		}
		c.sparse[v] += k
	}
}

// hist is the times as a report.Histogram, whose percentiles are the
// statistics' own (report.Histogram.Percentile).
func (c *msCounts) hist() *report.Histogram {
	var h report.Histogram
	for v, k := range c.dense {
		h.AddN(int64(v), uint64(k))
	}
	for v, k := range c.sparse {
		h.AddN(v, uint64(k))
	}
	return &h
}
