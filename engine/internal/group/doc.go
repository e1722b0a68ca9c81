// Package group runs thread groups: when each virtual user of a group
// starts and stops. JMeter's Thread Group (ramp-up, scheduler, startup
// delay, delayed thread creation) and setUp/tearDown groups, the
// jmeter-plugins load shapes (Ultimate, Stepping, Concurrency, Arrivals,
// Free-Form Arrivals) and JMeter 5.6's Open Model Thread Group, each a
// Model built from its row in the engine's element table.
//
// The engine compiles a group (Group: its fields as templates, its main
// loop over its children) and runs its phases; a group's Run is the group
// in one run of the plan: its counts, its stop switches, the state its
// users share, and what Status and ArrivalStatus report while it runs.
// Each user is a thread (package thread); the groups whose main loop is
// their own (the plugins' VirtualUserController, the Open Model's one
// pass) extend thread.Generic. Arrival-rate groups time an iteration's
// first sample from its intended start (coordinated omission; see
// arrivals.go).
//
// It imports element, thread, internal/java (the Open Model's seeded
// java.util.Random) and jmx.
package group
