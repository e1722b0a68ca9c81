// Package udp is jmeter-plugins' UDP Request (kg.apc.jmeter.samplers.UDPSampler):
// a datagram sent to a host and port and, when the sampler waits for one,
// the first datagram back, read into a 4 KB buffer as the plugin reads it.
// The request is Windows-1252 text, or hex digits with the plugin's
// HexStringUDPDecoder (whose reply is hex too); the codes and messages are
// the plugin's: 200 and no message, or 500 and the Java exception, which
// is also the response data (without the Java stack trace the plugin
// appends).
//
// Each user has its own channel per sampler, kept open between samples
// unless the sampler closes it, closed after a failed read, at the end of
// the user's thread and, when the run is stopped now, under a read.
//
// It imports element, jmx, tcp (the hex strings of BinaryTCPClientImpl,
// which the plugin's encoder calls) and the standard library with
// golang.org/x/text (Windows-1252).
package udp
