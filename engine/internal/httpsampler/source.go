package httpsampler

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// sourceAddr is an HTTP Request's "Source address" (HTTPSampler.ipSource):
// the local address its connections are made from, given as an address or
// host name, or as a network interface whose (IPv4 or IPv6) address to
// use, as HTTPSampler.ipSourceType says.
type sourceAddr struct {
	value *element.Template
	kind  int // JMeter's SourceType: hostname, device, device IPv4, device IPv6
	// fixed is the address worked out once when the field holds no ${}.
	fixed    netip.Addr
	fixedErr error
	isFixed  bool
}

// JMeter's HTTPSamplerBase.SourceType.
const (
	sourceHostname = iota
	sourceDevice
	sourceDeviceIPv4
	sourceDeviceIPv6
)

func newSourceAddr(c element.Builder, e *jmx.Element, defaults []*jmx.Element) *sourceAddr {
	raw := strings.TrimSpace(httpField(e, defaults, "HTTPSampler.ipSource"))
	if raw == "" {
		return nil
	}
	s := &sourceAddr{value: c.Template(e, "HTTPSampler.ipSource", raw), kind: jmx.Int(httpField(e, defaults, "HTTPSampler.ipSourceType"), sourceHostname)}
	if s.value.Const() {
		s.fixed, s.fixedErr = s.resolve(s.value.Raw())
		s.isFixed = true
	}
	return s
}

// addr is the address to connect from for this sample.
func (s *sourceAddr) addr(vu *element.VU) (netip.Addr, error) {
	if s.isFixed {
		return s.fixed, s.fixedErr
	}
	return s.resolve(s.value.Eval(vu))
}

// resolve finds the address a value names, as JMeter's
// HTTPSamplerBase.getIpSourceAddress does.
func (s *sourceAddr) resolve(v string) (netip.Addr, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return netip.Addr{}, nil
	}
	if s.kind == sourceHostname {
		if a, err := netip.ParseAddr(v); err == nil {
			return a, nil
		}
		ips, err := net.LookupIP(v)
		if err != nil || len(ips) == 0 {
			return netip.Addr{}, fmt.Errorf("%s: Name or service not known", v)
		}
		a, _ := netip.AddrFromSlice(ips[0])
		return a.Unmap(), nil
	}
	ifc, err := net.InterfaceByName(v)
	if err != nil {
		return netip.Addr{}, fmt.Errorf("interface %s not found", v)
	}
	addrs, err := ifc.Addrs()
	if err != nil {
		return netip.Addr{}, err
	}
	for _, a := range addrs {
		p, err := netip.ParsePrefix(a.String())
		if err != nil {
			continue
		}
		ip := p.Addr()
		switch {
		case s.kind == sourceDeviceIPv4 && !ip.Is4(),
			s.kind == sourceDeviceIPv6 && !ip.Is6():
			continue
		}
		return ip, nil
	}
	return netip.Addr{}, errors.New("interface " + v + " has no " + [...]string{"", "", "IPv4 ", "IPv6 "}[s.kind] + "address")
}
