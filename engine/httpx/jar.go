package httpx

import (
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Cookie is one cookie of a Jar, with the fields of JMeter's Cookie.
type Cookie struct {
	Name, Value, Domain, Path string
	Secure                    bool
	// Expires is when the cookie expires, in Unix seconds; 0: at the end
	// of the session (never, within a run).
	Expires int64
	// DomainSpecified: the cookie came with a Domain (or, for a Cookie
	// Manager's own, has one), so it also goes to the domain's subdomains;
	// else only to its host.
	DomainSpecified bool
	// PathSpecified: the cookie came with a Path.
	PathSpecified bool

	// the Set-Cookie line that made it, for one that repeats it (setLine)
	raw    string
	maxAge int // the line's Max-Age, in seconds; 0: none
}

// MaxCookies caps the cookies of one jar. JMeter has no limit; a server
// that keeps setting new cookies must not grow a user's memory without
// end, so at the cap the oldest cookie makes room for the new one (an
// expired one first), as a browser's store caps its cookies.
const MaxCookies = 3000

// Jar is one virtual user's cookies, what JMeter's Cookie Manager holds:
// a list in the order the cookies came (a Set-Cookie that replaces a
// cookie puts it last, as the manager removes the old one and appends
// the new), matched to a request as HttpClient 4's "standard" (RFC 6265)
// cookie spec matches them. Its lanes and scripts use it at once, under
// its lock; no lock is shared with another user.
type Jar struct {
	mu  sync.Mutex
	cks []Cookie
}

// Len is the number of cookies (getCookieCount).
func (j *Jar) Len() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.cks)
}

// Get returns the cookie at i, in the jar's order.
func (j *Jar) Get(i int) (Cookie, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if i < 0 || i >= len(j.cks) {
		return Cookie{}, false
	}
	return j.cks[i], true
}

// Remove takes out the cookie at i; it reports whether there was one.
func (j *Jar) Remove(i int) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	if i < 0 || i >= len(j.cks) {
		return false
	}
	j.cks = append(j.cks[:i], j.cks[i+1:]...)
	j.cks[len(j.cks):cap(j.cks)][0] = Cookie{} // drop the strings the tail held
	return true
}

// Clear empties the jar.
func (j *Jar) Clear() {
	j.mu.Lock()
	defer j.mu.Unlock()
	clear(j.cks)
	j.cks = j.cks[:0]
}

// SetValue gives the cookie of that name, domain and path the value v
// (Cookie.setValue on one of the manager's cookies).
func (j *Jar) SetValue(name, domain, path, v string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for i := range j.cks {
		if c := &j.cks[i]; c.Name == name && c.Domain == domain && c.Path == path {
			c.Value, c.raw = v, "" // a Set-Cookie line no longer makes this cookie
		}
	}
}

// Add puts c in the jar as JMeter's CookieManager.add does: it replaces a
// cookie of the same name, domain and path, and a cookie with an empty
// value only removes that one (CookieManager.delete_null_cookies).
func (j *Jar) Add(c Cookie) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.add(c, time.Now().Unix())
}

func (j *Jar) add(c Cookie, now int64) {
	j.removeMatching(&c)
	if c.Value == "" {
		return
	}
	if len(j.cks) >= MaxCookies {
		j.makeRoom(now)
	}
	j.cks = append(j.cks, c)
}

// removeMatching takes out the cookies with c's name, domain and path.
func (j *Jar) removeMatching(c *Cookie) {
	out := j.cks[:0]
	for i := range j.cks {
		o := &j.cks[i]
		if o.Name == c.Name && o.Path == c.Path && o.Domain == c.Domain {
			continue
		}
		out = append(out, *o)
	}
	clear(j.cks[len(out):])
	j.cks = out
}

