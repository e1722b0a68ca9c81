package element

import (
	"fmt"
	"strings"
)

// PluginSeconds reads a jmeter-plugins duration: digits followed by s, m,
// h or d, repeated; a number without unit is seconds.
func PluginSeconds(s string) (int64, error) {
	s = strings.TrimSpace(s)
	var total, cur int64
	digits := false
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			cur = cur*10 + int64(r-'0')
			digits = true
			continue
		case r == 's' || r == 'S':
			total += cur
		case r == 'm' || r == 'M':
			total += cur * 60
		case r == 'h' || r == 'H':
			total += cur * 3600
		case r == 'd' || r == 'D':
			total += cur * 86400
		default:
			return 0, fmt.Errorf("%q is not a duration (digits with s, m, h or d)", s)
		}
		cur = 0
	}
	if !digits {
		return 0, fmt.Errorf("%q is not a duration", s)
	}
	return total + cur, nil
}
