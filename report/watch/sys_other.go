//go:build !linux

package watch

// procDir stands in for Linux's /proc reader; on other systems it cannot be
// opened and Start reports ErrNoProc.
type procDir struct{}

func openProcDir(string) (procDir, error)                         { return procDir{}, ErrNoProc }
func (procDir) close() error                                      { return nil }
func (procDir) readFile(path, buf []byte) (int, error)            { return 0, ErrNoProc }
func (procDir) eachEntry(path, buf []byte, fn func([]byte)) error { return ErrNoProc }
