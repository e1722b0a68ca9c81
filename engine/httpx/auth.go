package httpx

import (
	"crypto/md5"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"strings"
)

// Credentials answer a server's authentication challenge (JMeter's HTTP
// Authorization Manager entry that matches the request URL).
type Credentials struct {
	User, Password string
	// Realm, when set, limits the credentials to challenges of that realm.
	Realm string
	// Preemptive sends Basic credentials with the first request, before any
	// challenge (JMeter's default for Basic entries, httpclient4.auth.preemptive).
	Preemptive bool
}

// basicAuth is the Authorization value of Basic credentials. Apache
// HttpClient encodes them in US-ASCII: any other character becomes '?'.
func basicAuth(c *Credentials) string {
	b := make([]byte, 0, len(c.User)+len(c.Password)+1)
	b = appendASCII(b, c.User)
	b = append(b, ':')
	b = appendASCII(b, c.Password)
	return "Basic " + base64.StdEncoding.EncodeToString(b)
}

func appendASCII(b []byte, s string) []byte {
	for _, r := range s {
		if r >= 0x80 {
			r = '?'
		}
		b = append(b, byte(r))
	}
	return b
}

// challenge is one WWW-Authenticate challenge: a scheme and its parameters.
type challenge struct {
	scheme string // lower case: "basic", "digest"
	params map[string]string
}

// parseChallenges reads the WWW-Authenticate headers of a response. A header
// may carry several challenges separated by commas.
func parseChallenges(h http.Header) []challenge {
	var out []challenge
	for _, v := range h.Values("WWW-Authenticate") {
		s := v
		for {
			s = strings.TrimLeft(s, " \t,")
			if s == "" {
				break
			}
			i := strings.IndexAny(s, " \t,")
			if i < 0 {
				i = len(s)
			}
			ch := challenge{scheme: strings.ToLower(s[:i]), params: map[string]string{}}
			s = s[i:]
			// name=value pairs until the next scheme token (a token not
			// followed by '=').
			for {
				t := strings.TrimLeft(s, " \t,")
				j := 0
				for j < len(t) && t[j] != '=' && t[j] != ' ' && t[j] != '\t' && t[j] != ',' {
					j++
				}
				if j == 0 || j >= len(t) || t[j] != '=' {
					s = t
					break
				}
				name := strings.ToLower(t[:j])
				t = t[j+1:]
				var val string
				if strings.HasPrefix(t, `"`) {
					var b strings.Builder
					k := 1
					for ; k < len(t) && t[k] != '"'; k++ {
						if t[k] == '\\' && k+1 < len(t) {
							k++
						}
						b.WriteByte(t[k])
					}
					val = b.String()
					if k < len(t) {
						k++
					}
					t = t[k:]
				} else {
					k := strings.IndexAny(t, " \t,")
					if k < 0 {
						k = len(t)
					}
					val, t = t[:k], t[k:]
				}
				ch.params[name] = val
				s = t
			}
			out = append(out, ch)
		}
	}
	return out
}

// answer returns the Authorization value that answers one of the challenges
// with the credentials, preferring Digest to Basic as Apache HttpClient
// does, or "" when none can be answered. sent is the scheme already sent
// with the request ("" when none): HttpClient does not retry it.
func answer(chs []challenge, c *Credentials, method, uri, sent string) string {
	for _, want := range [...]string{"digest", "basic"} {
		if want == sent {
			continue
		}
		for _, ch := range chs {
			if ch.scheme != want {
				continue
			}
			if c.Realm != "" && ch.params["realm"] != c.Realm {
				continue
			}
			if want == "basic" {
				return basicAuth(c)
			}
			if v := digestAuth(ch.params, c, method, uri); v != "" {
				return v
			}
		}
	}
	return ""
}

// digestAuth computes an RFC 2617 Digest response as Apache HttpClient 4.5
// does: MD5 or MD5-sess, qop "auth" when offered (auth-int is not), nonce
// count 1 and a fresh client nonce.
func digestAuth(p map[string]string, c *Credentials, method, uri string) string {
	algorithm := p["algorithm"]
	if algorithm == "" {
		algorithm = "MD5"
	}
	if !strings.EqualFold(algorithm, "MD5") && !strings.EqualFold(algorithm, "MD5-sess") {
		return ""
	}
	qop := ""
	if list, ok := p["qop"]; ok {
		for _, q := range strings.Split(list, ",") {
			if strings.EqualFold(strings.TrimSpace(q), "auth") {
				qop = "auth"
			}
		}
		if qop == "" {
			return ""
		}
	}
	var nb [8]byte
	rand.Read(nb[:])
	return digestResponse(p, c, method, uri, algorithm, qop, hex.EncodeToString(nb[:]))
}

// digestResponse is the Authorization value for a Digest challenge with a
// given client nonce.
func digestResponse(p map[string]string, c *Credentials, method, uri, algorithm, qop, cnonce string) string {
	realm, nonce := p["realm"], p["nonce"]
	const nc = "00000001"
	ha1 := md5hex(c.User + ":" + realm + ":" + c.Password)
	if strings.EqualFold(algorithm, "MD5-sess") {
		ha1 = md5hex(ha1 + ":" + nonce + ":" + cnonce)
	}
	ha2 := md5hex(method + ":" + uri)
	var resp string
	if qop == "" {
		resp = md5hex(ha1 + ":" + nonce + ":" + ha2)
	} else {
		resp = md5hex(ha1 + ":" + nonce + ":" + nc + ":" + cnonce + ":" + qop + ":" + ha2)
	}
	var b strings.Builder
	b.WriteString(`Digest username="`)
	b.WriteString(quoteEscape(c.User))
	b.WriteString(`", realm="`)
	b.WriteString(quoteEscape(realm))
	b.WriteString(`", nonce="`)
	b.WriteString(quoteEscape(nonce))
	b.WriteString(`", uri="`)
	b.WriteString(quoteEscape(uri))
	b.WriteString(`", response="`)
	b.WriteString(resp)
	b.WriteByte('"')
	if qop != "" {
		b.WriteString(", qop=auth, nc=" + nc + `, cnonce="` + cnonce + `"`)
	}
	b.WriteString(", algorithm=" + algorithm)
	if opaque, ok := p["opaque"]; ok {
		b.WriteString(`, opaque="` + quoteEscape(opaque) + `"`)
	}
	return b.String()
}

func md5hex(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

func quoteEscape(s string) string {
	if !strings.ContainsAny(s, `"\`) {
		return s
	}
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
}

// schemeOf names the scheme of an Authorization value, lower case.
func schemeOf(v string) string {
	if i := strings.IndexByte(v, ' '); i > 0 {
		return strings.ToLower(v[:i])
	}
	return strings.ToLower(v)
}
