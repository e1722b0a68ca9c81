package timer

import (
	"testing"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/elementtest"
	"github.com/gojm/gojm/jmx"
)

// Distributions of the random timers, from a seeded source.
func TestRandomTimerDelays(t *testing.T) {
	tests := []struct {
		class            string
		delay, rng       string
		minMs, maxMs     int64
		meanLow, meanTop float64
	}{
		{"UniformRandomTimer", "100", "50", 100, 149, 122, 128},
		{"GaussianRandomTimer", "300", "100", 0, 1000, 295, 305},
		{"PoissonRandomTimer", "100", "20", 100, 200, 119, 121},
		{"PoissonRandomTimer", "0", "300", 200, 400, 298, 302},
	}
	for _, tt := range tests {
		t.Run(tt.class+" "+tt.rng, func(t *testing.T) {
			c := elementtest.New(nil, "", "")
			build := map[string]func(element.Builder, *jmx.Element) (element.Timer, error){
				"UniformRandomTimer": BuildUniform, "GaussianRandomTimer": BuildGaussian, "PoissonRandomTimer": BuildPoisson,
			}[tt.class]
			tm, err := build(c, elementtest.El(tt.class, "ConstantTimer.delay", tt.delay, "RandomTimer.range", tt.rng))
			if err != nil {
				t.Fatal(err)
			}
			vu := c.VU(1)
			var sum float64
			const n = 20000
			for range n {
				d := tm.Delay(vu).Milliseconds()
				if d < tt.minMs || d > tt.maxMs {
					t.Fatalf("delay %d ms out of [%d, %d]", d, tt.minMs, tt.maxMs)
				}
				sum += float64(d)
			}
			if mean := sum / n; mean < tt.meanLow || mean > tt.meanTop {
				t.Errorf("mean %.1f ms, want within [%g, %g]", mean, tt.meanLow, tt.meanTop)
			}
		})
	}
}
