package thread

import (
	"strings"
	"testing"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/elementtest"
	"github.com/gojm/gojm/jmx"
	"github.com/gojm/gojm/report"
)

// labels is a sink that keeps the labels of the samples it gets.
type labels []string

func (l *labels) Add(s *report.Sample) { *l = append(*l, s.Label) }
func (l *labels) Close() error         { return nil }

// tree builds a thread group's compiled controllers by hand, as the
// engine's compiler does from a plan: the main loop is controller 0.
type tree struct {
	t    *testing.T
	b    *elementtest.Builder
	defs []*ControllerDef
	// txs are the non-parent Transaction Controllers being built, which
	// the samplers below them reach.
	txs []*ControllerDef
}

func newTree(t *testing.T) *tree {
	return &tree{t: t, b: elementtest.New(nil, "", ""), defs: []*ControllerDef{nil}}
}

// sampler is a sampler that succeeds, labelled name.
func (tr *tree) sampler(name string) Child {
	ok := element.SamplerFunc(func(_ *element.VU, r *element.Result) { r.Success, r.Code = true, "200" })
	sc := &Scope{Outputs: 1 << 63, Txs: append([]*ControllerDef(nil), tr.txs...)}
	return Child{Sampler: &SamplerDef{Name: tr.b.Template(nil, "name", name), Scope: sc, Sampler: ok}}
}

// ctl is a controller built by build from e, over the children kids makes.
func (tr *tree) ctl(e *jmx.Element, build func(element.Builder, *jmx.Element, *ControllerDef) error, kids func() []Child) Child {
	d := &ControllerDef{Class: e.Class, Name: tr.b.Template(e, "name", e.Name), Path: e.Name, Index: len(tr.defs), IdxSlot: -1}
	tr.defs = append(tr.defs, d)
	if e.Class == "TransactionController" {
		d.Tx = &TxDef{}
		tr.txs = append(tr.txs, d)
	}
	d.Kids = kids()
	if d.Tx != nil {
		tr.txs = tr.txs[:len(tr.txs)-1]
	}
	for i, k := range d.Kids {
		if k.Controller != nil {
			d.Listens = append(d.Listens, Listen{Kid: i})
		}
	}
	if err := build(tr.b, e, d); err != nil {
		tr.t.Fatal(err)
	}
	if d.Make == nil {
		d.Make = NewSimple
	}
	return Child{Controller: d}
}

// run runs one user over the main loop, loops times over kids, and returns
// the labels of its samples.
func (tr *tree) run(loops string, kids ...Child) string {
	main := &ControllerDef{Class: "LoopController", Name: tr.b.Template(nil, "name", "TG"), Path: "TG", IdxSlot: -1, Kids: kids}
	main.Make = NewLoop(tr.b.Template(nil, "loops", loops), false)
	for i, k := range kids {
		if k.Controller != nil {
			main.Listens = append(main.Listens, Listen{Kid: i})
		}
	}
	tr.defs[0] = main
	var got labels
	tr.b.Run().Out = report.NewCollector(time.Hour, &got)
	New(tr.b.VU(1), main, len(tr.defs)).Run()
	if err := tr.b.Run().Out.Close(); err != nil {
		tr.t.Fatal(err)
	}
	return strings.Join(got, " ")
}

// TestControllers runs JMeter's controllers on hand-built trees: what each
// hands to the thread, pass after pass.
func TestControllers(t *testing.T) {
	el := elementtest.El
	cases := []struct {
		name  string
		loops string
		kids  func(tr *tree) []Child
		want  string
	}{
		{"a nested loop runs its count at each pass", "2", func(tr *tree) []Child {
			return []Child{tr.sampler("A"), tr.ctl(el("LoopController", "LoopController.loops", "2"), BuildLoop,
				func() []Child { return []Child{tr.sampler("B")} }), tr.sampler("C")}
		}, "A B B C A B B C"},
		{"an If whose condition is false is passed over", "1", func(tr *tree) []Child {
			return []Child{tr.sampler("A"), tr.ctl(el("IfController", "IfController.condition", "false"), BuildIf,
				func() []Child { return []Child{tr.sampler("B")} }), tr.sampler("C")}
		}, "A C"},
		{"an Interleave Controller runs one child per pass", "3", func(tr *tree) []Child {
			return []Child{tr.ctl(el("InterleaveControl"), BuildInterleave,
				func() []Child { return []Child{tr.sampler("A"), tr.sampler("B")} }), tr.sampler("C")}
		}, "A C B C A C"},
		{"a Once Only Controller runs at the first pass", "3", func(tr *tree) []Child {
			return []Child{tr.ctl(el("OnceOnlyController"), BuildOnce,
				func() []Child { return []Child{tr.sampler("A")} }), tr.sampler("B")}
		}, "A B B B"},
		{"a Throughput Controller by count runs its first passes", "4", func(tr *tree) []Child {
			return []Child{tr.ctl(el("ThroughputController", "ThroughputController.maxThroughput", "2"), BuildThroughput,
				func() []Child { return []Child{tr.sampler("A")} }), tr.sampler("B")}
		}, "A B A B B B"},
		{"a Switch Controller runs the child its value numbers", "2", func(tr *tree) []Child {
			return []Child{tr.ctl(el("SwitchController", "SwitchController.value", "1"), BuildSwitch,
				func() []Child { return []Child{tr.sampler("A"), tr.sampler("B")} })}
		}, "B B"},
		{"a Transaction Controller's sample follows its children's", "1", func(tr *tree) []Child {
			return []Child{tr.ctl(el("TransactionController"), BuildTransaction,
				func() []Child { return []Child{tr.sampler("A"), tr.sampler("B")} }), tr.sampler("C")}
		}, "A B TransactionController C"},
		{"a finished loop without loop forever is dropped by its parent", "2", func(tr *tree) []Child {
			return []Child{tr.ctl(el("LoopController", "LoopController.loops", "2", "LoopController.continue_forever", "false"), BuildLoop,
				func() []Child { return []Child{tr.sampler("A")} }), tr.sampler("B")}
		}, "A A B B"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTree(t)
			if got := tr.run(tc.loops, tc.kids(tr)...); got != tc.want {
				t.Errorf("samples %q, want %q", got, tc.want)
			}
		})
	}
}
