package httpsampler

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/textproto"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/gojm/gojm/engine/httpx"
)

// describeError names a transport failure as JMeter 5.6 reports it (Apache
// HttpClient 4.5 on Java 17): the Java exception class for "Non HTTP
// response code: <class>" and its message for "Non HTTP response message:
// <msg>". The classes and messages were checked against HttpClient's and
// JMeter's sources and, where JMeter 2.13 (same HttpClient, same JRE) shows
// the same exception, by running each fault through it.
//
// Where JMeter's message is unhelpful, gojm keeps the class and tells the
// cause: HttpClient wraps protocol errors (a malformed status line or
// header, a redirect loop) in a ClientProtocolException whose message is
// the word "null"; gojm gives the wrapped exception's message instead.
//
// docs/compatibility.md ("Failures as JMeter names them") lists every mapping.
func describeError(err error) (class, msg string) {
	if err == nil {
		return "", ""
	}
	host := errHost(err)
	var dns *net.DNSError
	var op *net.OpError
	var proto textproto.ProtocolError
	var alert tls.AlertError
	var record tls.RecordHeaderError
	text := bare(err)
	switch {
	case cancelled(err):
		// The run was aborted (Stop Test Now, a second Ctrl-C): JMeter
		// closes the socket under the request.
		return "java.net.SocketException", "Socket closed"
	case httpx.ErrTooManyRedirects(err):
		return clientProtocol, "Maximum redirects (" + strconv.Itoa(httpx.MaxRedirects) + ") exceeded"
	case strings.Contains(text, circularRedirect):
		return clientProtocol, lineFrom(text, strings.Index(text, circularRedirect))
	case errors.As(err, &dns):
		if dns.IsNotFound {
			return "java.net.UnknownHostException", dns.Name + ": Name or service not known"
		}
		return "java.net.UnknownHostException", dns.Name + ": Temporary failure in name resolution"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "org.apache.http.conn.HttpHostConnectException", connectFailed(host, err, "Connection refused")
	case errors.As(err, &op) && op.Op == "dial" && op.Timeout():
		return "org.apache.http.conn.ConnectTimeoutException", connectFailed(host, err, "Connect timed out")
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "java.net.NoRouteToHostException", "No route to host"
	case errors.As(err, &record), strings.Contains(text, "server gave HTTP response to HTTPS client"):
		// Java reads the first bytes of a plain-text answer as a TLS record.
		return "javax.net.ssl.SSLException", "Unsupported or unrecognized SSL message"
	case strings.Contains(text, remoteAlert):
		return receivedAlert(lineFrom(text, strings.Index(text, remoteAlert)+len(remoteAlert)))
	case errors.As(err, &alert):
		return receivedAlert(strings.TrimPrefix(alert.Error(), "tls: "))
	case strings.Contains(text, "tls: "):
		return "javax.net.ssl.SSLHandshakeException", lineFrom(text, strings.LastIndex(text, "tls: ")+5)
	case isTimeout(err):
		// JMeter's response timeout is the socket's read timeout.
		return "java.net.SocketTimeoutException", "Read timed out"
	case errors.Is(err, syscall.ECONNRESET):
		return "java.net.SocketException", "Connection reset"
	case errors.Is(err, syscall.EPIPE):
		return "java.net.SocketException", "Broken pipe"
	case errors.As(err, &proto):
		return clientProtocol, headerProblem(string(proto))
	case strings.Contains(text, "malformed MIME header"):
		return clientProtocol, headerProblem(lineFrom(text, strings.Index(text, "malformed MIME header")))
	case strings.Contains(text, "malformed HTTP status code"):
		return clientProtocol, "Status line contains invalid status code: " + unquote(lineFrom(text,
			strings.Index(text, "malformed HTTP status code ")+len("malformed HTTP status code ")))
	case strings.Contains(text, "malformed HTTP response"), strings.Contains(text, "malformed HTTP version"):
		return clientProtocol, "The server failed to respond with a valid HTTP response"
	case strings.Contains(text, "chunk"):
		return "org.apache.http.MalformedChunkCodingException", "Bad chunk header: " + cause(text)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "org.apache.http.ConnectionClosedException", "Premature end of Content-Length delimited message body"
	case errors.Is(err, io.EOF), strings.Contains(text, "server closed idle connection"):
		return "org.apache.http.NoHttpResponseException", host + " failed to respond"
	case isParse(err):
		return "java.net.URISyntaxException", cause(text)
	}
	return "java.io.IOException", cause(text)
}

// cancelled reports whether err is the run's abort closing the request
// (JMeter: the socket closed under it).
func cancelled(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, net.ErrClosed)
}

// clientProtocol is HttpClient's wrapper of protocol errors.
const clientProtocol = "org.apache.http.client.ClientProtocolException"

