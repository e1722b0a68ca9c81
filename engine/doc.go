// Package engine runs a JMeter test plan.
//
// Compile turns a loaded plan (package jmx) into an immutable tree shared by
// every virtual user: each element's test class is looked up in one table
// (elements), whose row names the family package that builds it; each
// sampler's scope is resolved by JMeter's rules; every field that may hold
// ${…} is compiled into a Template once. Start then runs the phases
// (setUp, main, tearDown groups) through package group: each virtual user
// is a goroutine with its own variables, HTTP client and instances of its
// group's controllers, which it asks for one sampler after another as
// JMeter's threads do (package thread), handing its samples in batches to
// one collector goroutine that feeds the sinks (package report).
//
// A run stops in two steps: Stop lets running samples finish and starts no
// new one; Abort cancels running requests too.
//
// The engine holds the public face (Compile, Options, Plan, Start, Run),
// the element table, the tree walk and scopes, and the run's phases. The
// seam every family builds on is engine/internal/element; the families are
// the other packages under engine/internal. docs/architecture.md draws the
// layers.
package engine
