package atomicfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// WriteFile is os.WriteFile, made atomic.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write makes the file at path hold what write writes, atomically: on an
// error from write nothing changes at path.
func Write(path string, perm os.FileMode, write func(io.Writer) error) error {
	// The temporary file stays in the destination's folder, so that the
	// rename never crosses file systems (renameio would otherwise probe
	// TMPDIR for every file).
	f, err := renameio.NewPendingFile(path, renameio.WithTempDir(filepath.Dir(path)), renameio.WithPermissions(perm))
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer f.Cleanup()
	if err := write(f); err != nil {
		return err
	}
	if err := f.CloseAtomicallyReplace(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
