package script

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"math"
	"math/big"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
	"github.com/gojm/gojm/internal/cache"
	"github.com/gojm/gojm/internal/java"
	"golang.org/x/text/encoding/charmap"
)

// javaError is an error the JavaScript runtime turns into a Java
// exception: its text is "class\x00message\x01".
type javaError struct{ class, msg string }

func (e *javaError) Error() string { return e.class + "\x00" + e.msg + "\x01" }

func jerr(class, format string, args ...any) error {
	return &javaError{class: class, msg: fmt.Sprintf(format, args...)}
}

// Regular expressions: Java's syntax on regexp2, compiled once per pattern.

var regexps = cache.NewFunc(4096, compileJavaRegex)

func javaRegex(pat string) (*regexp2.Regexp, error) { return regexps.Get(pat) }

func compileJavaRegex(pat string) (*regexp2.Regexp, error) {
	conv, err := java.Regex(pat, java.Backtracking)
	if err != nil {
		return nil, javaErr(err)
	}
	re, err := regexp2.Compile(conv, regexp2.None)
	if err != nil {
		return nil, jerr("java.util.regex.PatternSyntaxException", "%s near index 0\n%s", strings.TrimPrefix(err.Error(), "error parsing regexp: "), pat)
	}
	return re, nil
}

// javaErr turns a Java exception of package java into the runtime's.
func javaErr(err error) error {
	var e *java.Exception
	if errors.As(err, &e) {
		return jerr(e.Class, "%s", e.Message)
	}
	return err
}

// javaReplacement turns Java's replacement syntax ($1, ${name}, \$) into
// regexp2's ($1, ${name}, $$).
func javaReplacement(r string) (string, error) {
	s, err := java.Replacement(r)
	return s, javaErr(err)
}

func reReplace(s, pat, repl string, all bool) (string, error) {
	re, err := javaRegex(pat)
	if err != nil {
		return "", err
	}
	rep, err := javaReplacement(repl)
	if err != nil {
		return "", err
	}
	// group references beyond the pattern's groups are errors in Java
	n := -1
	if !all {
		n = 1
	}
	out, err := re.Replace(s, rep, -1, n)
	if err != nil {
		return "", jerr("java.lang.IllegalArgumentException", "%v", err)
	}
	return out, nil
}

func reMatches(s, pat string) (bool, error) {
	re, err := javaRegex(pat)
	if err != nil {
		return false, err
	}
	m, err := re.FindStringMatch(s)
	if err != nil {
		return false, jerr("java.lang.IllegalStateException", "%v", err)
	}
	if m != nil && m.RuneIndex == 0 && m.RuneLength == utf8.RuneCountInString(s) {
		return true, nil
	}
	// A match of the whole string may exist all the same: the leftmost
	// match can take a shorter alternative (a|ab finds "a" in "ab").
	// Java's matches anchors the pattern at both ends.
	anch, err := javaRegex(`\A(?:` + pat + `)\z`)
	if err != nil {
		return false, err
	}
	ok, err := anch.MatchString(s)
	if err != nil {
		return false, jerr("java.lang.IllegalStateException", "%v", err)
	}
	return ok, nil
}

// reFind returns the first match at or after rune index from: the whole
// match then the groups (nil for a group that did not take part).
func reFind(s, pat string, from int) ([]any, error) {
	re, err := javaRegex(pat)
	if err != nil {
		return nil, err
	}
	m, err := re.FindStringMatchStartingAt(s, from)
	if err != nil || m == nil {
		return nil, err
	}
	return matchGroups(m), nil
}

func matchGroups(m *regexp2.Match) []any {
	gs := m.Groups()
	out := make([]any, len(gs))
	for i, g := range gs {
		if len(g.Captures) == 0 {
			out[i] = nil
			continue
		}
		out[i] = g.String()
	}
	return out
}

func reFindAll(s, pat string) ([][]any, error) {
	re, err := javaRegex(pat)
	if err != nil {
		return nil, err
	}
	var out [][]any
	m, err := re.FindStringMatch(s)
	for err == nil && m != nil {
		out = append(out, matchGroups(m))
		m, err = re.FindNextMatch(m)
	}
	return out, err
}

