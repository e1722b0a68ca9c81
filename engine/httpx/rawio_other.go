//go:build !linux

package httpx

import (
	"io"
	"net"
)

// newRawIO has no raw socket calls to offer on other systems:
// connections are read and written through net.Conn.
func newRawIO(net.Conn) io.ReadWriter { return nil }
