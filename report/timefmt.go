package report

import (
	"fmt"
	"strings"
)

// javaDateLayout converts a Java SimpleDateFormat pattern (as used by
// jmeter.save.saveservice.timestamp_format) into a Go time layout. It covers
// the letters JTL files use in practice: y M d H h m s S a E z Z X and
// quoted literals. Fractional seconds must follow '.' or ',' as Go requires.
func javaDateLayout(p string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(p); {
		c := p[i]
		if c == '\'' {
			j := strings.IndexByte(p[i+1:], '\'')
			if j < 0 {
				return "", fmt.Errorf("date format %q: unterminated quote", p)
			}
			if j == 0 {
				b.WriteByte('\'')
			} else {
				lit := p[i+1 : i+1+j]
				if strings.ContainsAny(lit, "0123456789") {
					return "", fmt.Errorf("date format %q: digits in a literal are not supported", p)
				}
				b.WriteString(lit)
			}
			i += j + 2
			continue
		}
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			if c >= '0' && c <= '9' {
				return "", fmt.Errorf("date format %q: digits outside quotes are not supported", p)
			}
			b.WriteByte(c)
			i++
			continue
		}
		n := 1
		for i+n < len(p) && p[i+n] == c {
			n++
		}
		var tok string
		switch c {
		case 'y':
			tok = "2006"
			if n == 2 {
				tok = "06"
			}
		case 'M':
			switch {
			case n >= 4:
				tok = "January"
			case n == 3:
				tok = "Jan"
			case n == 2:
				tok = "01"
			default:
				tok = "1"
			}
		case 'd':
			tok = "02"
			if n == 1 {
				tok = "2"
			}
		case 'H':
			tok = "15"
		case 'h':
			tok = "03"
			if n == 1 {
				tok = "3"
			}
		case 'm':
			tok = "04"
			if n == 1 {
				tok = "4"
			}
		case 's':
			tok = "05"
			if n == 1 {
				tok = "5"
			}
		case 'S':
			s := b.String()
			if s == "" || (s[len(s)-1] != '.' && s[len(s)-1] != ',') {
				return "", fmt.Errorf("date format %q: fraction of second must follow '.' or ','", p)
			}
			tok = strings.Repeat("0", n)
		case 'a':
			tok = "PM"
		case 'E':
			tok = "Mon"
			if n >= 4 {
				tok = "Monday"
			}
		case 'z':
			tok = "MST"
		case 'Z':
			tok = "-0700"
		case 'X':
			switch n {
			case 1:
				tok = "Z07"
			case 2:
				tok = "Z0700"
			default:
				tok = "Z07:00"
			}
		default:
			return "", fmt.Errorf("date format %q: letter %q is not supported", p, c)
		}
		b.WriteString(tok)
		i += n
	}
	return b.String(), nil
}

// jtlDateLayouts are the formats JMeter tries when a timeStamp column does
// not parse as milliseconds.
var jtlDateLayouts = []string{
	"2006/01/02 15:04:05.000",
	"2006/01/02 15:04:05",
	"2006-01-02 15:04:05.000",
	"2006-01-02 15:04:05",
	"01/02/06 15:04:05",
}
