package main

import (
	"fmt"
	"io"
	"time"

	"github.com/gojm/gojm/engine"
)

// writeArrivals adds the arrival-rate groups' accounting to the end report:
// arrivals due, begun and dropped (never silently skipped), and how long
// begun ones waited for a free thread — the wait their samples' elapsed
// times include, so coordinated omission does not flatter them.
func writeArrivals(w io.Writer, r *engine.Run) {
	as := r.Arrivals()
	if len(as) == 0 {
		return
	}
	fmt.Fprintln(w, "\nArrivals (open model: samples are timed from when their arrival was due)")
	for _, a := range as {
		mean := time.Duration(0)
		if a.Delayed > 0 {
			mean = a.TotalDelay / time.Duration(a.Delayed)
		}
		fmt.Fprintf(w, "  %s: %d due, %d begun, dropped iterations: %d; %d waited for a thread (mean %v, longest %v)\n",
			a.Group, a.Due, a.Begun, a.Dropped, a.Delayed, mean.Round(time.Millisecond), a.MaxDelay.Round(time.Millisecond))
	}
}
