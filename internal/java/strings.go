package java

import (
	"strconv"
	"strings"
	"unicode/utf16"
)

// Unescape decodes Java string escapes (\n, \t, \uXXXX, octal \0…) as
// Commons Text's StringEscapeUtils.unescapeJava does (__unescape).
func Unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case '\\', '\'', '"':
			b.WriteByte(s[i])
		case 'u':
			j := i
			for j < len(s) && s[j] == 'u' {
				j++
			}
			if j+4 <= len(s) {
				if v, err := strconv.ParseUint(s[j:j+4], 16, 16); err == nil {
					b.WriteRune(rune(v))
					i = j + 3
					continue
				}
			}
			b.WriteString(`\u`)
		default:
			if s[i] >= '0' && s[i] <= '7' {
				j := i
				for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '7' {
					j++
				}
				v, _ := strconv.ParseUint(s[i:j], 8, 16)
				b.WriteRune(rune(v))
				i = j - 1
				continue
			}
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// HashMapOrder returns the order in which a java.util.HashMap built from a
// map of these keys (in this order) iterates them: by bucket of the spread
// String.hashCode, then by insertion within a bucket.
func HashMapOrder(keys []string) []int {
	n := len(keys)
	t := int(float32(n)/float32(0.75) + 1)
	size := 1
	for size < t {
		size <<= 1
	}
	return hashOrder(keys, size)
}

// HashMapOrderSized is the iteration order of a new HashMap<>(capacity)
// after keys are put in that order: its table starts at the power of two
// at or above capacity and doubles whenever it is more than 3/4 full.
func HashMapOrderSized(keys []string, capacity int) []int {
	size := 1
	for size < capacity {
		size <<= 1
	}
	for n := 1; n <= len(keys); n++ {
		if float32(n) > float32(size)*0.75 {
			size <<= 1
		}
	}
	return hashOrder(keys, size)
}

func hashOrder(keys []string, size int) []int {
	n := len(keys)
	buckets := make([][]int, size)
	for i, k := range keys {
		h := StringHash(k)
		h ^= h >> 16
		idx := h & uint32(size-1)
		buckets[idx] = append(buckets[idx], i)
	}
	out := make([]int, 0, n)
	for _, bk := range buckets {
		out = append(out, bk...)
	}
	return out
}

// StringHash is String.hashCode over the UTF-16 code units of s.
func StringHash(s string) uint32 {
	var h uint32
	for _, r := range s {
		if r >= 0x10000 {
			r1, r2 := utf16.EncodeRune(r)
			h = 31*h + uint32(r1)
			h = 31*h + uint32(r2)
			continue
		}
		h = 31*h + uint32(r)
	}
	return h
}

// DecodeLong is Long.decode: an optional sign, then 0x, 0X or # for
// hexadecimal, a leading 0 for octal, or decimal digits.
func DecodeLong(s string) (int64, error) {
	sign, t := "", s
	if strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+") {
		sign, t = t[:1], t[1:]
	}
	base := 10
	switch {
	case strings.HasPrefix(t, "0x"), strings.HasPrefix(t, "0X"):
		base, t = 16, t[2:]
	case strings.HasPrefix(t, "#"):
		base, t = 16, t[1:]
	case len(t) > 1 && t[0] == '0':
		base, t = 8, t[1:]
	}
	if t == "" || t[0] == '-' || t[0] == '+' {
		return 0, &strconv.NumError{Func: "Long.decode", Num: s, Err: strconv.ErrSyntax}
	}
	// The sign goes with the digits, so that Long.MIN_VALUE decodes.
	return strconv.ParseInt(sign+t, base, 64)
}

// UTF16Units is s as Java's chars, which String indexes count.
func UTF16Units(s string) []uint16 { return utf16.Encode([]rune(s)) }

// FromUTF16 is the string of Java chars u.
func FromUTF16(u []uint16) string { return string(utf16.Decode(u)) }

// UTF16Index converts a byte index of s to the index Java reports: in
// UTF-16 units.
func UTF16Index(s string, byteIndex int) int {
	n := 0
	for _, r := range s[:byteIndex] {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}
