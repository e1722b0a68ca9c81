package tcp

import (
	"encoding/hex"
	"errors"
	"io"
	"net"
	"strconv"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/gojm/gojm/engine/internal/element"
	"golang.org/x/text/encoding"
)

// kind is one of JMeter's TCP clients.
type kind uint8

const (
	textClient     kind = iota // TCPClientImpl
	binaryClient               // BinaryTCPClientImpl
	prefixedClient             // LengthPrefixedBinaryTCPClientImpl
)

// readException is JMeter's ReadException as a response message shows it.
const readException = "org.apache.jmeter.protocol.tcp.sampler.ReadException"

// maxPrefixed is the largest length-prefixed message read: JMeter
// allocates the whole message up front, and one of a gigabyte or more does
// not fit its default heap.
const maxPrefixed = 1 << 30

// client is a protocol handler: how a request is written and the response
// read. It is made once and shared by the users of a sampler.
type client struct {
	kind kind
	// eol ends a read when a read ends with it (JMeter's eolByte, which
	// only a value in a Java byte's range sets).
	eol    byte
	useEOL bool
	// enc is TCPClientImpl's charset (tcp.charset), nil for UTF-8;
	// encErr is Java's UnsupportedEncodingException for a name Java does
	// not know, the failure of every text sample.
	enc     encoding.Encoding
	encErr  error
	charset string
	// prefixLen is the length prefix's size (tcp.binarylength.prefix.length).
	prefixLen int
}

// setEOL is AbstractTCPClient.setEolByte: a value outside -128..127 turns
// the end-of-line byte off.
func (c *client) setEOL(v int) {
	c.useEOL = v >= -128 && v <= 127
	if c.useEOL {
		c.eol = byte(int8(v))
	}
}

// write sends a request: text in the client's charset, or hex-encoded
// bytes (behind their length for the length-prefixed client).
func (c *client) write(w io.Writer, req string, sc *scratch) error {
	b := sc.wire[:0]
	switch c.kind {
	case textClient:
		if c.encErr != nil {
			return c.encErr
		}
		b = c.encode(b, req)
	case prefixedClient:
		// JMeter writes the length before it looks at the digits.
		prefix, err := lengthPrefix(len(req)/2, c.prefixLen)
		if err != nil {
			return err
		}
		if _, err := w.Write(prefix); err != nil {
			return ioError(err)
		}
		fallthrough
	case binaryClient:
		var err error
		if b, err = AppendHex(b, req); err != nil {
			return err
		}
	}
	sc.wire = b
	if _, err := w.Write(b); err != nil {
		return ioError(err)
	}
	return nil
}

// encode appends Java's req.getBytes(charset): a character the charset
// lacks becomes '?'.
func (c *client) encode(dst []byte, req string) []byte {
	if c.enc == nil {
		return append(dst, req...)
	}
	e := c.enc.NewEncoder()
	if out, err := e.String(req); err == nil {
		return append(dst, out...)
	}
	for _, r := range req {
		out, err := e.String(string(r))
		if err != nil {
			out = "?"
		}
		dst = append(dst, out...)
	}
	return dst
}

