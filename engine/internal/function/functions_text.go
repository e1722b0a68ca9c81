package function

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"hash"
	"html"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/internal/java"
)

// This file holds the encoding functions: URL, HTML, XML, digests, base64.

// ${__urlencode(text)}: Java's URLEncoder in UTF-8 (space becomes "+").
func fnURLEncode(_ *Compiler, args []*element.Template) (element.Function, error) {
	return element.FuncFunc(func(vu *element.VU) string { return javaURLEncode(args[0].Eval(vu)) }), nil
}

// ${__urldecode(text)}: Java's URLDecoder in UTF-8.
func fnURLDecode(_ *Compiler, args []*element.Template) (element.Function, error) {
	return element.FuncFunc(func(vu *element.VU) string {
		s, err := javaURLDecode(args[0].Eval(vu))
		if err != nil {
			vu.Warnf("__urldecode: %v", err)
		}
		return s
	}), nil
}

func javaURLEncode(s string) string {
	const hexDigits = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '-', c == '*', c == '_':
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			b.WriteByte('%')
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&15])
		}
	}
	return b.String()
}

func javaURLDecode(s string) (string, error) {
	var b []byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '+':
			b = append(b, ' ')
		case '%':
			if i+2 >= len(s) {
				return s, fmt.Errorf("incomplete trailing escape in %q", s)
			}
			v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return s, fmt.Errorf("illegal hex characters in escape in %q", s)
			}
			b = append(b, byte(v))
			i += 2
		default:
			b = append(b, c)
		}
	}
	return string(b), nil
}

// html4Names are the HTML 4.0 character entities, which commons-text's
// escapeHtml4 writes by name; their code points come from the html
// package's table.
var html4Names = strings.Fields(`quot amp lt gt nbsp iexcl cent pound curren yen brvbar sect uml copy ordf
laquo not shy reg macr deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12
frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute
Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN
szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml
eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml
fnof Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho Sigma Tau
Upsilon Phi Chi Psi Omega alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron
pi rho sigmaf sigma tau upsilon phi chi psi omega thetasym upsih piv bull hellip prime Prime oline frasl
weierp image real trade alefsym larr uarr rarr darr harr crarr lArr uArr rArr dArr hArr forall part exist
empty nabla isin notin ni prod sum minus lowast radic prop infin ang and or cap cup int there4 sim cong
asymp ne equiv le ge sub sup nsub sube supe oplus otimes perp sdot lceil rceil lfloor rfloor lang rang loz
spades clubs hearts diams OElig oelig Scaron scaron Yuml circ tilde ensp emsp thinsp zwnj zwj lrm rlm
ndash mdash lsquo rsquo sbquo ldquo rdquo bdquo dagger Dagger permil lsaquo rsaquo euro`)

var (
	html4Escape   map[rune]string // rune → "&name;"
	html4Unescape map[string]rune // name → rune
)

func init() {
	html4Escape = make(map[rune]string, len(html4Names))
	html4Unescape = make(map[string]rune, len(html4Names))
	for _, n := range html4Names {
		s := html.UnescapeString("&" + n + ";")
		r, size := utf8.DecodeRuneInString(s)
		if size != len(s) || s == "&"+n+";" {
			continue // not in the html package's table (cannot happen)
		}
		html4Escape[r] = "&" + n + ";"
		html4Unescape[n] = r
	}
	// HTML 4 names these with their older code points.
	delete(html4Escape, html4Unescape["lang"])
	delete(html4Escape, html4Unescape["rang"])
	html4Escape['\u2329'], html4Unescape["lang"] = "&lang;", '\u2329'
	html4Escape['\u232a'], html4Unescape["rang"] = "&rang;", '\u232a'

}

// ${__escapeHtml(text)}: commons-text's escapeHtml4.
func fnEscapeHTML(_ *Compiler, args []*element.Template) (element.Function, error) {
	return element.FuncFunc(func(vu *element.VU) string { return escapeHTML4(args[0].Eval(vu)) }), nil
}

