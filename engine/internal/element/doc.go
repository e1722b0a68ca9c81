// Package element is the seam every element family of the engine builds
// on: the virtual user (VU) and what it carries (variables, properties,
// its random source, the sample being made), templates (${…} fields,
// compiled once), the sample result, the one "what next" value (Next), the
// role contracts (Sampler, Timer, PreProcessor and Modifier, PostProcessor,
// Assertion, SampleListener, IterationListener), the request of an HTTP
// sampler a pre-processor changes for its next sample (Request), what a
// builder may ask of the compiler (Builder), and the state an element
// owns: per user (Local), per run (Shared), per thread group in a run
// (GroupShared) and per plan while it compiles (Once).
//
// An element never adds a field to VU: what it keeps per user is a Local
// it was handed when the plan compiled. That keeps VU small and lets a new
// element be a package and a row in the engine's table.
//
// It imports jmx (the plan's elements), report (the sample), httpx (the
// response header a sample carries), internal/files (where a plan may read
// and write) and the standard library.
package element
