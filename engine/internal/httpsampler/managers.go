package httpsampler

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gojm/gojm/engine/httpx"
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// This file holds the config elements an HTTP Request reads besides its
// defaults and headers: the HTTP Authorization Manager, the DNS Cache
// Manager and the HTTP Cache Manager. When several of one kind are in
// scope, the outermost one applies, as in JMeter.

// authManager is a compiled HTTP Authorization Manager.
type authManager struct {
	entries    []authEntry
	preemptive bool // httpclient4.auth.preemptive (default true)
}

type authEntry struct {
	url, user, pass, realm *element.Template
	basic                  bool // BASIC (or the old BASIC_DIGEST): sent preemptively
}

// evalAuth is an Authorization Manager entry evaluated for one sample.
type evalAuth struct {
	url, user, pass, realm string
	preemptive             bool
}

func buildAuthManager(c element.Builder, s *jmx.Element, e *jmx.Element) (*authManager, error) {
	if e == nil {
		return nil, nil
	}
	m := &authManager{preemptive: true}
	if v, ok := c.Plan().Props.Get("httpclient4.auth.preemptive"); ok {
		m.preemptive = strings.EqualFold(strings.TrimSpace(v), "true")
	}
	for _, a := range e.Prop("AuthManager.auth_list").Members() {
		mech := strings.TrimSpace(a.Str("Authorization.mechanism"))
		switch mech {
		case "", "BASIC", "BASIC_DIGEST", "DIGEST":
		case "KERBEROS":
			return nil, fmt.Errorf("%s: Kerberos authentication is not supported; only Basic and Digest are", e.Path())
		default:
			return nil, fmt.Errorf("%s: unknown authentication mechanism %q", e.Path(), mech)
		}
		m.entries = append(m.entries, authEntry{
			url:   c.Template(s, "authorization URL", a.Str("Authorization.url")),
			user:  c.Template(s, "authorization username", a.Str("Authorization.username")),
			pass:  c.Template(s, "authorization password", a.Str("Authorization.password")),
			realm: c.Template(s, "authorization realm", a.Str("Authorization.realm")),
			basic: mech != "DIGEST",
		})
	}
	if len(m.entries) == 0 {
		return nil, nil
	}
	return m, nil
}

// eval evaluates the entries for one sample (the lanes that download
// resources read them without touching the virtual user's variables).
func (m *authManager) eval(vu *element.VU, out []evalAuth) []evalAuth {
	for _, a := range m.entries {
		out = append(out, evalAuth{url: a.url.Eval(vu), user: a.user.Eval(vu), pass: a.pass.Eval(vu),
			realm: a.realm.Eval(vu), preemptive: a.basic && m.preemptive})
	}
	return out
}

// matchAuth is AuthManager.getAuthForURL: the first entry whose URL starts
// the request URL, written with or without the scheme's default port.
func matchAuth(entries []evalAuth, u string) *evalAuth {
	scheme, host, port := splitURL(u)
	if scheme != "http" && scheme != "https" {
		return nil
	}
	alt := ""
	def := "80"
	if scheme == "https" {
		def = "443"
	}
	prefix := scheme + "://"
	rest := u[len(prefix):]
	path := ""
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		path = rest[i:]
	}
	switch port {
	case "":
		alt = prefix + host + ":" + def + path
	case def:
		alt = prefix + host + path
	}
	for i := range entries {
		a := &entries[i]
		if strings.HasPrefix(u, a.url) || alt != "" && strings.HasPrefix(alt, a.url) {
			return a
		}
	}
	return nil
}

// dnsManager is a compiled DNS Cache Manager.
type dnsManager struct {
	hosts     []staticHost
	servers   []string // custom DNS servers ("Use custom DNS resolver")
	clearIter bool
}

type staticHost struct {
	name, addrs *element.Template
}

func buildDNSManager(c element.Builder, s *jmx.Element, e *jmx.Element) (*dnsManager, error) {
	if e == nil {
		return nil, nil
	}
	m := &dnsManager{clearIter: e.Bool("DNSCacheManager.clearEachIteration", false)}
	for _, h := range e.Prop("DNSCacheManager.hosts").Members() {
		m.hosts = append(m.hosts, staticHost{
			name:  c.Template(s, "DNS static host", h.Str("StaticHost.Name")),
			addrs: c.Template(s, "DNS static address", h.Str("StaticHost.Address")),
		})
	}
	if e.Bool("DNSCacheManager.isCustomResolver", false) {
		for _, p := range e.Prop("DNSCacheManager.servers").Members() {
			if v := strings.TrimSpace(p.Value); v != "" {
				m.servers = append(m.servers, v)
			}
		}
	}
	return m, nil
}

