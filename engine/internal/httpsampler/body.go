package httpsampler

import (
	"crypto/rand"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gojm/gojm/engine/httpx"
	"github.com/gojm/gojm/internal/files"
	"github.com/gojm/gojm/internal/java"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/ianaindex"
)

// This file builds what an HTTP Request sends besides its headers: the query
// string of a GET, a form body, raw body data, a file as the body, or a
// multipart form, each byte as JMeter 5.6 (HttpClient 4.5) makes it.

// httpCharset is a request's content encoding ("Content encoding" field; UTF-8
// when blank), named as Java names it in Content-Type parameters.
type httpCharset struct {
	name string
	enc  encoding.Encoding // nil for UTF-8
}

var utf8Charset = &httpCharset{name: "UTF-8"}

// charsetError is JMeter's java.nio.charset.UnsupportedCharsetException.
type charsetError struct{ name string }

func (e *charsetError) Error() string { return e.name }

// lookupCharset finds a charset by any of its names.
func lookupCharset(name string) (*httpCharset, error) {
	name = strings.TrimSpace(name)
	if name == "" || strings.EqualFold(name, "UTF-8") || strings.EqualFold(name, "UTF8") {
		return utf8Charset, nil
	}
	enc, err := ianaindex.IANA.Encoding(name)
	if err != nil || enc == nil {
		return nil, &charsetError{name: name}
	}
	// Java names charsets by their MIME (preferred) names: ISO-8859-1,
	// windows-1252, Shift_JIS…
	canon, err := ianaindex.MIME.Name(enc)
	if err != nil || canon == "" {
		if canon, err = ianaindex.IANA.Name(enc); err != nil {
			canon = name
		}
	}
	if canon == "UTF-8" {
		return utf8Charset, nil
	}
	return &httpCharset{name: canon, enc: enc}, nil
}

// appendEncoded appends s in the charset; characters it cannot encode
// become '?', as Java's String.getBytes does.
func (cs *httpCharset) appendEncoded(b []byte, s string) []byte {
	if cs.enc == nil {
		return append(b, s...)
	}
	e := cs.enc.NewEncoder()
	var one [utf8.UTFMax]byte
	for _, r := range s {
		n := utf8.EncodeRune(one[:], r)
		out, err := e.Bytes(one[:n])
		if err != nil || (r == utf8.RuneError && n == 3) {
			b = append(b, '?')
			continue
		}
		b = append(b, out...)
	}
	return b
}

// decode turns bytes in the charset into a string (for URL decoding).
func (cs *httpCharset) decode(b []byte) string {
	if cs.enc == nil {
		return strings.ToValidUTF8(string(b), "\uFFFD")
	}
	out, err := cs.enc.NewDecoder().Bytes(b)
	if err != nil {
		return string(b)
	}
	return string(out)
}

// formSafe marks the bytes Java's URLEncoder (and HttpClient's form
// encoder) leave as they are: letters, digits and ". - * _".
var formSafe [256]bool

func init() {
	for c := 'a'; c <= 'z'; c++ {
		formSafe[c] = true
	}
	for c := 'A'; c <= 'Z'; c++ {
		formSafe[c] = true
	}
	for c := '0'; c <= '9'; c++ {
		formSafe[c] = true
	}
	for _, c := range ".-*_" {
		formSafe[c] = true
	}
}

// appendURLEncoded appends s encoded as Java's URLEncoder.encode(s, cs)
// does: space as '+', the safe bytes as they are, every other byte of the
// charset encoding as %XX in upper case.
func appendURLEncoded(b []byte, s string, cs *httpCharset) []byte {
	plain := true
	for i := 0; i < len(s); i++ {
		if !formSafe[s[i]] {
			plain = false
			break
		}
	}
	if plain {
		return append(b, s...)
	}
	if cs.enc != nil {
		s = string(cs.appendEncoded(nil, s))
	}
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case formSafe[c]:
			b = append(b, c)
		case c == ' ':
			b = append(b, '+')
		default:
			b = append(b, '%', hex[c>>4], hex[c&15])
		}
	}
	return b
}

