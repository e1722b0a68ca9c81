package element

import (
	"context"
	"errors"

	"github.com/gojm/gojm/report"
)

// ClientAbort is the cause of an abort that gojm decides itself, not the
// plan: a second Ctrl-C, the stop grace running out, the end of an Open
// Model schedule. A plan's own Stop Test Now is not one: its samples fail
// as JMeter's do.
type ClientAbort struct {
	Reason string // "a second SIGINT", "the Open Model schedule ended"…
}

func (a *ClientAbort) Error() string { return "aborted by gojm: " + a.Reason }

// AbortedByClient returns the reason when ctx (a user's Hard context)
// ended in a ClientAbort.
func AbortedByClient(ctx context.Context) (reason string, ok bool) {
	var a *ClientAbort
	if ctx.Err() != nil && errors.As(context.Cause(ctx), &a) {
		return a.Reason, true
	}
	return "", false
}

// MarkClientAbort gives a failed sample that vu's abort cut short the
// message of samples aborted by the client (report.AbortedMessage and the
// reason), so that it is counted apart from the server's and the network's
// failures. The sampler calls it once it knows the failure was the abort.
func MarkClientAbort(vu *VU, s *report.Sample) {
	if reason, ok := AbortedByClient(vu.Hard); ok && !s.Success {
		s.Message = report.AbortedMessage + ": " + reason
	}
}