// read reads a response into the user's scratch space and returns it as
// JMeter keeps it (text, or the bytes in hex) with the number of bytes the
// response counts, recording its latency on r at the first bytes. The
// error is JMeter's: a ReadException keeps what was read until then as the
// response.
func (c *client) read(vu *element.VU, conn net.Conn, timeout int, sc *scratch, r *element.Result) ([]byte, int, error) {
	if c.kind == prefixedClient {
		return c.readPrefixed(vu, conn, timeout, sc, r)
	}
	w := sc.in[:0]
	var rerr error
	for first := true; ; {
		n, err := readOnce(conn, sc.buf, timeout)
		if n > 0 {
			if first {
				r.Latency = vu.Now().Sub(r.Start)
				first = false
			}
			w = append(w, sc.buf[:n]...)
			if c.useEOL && sc.buf[n-1] == c.eol {
				break
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			rerr = err
			break
		}
	}
	sc.in = w
	if c.kind == binaryClient {
		sc.out = hex.AppendEncode(sc.out[:0], w)
		if rerr != nil {
			// A timeout too, with or without an end-of-message byte (the
			// message JMeter's own batch test TCP_TESTS expects).
			return sc.out, len(sc.out), javaError(readException, "")
		}
		return sc.out, len(sc.out), nil
	}
	sc.out = c.decode(sc.out[:0], w)
	size := len(sc.out)
	if c.enc != nil {
		size = len(w) // the response's bytes in its charset
	}
	if rerr != nil {
		return sc.out, size, javaError(readException, "Error reading from server, bytes read: "+strconv.Itoa(len(w)))
	}
	return sc.out, size, nil
}

// readPrefixed reads the length with one read, as JMeter does (fewer bytes
// than the prefix's size make an empty response), then that many bytes.
func (c *client) readPrefixed(vu *element.VU, conn net.Conn, timeout int, sc *scratch, r *element.Result) ([]byte, int, error) {
	prefix := sc.buf[:c.prefixLen]
	n, err := readOnce(conn, prefix, timeout)
	if n != len(prefix) {
		if err != nil && err != io.EOF {
			return nil, 0, javaError(readException, "")
		}
		return nil, 0, nil
	}
	r.Latency = vu.Now().Sub(r.Start)
	size := signedInt(prefix)
	switch {
	case size < 0:
		// JMeter's new byte[size] throws, and the sample fails with it.
		return nil, 0, javaError("java.lang.NegativeArraySizeException", strconv.Itoa(size))
	case size >= maxPrefixed:
		return nil, 0, javaError("java.lang.OutOfMemoryError", "Java heap space")
	}
	// The message grows as bytes come rather than by the length the
	// server claims.
	msg := sc.in[:0]
	for len(msg) < size {
		want := min(size-len(msg), len(sc.buf))
		n, err := readOnce(conn, sc.buf[:want], timeout)
		msg = append(msg, sc.buf[:n]...)
		if err == io.EOF {
			break // JMeter logs an incomplete message and keeps what came
		}
		if err != nil {
			// The message keeps its unread bytes as zeros, as JMeter's
			// buffer does.
			sc.in = msg
			sc.out = hex.AppendEncode(sc.out[:0], msg)
			for range size - len(msg) {
				sc.out = append(sc.out, '0', '0')
			}
			return sc.out, len(sc.out), javaError(readException, "")
		}
	}
	if len(msg) < size {
		msg = append(msg, make([]byte, size-len(msg))...)
	}
	sc.in = msg
	sc.out = hex.AppendEncode(sc.out[:0], msg)
	return sc.out, len(sc.out), nil
}

// scratch is a user's buffers for writing requests and reading responses,
// reused by every TCP sample it makes.
type scratch struct {
	buf, wire, in, out []byte
}

// readOnce is one read with Java's SO_TIMEOUT: 0 waits forever.
func readOnce(conn net.Conn, b []byte, timeout int) (int, error) {
	if timeout > 0 {
		conn.SetReadDeadline(time.Now().Add(time.Duration(timeout) * time.Millisecond))
	} else {
		conn.SetReadDeadline(time.Time{})
	}
	return conn.Read(b)
}

// decode appends Java's new String(bytes, charset) to dst, as UTF-8:
// malformed input becomes U+FFFD.
func (c *client) decode(dst, b []byte) []byte {
	if c.enc != nil {
		out, err := c.enc.NewDecoder().Bytes(b)
		if err == nil {
			return append(dst, out...)
		}
		// x/text decoders replace what they cannot read; one that stops
		// instead is read as Latin-1 so that nothing is lost.
		for _, x := range b {
			dst = utf8.AppendRune(dst, rune(x))
		}
		return dst
	}
	if utf8.Valid(b) {
		return append(dst, b...)
	}
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		dst = utf8.AppendRune(dst, r)
		b = b[size:]
	}
	return dst
}

// AppendHex appends the bytes of a hex string to dst, as
// BinaryTCPClientImpl.hexStringToByteArray reads it; the error is its
// IllegalArgumentException as a response message shows it. (The UDP
// Request's hex encoder calls the same method.)
func AppendHex(dst []byte, s string) ([]byte, error) {
	if len(s)%2 != 0 {
		return dst, javaError("java.lang.IllegalArgumentException", "Hex-encoded binary string contains an uneven no. of digits")
	}
	for i := 0; i < len(s); i += 2 {
		hi, ok1 := hexDigit(s[i])
		lo, ok2 := hexDigit(s[i+1])
		if !ok1 || !ok2 {
			return dst, javaError("java.lang.IllegalArgumentException",
				"Hex-encoded binary string contains an invalid hex digit in '"+s[i:i+2]+"'")
		}
		dst = append(dst, hi<<4|lo)
	}
	return dst, nil
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// lengthPrefix is TCPClientDecorator.intToByteArray: big-endian, 2 or 4
// bytes.
func lengthPrefix(v, size int) ([]byte, error) {
	if size != 2 && size != 4 {
		return nil, javaError("java.lang.IllegalArgumentException", "Length must be specified as either 2 or 4.")
	}
	if size == 2 && (v < -32768 || v > 32767) {
		return nil, javaError("java.lang.IllegalArgumentException", "Value outside range for signed short int.")
	}
	b := make([]byte, size)
	for i := range b {
		b[i] = byte(v >> ((size - 1 - i) * 8))
	}
	return b, nil
}

// signedInt is TCPClientDecorator.byteArrayToInt: the first byte keeps its
// sign.
func signedInt(b []byte) int {
	v := int(int8(b[0])) << ((len(b) - 1) * 8)
	for i := 1; i < len(b); i++ {
		v += int(b[i]) << ((len(b) - 1 - i) * 8)
	}
	return v
}

// ioError names a failed write as Java's socket streams do.
func ioError(err error) error {
	switch {
	case errors.Is(err, net.ErrClosed):
		return javaError("java.net.SocketException", "Socket closed")
	case errors.Is(err, syscall.EPIPE):
		return javaError("java.net.SocketException", "Broken pipe")
	case errors.Is(err, syscall.ECONNRESET):
		return javaError("java.net.SocketException", "Connection reset")
	}
	return javaError("java.io.IOException", err.Error())
}
