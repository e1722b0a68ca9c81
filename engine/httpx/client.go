package httpx

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptrace"
	"strings"
	"time"

	"github.com/go-resty/resty/v2"
)

// Options configure a Client for the lifetime of a virtual user.
type Options struct {
	// Cookies gives the client a cookie jar (JMeter's HTTP Cookie Manager).
	Cookies bool
	// MaxBody caps how much of a response body is kept for extractors and
	// assertions; the rest is read, counted and discarded.
	MaxBody int
}

// DefaultMaxBody is the default cap on kept response bodies.
const DefaultMaxBody = 16 << 20

// Header is one request header, in the order it is sent.
type Header struct{ Name, Value string }

// Request is what one HTTP sample sends.
type Request struct {
	Method          string
	URL             string
	Header          []Header
	Body            []byte
	ConnectTimeout  time.Duration // 0: none
	ResponseTimeout time.Duration // 0: none; bounds each read, as a socket timeout
	FollowRedirects bool
	KeepAlive       bool
	// KeepBody asks for the response body in Result.Body; otherwise it is
	// counted and discarded.
	KeepBody bool
}

// Result is what one request measured. Durations are monotonic.
type Result struct {
	Start     time.Time
	Elapsed   time.Duration // start to the last body byte
	Latency   time.Duration // start to the first response byte (connect included)
	Connect   time.Duration // start until a new connection was ready; 0 when reused
	Status    int
	Message   string // reason phrase, e.g. "OK"
	Header    http.Header
	Body      []byte // valid until the next Do
	Bytes     int64  // received on the wire, headers included
	SentBytes int64
	URL       string // the final URL, after any redirects
	// Err is the transport-level failure, if any; the response fields hold
	// what arrived before it.
	Err error
}

// Client is one virtual user's HTTP client.
type Client struct {
	rc      *resty.Client
	tr      *http.Transport
	count   counters
	follow  bool
	planUA  bool // the request carries the plan's own User-Agent
	maxBody int
	body    []byte

	// per-request trace state, written by httptrace callbacks
	t0       time.Time
	gotConn  time.Time
	reused   bool
	firstB   time.Time
	conn     *countingConn
	dialTO   time.Duration
	trace    *httptrace.ClientTrace
	traceCtx context.Context
	baseCtx  context.Context
}

// New returns a client with its own connection pool.
func New(opt Options) *Client {
	c := &Client{maxBody: opt.MaxBody}
	if c.maxBody <= 0 {
		c.maxBody = DefaultMaxBody
	}
	dialer := &net.Dialer{KeepAlive: 30 * time.Second}
	c.tr = &http.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if c.dialTO > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, c.dialTO)
				defer cancel()
			}
			conn, err := dialer.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return &countingConn{Conn: conn, c: &c.count}, nil
		},
		// JMeter trusts every certificate unless a keystore says otherwise.
		TLSClientConfig:     &tls.Config{InsecureSkipVerify: true},
		DisableCompression:  true, // send no Accept-Encoding the plan did not ask for
		MaxIdleConnsPerHost: 4,
		IdleConnTimeout:     90 * time.Second,
		ForceAttemptHTTP2:   false,
	}
	hc := &http.Client{Transport: c.tr}
	if opt.Cookies {
		jar, _ := cookiejar.New(nil) // New never fails without options
		hc.Jar = jar
	}
	c.rc = resty.NewWithClient(hc).
		SetDoNotParseResponse(true).
		SetRedirectPolicy(resty.RedirectPolicyFunc(func(req *http.Request, via []*http.Request) error {
			if !c.follow {
				return http.ErrUseLastResponse
			}
			if len(via) >= 20 { // JMeter's httpsampler.max_redirects
				return errTooManyRedirects
			}
			return nil
		})).
		SetPreRequestHook(func(_ *resty.Client, r *http.Request) error {
			// Send no User-Agent unless the plan set one: resty and net/http
			// would otherwise add their own.
			if !c.planUA {
				r.Header["User-Agent"] = []string{""}
			}
			return nil
		})
	c.trace = &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			c.gotConn = time.Now()
			c.reused = info.Reused
			c.conn, _ = info.Conn.(*countingConn)
		},
		GotFirstResponseByte: func() { c.firstB = time.Now() },
	}
	return c
}

