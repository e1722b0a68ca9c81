package files

import (
	"errors"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
)

// What scripts do with files (java.io.File, FileWriter…): each operation
// asks the policy first, writes and deletes by CheckScriptWrite. Writes of one file are serialized (striped locks
// by real path), and each Append is one write to a file opened for
// appending, so that texts appended by several users at once never
// interleave.

// Read reads a whole file a script names, as ReadFile does, but does
// not count it as one of the plan's inputs: a script may read what it or
// another element writes, and write it again.
func (p *Policy) Read(path string) ([]byte, error) { return p.readFile(path, false) }

// Stat describes a file the plan may read, or write.
func (p *Policy) Stat(path string) (fs.FileInfo, error) {
	if err := p.CheckRead(path); err != nil {
		if p.CheckScriptWrite(path) != nil {
			return nil, err
		}
	}
	return os.Stat(realPath(path))
}

// Create makes a file the plan may write, as a Java writer opening it
// does: created when absent, emptied when truncate.
func (p *Policy) Create(path string, truncate bool) error {
	flag := os.O_WRONLY | os.O_CREATE
	if truncate {
		flag |= os.O_TRUNC
	}
	return p.writeFile(path, flag, "")
}

// Append adds text to the end of a file the plan may write (made when
// absent), in one write.
func (p *Policy) Append(path, text string) error {
	return p.writeFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, text)
}

// Remove deletes a file the plan may write. An absent file is an error
// wrapping fs.ErrNotExist.
func (p *Policy) Remove(path string) error {
	return p.locked(path, func(root *os.Root, name string) error {
		if root != nil {
			return renamed(root.Remove(name), "remove", path)
		}
		return renamed(os.Remove(name), "remove", path)
	})
}

func (p *Policy) writeFile(path string, flag int, text string) error {
	return p.locked(path, func(root *os.Root, name string) error {
		var f *os.File
		var err error
		if root != nil {
			f, err = root.OpenFile(name, flag, 0o644)
		} else {
			f, err = os.OpenFile(name, flag, 0o644)
		}
		if err != nil {
			return renamed(err, "open", path)
		}
		if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
			f.Close()
			return &DeniedError{Write: true, Path: path, Why: "it is not a regular file"}
		}
		if text != "" {
			if _, err := f.WriteString(text); err != nil {
				f.Close()
				return err
			}
		}
		return f.Close()
	})
}

// locked checks that a script may write path and calls do under the
// file's lock, with the allowed folder it is in opened as a root and its
// name inside it (so that a link swapped in on the way leads nowhere
// else), or with a nil root and its real path where any folder is allowed.
func (p *Policy) locked(path string, do func(root *os.Root, name string) error) error {
	if err := p.CheckScriptWrite(path); err != nil {
		return err
	}
	real := realPath(path)
	mu := p.lock(real)
	mu.Lock()
	defer mu.Unlock()
	p.mu.Lock()
	r := within(p.scriptWrite, real)
	p.mu.Unlock()
	if r == "" {
		return do(nil, real)
	}
	rel, _ := filepath.Rel(r, real)
	root, err := os.OpenRoot(r)
	if err != nil {
		return err
	}
	defer root.Close()
	return do(root, rel)
}

// lock is the lock of the stripe a real path falls in.
func (p *Policy) lock(real string) *stripe {
	h := fnv.New32a()
	_, _ = h.Write([]byte(real))
	return &p.writes[h.Sum32()%uint32(len(p.writes))]
}

// renamed gives a path error the path as the plan named it.
func renamed(err error, op, path string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: op, Path: path, Err: pe.Err}
	}
	return err
}
