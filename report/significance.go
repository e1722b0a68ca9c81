package report

import "math"

// The significance tests of a comparison.

// MannWhitney is the outcome of a Mann-Whitney U test of two runs'
// response times (first run A with N1 samples, this run B with N2).
type MannWhitney struct {
	N1, N2 int64
	// U counts the pairs (a, b) in which b is slower than a, ties counting
	// one half: N1·N2/2 when neither run tends to be slower.
	U float64
	// Z is U standardised under the null hypothesis (with tie and
	// continuity correction); positive when B tends to be slower.
	Z float64
	// P is the two-sided p-value from the normal approximation.
	P float64
	// PSlower is U/(N1·N2): the probability that a sample of B is slower
	// than one of A (ties one half), 0.5 when neither is.
	PSlower float64
}

// Significant reports whether the difference is beyond noise at level alpha.
func (m *MannWhitney) Significant(alpha float64) bool { return m.P < alpha }

// MannWhitneyU tests whether the elapsed times of b tend to be larger or
// smaller than those of a. It is exact in its counting: the rank sums
// come from the per-millisecond counts of both labels, ties sharing their
// mean rank, so no sample is left out however many there are. The p-value
// uses the normal approximation, with the variance corrected for ties:
//
//	σ² = n₁n₂/12 · ((N+1) − Σ(t³−t)/(N(N−1)))
//
// where t is the number of samples at each distinct millisecond, and a
// continuity correction of ½ on U. Both labels must have samples.
func MannWhitneyU(a, b *LabelStats) MannWhitney {
	va, ca := histValues(&a.elapsed)
	vb, cb := histValues(&b.elapsed)
	n1, n2 := float64(a.elapsed.n), float64(b.elapsed.n)
	// Walk the merged distinct values: below counts the samples of a
	// strictly below the current value.
	var u, ties, below float64
	i, j := 0, 0
	for i < len(va) || j < len(vb) {
		var v int64
		switch {
		case j >= len(vb) || i < len(va) && va[i] < vb[j]:
			v = va[i]
		default:
			v = vb[j]
		}
		var ta, tb float64
		if i < len(va) && va[i] == v {
			ta = float64(ca[i])
			i++
		}
		if j < len(vb) && vb[j] == v {
			tb = float64(cb[j])
			j++
		}
		u += tb * (below + ta/2)
		t := ta + tb
		ties += t*t*t - t
		below += ta
	}
	m := MannWhitney{N1: int64(n1), N2: int64(n2), U: u, P: 1, PSlower: u / (n1 * n2)}
	nn := n1 + n2
	variance := n1 * n2 / 12 * ((nn + 1) - ties/(nn*(nn-1)))
	if variance <= 0 || nn < 2 {
		return m
	}
	d := u - n1*n2/2
	switch {
	case d > 0.5:
		d -= 0.5
	case d < -0.5:
		d += 0.5
	default:
		d = 0
	}
	m.Z = d / math.Sqrt(variance)
	m.P = math.Erfc(math.Abs(m.Z) / math.Sqrt2)
	return m
}

// histValues lists the distinct values of h in increasing order with
// their counts.
func histValues(h *Histogram) ([]int64, []uint64) {
	var vs []int64
	var cs []uint64
	for v, c := range h.All() {
		vs = append(vs, v)
		cs = append(cs, c)
	}
	return vs, cs
}

// TwoProportions is the outcome of a two-sided z-test of two error rates
// (A's errors of N1 samples against B's of N2), with the pooled rate's
// variance: normal approximation, fine for the counts of a load test, rough
// below a handful of errors.
type TwoProportions struct {
	Z float64 // positive when B's rate is higher
	P float64 // two-sided
}

// TwoProportionTest compares the error rates e1/n1 and e2/n2; both counts
// must be positive. Equal rates of 0% or 100% give p = 1.
func TwoProportionTest(e1, n1, e2, n2 int64) TwoProportions {
	p1, p2 := float64(e1)/float64(n1), float64(e2)/float64(n2)
	pool := float64(e1+e2) / float64(n1+n2)
	se := math.Sqrt(pool * (1 - pool) * (1/float64(n1) + 1/float64(n2)))
	if se == 0 {
		return TwoProportions{P: 1}
	}
	z := (p2 - p1) / se
	return TwoProportions{Z: z, P: math.Erfc(math.Abs(z) / math.Sqrt2)}
}