// userDNS is one virtual user's DNS cache: JMeter's DNS Cache Manager keeps
// every answer for the thread's life, or for one iteration. It implements
// httpx.Resolver and is called from the transport's goroutines.
type userDNS struct {
	m      *dnsManager
	mu     sync.Mutex
	cache  map[string][]string
	static map[string]string // name → addresses, evaluated for the sample
	iter   int
	res    *net.Resolver
}

func (st *httpState) userDNS(vu *element.VU, m *dnsManager) *userDNS {
	d := st.dns[m]
	if d == nil {
		if st.dns == nil {
			st.dns = map[*dnsManager]*userDNS{}
		}
		d = &userDNS{m: m, cache: map[string][]string{}, static: map[string]string{}, iter: vu.Iteration}
		if len(m.servers) > 0 {
			d.res = customResolver(m.servers)
		}
		st.dns[m] = d
	}
	d.mu.Lock()
	if m.clearIter && d.iter != vu.Iteration {
		clear(d.cache)
	}
	d.iter = vu.Iteration
	for _, h := range m.hosts {
		d.static[h.name.Eval(vu)] = h.addrs.Eval(vu)
	}
	d.mu.Unlock()
	return d
}

// Resolve is DNSCacheManager.resolve: the cache, then the static host table
// (each address itself resolved, or taken literally), then the custom
// servers or the system resolver.
func (d *userDNS) Resolve(ctx context.Context, host string) ([]string, error) {
	d.mu.Lock()
	if ips, ok := d.cache[host]; ok {
		d.mu.Unlock()
		return ips, nil
	}
	addrs, static := "", false
	for name, a := range d.static {
		if strings.EqualFold(name, host) {
			addrs, static = a, true
			break
		}
	}
	d.mu.Unlock()
	var ips []string
	var err error
	if static {
		for _, a := range strings.Split(addrs, ",") {
			a = strings.TrimSpace(a)
			if a == "" {
				continue
			}
			if net.ParseIP(a) != nil {
				ips = append(ips, a)
				continue
			}
			if more, lerr := d.lookup(ctx, a); lerr == nil {
				ips = append(ips, more...)
			}
		}
	} else if ips, err = d.lookup(ctx, host); err != nil {
		return nil, err
	}
	d.mu.Lock()
	d.cache[host] = ips
	d.mu.Unlock()
	return ips, nil
}

func (d *userDNS) lookup(ctx context.Context, host string) ([]string, error) {
	if d.res != nil {
		ips, err := d.res.LookupIP(ctx, "ip4", host) // dnsjava's Type.A lookup
		if err != nil {
			return nil, err
		}
		out := make([]string, len(ips))
		for i, ip := range ips {
			out[i] = ip.String()
		}
		return out, nil
	}
	return net.DefaultResolver.LookupHost(ctx, host)
}

// customResolver asks the given DNS servers (host or host:port, port 53 by
// default) in turn.
func customResolver(servers []string) *net.Resolver {
	addrs := make([]string, len(servers))
	for i, s := range servers {
		if _, _, err := net.SplitHostPort(s); err != nil {
			s = net.JoinHostPort(s, "53")
		}
		addrs[i] = s
	}
	var d net.Dialer
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var first error
		for _, a := range addrs {
			c, err := d.DialContext(ctx, network, a)
			if err == nil {
				return c, nil
			}
			if first == nil {
				first = err
			}
		}
		return nil, first
	}}
}

// cacheManager is a compiled HTTP Cache Manager.
type cacheManager struct {
	clearIter       bool // clearEachIteration
	controlled      bool // CacheManager.controlledByThread: the thread group decides
	useExpires      bool
	maxSize         int
	mode            cacheMode
	code, message   string // of the sample of a cached resource, by mode
	cacheableMethod map[string]bool
}

type cacheMode uint8

const (
	cacheNoSample cacheMode = iota // RETURN_NO_SAMPLE, JMeter's default
	cache200                       // RETURN_200_CACHE
	cacheCustom                    // RETURN_CUSTOM_STATUS
)

