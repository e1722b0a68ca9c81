package group

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// wholeNumber reads a group's field as a whole number: "10", or "10.0" as
// a spreadsheet writes it; a fraction or text is an error, and so is a
// number past what JMeter's int holds (its thread count and ramp-up are
// ints; gojm keeps every field to that).
func wholeNumber(txt string) (int64, error) {
	n, err := strconv.ParseInt(txt, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(txt, 64)
		switch {
		case ferr == nil && f == math.Trunc(f) && math.Abs(f) <= math.MaxInt32:
			return int64(f), nil
		case ferr == nil && f == math.Trunc(f), errors.Is(err, strconv.ErrRange):
			return 0, outOfRange(strings.HasPrefix(txt, "-"))
		}
		return 0, errors.New("is not a whole number")
	}
	if n > math.MaxInt32 || n < math.MinInt32 {
		return 0, outOfRange(n < 0)
	}
	return n, nil
}

func outOfRange(negative bool) error {
	if negative {
		return fmt.Errorf("is too small (at least %d)", math.MinInt32)
	}
	return fmt.Errorf("is too large (at most %d)", math.MaxInt32)
}
