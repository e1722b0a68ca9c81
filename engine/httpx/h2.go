package httpx

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/go-resty/resty/v2"
)

// This file is the client's second transport: net/http's, for requests
// that may go over HTTP/2 (BlazeMeter's HTTP/2 Sampler). Such a request
// goes over HTTP/2 on a TLS connection whose ALPN the server agrees to,
// over HTTP/1.1 on one where it does not, and over HTTP/1.1 to an http://
// URL unless the request asks for HTTP/2 with prior knowledge (H2C). The
// client's streams to one host share one connection, as the plugin's
// Jetty client multiplexes them.

// Protocol is how a request goes out.
type Protocol uint8

const (
	// HTTP1 is the client's own HTTP/1.1 transport (h1.go).
	HTTP1 Protocol = iota
	// HTTP2 is net/http's transport: HTTP/2 where TLS's ALPN agrees, else
	// HTTP/1.1; HTTP/1.1 to http:// URLs.
	HTTP2
	// H2C is HTTP2, and HTTP/2 without TLS (prior knowledge) to http:// URLs.
	H2C
)

// h2 is one client's pair of net/http transports: alpn for https (and
// http:// over HTTP/1.1), clear for HTTP/2 with prior knowledge.
type h2 struct {
	alpn, clear *http.Transport
}

// newH2 makes the transports. They send exactly the headers they are
// given (no Accept-Encoding of their own: compression off, bodies decoded
// by readBody as the plan's headers asked), use no proxy, trust every
// certificate as JMeter does, and dial through the lane's settings.
func newH2() *h2 {
	mk := func(p *http.Protocols) *http.Transport {
		return &http.Transport{
			DialContext:         dialH2,
			TLSClientConfig:     trustAll.Clone(),
			DisableCompression:  true,
			MaxIdleConnsPerHost: 32,
			IdleConnTimeout:     60 * time.Second,
			Protocols:           p,
		}
	}
	var alpn, clear http.Protocols
	alpn.SetHTTP1(true)
	alpn.SetHTTP2(true)
	clear.SetUnencryptedHTTP2(true)
	return &h2{alpn: mk(&alpn), clear: mk(&clear)}
}

// RoundTrip sends r over the transport its lane's request asks for and
// counts what crossed: HTTP/2 frames its headers (HPACK) and multiplexes
// streams on one connection, so a request's bytes are counted as their
// HTTP/1.1 text would be, the same measure either way: the request line
// and header fields plus the body, and the status line and header
// fields plus the body as it arrived (before any decoding). A request that
// found no connection sent nothing.
func (t *h2) RoundTrip(r *http.Request) (*http.Response, error) {
	l, _ := r.Context().Value(laneKey{}).(*Lane)
	tr := t.alpn
	if r.URL.Scheme == "http" && l != nil && l.req != nil && l.req.Protocol == H2C {
		tr = t.clear
	}
	resp, err := tr.RoundTrip(r)
	if l == nil {
		return resp, err
	}
	if l.reused || !l.gotConn.IsZero() {
		l.written.Add(requestSize(r)) // it went out on the connection it got
	}
	if resp != nil {
		l.read.Add(ResponseHeadSize(resp))
		resp.Body = &countedBody{rc: resp.Body, n: &l.read}
	}
	return resp, err
}

func (t *h2) closeIdle() {
	t.alpn.CloseIdleConnections()
	t.clear.CloseIdleConnections()
}

// dialH2 connects for a lane's request as dialLane does, without the
// counting that credits an HTTP/1.1 connection's bytes to one lane: an
// HTTP/2 connection carries several lanes' streams at once.
func dialH2(ctx context.Context, network, addr string) (net.Conn, error) {
	d, resolve, ctx, cancel := laneDial(ctx)
	defer cancel()
	return dial(ctx, d, network, addr, resolve)
}

// requestSize is the length of r as HTTP/1.1 text would carry it.
func requestSize(r *http.Request) int64 {
	n := len(r.Method) + 1 + len(r.URL.RequestURI()) + len(" HTTP/1.1\r\n")
	host := r.Host
	if host == "" {
		host = r.URL.Host
	}
	n += len("Host: \r\n") + len(host)
	n += headerSize(r.Header) + 2
	if r.ContentLength > 0 {
		n += len("Content-Length: \r\n") + len(strconv.FormatInt(r.ContentLength, 10))
		return int64(n) + r.ContentLength
	}
	return int64(n)
}

// ResponseHeadSize is the length of resp's head as HTTP/1.1 text: the
// status line, the header fields and the blank line. The HTTP/2 transport
// counts a response's head so, and the WebSocket samplers their upgrade
// response's.
func ResponseHeadSize(resp *http.Response) int64 {
	return int64(len(resp.Proto) + 1 + len(resp.Status) + 2 + headerSize(resp.Header) + 2)
}

func headerSize(h http.Header) int {
	n := 0
	for k, vs := range h {
		for _, v := range vs {
			if v == "" && k == "User-Agent" {
				continue // the empty value that stops net/http's own
			}
			n += len(k) + 2 + len(v) + 2
		}
	}
	return n
}

// countedBody counts the bytes read of a body.
type countedBody struct {
	rc io.ReadCloser
	n  *atomic.Int64
}

func (b *countedBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.n.Add(int64(n))
	return n, err
}

func (b *countedBody) Close() error { return b.rc.Close() }

// h2Client is the client's HTTP/2 transport, made on first use.
func (c *Client) h2Client() *h2 {
	c.h2Once.Do(func() { c.h2.Store(newH2()) })
	return c.h2.Load()
}

// redirectingH2 is redirecting over the HTTP/2 transport.
func (c *Client) redirectingH2() *resty.Client {
	c.rc2Once.Do(func() {
		hc := &http.Client{Transport: c.h2Client()}
		if c.jar != nil {
			hc.Transport = jarTransport{c.h2Client(), c.jar}
		}
		c.rc2 = newResty(hc)
	})
	return c.rc2
}

// sendH2 makes one exchange over the HTTP/2 transport: sendH1's work,
// with the cookie jar, and a response timeout that bounds the whole
// exchange, as the plugin's Jetty client's request timeout does.
func (l *Lane) sendH2(req *Request) (*http.Response, error) {
	if l.cancel != nil { // the first try of a request its credentials answer
		l.cancel()
		l.cancel = nil
	}
	ctx := l.traceCtx
	if req.ResponseTimeout > 0 {
		ctx, l.cancel = context.WithTimeout(ctx, req.ResponseTimeout)
	}
	if req.AutoRedirects {
		resp, err := l.c.redirectingH2().R().SetContext(ctx).Execute(req.Method, req.URL)
		if resp != nil && resp.RawResponse != nil {
			return resp.RawResponse, err
		}
		return nil, err
	}
	u, err := url.Parse(req.URL)
	if err != nil {
		return nil, err
	}
	r := (&http.Request{Method: req.Method, URL: u, Header: http.Header{}, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}).WithContext(ctx)
	if err := l.prepare(r); err != nil {
		return nil, err
	}
	if pw, _ := u.User.Password(); u.User != nil && len(r.Header["Authorization"]) == 0 {
		r.SetBasicAuth(u.User.Username(), pw)
	}
	l.addCookies(r, u)
	resp, err := l.c.h2Client().RoundTrip(r)
	if err != nil {
		return nil, &url.Error{Op: urlErrorOp(req.Method), URL: u.Redacted(), Err: err}
	}
	if jar := l.c.jar; jar != nil && len(resp.Header["Set-Cookie"]) > 0 {
		head := HeadOf(resp.Header)
		jar.setCookies(u, &head)
	}
	return resp, nil
}
