package element

import (
	"context"
	"sync"
	"testing"
)

func testPlan() *Plan { return NewPlan("plan.jmx", "", NewProps(nil), nil) }

func TestNextThen(t *testing.T) {
	tests := []struct {
		a, b, want Next
	}{
		{Continue, Continue, Continue},
		{Continue, BreakLoop, BreakLoop},
		{BreakLoop, NextIterationLoop, NextIterationLoop}, // the later loop action
		{NextThreadLoop, Continue, NextThreadLoop},
		{StopThread, NextThreadLoop, StopThread}, // a stop outweighs a loop action
		{NextThreadLoop, StopTest, StopTest},
		{StopTestNow, StopThread, StopTestNow}, // the stronger stop
		{StopThread, StopTest, StopTest},
	}
	for _, tt := range tests {
		if got := tt.a.Then(tt.b); got != tt.want {
			t.Errorf("%d.Then(%d) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	for s, want := range map[string]Next{"continue": Continue, "startnextloop": NextThreadLoop, "StopThread": StopThread,
		"stoptest": StopTest, "stoptestnow": StopTestNow, "nonsense": Continue, "": Continue} {
		if got := ParseOnError(s); got != want {
			t.Errorf("ParseOnError(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestTemplateEval(t *testing.T) {
	p := testPlan()
	x := p.Var("x")
	fn := FuncFunc(func(vu *VU) string { return "f" + vu.Name })
	tests := []struct {
		name string
		t    *Template
		want string
	}{
		{"constant", Text("plain ${x}"), "plain ${x}"},
		{"variable set", NewTemplate("${x}", []Part{{Kind: VarPart, Slot: x, Lit: "${x}"}}), "1"},
		{"variable by name, unset", NewTemplate("${y}", []Part{{Kind: NamedVarPart, Lit: "${y}"}}), "${y}"},
		{"mixed", NewTemplate("a${x}b${__f()}", []Part{{Kind: LitPart, Lit: "a"}, {Kind: VarPart, Slot: x, Lit: "${x}"},
			{Kind: LitPart, Lit: "b"}, {Kind: FnPart, Fn: fn}}), "a1bfU"},
	}
	vu := NewVU(p, NewGroup(p), nil, 1, "U", context.Background(), context.Background())
	vu.Vars.PutSlot(x, "1")
	for _, tt := range tests {
		if got := tt.t.Eval(vu); got != tt.want {
			t.Errorf("%s: Eval = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestVarsMergeChanges(t *testing.T) {
	p := testPlan()
	a, b := p.Var("a"), p.Var("b")
	user := NewVars(p.Symbols())
	user.PutSlot(a, "1")
	user.Put("kept", "k")
	user.Put("dropped", "d")
	snap := NewVars(p.Symbols())
	snap.CopyFrom(user)
	branch := NewVars(p.Symbols())
	branch.CopyFrom(user)
	branch.PutSlot(b, "2")   // set by the branch
	branch.Put("new", "n")   // a name only the branch made
	branch.Remove("dropped") // removed by the branch
	user.PutSlot(a, "9")     // changed by another branch meanwhile: kept
	user.MergeChanges(snap, branch)
	for name, want := range map[string]string{"a": "9", "b": "2", "kept": "k", "new": "n"} {
		if got, _ := user.Get(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if _, ok := user.Get("dropped"); ok {
		t.Error("a variable the branch removed is still set")
	}
	if got := user.Names(); len(got) != 4 || got[0] != "a" || got[3] != "new" {
		t.Errorf("Names = %v", got)
	}
}

func TestLocalIsPerUserAndForks(t *testing.T) {
	p := testPlan()
	made := 0
	plain := NewLocal(p, func(*VU) *int { made++; return new(int) })
	forked := NewLocal(p, func(*VU) *string { return new("user") })
	forked.Fork = func(_ *VU, parent *string) *string { return new(*parent + "'s branch") }
	r := NewRun(p, 1, func(error) {}, func(error) {})
	g := NewGroup(p)
	ctx := context.Background()
	a, b := NewVU(p, g, r, 1, "a", ctx, ctx), NewVU(p, g, r, 2, "b", ctx, ctx)
	*plain.Get(a) = 5
	if *plain.Get(a) != 5 || *plain.Get(b) != 0 || made != 2 {
		t.Errorf("per user: a=%d b=%d made=%d", *plain.Get(a), *plain.Get(b), made)
	}
	if plain.Peek(NewVU(p, g, r, 3, "c", ctx, ctx)) != nil {
		t.Error("Peek made a value")
	}
	br := a.Fork()
	if got := *forked.Get(br); got != "user's branch" {
		t.Errorf("forked value %q", got)
	}
	if *plain.Get(br) != 0 {
		t.Error("a Local without Fork shares the user's value with its branch")
	}
}

func TestLocalMadeForAUserOfAnEarlierPlan(t *testing.T) {
	p := testPlan()
	early := NewVU(p, NewGroup(p), nil, 0, "", context.Background(), context.Background())
	late := NewLocal(p, func(*VU) *int { return new(7) })
	if *late.Get(early) != 7 {
		t.Error("a slot handed out after the user was made")
	}
}

func TestSharedIsPerRunAndGroupSharedPerGroup(t *testing.T) {
	p := testPlan()
	var mu sync.Mutex
	made := 0
	run := NewShared(p, func(*VU) *int { mu.Lock(); made++; mu.Unlock(); return new(int) })
	grp := NewGroupShared(p, func(*VU) *int { return new(int) })
	ctx := context.Background()
	r1, r2 := NewRun(p, 1, nil, nil), NewRun(p, 2, nil, nil)
	g1, g2 := NewGroup(p), NewGroup(p)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			vu := NewVU(p, g1, r1, i, "", ctx, ctx)
			run.Get(vu)
		}()
	}
	wg.Wait()
	if made != 1 {
		t.Errorf("made %d values for one run", made)
	}
	if run.Get(NewVU(p, g1, r1, 0, "", ctx, ctx)) == run.Get(NewVU(p, g1, r2, 0, "", ctx, ctx)) {
		t.Error("two runs share a value")
	}
	u1, u2 := NewVU(p, g1, r1, 1, "", ctx, ctx), NewVU(p, g2, r1, 1, "", ctx, ctx)
	if grp.Get(u1) == grp.Get(u2) || grp.Get(u1) != grp.Of(g1) {
		t.Error("GroupShared is not one value per group")
	}
	lone1, lone2 := run.Get(NewVU(p, g1, nil, 0, "", ctx, ctx)), run.Get(NewVU(p, g1, nil, 0, "", ctx, ctx))
	if lone1 == lone2 {
		t.Error("users without a run share a value")
	}
}

func TestOnce(t *testing.T) {
	p := testPlan()
	key := NewKey[*int]("test")
	calls := 0
	mk := func() *int { calls++; return new(int) }
	first, second := Once(p, key, mk), Once(p, key, mk)
	if first != second || calls != 1 {
		t.Errorf("Once made %d values", calls)
	}
	if Once(testPlan(), key, mk) == Once(p, key, mk) {
		t.Error("two plans share a value")
	}
}

func TestIterationsAndHooks(t *testing.T) {
	p := testPlan()
	g := NewGroup(p)
	vu := NewVU(p, g, NewRun(p, 1, nil, nil), 1, "", context.Background(), context.Background())
	var iters, ends int
	vu.OnIteration(func(*VU) { iters++ })
	vu.AtEnd(func(*VU) { ends++ })
	for range 3 {
		vu.NextIteration()
	}
	vu.End()
	if vu.Iteration != 3 || iters != 2 || ends != 1 || g.Iterations.Load() != 3 {
		t.Errorf("iteration %d, hooks %d and %d, group %d", vu.Iteration, iters, ends, g.Iterations.Load())
	}
}

func TestLastSampleOK(t *testing.T) {
	p := testPlan()
	vu := NewVU(p, NewGroup(p), nil, 1, "", context.Background(), context.Background())
	vu.SetLastOK(true)
	if !vu.LastSampleOK() || vu.LastSampleFailed() {
		t.Error("after true")
	}
	vu.Vars.Put("JMeterThread.last_sample_ok", "FALSE") // a script's spelling
	if vu.LastSampleOK() || !vu.LastSampleFailed() {
		t.Error(`after "FALSE": the controllers' reading is case-blind, the thread loop's is not`)
	}
}

func TestPluginSeconds(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"90", 90, true}, {"1m30s", 90, true}, {"2h", 7200, true}, {"1d1s", 86401, true}, {"1d1", 86401, true}, {" 5M ", 300, true},
		{"", 0, false}, {"m", 0, false}, {"5x", 0, false},
	} {
		got, err := PluginSeconds(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("PluginSeconds(%q) = %d, %v", tt.in, got, err)
		}
	}
}
