package chart

import (
	"math"
	"time"
)

// Rates are a run's throughput and mean response time per time bucket, for
// drawing beside other series on the same time axis (the watched server's
// CPU and memory).
type Rates struct {
	Start        time.Time     // start of bucket 0
	Step         time.Duration // width of each bucket
	Throughput   []float64     // samples of the Total started per second
	MeanResponse []float64     // mean elapsed ms; NaN where a bucket has no sample
}

// Rates returns the throughput and mean response time of the Total's
// samples per bucket so far.
func (t *Timeline) Rates() Rates {
	r := Rates{Start: time.UnixMilli(t.origin), Step: t.width}
	sec := t.width.Seconds()
	for i := 0; i < t.used; i++ {
		n, sum := t.buckets[i].hits, t.buckets[i].elapsed
		r.Throughput = append(r.Throughput, float64(t.buckets[i].hits)/sec)
		mean := math.NaN()
		if n > 0 {
			mean = float64(sum) / float64(n)
		}
		r.MeanResponse = append(r.MeanResponse, mean)
	}
	return r
}
