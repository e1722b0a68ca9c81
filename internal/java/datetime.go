package java

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gojm/gojm/internal/cache"
)

// The subset of Java's DateTimeFormatter (and SimpleDateFormat) patterns
// the date functions need, and Duration.parse.

// timeField is one piece of a compiled date pattern: a run of one
// pattern letter, or literal text (letter 0).
type timeField struct {
	letter byte
	n      int
	lit    string
}

// TimeFormat is a compiled Java date-time pattern such as
// "yyyy-MM-dd'T'HH:mm:ss.SSSXXX".
type TimeFormat []timeField

// formats keeps compiled patterns: a pattern made from a variable could
// otherwise add one per sample.
var formats = cache.New[string, TimeFormat](1024)

// TimeFormatOf returns the compiled pattern, compiling it once.
func TimeFormatOf(pattern string) (TimeFormat, error) {
	return formats.GetOrMake(pattern, NewTimeFormat)
}

// NewTimeFormat parses a Java date-time pattern. Letters: G u y Y M L d D
// Q q E e c a h K k H m s S A n N V z O X x Z w W F; text in quotes, two
// quotes for a quote; [ and ] (optional sections) are accepted and ignored.
func NewTimeFormat(pattern string) (TimeFormat, error) {
	var out TimeFormat
	lit := func(s string) {
		if n := len(out); n > 0 && out[n-1].letter == 0 {
			out[n-1].lit += s
			return
		}
		out = append(out, timeField{lit: s})
	}
	for i := 0; i < len(pattern); {
		c := pattern[i]
		switch {
		case c == '\'':
			if i+1 < len(pattern) && pattern[i+1] == '\'' {
				lit("'")
				i += 2
				continue
			}
			var b strings.Builder
			j := i + 1
			for ; j < len(pattern); j++ {
				if pattern[j] == '\'' {
					if j+1 < len(pattern) && pattern[j+1] == '\'' {
						b.WriteByte('\'')
						j++
						continue
					}
					break
				}
				b.WriteByte(pattern[j])
			}
			if j >= len(pattern) {
				return nil, fmt.Errorf("date pattern %q: unterminated quote", pattern)
			}
			lit(b.String())
			i = j + 1
		case c == '[' || c == ']':
			i++
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			n := 1
			for i+n < len(pattern) && pattern[i+n] == c {
				n++
			}
			if !strings.ContainsRune("GuyYMLdDQqEecahKkHmsSAnNVzOXxZwWF", rune(c)) {
				return nil, fmt.Errorf("date pattern %q: unknown pattern letter %c", pattern, c)
			}
			out = append(out, timeField{letter: c, n: n})
			i += n
		default:
			lit(string(c))
			i++
		}
	}
	return out, nil
}

// Format formats t.
func (f TimeFormat) Format(t time.Time) string {
	b := make([]byte, 0, 32)
	for _, p := range f {
		b = p.appendTo(b, t)
	}
	return string(b)
}

