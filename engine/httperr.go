package engine

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/url"
	"strings"
	"syscall"
)

// describeError names a transport failure as JMeter (Apache HttpClient 4 on
// Java) would: the exception class for "Non HTTP response code" and its
// message. The README lists every mapping.
func describeError(err error) (class, msg string) {
	var uerr *url.Error
	addr := ""
	if errors.As(err, &uerr) {
		if u, perr := url.Parse(uerr.URL); perr == nil {
			addr = u.Host
		}
	}
	var dns *net.DNSError
	var op *net.OpError
	var tlsRec tls.RecordHeaderError
	var tlsAlert tls.AlertError
	var cert *tls.CertificateVerificationError
	switch {
	case errors.Is(err, context.Canceled):
		return "java.net.SocketException", "Socket closed"
	case errors.As(err, &dns):
		return "java.net.UnknownHostException", dns.Name + ": Name or service not known"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "org.apache.http.conn.HttpHostConnectException", "Connect to " + addr + " failed: Connection refused (Connection refused)"
	case errors.As(err, &op) && op.Op == "dial" && op.Timeout():
		return "org.apache.http.conn.ConnectTimeoutException", "Connect to " + addr + " failed: connect timed out"
	case isTimeout(err):
		return "java.net.SocketTimeoutException", "Read timed out"
	case errors.Is(err, syscall.ECONNRESET):
		return "java.net.SocketException", "Connection reset"
	case errors.Is(err, syscall.EPIPE):
		return "java.net.SocketException", "Broken pipe (Write failed)"
	case errors.As(err, &tlsRec), errors.As(err, &tlsAlert), errors.As(err, &cert),
		strings.Contains(err.Error(), "tls: "):
		return "javax.net.ssl.SSLHandshakeException", lastPart(err)
	case strings.Contains(err.Error(), "maximum number of redirects"):
		return "org.apache.http.client.RedirectException", "Maximum redirects (20) exceeded"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "org.apache.http.ConnectionClosedException", "Premature end of Content-Length delimited message body"
	case errors.Is(err, io.EOF):
		return "org.apache.http.NoHttpResponseException", addr + " failed to respond"
	case strings.Contains(err.Error(), "malformed HTTP"), strings.Contains(err.Error(), "invalid header"),
		strings.Contains(err.Error(), "bogus"):
		return "org.apache.http.ProtocolException", lastPart(err)
	case strings.Contains(err.Error(), "chunk"):
		return "org.apache.http.MalformedChunkCodingException", lastPart(err)
	}
	return "java.io.IOException", lastPart(err)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout() || errors.Is(err, context.DeadlineExceeded)
}

// lastPart drops Go's "Get \"url\": " prefixes, keeping the cause.
func lastPart(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, "\": "); i >= 0 {
		s = s[i+3:]
	}
	return s
}
