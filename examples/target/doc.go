// Package target is the small HTTP server that gojm's examples run against
// and that its tests use as a known, recordable peer.
//
// A Server answers three kinds of request:
//
//   - ordinary endpoints: an HTTP mirror at / and /mirror/... that answers
//     with the raw request it received (like JMeter's HTTP Mirror Server,
//     including its X-ResponseStatus, X-SetHeaders, X-SetCookie, X-Sleep and
//     X-ResponseLength request headers and its status= and redirect= query
//     parameters), /fast, /sleep, /big, /status/{code}, /json, /login,
//     /books, /grails-slc/book/list[Cached], /redirect/{n} and
//     /redirect-loop;
//   - faults under /fault/...: resets before and during the body, a
//     keep-alive connection closed by the server, slow headers, a trickling
//     body, a malformed status line, a malformed header, a broken chunked
//     body and a huge generated body;
//   - every request is recorded (method, target, headers in received order
//     with their exact names, body, remote address, connection id) by a
//     Recorder, whose Count is the number of requests the server saw.
//
// Faults that need no HTTP server at all (a refused port, a failing TLS
// handshake, an unresolvable host) are helpers: RefusedAddr, StartBadTLS and
// UnknownHost.
//
// A Server only listens on loopback addresses unless Options.AllowRemote is
// set. The endpoints are documented on Server.
package target
