package java

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// JMeter's extractors and assertions use Perl 5 regular expressions (the
// ORO engine by default, java.util.regex when jmeter.regex.engine says so).
// gojm runs them with Go's RE2 engine: Regex rewrites the constructs
// whose spelling differs and refuses, with a clear message, the ones RE2
// cannot run at all (look-around, back-references, atomic groups,
// possessive quantifiers, class intersection).

// ErrRegexUnsupported marks a pattern that is valid for JMeter but cannot
// run in RE2; a plan holding one as a constant is refused at compile time.
var ErrRegexUnsupported = errors.New("cannot run in Go's RE2 regular expression engine")

// posixClasses maps Java's \p{Name} POSIX classes to RE2 classes.
var posixClasses = map[string]string{
	"Lower": "[:lower:]", "Upper": "[:upper:]", "ASCII": "\\x00-\\x7F", "Alpha": "[:alpha:]",
	"Digit": "[:digit:]", "Alnum": "[:alnum:]", "Punct": "[:punct:]", "Graph": "[:graph:]",
	"Print": "[:print:]", "Blank": "[:blank:]", "Cntrl": "[:cntrl:]", "XDigit": "[:xdigit:]",
	"Space": "[:space:]",
}

// Regex translates a Java/Perl pattern into RE2 syntax.
func Regex(p string) (string, error) {
	unsupported := func(what string) (string, error) {
		return "", fmt.Errorf("regular expression %q %w: %s is not supported", p, ErrRegexUnsupported, what)
	}
	var b strings.Builder
	inClass := false
	afterQuant := false // the previous token was a quantifier
	for i := 0; i < len(p); i++ {
		ch := p[i]
		wasQuant := afterQuant
		afterQuant = false
		switch {
		case ch == '\\' && i+1 < len(p):
			n := p[i+1]
			switch {
			case n == 'Q':
				// \Q…\E quotes literally; RE2 knows it, copy through.
				end := strings.Index(p[i+2:], "\\E")
				if end < 0 {
					b.WriteString(p[i:])
					i = len(p)
					continue
				}
				b.WriteString(p[i : i+2+end+2])
				i += 2 + end + 1
			case n >= '1' && n <= '9' && !inClass:
				return unsupported("a back-reference \\" + string(n))
			case n == '0':
				// Java octal \0n, \0nn, \0mnn
				j := i + 2
				for j < len(p) && j < i+5 && p[j] >= '0' && p[j] <= '7' {
					j++
				}
				if j == i+2 {
					return unsupported("\\0 without octal digits")
				}
				var v int
				for _, d := range p[i+2 : j] {
					v = v*8 + int(d-'0')
				}
				if v > 0377 {
					j--
					v >>= 3
				}
				fmt.Fprintf(&b, "\\x{%X}", v)
				i = j - 1
			case n == 'e':
				b.WriteString("\\x1B")
				i++
			case n == 'c' && i+2 < len(p):
				fmt.Fprintf(&b, "\\x{%X}", p[i+2]^0x40)
				i += 2
			case n == 'Z':
				// end of input or before a final line terminator
				if inClass {
					return unsupported("\\Z in a character class")
				}
				b.WriteString("(?:\\n?\\z)")
				i++
			case n == 'G' || n == 'R' || n == 'X' || n == 'K':
				return unsupported("\\" + string(n))
			case n == 'h':
				b.WriteString(classOrBare(inClass, "\\t \\x{A0}\\x{1680}\\x{180e}\\x{2000}-\\x{200a}\\x{202f}\\x{205f}\\x{3000}"))
				i++
			case (n == 'p' || n == 'P') && i+2 < len(p) && p[i+2] == '{':
				end := strings.IndexByte(p[i+3:], '}')
				if end < 0 {
					b.WriteString(p[i:])
					i = len(p)
					continue
				}
				name := p[i+3 : i+3+end]
				if cls, ok := posixClasses[name]; ok {
					neg := n == 'P'
					switch {
					case inClass && !neg && strings.HasPrefix(cls, "[:"):
						b.WriteString(cls)
					case inClass:
						return unsupported("\\" + string(n) + "{" + name + "} inside a character class")
					case neg:
						b.WriteString("[^" + cls + "]")
					default:
						b.WriteString("[" + cls + "]")
					}
				} else {
					name = strings.TrimPrefix(strings.TrimPrefix(name, "Is"), "In")
					b.WriteString("\\" + string(n) + "{" + name + "}")
				}
				i += 3 + end
			default:
				b.WriteByte('\\')
				b.WriteByte(n)
				i++
			}
		case inClass:
			if ch == ']' {
				inClass = false
			} else if ch == '&' && i+1 < len(p) && p[i+1] == '&' {
				return unsupported("character class intersection &&")
			}
			b.WriteByte(ch)
		case ch == '[':
			inClass = true
			b.WriteByte(ch)
			// a ']' (after an optional '^') right after '[' is literal
			if i+1 < len(p) && p[i+1] == '^' {
				b.WriteByte('^')
				i++
			}
			if i+1 < len(p) && p[i+1] == ']' {
				b.WriteString("\\]")
				i++
			}
		case ch == '(' && strings.HasPrefix(p[i:], "(?="):
			return unsupported("look-ahead (?=…)")
		case ch == '(' && strings.HasPrefix(p[i:], "(?!"):
			return unsupported("negative look-ahead (?!…)")
		case ch == '(' && strings.HasPrefix(p[i:], "(?<="):
			return unsupported("look-behind (?<=…)")
		case ch == '(' && strings.HasPrefix(p[i:], "(?<!"):
			return unsupported("negative look-behind (?<!…)")
		case ch == '(' && strings.HasPrefix(p[i:], "(?>"):
			return unsupported("an atomic group (?>…)")
		case ch == '*' || ch == '?' || ch == '}':
			if ch == '?' && wasQuant {
				b.WriteByte(ch) // reluctant
				continue
			}
			afterQuant = ch != '?' || i > 0 && p[i-1] != '('
			b.WriteByte(ch)
		case ch == '+':
			if wasQuant {
				return unsupported("a possessive quantifier")
			}
			afterQuant = true
			b.WriteByte(ch)
		default:
			b.WriteByte(ch)
		}
	}
	return b.String(), nil
}

func classOrBare(inClass bool, members string) string {
	if inClass {
		return members
	}
	return "[" + members + "]"
}

// CompileRegexp translates and compiles a JMeter regular expression.
// anchored makes it match the whole input (JMeter's "Matches").
func CompileRegexp(p string, anchored bool) (*regexp.Regexp, error) {
	s, err := Regex(p)
	if err != nil {
		return nil, err
	}
	if anchored {
		s = `\A(?:` + s + `)\z`
	}
	re, err := regexp.Compile(s)
	if err != nil {
		return nil, fmt.Errorf("regular expression %q: %w", p, err)
	}
	return re, nil
}