func pad(b []byte, v, w int) []byte {
	if v < 0 {
		b = append(b, '-')
		v = -v
	}
	s := strconv.Itoa(v)
	for i := len(s); i < w; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

func text(b []byte, full string, n int) []byte {
	switch {
	case n >= 5:
		return append(b, full[0])
	case n == 4:
		return append(b, full...)
	}
	return append(b, full[:3]...)
}

func (p timeField) appendTo(b []byte, t time.Time) []byte {
	n := p.n
	switch p.letter {
	case 0:
		return append(b, p.lit...)
	case 'G':
		if t.Year() <= 0 {
			return append(b, "BC"...)
		}
		return append(b, "AD"...)
	case 'y', 'u', 'Y':
		y := t.Year()
		if p.letter == 'Y' {
			y, _ = t.ISOWeek()
		}
		if n == 2 {
			return pad(b, (y%100+100)%100, 2)
		}
		return pad(b, y, n)
	case 'M', 'L':
		if n >= 3 {
			return text(b, t.Month().String(), n)
		}
		return pad(b, int(t.Month()), n)
	case 'd':
		return pad(b, t.Day(), n)
	case 'D':
		return pad(b, t.YearDay(), n)
	case 'Q', 'q':
		q := (int(t.Month())-1)/3 + 1
		switch {
		case n == 3:
			return append(b, 'Q', byte('0'+q))
		case n >= 4:
			return append(b, [...]string{"1st", "2nd", "3rd", "4th"}[q-1]+" quarter"...)
		}
		return pad(b, q, n)
	case 'E':
		return text(b, t.Weekday().String(), n)
	case 'e', 'c':
		if n >= 3 {
			return text(b, t.Weekday().String(), n)
		}
		return pad(b, int(t.Weekday())+1, n) // US locale: Sunday is 1
	case 'F':
		return pad(b, (t.Day()-1)/7+1, n)
	case 'w':
		_, w := t.ISOWeek()
		return pad(b, w, n)
	case 'W':
		first := time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, t.Location())
		return pad(b, (t.Day()+int(first.Weekday())-1)/7+1, n)
	case 'a':
		if t.Hour() < 12 {
			return append(b, "AM"...)
		}
		return append(b, "PM"...)
	case 'h':
		h := t.Hour() % 12
		if h == 0 {
			h = 12
		}
		return pad(b, h, n)
	case 'K':
		return pad(b, t.Hour()%12, n)
	case 'k':
		h := t.Hour()
		if h == 0 {
			h = 24
		}
		return pad(b, h, n)
	case 'H':
		return pad(b, t.Hour(), n)
	case 'm':
		return pad(b, t.Minute(), n)
	case 's':
		return pad(b, t.Second(), n)
	case 'S':
		ns := fmt.Sprintf("%09d", t.Nanosecond())
		for len(ns) < n {
			ns += "0"
		}
		return append(b, ns[:n]...)
	case 'A':
		h, m, s := t.Clock()
		return pad(b, ((h*60+m)*60+s)*1000+t.Nanosecond()/1e6, n)
	case 'n':
		return pad(b, t.Nanosecond(), n)
	case 'N':
		h, m, s := t.Clock()
		return pad(b, ((h*60+m)*60+s)*1e9+t.Nanosecond(), n)
	case 'V':
		return append(b, t.Location().String()...)
	case 'z':
		name, _ := t.Zone()
		return append(b, name...)
	case 'O':
		_, off := t.Zone()
		if off == 0 {
			return append(b, "GMT"...)
		}
		if n >= 4 {
			return append(append(b, "GMT"...), t.Format("-07:00")...)
		}
		b = append(b, "GMT"...)
		if off < 0 {
			b = append(b, '-')
			off = -off
		} else {
			b = append(b, '+')
		}
		b = strconv.AppendInt(b, int64(off/3600), 10)
		if m := off % 3600 / 60; m != 0 {
			b = append(b, ':')
			b = pad(b, m, 2)
		}
		return b
	case 'X', 'x':
		_, off := t.Zone()
		if off == 0 && p.letter == 'X' {
			return append(b, 'Z')
		}
		switch n {
		case 1:
			if off%3600 == 0 {
				return append(b, t.Format("-07")...)
			}
			return append(b, t.Format("-0700")...)
		case 2, 4:
			return append(b, t.Format("-0700")...)
		}
		return append(b, t.Format("-07:00")...)
	case 'Z':
		switch {
		case n <= 3:
			return append(b, t.Format("-0700")...)
		case n == 4:
			_, off := t.Zone()
			if off == 0 {
				return append(b, "GMT"...)
			}
			return append(append(b, "GMT"...), t.Format("-07:00")...)
		}
		_, off := t.Zone()
		if off == 0 {
			return append(b, 'Z')
		}
		return append(b, t.Format("-07:00")...)
	}
	return b
}

