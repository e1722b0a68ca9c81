package engine

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/gojm/gojm/internal/segment"
)

// The plugin thread groups read a field that is not a number as each
// plugin's source does: getPropertyAsInt's 0 (Ultimate, Stepping, the
// Concurrency and Arrivals target), getDoubleValue's 0 (the Free-Form
// rows), no limit (ConcurrencyLimit, parsed in a try), one iteration
// (Iterations, whose Long.parseLong fails at the end of each one), a
// schedule chunk left out (the spawn(…) properties), or a group that
// starts no thread (RampUp, Hold and Steps, whose Double.parseDouble or
// Long.parseLong throws as the group starts). Each with one warning as the
// plan compiles, naming the group, the field, the text and what is made of
// it, and a refusal with --strict; the plan's schedule is what JMeter
// starts.
func TestPluginGroupLenientFields(t *testing.T) {
	stepping := func(fields map[string]string) string {
		f := map[string]string{"ThreadGroup.num_threads": "3", "Threads initial delay": "0", "Start users count": "1",
			"Start users count burst": "0", "Start users period": "2", "Stop users count": "1", "Stop users period": "1",
			"flighttime": "5", "rampUp": "0"}
		for k, v := range fields {
			f[k] = v
		}
		props := plugMain() + sp("ThreadGroup.on_sample_error", "continue")
		for _, k := range slices.Sorted(maps.Keys(f)) {
			props += sp(k, f[k])
		}
		return xmlEl(steppingClass, "G", props, plugDummy("S", 1))
	}
	dyn := func(class string, f dynGroup, extra string) string {
		return plugDyn(class, "G", f, extra, plugDummy("S", 1))
	}
	const noThread = "its NumberFormatException stops the group, which starts no thread"
	for _, tt := range []struct {
		name  string
		group string
		props map[string]string
		warn  []string // the warnings, in order, each a part of one
		// starts are the planned starts: "+0.000s G 1-1", or arrivals
		// ("+0.500s arrival 1"), the first 4
		starts []string
	}{
		// Ultimate Thread Group: getIntValue of each cell.
		{name: "ultimate start threads", group: plugUTG("G", [][]string{{"abc", "0", "0", "5", "0"}, {"2", "1", "2", "3", "0"}}, plugDummy("S", 1)),
			warn: []string{`row 1 start threads "abc" is not a whole number: the plugin reads it as 0, and a row of 0 threads still runs one thread on its times, which the last rows then lack`},
			// the group has 0+2 threads: the first on row 1's times, the
			// second row 2's first (k = 2 of 2: 1 s + 2 s)
			starts: []string{"+0.000s G 1-1", "+3.000s G 1-2"}},
		{name: "ultimate initial delay", group: plugUTG("G", [][]string{{"1", "1.5", "0", "1", "0"}}, plugDummy("S", 1)),
			warn: []string{`row 1 initial delay "1.5" is not a whole number: the plugin reads it as 0, no delay; write a whole number in the plan`}, starts: []string{"+0.000s G 1-1"}},
		{name: "ultimate startup time", group: plugUTG("G", [][]string{{"2", "0", "${ramp}", "1", "0"}}, plugDummy("S", 1)),
			warn:   []string{`row 1 startup time "${ramp}" is not a whole number: the plugin reads it as 0, so the row's threads start at once; define the variable ramp`},
			starts: []string{"+0.000s G 1-1", "+0.000s G 1-2"}},
		{name: "ultimate hold and shutdown", group: plugUTG("G", [][]string{{"1", "2", "0", "x", "${__P(down,y)}"}}, plugDummy("S", 1)),
			warn: []string{`row 1 hold load for "x" is not a whole number: the plugin reads it as 0, no time`,
				`row 1 shutdown time "y" (from ${__P(down,y)}) is not a whole number: the plugin reads it as 0, so the row's threads stop at once; set it with -J down=N`},
			starts: []string{"+2.000s G 1-1"}},
		{name: "ultimate threads_schedule chunk", group: plugUTG("G", nil, plugDummy("S", 1)),
			props: map[string]string{"threads_schedule": "spawn(1,1s,0s,1s,0s) spawn(x,0s,0s,1s,0s) spawn(1,2s,0s,1s)"},
			warn: []string{`property threads_schedule: "spawn(x,0s,0s,1s,0s)" is left out, as the plugin does: "x" is not a whole number`,
				`property threads_schedule: "spawn(1,2s,0s,1s)" is left out, as the plugin does: it is not spawn(…) with 5 values`},
			starts: []string{"+1.000s G 1-1"}},

		// Stepping Thread Group: getPropertyAsInt of every field.
		{name: "stepping threads", group: stepping(map[string]string{"ThreadGroup.num_threads": "${users}"}),
			warn: []string{`number of threads "${users}" is not a whole number: the plugin reads it as 0, so the group starts no thread`}},
		{name: "stepping start users count", group: stepping(map[string]string{"Start users count": "1.5"}),
			warn:   []string{`start users count "1.5" is not a whole number: the plugin reads it as 0, so every thread starts in the first batch`},
			starts: []string{"+0.000s G 1-1", "+0.000s G 1-2", "+0.000s G 1-3"}},
		{name: "stepping period and ramp-up", group: stepping(map[string]string{"Start users period": "two", "rampUp": "0.5"}),
			warn: []string{`start users period "two" is not a whole number: the plugin reads it as 0, so no pause comes between batches`,
				`ramp-up "0.5" is not a whole number: the plugin reads it as 0, so each batch's threads start at once`},
			starts: []string{"+0.000s G 1-1", "+0.000s G 1-2", "+0.000s G 1-3"}},

		// Concurrency Thread Group.
		{name: "concurrency target", group: dyn(concurrencyClass, dynGroup{target: "1.5", hold: "1"}, ""),
			warn: []string{`target "1.5" is not a whole number: the plugin reads it as 0, so the group starts no thread`}},
		{name: "concurrency blank target", group: dyn(concurrencyClass, dynGroup{target: "", hold: "1"}, ""),
			warn: []string{`target is blank: the plugin reads it as 0, so the group starts no thread`}},
		{name: "concurrency ramp-up", group: dyn(concurrencyClass, dynGroup{target: "2", rampUp: "soon", hold: "1"}, ""),
			warn: []string{`ramp-up time "soon" is not a number the plugin reads: ` + noThread + `; write a number in the plan`}},
		{name: "concurrency hold", group: dyn(concurrencyClass, dynGroup{target: "2", hold: "${hold}"}, ""),
			warn: []string{`hold time "${hold}" is not a number the plugin reads: ` + noThread}},
		{name: "concurrency steps", group: dyn(concurrencyClass, dynGroup{target: "2", rampUp: "2", steps: "2.5", hold: "1"}, ""),
			warn: []string{`ramp-up steps "2.5" is not a number the plugin reads: ` + noThread + `; write a whole number in the plan`}},
		{name: "concurrency fractions the plugin reads", group: dyn(concurrencyClass, dynGroup{target: "2", rampUp: "0.4", hold: "1.5d"}, ""),
			starts: []string{"+0.000s G 1-1", "+0.000s G 1-2"}}, // Math.round(0.4) = 0: no ramp-up
		{name: "concurrency iterations", group: dyn(concurrencyClass, dynGroup{target: "1", hold: "1", iterations: "x"}, ""),
			warn:   []string{`thread iterations limit "x" is not a whole number: the plugin's Long.parseLong fails at the end of each thread's first iteration, which ends the thread, as a limit of 1 does`},
			starts: []string{"+0.000s G 1-1"}},

		// Arrivals Thread Group.
		{name: "arrivals target", group: dyn(arrivalsClass, dynGroup{target: "abc", rampUp: "1", hold: "1"}, ""),
			warn: []string{`target "abc" is not a whole number: the plugin reads it as 0, so the group starts no thread`}},
		{name: "arrivals ramp-up", group: dyn(arrivalsClass, dynGroup{target: "2", rampUp: "x", hold: "1"}, ""),
			warn: []string{`ramp-up time "x" is not a number the plugin reads: ` + noThread}},
		{name: "arrivals concurrency limit", group: dyn(arrivalsClass, dynGroup{target: "2", hold: "1", limit: "2.5"}, ""),
			warn:   []string{`concurrency limit "2.5" is not a whole number: the plugin reads it as no limit`},
			starts: []string{"+0.000s arrival 1", "+0.500s arrival 2"}},
		{name: "arrivals negative concurrency limit", group: dyn(arrivalsClass, dynGroup{target: "2", hold: "1", limit: "-3"}, ""),
			starts: []string{"+0.000s arrival 1", "+0.500s arrival 2"}}, // limit <= 0: none

		// Free-Form Arrivals Thread Group: getDoubleValue of each cell;
		// RampUp, Hold and Steps are not read.
		{name: "free-form rates", group: dyn(freeFormClass, dynGroup{rampUp: "x", hold: "y", steps: "z"}, plugTable("Schedule", [][]string{{"two", "2", "1"}})),
			warn: []string{`row 1 start rate "two" is not a number: the plugin reads it as 0, a rate of 0; write a number in the plan`},
			// a rate of 0 looks again 200 ms later: 0.4/s then
			starts: []string{"+0.200s arrival 1"}},
		{name: "free-form duration", group: dyn(freeFormClass, dynGroup{}, plugTable("Schedule", [][]string{{"1", "1", "1 s"}, {"2", "2", "1"}})),
			warn:   []string{`row 1 duration "1 s" is not a number: the plugin reads it as 0, so the row is left out`},
			starts: []string{"+0.000s arrival 1", "+0.500s arrival 2", "+1.000s arrival 3"}},
		{name: "free-form arrivals.schedule chunk", group: dyn(freeFormClass, dynGroup{}, ""),
			props: map[string]string{"arrivals.schedule": "spawn(1, 1, 1s) spawn(2,2,1s)"},
			// the plugin reads the second number untrimmed: " 1" fails
			warn:   []string{`property arrivals.schedule: "spawn(1, 1, 1s)" is left out, as the plugin does: " 1" is not a whole number`},
			starts: []string{"+0.000s arrival 1", "+0.500s arrival 2", "+1.000s arrival 3"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			plan := xPlan("", tt.group)
			p, err := compilePlanXML(t, plan, tt.props)
			if err != nil {
				t.Fatal(err)
			}
			var warned []string
			for _, w := range p.Warnings {
				if w.Path != "P › G" {
					t.Errorf("warning %q names %q, want the group", w.Message, w.Path)
				}
				warned = append(warned, w.Message)
			}
			ok := len(warned) == len(tt.warn)
			for i := 0; ok && i < len(warned); i++ {
				ok = strings.Contains(warned[i], tt.warn[i])
			}
			if !ok {
				t.Errorf("warnings\n%q\nwant ones saying\n%q", warned, tt.warn)
			}
			var starts []string
			for _, g := range p.Schedule(segment.Whole(), 1, "", 4) {
				if g.Err != nil {
					t.Errorf("schedule: %v", g.Err)
				}
				for _, s := range g.Starts {
					starts = append(starts, s.String())
				}
			}
			if !slices.Equal(starts, tt.starts) {
				t.Errorf("starts %q, want %q", starts, tt.starts)
			}
			_, err = compilePlanXMLOpts(t, plan, Options{Props: tt.props, Strict: true})
			if len(tt.warn) > 0 && (err == nil || !strings.Contains(err.Error(), tt.warn[0])) {
				t.Errorf("with --strict: %v, want a refusal saying %s", err, tt.warn[0])
			}
		})
	}
}

