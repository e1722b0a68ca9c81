package engine

import (
	"fmt"

	"github.com/gojm/gojm/jmx"
)

// Warning is something of the plan that gojm runs leniently, as JMeter
// does, and that the user should know: a data file that is not there, a
// value JMeter reads as its default, an element that only reports. Every
// element family records its warnings through element.Builder's Warn, with
// the element's place in the tree; gojm validate lists them, a run prints
// them before it starts, and Options.Strict makes each one a refusal.
type Warning struct {
	File    string // the plan file the element is in
	Path    string // the element's place in the tree, "Test Plan › Users › Login"
	Class   string
	Message string // what gojm does, and what to do
}

func (w Warning) String() string { return w.Path + ": " + w.Message }

// Warn records a warning of e (element.Builder).
func (c *compiler) Warn(e *jmx.Element, msg string) {
	w := Warning{File: e.File, Path: e.Path(), Class: e.Class, Message: msg}
	for _, x := range c.compiled.Warnings {
		if x == w {
			return // a Module Controller compiles its target's fields again
		}
	}
	c.compiled.Warnings = append(c.compiled.Warnings, w)
}

// strictWarnings turns every warning into a compile error (--strict, for
// CI: a plan that runs only by JMeter's leniency does not run).
func (c *compiler) strictWarnings() {
	for _, w := range c.compiled.Warnings {
		c.errs = append(c.errs, &jmx.Error{File: w.File, Path: w.Path,
			Err: fmt.Errorf("%s (a warning; --strict makes warnings refusals)", w.Message)})
	}
}

// templateWarnings records the warnings of the functions compiled in a
// field of e (a ${__CSVRead(…)} whose file is not there).
func (c *compiler) templateWarnings(e *jmx.Element, field string) {
	for _, msg := range c.tp.TakeWarnings() {
		c.Warn(e, field+": "+msg)
	}
}
