package ws

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gorilla/websocket"

	"github.com/gojm/gojm/engine/httpx"
)

// Frame opcodes as RFC 6455 numbers them (gorilla's message types).
const (
	opText   = websocket.TextMessage
	opBinary = websocket.BinaryMessage
	opClose  = websocket.CloseMessage
	opPing   = websocket.PingMessage
	opPong   = websocket.PongMessage
)

// frame is what the plugin's receiveFrame returns: a data frame (a whole
// message here), a ping, a pong or a close, or the error the read ended
// with.
type frame struct {
	op   int
	data []byte
	// code and reason are a close frame's; code 0 when it had none.
	code   int
	reason string
	err    error
}

// size is the frame's size on the wire, header included: a server's
// frames are not masked.
func (f *frame) size() int64 {
	n := len(f.data)
	if f.op == opClose && f.code != 0 {
		n = 2 + len(f.reason)
	}
	return int64(headerSize(n, false) + n)
}

// headerSize is the length of a frame's header carrying n payload bytes.
func headerSize(n int, masked bool) int {
	h := 2
	switch {
	case n > 0xFFFF:
		h += 8
	case n > 125:
		h += 2
	}
	if masked {
		h += 4
	}
	return h
}

// sentSize is the size of a frame the client sends (masked).
func sentSize(n int) int64 { return int64(headerSize(n, true) + n) }

// String is the frame as the plugin's toString shows it.
func (f *frame) String() string {
	switch f.op {
	case opText:
		return "Text frame with text '" + string(f.data) + "'"
	case opBinary:
		if len(f.data) == 0 {
			return "Binary frame, empty payload"
		}
		return "Binary frame, payload (length " + strconv.Itoa(len(f.data)) + "): " + formatBinary(f.data, 16, " ...")
	case opPing, opPong:
		kind := "Ping"
		if f.op == opPong {
			kind = "Pong"
		}
		if len(f.data) == 0 {
			return kind + " frame with no application data"
		}
		return kind + " frame with application data '" + string(f.data) + "'"
	case opClose:
		status, reason := "null", "null"
		if f.code != 0 {
			status = strconv.Itoa(f.code)
		}
		if f.code != 0 && f.reason != "" {
			reason = f.reason
		}
		return "Close frame with status code " + status + " and close reason '" + reason + "'"
	}
	return "frame"
}

// kind is the frame's type as the plugin's getTypeAsString names it.
func (f *frame) kind() string {
	switch f.op {
	case opText:
		return "text"
	case opBinary:
		return "binary"
	case opPing:
		return "ping"
	case opPong:
		return "pong"
	}
	return "close"
}

// formatBinary is the plugin's BinaryUtils.formatBinary: each byte as
// Java's "%#x", at most max of them, then more when there were others.
func formatBinary(b []byte, max int, more string) string {
	var sb strings.Builder
	for i, x := range b {
		if i == max {
			sb.WriteString(more)
			break
		}
		if i > 0 {
			sb.WriteByte(' ')
		}
		if x == 0 {
			sb.WriteByte('0')
		} else {
			fmt.Fprintf(&sb, "%#x", x)
		}
	}
	return sb.String()
}

// conn is a user's WebSocket connection: gorilla's, with the goroutine
// that reads it.
type conn struct {
	ws     *websocket.Conn
	url    string // the connect URL as the sampler data shows it
	frames chan frame
	// open is false once a close frame was sent or received, or a read
	// failed: the plugin's isConnected.
	open bool
	stop func() bool
}

// upgrade is what the sample reports of a new connection.
type upgrade struct {
	header     http.Header // the response's fields
	sent, rcvd int64       // the request's and the response head's sizes
}

// ioError is an I/O failure as the plugin reports it: "WebSocket I/O
// error: " and the Java exception's message.
type ioError struct{ msg string }

func (e *ioError) Error() string { return e.msg }

// upgradeError is a refused upgrade: the status code ("" for none) and
// the plugin's message.
type upgradeError struct{ code, msg string }

func (e *upgradeError) Error() string { return e.msg }

var errReadTimeout = &ioError{"Read timed out"}

