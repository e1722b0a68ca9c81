package java

import (
	"fmt"
	"strconv"
	"strings"
)

// DecimalFormat is a compiled java.text.DecimalFormat pattern, for whole
// numbers: literal prefix and suffix (quoted with '…'), minimum integer
// digits ('0'), grouping (','), minimum fraction digits ("0.00"), percent.
type DecimalFormat struct {
	prefix, suffix string
	negPrefix      string
	negSuffix      string
	hasNeg         bool
	minInt         int
	group          int // grouping size; 0 for none
	minFrac        int
	multiplier     int64
}

// NewDecimalFormat compiles a DecimalFormat pattern.
func NewDecimalFormat(pattern string) (*DecimalFormat, error) {
	pos, neg, hasNeg := pattern, "", false
	if i := indexUnquoted(pattern, ';'); i >= 0 {
		pos, neg, hasNeg = pattern[:i], pattern[i+1:], true
	}
	f := &DecimalFormat{multiplier: 1}
	pre, num, suf, err := splitDecimalPattern(pos)
	if err != nil {
		return nil, err
	}
	f.prefix, f.suffix = pre, suf
	intPart, fracPart := num, ""
	if i := strings.IndexByte(num, '.'); i >= 0 {
		intPart, fracPart = num[:i], num[i+1:]
	}
	if i := strings.LastIndexByte(intPart, ','); i >= 0 {
		f.group = len(intPart) - i - 1
	}
	f.minInt = strings.Count(intPart, "0")
	f.minFrac = strings.Count(fracPart, "0")
	if strings.ContainsAny(pre+suf, "%") {
		f.multiplier = 100
	}
	if hasNeg {
		npre, _, nsuf, err := splitDecimalPattern(neg)
		if err != nil {
			return nil, err
		}
		f.negPrefix, f.negSuffix, f.hasNeg = npre, nsuf, true
	}
	return f, nil
}

func indexUnquoted(s string, c byte) int {
	q := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'':
			q = !q
		case c:
			if !q {
				return i
			}
		}
	}
	return -1
}

// splitDecimalPattern cuts one sub-pattern into its literal prefix, its
// number part (0 # , .) and its literal suffix.
func splitDecimalPattern(p string) (pre, num, suf string, err error) {
	var b strings.Builder
	i := 0
	lit := func() string {
		b.Reset()
		for i < len(p) {
			c := p[i]
			if c == '\'' {
				j := strings.IndexByte(p[i+1:], '\'')
				if j < 0 {
					err = fmt.Errorf("decimal format %q: unterminated quote", p)
					return ""
				}
				if j == 0 {
					b.WriteByte('\'')
				} else {
					b.WriteString(p[i+1 : i+1+j])
				}
				i += j + 2
				continue
			}
			if strings.IndexByte("0#,.", c) >= 0 {
				break
			}
			b.WriteByte(c)
			i++
		}
		return b.String()
	}
	pre = lit()
	start := i
	for i < len(p) && strings.IndexByte("0#,.E", p[i]) >= 0 {
		i++
	}
	num = p[start:i]
	suf = lit()
	if i < len(p) && err == nil {
		err = fmt.Errorf("decimal format %q: unexpected %q", p, p[i:])
	}
	return pre, num, suf, err
}

// Format formats a whole number.
func (f *DecimalFormat) Format(v int64) string {
	v *= f.multiplier
	neg := v < 0
	var digits string
	if neg {
		digits = strconv.FormatUint(uint64(-v), 10)
	} else {
		digits = strconv.FormatInt(v, 10)
	}
	for len(digits) < f.minInt {
		digits = "0" + digits
	}
	if f.group > 0 && len(digits) > f.group {
		var b strings.Builder
		first := len(digits) % f.group
		if first > 0 {
			b.WriteString(digits[:first])
		}
		for i := first; i < len(digits); i += f.group {
			if b.Len() > 0 {
				b.WriteByte(',')
			}
			b.WriteString(digits[i : i+f.group])
		}
		digits = b.String()
	}
	if f.minFrac > 0 {
		digits += "." + strings.Repeat("0", f.minFrac)
	}
	switch {
	case neg && f.hasNeg:
		return f.negPrefix + digits + f.negSuffix
	case neg:
		return "-" + f.prefix + digits + f.suffix
	}
	return f.prefix + digits + f.suffix
}
