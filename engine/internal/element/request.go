package element

// A pre-processor may change the request of the HTTP sampler it runs
// before, for that one sample: JMeter's HTTP modifiers (Modifier) change
// the running copy of the current sampler, and a script's
// sampler.getHeaderManager(), getArguments(), setPath()… reach the same
// copy, which JMeter restores once the sample is done. The first change of
// a sample takes the sampler's fields (RequestSampler.EditRequest); each
// pre-processor changes them in turn; the sample is made from them and
// they are dropped. A field is evaluated when it is first read, by a
// pre-processor or by the sample, as JMeter evaluates a sampler's ${…}
// field on its first read in a sample: a pre-processor after the others
// may still set the variables of a field they did not read. The request
// lives with the user, so no user sees another's change.

// RequestSampler is a sampler whose next request a pre-processor may
// change.
type RequestSampler interface {
	Sampler
	// EditRequest returns vu's request for the sampler's next sample, the
	// sampler's own fields when no pre-processor changed them yet.
	EditRequest(vu *VU) *Request
	// RequestURL is the URL rq is sent to, as the sample builds it
	// (JMeter's getUrl); on a field it cannot build from, the text it
	// has.
	RequestURL(vu *VU, rq *Request) string
}

// Request is an HTTP sampler's request as the pre-processors before it
// change it for its next sample.
type Request struct {
	Method, Protocol, Domain, Port, Path Field
	// HeaderManager says that a Header Manager is in scope: JMeter's
	// getHeaderManager() is null without one.
	HeaderManager bool
	Headers       []RequestHeader // the merged Header Managers'
	Args          []RequestArg
}

// RequestHeader is a header of a Request.
type RequestHeader struct {
	Name  string
	Value Field
}

// RequestArg is an argument (parameter) of a Request: Meta is "=" between
// name and value, or "" (JMeter's Argument metadata), Encode HTTPArgument's
// always-encode flag.
type RequestArg struct {
	Name, Value Field
	Encode      bool
	Meta        string
	ContentType string
}

// Field is one of a request's fields, evaluated on its first read.
type Field struct {
	t   *Template
	v   string
	set bool
}

// FieldOf is a field whose value is t's, evaluated when first read.
func FieldOf(t *Template) Field { return Field{t: t} }

// Fixed is a field of the value v.
func Fixed(v string) Field { return Field{v: v, set: true} }

// Get is the field's value, evaluated for vu on the first read.
func (f *Field) Get(vu *VU) string {
	if !f.set {
		f.v, f.set = f.t.Eval(vu), true
	}
	return f.v
}

// Set gives the field the value v.
func (f *Field) Set(v string) { f.v, f.set = v, true }
