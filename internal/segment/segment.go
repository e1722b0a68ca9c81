package segment

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// Sequence is how a run is split: the boundaries of its segments, from 0
// to 1 (k6's execution segment sequence). Segment i covers the share
// from Bounds[i] to Bounds[i+1] of every striped count.
type Sequence struct {
	bounds []*big.Rat
	// period is the least common denominator of the shares; pattern[v %
	// period] is the segment that owns index v.
	period  int64
	pattern []uint16
}

// maxPeriod bounds the pattern a sequence precomputes: shares whose
// denominators multiply past it are refused (k6's are thirds and quarters;
// nobody splits a run into 1/99991 parts).
const maxPeriod = 1 << 16

// Equal is the sequence of n equal segments: index v belongs to segment
// v mod n.
func Equal(n int) (*Sequence, error) {
	if n < 1 || n > maxPeriod {
		return nil, fmt.Errorf("%d segments: want 1 to %d", n, maxPeriod)
	}
	b := make([]*big.Rat, n+1)
	for i := range b {
		b[i] = big.NewRat(int64(i), int64(n))
	}
	return newSequence(b)
}

// ParseSequence reads boundaries written as k6 writes them:
// "0,1/4,1/2,1" (fractions or decimals, increasing, from 0 to 1).
func ParseSequence(s string) (*Sequence, error) {
	var b []*big.Rat
	for _, f := range strings.Split(s, ",") {
		r, ok := new(big.Rat).SetString(strings.TrimSpace(f))
		if !ok {
			return nil, fmt.Errorf("segment sequence %q: %q is not a fraction", s, f)
		}
		b = append(b, r)
	}
	seq, err := newSequence(b)
	if err != nil {
		return nil, fmt.Errorf("segment sequence %q: %w", s, err)
	}
	return seq, nil
}

func newSequence(b []*big.Rat) (*Sequence, error) {
	if len(b) < 2 || b[0].Sign() != 0 || b[len(b)-1].Cmp(big.NewRat(1, 1)) != 0 {
		return nil, errors.New("the boundaries must run from 0 to 1")
	}
	period := big.NewInt(1)
	for i := 1; i < len(b); i++ {
		if b[i].Cmp(b[i-1]) <= 0 {
			return nil, errors.New("the boundaries must increase")
		}
		d := b[i].Denom()
		g := new(big.Int).GCD(nil, nil, period, d)
		period.Mul(period, new(big.Int).Quo(d, g))
		if period.Cmp(big.NewInt(maxPeriod)) > 0 {
			return nil, fmt.Errorf("the shares' common denominator passes %d", maxPeriod)
		}
	}
	s := &Sequence{bounds: b, period: period.Int64()}
	s.pattern = s.stripe()
	return s, nil
}

// stripe lays out one period: each index goes to the segment furthest
// behind its share so far (the earliest such segment on a tie), so that
// every prefix of the indices is split as evenly as the shares allow and
// n equal segments take v mod n.
func (s *Sequence) stripe() []uint16 {
	n := len(s.bounds) - 1
	// quota[i] is segment i's share in units of 1/period.
	quota := make([]int64, n)
	for i := range quota {
		w := new(big.Rat).Sub(s.bounds[i+1], s.bounds[i])
		w.Mul(w, new(big.Rat).SetInt64(s.period))
		quota[i] = w.Num().Int64() // an integer: period is a multiple of every denominator
	}
	taken := make([]int64, n)
	out := make([]uint16, s.period)
	for v := range out {
		best, bestDeficit := 0, int64(-1<<62)
		for i := range quota {
			// deficit compares quota·(v+1)/period with taken, in units of 1/period.
			if d := quota[i]*int64(v+1) - taken[i]*s.period; d > bestDeficit {
				best, bestDeficit = i, d
			}
		}
		out[v] = uint16(best)
		taken[best]++
	}
	return out
}

// Len is the number of segments.
func (s *Sequence) Len() int { return len(s.bounds) - 1 }

// Owner is the segment that owns index v (v ≥ 0).
func (s *Sequence) Owner(v int64) int { return int(s.pattern[v%s.period]) }

// Count is how many of the indices 0 … v-1 segment i owns.
func (s *Sequence) Count(i int, v int64) int64 {
	per := int64(0)
	for _, o := range s.pattern {
		if int(o) == i {
			per++
		}
	}
	n := v / s.period * per
	for _, o := range s.pattern[:v%s.period] {
		if int(o) == i {
			n++
		}
	}
	return n
}

// String writes the boundaries as ParseSequence reads them.
func (s *Sequence) String() string {
	parts := make([]string, len(s.bounds))
	for i, b := range s.bounds {
		parts[i] = b.RatString()
	}
	return strings.Join(parts, ",")
}

// Segment is one segment of a sequence: the part of the run one process
// runs.
type Segment struct {
	Seq   *Sequence
	Index int
}

// Whole is the segment of an unsplit run.
func Whole() Segment {
	s, _ := Equal(1)
	return Segment{Seq: s}
}

// Parse reads "i/n": segment i (from 0) of n equal segments.
func Parse(s string) (Segment, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil {
		return Segment{}, fmt.Errorf("segment %q: want i/n, as 0/4 for the first of four", s)
	}
	seq, err := Equal(n)
	if err != nil {
		return Segment{}, fmt.Errorf("segment %q: %w", s, err)
	}
	if i < 0 || i >= n {
		return Segment{}, fmt.Errorf("segment %q: i runs from 0 to %d", s, n-1)
	}
	return Segment{Seq: seq, Index: i}, nil
}

// Split reports whether the run is split at all.
func (g Segment) Split() bool { return g.Seq != nil && g.Seq.Len() > 1 }

// Owns reports whether the segment owns index v of a striped count
// (global thread v, arrival v, CSV row v).
func (g Segment) Owns(v int64) bool { return !g.Split() || g.Seq.Owner(v) == g.Index }

// Of is how many of the first v indices the segment owns: its part of a
// count of v (threads, a concurrency target, a limit).
func (g Segment) Of(v int64) int64 {
	if !g.Split() {
		return v
	}
	return g.Seq.Count(g.Index, v)
}

// Nth is the index of the segment's j-th index (from 0): the global
// number of its j-th thread, say.
func (g Segment) Nth(j int64) int64 {
	if !g.Split() {
		return j
	}
	s := g.Seq
	per := s.Count(g.Index, s.period)
	base := j / per * s.period
	left := j % per
	for v, o := range s.pattern {
		if int(o) == g.Index {
			if left == 0 {
				return base + int64(v)
			}
			left--
		}
	}
	panic("unreachable: the pattern holds per indices of the segment")
}

// String writes the segment as Parse reads it ("1/4"); a segment of
// unequal shares adds its sequence ("1/3 of 0,1/2,3/4,1").
func (g Segment) String() string {
	if g.Seq == nil {
		return "0/1"
	}
	s := fmt.Sprintf("%d/%d", g.Index, g.Seq.Len())
	if eq, _ := Equal(g.Seq.Len()); eq.String() != g.Seq.String() {
		s += " of " + g.Seq.String()
	}
	return s
}
