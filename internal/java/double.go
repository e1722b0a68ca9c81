package java

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// DoubleString formats v as Java's Double.toString does: the shortest
// digits that round-trip, in plain notation with at least one fraction
// digit for 1e-3 ≤ |v| < 1e7 ("12.0", "12.5"), else as d.dddE±n ("1.0E7",
// "1.0E-4").
func DoubleString(v float64) string { return floating(v, 64) }

// FloatString formats v as Java's Float.toString does ("99.0", "33.333332").
func FloatString(v float32) string { return floating(float64(v), 32) }

func floating(v float64, bitSize int) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	case v == 0:
		if math.Signbit(v) {
			return "-0.0"
		}
		return "0.0"
	}
	if a := math.Abs(v); a >= 1e-3 && a < 1e7 {
		s := strconv.FormatFloat(v, 'f', -1, bitSize)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(v, 'E', -1, bitSize) // 1.2345E+07
	mant, exp, _ := strings.Cut(s, "E")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return mant + "E" + strconv.Itoa(e)
}

// Round is Java's Math.round for a double: the closest whole number, half
// up, NaN as 0, infinities and values past the range clamped as Java does.
// It does not add 0.5 first, which rounds 0.49999999999999994 up: since
// Java 7 Math.round does not.
func Round(f float64) int64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	r := math.Floor(f)
	if f-r >= 0.5 { // exact: f and its floor are within one unit
		r++
	}
	return int64(r)
}

// ParseDouble reads a number as Java's Double.parseDouble does: blanks
// around it, one sign, digits with a point and an exponent (or a
// hexadecimal float), an f or d suffix, NaN and Infinity; ok is false
// where it throws NumberFormatException.
func ParseDouble(txt string) (v float64, ok bool) {
	s := strings.TrimFunc(txt, func(r rune) bool { return r <= ' ' })
	body := s
	if body != "" && (body[0] == '+' || body[0] == '-') {
		body = body[1:]
	}
	switch body {
	case "NaN":
		return math.NaN(), true
	case "Infinity":
		if s[0] == '-' {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	case "":
		return 0, false
	}
	// Go also reads "inf", "nan" and digits with underscores; Java does not.
	if strings.ContainsAny(body, "_iInN") || body[0] == '+' || body[0] == '-' {
		return 0, false
	}
	if c := body[len(body)-1]; c == 'f' || c == 'F' || c == 'd' || c == 'D' {
		s = s[:len(s)-1]
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	return v, true
}
