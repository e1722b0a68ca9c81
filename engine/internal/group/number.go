package group

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// wholeNumber reads a group's field as a whole number: "10", or "10.0" as
// a spreadsheet writes it; a fraction or text is an error, and so is a
// number past what JMeter's int holds. The plugins' groups read their
// fields this way.
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

// javaNumber reads a field as JMeter's getPropertyAsInt (bits 32) and
// getPropertyAsLong (64) do: Integer.parseInt or Long.parseLong of the
// text, and 0 for text they cannot parse ("0.5", "10.0", an unset
// "${threads}", a number past the type's range). ok is false then, so that
// the caller can say what JMeter made of the text.
func javaNumber(txt string, bits int) (n int64, ok bool) {
	n, err := strconv.ParseInt(txt, 10, bits)
	if err != nil {
		return 0, false
	}
	return n, true
}

// propertyRef finds the property a field reads, ${__P(name…)} or
// ${__property(name…)}, for the hint of a warning.
var propertyRef = regexp.MustCompile(`\$\{__(?:P|property)\(\s*([^,)\s]+)`)

// variableRef finds a lone variable reference, ${name}.
var variableRef = regexp.MustCompile(`^\$\{([^_${}][^${}()]*)\}$`)

// numberHint says how to give a field that JMeter reads as 0 the number
// meant, from the field's text as the plan writes it.
func numberHint(raw string) string {
	if m := propertyRef.FindStringSubmatch(raw); m != nil {
		return fmt.Sprintf("set it with -J %s=N", m[1])
	}
	if m := variableRef.FindStringSubmatch(strings.TrimSpace(raw)); m != nil {
		return fmt.Sprintf("define the variable %s (User Defined Variables) or write the number in the plan", m[1])
	}
	return "write a whole number in the plan"
}
