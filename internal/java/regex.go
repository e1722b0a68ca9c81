package java

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Java's regular expressions (JMeter's extractors and assertions, and
// scripts' String.matches, replaceAll, split…) run on two engines: Go's
// RE2 for the elements, which is fast and has no look-around, and regexp2,
// which backtracks, for scripts. Regex rewrites, for either, the
// constructs whose spelling differs, and refuses with a clear message the
// ones the engine cannot run at all.

// Target is the engine a pattern is translated for.
type Target uint8

const (
	// RE2 is Go's regexp: no look-around, back-references, atomic groups
	// or possessive quantifiers.
	RE2 Target = iota
	// Backtracking is regexp2 in its .NET syntax: everything but
	// possessive quantifiers.
	Backtracking
)

// ErrRegexUnsupported marks a pattern that is valid for JMeter but cannot
// run in RE2; a plan holding one as a constant is refused at compile time.
var ErrRegexUnsupported = errors.New("cannot run in Go's RE2 regular expression engine")

// Exception is an error as Java throws it: its class and message.
type Exception struct{ Class, Message string }

func (e *Exception) Error() string { return e.Class + ": " + e.Message }

// posixClasses are Java's \p{…} classes: the POSIX ones (US-ASCII) and
// the java.lang.Character and Unicode ones plans use.
var posixClasses = map[string]string{
	"Lower": "a-z", "Upper": "A-Z", "ASCII": `\x00-\x7F`, "Alpha": "a-zA-Z", "Digit": "0-9",
	"Alnum": "a-zA-Z0-9", "Punct": `!-/:-@\[-` + "`" + `{-~`, "Graph": `!-~`, "Print": `\x20-\x7E`,
	"Blank": `\t `, "Cntrl": `\x00-\x1F\x7F`, "XDigit": "0-9a-fA-F", "Space": `\t\n\x0B\f\r `,
}

// unicodeClasses are \p{…} names of java.lang.Character's and Unicode's
// that the engines spell otherwise.
var unicodeClasses = map[string]string{
	"javaLowerCase": `\p{Ll}`, "javaUpperCase": `\p{Lu}`, "javaWhitespace": `\s`, "IsAlphabetic": `\p{L}`,
	"IsDigit": `\p{Nd}`, "IsLetter": `\p{L}`,
}

// horizontalSpace is Java's \h, in each engine's spelling of code points.
var horizontalSpace = [...]string{
	RE2:          `\t \x{A0}\x{1680}\x{180e}\x{2000}-\x{200a}\x{202f}\x{205f}\x{3000}`,
	Backtracking: `\t \xA0\u1680\u180e\u2000-\u200a\u202f\u205f\u3000`,
}

