package report

import (
	"math"
	"math/bits"
	"slices"
)

// denseLimit is the largest value (in ms, exclusive) msHist counts in its
// dense array (8 MiB at most); larger values, rare in practice, are counted
// in a map.
const denseLimit = 1 << 20

// msHist counts whole-millisecond values exactly: every order statistic,
// percentile, mean and deviation it returns is what sorting all the values
// would give. Its dense array grows with the largest value seen (8 bytes per
// millisecond of range), not with the number of values, and Add never
// allocates once the range has been seen.
type msHist struct {
	counts []uint64
	over   map[int64]uint64
	n      uint64
	sum    int64
	min    int64
	max    int64
}

// Add counts one value; negative values count as 0.
func (h *msHist) Add(v int64) {
	if v < 0 {
		v = 0
	}
	if h.n == 0 || v < h.min {
		h.min = v
	}
	if v > h.max {
		h.max = v
	}
	h.n++
	h.sum += v
	if v < int64(len(h.counts)) {
		h.counts[v]++
		return
	}
	h.addSlow(v)
}

func (h *msHist) addSlow(v int64) {
	if v >= denseLimit {
		if h.over == nil {
			h.over = make(map[int64]uint64)
		}
		h.over[v]++
		return
	}
	n := max(1024, 1<<bits.Len64(uint64(v))) // next power of two above v
	grown := make([]uint64, n)
	copy(grown, h.counts)
	h.counts = grown
	h.counts[v]++
}

// Count is the number of values.
func (h *msHist) Count() uint64 { return h.n }

// Mean is the arithmetic mean, NaN when empty.
func (h *msHist) Mean() float64 {
	if h.n == 0 {
		return math.NaN()
	}
	return float64(h.sum) / float64(h.n)
}

// each calls f for each distinct value in increasing order with its count,
// until f returns false.
func (h *msHist) each(f func(v int64, c uint64) bool) {
	for v, c := range h.counts {
		if c != 0 && !f(int64(v), c) {
			return
		}
	}
	if len(h.over) == 0 {
		return
	}
	keys := make([]int64, 0, len(h.over))
	for k := range h.over {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !f(k, h.over[k]) {
			return
		}
	}
}

// ValueAt returns the k-th smallest value (1-based), clamped to [1, n].
func (h *msHist) ValueAt(k uint64) int64 {
	if h.n == 0 {
		return 0
	}
	k = min(max(k, 1), h.n)
	if k == 1 {
		return h.min
	}
	if k == h.n {
		return h.max
	}
	var seen uint64
	out := h.max
	h.each(func(v int64, c uint64) bool {
		seen += c
		if seen >= k {
			out = v
			return false
		}
		return true
	})
	return out
}

// Percentile is the p-th percentile (0 < p ≤ 100) estimated as JMeter's
// dashboard does (Apache Commons Math, LEGACY estimation): position
// p/100·(n+1), interpolated between the two nearest values. NaN when empty.
func (h *msHist) Percentile(p float64) float64 {
	if h.n == 0 {
		return math.NaN()
	}
	n := float64(h.n)
	var pos float64
	switch q := p / 100; q {
	case 0:
		pos = 0
	case 1:
		pos = n
	default:
		pos = q * (n + 1)
	}
	if pos < 1 {
		return float64(h.min)
	}
	if pos >= n {
		return float64(h.max)
	}
	fpos := math.Floor(pos)
	lower := float64(h.ValueAt(uint64(fpos)))
	upper := float64(h.ValueAt(uint64(fpos) + 1))
	return lower + (pos-fpos)*(upper-lower)
}

// StdDev is the population standard deviation (JMeter's listeners divide
// by n), 0 when empty.
func (h *msHist) StdDev() float64 {
	if h.n == 0 {
		return 0
	}
	mean := h.Mean()
	var ss float64
	h.each(func(v int64, c uint64) bool {
		d := float64(v) - mean
		ss += d * d * float64(c)
		return true
	})
	return math.Sqrt(ss / float64(h.n))
}
