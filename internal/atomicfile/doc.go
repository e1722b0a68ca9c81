// Package atomicfile writes a file so that no reader ever sees half of it:
// the content goes into a temporary file in the same folder, is synced,
// and is renamed over the name. A gojm killed meanwhile (SIGKILL, the
// machine lost) leaves the file as it was before, or absent, and at worst
// a hidden temporary file beside it; never a truncated summary, chart or
// page.
//
// It imports the standard library and google/renameio, which does the
// writing.
package atomicfile
