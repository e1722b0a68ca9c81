// Package elementtest builds elements in memory for the tests of the
// element families: a Builder that compiles real templates (with the
// function package's functions), virtual users of one run, plan elements
// from name/value pairs, and a response-like sample. It is imported by
// tests only.
//
// It imports element, function, jmx, report and httpx.
package elementtest