func escapeHTML4(s string) string {
	var b strings.Builder
	for _, r := range s {
		if e, ok := html4Escape[r]; ok {
			b.WriteString(e)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// ${__unescapeHtml(text)}: commons-text's unescapeHtml4: HTML 4 names and
// numeric references; anything else stays.
func fnUnescapeHTML(_ *Compiler, args []*element.Template) (element.Function, error) {
	return element.FuncFunc(func(vu *element.VU) string { return unescapeHTML4(args[0].Eval(vu)) }), nil
}

func unescapeHTML4(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '&' {
			b.WriteByte(s[i])
			continue
		}
		end := strings.IndexByte(s[i:], ';')
		if end < 2 {
			b.WriteByte('&')
			continue
		}
		name := s[i+1 : i+end]
		if name[0] == '#' {
			var v uint64
			var err error
			if len(name) > 1 && (name[1] == 'x' || name[1] == 'X') {
				v, err = strconv.ParseUint(name[2:], 16, 32)
			} else {
				v, err = strconv.ParseUint(name[1:], 10, 32)
			}
			if err == nil && v <= utf8.MaxRune {
				b.WriteRune(rune(v))
				i += end
				continue
			}
		} else if r, ok := html4Unescape[name]; ok {
			b.WriteRune(r)
			i += end
			continue
		}
		b.WriteByte('&')
	}
	return b.String()
}

// ${__escapeXml(text)}: an XML 1.0 escape as JMeter's (unbescape, level 2):
// the five markup characters by name, every non-ASCII character as a
// hexadecimal reference, characters XML 1.0 forbids removed.
func fnEscapeXML(_ *Compiler, args []*element.Template) (element.Function, error) {
	return element.FuncFunc(func(vu *element.VU) string { return escapeXML10(args[0].Eval(vu)) }), nil
}

func escapeXML10(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case r == '"':
			b.WriteString("&quot;")
		case r == '\'':
			b.WriteString("&apos;")
		case r == '\t' || r == '\n' || r == '\r':
			b.WriteRune(r)
		case r < 0x20, r == 0xFFFE, r == 0xFFFF, r >= 0xD800 && r <= 0xDFFF:
			// not allowed in XML 1.0: dropped
		case r == 0x7F || r >= 0x80:
			fmt.Fprintf(&b, "&#x%x;", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ${__unescape(text)}: Java string escapes (\n, \t, \uXXXX…) decoded.
func fnUnescape(_ *Compiler, args []*element.Template) (element.Function, error) {
	return element.FuncFunc(func(vu *element.VU) string { return java.Unescape(args[0].Eval(vu)) }), nil
}

// ${__escapeOroRegexpChars(text,var)}: every character but letters,
// digits and '_' preceded by a backslash.
func fnEscapeRegexp(_ *Compiler, args []*element.Template) (element.Function, error) {
	return StoreAs(Arg(args, 1), func(vu *element.VU) string {
		s := args[0].Eval(vu)
		var b strings.Builder
		for _, r := range s {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r >= 0x80) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		return b.String()
	}), nil
}

// digests are the algorithms of Java's MessageDigest that gojm has.
var digests = map[string]func() hash.Hash{
	"MD5":         md5.New,
	"SHA":         sha1.New,
	"SHA1":        sha1.New,
	"SHA-1":       sha1.New,
	"SHA-224":     sha256.New224,
	"SHA-256":     sha256.New,
	"SHA-384":     sha512.New384,
	"SHA-512":     sha512.New,
	"SHA-512/224": sha512.New512_224,
	"SHA-512/256": sha512.New512_256,
	"SHA3-224":    func() hash.Hash { return sha3.New224() },
	"SHA3-256":    func() hash.Hash { return sha3.New256() },
	"SHA3-384":    func() hash.Hash { return sha3.New384() },
	"SHA3-512":    func() hash.Hash { return sha3.New512() },
}

// ${__digest(algorithm,text,salt,upper,var)}: the hex digest of text
// followed by salt.
func fnDigest(_ *Compiler, args []*element.Template) (element.Function, error) {
	alg, text, salt, upper, v := args[0], args[1], Arg(args, 2), Arg(args, 3), Arg(args, 4)
	if alg.Const() {
		if _, ok := digests[strings.ToUpper(strings.TrimSpace(alg.Raw()))]; !ok {
			return nil, fmt.Errorf("__digest: unknown algorithm %q", alg.Raw())
		}
	}
	return StoreAs(v, func(vu *element.VU) string {
		a := strings.ToUpper(strings.TrimSpace(alg.Eval(vu)))
		mk, ok := digests[a]
		if !ok {
			vu.Warnf("__digest: unknown algorithm %q", a)
			return ""
		}
		h := mk()
		h.Write([]byte(text.Eval(vu)))
		if s := EvalOr(salt, vu, ""); s != "" {
			h.Write([]byte(s))
		}
		out := hex.EncodeToString(h.Sum(nil))
		if strings.EqualFold(strings.TrimSpace(EvalOr(upper, vu, "")), "true") {
			out = strings.ToUpper(out)
		}
		return out
	}), nil
}

// ${__base64Encode(text,var)} (jmeter-plugins): standard base64.
func fnBase64Encode(_ *Compiler, args []*element.Template) (element.Function, error) {
	return StoreAs(Arg(args, 1), func(vu *element.VU) string {
		return base64.StdEncoding.EncodeToString([]byte(args[0].Eval(vu)))
	}), nil
}

// ${__base64Decode(text,var)} (jmeter-plugins).
func fnBase64Decode(_ *Compiler, args []*element.Template) (element.Function, error) {
	return StoreAs(Arg(args, 1), func(vu *element.VU) string {
		s := strings.TrimSpace(args[0].Eval(vu))
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			if b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "=")); err != nil {
				vu.Warnf("__base64Decode: %v", err)
				return ""
			}
		}
		return string(b)
	}), nil
}
