package engine

import "testing"

// A Transaction Controller's own sample carries the thread's name from its
// start, whatever its children are, as JMeter names every sample it
// notifies; a transaction in which nothing sampled makes no sample.
func TestTransactionSampleThreadName(t *testing.T) {
	plan := xPlan("", xGroup("Users", groupOpts{},
		xTx("Empty", false, false, xIf("Never", "false", true, plugDummy("Skipped", 0))),
		xTx("Full", false, false, plugDummy("Child", 0))))
	sink := runPlanXML(t, plan, nil)
	got := map[string]string{}
	for _, s := range sink.samples {
		got[s.Label] = s.ThreadName
	}
	if _, ok := got["Empty"]; ok {
		t.Errorf("an empty transaction made a sample: %v", got)
	}
	for _, label := range []string{"Full", "Child"} {
		if got[label] != "Users 1-1" {
			t.Errorf("%s: thread name %q, want %q (samples %v)", label, got[label], "Users 1-1", got)
		}
	}
}