func buildCacheManager(c element.Builder, e *jmx.Element) *cacheManager {
	if e == nil {
		return nil
	}
	m := &cacheManager{
		clearIter:       e.Bool("clearEachIteration", false),
		controlled:      e.Bool("CacheManager.controlledByThread", false),
		useExpires:      e.Bool("useExpires", false),
		maxSize:         jmx.Int(e.Str("maxSize"), 5000),
		message:         "(ex cache)",
		cacheableMethod: map[string]bool{},
	}
	props := c.Plan().Props
	if v, ok := props.Get("cache_manager.cached_resource_mode"); ok {
		switch strings.TrimSpace(v) {
		case "RETURN_200_CACHE":
			m.mode = cache200
		case "RETURN_CUSTOM_STATUS":
			m.mode = cacheCustom
		}
	}
	if v, ok := props.Get("RETURN_200_CACHE.message"); ok && m.mode == cache200 {
		m.message = v
	}
	if m.mode == cacheCustom {
		m.code, _ = props.Get("RETURN_CUSTOM_STATUS.code")
		m.message, _ = props.Get("RETURN_CUSTOM_STATUS.message")
	}
	methods := "GET"
	if v, ok := props.Get("cacheable_methods"); ok {
		methods = v
	}
	for _, f := range strings.FieldsFunc(methods, func(r rune) bool { return r == ' ' || r == ',' }) {
		m.cacheableMethod[strings.ToUpper(f)] = true
	}
	if m.maxSize <= 0 {
		m.maxSize = 5000
	}
	return m
}

// userCache is one virtual user's HTTP cache (JMeter keeps one per thread).
// Entries are evicted least recently stored first beyond the maximum size.
type userCache struct {
	m       *cacheManager
	mu      sync.Mutex
	entries map[string]*cacheEntry
	order   []string // keys, oldest first
	iter    int
}

type cacheEntry struct {
	lastModified, etag string
	expires            time.Time // zero: revalidate
	vary               string    // the Vary header names, "" when none
}

func (st *httpState) userCache(vu *element.VU, m *cacheManager) *userCache {
	uc := st.caches[m]
	if uc == nil {
		if st.caches == nil {
			st.caches = map[*cacheManager]*userCache{}
		}
		uc = &userCache{m: m, entries: map[string]*cacheEntry{}, iter: vu.Iteration}
		st.caches[m] = uc
	}
	if uc.iter != vu.Iteration {
		// CacheManager.testIterationStart
		if (m.controlled && !vu.Group.SameUser) || (!m.controlled && m.clearIter) {
			uc.mu.Lock()
			clear(uc.entries)
			uc.order = uc.order[:0]
			uc.mu.Unlock()
		}
		uc.iter = vu.Iteration
	}
	return uc
}

// entry finds the entry of a URL, following its Vary header to the entry
// of the request's values of the headers it names.
func (uc *userCache) entry(u string, hdr []httpx.Header) *cacheEntry {
	e := uc.entries[u]
	if e == nil || e.vary == "" {
		return e
	}
	return uc.entries[varyKey(u, e.vary, hdr)]
}

// varyKey is JMeter's varyUrl: the URL qualified by the request's values of
// the headers the response varies on.
func varyKey(u, vary string, hdr []httpx.Header) string {
	var b strings.Builder
	b.WriteString("vary-")
	b.WriteString(vary)
	b.WriteString("-")
	for _, name := range strings.Split(vary, ",") {
		name = strings.TrimSpace(name)
		b.WriteString(name)
		b.WriteString("=[")
		first := true
		for _, h := range hdr {
			if h.Name == name {
				if !first {
					b.WriteString(", ")
				}
				first = false
				b.WriteString(h.Value)
			}
		}
		b.WriteString("];")
	}
	b.WriteString("-")
	b.WriteString(u)
	return b.String()
}

// validators adds If-Modified-Since and If-None-Match from the entry of the
// URL, replacing the plan's own (CacheManager.setHeaders).
func (uc *userCache) validators(c *httpCall, u string, hdr []httpx.Header) []httpx.Header {
	uc.mu.Lock()
	e := uc.entry(u, hdr)
	var lm, etag string
	if e != nil {
		lm, etag = e.lastModified, e.etag
	}
	uc.mu.Unlock()
	if lm != "" {
		hdr = setHeader(hdr, "If-Modified-Since", lm)
	}
	if etag != "" {
		hdr = setHeader(hdr, "If-None-Match", etag)
	}
	return hdr
}

