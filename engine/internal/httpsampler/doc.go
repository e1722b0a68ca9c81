// Package httpsampler holds the HTTP Request sampler and the managers it
// reads in its scope: HTTP Request Defaults and Header Managers (merged
// in once, at compile time), the Authorization, DNS Cache and HTTP Cache
// Managers. It builds the request (query, form, multipart and raw
// bodies, files), makes the call through package httpx, follows
// redirects and downloads embedded resources as JMeter's HTTPSamplerBase
// does, and tells an error as JMeter's sampler would (the
// "Non HTTP response code" lines). JMeter's HTTP modifiers live here too
// (RegEx User Parameters, the HTTP URL Re-writing Modifier, the HTML Link
// Parser): pre-processors bound to the HTTP Request they run before, which
// change its fields for that one sample, through the same
// element.Request (EditRequest) a pre-processor's script changes.
//
// Two plugin samplers that extend HTTPSamplerBase are built on the same
// code: BlazeMeter's HTTP/2 Sampler (http2.go), whose requests go over
// httpx's HTTP/2 transport, and jp@gc's Parallel HTTP Requests
// (parallel.go), whose URL list is downloaded as embedded resources are.
//
// A user's HTTP state (its cache and DNS state, its parallel-download
// lanes) lives with the user; its cookie jar is the user's (package
// cookies), which its client sends from and stores in.
//
// It imports element, cookies, engine/httpx, internal/cache, internal/files (the
// files a plan may upload), internal/java, jmx and report.
package httpsampler
