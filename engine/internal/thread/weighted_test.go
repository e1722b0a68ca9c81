package thread

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/elementtest"
	"github.com/gojm/gojm/jmx"
)

// weighted is a Weighted Switch Controller's element: rows of name,
// weight and, when given, the enabled cell ("name:weight" or
// "name:weight:false").
func weighted(random bool, rows ...string) *jmx.Element {
	table := &jmx.Prop{Kind: "collection", Name: "Weights"}
	for _, r := range rows {
		row := &jmx.Prop{Kind: "collection", Name: "row"}
		for _, cell := range strings.Split(r, ":") {
			row.Props = append(row.Props, &jmx.Prop{Kind: "string", Name: "cell", Value: cell})
		}
		table.Props = append(table.Props, row)
	}
	e := &jmx.Element{Class: WeightedClass, Name: "WSC", Props: []*jmx.Prop{table}}
	if random {
		e.Props = append(e.Props, &jmx.Prop{Kind: "bool", Name: "IsRandomChoice", Value: "true"})
	}
	return e
}

// setter is a sampler labelled name that sets variable v to val.
func (tr *tree) setter(name, v, val string) Child {
	c := tr.sampler(name)
	c.Sampler.Sampler = element.SamplerFunc(func(vu *element.VU, r *element.Result) {
		vu.Vars.Put(v, val)
		r.Success, r.Code = true, "200"
	})
	return c
}

// counts gives how many times each label occurs, in order of first sight.
func counts(labels string) string {
	var order []string
	n := map[string]int{}
	for _, l := range strings.Fields(labels) {
		if n[l] == 0 {
			order = append(order, l)
		}
		n[l]++
	}
	var b strings.Builder
	for _, l := range order {
		b.WriteString(l + "=" + strconv.Itoa(n[l]) + " ")
	}
	return strings.TrimSpace(b.String())
}

// TestWeightedSwitch runs the Weighted Switch Controller on the plugin's own
// test trees (WeightedSwitchControllerTest) and on the sequences its
// deterministic choice makes.
func TestWeightedSwitch(t *testing.T) {
	el := elementtest.El
	simple := func(tr *tree, name string, kids ...Child) Child {
		e := el("GenericController")
		e.Name = name
		return tr.ctl(e, BuildSimple, func() []Child { return kids })
	}
	tx := func(tr *tree, name string, parent bool, kids func() []Child) Child {
		p := "false"
		if parent {
			p = "true"
		}
		e := el("TransactionController", "TransactionController.parent", p)
		e.Name = name
		c := tr.ctl(e, BuildTransaction, kids)
		c.Controller.Tx.Pack = &Scope{Outputs: 1 << 63}
		return c
	}
	cases := []struct {
		name   string
		loops  string
		kids   func(tr *tree) []Child
		want   string
		counts bool // compare the counts of each label, not the sequence
	}{
		{"the child lagging its share most runs next", "9", func(tr *tree) []Child {
			return []Child{tr.ctl(weighted(false, "A:1", "B:2"), BuildWeighted,
				func() []Child { return []Child{tr.sampler("A"), tr.sampler("B")} })}
		}, "B A B B A B B A B", false},
		{"a weight of 0 never runs (testGeneric)", "800", func(tr *tree) []Child {
			return []Child{tr.ctl(weighted(false, "0:0", "1:1", "2:2", "5:5"), BuildWeighted,
				func() []Child { return []Child{tr.sampler("0"), tr.sampler("1"), tr.sampler("2"), tr.sampler("5")} })}
		}, "5=500 2=200 1=100", true},
		{"rows unticked in the table are left out (disableController.jmx)", "4", func(tr *tree) []Child {
			return []Child{tr.ctl(weighted(false, "A:100:true", "B:100:false", "C:100:true"), BuildWeighted,
				func() []Child { return []Child{tr.sampler("A"), tr.sampler("C")} })}
		}, "A C A C", false},
		{"a child controller runs whole (testNestedSimpleControllers)", "60", func(tr *tree) []Child {
			return []Child{tr.ctl(weighted(false, "ex1:10", "ex2:20"), BuildWeighted, func() []Child {
				return []Child{simple(tr, "ex1", tr.sampler("example1_1"), tr.sampler("example1_2")),
					simple(tr, "ex2", tr.sampler("example2_1"), tr.sampler("example2_2"))}
			})}
		}, "example2_1=40 example2_2=40 example1_1=20 example1_2=20", true},
		{"Transaction Controllers give one sample per pass (testNestedTransactionControllers)", "3", func(tr *tree) []Child {
			return []Child{tr.ctl(weighted(false, "ex1:10", "ex2:20"), BuildWeighted, func() []Child {
				return []Child{
					tx(tr, "ex1", false, func() []Child { return []Child{tr.sampler("example1_1"), tr.sampler("example1_2")} }),
					tx(tr, "ex2", false, func() []Child { return []Child{tr.sampler("example2_1"), tr.sampler("example2_2")} }),
				}
			})}
		}, "example2_1 example2_2 ex2 example1_1 example1_2 ex1 example2_1 example2_2 ex2", false},
		{"parent-mode Transaction Controllers (testNestedTransactionControllersWithParentSample)", "6", func(tr *tree) []Child {
			return []Child{tr.ctl(weighted(false, "ex1:10", "ex2:20", "ex3:30"), BuildWeighted, func() []Child {
				return []Child{
					tx(tr, "ex1", true, func() []Child { return []Child{tr.sampler("example1_1"), tr.sampler("example1_2")} }),
					tx(tr, "ex2", true, func() []Child { return []Child{tr.sampler("example2_1"), tr.sampler("example2_2")} }),
					tx(tr, "ex3", true, func() []Child { return []Child{tr.sampler("example3_1"), tr.sampler("example3_2")} }),
				}
			})}
		}, "example3_1=3 example3_2=3 ex3=3 example2_1=2 example2_2=2 ex2=2 example1_1=1 example1_2=1 ex1=1", true},
		{"nested Weighted Switch Controllers (testNestedWSC)", "6", func(tr *tree) []Child {
			inner := func(a, b string) func() []Child {
				return func() []Child { return []Child{tr.sampler(a), tr.sampler(b)} }
			}
			w1, w2 := weighted(false, "D1_#1:1", "D1_#2:1"), weighted(false, "D2_#1:1", "D2_#2:1")
			return []Child{tr.ctl(weighted(false, "wsc1:2", "wsc2:2", "D_#1:1", "D_#2:1"), BuildWeighted, func() []Child {
				return []Child{tr.ctl(w1, BuildWeighted, inner("D1_#1", "D1_#2")), tr.ctl(w2, BuildWeighted, inner("D2_#1", "D2_#2")),
					tr.sampler("D_#1"), tr.sampler("D_#2")}
			})}
			// The walk that ends the first pass reaches wsc2, which makes its
			// choice (D2_#1) before the pass ends: wsc2 runs D2_#2 next.
		}, "D1_#1 D2_#2 D_#1 D_#2 D1_#2 D2_#2", false},
		{"a ${} weight is read at each choice", "3", func(tr *tree) []Child {
			return []Child{tr.ctl(el("OnceOnlyController"), BuildOnce, func() []Child { return []Child{tr.setter("S", "wb", "2")} }),
				tr.ctl(weighted(false, "A:1", "B:${wb}"), BuildWeighted,
					func() []Child { return []Child{tr.sampler("A"), tr.setter("B", "wb", "0")} })}
		}, "S B A A", false},
		{"random choice draws by weight", "20", func(tr *tree) []Child {
			return []Child{tr.ctl(weighted(true, "A:0", "B:3", "C:0"), BuildWeighted,
				func() []Child { return []Child{tr.sampler("A"), tr.sampler("B"), tr.sampler("C")} })}
		}, "B=20", true},
		{"a weight that is not a number stops the thread", "3", func(tr *tree) []Child {
			return []Child{tr.sampler("A"), tr.ctl(weighted(false, "B:${none}"), BuildWeighted,
				func() []Child { return []Child{tr.sampler("B")} })}
		}, "A", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTree(t)
			got := tr.run(tc.loops, tc.kids(tr)...)
			if tc.counts {
				got = counts(got)
			}
			if got != tc.want {
				t.Errorf("samples %q, want %q", got, tc.want)
			}
		})
	}
}

