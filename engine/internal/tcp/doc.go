// Package tcp is JMeter's TCP Sampler with its TCP Sampler Config: a
// request written to a socket and the reply read back, as JMeter's
// TCPSampler and its three clients do (TCPClientImpl, text up to an
// end-of-line byte or the end of the stream; BinaryTCPClientImpl,
// hex-encoded bytes up to an end-of-message byte; LengthPrefixedBinaryTCPClientImpl,
// hex-encoded bytes behind a 2- or 4-byte length), with JMeter's codes and
// messages: 200 OK, or 500 and the Java exception (java.net.ConnectException:
// Connection refused, org.apache.jmeter.protocol.tcp.sampler.ReadException: …),
// checked against JMeter 2.13 on the same server.
//
// A user's connections are kept per user (element.Local) and shared by all
// its TCP samplers, keyed by server, port, user name and password as
// JMeter's are; they close when the user's thread ends, and when the run is
// aborted the one being read is closed under the read, as JMeter's
// interrupt does.
//
// It imports element, jmx, report (JMeter's properties files, for
// tcp.status.properties) and internal/java (charsets), and the standard
// library.
package tcp
