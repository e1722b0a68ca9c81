package httpsampler

import (
	"strings"

	"github.com/gojm/gojm/engine/httpx"
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// This file is BlazeMeter's HTTP/2 Sampler (jmeter-http2-plugin 2.x,
// com.blazemeter.jmeter.http2.sampler.HTTP2Sampler). It extends JMeter's
// HTTPSamplerBase, so it has the HTTP Request's fields, managers,
// redirects and embedded resources; only its client differs: Jetty's,
// which offers h2 and http/1.1 by ALPN on TLS and speaks HTTP/1.1 in
// clear text, keeps its connections whatever "Use KeepAlive" says, and
// adds no header of its own.

// BuildHTTP2 builds BlazeMeter's HTTP/2 Sampler.
func BuildHTTP2(c element.Builder, e *jmx.Element, sc element.InScope) (element.Sampler, error) {
	h, err := build(c, e, sc)
	if err != nil {
		return nil, err
	}
	h.proto = httpx.HTTP2
	if e.Bool("HTTP2Sampler.http2PriorKnowledge", false) {
		h.proto = httpx.H2C // later versions of the plugin: HTTP/2 without TLS
	}
	if e.Bool("HTTP2Sampler.http1_upgrade", false) && h.proto != httpx.H2C {
		c.Warn(e, "the HTTP/1.1 upgrade to HTTP/2 (h2c) is not offered: requests to http:// URLs go over HTTP/1.1, "+
			"as when a server declines it; set HTTP2Sampler.http2PriorKnowledge to true for HTTP/2 without TLS")
	}
	h.keepAlive = true // Jetty's pool keeps connections; the plugin never reads use_keepalive
	if h.auth != nil {
		// The plugin hands Jetty the entries that name a URL, Basic ones
		// sent before any challenge only when httpJettyClient.auth.preemptive
		// says so.
		h.auth.preemptive = false
		if v, ok := c.Plan().Props.Get("httpJettyClient.auth.preemptive"); ok {
			h.auth.preemptive = strings.EqualFold(strings.TrimSpace(v), "true")
		}
		kept := h.auth.entries[:0]
		for _, a := range h.auth.entries {
			if strings.TrimSpace(a.url.Raw()) != "" {
				kept = append(kept, a)
			}
		}
		h.auth.entries = kept
		if len(kept) == 0 {
			h.auth = nil
		}
	}
	return h, nil
}

// http2Method reports whether the plugin's client sends the method.
func http2Method(m string) bool {
	switch m {
	case "GET", "POST", "PUT", "PATCH", "OPTIONS", "DELETE":
		return true
	}
	return false
}

// http2BodyType is the Content-Type Jetty's client gives a body the plan
// gives none (HttpClient's default request content type).
const http2BodyType = "application/octet-stream"