// reSplit is String.split: trailing empty strings go when limit is 0, and
// a zero-width match at the start makes no leading empty string.
func reSplit(s, pat string, limit int) ([]string, error) {
	if s == "" {
		return []string{""}, nil
	}
	var pieces []string
	if len(pat) == 1 && !strings.ContainsAny(pat, ".$|()[{^?*+\\") ||
		len(pat) == 2 && pat[0] == '\\' && !(pat[1] >= '0' && pat[1] <= '9' || pat[1] >= 'a' && pat[1] <= 'z' || pat[1] >= 'A' && pat[1] <= 'Z') {
		sep := pat[len(pat)-1:]
		if limit > 0 {
			pieces = strings.SplitN(s, sep, limit)
		} else {
			pieces = strings.Split(s, sep)
		}
	} else {
		re, err := javaRegex(pat)
		if err != nil {
			return nil, err
		}
		runes := []rune(s)
		start := 0
		m, err := re.FindStringMatch(s)
		for err == nil && m != nil {
			if limit > 0 && len(pieces) == limit-1 {
				break
			}
			if m.RuneIndex == 0 && m.RuneLength == 0 {
				m, err = re.FindNextMatch(m)
				continue
			}
			if m.RuneLength == 0 && m.RuneIndex >= len(runes) {
				break
			}
			pieces = append(pieces, string(runes[start:m.RuneIndex]))
			start = m.RuneIndex + m.RuneLength
			m, err = re.FindNextMatch(m)
		}
		if err != nil {
			return nil, jerr("java.lang.IllegalStateException", "%v", err)
		}
		pieces = append(pieces, string(runes[start:]))
	}
	if limit == 0 {
		for len(pieces) > 1 && pieces[len(pieces)-1] == "" {
			pieces = pieces[:len(pieces)-1]
		}
		if len(pieces) == 1 && pieces[0] == "" && s != "" {
			return []string{}, nil
		}
	}
	return pieces, nil
}

// Charsets.

func encodeString(s, cs string) ([]int, error) {
	var bs []byte
	switch strings.ToUpper(strings.ReplaceAll(cs, "_", "-")) {
	case "UTF-8", "UTF8":
		bs = []byte(s)
	case "ISO-8859-1", "ISO8859-1", "LATIN1":
		e, err := charmap.ISO8859_1.NewEncoder().String(s)
		if err != nil {
			e = strings.Map(func(r rune) rune {
				if r > 255 {
					return '?'
				}
				return r
			}, s)
		}
		bs = []byte(e)
	case "US-ASCII", "ASCII":
		for _, r := range s {
			if r > 127 {
				r = '?'
			}
			bs = append(bs, byte(r))
		}
	case "UTF-16BE", "UTF-16":
		u := utf16.Encode([]rune(s))
		if strings.ToUpper(cs) == "UTF-16" {
			bs = append(bs, 0xFE, 0xFF)
		}
		for _, c := range u {
			bs = append(bs, byte(c>>8), byte(c))
		}
	default:
		return nil, jerr("java.io.UnsupportedEncodingException", "%s", cs)
	}
	out := make([]int, len(bs))
	for i, c := range bs {
		out[i] = int(int8(c))
	}
	return out, nil
}

func decodeBytes(b []int, cs string) (string, error) {
	bs := make([]byte, len(b))
	for i, c := range b {
		bs[i] = byte(c)
	}
	switch strings.ToUpper(strings.ReplaceAll(cs, "_", "-")) {
	case "UTF-8", "UTF8":
		return strings.ToValidUTF8(string(bs), "\uFFFD"), nil
	case "ISO-8859-1", "ISO8859-1", "LATIN1":
		return charmap.ISO8859_1.NewDecoder().String(string(bs))
	case "US-ASCII", "ASCII":
		var sb strings.Builder
		for _, c := range bs {
			if c > 127 {
				sb.WriteRune('\uFFFD')
			} else {
				sb.WriteByte(c)
			}
		}
		return sb.String(), nil
	}
	return "", jerr("java.io.UnsupportedEncodingException", "%s", cs)
}

