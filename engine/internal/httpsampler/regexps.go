package httpsampler

import (
	"regexp"

	"github.com/gojm/gojm/internal/cache"
)

// regexps are the expressions the modifiers build from texts known only
// when a sample runs (a request's fields, a ${} session id name), each
// compiled once and kept in a bounded cache: fields that change every
// sample would otherwise add one each.
var regexps = cache.NewFunc(1024, regexp.Compile)

// compiled is the expression of text, nil when it does not compile.
func compiled(text string) *regexp.Regexp {
	re, _ := regexps.Get(text)
	return re
}