var (
	monthNames   = [...]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	weekdayNames = [...]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
)

// Parse reads s with the pattern; fields the pattern lacks take the start
// of the epoch day (time 00:00:00, day 1, January, 1970), and a value
// without a zone is in loc.
func (f TimeFormat) Parse(s string, loc *time.Location) (time.Time, error) {
	year, month, day := 1970, 1, 1
	hour, minute, sec, nsec := 0, 0, 0, 0
	pm, hasAMPM, h12 := false, false, false
	var zone *time.Location
	var epochMs int64 = -1
	i := 0
	num := func(max int) (int, error) {
		j := i
		if j < len(s) && (s[j] == '-' || s[j] == '+') {
			j++
		}
		for j < len(s) && j-i < max && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i {
			return 0, fmt.Errorf("expected a number at %q", s[i:])
		}
		v, err := strconv.Atoi(s[i:j])
		i = j
		return v, err
	}
	word := func(names []string) (int, error) {
		for k, nm := range names {
			for _, cand := range []string{nm, nm[:3]} {
				if len(s)-i >= len(cand) && strings.EqualFold(s[i:i+len(cand)], cand) {
					i += len(cand)
					return k, nil
				}
			}
		}
		return 0, fmt.Errorf("unexpected text at %q", s[i:])
	}
	for k, p := range f {
		// A numeric field followed directly by another takes exactly its
		// width (adjacent value parsing, as in "yyyyMMdd").
		max := 10
		if k+1 < len(f) && f[k+1].letter != 0 {
			max = p.n
		}
		var err error
		switch p.letter {
		case 0:
			if !strings.HasPrefix(s[i:], p.lit) {
				return time.Time{}, fmt.Errorf("expected %q at %q", p.lit, s[i:])
			}
			i += len(p.lit)
		case 'y', 'u', 'Y':
			start := i
			year, err = num(max)
			if p.n == 2 && i-start == 2 {
				year += 2000
				if year > time.Now().Year()+20 {
					year -= 100
				}
			}
		case 'M', 'L':
			if p.n >= 3 {
				var m int
				m, err = word(monthNames[:])
				month = m + 1
			} else {
				month, err = num(max)
			}
		case 'd':
			day, err = num(max)
		case 'E':
			_, err = word(weekdayNames[:])
		case 'a':
			switch {
			case strings.HasPrefix(strings.ToUpper(s[i:]), "AM"):
			case strings.HasPrefix(strings.ToUpper(s[i:]), "PM"):
				pm = true
			default:
				return time.Time{}, fmt.Errorf("expected AM or PM at %q", s[i:])
			}
			hasAMPM = true
			i += 2
		case 'h', 'K':
			hour, err = num(max)
			h12 = true
		case 'H', 'k':
			hour, err = num(max)
			if p.letter == 'k' && hour == 24 {
				hour = 0
			}
		case 'm':
			minute, err = num(max)
		case 's':
			sec, err = num(max)
		case 'S':
			j := i
			for j < len(s) && j-i < max && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			frac := s[i:j]
			if frac == "" {
				return time.Time{}, fmt.Errorf("expected a fraction at %q", s[i:])
			}
			for len(frac) < 9 {
				frac += "0"
			}
			nsec, _ = strconv.Atoi(frac[:9])
			i = j
		case 'A':
			var ms int
			ms, err = num(max)
			hour, minute, sec, nsec = ms/3600000, ms/60000%60, ms/1000%60, ms%1000*1e6
		case 'X', 'x', 'Z', 'O', 'z', 'V':
			zone, err = parseZone(s, &i)
		case 'n':
			nsec, err = num(max)
		default:
			_, err = num(max)
		}
		if err != nil {
			return time.Time{}, err
		}
	}
	if i != len(s) {
		return time.Time{}, fmt.Errorf("unparsed text %q", s[i:])
	}
	if epochMs >= 0 {
		return time.UnixMilli(epochMs), nil
	}
	if h12 || hasAMPM {
		hour %= 12
		if pm {
			hour += 12
		}
	}
	if zone != nil {
		loc = zone
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, nsec, loc), nil
}

