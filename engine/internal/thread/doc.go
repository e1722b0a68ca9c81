// Package thread is JMeter's thread and its logic controllers: a virtual
// user's walk through its thread group's compiled tree (JMeterThread), and
// every controller as JMeter's GenericController and its subclasses run it
// (Loop, While, If, Transaction, Once Only, Interleave, Random, Random
// Order, Throughput, Runtime, ForEach, Switch, Critical Section,
// Parameterized, BlazeMeter's Weighted Switch), the Parallel Controller,
// and the Result Status Action Handler, which asks the thread what to do
// after a failed sample.
//
// The engine's compiler builds the tree (ControllerDef, SamplerDef and
// the Scope of each sampler, shared by every user); each user's thread
// makes its own instances of the controllers (Controller) and runs the
// samplers with their timers, pre- and post-processors, assertions and
// listeners. Controller and Generic are exported with JMeter's method
// names so that a thread group with a main loop of its own (package
// group) extends Generic as jmeter-plugins extend GenericController.
//
// It imports element, config (the Parameterized Controller's variables),
// function (the If Controller's conditions), jmx and report.
package thread
