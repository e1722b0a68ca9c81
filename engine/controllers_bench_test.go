package engine

import (
	"testing"

	"github.com/gojm/gojm/engine/internal/thread"
	"github.com/gojm/gojm/report"
)

// discard is a sink that keeps nothing.
type discard struct{}

func (discard) Add(*report.Sample) {}
func (discard) Close() error       { return nil }

// The cost per sample of the thread's walk through the controllers: a
// thread group looping over a Loop, a While, an If and a non-parent
// Transaction Controller around Java Requests that do not sleep
// (go test -run ^$ -bench Walk -benchmem ./engine).
func BenchmarkControllerWalk(b *testing.B) {
	java := func(name string) string { return xJava(name, 0, "") }
	plan := xPlan("", xGroup("G", groupOpts{loops: "-1"},
		xLoop("L", "3", true, java("A")),
		xWhile("W", "${__jm__W__idx}", java("B")),
		xIf("I", "${JMeterThread.last_sample_ok}", false, java("C")),
		xTx("T", false, true, java("D"), java("E"))))
	p, err := compilePlanXML(&testing.T{}, plan, nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := b.Context()
	r := newTestRun(ctx, p, discard{})
	defer r.el.Out.Close()
	g := p.groups[0]
	vu := r.groups[0].NewVU(1, ctx, ctx)
	step, end := thread.New(vu, g.MainLoop, g.Ctls).Steps()
	defer end()
	b.ReportAllocs()
	for b.Loop() {
		if !step() {
			b.Fatal("the walk ended")
		}
	}
}
