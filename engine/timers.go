package engine

import (
	"time"

	"github.com/gojm/gojm/jmx"
)

// constantTimer waits a fixed number of milliseconds before each sample in scope.
type constantTimer struct{ delayMs *Template }

func buildConstantTimer(c *compiler, e *jmx.Element) (timer, error) {
	return &constantTimer{delayMs: c.prop(e, "ConstantTimer.delay")}, nil
}

func (t *constantTimer) delay(vu *VU) time.Duration {
	return millisOrWarn(vu, "Constant Timer delay", t.delayMs)
}

// millisOrWarn evaluates a delay field in milliseconds, warning about text
// that is not a number (JMeter treats it as 0).
func millisOrWarn(vu *VU, what string, t *Template) time.Duration {
	s := t.Eval(vu)
	if s == "" {
		return 0
	}
	n, ok := loopCount(s)
	if !ok {
		vu.warnf("%s %q is not a number: no delay", what, s)
		return 0
	}
	return time.Duration(n) * time.Millisecond
}