// A plan whose plugin groups read fields JMeter's way runs: a Concurrency
// group whose RampUp is not a number starts no thread, one whose
// Iterations is not a number runs one iteration per thread (a new thread
// replaces each), an Ultimate group's row of "abc" threads still runs one
// thread, and the Thread Group beside them runs as usual.
func TestPluginGroupLenientRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		plan := xPlan("",
			plugDyn(concurrencyClass, "Stopped", dynGroup{target: "2", rampUp: "soon", hold: "1"}, "", plugDummy("stopped", 100)),
			plugDyn(concurrencyClass, "Once", dynGroup{target: "1", hold: "1", iterations: "x"}, "", plugDummy("once", 400)),
			plugUTG("Ultimate", [][]string{{"abc", "0", "0", "1", "0"}, {"1", "0", "0", "1", "0"}}, plugDummy("row", 600)),
			xGroup("Users", groupOpts{}, xJava("plain", 0, "")),
		)
		m := runPlanXML(t, plan, nil)
		count := map[string]int{}
		for _, s := range m.samples {
			count[s.Label+" "+s.ThreadName]++
		}
		// Once: iterations of 400 ms until the 1 s hold ends, each on a
		// thread of its own; Ultimate: the group has 0+1 threads, the
		// first on row 1's times (600 ms samples until 1 s)
		want := map[string]int{"once Once 2-1": 1, "once Once 2-2": 1, "once Once 2-3": 1,
			"row Ultimate 3-1": 2, "plain Users 4-1": 1}
		if fmt.Sprint(count) != fmt.Sprint(want) {
			t.Errorf("samples by label and thread %v, want %v", count, want)
		}
	})
}

