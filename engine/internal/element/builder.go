package element

import (
	"errors"
	"fmt"

	"github.com/gojm/gojm/internal/files"
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
	// Warn records something of e that gojm runs leniently, as JMeter does,
	// and the user should know (a data file that is not there, a value
	// JMeter reads as its default): listed by gojm validate and when a run
	// starts, a refusal with --strict. The message says what gojm does and
	// what to do.
	Warn(e *jmx.Element, msg string)
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
	// samples, or an element of the plan reads a previous sample's
	// response (a body nobody reads need not be kept).
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

// Input locates a file e reads, named in the plan, when the plan compiles
// (what is "CSV Data Set file" or the like; then says what e does without
// the file, as JMeter does). A file outside the folders the plan may read
// fails e; one that is absent is a warning, and "" is returned; a file of
// the same name found beside the plan or in the working folder is read
// instead, with a warning that says so.
func Input(b Builder, e *jmx.Element, what, name, then string) string {
	path, warning, err := FindInput(b.Plan(), what, name, then)
	if err != nil {
		b.Fail(e, err)
	}
	if warning != "" {
		b.Warn(e, warning)
	}
	return path
}

// FindInput is Input for callers that are not builders (a function being
// compiled): the file to read ("" when there is none), the warning to
// give ("" when none) and the refusal (a file outside the folders the plan
// may read).
func FindInput(p *Plan, what, name, then string) (path, warning string, err error) {
	f, err := p.Files.Find(name)
	switch {
	case errors.Is(err, files.ErrDenied):
		return "", "", fmt.Errorf("%s: %w", what, err)
	case err != nil:
		return "", fmt.Sprintf("%s %v: %s", what, err, then), nil
	case f.Where != "":
		return f.Path, fmt.Sprintf("%s %q is not there (%s): reading the file of that name %s instead, %s", what, name, f.Named, f.Where, f.Path), nil
	}
	return f.Path, "", nil
}
