package udp

import (
	"context"
	"errors"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/tcp"
	"github.com/gojm/gojm/jmx"
	"golang.org/x/text/encoding/charmap"
)

// Class is the UDP Request's test class.
const Class = "kg.apc.jmeter.samplers.UDPSampler"

// hexEncoder is the plugin's encoder of hex strings; an empty encodeclass
// (or one that cannot be loaded) is the sampler's own raw encoding.
const hexEncoder = "kg.apc.jmeter.samplers.HexStringUDPDecoder"

// recvSize is the plugin's receive buffer: a longer datagram is cut.
const recvSize = 4096

type sampler struct {
	host, port, timeout, data *element.Template
	wait, closeAfter, hex     bool
	chans                     *element.Local[channel]
}

// channel is a user's open datagram socket of one sampler, with its
// buffers.
type channel struct {
	conn     *net.UDPConn
	stop     func() bool
	buf, out []byte
}

// Build compiles a UDP Request.
func Build(c element.Builder, e *jmx.Element, _ element.InScope) (element.Sampler, error) {
	s := &sampler{
		host:       c.Prop(e, "hostname"),
		port:       c.Prop(e, "port"),
		timeout:    c.Prop(e, "timeout"),
		data:       c.Prop(e, "data"),
		wait:       e.Bool("waitresponse", false),
		closeAfter: e.Bool("closechannel", false),
	}
	switch enc := strings.TrimSpace(e.Str("encodeclass")); enc {
	case hexEncoder:
		s.hex = true
	case "", Class:
	default:
		c.Plan().Log.Warn("the UDP Request's encoder class "+strconv.Quote(enc)+" is not one gojm has: the request is "+
			"sent as Windows-1252 text and the reply kept as it came, as the plugin does when it cannot load the class",
			"element", e.Path())
	}
	if e.Str("bind_address") != "" || e.Str("bind_port") != "" {
		c.Plan().Log.Warn("the UDP Request's bind address and port are not used: the plugin binds its channel "+
			"after connecting it, which fails, and goes on with the address the system chose", "element", e.Path())
	}
	s.chans = element.NewLocal(c.Plan(), func(vu *element.VU) *channel {
		ch := &channel{buf: make([]byte, recvSize)}
		vu.AtEnd(func(*element.VU) { ch.close() })
		return ch
	})
	return s, nil
}

func (s *sampler) Sample(vu *element.VU, r *element.Result) {
	data := s.data.Eval(vu)
	r.SamplerData = data
	r.DataType = "bin"
	r.Start = vu.Now()
	ch := s.chans.Get(vu)
	body, err := s.exchange(vu, ch, data, r)
	r.Elapsed = vu.Now().Sub(r.Start)
	r.Code, r.Success = "200", err == nil
	if err != nil {
		r.Code, r.Message = "500", err.Error()
		body = append(ch.out[:0], err.Error()+"\r\n"...)
	}
	r.Body = append(r.Body[:0], body...)
	r.Bytes = int64(len(r.Body))
}

// exchange is the plugin's processIO: connect when the user has no open
// channel, send, and read the reply when the sampler waits for one.
func (s *sampler) exchange(vu *element.VU, ch *channel, data string, r *element.Result) ([]byte, error) {
	if ch.conn == nil {
		if err := s.open(vu, ch); err != nil {
			return nil, err
		}
	}
	r.Connect = vu.Now().Sub(r.Start)
	req, err := s.encode(ch, data)
	if err != nil {
		return nil, err
	}
	if _, err := ch.conn.Write(req); err != nil {
		return nil, ioError(err)
	}
	if !s.wait {
		r.Latency = vu.Now().Sub(r.Start)
		if s.closeAfter {
			ch.close()
		}
		return nil, nil
	}
	timeout := javaInt(s.timeout.Eval(vu))
	if timeout > 0 {
		ch.conn.SetReadDeadline(time.Now().Add(time.Duration(timeout) * time.Millisecond))
	} else {
		ch.conn.SetReadDeadline(time.Time{})
	}
	n, err := ch.conn.Read(ch.buf)
	r.Latency = vu.Now().Sub(r.Start)
	if err != nil {
		ch.close()
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, javaError("java.net.SocketTimeoutException", "Timeout exceeded while reading from socket")
		}
		return nil, ioError(err)
	}
	if s.closeAfter {
		ch.close()
	}
	if s.hex {
		ch.out = appendHexString(ch.out[:0], ch.buf[:n])
		return ch.out, nil
	}
	return ch.buf[:n], nil
}

// open is the plugin's getChannel: a datagram socket connected to the
// host and port.
func (s *sampler) open(vu *element.VU, ch *channel) error {
	host, portText := s.host.Eval(vu), s.port.Eval(vu)
	port, err := strconv.ParseInt(portText, 10, 32)
	if err != nil {
		return javaError("java.lang.NumberFormatException", "For input string: \""+portText+"\"")
	}
	if port < 0 || port > 0xFFFF {
		return javaError("java.lang.IllegalArgumentException", "port out of range:"+strconv.Itoa(int(port)))
	}
	var d net.Dialer
	nc, err := d.DialContext(vu.Hard, "udp", net.JoinHostPort(host, strconv.Itoa(int(port))))
	if err != nil {
		var dns *net.DNSError
		if errors.As(err, &dns) {
			return javaError("java.nio.channels.UnresolvedAddressException", "")
		}
		return ioError(err)
	}
	ch.conn = nc.(*net.UDPConn)
	// A run stopped now closes the channel under a read, as the plugin's
	// interrupt does.
	conn := ch.conn
	ch.stop = context.AfterFunc(vu.Hard, func() { conn.Close() })
	return nil
}

func (ch *channel) close() {
	if ch.conn != nil {
		ch.stop()
		ch.conn.Close()
		ch.conn = nil
	}
}

// encode is the request's bytes: hex digits with the hex encoder, or
// Java's data.getBytes("Windows-1252"), a character it lacks sent as '?'.
func (s *sampler) encode(ch *channel, data string) ([]byte, error) {
	if s.hex {
		return tcp.AppendHex(ch.out[:0], data)
	}
	out := ch.out[:0]
	for _, c := range data {
		b, ok := charmap.Windows1252.EncodeRune(c)
		if !ok {
			b = '?'
		}
		out = append(out, b)
	}
	ch.out = out
	return out, nil
}

// appendHexString is JOrphanUtils.baToHexString: lower-case digits.
func appendHexString(dst, b []byte) []byte {
	const digits = "0123456789abcdef"
	for _, x := range b {
		dst = append(dst, digits[x>>4], digits[x&15])
	}
	return dst
}

// javaInt is the plugin's getTimeoutAsInt: Integer.parseInt, 0 for text
// that is not a number.
func javaInt(s string) int {
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0
	}
	return int(n)
}

// javaErr is a Java exception as the plugin shows it in a response
// message (Throwable.toString).
type javaErr struct{ class, msg string }

func javaError(class, msg string) error { return &javaErr{class, msg} }

func (e *javaErr) Error() string {
	if e.msg == "" {
		return e.class // a null message
	}
	return e.class + ": " + e.msg
}

// ioError names a failed send or read as Java's datagram channels do.
func ioError(err error) error {
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return javaError("java.net.PortUnreachableException", "")
	case errors.Is(err, net.ErrClosed):
		return javaError("java.nio.channels.AsynchronousCloseException", "")
	}
	return javaError("java.io.IOException", err.Error())
}