// makeRoom drops the expired cookies, or else the oldest.
func (j *Jar) makeRoom(now int64) {
	out := j.cks[:0]
	for _, c := range j.cks {
		if !c.expired(now) {
			out = append(out, c)
		}
	}
	clear(j.cks[len(out):])
	j.cks = out
	if len(j.cks) >= MaxCookies {
		copy(j.cks, j.cks[1:])
		j.cks[len(j.cks)-1] = Cookie{}
		j.cks = j.cks[:len(j.cks)-1]
	}
}

func (c *Cookie) expired(now int64) bool { return c.Expires != 0 && c.Expires <= now }

// origin is where a request goes, as a cookie spec sees it.
type origin struct {
	host   string // lower case, no port, no brackets
	path   string // the escaped path; "/" for none
	secure bool
}

func originOf(u *url.URL) origin {
	o := origin{host: u.Hostname(), path: u.EscapedPath(), secure: u.Scheme == "https" || u.Scheme == "wss"}
	if hasUpper(o.host) {
		o.host = strings.ToLower(o.host)
	}
	if o.path == "" {
		o.path = "/"
	}
	return o
}

func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

// matches is HttpClient's RFC 6265 match: the host is the cookie's
// domain or, for a cookie that named its domain, a subdomain of it (never
// an IP address); the path is the cookie's path or under it; a secure
// cookie only over HTTPS; and, as JMeter drops them, not expired.
func (c *Cookie) matches(o *origin, now int64) bool {
	if c.Secure && !o.secure || c.expired(now) {
		return false
	}
	return domainMatch(c, o.host) && pathMatch(o.path, c.Path)
}

func domainMatch(c *Cookie, host string) bool {
	d := strings.TrimLeft(c.Domain, ".")
	if d == "" {
		return false
	}
	if len(d) == len(host) && strings.EqualFold(d, host) {
		return true
	}
	if !c.DomainSpecified || isIP(host) {
		return false
	}
	n := len(host) - len(d)
	return n > 1 && host[n-1] == '.' && strings.EqualFold(host[n:], d)
}

func isIP(host string) bool {
	_, err := netip.ParseAddr(host)
	return err == nil
}

func pathMatch(path, cookie string) bool {
	if cookie == "" {
		cookie = "/"
	}
	if len(cookie) > 1 && cookie[len(cookie)-1] == '/' {
		cookie = cookie[:len(cookie)-1]
	}
	if !strings.HasPrefix(path, cookie) {
		return false
	}
	return cookie == "/" || len(path) == len(cookie) || path[len(cookie)] == '/'
}

// header appends to dst the Cookie header value for o, as HttpClient 4
// formats it: the matching cookies with the longer paths first, else in
// the jar's order, "name=value" joined by "; ", a value with a space,
// quote, comma, semicolon or backslash in double quotes. idx is scratch
// space, returned for the next call.
func (j *Jar) header(dst []byte, idx []int32, o *origin, now int64) ([]byte, []int32) {
	j.mu.Lock()
	defer j.mu.Unlock()
	idx = j.matching(idx, o, now)
	for n, i := range idx {
		c := &j.cks[i]
		if n > 0 {
			dst = append(dst, "; "...)
		}
		dst = append(dst, c.Name...)
		dst = append(dst, '=')
		if !strings.ContainsAny(c.Value, " \",;\\") {
			dst = append(dst, c.Value...)
			continue
		}
		dst = append(dst, '"')
		for k := 0; k < len(c.Value); k++ {
			if b := c.Value[k]; b == '"' || b == '\\' {
				dst = append(dst, '\\')
			}
			dst = append(dst, c.Value[k])
		}
		dst = append(dst, '"')
	}
	return dst, idx
}

// matching puts in idx[:0] the indexes of the cookies that match o, the
// longer paths first, else in the jar's order (HttpClient's
// CookiePriorityComparator over cookies made in the jar's order).
func (j *Jar) matching(idx []int32, o *origin, now int64) []int32 {
	idx = idx[:0]
	for i := range j.cks {
		if j.cks[i].matches(o, now) {
			// insertion sort, stable: longer path first
			k := len(idx)
			idx = append(idx, int32(i))
			pl := pathLen(j.cks[i].Path)
			for k > 0 && pathLen(j.cks[idx[k-1]].Path) < pl {
				idx[k] = idx[k-1]
				k--
			}
			idx[k] = int32(i)
		}
	}
	return idx
}

