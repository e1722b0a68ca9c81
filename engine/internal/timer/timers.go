package timer

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// Timers. Every timer in a sampler's scope gives a delay before the sample
// and the thread sleeps their sum (JMeterThread.delay); with a scheduler, a
// sum that would end past the end time stops the thread instead.

// constantTimer waits a fixed number of milliseconds before each sample in scope.
type constantTimer struct{ delayMs *element.Template }

func BuildConstant(c element.Builder, e *jmx.Element) (element.Timer, error) {
	return &constantTimer{delayMs: c.Prop(e, "ConstantTimer.delay")}, nil
}

func (t *constantTimer) Delay(vu *element.VU) time.Duration {
	return millisOrWarn(vu, "Constant Timer delay", t.delayMs)
}

// millisOrWarn evaluates a delay field in milliseconds, warning about text
// that is not a number (JMeter treats it as 0).
func millisOrWarn(vu *element.VU, what string, t *element.Template) time.Duration {
	s := t.Eval(vu)
	if s == "" {
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		vu.Warnf("%s %q is not a number: no delay", what, s)
		return 0
	}
	return time.Duration(n) * time.Millisecond
}

// randomKind is the distribution of a random timer.
type randomKind uint8

const (
	uniformRandom randomKind = iota
	gaussianRandom
	poissonRandom
)

// randomTimer is JMeter's Uniform, Gaussian and Poisson Random Timers: the
// constant delay plus a random part drawn from the range ("deviation" for
// Gaussian, lambda for Poisson), in whole milliseconds, never negative.
// The timer.factor property scales them, as in JMeter.
type randomTimer struct {
	kind    randomKind
	delayMs *element.Template
	rangeMs *element.Template
	factor  float64
}

func buildRandomTimer(c element.Builder, e *jmx.Element, k randomKind) (element.Timer, error) {
	f := 1.0
	if s, ok := c.Plan().Props.Get("timer.factor"); ok {
		if v, err := strconv.ParseFloat(strings.TrimSpace(s), 32); err == nil {
			f = float64(float32(v))
		}
	}
	return &randomTimer{kind: k, delayMs: c.Prop(e, "ConstantTimer.delay"), rangeMs: c.Prop(e, "RandomTimer.range"), factor: f}, nil
}

func BuildUniform(c element.Builder, e *jmx.Element) (element.Timer, error) {
	return buildRandomTimer(c, e, uniformRandom)
}

func BuildGaussian(c element.Builder, e *jmx.Element) (element.Timer, error) {
	return buildRandomTimer(c, e, gaussianRandom)
}

func BuildPoisson(c element.Builder, e *jmx.Element) (element.Timer, error) {
	return buildRandomTimer(c, e, poissonRandom)
}

func (t *randomTimer) Delay(vu *element.VU) time.Duration {
	base := float64(millisOrWarn(vu, "Random Timer delay", t.delayMs) / time.Millisecond)
	rng, err := strconv.ParseFloat(strings.TrimSpace(t.rangeMs.Eval(vu)), 64)
	if err != nil {
		rng = 0
	}
	var ms int64
	switch t.kind {
	case uniformRandom:
		ms = int64(math.Abs(vu.Rand.Float64()*rng + base))
	case gaussianRandom:
		ms = int64(math.Abs(vu.Rand.NormFloat64()*rng + base))
	case poissonRandom:
		ms = int64(math.Abs(float64(poisson(vu, int(math.Round(rng)))) + base))
	}
	if t.factor != 1 {
		ms = int64(math.Round(float64(ms) * t.factor))
	}
	return time.Duration(ms) * time.Millisecond
}

// poisson draws from a Poisson distribution of mean lambda as JMeter does:
// Knuth's product of uniforms up to 30, Atkinson's rejection method above.
func poisson(vu *element.VU, lambda int) int {
	if lambda <= 30 {
		limit := math.Exp(-float64(lambda))
		k, p := 0, 1.0
		for {
			k++
			p *= vu.Rand.Float64()
			if p <= limit {
				return k - 1
			}
		}
	}
	l := float64(lambda)
	c := 0.767 - 3.36/l
	beta := math.Pi / math.Sqrt(3*l)
	alpha := beta * l
	k := math.Log(c) - l - math.Log(beta)
	for {
		u := vu.Rand.Float64()
		if u == 0 {
			continue
		}
		x := (alpha - math.Log((1-u)/u)) / beta
		n := int(math.Floor(x + 0.5))
		if n < 0 {
			continue
		}
		v := vu.Rand.Float64()
		y := alpha - beta*x
		lhs := y + math.Log(v/math.Pow(1+math.Exp(y), 2))
		lg, _ := math.Lgamma(float64(n) + 1)
		if lhs <= k+float64(n)*math.Log(l)-lg {
			return n
		}
	}
}
