// Package timer holds JMeter's timers: Constant, Uniform, Gaussian and
// Poisson Random, Constant Throughput, Precise Throughput, Synchronizing,
// and jmeter-plugins' Throughput Shaping Timer with its ${__tstFeedback()}
// function. A timer gives a delay before each sample in its scope; the
// thread sleeps the sum. The throughput timers keep their schedules per
// run and per thread group (element.Shared, element.GroupShared), and a
// seeded one draws JMeter's very schedule (java.util.Random).
//
// It imports element, function (the feedback function's signature),
// internal/java and jmx.
package timer
