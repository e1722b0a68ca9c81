package httpsampler

import (
	"bytes"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/internal/cache"
	"github.com/gojm/gojm/jmx"
	"github.com/gojm/gojm/report"
	"golang.org/x/net/html"
)

// This file downloads the embedded resources of a page ("Retrieve All
// Embedded Resources") as JMeter's HTTPSamplerBase.downloadPageResources
// does: the links JMeter's default HTML parser (LagartoBasedHtmlParser)
// finds, and the @imports of style sheets (CssParser), each fetched once,
// serially or by a pool of parallel downloads, as sub-samples of the page.

// embeddedConfig is how a sampler downloads embedded resources.
type embeddedConfig struct {
	include, exclude *element.Template
	incRE, excRE     *regexp.Regexp // compiled once when the pattern is constant
	concurrent       bool
	pool             *element.Template
	ignoreFailed     bool // httpsampler.ignore_failed_embedded_resources
	// listOnly downloads no resource's own resources: a Parallel HTTP
	// Requests sampler whose "Retrieve All Embedded Resources" is off
	// fetches its URL list and nothing more.
	listOnly bool
}

// defaultPool is JMeter's CONCURRENT_POOL_SIZE.
const defaultPool = 6

func buildEmbedded(c element.Builder, e *jmx.Element, defaults []*jmx.Element) (*embeddedConfig, error) {
	field := func(name string) *element.Template { return c.Template(e, name, httpField(e, defaults, name)) }
	m := &embeddedConfig{
		include:    field("HTTPSampler.embedded_url_re"),
		exclude:    field("HTTPSampler.embedded_url_exclude_re"),
		concurrent: httpBool(e, defaults, "HTTPSampler.concurrentDwn", false),
		pool:       field("HTTPSampler.concurrentPool"),
	}
	if v, ok := c.Plan().Props.Get("httpsampler.ignore_failed_embedded_resources"); ok {
		m.ignoreFailed = strings.EqualFold(strings.TrimSpace(v), "true")
	}
	var err error
	if m.include.Const() {
		if m.incRE, err = urlPattern(m.include.Raw()); err != nil {
			return nil, fmt.Errorf("URLs must match: %w", err)
		}
	}
	if m.exclude.Const() {
		if m.excRE, err = urlPattern(m.exclude.Raw()); err != nil {
			return nil, fmt.Errorf("URLs must not match: %w", err)
		}
	}
	return m, nil
}

// urlPattern compiles an embedded-URL pattern, which must match a whole
// URL; nil when the pattern is empty.
func urlPattern(p string) (*regexp.Regexp, error) {
	if p == "" {
		return nil, nil
	}
	return regexp.Compile(`^(?:` + p + `)$`)
}

// urlPatterns are the patterns built from variables, by their text, each
// compiled once: every sample of a page evaluates them, and compiling one
// costs about a hundred allocations.
var urlPatterns = cache.NewFunc(256, urlPattern)

// patterns returns the include and exclude patterns for this sample. A
// pattern built from variables that does not compile is ignored, as JMeter
// ignores it (with a warning).
func (m *embeddedConfig) patterns(vu *element.VU) (inc, exc *regexp.Regexp) {
	inc, exc = m.incRE, m.excRE
	if !m.include.Const() {
		var err error
		if inc, err = urlPatterns.Get(m.include.Eval(vu)); err != nil {
			vu.Warnf("ignoring the embedded URL pattern: %v", err)
			inc = nil
		}
	}
	if !m.exclude.Const() {
		var err error
		if exc, err = urlPatterns.Get(m.exclude.Eval(vu)); err != nil {
			vu.Warnf("ignoring the embedded URL exclude pattern: %v", err)
			exc = nil
		}
	}
	return inc, exc
}

