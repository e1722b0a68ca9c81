// Package cache holds the one cache type gojm uses, so that nothing a plan
// makes at run time (patterns, programs, formats, file contents) grows
// without limit over a long run.
//
// It imports only the standard library.
package cache
