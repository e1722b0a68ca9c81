package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gojm/gojm/jmx"
)

// Behaviours of JMeter 5 that JMeter 2.13 lacks (and so no golden of
// testdata/flow shows), from JMeter's documentation and source: the loop
// index variables, break and continue, the Result Status Action Handler's
// loop actions, blank ForEach indices, the controllers that draw at random.
func TestControllerSequences(t *testing.T) {
	java := func(name string) string { return xJava(name, 0, "") }
	fail := func(name string, kids ...string) string { return xJava(name, 0, "FAIL", kids...) }
	tests := []struct {
		name  string
		udv   []string
		group groupOpts
		kids  []string
		want  string
	}{
		{
			name: "Loop index __jm__<name>__idx",
			kids: []string{xLoop("LC", "3", true, java("S-${__jm__LC__idx}"))},
			want: "S-0 S-1 S-2",
		},
		{
			name:  "thread group index",
			group: groupOpts{loops: "2"},
			kids:  []string{java("T-${__jm__G__idx}")},
			want:  "T-0 T-1",
		},
		{
			name: "While index, condition on it",
			kids: []string{xWhile("W", "${__javaScript(${__jm__W__idx} < 3)}", java("W-${__jm__W__idx}"))},
			want: "W-0 W-1 W-2",
		},
		{
			name: "ForEach index and output variable",
			udv:  []string{"in_1", "a", "in_2", "b", "in_3", "c"},
			kids: []string{xForeach("FE", "in", "v", java("F-${v}-${__jm__FE__idx}"))},
			want: "F-a-0 F-b-1 F-c-2",
		},
		{
			name: "ForEach with blank indices runs them all (JMeter 5; 2.13 ran none)",
			udv:  []string{"in_1", "a", "in_2", "b"},
			kids: []string{xmlEl("ForeachController", "FE", sp("ForeachController.inputVal", "in")+sp("ForeachController.returnVal", "v")+
				sp("ForeachController.startIndex", "")+sp("ForeachController.endIndex", ""), java("F-${v}"))},
			want: "F-a F-b",
		},
		{
			name: "Flow Control Action: break the loop",
			kids: []string{xLoop("L", "5", true, java("A"), xIf("second", "${__jm__L__idx} == 1", false, xAction("break", taBreakCurrentLoop, 0, "")), java("B")), java("C")},
			want: "A B A C",
		},
		{
			name: "Flow Control Action: continue the loop",
			kids: []string{xLoop("L", "3", true, java("A"), xIf("second", "${__jm__L__idx} == 1", false, xAction("continue", taNextIterationCurrent, 0, "")), java("B")), java("C")},
			want: "A B A A B C",
		},
		{
			name: "Flow Control Action: continue in While and ForEach",
			udv:  []string{"in_1", "a", "in_2", "b", "in_3", "c"},
			kids: []string{
				xWhile("W", "${__javaScript(${__jm__W__idx} < 3)}", java("W${__jm__W__idx}"), xIf("i1", "${__jm__W__idx} == 1", false, xAction("c", taNextIterationCurrent, 0, "")), java("w")),
				xForeach("FE", "in", "v", java("F${v}"), xIf("b", `"${v}" == "b"`, false, xAction("brk", taBreakCurrentLoop, 0, "")), java("f")),
			},
			want: "W0 w W1 W2 w Fa f Fb",
		},
		{
			name:  "break with no loop but the thread group's ends the thread",
			group: groupOpts{loops: "3"},
			kids:  []string{java("A"), xIf("second", "${__jm__G__idx} == 1", false, xAction("break", taBreakCurrentLoop, 0, "")), java("B")},
			want:  "A B A",
		},
		{
			name:  "continue with no loop but the thread group's starts its next iteration",
			group: groupOpts{loops: "3"},
			kids:  []string{java("A"), xIf("second", "${__jm__G__idx} == 1", false, xAction("continue", taNextIterationCurrent, 0, "")), java("B")},
			want:  "A B A A B",
		},
		{
			name:  "start next thread loop from inside a loop",
			group: groupOpts{loops: "2"},
			kids:  []string{xLoop("L", "3", true, java("A${__jm__L__idx}"), xIf("i1", "${__jm__L__idx} == 1", false, xAction("next", taRestartNextLoop, 0, ""))), java("C")},
			want:  "A0 A1 A0 A1",
		},
		{
			name: "Result Status Action Handler: next iteration of the loop",
			kids: []string{xLoop("L", "3", true, java("A"), fail("F", xResultAction(raNextIterationCurrent)), java("B")), java("C")},
			want: "A F A F A F C",
		},
		{
			name: "Result Status Action Handler: break the loop",
			kids: []string{xLoop("L", "3", true, java("A"), fail("F", xResultAction(raBreakCurrentLoop)), java("B")), java("C")},
			want: "A F C",
		},
		{
			name:  "Result Status Action Handler: stop the thread",
			group: groupOpts{loops: "3"},
			kids:  []string{java("A"), fail("F", xResultAction(raStopThread)), java("B")},
			want:  "A F",
		},
		{
			name: "Switch on a negative number matches no name",
			kids: []string{xmlEl("SwitchController", "S", sp("SwitchController.value", "-1"), java("zero"), java("one")), java("after")},
			want: "after",
		},
		{
			name:  "Once Only under a While runs on its first pass only",
			group: groupOpts{loops: "2"},
			kids:  []string{xWhile("W", "${__javaScript(${__jm__W__idx} < 2)}", xmlEl("OnceOnlyController", "once", "", java("O")), java("w"))},
			want:  "O w w O w w",
		},
		{
			name: "If: the JavaScript engine takes what expr cannot",
			udv:  []string{"v", "abc"},
			kids: []string{xIf("len", `"${v}".length == 3`, false, java("len3")), xIf("upper", `"${v}".toUpperCase() == "ABD"`, false, java("never"))},
			want: "len3",
		},
		{
			name:  "Runtime of 0 seconds is dropped at once",
			group: groupOpts{loops: "2"},
			kids:  []string{xmlEl("RunTime", "rt", sp("RunTime.seconds", "0"), java("never")), java("A")},
			want:  "A A",
		},
		{
			name: "Transaction with a failing child: Result Status Action Handler does not see the parent sample",
			kids: []string{xTx("T", true, true, fail("F")), xResultAction(raStopThread), java("after")},
			want: "T after",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan := xPlan(xUDV(tt.udv...), xGroup("G", tt.group, tt.kids...))
			got := strings.Join(labels(runPlanXML(t, plan, nil), ""), " ")
			if got != tt.want {
				t.Errorf("samples %q, want %q", got, tt.want)
			}
		})
	}
}