// parseZone reads an offset (Z, +01, +0100, +01:00, GMT+1) or a zone name.
func parseZone(s string, i *int) (*time.Location, error) {
	rest := s[*i:]
	if strings.HasPrefix(rest, "Z") {
		*i++
		return time.UTC, nil
	}
	if strings.HasPrefix(rest, "GMT") || strings.HasPrefix(rest, "UTC") {
		*i += 3
		rest = s[*i:]
		if rest == "" || (rest[0] != '+' && rest[0] != '-') {
			return time.UTC, nil
		}
	}
	if rest != "" && (rest[0] == '+' || rest[0] == '-') {
		j := 1
		var digits []byte
		for j < len(rest) && (rest[j] >= '0' && rest[j] <= '9' || rest[j] == ':') && len(digits) < 4 {
			if rest[j] != ':' {
				digits = append(digits, rest[j])
			}
			j++
		}
		h, m := 0, 0
		switch len(digits) {
		case 1, 2:
			h, _ = strconv.Atoi(string(digits))
		case 3:
			h, _ = strconv.Atoi(string(digits[:1]))
			m, _ = strconv.Atoi(string(digits[1:]))
		case 4:
			h, _ = strconv.Atoi(string(digits[:2]))
			m, _ = strconv.Atoi(string(digits[2:]))
		default:
			return nil, errors.New("bad zone offset")
		}
		off := h*3600 + m*60
		if rest[0] == '-' {
			off = -off
		}
		*i += j
		return time.FixedZone("", off), nil
	}
	j := 0
	for j < len(rest) && (rest[j] == '/' || rest[j] == '_' || rest[j] >= 'A' && rest[j] <= 'Z' || rest[j] >= 'a' && rest[j] <= 'z') {
		j++
	}
	if j == 0 {
		return nil, fmt.Errorf("expected a time zone at %q", rest)
	}
	loc, err := time.LoadLocation(rest[:j])
	if err != nil {
		return nil, err
	}
	*i += j
	return loc, nil
}

// ParseDuration parses an ISO-8601 duration as Java's Duration.parse:
// [-]P[nD][T[nH][nM][n.nS]], each number with an optional sign; a day is
// 24 hours.
func ParseDuration(s string) (time.Duration, error) {
	bad := fmt.Errorf("%q is not an ISO-8601 duration like P1DT2H3M4.5S", s)
	neg := false
	t := strings.ToUpper(s)
	if strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+") {
		neg = t[0] == '-'
		t = t[1:]
	}
	if !strings.HasPrefix(t, "P") || len(t) < 3 {
		return 0, bad
	}
	t = t[1:]
	var total float64
	inTime := false
	seen := false
	for t != "" {
		if t[0] == 'T' {
			if inTime {
				return 0, bad
			}
			inTime = true
			t = t[1:]
			continue
		}
		j := 0
		for j < len(t) && (t[j] >= '0' && t[j] <= '9' || t[j] == '.' || t[j] == ',' || t[j] == '-' || t[j] == '+') {
			j++
		}
		if j == 0 || j == len(t) {
			return 0, bad
		}
		n, err := strconv.ParseFloat(strings.ReplaceAll(t[:j], ",", "."), 64)
		if err != nil {
			return 0, bad
		}
		unit := t[j]
		switch {
		case unit == 'D' && !inTime:
			total += n * 86400
		case unit == 'H' && inTime:
			total += n * 3600
		case unit == 'M' && inTime:
			total += n * 60
		case unit == 'S' && inTime:
			total += n
		default:
			return 0, bad
		}
		seen = true
		t = t[j+1:]
	}
	if !seen {
		return 0, bad
	}
	d := time.Duration(total * float64(time.Second))
	if neg {
		d = -d
	}
	return d, nil
}