// dial opens a connection as the plugin's WebSocketClient.connect does:
// the upgrade request with the given fields, within the timeouts (in
// milliseconds; a read timeout of 0 waits for ever).
func dial(ctx context.Context, tlsOn bool, host string, port int, path string, fields [][2]string,
	connectTimeout, readTimeout int) (*conn, upgrade, error) {
	scheme := "ws"
	if tlsOn {
		scheme = "wss"
	}
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	hostPort := net.JoinHostPort(host, strconv.Itoa(port))
	url := scheme + "://" + hostPort + path
	d := websocket.Dialer{
		NetDialContext: (&net.Dialer{Timeout: time.Duration(connectTimeout) * time.Millisecond}).DialContext,
		// JMeter trusts every server certificate unless told otherwise.
		TLSClientConfig:  &tls.Config{InsecureSkipVerify: true},
		HandshakeTimeout: time.Duration(connectTimeout+readTimeout) * time.Millisecond,
		ReadBufferSize:   4096,
		WriteBufferSize:  4096,
	}
	if readTimeout == 0 {
		d.HandshakeTimeout = 0
	}
	h := http.Header{}
	var sent int64
	for _, f := range fields {
		h.Add(f[0], f[1])
		sent += int64(len(f[0]) + 2 + len(f[1]) + 2)
	}
	ws, resp, err := d.DialContext(ctx, url, h)
	if err != nil {
		return nil, upgrade{}, dialError(err, resp, host)
	}
	up := responseHead(resp)
	up.sent = sent
	// The request line, Host, the fields, the four upgrade fields and the
	// blank line, as the plugin writes them.
	up.sent += int64(len("GET "+path+" HTTP/1.1\r\n") + len("Host: "+hostPort+"\r\n") +
		len("Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: 0123456789012345678901==\r\nSec-WebSocket-Version: 13\r\n\r\n"))
	c := &conn{ws: ws, url: url, frames: make(chan frame, 16), open: true}
	// A message is read whole: bound it, as HTTP bodies are kept bounded.
	ws.SetReadLimit(maxMessage)
	c.stop = context.AfterFunc(ctx, func() { ws.NetConn().Close() })
	// The plugin answers no ping and echoes no close by itself: a ping is
	// a frame the sampler reads (or a filter discards).
	ws.SetPingHandler(func(data string) error { c.frames <- frame{op: opPing, data: []byte(data)}; return nil })
	ws.SetPongHandler(func(data string) error { c.frames <- frame{op: opPong, data: []byte(data)}; return nil })
	ws.SetCloseHandler(func(int, string) error { return nil })
	go c.read()
	return c, up, nil
}

// responseHead is the upgrade response's fields and the size of its
// head: the status line, the fields and the blank line.
func responseHead(resp *http.Response) upgrade {
	return upgrade{header: resp.Header, rcvd: httpx.ResponseHeadSize(resp)}
}

// dialError names a failed connect or upgrade as the plugin's client
// does.
func dialError(err error, resp *http.Response, host string) error {
	if errors.Is(err, websocket.ErrBadHandshake) && resp != nil {
		if resp.StatusCode != http.StatusSwitchingProtocols {
			return &upgradeError{strconv.Itoa(resp.StatusCode),
				"Got unexpected status " + strconv.Itoa(resp.StatusCode) + " with statusLine:" + resp.Proto + " " + resp.Status}
		}
		return &upgradeError{"", "Server response should contain 'Upgrade' header with value 'websocket'"}
	}
	var dns *net.DNSError
	switch {
	case errors.As(err, &dns):
		return &ioError{host}
	case errors.Is(err, syscall.ECONNREFUSED):
		return &ioError{"Connection refused"}
	case errors.Is(err, os.ErrDeadlineExceeded), errors.Is(err, context.DeadlineExceeded):
		return &ioError{"connect timed out"}
	}
	return &ioError{err.Error()}
}

// read hands the connection's frames to the user, until the read fails
// or a close frame comes (gorilla reports it as the read's error).
func (c *conn) read() {
	for {
		op, data, err := c.ws.ReadMessage()
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				f := frame{op: opClose, reason: ce.Text}
				if ce.Code != websocket.CloseNoStatusReceived {
					f.code = ce.Code
				}
				c.frames <- f
			} else {
				c.frames <- frame{err: &ioError{readError(err)}}
			}
			close(c.frames)
			return
		}
		c.frames <- frame{op: op, data: data}
	}
}

// maxMessage is the largest message a connection reads; a larger one
// fails the read (and gorilla closes the connection with 1009, "message
// too big").
const maxMessage = httpx.DefaultMaxBody

func readError(err error) string {
	switch {
	case errors.Is(err, websocket.ErrReadLimit):
		return "message larger than the read limit of " + strconv.Itoa(maxMessage>>20) + " MiB"
	case errors.Is(err, net.ErrClosed):
		return "Socket closed"
	case websocket.IsUnexpectedCloseError(err), errors.Is(err, syscall.ECONNRESET):
		return "Connection reset"
	}
	if strings.Contains(err.Error(), "EOF") {
		return "end of stream"
	}
	return err.Error()
}

// receive waits for the next frame, at most timeout milliseconds (0: for
// ever); the frame that arrives after a timeout is the next read's, as on
// the plugin's socket.
func (c *conn) receive(ctx context.Context, timeout int) (frame, error) {
	var expire <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(time.Duration(timeout) * time.Millisecond)
		defer t.Stop()
		expire = t.C
	}
	select {
	case f, ok := <-c.frames:
		if !ok {
			c.open = false
			return frame{}, &ioError{"end of stream"}
		}
		if f.err != nil {
			c.open = false
			return frame{}, f.err
		}
		if f.op == opClose {
			c.open = false
		}
		return f, nil
	case <-expire:
		return frame{}, errReadTimeout
	case <-ctx.Done():
		return frame{}, &ioError{"Socket closed"}
	}
}

// send writes a frame; a close frame ends the connection for sending.
func (c *conn) send(op int, data []byte) error {
	var err error
	if op == opClose || op == opPing || op == opPong {
		err = c.ws.WriteControl(op, data, time.Now().Add(10*time.Second))
	} else {
		err = c.ws.WriteMessage(op, data)
	}
	if op == opClose {
		c.open = false
	}
	if err != nil {
		c.open = false
		return &ioError{readError(err)}
	}
	return nil
}

// dispose closes the socket, as the plugin's dispose does.
func (c *conn) dispose() {
	c.open = false
	c.stop()
	c.ws.NetConn().Close()
	// Let the reader finish: it may be blocked handing over a frame.
	go func() {
		for range c.frames {
		}
	}()
}
