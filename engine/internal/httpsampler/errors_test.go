package httpsampler

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"net/url"
	"os"
	"syscall"
	"testing"
)

// describeError maps each kind of Go transport error to JMeter's exception
// class and message, without the URL Go puts in front.
func TestDescribeError(t *testing.T) {
	get := func(u string, err error) error { return &url.Error{Op: "Get", URL: u, Err: err} }
	dial := func(addr string, err error) error {
		a, _ := net.ResolveTCPAddr("tcp", addr)
		return &net.OpError{Op: "dial", Net: "tcp", Addr: a, Err: err}
	}
	tests := []struct {
		name        string
		err         error
		class, want string
	}{
		{"refused", get("http://127.0.0.1:9/x", dial("127.0.0.1:9", &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED})),
			"org.apache.http.conn.HttpHostConnectException", "Connect to 127.0.0.1:9 [/127.0.0.1] failed: Connection refused"},
		{"refused by name, default port", get("http://localhost/x", dial("127.0.0.1:80", syscall.ECONNREFUSED)),
			"org.apache.http.conn.HttpHostConnectException", "Connect to localhost:80 [localhost/127.0.0.1] failed: Connection refused"},
		{"connect timeout", get("https://10.0.0.1/x", dial("10.0.0.1:443", timeoutErr{})),
			"org.apache.http.conn.ConnectTimeoutException", "Connect to 10.0.0.1:443 [/10.0.0.1] failed: Connect timed out"},
		{"unknown host", get("http://nowhere.invalid/", &net.OpError{Op: "dial", Err: &net.DNSError{Name: "nowhere.invalid", Err: "no such host", IsNotFound: true}}),
			"java.net.UnknownHostException", "nowhere.invalid: Name or service not known"},
		{"DNS down", get("http://h.example/", &net.DNSError{Name: "h.example", Err: "server misbehaving", IsTemporary: true}),
			"java.net.UnknownHostException", "h.example: Temporary failure in name resolution"},
		{"read timeout", get("http://h/", &net.OpError{Op: "read", Err: os.ErrDeadlineExceeded}),
			"java.net.SocketTimeoutException", "Read timed out"},
		{"reset", get("http://h/", &net.OpError{Op: "read", Err: &os.SyscallError{Syscall: "read", Err: syscall.ECONNRESET}}),
			"java.net.SocketException", "Connection reset"},
		{"reset in the body", errors.Join(&net.OpError{Op: "read", Err: syscall.ECONNRESET}),
			"java.net.SocketException", "Connection reset"},
		{"broken pipe", get("http://h/", &net.OpError{Op: "write", Err: syscall.EPIPE}),
			"java.net.SocketException", "Broken pipe"},
		{"no response", get("http://h:8080/", io.EOF),
			"org.apache.http.NoHttpResponseException", "h:8080 failed to respond"},
		{"idle connection closed", get("https://h/", errors.New("http: server closed idle connection")),
			"org.apache.http.NoHttpResponseException", "h:443 failed to respond"},
		{"truncated body", io.ErrUnexpectedEOF,
			"org.apache.http.ConnectionClosedException", "Premature end of Content-Length delimited message body"},
		{"bad chunk", errors.Join(errors.New("invalid byte in chunk length")),
			"org.apache.http.MalformedChunkCodingException", "Bad chunk header: invalid byte in chunk length"},
		{"a URL that mentions chunks", get("http://h/chunked", syscall.ECONNRESET),
			"java.net.SocketException", "Connection reset"},
		{"bad status", get("http://h/", fmt.Errorf("net/http: HTTP/1.x transport connection broken: %w", errors.New(`malformed HTTP status code "abc"`))),
			clientProtocol, "Status line contains invalid status code: abc"},
		{"bad header", get("http://h/", errors.New(`net/http: HTTP/1.x transport connection broken: malformed MIME header: missing colon: "no colon"`)),
			clientProtocol, "Invalid header: no colon"},
		{"bad header line", get("http://h/", fmt.Errorf("broken: %w", textproto.ProtocolError(`malformed MIME header line: "a b: c"`))),
			clientProtocol, "Invalid header: a b: c"},
		{"not HTTP", get("http://h/", errors.New(`malformed HTTP response "SSH-2.0-OpenSSH"`)),
			clientProtocol, "The server failed to respond with a valid HTTP response"},
		{"circular redirect", get("/loop", errors.New("Circular redirect to 'http://h/loop'")),
			clientProtocol, "Circular redirect to 'http://h/loop'"},
		{"plain HTTP on an https port", get("https://h/", errors.New("http: server gave HTTP response to HTTPS client")),
			"javax.net.ssl.SSLException", "Unsupported or unrecognized SSL message"},
		{"not a TLS record", get("https://h/", tls.RecordHeaderError{Msg: "first record does not look like a TLS handshake"}),
			"javax.net.ssl.SSLException", "Unsupported or unrecognized SSL message"},
		{"handshake alert", get("https://h/", &net.OpError{Op: "remote error", Err: errors.New("tls: handshake failure")}),
			"javax.net.ssl.SSLHandshakeException", "Received fatal alert: handshake_failure"},
		{"alert named differently", get("https://h/", &net.OpError{Op: "remote error", Err: errors.New("tls: protocol version not supported")}),
			"javax.net.ssl.SSLHandshakeException", "Received fatal alert: protocol_version"},
		{"record alert", get("https://h/", &net.OpError{Op: "remote error", Err: errors.New("tls: bad record MAC")}),
			"javax.net.ssl.SSLException", "Received fatal alert: bad_record_mac"},
		{"local TLS failure", get("https://h/", errors.New("tls: server selected unsupported protocol version 300")),
			"javax.net.ssl.SSLHandshakeException", "server selected unsupported protocol version 300"},
		{"aborted", get("http://h/", fmt.Errorf("wrapped: %w", context.Canceled)),
			"java.net.SocketException", "Socket closed"},
		{"unparsable URL", &url.Error{Op: "parse", URL: "http://a b/", Err: errors.New(`invalid character " " in host name`)},
			"java.net.URISyntaxException", `invalid character " " in host name`},
		{"anything else", get("http://h/", errors.New("something odd\nand more")),
			"java.io.IOException", "something odd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			class, msg := describeError(tt.err)
			if class != tt.class || msg != tt.want {
				t.Errorf("describeError(%q)\n = %q, %q\nwant %q, %q", tt.err, class, msg, tt.class, tt.want)
			}
		})
	}
}

type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }
