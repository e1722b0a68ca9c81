// Package engine runs a JMeter test plan.
//
// Compile turns a loaded plan (package jmx) into an immutable tree shared by
// every virtual user: each element's test class is looked up in one table
// (elements.go), each sampler's scope is resolved by JMeter's rules, and
// every field that may hold ${…} is compiled into a Template once. Start
// then runs the thread groups: each virtual user is a goroutine with its own
// variables, HTTP client and instances of its group's controllers, which it
// asks for one sampler after another as JMeter's threads do (controllers.go),
// handing its samples in batches to one collector goroutine that feeds the
// sinks (package report).
//
// A run stops in two steps: Stop lets running samples finish and starts no
// new one; Abort cancels running requests too.
package engine