// Interleave "across threads" starts each thread at its own child; the
// Random Controller runs one child per pass; Random Order runs them all in
// a new order each pass.
func TestControllersThatPick(t *testing.T) {
	java := func(name string) string { return xJava(name, 0, "") }
	t.Run("interleave across threads", func(t *testing.T) {
		plan := xPlan("", xGroup("G", groupOpts{threads: 3},
			xmlEl("InterleaveControl", "I", ip("InterleaveControl.style", 1)+bp("InterleaveControl.accrossThreads", true), java("A"), java("B"), java("C"))))
		m := runPlanXML(t, plan, nil)
		for i, want := range []string{"A", "B", "C"} {
			if got := labels(m, fmt.Sprintf("G 1-%d", i+1)); !slices.Equal(got, []string{want}) {
				t.Errorf("thread %d ran %v, want [%s]", i+1, got, want)
			}
		}
	})
	t.Run("random", func(t *testing.T) {
		plan := xPlan("", xGroup("G", groupOpts{loops: "90"},
			xmlEl("RandomController", "R", ip("InterleaveControl.style", 1), java("A"), java("B"), java("C")), java("end")))
		got := labels(runPlanXML(t, plan, nil), "")
		counts := map[string]int{}
		for i := 0; i < len(got); i += 2 {
			if got[i+1] != "end" {
				t.Fatalf("pass %d ran %v: want one child then end", i/2, got[i:i+2])
			}
			counts[got[i]]++
		}
		if len(counts) != 3 || counts["A"]+counts["B"]+counts["C"] != 90 {
			t.Errorf("children run %v, want each of A, B, C among 90 passes", counts)
		}
	})
	t.Run("random order", func(t *testing.T) {
		plan := xPlan("", xGroup("G", groupOpts{loops: "30"},
			xmlEl("RandomOrderController", "R", "", java("A"), java("B"), java("C"))))
		got := labels(runPlanXML(t, plan, nil), "")
		orders := map[string]bool{}
		for i := 0; i < len(got); i += 3 {
			pass := slices.Clone(got[i : i+3])
			orders[strings.Join(pass, "")] = true
			slices.Sort(pass)
			if !slices.Equal(pass, []string{"A", "B", "C"}) {
				t.Fatalf("pass %d ran %v", i/3, got[i:i+3])
			}
		}
		if len(orders) < 2 {
			t.Errorf("30 passes in %d order(s): not shuffled", len(orders))
		}
	})
	t.Run("throughput shared by the group's threads", func(t *testing.T) {
		plan := xPlan("", xGroup("G", groupOpts{threads: 3, loops: "4"},
			xmlEl("ThroughputController", "T", ip("ThroughputController.style", 0 /* total executions */)+bp("ThroughputController.perThread", false)+
				sp("ThroughputController.maxThroughput", "5"), java("T")), java("each")))
		got := labels(runPlanXML(t, plan, nil), "")
		if n := strings.Count(strings.Join(got, " "), "T"); n != 5 {
			t.Errorf("%d runs of the shared Throughput Controller, want 5 in all: %v", n, got)
		}
	})
}

