package target

import (
	"fmt"
	"net"
	"sync"
)

// UnknownHost is a host name that never resolves: the .invalid top-level
// domain is reserved for that (RFC 6761). Resolving it may still ask the
// system's resolver, so tests that must stay off the network should use a
// dialer or resolver of their own rather than look it up.
const UnknownHost = "gojm-unknown-host.invalid"

// RefusedAddr returns a loopback host:port on which nothing listens: a port
// that was just bound and closed, so a connection to it is refused (unless
// another process takes the port in between).
func RefusedAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("target: find a free port: %w", err)
	}
	addr := ln.Addr().String()
	if err := ln.Close(); err != nil {
		return "", fmt.Errorf("target: close %s: %w", addr, err)
	}
	return addr, nil
}

// RawServer is a loopback TCP server that hands each connection to a
// function, for faults below HTTP.
type RawServer struct {
	ln     net.Listener
	handle func(net.Conn)

	mu     sync.Mutex
	closed bool
	conns  map[net.Conn]struct{}
	wg     sync.WaitGroup
}

// StartRaw listens on addr (loopback only; port 0 picks one) and calls
// handle for each connection in its own goroutine. The connection is closed
// when handle returns, or by Close.
func StartRaw(addr string, handle func(net.Conn)) (*RawServer, error) {
	if err := checkLoopback(addr); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("target: listen on %s: %w", addr, err)
	}
	s := &RawServer{ln: ln, handle: handle, conns: map[net.Conn]struct{}{}}
	s.wg.Add(1)
	go s.serve()
	return s, nil
}

func (s *RawServer) serve() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			c.Close()
			return
		}
		s.conns[c] = struct{}{}
		s.wg.Add(1)
		s.mu.Unlock()
		go func() {
			defer s.wg.Done()
			defer func() {
				s.mu.Lock()
				delete(s.conns, c)
				s.mu.Unlock()
				c.Close()
			}()
			s.handle(c)
		}()
	}
}

// Addr is the host:port the server listens on.
func (s *RawServer) Addr() string { return s.ln.Addr().String() }

// Close stops listening, closes every connection and waits for the
// handlers to return.
func (s *RawServer) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	err := s.ln.Close()
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	if err != nil {
		return fmt.Errorf("target: close: %w", err)
	}
	return nil
}

// StartBadTLS starts a server on addr where every TLS handshake fails: it
// reads the ClientHello and answers with a plain-text HTTP response, as a
// plain HTTP server on an https port would.
// Go: the handshake fails with a tls.RecordHeaderError ("first record does
// not look like a TLS handshake").
func StartBadTLS(addr string) (*RawServer, error) {
	return StartRaw(addr, func(c net.Conn) {
		buf := make([]byte, 4096)
		if _, err := c.Read(buf); err != nil {
			return
		}
		_, _ = c.Write([]byte("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
	})
}
