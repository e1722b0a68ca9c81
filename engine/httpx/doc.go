// Package httpx is the HTTP client of one virtual user: one connection pool,
// one cookie jar, exact wire byte counts and JMeter's timings (latency to the
// first response byte with connect included, connect time zero on a reused
// connection). It sends the headers it is given and, over HTTP/1.1 where
// they lack one, JMeter's HttpClient 4's Connection and User-Agent (no
// Accept-Encoding of its own), follows redirects only when asked, answers
// Basic and Digest challenges, resolves names through a plan's DNS table and
// decodes gzip and deflate bodies it keeps.
//
// A Lane serves one request at a time, as a JMeter thread does; a Client's
// main lane serves the virtual user, and further lanes (parallel downloads
// of embedded resources) share its connections and cookies.
//
// Requests go over the client's own HTTP/1.1 transport (h1.go): each
// exchange runs on the lane's goroutine, on the connection the lane kept
// from its last one, so a virtual user is one goroutine and one socket,
// with a 4 KiB read buffer from a pool only while a response is read (a
// request sent with its read waits without one), and a request costs a
// write, a read and usually one allocation, the response head's text. On Linux a plain connection's
// reads and writes are raw system calls through Go's poller
// (rawio_linux.go), a request goes out inside the wait for its response,
// which saves a failed read, and a read that finds nothing spins briefly
// while other responses keep arriving (spin_linux.go, whose epoll instance
// the first such connection makes). Race-detector builds run the same
// code; only the read and write calls themselves go through package
// syscall there, so that the detector sees what crosses a socket
// (sysio_race_linux.go). It writes what net/http writes and reads
// responses with net/http's parser, or its own for the usual head, whose
// fields stay that text until something asks for a map (Head). It can keep
// the request head it wrote and the Cookie header it added, for results
// files that save them.
//
// A request may ask for HTTP/2 instead (Request.Protocol, h2.go): it then
// goes over net/http's Transport, HTTP/2 where TLS's ALPN agrees (or, for
// H2C, in clear text with prior knowledge) and HTTP/1.1 elsewhere, with
// the same headers, cookies, credentials and timings. A client's HTTP/2
// streams to one host share one connection, so their bytes are counted
// as their HTTP/1.1 text would be, not as the frames on the wire.
//
// # Imports
//
// The package imports the standard library, two packages of
// golang.org/x/net and resty, and no other package of gojm:
//
//   - from the standard library, net/http's exported API only, nothing
//     reached through a linkname: its Request, Response and Header types,
//     its Transport for requests that may go over HTTP/2,
//     http.ReadResponse for every response head fastHead does not parse,
//     net/http/httptrace for the timing hooks, http.ParseSetCookie for
//     the jar's Set-Cookie lines (jar.go: JMeter's Cookie Manager list,
//     matched as HttpClient 4's RFC 6265 spec matches); syscall (and unsafe, for the raw calls' buffers) for the socket
//     calls of rawio_linux.go, spin_linux.go, sysio_*.go and
//     alive_unix.go. What net/http keeps unexported (how it writes a
//     request, canonicalAddr, removeZone) is written out again in h1.go
//     and h1_write.go.
//   - golang.org/x/net/http/httpguts and golang.org/x/net/idna, the
//     packages net/http itself uses (vendored) to validate header names,
//     values and hosts and to put host names in ASCII, so that h1 accepts
//     and refuses what net/http does.
//   - github.com/go-resty/resty/v2, only for requests whose redirects the
//     client follows itself (Request.AutoRedirects): resty and an
//     http.Client, with h1 as their transport, apply JMeter's redirect
//     rules (client.go, redirecting). Every other request goes straight to
//     h1.
//
// It is the only package of gojm that imports resty, and the engine's
// only way to send a sampler's request.
package httpx
