package httpsampler

import (
	"net/url"
	"strings"

	"github.com/gojm/gojm/engine/internal/element"
)

// Target is where the request goes as url builds it: a full URL in the
// path, or the protocol (http when blank), host and port, the port the
// protocol's default when blank.
func (h *httpSampler) Target(vu *element.VU) (scheme, host, port string) {
	if path := samplerPath(h.path.Eval(vu)); strings.HasPrefix(path, "http://") || strings.HasPrefix(path, "https://") {
		if u, err := url.Parse(path); err == nil {
			return u.Scheme, u.Hostname(), defaultPort(u.Scheme, u.Port())
		}
	}
	scheme = strings.ToLower(strings.TrimSpace(h.protocol.Eval(vu)))
	if scheme == "" {
		scheme = "http"
	}
	return scheme, strings.TrimSpace(h.domain.Eval(vu)), defaultPort(scheme, strings.TrimSpace(h.port.Eval(vu)))
}

func defaultPort(scheme, port string) string {
	if port != "" && port != "0" {
		return port
	}
	if scheme == "https" {
		return "443"
	}
	return "80"
}