// urlDecode is Java's URLDecoder.decode(s, cs): '+' is a space, %XX
// sequences are bytes of the charset. Its errors are Java's
// IllegalArgumentException messages.
func urlDecode(s string, cs *httpCharset) (string, error) {
	if !strings.ContainsAny(s, "+%") {
		return s, nil
	}
	var out strings.Builder
	for i := 0; i < len(s); {
		switch c := s[i]; c {
		case '+':
			out.WriteByte(' ')
			i++
		case '%':
			var bs []byte
			for i < len(s) && s[i] == '%' {
				if i+2 >= len(s) {
					return "", errors.New("URLDecoder: Incomplete trailing escape (%) pattern")
				}
				hx := s[i+1 : i+3]
				v, err := strconv.ParseInt(hx, 16, 32)
				if err != nil {
					at := 0
					if isHex(hx[0]) || (hx[0] == '+' || hx[0] == '-') {
						at = 1
					}
					return "", fmt.Errorf("URLDecoder: Illegal hex characters in escape (%%) pattern - Error at index %d in: \"%s\"", at, hx)
				}
				if v < 0 {
					return "", errors.New("URLDecoder: Illegal hex characters in escape (%) pattern - negative value")
				}
				bs = append(bs, byte(v))
				i += 3
			}
			out.WriteString(cs.decode(bs))
		default:
			out.WriteByte(c)
			i++
		}
	}
	return out.String(), nil
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// evalArg is an argument of the sampler evaluated for one sample.
type evalArg struct {
	name, value string
	encode      bool
	meta        string
	contentType string
}

// skippable is JMeter's Argument.isSkippable: a blank name, or one that is
// an unresolved ${variable}, leaves the argument out of a form.
func skippable(name string) bool {
	t := strings.TrimSpace(name)
	return t == "" || strings.HasPrefix(t, "${") && strings.HasSuffix(name, "}")
}

// appendQuery appends the arguments as JMeter's getQueryString does: each
// name (URL-encoded in UTF-8 when "URL Encode?" is ticked), its metadata
// (the '=' or nothing) and its value (encoded in the content charset).
// Arguments whose encoded name is empty are left out.
func appendQuery(b []byte, args []evalArg, cs *httpCharset) []byte {
	first := true
	for _, a := range args {
		if a.name == "" {
			continue
		}
		if !first {
			b = append(b, '&')
		}
		first = false
		if a.encode {
			b = appendURLEncoded(b, a.name, utf8Charset)
		} else {
			b = append(b, a.name...)
		}
		b = append(b, a.meta...)
		if a.encode {
			b = appendURLEncoded(b, a.value, cs)
		} else {
			b = append(b, a.value...)
		}
	}
	return b
}

// appendForm appends an application/x-www-form-urlencoded body as
// HttpClient's UrlEncodedFormEntity writes it. Arguments not marked "URL
// Encode?" are taken as already encoded: decoded first, so that encoding
// them again gives back what the user typed.
func appendForm(b []byte, args []evalArg, cs *httpCharset) ([]byte, error) {
	first := true
	for _, a := range args {
		if skippable(a.name) {
			continue
		}
		name, value := a.name, a.value
		if !a.encode {
			var err error
			if name, err = urlDecode(name, cs); err != nil {
				return b, err
			}
			if value, err = urlDecode(value, cs); err != nil {
				return b, err
			}
		}
		if !first {
			b = append(b, '&')
		}
		first = false
		b = appendURLEncoded(b, name, cs)
		b = append(b, '=')
		b = appendURLEncoded(b, value, cs)
	}
	return b, nil
}

// appendRaw appends the values of the arguments one after the other, the
// body of "Body Data" (or of arguments that all lack a name), encoded in the
// charset.
func appendRaw(b []byte, args []evalArg, cs *httpCharset) []byte {
	for _, a := range args {
		v := a.value
		if a.encode {
			v = string(appendURLEncoded(nil, v, cs))
		}
		b = cs.appendEncoded(b, v)
	}
	return b
}

// evalFile is a file of the sampler evaluated for one sample.
type evalFile struct {
	path, param, mime string
	read              string // the file sent: path found as the plan's files are
}

// multipartChars are the characters of HttpMime's random boundaries.
const multipartChars = "-_1234567890abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// newBoundary makes a boundary as HttpMime does: 30 to 40 random
// characters of multipartChars.
func newBoundary(b []byte) []byte {
	var rnd [41]byte
	rand.Read(rnd[:])
	n := 30 + int(rnd[0])%11
	for i := 0; i < n; i++ {
		b = append(b, multipartChars[int(rnd[i+1])%len(multipartChars)])
	}
	return b
}

// multipart builds a multipart/form-data body as HttpMime 4.5 does for
// JMeter: one part per argument (text/plain in the charset, or the
// argument's own content type), then one per file, read when sent. In
// RFC 6532 mode (the default) every part carries Content-Disposition,
// Content-Type and Content-Transfer-Encoding, in UTF-8; in browser-
// compatible mode only Content-Disposition and, for files, Content-Type,
// in the charset. It returns the parts and the request's Content-Type.
func multipart(buf []byte, args []evalArg, files []evalFile, cs *httpCharset, browser bool) ([]httpx.Part, string) {
	boundary := string(newBoundary(nil))
	hdrCS := utf8Charset
	if browser {
		hdrCS = cs
	}
	var parts []httpx.Part
	b := buf[:0]
	field := func(name, value string) {
		b = hdrCS.appendEncoded(b, name)
		b = append(b, ": "...)
		b = hdrCS.appendEncoded(b, value)
		b = append(b, "\r\n"...)
	}
	for _, a := range args {
		if skippable(a.name) {
			continue
		}
		b = append(b, "--"...)
		b = cs.appendEncoded(b, boundary)
		b = append(b, "\r\n"...)
		field("Content-Disposition", `form-data; name="`+headerEscape(a.name)+`"`)
		if !browser {
			ct := a.contentType
			if !strings.Contains(ct, ";") {
				ct += "; charset=" + cs.name
			}
			field("Content-Type", ct)
			field("Content-Transfer-Encoding", "8bit")
		}
		b = append(b, "\r\n"...)
		b = cs.appendEncoded(b, a.value)
		b = append(b, "\r\n"...)
	}
	for _, f := range files {
		b = append(b, "--"...)
		b = cs.appendEncoded(b, boundary)
		b = append(b, "\r\n"...)
		nameCS := utf8Charset
		if browser {
			nameCS = cs
		}
		fname := percentQuote(entityEncode(filepath.Base(f.path), nameCS))
		field("Content-Disposition", `form-data; name="`+headerEscape(f.param)+`"; filename="`+headerEscape(fname)+`"`)
		mime := f.mime
		if mime == "" {
			mime = "application/octet-stream"
		}
		field("Content-Type", mime)
		if !browser {
			field("Content-Transfer-Encoding", "binary")
		}
		b = append(b, "\r\n"...)
		parts = append(parts, httpx.Part{Data: b}, httpx.Part{File: f.read})
		b = []byte("\r\n")
	}
	b = append(b, "--"...)
	b = cs.appendEncoded(b, boundary)
	b = append(b, "--\r\n"...)
	parts = append(parts, httpx.Part{Data: b})
	return parts, "multipart/form-data; boundary=" + boundary + "; charset=" + cs.name
}

// headerEscape escapes '"', '\' and CR in a Content-Disposition value, as
// HttpMime's FormBodyPartBuilder does.
func headerEscape(s string) string {
	if !strings.ContainsAny(s, "\"\\\r") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' || c == '\r' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// percentQuote is JMeter's ConversionUtils.percentEncode of file names:
// '"', CR and LF become %22, %0D and %0A.
func percentQuote(s string) string {
	if !strings.ContainsAny(s, "\"\r\n") {
		return s
	}
	return strings.NewReplacer(`"`, "%22", "\r", "%0D", "\n", "%0A").Replace(s)
}

// entityEncode replaces the characters the charset cannot encode by HTML
// numeric entities, as browsers (and JMeter) do in file names.
func entityEncode(s string, cs *httpCharset) string {
	if cs.enc == nil {
		return s
	}
	var b strings.Builder
	e := cs.enc.NewEncoder()
	var one [utf8.UTFMax]byte
	for _, r := range s {
		n := utf8.EncodeRune(one[:], r)
		if _, err := e.Bytes(one[:n]); err != nil {
			fmt.Fprintf(&b, "&#%d;", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// uploadFile is the file to send for a path known only as the sample is
// made: found as the plan's files are, refused outside the folders the
// plan may read; one that is absent fails the request as in JMeter.
func (h *httpSampler) uploadFile(name string) (string, error) {
	f, err := h.policy.Find(name)
	if errors.Is(err, files.ErrDenied) {
		return "", &urlError{"java.io.FileNotFoundException", err.Error()}
	}
	if err != nil {
		return f.Named, nil
	}
	return f.Path, nil
}

// checkURI is the check java.net.URL.toURI makes before JMeter sends a
// request: a URL with a character RFC 2396 does not allow (a space, a
// quote, '<', '>', '\', '^', '`', '{', '|', '}', a control) or a '%' not
// followed by two hex digits fails the sample with URISyntaxException.
func checkURI(u string) error {
	i := strings.Index(u, "://")
	if i < 0 {
		return nil
	}
	part, start := "authority", i+3
	for j := start; j < len(u); j++ {
		c := u[j]
		switch {
		case c == '/' && part == "authority":
			part = "path"
			continue
		case c == '?' && (part == "authority" || part == "path"):
			part = "query"
			continue
		case c == '#' && part != "fragment":
			part = "fragment"
			continue
		case c == '%':
			if j+2 >= len(u) || !isHex(u[j+1]) || !isHex(u[j+2]) {
				return &urlError{"java.net.URISyntaxException", fmt.Sprintf("Malformed escape pair at index %d: %s", j, u)}
			}
			continue
		}
		if c < 0x80 && (c <= ' ' || c == 0x7f || strings.IndexByte("\"<>\\^`{|}", c) >= 0 ||
			(part == "path" && (c == '[' || c == ']'))) {
			return &urlError{"java.net.URISyntaxException", fmt.Sprintf("Illegal character in %s at index %d: %s", part, java.UTF16Index(u, j), u)}
		}
	}
	return nil
}