// pathLen is the length HttpClient's CookiePriorityComparator orders by.
func pathLen(p string) int {
	if p == "" {
		return 1
	}
	return len(p)
}

// setLine stores the cookie of one Set-Cookie line that came from o, as
// JMeter's HC4CookieHandler does: a cookie whose Domain does not cover
// the host is refused (CookieManager.check.cookies), an expired one
// removes its match, any other is added. A line that repeats the one that
// made a cookie in the jar, from a host and folder that make the same
// cookie of it, renews that cookie without parsing or copying anything.
func (j *Jar) setLine(line string, o *origin, now time.Time) {
	dir := defaultPath(o.path)
	secs := now.Unix()
	j.mu.Lock()
	defer j.mu.Unlock()
	for i := range j.cks {
		c := &j.cks[i]
		if c.raw != line || !c.PathSpecified && c.Path != dir ||
			c.Domain != o.host && !(c.DomainSpecified && domainMatch(c, o.host)) {
			continue
		}
		r := *c
		if r.maxAge != 0 {
			r.Expires = secs + int64(r.maxAge)
		}
		copy(j.cks[i:], j.cks[i+1:])
		if r.expired(secs) {
			j.cks[len(j.cks)-1] = Cookie{}
			j.cks = j.cks[:len(j.cks)-1]
		} else {
			j.cks[len(j.cks)-1] = r // moved last, as the manager re-adds it
		}
		return
	}
	name, value, attrs, ok := nameValue(line)
	if !ok {
		return
	}
	hc := &http.Cookie{}
	if strings.TrimSpace(attrs) != "" {
		// the attributes, read by Go's parser after a stand-in name and
		// value it accepts
		var err error
		if hc, err = http.ParseSetCookie("x=1;" + attrs); err != nil {
			return
		}
	}
	hc.Name, hc.Value = name, value
	c, ok := fromHTTP(hc, o, now)
	if !ok {
		return
	}
	if c.expired(secs) {
		j.removeMatching(&c)
		return
	}
	c.raw = strings.Clone(line)
	c.maxAge = max(hc.MaxAge, 0)
	j.add(c, secs)
}

// nameValue reads the name and value of a Set-Cookie line as HttpClient
// 4's RFC 6265 spec (JMeter's "standard") reads them with its
// TokenParser, keeping what Go's stricter parser refuses (a JSON value,
// a backslash, bytes beyond ASCII): the name is what comes before the
// first '=' (a ';' before it makes no cookie), trimmed, each run of white
// space one space; the value runs to the first ';' outside double quotes,
// trimmed, each run of white space outside quotes one space, the quotes
// dropped and, inside them, \" and \\ read as " and \ (any other
// backslash kept) and CR and LF dropped. attrs is what follows that ';'.
// The name and value are new strings, never parts of line. ok is false
// when HttpClient makes no cookie of the line: no name, or no '='.
func nameValue(line string) (name, value, attrs string, ok bool) {
	i := strings.IndexAny(line, "=;")
	if i < 0 || line[i] != '=' {
		return "", "", "", false
	}
	if name = collapseSpace(line[:i]); name == "" {
		return "", "", "", false
	}
	var b []byte
	space := false
	j := i + 1
	for j < len(line) && line[j] != ';' {
		ch := line[j]
		if isLWS(ch) {
			space = true
			j++
			continue
		}
		if space && len(b) > 0 {
			b = append(b, ' ')
		}
		space = false
		if ch != '"' {
			k := j
			for k < len(line) && !isLWS(line[k]) && line[k] != '"' && line[k] != ';' {
				k++
			}
			b = append(b, line[j:k]...)
			j = k
			continue
		}
		escaped := false
		for j++; j < len(line); j++ {
			ch := line[j]
			if escaped {
				if ch != '"' && ch != '\\' {
					b = append(b, '\\')
				}
				b = append(b, ch)
				escaped = false
				continue
			}
			if ch == '"' {
				break
			}
			if ch == '\\' {
				escaped = true
			} else if ch != '\r' && ch != '\n' {
				b = append(b, ch)
			}
		}
		j++ // past the closing quote
	}
	if j < len(line) {
		attrs = line[j+1:]
	}
	return name, string(b), attrs, true
}