// Regex translates a Java pattern for the target engine.
func Regex(p string, t Target) (string, error) {
	unsupported := func(what string) (string, error) {
		if t == Backtracking {
			return "", &Exception{"java.lang.UnsupportedOperationException", "gojm: " + what + " in a regular expression"}
		}
		return "", fmt.Errorf("regular expression %q %w: %s is not supported", p, ErrRegexUnsupported, what)
	}
	re2 := t == RE2
	var b strings.Builder
	inClass := 0        // nesting of character classes (Java's unions nest)
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
				// \Q…\E quotes literally.
				end := strings.Index(p[i+2:], `\E`)
				lit := p[i+2:]
				if end >= 0 {
					lit = p[i+2 : i+2+end]
				}
				switch {
				case re2:
					b.WriteString(`\Q` + lit)
					if end >= 0 {
						b.WriteString(`\E`)
					}
				case inClass > 0:
					for _, r := range lit {
						if strings.ContainsRune(`\]^-[`, r) {
							b.WriteByte('\\')
						}
						b.WriteRune(r)
					}
				default:
					b.WriteString(regexp.QuoteMeta(lit))
				}
				if end >= 0 {
					i += 2 + end + 1
				} else {
					i = len(p)
				}
			case n >= '1' && n <= '9' && inClass == 0 && re2:
				return unsupported("a back-reference \\" + string(n))
			case n == '0' && re2:
				// Java octal \0n, \0nn, \0mnn
				j := i + 2
				for j < len(p) && j < i+5 && p[j] >= '0' && p[j] <= '7' {
					j++
				}
				if j == i+2 {
					return unsupported(`\0 without octal digits`)
				}
				var v int
				for _, d := range p[i+2 : j] {
					v = v*8 + int(d-'0')
				}
				if v > 0377 {
					j--
					v >>= 3
				}
				fmt.Fprintf(&b, `\x{%X}`, v)
				i = j - 1
			case n == 'e' && re2:
				b.WriteString(`\x1B`)
				i++
			case n == 'c' && re2 && i+2 < len(p):
				fmt.Fprintf(&b, `\x{%X}`, p[i+2]^0x40)
				i += 2
			case n == 'Z':
				// the end of the input, or before a final line terminator
				switch {
				case !re2:
					b.WriteString(`(?=\n?\z)`)
				case inClass > 0:
					return unsupported(`\Z in a character class`)
				default:
					b.WriteString(`(?:\n?\z)`)
				}
				i++
			case n == 'R' && !re2:
				b.WriteString(`(?:\r\n|[\n\x0B\f\r\x85\u2028\u2029])`)
				i++
			case (n == 'G' || n == 'R' || n == 'X' || n == 'K') && re2:
				return unsupported(`\` + string(n))
			case n == 'h':
				b.WriteString(classOrBare(inClass > 0, horizontalSpace[t]))
				i++
			case (n == 'p' || n == 'P') && i+2 < len(p) && p[i+2] == '{':
				end := strings.IndexByte(p[i+3:], '}')
				if end < 0 {
					b.WriteString(p[i:])
					i = len(p)
					continue
				}
				name := p[i+3 : i+3+end]
				neg := n == 'P'
				cls, posix := posixClasses[strings.TrimPrefix(name, "Is")]
				switch {
				case posix && inClass > 0 && neg:
					return unsupported(`\P{` + name + `} inside a character class`)
				case posix && inClass > 0:
					b.WriteString(cls)
				case posix && neg:
					b.WriteString("[^" + cls + "]")
				case posix:
					b.WriteString("[" + cls + "]")
				case unicodeClasses[name] != "" && !neg:
					b.WriteString(unicodeClasses[name])
				case re2:
					// Unicode categories and scripts: \p{L}, \p{IsLatin}, \p{InGreek}
					b.WriteString(`\` + string(n) + "{" + strings.TrimPrefix(strings.TrimPrefix(name, "Is"), "In") + "}")
				case name == "IsLatin":
					b.WriteString(`\` + string(n) + "{IsBasicLatin}")
				default:
					// .NET spells categories and blocks as Java does
					b.WriteString(p[i : i+3+end+1])
				}
				i += 3 + end
			default:
				b.WriteByte('\\')
				b.WriteByte(n)
				i++
			}
		case inClass > 0 && ch == ']':
			inClass--
			b.WriteByte(ch)
		case inClass > 0 && ch == '&' && i+1 < len(p) && p[i+1] == '&' && re2:
			return unsupported("character class intersection &&")
		case ch == '[' && (inClass == 0 || !re2):
			inClass++
			b.WriteByte(ch)
			// a ']' (after an optional '^') right after '[' is literal
			if i+1 < len(p) && p[i+1] == '^' {
				b.WriteByte('^')
				i++
			}
			if i+1 < len(p) && p[i+1] == ']' {
				b.WriteString(`\]`)
				i++
			}
		case inClass > 0:
			b.WriteByte(ch)
		case ch == '(' && re2 && strings.HasPrefix(p[i:], "(?="):
			return unsupported("look-ahead (?=…)")
		case ch == '(' && re2 && strings.HasPrefix(p[i:], "(?!"):
			return unsupported("negative look-ahead (?!…)")
		case ch == '(' && re2 && strings.HasPrefix(p[i:], "(?<="):
			return unsupported("look-behind (?<=…)")
		case ch == '(' && re2 && strings.HasPrefix(p[i:], "(?<!"):
			return unsupported("negative look-behind (?<!…)")
		case ch == '(' && re2 && strings.HasPrefix(p[i:], "(?>"):
			return unsupported("an atomic group (?>…)")
		case ch == '*' || ch == '?' || ch == '}':
			if ch == '?' && wasQuant {
				b.WriteByte(ch) // reluctant
				continue
			}
			afterQuant = ch != '?' || i > 0 && p[i-1] != '('
			b.WriteByte(ch)
		case ch == '+':
			if wasQuant && re2 {
				return unsupported("a possessive quantifier")
			}
			if wasQuant {
				return unsupported("possessive quantifiers (" + p[i-1:i+1] + ")")
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

// CompileRegexp translates and compiles a JMeter regular expression for
// RE2. anchored makes it match the whole input (JMeter's "Matches").
func CompileRegexp(p string, anchored bool) (*regexp.Regexp, error) {
	s, err := Regex(p, RE2)
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

// Replacement turns a replacement text of Java's Matcher ($1 and ${name}
// group references, \ escapes) into Go's and regexp2's ("${1}", "$$"),
// refusing what Java refuses.
func Replacement(r string) (string, error) {
	bad := func(msg string) (string, error) {
		return "", &Exception{"java.lang.IllegalArgumentException", msg}
	}
	var b strings.Builder
	for i := 0; i < len(r); i++ {
		c := r[i]
		switch c {
		case '\\':
			i++
			if i >= len(r) {
				return bad("character to be escaped is missing")
			}
			if r[i] == '$' {
				b.WriteString("$$")
			} else {
				b.WriteByte(r[i])
			}
		case '$':
			if i+1 >= len(r) {
				return bad("Illegal group reference: group index is missing")
			}
			if r[i+1] == '{' {
				end := strings.IndexByte(r[i:], '}')
				if end < 0 {
					return bad("named capturing group is missing trailing '}'")
				}
				b.WriteString(r[i : i+end+1])
				i += end
				continue
			}
			if r[i+1] < '0' || r[i+1] > '9' {
				return bad("Illegal group reference")
			}
			j := i + 1
			for j < len(r) && r[j] >= '0' && r[j] <= '9' {
				j++
			}
			b.WriteString("${" + r[i+1:j] + "}")
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}
