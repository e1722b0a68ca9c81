package scripting

import (
	"strings"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/script"
)

// A pre-processor's script sees the request of the HTTP sampler it runs
// before (sampler.getHeaderManager(), getArguments(), getPath()…) as the
// HTTP modifiers do: the user's request for that sampler's next sample
// (element.RequestSampler), taken when the script first reads it, each
// field evaluated when it is first read, a change made in place.

// samplerRequest is script.Request over the request of the sampler a
// pre-processor runs before.
type samplerRequest struct {
	vu      *element.VU
	s       element.RequestSampler
	rq      *element.Request // nil until the script reads the request
	headers []script.Header
	args    []script.Arg
}

// requestFor gives env the request of s, when s has one.
func (st *scriptVU) requestFor(vu *element.VU, s element.Sampler, env *script.Env) {
	rs, ok := s.(element.RequestSampler)
	if !ok {
		return
	}
	q := &st.req
	q.vu, q.s, q.rq = vu, rs, nil
	env.Request = q
	env.SamplerClass = httpSamplerClass
}

func (q *samplerRequest) request() *element.Request {
	if q.rq == nil {
		q.rq = q.s.EditRequest(q.vu)
	}
	return q.rq
}

func (q *samplerRequest) field(name string) *element.Field {
	rq := q.request()
	switch name {
	case "method":
		return &rq.Method
	case "protocol":
		return &rq.Protocol
	case "domain":
		return &rq.Domain
	case "port":
		return &rq.Port
	}
	return &rq.Path
}

func (q *samplerRequest) Field(name string) string {
	v := q.field(name).Get(q.vu)
	if name == "method" && strings.TrimSpace(v) == "" {
		return "GET" // as the sampler sends a blank method
	}
	return v
}

func (q *samplerRequest) SetField(name, v string) { q.field(name).Set(v) }

func (q *samplerRequest) URL() string { return q.s.RequestURL(q.vu, q.request()) }

func (q *samplerRequest) HeaderManager() bool { return q.request().HeaderManager }

func (q *samplerRequest) Headers() []script.Header {
	rq := q.request()
	q.headers = q.headers[:0]
	for i := range rq.Headers {
		h := &rq.Headers[i]
		q.headers = append(q.headers, script.Header{Name: h.Name, Value: h.Value.Get(q.vu)})
	}
	return q.headers
}

func (q *samplerRequest) SetHeaders(hs []script.Header) {
	rq := q.request()
	rq.Headers = rq.Headers[:0]
	for _, h := range hs {
		rq.Headers = append(rq.Headers, element.RequestHeader{Name: h.Name, Value: element.Fixed(h.Value)})
	}
}

func (q *samplerRequest) Args() []script.Arg {
	rq := q.request()
	q.args = q.args[:0]
	for i := range rq.Args {
		a := &rq.Args[i]
		q.args = append(q.args, script.Arg{Name: a.Name.Get(q.vu), Value: a.Value.Get(q.vu), Meta: a.Meta,
			ContentType: a.ContentType, Encode: a.Encode})
	}
	return q.args
}

func (q *samplerRequest) SetArgs(as []script.Arg) {
	rq := q.request()
	rq.Args = rq.Args[:0]
	for _, a := range as {
		rq.Args = append(rq.Args, element.RequestArg{Name: element.Fixed(a.Name), Value: element.Fixed(a.Value),
			Encode: a.Encode, Meta: a.Meta, ContentType: a.ContentType})
	}
}
