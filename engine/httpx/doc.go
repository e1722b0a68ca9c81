// Package httpx is the HTTP client of one virtual user: one connection pool,
// one cookie jar, exact wire byte counts and JMeter's timings (latency to the
// first response byte with connect included, connect time zero on a reused
// connection). It sends exactly the headers it is given (no User-Agent or
// Accept-Encoding of its own), follows redirects only when asked, answers
// Basic and Digest challenges, resolves names through a plan's DNS table and
// decodes gzip and deflate bodies it keeps. It is the only package that knows
// the HTTP library in use.
//
// A Lane serves one request at a time, as a JMeter thread does; a Client's
// main lane serves the virtual user, and further lanes (parallel downloads
// of embedded resources) share its connections and cookies.
//
// Requests go over the client's own HTTP/1.1 transport (h1.go): each
// exchange runs on the lane's goroutine, on the connection the lane kept
// from its last one, so a virtual user is one goroutine, one socket and a
// 4 KiB read buffer, and a request costs a write, a read and usually one
// allocation, the response head's text. On Linux a plain connection's
// reads and writes are raw system calls through Go's poller
// (rawio_linux.go), a request goes out inside the wait for its response,
// which saves a failed read, and a read that finds nothing spins briefly
// while other responses keep arriving (spin_linux.go). It writes what net/http
// writes and reads responses with net/http's parser, or its own for the
// usual head, whose fields stay that text until something asks for a map
// (Head). It can keep the request head it wrote and the Cookie header it
// added, for results files that save them. Only redirects the client
// follows itself go through resty and net/http's Client, which the same
// transport serves.
package httpx
