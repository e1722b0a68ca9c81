//go:build !linux || race

package httpx

import (
	"io"
	"net"
)

// newRawIO has no raw socket calls to offer on other systems, nor in
// race-detector builds (see rawIO): connections are read and written
// through net.Conn.
func newRawIO(net.Conn) io.ReadWriter { return nil }