// poolSize is the number of parallel downloads, 1 for serial ones.
func (m *embeddedConfig) poolSize(vu *element.VU) int {
	if !m.concurrent {
		return 1
	}
	n, err := strconv.Atoi(strings.TrimSpace(m.pool.Eval(vu)))
	if err != nil {
		vu.Warnf("concurrent download of embedded resources: pool size %q is not a number; using %d", m.pool.Eval(vu), defaultPool)
		return defaultPool
	}
	return max(n, 1)
}

type parserKind uint8

const (
	noParser parserKind = iota
	htmlParser
	cssParser
)

// parserOf is the parser JMeter registers for a media type
// (HTTPResponse.parsers and its *.types properties).
func parserOf(mediaType string) parserKind {
	switch mediaType {
	case "text/html", "application/xhtml+xml", "application/xml", "text/xml", "text/vnd.wap.wml":
		return htmlParser
	case "text/css":
		return cssParser
	}
	return noParser
}

// keepParsable keeps the bodies embedded resources are parsed from.
func keepParsable(contentType string) bool { return parserOf(mediaType(contentType)) != noParser }

// downloadResources fetches the embedded resources of the page in s, which
// becomes their container: the page itself moves to s.Sub[0] (name-0), each
// resource follows (name-1, name-2…), and s takes their time and bytes.
func (c *httpCall) downloadResources(ln *httpLane, depth int, s *report.Sample, hp *hop) {
	kind := parserOf(hp.mediaType)
	if kind == noParser || len(hp.body) == 0 {
		return
	}
	base, err := url.Parse(s.URL)
	if err != nil {
		return
	}
	var links []string
	if kind == htmlParser {
		links = htmlLinks(hp.body, base)
	} else {
		links = cssLinks(hp.body, base)
	}
	if len(links) == 0 {
		return
	}
	page := new(report.Sample)
	*page = *s
	c.storeSub(s, page)
	c.download(ln, depth, s, links)
}

// download fetches the resources at links (those the sample's patterns
// let through) as sub-samples of s, each once, serially or by the pool of
// parallel downloads. A failed resource fails s with JMeter's "Embedded
// resource download error:" message.
func (c *httpCall) download(ln *httpLane, depth int, s *report.Sample, links []string) {
	m := c.h.embedded
	inc, exc := c.inc, c.exc
	targets := links[:0]
	for _, u := range links {
		if inc != nil && !inc.MatchString(u) {
			continue
		}
		if exc != nil && exc.MatchString(u) {
			continue
		}
		targets = append(targets, u)
	}
	results := make([]*report.Sample, len(targets))
	pool := c.pool
	if ln != &c.st.main {
		pool = 1 // the resources of a frame: serially, on the frame's lane
	}
	if pool > 1 && len(targets) > 1 {
		c.parallel(min(pool, len(targets)), targets, results, depth)
	} else {
		rl := ln
		if ln == &c.st.main {
			// The page's body stays in the main lane: resources go on another.
			rl = c.st.lane(c.vu, 0)
		}
		for i, u := range targets {
			results[i] = c.resource(rl, u, depth)
		}
	}
	failed := false
	for _, rs := range results {
		if rs == nil {
			continue // answered by the cache: no sample
		}
		c.addSub(s, rs)
		if !rs.Success {
			failed = true
		}
	}
	if failed && !m.ignoreFailed {
		s.Success = false
		var b strings.Builder
		b.WriteString("Embedded resource download error:")
		for _, sub := range s.Sub {
			if !sub.Success {
				b.WriteString(sub.URL)
				b.WriteString(" code:")
				b.WriteString(sub.Code)
				b.WriteString(" message:")
				b.WriteString(sub.Message)
				b.WriteString(", ")
			}
		}
		s.Message = b.String()
	}
}

// resource fetches one embedded resource (and, for a frame or a style
// sheet, its own resources); nil when the cache answers without a sample.
func (c *httpCall) resource(ln *httpLane, u string, depth int) *report.Sample {
	rs := c.newSample(u)
	var rh hop
	if !c.fetch(ln, u, "GET", false, false, depth+1, rs, &rh) {
		return nil
	}
	c.process(ln, false, depth+1, rs, &rh)
	return rs
}

