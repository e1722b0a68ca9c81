package element

import (
	"errors"

	"github.com/gojm/gojm/jmx"
)

// Builder is what an element's builder may ask of the compiler while the
// plan compiles. Builders run once per element (a Module Controller's
// target compiles once and runs in each place it is called from) and
// share nothing but what Once, Local and Shared hand out.
type Builder interface {
	// Prop compiles e's property name as a template.
	Prop(e *jmx.Element, name string) *Template
	// Template compiles text, which stands in field of e. A malformed
	// ${…} is recorded as a failure of e; the field then keeps its text.
	Template(e *jmx.Element, field, text string) *Template
	// Static evaluates t while compiling, with the properties and the
	// user-defined variables known so far (for checks such as "does the
	// CSV file exist"); false when its value is only known during the run.
	Static(t *Template) (string, bool)
	// Fail records a problem of e: the plan does not run.
	Fail(e *jmx.Element, err error)
	// Refuse records that gojm cannot run e, for reason: the plan does not
	// run unless unsupported elements are skipped.
	Refuse(e *jmx.Element, reason string)
	// Plan is the plan being compiled: its properties, files and log, and
	// where Local, Shared and Once hand out their state.
	Plan() *Plan
}

// ErrUnsupported is wrapped by the errors of elements gojm cannot run, and
// of functions and scripts it refuses.
var ErrUnsupported = errors.New("unsupported element")

// InScope is what a sampler's builder may know of its scope.
type InScope struct {
	// Configs are the config elements in scope, nearest first: a sampler
	// takes a field from the first one that sets it.
	Configs []*jmx.Element
	// Read reports that post-processors or assertions look at the
	// samples (a body nobody reads need not be kept).
	Read bool
}

// Of returns the configs in scope with the given test class, nearest first.
func (s InScope) Of(class string) []*jmx.Element {
	var out []*jmx.Element
	for _, e := range s.Configs {
		if e.Class == class {
			out = append(out, e)
		}
	}
	return out
}

// PropOr compiles e's property name, or def when the plan leaves it empty.
func PropOr(b Builder, e *jmx.Element, name, def string) *Template {
	return b.Template(e, name, e.StrOr(name, def))
}
