package script

import (
	"errors"
	"testing"
)

// lateHost calls fire while the script logs: the timeout callback of an
// earlier run arriving in the middle of this one.
type lateHost struct {
	*testHost
	fire func()
}

func (h *lateHost) Log(level, msg string) {
	h.fire()
	h.testHost.Log(level, msg)
}

// A runtime's timer armed for one run can call back late, once that run
// has ended and the pooled runtime runs the next script (Stop cannot take
// back a callback that has already started). The next run, whose own
// deadline is still ahead, goes on; a run past its deadline is stopped.
func TestLateTimeoutSparesNextRun(t *testing.T) {
	r, err := newRuntime()
	if err != nil {
		t.Fatal(err)
	}
	p, err := Compile(`log.info("working"); 1 + 1`, Groovy)
	if err != nil {
		t.Fatal(err)
	}
	for run := 1; run <= 3; run++ {
		h := &lateHost{testHost: newTestHost(), fire: r.onTimeout}
		v, err := r.run(p, &Env{Host: h})
		if err != nil || v.Text != "2" {
			t.Fatalf("run %d with a late callback: %v, %v", run, v, err)
		}
	}
	// A run whose deadline has passed is stopped by the callback.
	h := &lateHost{testHost: newTestHost(), fire: r.onTimeout}
	_, err = r.run(p, &Env{Host: h, Timeout: 1})
	var se *ScriptError
	if !errors.As(err, &se) || !se.Timeout {
		t.Fatalf("run past its deadline: %v", err)
	}
	// Between runs a late callback finds nothing to stop.
	r.onTimeout()
	v, err := r.run(p, &Env{Host: newTestHost()})
	if err != nil || v.Text != "2" {
		t.Fatalf("run after a callback between runs: %v, %v", v, err)
	}
}
