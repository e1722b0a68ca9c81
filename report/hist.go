package report

import (
	"iter"
	"math"
	"math/bits"
	"slices"
)

// denseLimit is the largest value (in ms, exclusive) a Histogram counts in
// its dense array (8 MiB at most); larger values, rare in practice, are
// counted in a map.
const denseLimit = 1 << 20

// blockBits sets the width of a Histogram's blocks: 1,024 ms. Each block
// holds the count of its values, so finding the k-th value walks at most
// 1,024 blocks and 1,024 values instead of the whole range.
const blockBits = 10

// Histogram counts whole-millisecond values exactly: every order statistic,
// percentile, mean and deviation it returns is what sorting all the values
// would give, and two histograms merge without losing anything. Its dense
// array grows with the largest value seen (8 bytes per millisecond of
// range), not with the number of values, and Add never allocates once the
// range has been seen.
//
// The zero value is an empty histogram. It is not safe for concurrent use.
type Histogram struct {
	counts []uint64 // counts[v]: values equal to v; len is 0 or a power of two ≥ 1024
	blocks []uint64 // blocks[b]: values in [b<<blockBits, (b+1)<<blockBits)
	over   map[int64]uint64
	n      uint64
	sum    int64
	min    int64
	max    int64
}

// Add counts one value; negative values count as 0.
func (h *Histogram) Add(v int64) {
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
		h.blocks[v>>blockBits]++
		return
	}
	h.addSlow(v, 1)
}

// AddN counts c values equal to v (negative values count as 0).
func (h *Histogram) AddN(v int64, c uint64) {
	if c == 0 {
		return
	}
	v = max(v, 0)
	if h.n == 0 || v < h.min {
		h.min = v
	}
	if v > h.max {
		h.max = v
	}
	h.n += c
	h.sum += v * int64(c)
	if v < int64(len(h.counts)) {
		h.counts[v] += c
		h.blocks[v>>blockBits] += c
		return
	}
	h.addSlow(v, c)
}

func (h *Histogram) addSlow(v int64, c uint64) {
	if v >= denseLimit {
		if h.over == nil {
			h.over = make(map[int64]uint64)
		}
		h.over[v] += c
		return
	}
	n := max(1<<blockBits, 1<<bits.Len64(uint64(v))) // next power of two above v
	grown := make([]uint64, n)
	copy(grown, h.counts)
	h.counts = grown
	blocks := make([]uint64, n>>blockBits)
	copy(blocks, h.blocks)
	h.blocks = blocks
	h.counts[v] += c
	h.blocks[v>>blockBits] += c
}

// Reset empties h and keeps its arrays, so that a histogram counting one
// interval after another (the live progress's) does not allocate again for
// a range it has seen. It clears only the blocks that hold values.
func (h *Histogram) Reset() {
	for b, bc := range h.blocks {
		if bc != 0 {
			clear(h.counts[b<<blockBits : (b+1)<<blockBits])
			h.blocks[b] = 0
		}
	}
	clear(h.over)
	h.n, h.sum, h.min, h.max = 0, 0, 0, 0
}

// Merge adds every value of o to h; o is unchanged.
func (h *Histogram) Merge(o *Histogram) {
	for v, c := range o.All() {
		h.AddN(v, c)
	}
}

// Count is the number of values.
func (h *Histogram) Count() int64 { return int64(h.n) }

// Sum is the sum of the values.
func (h *Histogram) Sum() int64 { return h.sum }

// Min is the smallest value, 0 when empty.
func (h *Histogram) Min() int64 { return h.min }

// Max is the largest value, 0 when empty.
func (h *Histogram) Max() int64 { return h.max }

// Mean is the arithmetic mean, NaN when empty.
func (h *Histogram) Mean() float64 {
	if h.n == 0 {
		return math.NaN()
	}
	return float64(h.sum) / float64(h.n)
}