func b64(b []int, urlSafe bool) string {
	bs := make([]byte, len(b))
	for i, c := range b {
		bs[i] = byte(c)
	}
	if urlSafe {
		return base64.URLEncoding.EncodeToString(bs)
	}
	return base64.StdEncoding.EncodeToString(bs)
}

func unb64(s string, urlSafe bool) ([]int, error) {
	enc := base64.StdEncoding
	if urlSafe {
		enc = base64.URLEncoding
	}
	s = strings.TrimRight(s, "=")
	bs, err := enc.WithPadding(base64.NoPadding).DecodeString(s)
	if err != nil {
		return nil, jerr("java.lang.IllegalArgumentException", "Illegal base64 character")
	}
	out := make([]int, len(bs))
	for i, c := range bs {
		out[i] = int(int8(c))
	}
	return out, nil
}

// urlEncode is URLEncoder.encode: form encoding (space as +).
func urlEncode(s, cs string) (string, error) {
	b, err := encodeString(s, cs)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	for _, c := range b {
		ch := byte(c)
		switch {
		case ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '.' || ch == '-' || ch == '*' || ch == '_':
			sb.WriteByte(ch)
		case ch == ' ':
			sb.WriteByte('+')
		default:
			fmt.Fprintf(&sb, "%%%02X", ch)
		}
	}
	return sb.String(), nil
}

func urlDecode(s, cs string) (string, error) {
	var raw []int
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '+':
			raw = append(raw, ' ')
		case '%':
			if i+2 >= len(s) {
				return "", jerr("java.lang.IllegalArgumentException", "URLDecoder: Incomplete trailing escape (%%) pattern")
			}
			v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return "", jerr("java.lang.IllegalArgumentException", "URLDecoder: Illegal hex characters in escape (%%) pattern")
			}
			raw = append(raw, int(int8(v)))
			i += 2
		default:
			if c < utf8.RuneSelf {
				raw = append(raw, int(c))
				continue
			}
			r, n := utf8.DecodeRuneInString(s[i:])
			enc, err := encodeString(string(r), cs)
			if err != nil {
				return "", err
			}
			raw = append(raw, enc...)
			i += n - 1
		}
	}
	return decodeBytes(raw, cs)
}

func digest(alg, s string) (string, error) {
	h := newDigest(alg)
	if h == nil {
		return "", jerr("java.security.NoSuchAlgorithmException", "%s MessageDigest not available", alg)
	}
	h.Write([]byte(s))
	return hex.EncodeToString(h.Sum(nil)), nil
}

// newDigest is MessageDigest.getInstance's algorithm, nil for one Java
// does not have.
func newDigest(alg string) hash.Hash {
	switch strings.ToUpper(alg) {
	case "MD5":
		return md5.New()
	case "SHA-1", "SHA1", "SHA":
		return sha1.New()
	case "SHA-224":
		return sha256.New224()
	case "SHA-256", "SHA256":
		return sha256.New()
	case "SHA-384":
		return sha512.New384()
	case "SHA-512", "SHA512":
		return sha512.New()
	}
	return nil
}

// urlParts splits a URL as java.net.URL does: protocol, host, port (-1
// when absent), path, query (nil when absent).
func urlParts(s string) ([]any, error) {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" {
		return nil, jerr("java.net.MalformedURLException", "no protocol: %s", s)
	}
	port := -1
	if p := u.Port(); p != "" {
		port, _ = strconv.Atoi(p)
	}
	var q any
	if u.RawQuery != "" || u.ForceQuery {
		q = u.RawQuery
	}
	return []any{u.Scheme, u.Hostname(), port, u.EscapedPath(), q}, nil
}

// roundHalfUp is Groovy's Double.round(places).
func roundHalfUp(x float64, places int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	r := new(big.Float).SetPrec(200).SetFloat64(x)
	s := r.Text('f', places+20)
	d, _ := new(big.Rat).SetString(s)
	scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(places)), nil))
	d.Mul(d, scale)
	half := big.NewRat(1, 2)
	if d.Sign() >= 0 {
		d.Add(d, half)
	} else {
		d.Sub(d, half)
	}
	q := new(big.Int).Quo(d.Num(), d.Denom())
	f, _ := new(big.Rat).SetFrac(q, scale.Num()).Float64()
	return f
}
