package scripting

import (
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/script"
)

// A pre-processor's script sees the request of the HTTP sampler it runs
// before (sampler.getHeaderManager(), getArguments(), getPath()…); what it
// changes goes back to the user's copy of that request, which the sampler
// then sends.

// loadRequest gives env the request of the sampler vu is about to run, if
// it has one.
func (st *scriptVU) loadRequest(vu *element.VU, env *script.Env) {
	r := element.SamplerRequest(vu)
	if r == nil {
		return
	}
	q := &st.req
	*q = script.Request{Method: r.Method, Protocol: r.Protocol, Domain: r.Domain, Port: r.Port, Path: r.Path,
		HeaderManager: r.HeaderManager, Headers: q.Headers[:0], Args: q.Args[:0]}
	for _, h := range r.Headers {
		q.Headers = append(q.Headers, script.Header{Name: h.Name, Value: h.Value})
	}
	for _, a := range r.Args {
		q.Args = append(q.Args, script.Arg{Name: a.Name, Value: a.Value, Meta: a.Meta, ContentType: a.ContentType, Encode: a.Encode})
	}
	env.Request = q
}

// storeRequest hands a script's change of the request back to the sampler.
func (st *scriptVU) storeRequest(vu *element.VU, env *script.Env) {
	q := env.Request
	if q == nil || !q.Changed {
		return
	}
	r := element.SamplerRequest(vu)
	if r == nil {
		return
	}
	r.Method, r.Protocol, r.Domain, r.Port, r.Path = q.Method, q.Protocol, q.Domain, q.Port, q.Path
	r.Headers, r.Args = r.Headers[:0], r.Args[:0]
	for _, h := range q.Headers {
		r.Headers = append(r.Headers, element.RequestField{Name: h.Name, Value: h.Value})
	}
	for _, a := range q.Args {
		r.Args = append(r.Args, element.RequestArg{Name: a.Name, Value: a.Value, Meta: a.Meta, ContentType: a.ContentType, Encode: a.Encode})
	}
	element.RequestChanged(vu)
}
