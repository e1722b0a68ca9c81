package sampler

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/elementtest"
)

// A Flow Control Action makes no sample and asks the thread for what its
// action and target say.
func TestFlowControlAction(t *testing.T) {
	for _, tt := range []struct {
		action, target int
		want           element.Next
	}{
		{0, 0, element.StopThread}, {0, 2, element.StopTest}, {2, 2, element.StopTestNow},
		{3, 0, element.NextThreadLoop}, {4, 0, element.NextIterationLoop}, {5, 0, element.BreakLoop},
		{1, 0, element.Continue}, // a pause
	} {
		b := elementtest.New(nil, "", "")
		s, err := BuildFlowControl(b, elementtest.El("TestAction", "ActionProcessor.action", strconv.Itoa(tt.action),
			"ActionProcessor.target", strconv.Itoa(tt.target), "ActionProcessor.duration", "0"), element.InScope{})
		if err != nil {
			t.Fatal(err)
		}
		var r element.Result
		s.Sample(b.VU(1), &r)
		if !r.None || r.Next != tt.want {
			t.Errorf("action %d target %d: none %v, next %d; want %d", tt.action, tt.target, r.None, r.Next, tt.want)
		}
	}
	// An action JMeter does not know does nothing, with a warning.
	b := elementtest.New(nil, "", "")
	s, err := BuildFlowControl(b, elementtest.El("TestAction", "ActionProcessor.action", "9"), element.InScope{})
	if err != nil || len(b.Warnings) != 1 || !strings.Contains(b.Warnings[0], "action 9 is not one JMeter knows") {
		t.Fatalf("unknown action: %v, warnings %q", err, b.Warnings)
	}
	var r element.Result
	s.Sample(b.VU(1), &r)
	if !r.None || r.Next != element.Continue {
		t.Errorf("unknown action: none %v, next %d", r.None, r.Next)
	}
}

// The Debug Sampler's response is the user's variables, sorted.
func TestDebugSampler(t *testing.T) {
	b := elementtest.New(nil, "", "")
	s, err := BuildDebug(b, elementtest.El("DebugSampler"), element.InScope{})
	if err != nil {
		t.Fatal(err)
	}
	vu := b.VU(1)
	vu.Vars.Put("b", "2")
	vu.Vars.Put("a", "1")
	var r element.Result
	s.Sample(vu, &r)
	if got := string(r.Body); !strings.HasPrefix(got, "JMeterVariables:\na=1\nb=2\n") || !r.Success || r.Bytes != int64(len(got)) {
		t.Errorf("body %q, success %v, bytes %d", got, r.Success, r.Bytes)
	}
}
