package script

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/gojm/gojm/internal/java"
)

// fmtArg is one String.format argument as the runtime tags it: kind "n"
// (null), "s" string, "i" Integer, "l" Long, "b" Boolean, "d" Double, "D"
// BigDecimal (plain text, toString), "c" Character, "o" other (toString,
// class name).
type fmtArg struct {
	kind string
	s    string // string, Long digits, BigDecimal plain text, other's text
	s2   string // BigDecimal toString, other's class
	i    int64
	f    float64
	b    bool
}

func (a fmtArg) className() string {
	switch a.kind {
	case "s":
		return "java.lang.String"
	case "i":
		return "java.lang.Integer"
	case "l":
		return "java.lang.Long"
	case "b":
		return "java.lang.Boolean"
	case "d":
		return "java.lang.Double"
	case "D":
		return "java.math.BigDecimal"
	case "c":
		return "java.lang.Character"
	case "o":
		return a.s2
	}
	return "null"
}

// javaFormat is java.util.Formatter in the English locale.
func javaFormat(f string, args []fmtArg) (string, error) {
	var b strings.Builder
	next := 0 // ordinary index
	last := -1
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		start := i
		i++
		if i >= len(f) {
			return "", jerr("java.util.UnknownFormatConversionException", "Conversion = '%%'")
		}
		// argument index n$ or <
		argIdx := -2 // -2: ordinary
		j := i
		for j < len(f) && f[j] >= '0' && f[j] <= '9' {
			j++
		}
		if j < len(f) && f[j] == '$' && j > i {
			n, _ := strconv.Atoi(f[i:j])
			argIdx = n - 1
			i = j + 1
		} else if f[i] == '<' {
			argIdx = -1
			i++
		}
		flags := ""
		for i < len(f) && strings.IndexByte("-#+ 0,(", f[i]) >= 0 {
			flags += string(f[i])
			i++
		}
		width := -1
		j = i
		for j < len(f) && f[j] >= '0' && f[j] <= '9' {
			j++
		}
		if j > i {
			width, _ = strconv.Atoi(f[i:j])
			i = j
		}
		prec := -1
		if i < len(f) && f[i] == '.' {
			j = i + 1
			for j < len(f) && f[j] >= '0' && f[j] <= '9' {
				j++
			}
			if j == i+1 {
				return "", jerr("java.util.UnknownFormatConversionException", "Conversion = '.'")
			}
			prec, _ = strconv.Atoi(f[i+1 : j])
			i = j
		}
		if i >= len(f) {
			return "", jerr("java.util.UnknownFormatConversionException", "Conversion = '%%'")
		}
		conv := f[i]
		spec := f[start : i+1]
		switch conv {
		case '%':
			b.WriteString(pad("%", width, strings.Contains(flags, "-"), ' '))
			continue
		case 'n':
			b.WriteByte('\n')
			continue
		case 't', 'T':
			return "", jerr("java.lang.UnsupportedOperationException", "gojm: date and time conversions (%s) in String.format", spec)
		}
		if strings.IndexByte("bBhHsScCdoxXeEfgGaA", conv) < 0 {
			return "", jerr("java.util.UnknownFormatConversionException", "Conversion = '%c'", conv)
		}
		var a fmtArg
		switch {
		case argIdx == -1:
			if last < 0 {
				return "", jerr("java.util.MissingFormatArgumentException", "Format specifier '%s'", spec)
			}
			a = args[last]
		case argIdx >= 0:
			if argIdx >= len(args) {
				return "", jerr("java.util.MissingFormatArgumentException", "Format specifier '%s'", spec)
			}
			a = args[argIdx]
			last = argIdx
		default:
			if next >= len(args) {
				return "", jerr("java.util.MissingFormatArgumentException", "Format specifier '%s'", spec)
			}
			a = args[next]
			last = next
			next++
		}
		s, err := formatOne(conv, flags, prec, a)
		if err != nil {
			return "", err
		}
		left := strings.Contains(flags, "-")
		padc := byte(' ')
		if strings.Contains(flags, "0") && strings.IndexByte("doxXeEfgG", conv) >= 0 && a.kind != "n" {
			// zero padding goes after the sign
			if width > len(s) {
				sign := ""
				body := s
				if len(s) > 0 && (s[0] == '-' || s[0] == '+' || s[0] == ' ' || s[0] == '(') {
					sign, body = s[:1], s[1:]
				}
				if strings.HasPrefix(body, "0x") || strings.HasPrefix(body, "0X") {
					sign, body = sign+body[:2], body[2:]
				}
				s = sign + strings.Repeat("0", width-len(s)) + body
			}
		}
		b.WriteString(pad(s, width, left, padc))
	}
	return b.String(), nil
}