// TestWeightedSwitchRefusesBadWeight: a weight that is not a whole number
// when the plan compiles is an error of the plan.
func TestWeightedSwitchRefusesBadWeight(t *testing.T) {
	for _, w := range []string{"x", "1.5", " 2"} {
		d := &ControllerDef{}
		if err := BuildWeighted(elementtest.New(nil, "", ""), weighted(false, "A:"+w), d); err == nil {
			t.Errorf("weight %q: no error", w)
		}
	}
}

func TestRandomIndex(t *testing.T) {
	cases := []struct {
		weights []float64
		r       float64
		want    int
	}{
		{[]float64{0.25, 0.75}, 0.1, 0},
		{[]float64{0.25, 0.75}, 0.25, 1}, // r is in [0.25, 1)
		{[]float64{0.25, 0.75}, 0.3, 1},
		{[]float64{0, 1, 0}, 0.5, 1},
		{[]float64{0, 1}, 0, 1}, // a first child of weight 0, even at r = 0
		{[]float64{0, 0.5, 0.5}, 0, 1},
		{[]float64{0.5, 0.25, 0}, 0.9, 1}, // past the sum (rounded down): the last with a weight
		{nil, 0.5, 0},
	}
	for _, tc := range cases {
		if got := randomIndex(tc.weights, tc.r); got != tc.want {
			t.Errorf("randomIndex(%v, %v) = %d, want %d", tc.weights, tc.r, got, tc.want)
		}
	}
}

// constSource is a random source that always gives the same number.
type constSource uint64

func (s constSource) Uint64() uint64 { return uint64(s) }

// A random Weighted Switch Controller draws from the user's random source:
// with one that gives 0 (Float64 = 0) or the largest draw, a child of
// weight 0 never runs.
func TestWeightedRandomDraw(t *testing.T) {
	for _, tc := range []struct {
		name string
		rows []string
		src  constSource
		want int
	}{
		{"a draw of 0 passes over a first child of weight 0", []string{"A:0", "B:1", "C:1"}, 0, 1},
		{"the largest draw passes over a last child of weight 0", []string{"A:1", "B:1", "C:0"}, math.MaxUint64, 1},
		{"a draw of 0 with weights", []string{"A:2", "B:1"}, 0, 0},
		// Past a few children a slice made per choice would be on the heap.
		{"many children", []string{"A:1", "B:1", "C:1", "D:1", "E:1", "F:1", "G:1", "H:1"}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := elementtest.New(nil, "", "")
			d := &ControllerDef{Path: "WSC"}
			if err := BuildWeighted(b, weighted(true, tc.rows...), d); err != nil {
				t.Fatal(err)
			}
			vu := b.VU(1)
			vu.Rand = rand.New(tc.src)
			w := d.Make(nil).(*weightedCtl)
			w.def = d
			for range 3 {
				if got, ok := w.choose(vu); !ok || got != tc.want {
					t.Fatalf("choose = %d, %v, want %d", got, ok, tc.want)
				}
			}
			// The weights are read again into the same slice.
			if n := testing.AllocsPerRun(10, func() { w.choose(vu) }); n != 0 {
				t.Errorf("choose allocates %v times", n)
			}
		})
	}
}
