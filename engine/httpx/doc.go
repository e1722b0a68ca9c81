// Package httpx is the HTTP client of one virtual user: one connection pool,
// one cookie jar, exact wire byte counts and JMeter's timings (latency to the
// first response byte with connect included, connect time zero on a reused
// connection). It is the only package that knows the HTTP library in use.
//
// A Client serves one request at a time, as a JMeter thread does; the engine
// gives every virtual user its own.
package httpx
