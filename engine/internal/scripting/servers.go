package scripting

import (
	"fmt"
	"net"
	"strconv"
	"sync"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/internal/mirror"
)

// mirrors are the HTTP Mirror Servers the scripts of one run started, by
// port. A plan is untrusted input: a server it starts listens on the
// loopback only, never on the network, and stops when the run ends if the
// plan does not stop it.
type mirrors struct {
	mu    sync.Mutex
	ports map[int]*mirror.Server
}

func newMirrors(vu *element.VU) *mirrors {
	m := &mirrors{ports: map[int]*mirror.Server{}}
	if vu.Run != nil {
		vu.Run.AtEnd(m.closeAll)
	}
	return m
}

func (m *mirrors) start(port int) error {
	if port <= 0 || port > 65535 {
		return fmt.Errorf("port %d out of range", port)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.ports[port]; ok {
		return fmt.Errorf("a mirror server already runs on port %d", port)
	}
	s, err := mirror.Start(net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return err
	}
	m.ports[port] = s
	return nil
}

func (m *mirrors) stop(port int) {
	m.mu.Lock()
	s := m.ports[port]
	delete(m.ports, port)
	m.mu.Unlock()
	if s != nil {
		s.Close()
	}
}

func (m *mirrors) closeAll() {
	m.mu.Lock()
	all := m.ports
	m.ports = map[int]*mirror.Server{}
	m.mu.Unlock()
	for _, s := range all {
		s.Close()
	}
}

// StartMirror is script.Servers: the run's mirror server on port.
func (h *scriptHost) StartMirror(port int) error { return h.sp.mirrors.Get(h.vu).start(port) }

// StopMirror is script.Servers.
func (h *scriptHost) StopMirror(port int) { h.sp.mirrors.Get(h.vu).stop(port) }
