package dashboard

import (
	"math"
	"slices"
)

// exactBelow is the range (in ms) msCounts counts in an array; longer
// times, rare in most runs, go to a map.
const exactBelow = 1024

// maxSparse bounds the distinct times above exactBelow that one msCounts
// keeps exactly. Past it, new times above exactBelow are rounded to three
// significant digits (1,237 ms counts as 1,240), so memory stays bounded
// when response times spread over minutes.
const maxSparse = 4096

// msCounts counts whole-millisecond times: the elapsed or latency times of
// one interval or one label, to read order statistics from. It answers
// percentiles by report.Stats's rule (position p/100·(n+1), interpolated
// between the two nearest times), exactly while it holds at most maxSparse
// distinct times of exactBelow ms or more.
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

// each calls f with each distinct time in increasing order and its count,
// until f returns false.
func (c *msCounts) each(f func(ms int64, k uint32) bool) {
	for v, k := range c.dense {
		if k != 0 && !f(int64(v), k) {
			return
		}
	}
	keys := make([]int64, 0, len(c.sparse))
	for v := range c.sparse {
		keys = append(keys, v)
	}
	slices.Sort(keys)
	for _, v := range keys {
		if !f(v, c.sparse[v]) {
			return
		}
	}
}

// percentiles returns the percentiles ps (each in [0, 100], increasing) by
// report.Stats's rule: 0 is the minimum, 100 the maximum, others at
// position p/100·(n+1) interpolated between the two nearest times. NaN for
// each without any time.
func (c *msCounts) percentiles(ps []float64) []float64 {
	out := make([]float64, len(ps))
	if c.n == 0 {
		for i := range out {
			out[i] = math.NaN()
		}
		return out
	}
	n := float64(c.n)
	// The two ranks each percentile needs, read in one pass.
	type want struct {
		i    int
		rank int64 // 1-based
		hi   bool  // the upper of the two
	}
	frac := make([]float64, len(ps))
	var wants []want
	for i, p := range ps {
		var pos float64
		switch q := p / 100; q {
		case 0:
			pos = 0
		case 1:
			pos = n
		default:
			pos = q * (n + 1)
		}
		switch {
		case pos < 1:
			out[i] = float64(c.min)
		case pos >= n:
			out[i] = float64(c.max)
		default:
			f := math.Floor(pos)
			frac[i] = pos - f
			wants = append(wants, want{i, int64(f), false}, want{i, int64(f) + 1, true})
			continue
		}
		frac[i] = -1
	}
	slices.SortStableFunc(wants, func(a, b want) int { return int(a.rank - b.rank) })
	lo := make([]float64, len(ps))
	var seen int64
	j := 0
	c.each(func(ms int64, k uint32) bool {
		seen += int64(k)
		for j < len(wants) && wants[j].rank <= seen {
			w := wants[j]
			if w.hi {
				out[w.i] = lo[w.i] + frac[w.i]*(float64(ms)-lo[w.i])
			} else {
				lo[w.i] = float64(ms)
			}
			j++
		}
		return j < len(wants)
	})
	return out
}

// bins counts the times in bins of width ms: bins[i] holds [i·width, (i+1)·width).
func (c *msCounts) bins(width int64) []int64 {
	if c.n == 0 {
		return nil
	}
	out := make([]int64, c.max/width+1)
	c.each(func(ms int64, k uint32) bool {
		out[ms/width] += int64(k)
		return true
	})
	return out
}
