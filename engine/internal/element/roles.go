package element

import "time"

// The role contracts. Each element of a plan plays one role (JMeter's
// interfaces of the same names); the engine's table says which, and its
// builder returns a value of that role. Values are compiled once and
// shared by every virtual user: what an element keeps per user is a Local.

// Sampler makes one sample: it fills r on every path, failures included,
// as JMeter's error samples do. A sampler that makes no sample (a Flow
// Control Action) sets r.None.
type Sampler interface {
	Sample(vu *VU, r *Result)
}

// SamplerFunc is a function that samples.
type SamplerFunc func(vu *VU, r *Result)

// Sample calls f.
func (f SamplerFunc) Sample(vu *VU, r *Result) { f(vu, r) }

// Timer gives a delay before each sample in its scope; the thread sleeps
// the sum of the timers in scope.
type Timer interface {
	Delay(vu *VU) time.Duration
}

// PreProcessor runs before each sampler in its scope.
type PreProcessor interface {
	PreProcess(vu *VU)
}

// Modifier is a pre-processor that changes the request of the sampler it
// runs before, as JMeter's HTTP modifiers change the current sampler (the
// HTML Link Parser, HTTP URL Re-writing Modifier, RegEx User Parameters)
// and its scripts may (sampler.getArguments()…), through the sampler's
// Request (RequestSampler). The compiler binds it to each sampler in its
// scope: the thread calls Modify with that sampler where it would call
// PreProcess, in the same order; a sampler a modifier does not know is
// left as it is.
type Modifier interface {
	PreProcessor
	Modify(vu *VU, s Sampler)
}

// Modifying is a Modifier bound to the sampler it runs before.
type Modifying struct {
	M Modifier
	S Sampler
}

// PreProcess calls the modifier with its sampler.
func (m Modifying) PreProcess(vu *VU) { m.M.Modify(vu, m.S) }

// PostProcessor runs after each sample in its scope, before the
// assertions.
type PostProcessor interface {
	PostProcess(vu *VU, r *Result)
}

// Assertion judges a sample (and its sub-samples, as scoped): it records
// its verdict on the sample it judged (success, failure message, assertion
// results), as JMeter's JMeterThread.checkAssertions does.
type Assertion interface {
	Assert(vu *VU, r *Result)
}

// SampleListener is told of each finished sample in its scope, after the
// assertions (JMeter's SampleListener).
type SampleListener interface {
	SampleOccurred(vu *VU, r *Result)
}

// IterationListener is told when the controller it stands under starts an
// iteration (JMeter's LoopIterationListener: a CSV Data Set, a Counter).
// It may stop the virtual user (a CSV Data Set at the end of its file with
// "stop thread on EOF").
type IterationListener interface {
	IterationStart(vu *VU)
}