// circularRedirect starts HttpClient's message for a redirect back to a
// URL already visited; the HTTP client uses the same words.
const circularRedirect = "Circular redirect to '"

// remoteAlert is how Go reports a TLS alert the server sent.
const remoteAlert = "remote error: tls: "

// receivedAlert names a TLS alert from the server as Java does: by its
// name in the TLS specification, as an SSLHandshakeException when the
// alert is about the handshake and an SSLException otherwise.
func receivedAlert(goName string) (class, msg string) {
	name, ok := javaAlerts[goName]
	if !ok {
		name = strings.ReplaceAll(goName, " ", "_")
	}
	class = "javax.net.ssl.SSLHandshakeException"
	switch name {
	case "close_notify", "unexpected_message", "bad_record_mac", "decryption_failed", "record_overflow",
		"decompression_failure", "internal_error", "user_canceled":
		class = "javax.net.ssl.SSLException"
	}
	return class, "Received fatal alert: " + name
}

// javaAlerts maps Go's descriptions of TLS alerts to their names where
// the two differ by more than spaces for underscores.
var javaAlerts = map[string]string{
	"bad record MAC":                  "bad_record_mac",
	"revoked certificate":             "certificate_revoked",
	"expired certificate":             "certificate_expired",
	"unknown certificate":             "certificate_unknown",
	"unknown certificate authority":   "unknown_ca",
	"error decoding message":          "decode_error",
	"error decrypting message":        "decrypt_error",
	"protocol version not supported":  "protocol_version",
	"insufficient security level":     "insufficient_security",
	"certificate unobtainable":        "certificate_unobtainable",
	"bad certificate status response": "bad_certificate_status_response",
	"bad certificate hash value":      "bad_certificate_hash_value",
	"unknown PSK identity":            "unknown_psk_identity",
	"encrypted client hello required": "ech_required",
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout() || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, os.ErrDeadlineExceeded)
}

// errHost is the host:port of the request that failed, as HttpClient names
// its target: the port filled in from the scheme when the URL has none.
func errHost(err error) string {
	var uerr *url.Error
	if !errors.As(err, &uerr) {
		return "remote host"
	}
	u, perr := url.Parse(uerr.URL)
	if perr != nil || u.Host == "" {
		return "remote host"
	}
	if u.Port() != "" {
		return u.Host
	}
	if strings.EqualFold(u.Scheme, "https") {
		return u.Host + ":443"
	}
	return u.Host + ":80"
}

// connectFailed is HttpClient's message for a connection that could not be
// made: "Connect to host:port [name/ip] failed: <cause>". Java prints an
// address as name/ip, with an empty name for a numeric host.
func connectFailed(host string, err error, why string) string {
	addr := ""
	var op *net.OpError
	if errors.As(err, &op) && op.Addr != nil {
		ip := op.Addr.String()
		if h, _, serr := net.SplitHostPort(ip); serr == nil {
			ip = h
		}
		name, _, serr := net.SplitHostPort(host)
		if serr != nil || net.ParseIP(strings.Trim(name, "[]")) != nil {
			name = ""
		}
		addr = " [" + name + "/" + ip + "]"
	}
	return "Connect to " + host + addr + " failed: " + why
}

// headerProblem words Go's complaint about a response header line as
// HttpClient does ("Invalid header: <line>").
func headerProblem(s string) string {
	for _, p := range []string{"malformed MIME header: missing colon: ", "malformed MIME header line: ",
		"malformed MIME header initial line: "} {
		if rest, ok := strings.CutPrefix(s, p); ok {
			return "Invalid header: " + unquote(rest)
		}
	}
	return s
}

// unquote removes Go's quotes around a value, if it has them.
func unquote(s string) string {
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return s
}

// bare is the error's text without the URL Go puts in front ("Get
// \"http://…\": "), so that a URL never passes for a cause; errors.Join
// puts one error a line.
func bare(err error) string {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var b strings.Builder
		for i, e := range j.Unwrap() {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(bare(e))
		}
		return b.String()
	}
	var uerr *url.Error
	if errors.As(err, &uerr) && uerr.Err != nil {
		return bare(uerr.Err)
	}
	return err.Error()
}

// isParse reports whether the request's URL could not be parsed.
func isParse(err error) bool {
	var uerr *url.Error
	return errors.As(err, &uerr) && uerr.Op == "parse"
}

// cause drops Go's wrapping ("net/http: … broken: ") from the first line
// of an error message, keeping the cause.
func cause(s string) string {
	return strings.TrimPrefix(lineFrom(s, 0), "net/http: HTTP/1.x transport connection broken: ")
}

// lineFrom returns s from i to the end of that line.
func lineFrom(s string, i int) string {
	s = s[i:]
	if j := strings.IndexByte(s, '\n'); j >= 0 {
		return s[:j]
	}
	return s
}