// collapseSpace is s trimmed, each inner run of white space one space
// (TokenParser.parseToken), as a new string.
func collapseSpace(s string) string {
	var b []byte
	space := false
	for i := 0; i < len(s); i++ {
		if isLWS(s[i]) {
			space = true
			continue
		}
		if space && len(b) > 0 {
			b = append(b, ' ')
		}
		space = false
		b = append(b, s[i])
	}
	return string(b)
}

// isLWS is TokenParser's white space.
func isLWS(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

// fromHTTP is the jar's cookie of hc, a Set-Cookie from o, or false when
// HttpClient's validation refuses it. hc's name and value are the jar's
// own (nameValue's); the other strings it keeps are copied, never parts
// of the response head, which they would keep alive.
func fromHTTP(hc *http.Cookie, o *origin, now time.Time) (Cookie, bool) {
	c := Cookie{Name: hc.Name, Value: hc.Value, Secure: hc.Secure}
	if d := strings.TrimLeft(hc.Domain, "."); d != "" {
		c.Domain, c.DomainSpecified = strings.Clone(strings.ToLower(d)), true
		if c.Domain != o.host && !domainMatch(&c, o.host) {
			return Cookie{}, false
		}
	} else {
		c.Domain = strings.Clone(o.host)
	}
	if hc.Path != "" {
		c.Path, c.PathSpecified = strings.Clone(hc.Path), true
	} else {
		c.Path = strings.Clone(defaultPath(o.path))
	}
	switch {
	case hc.MaxAge < 0:
		c.Expires = 1 // expired
	case hc.MaxAge > 0:
		c.Expires = now.Unix() + int64(hc.MaxAge)
	case !hc.Expires.IsZero():
		c.Expires = max(hc.Expires.Unix(), 1)
	}
	return c, true
}

// defaultPath is RFC 6265's default-path of a request path: up to its
// last slash, "/" when that is the first.
func defaultPath(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return "/"
	}
	return p[:i]
}

// Header is the Cookie header value the jar sends to u, "" for none: for
// a request another client makes, such as a WebSocket upgrade.
func (j *Jar) Header(u *url.URL) string {
	o := originOf(u)
	b, _ := j.header(nil, nil, &o, time.Now().Unix())
	return string(b)
}

// setCookies stores every Set-Cookie of head, a response from u.
func (j *Jar) setCookies(u *url.URL, head *Head) {
	var o origin
	var now time.Time
	head.each("Set-Cookie", func(v string) {
		if now.IsZero() {
			o, now = originOf(u), time.Now()
		}
		j.setLine(v, &o, now)
	})
}

// jarTransport sends the jar's cookies and stores what each response
// sets, for the requests whose redirects the client follows itself: each
// hop net/http's Client makes goes through it, so every hop gets the
// Cookie header the lane's own requests get, in place of the one net/http's
// Client copies from the first request to each hop.
type jarTransport struct {
	rt  http.RoundTripper
	jar *Jar
}

func (t jarTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	o := originOf(r.URL)
	b, _ := t.jar.header(nil, nil, &o, time.Now().Unix())
	if len(b) > 0 {
		r.Header.Set("Cookie", string(b))
	}
	resp, err := t.rt.RoundTrip(r)
	if resp != nil && len(resp.Header["Set-Cookie"]) > 0 {
		head := HeadOf(resp.Header)
		t.jar.setCookies(r.URL, &head)
	}
	return resp, err
}