// A plugin group's field known only when the group starts (a property a
// setUp group sets) is warned of then, in the run's log, and read as the
// plugin reads it: here a target of "abc" starts no thread.
func TestPluginGroupLenientAtStart(t *testing.T) {
	plan := xPlan("",
		xGroup("Set", groupOpts{kind: "SetupThreadGroup"}, xJava("${__setProperty(n,abc)}set", 0, "")),
		plugDyn(concurrencyClass, "Late", dynGroup{target: "${__P(n,2)}", hold: "1"}, "", plugDummy("late", 1)),
	)
	p, log := compileLogged(t, plan)
	if len(p.Warnings) != 0 {
		t.Errorf("warnings as the plan compiles: %v", p.Warnings)
	}
	sink := &memSink{}
	if err := Start(t.Context(), p, sink, RunOptions{}).Wait(); err != nil {
		t.Fatal(err)
	}
	if got := labels(sink, ""); !slices.Equal(got, []string{"set"}) {
		t.Errorf("samples %q, want only the setUp group's", got)
	}
	want := `P › Late: target "abc" (from ${__P(n,2)}) is not a whole number: the plugin reads it as 0, so the group starts no thread; set it with -J n=N`
	if !strings.Contains(log.String(), strings.ReplaceAll(want, `"`, `\"`)) {
		t.Errorf("the run's log does not say %q:\n%s", want, log.String())
	}
}