func pad(s string, width int, left bool, c byte) string {
	n := len([]rune(s))
	if width <= n {
		return s
	}
	fill := strings.Repeat(string(c), width-n)
	if left {
		return s + fill
	}
	return fill + s
}

func badConv(conv byte, a fmtArg) error {
	return jerr("java.util.IllegalFormatConversionException", "%c != %s", conv, a.className())
}

func formatOne(conv byte, flags string, prec int, a fmtArg) (string, error) {
	upper := conv >= 'A' && conv <= 'Z'
	lc := conv | 0x20
	var s string
	switch lc {
	case 'b':
		switch a.kind {
		case "n":
			s = "false"
		case "b":
			s = strconv.FormatBool(a.b)
		default:
			s = "true"
		}
		if prec >= 0 && prec < len(s) {
			s = s[:prec]
		}
	case 's':
		s = argString(a)
		if prec >= 0 {
			r := []rune(s)
			if prec < len(r) {
				s = string(r[:prec])
			}
		}
	case 'h':
		return "", jerr("java.lang.UnsupportedOperationException", "gojm: %%h (hash codes) in String.format")
	case 'c':
		switch a.kind {
		case "n":
			s = "null"
		case "c":
			s = string(utf16Rune(a.i))
		case "i":
			s = string(rune(a.i))
		default:
			return "", badConv(conv, a)
		}
	case 'd':
		var n *big.Int
		switch a.kind {
		case "n":
			return "null", nil
		case "i":
			n = big.NewInt(a.i)
		case "l":
			n, _ = new(big.Int).SetString(a.s, 10)
		default:
			return "", badConv(conv, a)
		}
		s = groupSign(n.String(), flags)
	case 'o', 'x':
		var v uint64
		switch a.kind {
		case "n":
			return "null", nil
		case "i":
			v = uint64(uint32(int32(a.i)))
		case "l":
			x, _ := strconv.ParseInt(a.s, 10, 64)
			v = uint64(x)
		default:
			return "", badConv(conv, a)
		}
		if lc == 'x' {
			s = strconv.FormatUint(v, 16)
			if strings.Contains(flags, "#") {
				s = "0x" + s
			}
		} else {
			s = strconv.FormatUint(v, 8)
			if strings.Contains(flags, "#") {
				s = "0" + s
			}
		}
	case 'e', 'f', 'g', 'a':
		var dec *big.Rat
		neg := false
		special := ""
		switch a.kind {
		case "n":
			return "null", nil
		case "d":
			switch {
			case math.IsNaN(a.f):
				special = "NaN"
			case math.IsInf(a.f, 1):
				special = "Infinity"
			case math.IsInf(a.f, -1):
				special = "-Infinity"
			default:
				// Java rounds the shortest decimal text, not the binary value.
				dec, _ = new(big.Rat).SetString(strconv.FormatFloat(a.f, 'g', -1, 64))
				neg = math.Signbit(a.f)
			}
		case "D":
			dec, _ = new(big.Rat).SetString(a.s)
			neg = dec.Sign() < 0
		default:
			return "", badConv(conv, a)
		}
		if lc == 'a' {
			return "", jerr("java.lang.UnsupportedOperationException", "gojm: %%a in String.format")
		}
		if special != "" {
			s = special
			if s != "NaN" && s[0] != '-' && strings.Contains(flags, "+") {
				s = "+" + s
			}
			break
		}
		if prec < 0 {
			prec = 6
		}
		abs := new(big.Rat).Abs(dec)
		switch lc {
		case 'f':
			s = ratFixed(abs, prec)
		case 'e':
			s = ratSci(abs, prec)
		case 'g':
			if prec == 0 {
				prec = 1
			}
			// rounded value decides between fixed and scientific
			r := ratSci(abs, prec-1)
			exp := 0
			if k := strings.IndexAny(r, "e"); k >= 0 {
				exp, _ = strconv.Atoi(r[k+1:])
			}
			if abs.Sign() != 0 && (exp < -4 || exp >= prec) {
				s = r
			} else {
				s = ratFixed(abs, prec-1-exp)
				if abs.Sign() == 0 {
					s = ratFixed(abs, prec-1)
				}
			}
		}
		if neg && !(abs.Sign() == 0 && a.kind == "D") {
			s = "-" + s
		}
		if lc == 'f' || lc == 'g' {
			s = groupSign(s, flags)
		} else if !strings.HasPrefix(s, "-") {
			if strings.Contains(flags, "+") {
				s = "+" + s
			} else if strings.Contains(flags, " ") {
				s = " " + s
			}
		}
	}
	if upper {
		s = strings.ToUpper(s)
	}
	return s, nil
}

