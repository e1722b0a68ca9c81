package thread

import (
	"fmt"
	"math"
	"strconv"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
	"github.com/gojm/gojm/report"
)

// WeightedClass is BlazeMeter's Weighted Switch Controller.
const WeightedClass = "com.blazemeter.jmeter.control.WeightedSwitchController"

// weightedCtl is BlazeMeter's Weighted Switch Controller: each pass runs
// one child, chosen by the weights of its table (a row per child: name,
// weight, enabled). Rows unticked in the table are left out and the others
// number the children in order, as the plugin numbers them. Deterministic
// selection picks the child whose share of the passes so far lags its
// weight's share the most (the first on a tie), so weights 1 and 2 give
// B A B B A B…; random selection draws by weight. A weight may be ${…},
// read at each choice.
//
// The pass ends as the plugin ends it: when the chosen child is done, or
// as soon as the walk reaches another child, whose sampler is then
// dropped; every child controller is then reset (a Transaction
// Controller without its sample), so that the next pass starts clean.
type weightedCtl struct {
	Generic
	w      *weightedDef
	chosen bool
	counts []int64
	total  int64
	picked int // the child chosen; current moves past it when its pass ends
	// weights are the shares read at the last choice, kept to be read
	// into again at the next.
	weights []float64
}

type weightedDef struct {
	weights []*element.Template // the enabled rows', in order
	random  bool
}

func BuildWeighted(c element.Builder, e *jmx.Element, d *ControllerDef) error {
	w := &weightedDef{random: e.Bool("IsRandomChoice", false)}
	for i, row := range e.Prop("Weights").Members() {
		cells := row.Members()
		// A row saved without its enabled cell counts as enabled.
		if len(cells) != 2 && (len(cells) != 3 || cells[2].Value != "true") {
			continue
		}
		t := c.Template(e, "weight "+strconv.Itoa(i+1), cells[1].Value)
		if v, ok := c.Static(t); ok {
			if _, err := strconv.ParseInt(v, 10, 64); err != nil {
				return fmt.Errorf("the weight of %q is %q, not a whole number", cells[0].Value, v)
			}
		}
		w.weights = append(w.weights, t)
	}
	d.Make = func(*Thread) Controller { return &weightedCtl{w: w} }
	return nil
}

func (w *weightedCtl) Next(vu *element.VU) Item {
	if !w.chosen {
		w.chosen = true
		i, ok := w.choose(vu)
		if !ok {
			vu.StopThread()
			return nil
		}
		w.current, w.picked = i, i
		return w.Generic.Next(vu)
	}
	s := w.Generic.Next(vu)
	if s == nil || w.current != w.picked {
		w.reset()
		for _, k := range w.kids {
			if k.c != nil {
				resetForWeighted(vu, k.c)
			}
		}
		return nil
	}
	return s
}

// reset lets this controller and the Weighted Switch Controllers directly
// under it choose again.
func (w *weightedCtl) reset() {
	w.chosen = false
	for _, k := range w.kids {
		if n, ok := k.c.(*weightedCtl); ok {
			n.reset()
		}
	}
}

// resetForWeighted resets a child controller, and those under it, for the
// next pass. A Transaction Controller drops the sample it was gathering
// (it was reached only to end the pass); in parent mode it starts again
// without ending its transaction, leaving its children as they are.
func resetForWeighted(vu *element.VU, c Controller) {
	if tc, ok := c.(*txCtl); ok {
		if tc.t.Parent {
			tc.Generic.ReInitialize(vu)
			return
		}
		tc.open, tc.res = false, report.Sample{}
	} else {
		for _, k := range c.Base().kids {
			if k.c != nil {
				resetForWeighted(vu, k.c)
			}
		}
	}
	c.TriggerEndOfLoop(vu)
}

// choose returns the index of the child to run, or false when the weights
// cannot be read (the thread then stops, as JMeter's does on the plugin's
// exception).
func (w *weightedCtl) choose(vu *element.VU) (int, bool) {
	if w.weights == nil {
		w.weights = make([]float64, len(w.w.weights))
	}
	weights := w.weights
	var sum float64
	for i, t := range w.w.weights {
		v := t.Eval(vu)
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			vu.Log.Error("a weight is not a whole number: the thread stops", "controller", w.def.Path, "weight", v)
			return 0, false
		}
		weights[i] = float64(n)
		sum += weights[i]
	}
	for i := range weights {
		weights[i] /= sum
	}
	if w.w.random {
		return randomIndex(weights, vu.Rand.Float64()), true
	}
	if w.counts == nil {
		w.counts = make([]int64, len(weights))
	}
	best, bestDiff := -1, math.SmallestNonzeroFloat64 // Java's Double.MIN_VALUE: a lag must be positive
	for i, wt := range weights {
		fact := 0.0
		if w.total > 0 {
			fact = float64(w.counts[i]) / float64(w.total)
		}
		if d := wt - fact; d > bestDiff {
			best, bestDiff = i, d
		}
	}
	if best < 0 {
		for i, wt := range weights {
			if wt > bestDiff {
				best, bestDiff = i, wt
			}
		}
	}
	if best < 0 || best >= len(w.counts) {
		vu.Log.Error("no child has a positive weight: the thread stops", "controller", w.def.Path)
		return 0, false
	}
	w.total++
	w.counts[best]++
	return best, true
}

// randomIndex draws an index by the weights (summing to 1) with r in [0, 1):
// the first whose cumulative weight passes r, so that a child of weight 0
// is never drawn, not even by r = 0. (The plugin subtracts each weight from
// r until r <= 0: the two differ only where r falls exactly on a
// cumulative weight, where the plugin draws the child before, and at
// r = 0 its first child whatever its weight.) Should rounding leave r past
// the sum, the last child with a weight is drawn.
func randomIndex(weights []float64, r float64) int {
	var cum float64
	last := 0
	for i, wt := range weights {
		if wt <= 0 {
			continue
		}
		if cum += wt; r < cum {
			return i
		}
		last = i
	}
	return last
}
