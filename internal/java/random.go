package java

// Random is java.util.Random's generator: the same seed gives the same
// numbers as in JMeter (a seeded Random Variable, a Precise Throughput
// Timer's schedule, an Open Model group's random arrivals). The zero value
// is the generator of seed 0 scrambled as setSeed does not: use NewRandom.
type Random struct{ seed int64 }

const (
	randMultiplier = 0x5DEECE66D
	randMask       = 1<<48 - 1
)

// NewRandom returns the generator new Random(seed) makes.
func NewRandom(seed int64) Random {
	return Random{(seed ^ randMultiplier) & randMask}
}

// Next returns the next bits random bits, as Random.next(bits).
func (r *Random) Next(bits uint) int32 {
	r.seed = (r.seed*randMultiplier + 0xB) & randMask
	return int32(r.seed >> (48 - bits))
}

// NextInt returns a number in [0, bound) as Random.nextInt(bound).
func (r *Random) NextInt(bound int32) int32 {
	v := r.Next(31)
	m := bound - 1
	if bound&m == 0 {
		return int32((int64(bound) * int64(v)) >> 31)
	}
	for u := v; ; u = r.Next(31) {
		v = u % bound
		if u-v+m >= 0 { // int32 arithmetic wraps as Java's does
			return v
		}
	}
}

// NextDouble returns a number in [0, 1) as Random.nextDouble().
func (r *Random) NextDouble() float64 {
	return float64(int64(r.Next(26))<<27+int64(r.Next(27))) * (1.0 / (1 << 53))
}