// All yields each distinct value in increasing order with its count.
func (h *Histogram) All() iter.Seq2[int64, uint64] {
	return func(yield func(int64, uint64) bool) {
		for b, bc := range h.blocks {
			if bc == 0 {
				continue
			}
			lo := b << blockBits
			for v, c := range h.counts[lo : lo+1<<blockBits] {
				if c != 0 && !yield(int64(lo+v), c) {
					return
				}
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
			if !yield(k, h.over[k]) {
				return
			}
		}
	}
}

// CountBelow is the number of values below v.
func (h *Histogram) CountBelow(v int64) int64 {
	if v <= h.min || h.n == 0 {
		return 0
	}
	if v > h.max {
		return int64(h.n)
	}
	var n uint64
	dense := min(v, int64(len(h.counts)))
	full := dense >> blockBits
	for _, bc := range h.blocks[:full] {
		n += bc
	}
	for _, c := range h.counts[full<<blockBits : dense] {
		n += c
	}
	for k, c := range h.over {
		if k < v {
			n += c
		}
	}
	return int64(n)
}

// ValueAt returns the k-th smallest value (1-based), k clamped to [1, n];
// 0 when empty.
func (h *Histogram) ValueAt(k uint64) int64 {
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
	for b, bc := range h.blocks {
		if seen+bc < k {
			seen += bc
			continue
		}
		lo := b << blockBits
		for v, c := range h.counts[lo : lo+1<<blockBits] {
			seen += c
			if seen >= k {
				return int64(lo + v)
			}
		}
	}
	for v, c := range h.All() {
		if v < denseLimit {
			continue
		}
		seen += c
		if seen >= k {
			return v
		}
	}
	return h.max
}

// Percentile is the p-th percentile (0 ≤ p ≤ 100), estimated as JMeter's
// dashboard does (Apache Commons Math's LEGACY estimation): position
// p/100·(n+1), interpolated between the two nearest values; below the
// first position the smallest value, beyond the last the largest. This is
// gojm's one percentile definition. NaN when empty.
func (h *Histogram) Percentile(p float64) float64 {
	if h.n == 0 {
		return math.NaN()
	}
	n := float64(h.n)
	pos := percentilePos(p, n)
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

// percentilePos is the 1-based position of percentile p among n values.
func percentilePos(p, n float64) float64 {
	switch q := p / 100; {
	case q <= 0:
		return 0
	case q >= 1:
		return n
	default:
		return q * (n + 1)
	}
}

// Percentiles returns the percentiles ps (each in [0, 100], increasing) in
// one pass over the counts, each as Percentile gives it; NaNs when empty.
func (h *Histogram) Percentiles(ps []float64) []float64 {
	out := make([]float64, len(ps))
	if h.n == 0 {
		for i := range out {
			out[i] = math.NaN()
		}
		return out
	}
	// The ranks asked for go back by one at most (the upper neighbour of one
	// percentile can be past the lower one of the next), so one cursor
	// walks the values once, remembering the value before its own. A value
	// holds the ranks (lo, hi].
	next, stop := iter.Pull2(h.All())
	defer stop()
	type ranks struct {
		v      int64
		lo, hi uint64
	}
	var prev, cur ranks
	valueAt := func(k uint64) float64 {
		for cur.hi < k {
			v, c, ok := next()
			if !ok {
				break
			}
			prev, cur = cur, ranks{v, cur.hi, cur.hi + c}
		}
		if k > cur.lo {
			return float64(cur.v)
		}
		return float64(prev.v)
	}
	n := float64(h.n)
	for i, p := range ps {
		pos := percentilePos(p, n)
		switch {
		case pos < 1:
			out[i] = float64(h.min)
		case pos >= n:
			out[i] = float64(h.max)
		default:
			f := math.Floor(pos)
			lo := valueAt(uint64(f))
			hi := valueAt(uint64(f) + 1)
			out[i] = lo + (pos-f)*(hi-lo)
		}
	}
	return out
}

// StdDev is the population standard deviation (JMeter's listeners divide
// by n), 0 when empty.
func (h *Histogram) StdDev() float64 {
	if h.n == 0 {
		return 0
	}
	mean := h.Mean()
	var ss float64
	for v, c := range h.All() {
		d := float64(v) - mean
		ss += d * d * float64(c)
	}
	return math.Sqrt(ss / float64(h.n))
}