var errTooManyRedirects = errors.New("maximum number of redirects exceeded")

// Do sends req and fills res. Every failure is reported in res.Err, never
// as a panic; res always has Start and Elapsed set.
func (c *Client) Do(ctx context.Context, req *Request, res *Result) {
	*res = Result{Header: res.Header, Body: res.Body[:0]}
	if c.baseCtx != ctx {
		c.baseCtx = ctx
		c.traceCtx = httptrace.WithClientTrace(ctx, c.trace)
	}
	c.follow = req.FollowRedirects
	c.dialTO = req.ConnectTimeout
	c.count.readTimeout.Store(int64(req.ResponseTimeout))
	c.firstB, c.gotConn, c.reused, c.conn = time.Time{}, time.Time{}, false, nil
	r0, w0 := c.count.read.Load(), c.count.written.Load()

	rq := c.rc.R().SetContext(c.traceCtx)
	c.planUA = false
	for _, h := range req.Header {
		rq.Header.Add(h.Name, h.Value)
		if strings.EqualFold(h.Name, "User-Agent") {
			c.planUA = true
		}
	}
	if len(req.Body) > 0 {
		rq.SetBody(req.Body)
	}
	if !req.KeepAlive {
		rq.Header.Set("Connection", "close")
	}

	res.Start = time.Now()
	c.t0 = res.Start
	resp, err := rq.Execute(req.Method, req.URL)
	var raw *http.Response
	if resp != nil {
		raw = resp.RawResponse
	}
	if raw != nil {
		res.Status = raw.StatusCode
		res.Message = reason(raw.Status)
		res.Header = raw.Header
		if raw.Request != nil && raw.Request.URL != nil {
			res.URL = raw.Request.URL.String()
		}
		err = errors.Join(err, c.readBody(raw.Body, req.KeepBody, res))
		raw.Body.Close()
	}
	end := time.Now()
	res.Elapsed = end.Sub(res.Start)
	if !c.firstB.IsZero() {
		res.Latency = c.firstB.Sub(res.Start)
	} else if err == nil {
		res.Latency = res.Elapsed
	}
	if !c.gotConn.IsZero() && !c.reused {
		res.Connect = c.gotConn.Sub(res.Start)
	}
	if c.conn != nil {
		c.count.readTimeout.Store(0)
		c.conn.clearDeadline()
	}
	res.Bytes = c.count.read.Load() - r0
	res.SentBytes = c.count.written.Load() - w0
	if res.URL == "" {
		res.URL = req.URL
	}
	res.Err = err
}

func (c *Client) readBody(body io.Reader, keep bool, res *Result) error {
	if !keep {
		_, err := io.Copy(io.Discard, body)
		return err
	}
	buf := c.body[:0]
	for {
		if len(buf) == cap(buf) {
			if len(buf) >= c.maxBody {
				c.body = buf
				res.Body = buf
				_, err := io.Copy(io.Discard, body)
				return err
			}
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err != nil {
			c.body = buf
			res.Body = buf
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// reason returns the reason phrase of a status line such as "200 OK".
func reason(status string) string {
	if i := strings.IndexByte(status, ' '); i >= 0 {
		return status[i+1:]
	}
	return ""
}

// CloseIdle closes idle connections (end of a virtual user, or JMeter's
// "same user on next iteration" off).
func (c *Client) CloseIdle() { c.tr.CloseIdleConnections() }

// ResetCookies empties the cookie jar.
func (c *Client) ResetCookies() {
	if c.rc.GetClient().Jar != nil {
		jar, _ := cookiejar.New(nil)
		c.rc.GetClient().Jar = jar
	}
}
