// Package sampler holds the samplers that are not a protocol's: the Flow
// Control Action (which makes no sample and asks the thread for a loop
// action or a stop), the Debug Sampler, the Java Request's JavaTest, and
// jmeter-plugins' Dummy Sampler and Set Variables Action.
//
// It imports element, config (the Set Variables Action's table),
// internal/java (Long.decode) and jmx.
package sampler
