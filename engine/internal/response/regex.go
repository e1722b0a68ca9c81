package response

import (
	"errors"
	"regexp"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/internal/cache"
	"github.com/gojm/gojm/internal/java"
)

// regexCacheMax bounds a field's pattern cache: patterns built from
// variables that change every sample would otherwise add one each.
const regexCacheMax = 1000

// regexField is a regular expression field of an element: compiled once
// when constant, else compiled on first use of each distinct value and kept
// in a bounded cache.
type RegexField struct {
	src      *element.Template
	anchored bool
	fixed    *regexp.Regexp
	fixedErr error
	texts    *cache.Func[string, *regexp.Regexp]
}

// newRegexField compiles a pattern template. A constant pattern with a
// construct RE2 cannot run is refused; one that is malformed for every
// engine fails at run time, as in JMeter.
func NewRegexField(t *element.Template, anchored bool) (*RegexField, error) {
	f := &RegexField{src: t, anchored: anchored}
	f.texts = cache.NewFunc(regexCacheMax, func(p string) (*regexp.Regexp, error) { return java.CompileRegexp(p, anchored) })
	if t.Const() {
		f.fixed, f.fixedErr = java.CompileRegexp(t.Raw(), anchored)
		if errors.Is(f.fixedErr, java.ErrRegexUnsupported) {
			return nil, f.fixedErr
		}
	}
	return f, nil
}

// get returns the pattern for the virtual user's current values.
func (f *RegexField) Get(vu *element.VU) (*regexp.Regexp, string, error) {
	if f.src.Const() {
		return f.fixed, f.src.Raw(), f.fixedErr
	}
	p := f.src.Eval(vu)
	re, err := f.compile(p)
	return re, p, err
}

func (f *RegexField) compile(p string) (*regexp.Regexp, error) { return f.texts.Get(p) }
