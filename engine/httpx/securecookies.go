package httpx

import (
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// Go's cookie jar takes localhost and loopback addresses for secure
// origins, as browsers do, and sends their secure cookies over plain HTTP
// too; JMeter sends a secure cookie over HTTPS only. The client notes the
// names of the secure cookies it put in the jar for such hosts and leaves
// them out of a plain-HTTP request to one. The set is copied on write
// (rare) so that lanes read it without a lock.

// noteSecure notes the secure cookies of cks that u set for a loopback host.
func (c *Client) noteSecure(u *url.URL, cks []*http.Cookie) {
	for _, ck := range cks {
		if !ck.Secure {
			continue
		}
		host := strings.TrimPrefix(ck.Domain, ".")
		if host == "" {
			host = u.Hostname()
		}
		if !loopbackHost(host) {
			continue
		}
		c.secureMu.Lock()
		old := c.secureLoop.Load()
		if old == nil || !(*old)[ck.Name] {
			m := make(map[string]bool, 1)
			if old != nil {
				for k := range *old {
					m[k] = true
				}
			}
			m[ck.Name] = true
			c.secureLoop.Store(&m)
		}
		c.secureMu.Unlock()
	}
}

// secureOnly returns the names of the secure cookies to leave out of a
// request to u, or nil.
func (c *Client) secureOnly(u *url.URL) map[string]bool {
	m := c.secureLoop.Load()
	if m == nil || u.Scheme != "http" || !loopbackHost(u.Hostname()) {
		return nil
	}
	return *m
}

// loopbackHost says whether Go's jar takes host for a secure origin.
func loopbackHost(host string) bool {
	host = strings.TrimSuffix(host, ".")
	if i := strings.LastIndexByte(host, '.'); i >= 0 {
		if strings.EqualFold(host[i+1:], "localhost") {
			return true
		}
	} else if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}
