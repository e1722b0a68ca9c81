// Package mirror is JMeter's HTTP Mirror Server (HttpMirrorServer and
// HttpMirrorThread): an HTTP server that answers each request with the
// request itself, as it came on the wire, behind a head of its own
// (HTTP/1.0, Content-Type: text/plain), and closes the connection. Some
// request headers steer the answer, as in JMeter: X-ResponseStatus (the
// status line, "200 OK" by default), X-SetHeaders (response header lines
// separated by '|'), X-ResponseLength (cuts the echo of what came with the
// head), X-SetCookie (a Set-Cookie header), X-Sleep (a pause in ms before
// the rest of the body is echoed); and on a GET, the query parameters
// status (the status line) and redirect (a 302 to that location).
//
// JMeter's own batch plans (TEST_HTTP, TestCookieManager,
// TestHeaderManager) send their requests to it and judge what it echoes.
//
// It imports only the standard library.
package mirror
