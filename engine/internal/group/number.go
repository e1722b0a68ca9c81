package group

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/internal/java"
)

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

// numberHint says how to give a field that JMeter reads leniently the
// number meant (what: "a whole number", "a number"), from the field's
// text as the plan writes it.
func numberHint(raw, what string) string {
	if m := propertyRef.FindStringSubmatch(raw); m != nil {
		return fmt.Sprintf("set it with -J %s=N", m[1])
	}
	if m := variableRef.FindStringSubmatch(strings.TrimSpace(raw)); m != nil {
		return fmt.Sprintf("define the variable %s (User Defined Variables) or write the number in the plan", m[1])
	}
	return "write " + what + " in the plan"
}

// numbers evaluates a plugin group's fields as the group starts, each as
// the plugin reads it: what it reads leniently becomes a note (a warning,
// a refusal with --strict), what it fails on stops the group, and what
// gojm refuses (a negative count) an error naming the field.
type numbers struct {
	vu    *element.VU
	path  string
	errs  []error
	notes []string
	// stops: the plugin throws NumberFormatException on a field as the
	// group starts, so the group starts no thread.
	stops bool
}

func (n *numbers) text(t *element.Template) string { return strings.TrimSpace(t.Eval(n.vu)) }

// note records what the plugin makes of a field's text.
func (n *numbers) note(field, txt string, t *element.Template, reading, what string) {
	from := ""
	if raw := t.Raw(); raw != txt {
		from = " (from " + raw + ")" // ${__P(users,abc)} gives "abc"
	}
	n.notes = append(n.notes, fmt.Sprintf("%s %q%s %s; %s", field, txt, from, reading, numberHint(t.Raw(), what)))
}

func (n *numbers) negative(field string, v any) {
	n.errs = append(n.errs, fmt.Errorf("%s %v is negative", field, v))
}

// asInt reads a field as the plugins' getPropertyAsInt: blank is blank
// (the field's default when the plan lacks it, else 0), text that is not a
// whole number 0, which means what meaning says.
func (n *numbers) asInt(field string, t *element.Template, blank int64, meaning string) int64 {
	s := n.text(t)
	if s == "" {
		return blank
	}
	v, ok := javaNumber(s, 32)
	if !ok {
		n.note(field, s, t, "is not a whole number: the plugin reads it as 0, "+meaning, "a whole number")
		return 0
	}
	if v < 0 {
		n.negative(field, v)
		return 0
	}
	return v
}

// failed is the reading of a field the plugin parses with Long.parseLong
// or Double.parseDouble as the group starts.
const failed = "is not a number the plugin reads: its NumberFormatException stops the group, which starts no thread"

// asLong reads a field the plugin parses with Long.parseLong (blank is 0).
func (n *numbers) asLong(field string, t *element.Template) int64 {
	s := n.text(t)
	if s == "" {
		return 0
	}
	v, ok := javaNumber(s, 64)
	if !ok {
		n.note(field, s, t, failed, "a whole number")
		n.stops = true
		return 0
	}
	if v < 0 {
		n.negative(field, v)
		return 0
	}
	return v
}

// asSeconds reads a duration the plugin takes as
// Math.round(Double.parseDouble(text) × unit) seconds (blank is 0); text
// Double.parseDouble throws on stops the group.
func (n *numbers) asSeconds(field string, t *element.Template, unit float64) float64 {
	return float64(java.Round(n.parseDouble(field, t, failed, true) * unit))
}

// asDouble reads a field as getDoubleValue does: blank is 0, and so is
// text that is not a number, which means what meaning says.
func (n *numbers) asDouble(field string, t *element.Template, meaning string) float64 {
	return n.parseDouble(field, t, "is not a number: the plugin reads it as 0, "+meaning, false)
}

// parseDouble reads a field with Double.parseDouble: blank is 0, and so
// are NaN and text it throws on, which is noted with what the plugin then
// does (reading) and stops the group where the throw does.
func (n *numbers) parseDouble(field string, t *element.Template, reading string, stops bool) float64 {
	s := n.text(t)
	if s == "" {
		return 0
	}
	v, ok := n.double(field, s)
	if !ok {
		n.note(field, s, t, reading, "a number")
		n.stops = n.stops || stops
	}
	if math.IsNaN(v) {
		return 0
	}
	return v
}

// double reads a field's text with Double.parseDouble; ok is false where
// that throws. gojm refuses an infinite or negative number (read as 0).
func (n *numbers) double(field, s string) (v float64, ok bool) {
	v, ok = java.ParseDouble(s)
	switch {
	case !ok:
		return 0, false
	case math.IsInf(v, 0):
		n.errs = append(n.errs, fmt.Errorf("%s %q is not a finite number", field, s))
		return 0, true
	case v < 0:
		n.negative(field, s)
		return 0, true
	}
	return v, true
}

func (n *numbers) err() error {
	if len(n.errs) == 0 {
		return nil
	}
	return fmt.Errorf("%s: %w", n.path, errors.Join(n.errs...))
}