// Plans gojm refuses when compiling, with the element's path.
func TestControllerCompileErrors(t *testing.T) {
	module := func(name string, path ...string) string {
		var items string
		for i, p := range path {
			items += sp(fmt.Sprint(i), p)
		}
		return xmlEl("ModuleController", name, `<collectionProp name="ModuleController.node_path">`+items+`</collectionProp>`)
	}
	tests := []struct {
		name string
		kids []string
		want string
	}{
		{"a JavaScript condition that does not compile", []string{xIf("bad if", `"a" ==`, false, xJava("A", 0, ""))}, "bad if: the condition is JavaScript"},
		{"a module target that is not there", []string{module("M", "WorkBench", "P", "G", "nope")}, `M: the Module Controller's target "P › G › nope" is not in the plan (was an element on the way renamed?); JMeter 5.6 refuses the plan too`},
		{"a module without a target", []string{xmlEl("ModuleController", "M", "")}, `M: the Module Controller has no target controller (ModuleController.node_path is empty); JMeter 5.6 refuses the plan too`},
		{"a module running itself", []string{xSimple("lib", module("M", "WorkBench", "P", "G", "lib"))}, "M: the Module Controller runs"},
		{"a module running a sampler", []string{xJava("J", 0, ""), module("M", "WorkBench", "P", "G", "J")}, "is a JavaSampler, not a controller"},
		{"a Java Request of another class", []string{xmlEl("JavaSampler", "J", sp("classname", "com.example.Load"))}, `Java class "com.example.Load"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := compilePlanXML(t, xPlan("", xGroup("G", groupOpts{}, tt.kids...)), nil)
			var je *jmx.Error
			if err == nil || !errors.As(err, &je) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one with the element path mentioning %q", err, tt.want)
			}
		})
	}
}

// JMeter runs the first Test Fragment of an included plan, and nothing of a
// plan without one.
func TestIncludeRunsTheFirstTestFragment(t *testing.T) {
	dir := t.TempDir()
	write := func(name, plan string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(plan), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("frag.jmx", xPlan("", xJava("outside", 0, ""), xmlEl("TestFragmentController", "F1", "", xJava("in F1", 0, "")),
		xmlEl("TestFragmentController", "F2", "", xJava("in F2", 0, ""))))
	write("nofrag.jmx", xPlan("", xJava("outside", 0, "")))
	include := func(name, file string) string {
		return xmlEl("IncludeController", name, sp("IncludeController.includepath", file))
	}
	write("main.jmx", xPlan("", xGroup("G", groupOpts{}, include("i1", "frag.jmx"), include("i2", "nofrag.jmx"), xJava("after", 0, ""))))
	src, err := jmx.Load(filepath.Join(dir, "main.jmx"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Compile(src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sink := &memSink{}
	if err := Start(context.Background(), p, sink, RunOptions{}).Wait(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(labels(sink, ""), ", "); got != "in F1, after" {
		t.Errorf("samples %q, want \"in F1, after\"", got)
	}
}