// parallel fetches the resources with n lanes at once, as JMeter's pool of
// download threads does, keeping the results in page order.
func (c *httpCall) parallel(n int, targets []string, results []*report.Sample, depth int) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < n; w++ {
		rl := c.st.lane(c.vu, w)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(targets) {
					return
				}
				results[i] = c.resource(rl, targets[i], depth)
			}
		}()
	}
	wg.Wait()
}

// htmlLinks lists the resource URLs of a page, in document order and each
// once, as LagartoBasedHtmlParser finds them: img, script, input type=image,
// frame, iframe, embed, bgsound, applet, object, link (stylesheet, icon,
// shortcut icon, preload), background attributes and url('…') in style
// attributes, resolved against the page URL or its <base href>.
func htmlLinks(body []byte, base *url.URL) []string {
	var out []string
	seen := map[string]bool{}
	add := func(raw string) {
		raw = normalizeLink(raw)
		if raw == "" {
			return
		}
		u, err := resolveRef(base, raw)
		if err != nil || seen[u] {
			return
		}
		seen[u] = true
		out = append(out, u)
	}
	z := html.NewTokenizer(bytes.NewReader(body))
	var a tagAttrs
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return out
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		name, more := z.TagName()
		a = tagAttrs{}
		for more {
			var k, v []byte
			k, v, more = z.TagAttr()
			a.set(string(k), v)
		}
		switch string(name) {
		case "script":
			add(a.src)
			continue // Lagarto hands scripts to a callback that reads only src
		case "body":
			add(a.background)
		case "base":
			if a.href != "" {
				if b, err := url.Parse(strings.TrimSpace(a.href)); err == nil {
					base = base.ResolveReference(b)
				}
			}
		case "img", "frame", "iframe", "embed", "bgsound":
			add(a.src)
		case "applet":
			switch {
			case strings.TrimSpace(a.codebase) != "" && strings.TrimSpace(a.archive) != "":
				add(a.codebase + "/" + a.archive)
			case strings.TrimSpace(a.codebase) != "":
				add(a.codebase + "/" + a.code)
			default:
				add(a.code)
			}
		case "object":
			add(a.codebase)
			add(a.data)
		case "input":
			if a.hasType && strings.EqualFold(a.typ, "image") {
				add(a.src)
			}
		case "link":
			if a.hasRel {
				switch strings.ToLower(a.rel) {
				case "stylesheet", "icon", "shortcut icon", "preload":
					add(a.href)
				}
			}
		default:
			add(a.background)
		}
		if a.style != "" {
			for _, m := range styleURL.FindAllStringSubmatch(a.style, -1) {
				add(m[2])
			}
		}
	}
}

// styleURL is the pattern JMeter applies to style attributes (with its
// default ORO engine: case-insensitive, '.' matching newlines, greedy).
var styleURL = regexp.MustCompile(`(?is)URL\(\s*('|")(.*)('|")\s*\)`)

// tagAttrs holds the attributes of a tag that name resources; the first of
// a repeated attribute wins, as in Lagarto.
type tagAttrs struct {
	src, href, background, codebase, archive, code, data, typ, rel, style string
	hasType, hasRel                                                       bool
	seen                                                                  uint16
}

func (a *tagAttrs) set(k string, v []byte) {
	var bit uint16
	var dst *string
	switch k {
	case "src":
		bit, dst = 1, &a.src
	case "href":
		bit, dst = 2, &a.href
	case "background":
		bit, dst = 4, &a.background
	case "codebase":
		bit, dst = 8, &a.codebase
	case "archive":
		bit, dst = 16, &a.archive
	case "code":
		bit, dst = 32, &a.code
	case "data":
		bit, dst = 64, &a.data
	case "type":
		bit, dst = 128, &a.typ
		a.hasType = true
	case "rel":
		bit, dst = 256, &a.rel
		a.hasRel = true
	case "style":
		bit, dst = 512, &a.style
	default:
		return
	}
	if a.seen&bit != 0 {
		return
	}
	a.seen |= bit
	*dst = string(v)
}

