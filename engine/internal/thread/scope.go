package thread

import (
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// Scope is everything that applies to one sampler, resolved by JMeter's
// rules (its TestCompiler) when the plan is compiled. The levels of the
// tree are the sampler's own children, its parent's children, and so on up
// to the thread group's children followed by the plan's.
type Scope struct {
	// configs are the config elements in scope, nearest first: a sampler
	// takes a field from the first one that sets it.
	Configs []*jmx.Element
	// timers are nearest first; their delays are summed before the sample.
	Timers []element.Timer
	// pre-processors, post-processors and assertions run outer level
	// first, in tree order within a level.
	Pres       []element.PreProcessor
	Posts      []element.PostProcessor
	Assertions []element.Assertion
	// outputs routes samples: bit i is the plan's listener i, bit 63 the
	// run's own outputs (the -l results file, the summary), which JMeter
	// places at plan level. This is every output in scope, what a
	// non-parent Transaction Controller's sample reaches when this sampler
	// ran last.
	Outputs uint64
	// ownOutputs are the outputs this sampler's own samples reach: those
	// in scope less those of an enclosing parent-mode Transaction
	// Controller, which get the transaction's sample instead.
	OwnOutputs uint64
	// listeners are the elements the samples reach once the assertions are
	// done (Result Status Action Handlers, script listeners), in JMeter's
	// order: the nearest level first, tree order within a level. Those of
	// an enclosing parent-mode Transaction Controller get the
	// transaction's sample instead.
	Listeners []element.SampleListener
	// txs are the non-parent Transaction Controllers the samples reach.
	Txs []*ControllerDef
}

// SamplerDef is a compiled sampler with its scope.
type SamplerDef struct {
	Name    *element.Template
	Scope   *Scope
	Sampler element.Sampler
	// threadSample is set instead of sample on a sampler that runs
	// controllers of the thread (a Parallel Controller's branches).
	ThreadSample func(th *Thread, r *element.Result)
	// path are the controllers above the sampler, nearest first, ending
	// with the thread group's main loop.
	Path []*ControllerDef
}

func (*SamplerDef) samplerItem() {}
