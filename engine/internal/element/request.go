package element

// A script in a pre-processor reaches the request of the sampler it runs
// before (JMeter's sampler.getHeaderManager(), getArguments(), getPath()…)
// and may change it: the change reaches that one request, as JMeter merges
// the Header Manager and the arguments into the sampler for one sample and
// forgets them after. The request lives with the user, so no user sees
// another's change.

// Request is the request of an HTTP sampler about to sample, its fields
// evaluated for the user.
type Request struct {
	Method, Protocol, Domain, Port, Path string
	// HeaderManager says that a Header Manager is in scope: JMeter's
	// getHeaderManager() is null without one.
	HeaderManager bool
	Headers       []RequestField
	Args          []RequestArg
}

// RequestField is a header of a Request.
type RequestField struct{ Name, Value string }

// RequestArg is an argument (parameter) of a Request: Meta is "=" between
// name and value, or "" (JMeter's Argument metadata).
type RequestArg struct {
	Name, Value string
	Encode      bool
	Meta        string
	ContentType string
}

// RequestSampler is a sampler whose request a script may read and change.
type RequestSampler interface {
	Sampler
	// Request evaluates the sampler's request for vu into r.
	Request(vu *VU, r *Request)
}

// sampling is what a user knows of the sampler it is about to run.
type sampling struct {
	s       Sampler
	req     Request
	loaded  bool // req holds s's request
	changed bool // a script changed req
}

// Sampling records that vu is about to run s; the thread calls it before
// the pre-processors of s.
func Sampling(vu *VU, s Sampler) {
	st := vu.Plan.requests.Get(vu)
	st.s, st.loaded, st.changed = s, false, false
}

// SamplerRequest returns the request of the sampler vu is about to run, to
// read or change (call RequestChanged after a change); nil when that
// sampler has none.
func SamplerRequest(vu *VU) *Request {
	st := vu.Plan.requests.Peek(vu)
	if st == nil || st.s == nil {
		return nil
	}
	if !st.loaded {
		rs, ok := st.s.(RequestSampler)
		if !ok {
			return nil
		}
		st.req = Request{Headers: st.req.Headers[:0], Args: st.req.Args[:0]}
		rs.Request(vu, &st.req)
		st.loaded = true
	}
	return &st.req
}

// RequestChanged marks the request SamplerRequest returned as changed.
func RequestChanged(vu *VU) {
	if st := vu.Plan.requests.Peek(vu); st != nil && st.loaded {
		st.changed = true
	}
}

// ChangedRequest returns the request a script changed for s, which s
// then sends, and forgets it: nil when no script changed it.
func ChangedRequest(vu *VU, s Sampler) *Request {
	st := vu.Plan.requests.Peek(vu)
	if st == nil || !st.changed || st.s != s {
		return nil
	}
	st.changed, st.s = false, nil
	return &st.req
}
