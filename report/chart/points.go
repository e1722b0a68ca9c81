package chart

// Bounded point retention for Graph Results: samples are numbered from 1
// and fall into pointBuckets consecutive buckets of width samples each. A
// bucket keeps its fastest and slowest sample, a uniform random sample
// (reservoir) of all its samples — so failures appear in proportion — and
// one failed sample as a witness, drawn when the others hold no failure, so
// a bucket with any failure shows at least one.
// When sample numbers outgrow the buckets, neighbouring buckets merge
// pairwise and the width doubles, so the number of retained points never
// exceeds MaxPoints however long the run.

const (
	pointBuckets  = 512 // buckets of retained points
	reservoirSize = 8   // random samples kept per bucket, besides its fastest, slowest and a failure

	// MaxPoints is the most sample points GraphResults ever retains; up to
	// 4,096 samples (512 buckets of 8) every sample is kept.
	MaxPoints = pointBuckets * (reservoirSize + 3)
)

// point is one retained sample: its number, elapsed time and outcome.
type point struct {
	seq  int64
	ms   float32
	fail bool
}

// pointBucket holds the retained points of width consecutive samples.
type pointBucket struct {
	n, nf   int64 // samples, and failed samples, that fell in the bucket
	lo, hi  point // fastest and slowest sample (valid when n > 0)
	res     [reservoirSize]point
	witness point // a failed sample (valid when nf > 0)
}

// kept is how many reservoir points are valid.
func (b *pointBucket) kept() int { return int(min(b.n, reservoirSize)) }

// retained is how many points the bucket holds.
func (b *pointBucket) retained() int {
	n := b.kept()
	if b.n > 0 {
		n += 2
	}
	if b.nf > 0 {
		n++
	}
	return n
}

// rng is a xorshift64* generator: cheap, allocation-free and deterministic,
// so the same samples always draw the same chart.
type rng uint64

func (r *rng) next() uint64 {
	x := uint64(*r)
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	*r = rng(x)
	return x * 2685821657736338717
}

// intn returns a number in [0, n).
func (r *rng) intn(n int64) int64 { return int64(r.next() % uint64(n)) }

// add records one sample (reservoir sampling, algorithm R).
func (b *pointBucket) add(p point, r *rng) {
	if b.n == 0 || p.ms < b.lo.ms {
		b.lo = p
	}
	if b.n == 0 || p.ms > b.hi.ms {
		b.hi = p
	}
	b.n++
	if b.n <= reservoirSize {
		b.res[b.n-1] = p
	} else if j := r.intn(b.n); j < reservoirSize {
		b.res[j] = p
	}
	if p.fail {
		b.nf++
		if r.intn(b.nf) == 0 {
			b.witness = p
		}
	}
}

// merge folds b into a (b unchanged): extremes compare, reservoirs merge
// drawing from each side in proportion to the samples it stands for.
func (a *pointBucket) merge(b *pointBucket, r *rng) {
	var res [reservoirSize]point
	ka, kb := a.kept(), b.kept()
	if ka+kb <= reservoirSize {
		copy(res[:], a.res[:ka])
		copy(res[ka:], b.res[:kb])
	} else {
		pa, pb := a.res, b.res
		wa, wb := float64(a.n), float64(b.n)
		perA, perB := wa/float64(max(ka, 1)), wb/float64(max(kb, 1))
		for i := range res {
			if kb == 0 || (ka > 0 && float64(r.next()>>11)/(1<<53)*(wa+wb) < wa) {
				j := r.intn(int64(ka))
				res[i] = pa[j]
				ka--
				pa[j] = pa[ka]
				wa -= perA
			} else {
				j := r.intn(int64(kb))
				res[i] = pb[j]
				kb--
				pb[j] = pb[kb]
				wb -= perB
			}
		}
	}
	if b.n > 0 {
		if a.n == 0 || b.lo.ms < a.lo.ms {
			a.lo = b.lo
		}
		if a.n == 0 || b.hi.ms > a.hi.ms {
			a.hi = b.hi
		}
	}
	if b.nf > 0 && (a.nf == 0 || r.intn(a.nf+b.nf) < b.nf) {
		a.witness = b.witness
	}
	a.n += b.n
	a.nf += b.nf
	a.res = res
}

// pointStore is the fixed-size set of buckets.
type pointStore struct {
	shift   uint // a bucket holds 1<<shift samples
	buckets [pointBuckets]pointBucket
	rng     rng
}

func (s *pointStore) init() {
	s.shift = 0
	s.rng = 0x9E3779B97F4A7C15
}

// add records sample number seq (1, 2, 3, … in order).
func (s *pointStore) add(seq int64, ms float64, ok bool) {
	i := (seq - 1) >> s.shift
	for i >= pointBuckets {
		s.compact()
		i = (seq - 1) >> s.shift
	}
	s.buckets[i].add(point{seq: seq, ms: float32(ms), fail: !ok}, &s.rng)
}

// compact merges buckets pairwise, doubling the samples per bucket.
func (s *pointStore) compact() {
	for i := range pointBuckets / 2 {
		a := s.buckets[2*i]
		a.merge(&s.buckets[2*i+1], &s.rng)
		s.buckets[i] = a
	}
	clear(s.buckets[pointBuckets/2:])
	s.shift++
}

// retained counts the points held.
func (s *pointStore) retained() int {
	n := 0
	for i := range s.buckets {
		n += s.buckets[i].retained()
	}
	return n
}

// each calls fn once for every distinct retained point.
func (s *pointStore) each(fn func(p point)) {
	for i := range s.buckets {
		b := &s.buckets[i]
		if b.n == 0 {
			continue
		}
		var seen [reservoirSize + 3]int64
		k := 0
		emit := func(p point) {
			for _, q := range seen[:k] {
				if q == p.seq {
					return
				}
			}
			seen[k] = p.seq
			k++
			fn(p)
		}
		emit(b.lo)
		emit(b.hi)
		failShown := b.lo.fail || b.hi.fail
		for _, p := range b.res[:b.kept()] {
			emit(p)
			failShown = failShown || p.fail
		}
		if b.nf > 0 && !failShown {
			emit(b.witness)
		}
	}
}
