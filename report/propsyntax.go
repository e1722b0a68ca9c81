package report

import "strings"

// trailingBackslashes counts the backslashes ending s: an odd count
// continues a properties line on the next one.
func trailingBackslashes(s string) int {
	n := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\\'; i-- {
		n++
	}
	return n
}

// splitProperty splits one logical properties line into key and value.
func splitProperty(line string) (key, value string) {
	i := 0
	for i < len(line) {
		c := line[i]
		if c == '\\' {
			i += 2
			continue
		}
		if c == '=' || c == ':' || c == ' ' || c == '\t' || c == '\f' {
			break
		}
		i++
	}
	if i > len(line) {
		i = len(line)
	}
	key = unescapeProperty(line[:i])
	rest := line[i:]
	sep := false
	if rest != "" && (rest[0] == '=' || rest[0] == ':') {
		rest, sep = rest[1:], true
	}
	rest = strings.TrimLeft(rest, " \t\f")
	if !sep && rest != "" && (rest[0] == '=' || rest[0] == ':') {
		rest = strings.TrimLeft(rest[1:], " \t\f")
	}
	return key, unescapeProperty(rest)
}

// unescapeProperty resolves Java properties escapes (\t, \n, \uXXXX, \x).
func unescapeProperty(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			var r rune
			j := i + 1
			for ; j < i+5 && j < len(s); j++ {
				h := s[j]
				switch {
				case h >= '0' && h <= '9':
					r = r<<4 | rune(h-'0')
				case h >= 'a' && h <= 'f':
					r = r<<4 | rune(h-'a'+10)
				case h >= 'A' && h <= 'F':
					r = r<<4 | rune(h-'A'+10)
				}
			}
			b.WriteRune(r)
			i = j - 1
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