// normalizeLink is HTMLParser.normalizeUrlValue: trimmed, without line
// breaks, backspaces and form feeds.
func normalizeLink(s string) string {
	s = strings.TrimSpace(s)
	if strings.ContainsAny(s, "\n\r\b\f") {
		s = strings.Map(func(r rune) rune {
			switch r {
			case '\n', '\r', '\b', '\f':
				return -1
			}
			return r
		}, s)
	}
	return s
}

// cssLinks lists the @import targets of a style sheet, as JMeter's
// CssParser does (it leaves url() in rules alone: browsers fetch those only
// when a rule applies). Repeats are kept.
func cssLinks(body []byte, base *url.URL) []string {
	var out []string
	s := body
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := bytes.Index(s[i+2:], []byte("*/"))
			if end < 0 {
				return out
			}
			i += end + 4
		case c == '"' || c == '\'':
			i = skipCSSString(s, i)
		case c == '@' && i+7 <= len(s) && bytes.EqualFold(s[i+1:i+7], []byte("import")):
			j := i + 7
			for j < len(s) && isCSSSpace(s[j]) {
				j++
			}
			var target string
			switch {
			case j < len(s) && (s[j] == '"' || s[j] == '\''):
				end := skipCSSString(s, j)
				target = string(s[j+1 : max(end-1, j+1)])
				j = end
			case j+4 <= len(s) && bytes.EqualFold(s[j:j+4], []byte("url(")):
				end := bytes.IndexByte(s[j:], ')')
				if end < 0 {
					return out
				}
				target = strings.Trim(strings.TrimSpace(string(s[j+4:j+end])), `"'`)
				j += end + 1
			}
			if target = strings.TrimSpace(target); target != "" {
				if u, err := resolveRef(base, target); err == nil {
					out = append(out, u)
				}
			}
			i = j
		default:
			i++
		}
	}
	return out
}

func skipCSSString(s []byte, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q, '\n':
			return j + 1
		}
	}
	return len(s)
}

func isCSSSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// resolveRef resolves a link against a base URL as java.net.URL does, then
// makes it a valid request URL (JMeter's sanitizeUrl): only http and https
// links are kept.
func resolveRef(base *url.URL, ref string) (string, error) {
	r, err := url.Parse(ref)
	if err != nil {
		r, err = url.Parse(escapeIllegal(ref))
		if err != nil {
			return "", err
		}
	}
	u := base.ResolveReference(r)
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("unknown protocol: %s", u.Scheme)
	}
	if u.Host == "" {
		return "", fmt.Errorf("no host in %q", ref)
	}
	u.RawQuery = escapeIllegal(u.RawQuery)
	return u.String(), nil
}

// resolveURL resolves a reference (a redirect's Location) against a URL.
func resolveURL(base, ref string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	return resolveRef(b, ref)
}

// escapeIllegal percent-encodes the bytes that may not appear in a URL:
// controls, space, non-ASCII and "<>\"\\^`{|}".
func escapeIllegal(s string) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if illegalURLByte(s[i]) {
			n++
		}
	}
	if n == 0 {
		return s
	}
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(s)+2*n)
	for i := 0; i < len(s); i++ {
		if c := s[i]; illegalURLByte(c) {
			b = append(b, '%', hex[c>>4], hex[c&15])
		} else {
			b = append(b, c)
		}
	}
	return string(b)
}

func illegalURLByte(c byte) bool {
	return c <= ' ' || c >= 0x7f || strings.IndexByte("<>\"\\^`{|}", c) >= 0
}