func utf16Rune(c int64) rune { return rune(c) }

func argString(a fmtArg) string {
	switch a.kind {
	case "n":
		return "null"
	case "s", "l", "o":
		return a.s
	case "i":
		return strconv.FormatInt(a.i, 10)
	case "b":
		return strconv.FormatBool(a.b)
	case "d":
		return java.DoubleString(a.f)
	case "D":
		return a.s2
	case "c":
		return string(rune(a.i))
	}
	return ""
}

// groupSign applies the , + space and ( flags to a decimal number.
func groupSign(s, flags string) string {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	if strings.Contains(flags, ",") {
		ip, fp := s, ""
		if k := strings.IndexByte(s, '.'); k >= 0 {
			ip, fp = s[:k], s[k:]
		}
		var g strings.Builder
		for i, c := range ip {
			if i > 0 && (len(ip)-i)%3 == 0 {
				g.WriteByte(',')
			}
			g.WriteRune(c)
		}
		s = g.String() + fp
	}
	switch {
	case neg && strings.Contains(flags, "("):
		return "(" + s + ")"
	case neg:
		return "-" + s
	case strings.Contains(flags, "+"):
		return "+" + s
	case strings.Contains(flags, " "):
		return " " + s
	}
	return s
}

// ratFixed writes a non-negative number with prec decimals, HALF_UP.
func ratFixed(r *big.Rat, prec int) string {
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(prec)), nil)
	x := new(big.Rat).Mul(r, new(big.Rat).SetInt(scale))
	x.Add(x, big.NewRat(1, 2))
	q := new(big.Int).Quo(x.Num(), x.Denom())
	digits := q.String()
	if prec == 0 {
		return digits
	}
	if len(digits) <= prec {
		digits = strings.Repeat("0", prec-len(digits)+1) + digits
	}
	return digits[:len(digits)-prec] + "." + digits[len(digits)-prec:]
}

// ratSci writes a non-negative number as d.ddde±XX with prec decimals.
func ratSci(r *big.Rat, prec int) string {
	if r.Sign() == 0 {
		s := "0"
		if prec > 0 {
			s += "." + strings.Repeat("0", prec)
		}
		return s + "e+00"
	}
	exp := 0
	x := new(big.Rat).Set(r)
	ten := big.NewRat(10, 1)
	one := big.NewRat(1, 1)
	for x.Cmp(ten) >= 0 {
		x.Quo(x, ten)
		exp++
	}
	for x.Cmp(one) < 0 {
		x.Mul(x, ten)
		exp--
	}
	m := ratFixed(x, prec)
	if strings.HasPrefix(m, "10") {
		x.Quo(x, ten)
		exp++
		m = ratFixed(x, prec)
	}
	sign := "+"
	if exp < 0 {
		sign = "-"
		exp = -exp
	}
	e := strconv.Itoa(exp)
	if len(e) < 2 {
		e = "0" + e
	}
	return m + "e" + sign + e
}
