package element

import (
	"github.com/gojm/gojm/engine/httpx"
	"github.com/gojm/gojm/report"
)

// Result is a sample being made: the JTL row, with what post-processors,
// assertions and listeners may look at besides it. A virtual user reuses
// one for every sample; Reset clears it, keeping the body's storage.
type Result struct {
	report.Sample
	Body []byte
	Head httpx.Head // the response header, when the sample has one
	// ReqHead is the request's header fields as sent, one "Name: value\n"
	// each; read it with RequestHeaders, as a sampler may leave it to
	// ReqHeadOf, which makes it when something first asks.
	ReqHead   string
	ReqHeadOf func() string
	// SamplerData is what the sampler says it sent, for XML results
	// (JMeter's samplerData); "" for none.
	SamplerData string
	// Sent is what an HTTP sample sent, for its sampler data as JMeter's
	// HTTPSampleResult.getSamplerData writes it; Method is "" for a
	// sample that is not HTTP.
	Sent Sent
	// MsgSet records that an assertion has set the failure message: the
	// JTL keeps the first one set, even an empty one.
	MsgSet bool
	// None: the sampler made no sample (a Flow Control Action); Ignore: a
	// post-processor asked that the sample be dropped.
	None, Ignore bool
	// Next is what the sample asks of the thread (a Result Status Action
	// Handler, a script, a Flow Control Action).
	Next Next
}

// RequestHeaders returns ReqHead, made by ReqHeadOf on the first call
// when the sampler left it to be made on demand. ReqHeadOf reads the
// sampler's last request: it must be called before the user's next sample.
func (r *Result) RequestHeaders() string {
	if r.ReqHeadOf != nil {
		r.ReqHead, r.ReqHeadOf = r.ReqHeadOf(), nil
	}
	return r.ReqHead
}

// SetRequestHeaders sets ReqHead, in place of what ReqHeadOf would make.
func (r *Result) SetRequestHeaders(h string) { r.ReqHead, r.ReqHeadOf = h, nil }

// Reset makes r empty for the next sample.
func (r *Result) Reset() {
	*r = Result{Body: r.Body[:0]}
}

// Sent is what an HTTP request sent besides its URL: the method, the
// Cookie header the Cookie Manager added and the query string (the body
// of a request that has one, else "", as JMeter 5.6 sets it). Query may alias the
// user's request buffer: it is read while the sample is processed.
type Sent struct {
	Method, Cookies, Query string
	// QueryOf, when set, makes Query on the first QueryString call (a
	// multipart body's is built only if something reads it).
	QueryOf func() string
}

// QueryString returns Query, made by QueryOf on the first call when the
// sampler left it to be made on demand; as ReqHeadOf, it reads the
// sampler's last request and must be called before the user's next sample.
func (s *Sent) QueryString() string {
	if s.QueryOf != nil {
		s.Query, s.QueryOf = s.QueryOf(), nil
	}
	return s.Query
}