// fresh reports whether the URL's entry is still valid: only with "Use
// Cache-Control/Expires header" and an expiry in the future.
func (uc *userCache) fresh(c *httpCall, u string, hdr []httpx.Header) bool {
	uc.mu.Lock()
	defer uc.mu.Unlock()
	e := uc.entry(u, hdr)
	return e != nil && e.vary == "" && !e.expires.IsZero() && e.expires.After(time.Now())
}

// save is CacheManager.saveDetails: a cacheable response (method in
// cacheable_methods, status 2xx or 304, no "Vary: *") with any of
// Last-Modified, Expires, ETag or Cache-Control makes an entry, unless the
// URL has one already.
func (uc *userCache) save(c *httpCall, method string, status int, u string, h http.Header, req []httpx.Header) {
	m := uc.m
	vary := headerValue(h, "Vary")
	if vary == "*" || !m.cacheableMethod[method] || !(status >= 200 && status <= 299 || status == 304) {
		return
	}
	lm, expires, etag, cc := headerValue(h, "Last-Modified"), headerValue(h, "Expires"), headerValue(h, "Etag"), headerValue(h, "Cache-Control")
	if strings.TrimSpace(lm) == "" && strings.TrimSpace(expires) == "" && strings.TrimSpace(etag) == "" && strings.TrimSpace(cc) == "" {
		return
	}
	var exp time.Time
	if m.useExpires {
		if strings.Contains(cc, "no-store") {
			return
		}
		if expires != "" {
			exp = parseHTTPDate(expires)
			if exp.IsZero() {
				exp = time.Unix(0, 0) // an invalid date is already expired
			}
		}
		if !strings.Contains(cc, "no-cache") {
			exp = expiryFromCacheControl(lm, cc, expires, headerValue(h, "Date"), exp)
		}
	}
	uc.mu.Lock()
	defer uc.mu.Unlock()
	put := func(key string, e *cacheEntry) {
		if _, ok := uc.entries[key]; !ok {
			uc.order = append(uc.order, key)
		}
		uc.entries[key] = e
		for len(uc.entries) > m.maxSize && len(uc.order) > 0 {
			delete(uc.entries, uc.order[0])
			uc.order = uc.order[1:]
		}
	}
	if vary != "" {
		put(u, &cacheEntry{lastModified: lm, etag: etag, expires: exp, vary: vary})
		put(varyKey(u, vary, req), &cacheEntry{lastModified: lm, etag: etag, expires: exp})
		return
	}
	if _, ok := uc.entries[u]; !ok { // JMeter's cache.get(url, loader): an entry stays
		put(u, &cacheEntry{lastModified: lm, etag: etag, expires: exp})
	}
}

// expiryFromCacheControl: max-age wins over Expires; with neither, a tenth
// of the time since Last-Modified (per the Date header), or a year.
func expiryFromCacheControl(lm, cc, expires, date string, def time.Time) time.Time {
	if i := strings.Index(cc, "max-age="); i >= 0 {
		v := cc[i+len("max-age="):]
		if j := strings.IndexAny(v, ", "); j >= 0 {
			v = v[:j]
		}
		if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
			return time.Now().Add(time.Duration(secs) * time.Second)
		}
		return def
	}
	if expires != "" {
		return def
	}
	if lm != "" && date != "" {
		d, l := parseHTTPDate(date), parseHTTPDate(lm)
		if !d.IsZero() && !l.IsZero() {
			return time.Now().Add(time.Duration(float64(d.Sub(l).Milliseconds())*0.1+0.5) * time.Millisecond)
		}
	}
	return time.Now().Add(365 * 24 * time.Hour)
}

// parseHTTPDate parses the date formats HttpClient's DateUtils accepts; the
// zero time when none fits.
func parseHTTPDate(s string) time.Time {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC1123, "Monday, 02-Jan-06 15:04:05 MST", time.ANSIC} {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

// setHeader sets a request header, replacing any of the same name.
func setHeader(hdr []httpx.Header, name, value string) []httpx.Header {
	out := hdr[:0]
	for _, h := range hdr {
		if !strings.EqualFold(h.Name, name) {
			out = append(out, h)
		}
	}
	return append(out, httpx.Header{Name: name, Value: value})
}
