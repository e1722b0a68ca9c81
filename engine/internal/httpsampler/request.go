package httpsampler

import (
	"strings"

	"github.com/gojm/gojm/engine/internal/element"
)

// Request is the sampler's request as a script sees it before the sample
// (JMeter's HTTPSamplerBase getters): the fields evaluated for vu, the
// merged Header Managers' headers and the arguments.
func (h *httpSampler) Request(vu *element.VU, r *element.Request) {
	r.Method = strings.TrimSpace(h.method.Eval(vu))
	if r.Method == "" {
		r.Method = "GET"
	}
	r.Protocol, r.Domain = h.protocol.Eval(vu), h.domain.Eval(vu)
	r.Port, r.Path = h.port.Eval(vu), h.path.Eval(vu)
	r.HeaderManager = h.headerManager
	for _, hd := range h.headers {
		r.Headers = append(r.Headers, element.RequestField{Name: hd.name, Value: hd.value.Eval(vu)})
	}
	for _, a := range h.args {
		r.Args = append(r.Args, element.RequestArg{Name: a.name.Eval(vu), Value: a.value.Eval(vu), Encode: a.encode,
			Meta: a.meta, ContentType: a.contentType})
	}
}

// editedURL is the URL of a request a script changed, built as url builds
// the sampler's.
func editedURL(r *element.Request) (string, error) {
	path := strings.TrimSpace(r.Path)
	if strings.HasPrefix(path, "http://") || strings.HasPrefix(path, "https://") {
		return path, nil
	}
	proto := strings.ToLower(strings.TrimSpace(r.Protocol))
	if proto == "" {
		proto = "http"
	}
	return joinURL(proto, strings.TrimSpace(r.Domain), strings.TrimSpace(r.Port), path)
}
