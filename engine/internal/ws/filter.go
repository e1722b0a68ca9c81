package ws

import (
	"bytes"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// filter is one of the plugin's frame filters: a frame it matches is
// discarded while a sampler waits for the frame it reads.
type filter struct {
	class string
	// replyPong: the Ping Frame Filter answers each ping with a pong.
	replyPong bool
	// A Text or Binary Frame Filter's comparison (its ComparisonType
	// without "Not"), whether it is negated, and its match value.
	cmp   string
	not   bool
	value string
	re    *regexp.Regexp
	bin   []byte
	// at is a binary Contains's position, -1 for anywhere.
	at int
}

func buildFilter(c element.Builder, e *jmx.Element) filter {
	f := filter{class: e.Class, at: -1}
	switch e.Class {
	case PingFilterClass:
		f.replyPong = e.Bool("replyToPing", false)
		return f
	case TextFilterClass:
		f.cmp = e.StrOr("comparisonType", "IsPlain")
	case BinaryFilterClass:
		f.cmp = e.StrOr("comparisonType", "IsBinary")
	}
	f.value = e.Str("matchValue")
	f.cmp, f.not = strings.CutPrefix(f.cmp, "Not")
	switch f.cmp {
	case "IsPlain", "IsBinary", "Equals", "Contains", "StartsWith", "EndsWith":
	case "ContainsRegex", "EqualsRegex":
		if e.Class == TextFilterClass {
			re, err := regexp.Compile(f.value)
			if err != nil {
				c.Fail(e, errors.New("match value: "+err.Error()))
				re = regexp.MustCompile("$^")
			}
			f.re = re
			break
		}
		fallthrough
	default:
		c.Fail(e, errors.New("comparison type "+strconv.Quote(e.Str("comparisonType"))+" is none of the plugin's"))
	}
	if e.Class == BinaryFilterClass {
		b, err := parseBinary(f.value)
		if err != nil || len(b) == 0 {
			// The plugin logs an error and the filter discards no frame
			// but with the comparisons that a missing value satisfies.
			c.Warn(e, "the match value "+strconv.Quote(f.value)+" is not binary, or empty: the filter compares with no bytes, as the plugin does")
			b = nil
		}
		f.bin = b
		if f.cmp == "Contains" {
			if n, err := strconv.ParseInt(e.Str("matchPosition"), 10, 32); err == nil {
				f.at = int(n)
			}
		}
	}
	return f
}

// discard returns the filter in scope that discards f, or nil.
func (s *sampler) discard(f *frame) *filter {
	for i := range s.filters {
		if s.filters[i].matches(f) {
			return &s.filters[i]
		}
	}
	return nil
}

func (fl *filter) matches(f *frame) bool {
	switch fl.class {
	case PingFilterClass:
		return f.op == opPing || f.op == opPong
	case TextFilterClass:
		return f.op == opText && fl.text(string(f.data))
	case BinaryFilterClass:
		return f.op == opBinary && fl.binary(f.data)
	}
	return false
}

// text is TextFrameFilter.matchesFilter.
func (fl *filter) text(s string) bool {
	var ok bool
	switch fl.cmp {
	case "IsPlain":
		return true
	case "Contains":
		ok = strings.Contains(s, fl.value)
	case "Equals":
		ok = s == fl.value
	case "StartsWith":
		ok = strings.HasPrefix(s, fl.value)
	case "EndsWith":
		ok = strings.HasSuffix(s, fl.value)
	case "ContainsRegex":
		ok = fl.re.MatchString(s)
	case "EqualsRegex":
		loc := fl.re.FindStringIndex(s)
		ok = loc != nil && loc[0] == 0 && loc[1] == len(s)
	}
	return ok != fl.not
}

// binary is BinaryFrameFilter.matchesFilter.
func (fl *filter) binary(b []byte) bool {
	var ok bool
	switch fl.cmp {
	case "IsBinary":
		return true
	case "Equals":
		ok = bytes.Equal(b, fl.bin)
	case "Contains":
		if fl.at >= 0 {
			ok = len(fl.bin) > 0 && fl.at+len(fl.bin) <= len(b) && bytes.Equal(b[fl.at:fl.at+len(fl.bin)], fl.bin)
		} else {
			ok = bytes.Contains(b, fl.bin)
		}
	case "StartsWith":
		ok = bytes.HasPrefix(b, fl.bin)
	case "EndsWith":
		ok = bytes.HasSuffix(b, fl.bin)
	}
	return ok != fl.not
}
