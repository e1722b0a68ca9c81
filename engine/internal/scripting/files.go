package scripting

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/script"
	"github.com/gojm/gojm/internal/files"
	"github.com/gojm/gojm/jmx"
)

// warnFiles warns, before the run, of each file the script names with a
// constant path that the plan's policy will not let it read (a File) or
// write (a FileWriter, a PrintWriter): the script fails there when it
// runs, as the warning says.
func warnFiles(c element.Builder, e *jmx.Element, s *scriptElem) {
	pol := c.Plan().Files
	if pol == nil {
		return
	}
	var uses []script.FileUse
	switch {
	case s.prog != nil:
		uses = s.prog.Files()
	case s.holeProg != nil:
		uses = s.holeProg.Files()
	}
	for _, u := range uses {
		path := u.Path
		if u.Base {
			path = filepath.Join(baseDir(c.Plan()), path)
		}
		check, verb := pol.CheckRead, "read"
		if u.Write {
			check, verb = pol.CheckScriptWrite, "write"
		}
		if err := check(path); errors.Is(err, files.ErrDenied) {
			c.Warn(e, fmt.Sprintf("its script would %s %s, which fails when it runs: %v", verb, path, err))
		}
	}
}
