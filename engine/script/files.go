package script

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/dop251/goja"
	"github.com/gojm/gojm/internal/files"
)

// Files is what a script's File, FileWriter, BufferedWriter, PrintWriter
// and commons-io FileUtils reach: the plan's files policy, provided by the
// engine. Relative paths are the working folder's, as Java has them. Every
// refusal is an error wrapping files.ErrDenied; a file that is absent
// wraps fs.ErrNotExist.
type Files interface {
	// Stat describes a file the plan may read or write.
	Stat(path string) (fs.FileInfo, error)
	// Read reads a whole file the plan may read.
	Read(path string) ([]byte, error)
	// Create opens a file the plan may write, as a Java writer does: made
	// when absent, emptied when truncate.
	Create(path string, truncate bool) error
	// Append adds text to the end of a file the plan may write, in one
	// write that no other user's write tears.
	Append(path, text string) error
	// Remove deletes a file the plan may write.
	Remove(path string) error
}

// FileUse is a file a script names with a constant path: what validate
// checks against the policy before the run.
type FileUse struct {
	// Path is the path as the script builds it; with Base set it is
	// relative to FileServer's base directory (the plan's folder).
	Path  string
	Base  bool
	Write bool
}

func init() {
	for name, cls := range map[string]string{
		"java.io.FileWriter": "FileWriter", "java.io.BufferedWriter": "BufferedWriter",
		"java.io.PrintWriter": "PrintWriter", "java.io.Writer": "Writer",
		"java.io.FileNotFoundException": "FileNotFoundException", "java.lang.SecurityException": "SecurityException",
		"org.apache.commons.io.FileUtils": "FileUtils", "groovy.json.StringEscapeUtils": "StringEscapeUtils",
	} {
		knownClasses[name] = cls
		knownClasses[cls] = cls
	}
	for _, k := range []string{"File", "FileWriter", "BufferedWriter", "PrintWriter", "Writer"} {
		typeKinds[k] = [2]string{k, k}
	}
	kindJavaNames["File"] = "java.io.File"
}

// fileClassKinds are the kinds the file classes' constructors make.
var fileClassKinds = map[string]string{
	"File": "File", "FileWriter": "FileWriter", "BufferedWriter": "BufferedWriter", "PrintWriter": "PrintWriter",
}

// fileHelpers are the runtime's ways to files, through Env.Files.
func (r *runtime) fileHelpers(set func(string, func(goja.FunctionCall) goja.Value)) {
	vm := r.vm
	fsOf := func() Files {
		if r.env == nil || r.env.Files == nil {
			r.throw("java.lang.SecurityException", "gojm: this script has no file access")
		}
		return r.env.Files
	}
	set("fileAbs", func(c goja.FunctionCall) goja.Value {
		p := argStr(c, 0)
		if a, err := filepath.Abs(p); err == nil && p != "" {
			return vm.ToValue(a)
		}
		return vm.ToValue(p)
	})
	// fileStat: [exists, isFile, isDirectory, length]
	set("fileStat", func(c goja.FunctionCall) goja.Value {
		st, err := fsOf().Stat(argStr(c, 0))
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return vm.ToValue([]any{false, false, false, int64(0)})
			}
			r.throwFileErr(argStr(c, 0), err)
		}
		n := int64(0)
		if st.Mode().IsRegular() {
			n = st.Size()
		}
		return vm.ToValue([]any{true, st.Mode().IsRegular(), st.IsDir(), n})
	})
	set("fileRead", func(c goja.FunctionCall) goja.Value {
		b, err := fsOf().Read(argStr(c, 0))
		if err != nil {
			r.throwFileErr(argStr(c, 0), err)
		}
		cs := argStr(c, 1)
		if cs == "" || strings.EqualFold(cs, "UTF-8") {
			return vm.ToValue(strings.ToValidUTF8(string(b), "\uFFFD"))
		}
		ints := make([]int, len(b))
		for i, x := range b {
			ints[i] = int(x)
		}
		s, err := decodeBytes(ints, cs)
		if err != nil {
			r.throwErr(err)
		}
		return vm.ToValue(s)
	})
	set("fileCreate", func(c goja.FunctionCall) goja.Value {
		if err := fsOf().Create(argStr(c, 0), c.Argument(1).ToBoolean()); err != nil {
			r.throwFileErr(argStr(c, 0), err)
		}
		return goja.Undefined()
	})
	set("fileAppend", func(c goja.FunctionCall) goja.Value {
		if err := fsOf().Append(argStr(c, 0), argStr(c, 1)); err != nil {
			r.throwFileErr(argStr(c, 0), err)
		}
		return goja.Undefined()
	})
	set("fileDelete", func(c goja.FunctionCall) goja.Value {
		err := fsOf().Remove(argStr(c, 0))
		if isDenied(err) {
			r.throwFileErr(argStr(c, 0), err)
		}
		return vm.ToValue(err == nil)
	})
}

func isDenied(err error) bool { return errors.Is(err, files.ErrDenied) }

// throwFileErr throws Java's exception for a failed file operation: a
// SecurityException for a path the plan may not use, a
// FileNotFoundException for an absent file, else an IOException.
func (r *runtime) throwFileErr(path string, err error) {
	switch {
	case isDenied(err):
		r.throw("java.lang.SecurityException", "gojm: "+err.Error())
	case errors.Is(err, fs.ErrNotExist):
		r.throw("java.io.FileNotFoundException", fmt.Sprintf("%s (No such file or directory)", path))
	case errors.Is(err, fs.ErrPermission):
		r.throw("java.io.FileNotFoundException", fmt.Sprintf("%s (Permission denied)", path))
	}
	r.throw("java.io.IOException", err.Error())
}

// Files are the files the script names with a constant path (new
// File("…"), new FileWriter(FileServer.getFileServer().getBaseDir() +
// "/out.csv")…), for validate to check against the policy.
func (p *Program) Files() []FileUse { return p.files }

// noteFile records the file a File, FileWriter or PrintWriter constructor
// names, when its path is a constant.
func (t *translator) noteFile(cls string, args []expr) {
	write := cls == "FileWriter" || cls == "PrintWriter" || cls == "FileOutputStream" || cls == "PrintStream"
	if !write && cls != "File" || len(args) == 0 {
		return
	}
	if path, base, ok := t.constPath(args[0], true); ok && path != "" {
		t.files = append(t.files, FileUse{Path: path, Base: base, Write: write})
	}
}

// constPath is the path an expression builds from string literals,
// File.separator, System.getProperty("file.separator") and, first,
// FileServer.getFileServer().getBaseDir() (base set).
func (t *translator) constPath(e expr, first bool) (path string, base, ok bool) {
	switch x := e.(type) {
	case *litExpr:
		return x.val, false, x.kind == litString
	case *binaryExpr:
		if x.op != "+" {
			return "", false, false
		}
		a, base, ok := t.constPath(x.x, first)
		if !ok {
			return "", false, false
		}
		b, _, ok := t.constPath(x.y, false)
		return a + b, base, ok
	case *propExpr:
		if cls, isClass := t.classRef(x.x); isClass && cls == "File" && x.name == "separator" {
			return string(filepath.Separator), false, true
		}
	case *callExpr:
		if x.recv == nil {
			return "", false, false
		}
		if cls, isClass := t.classRef(x.recv); isClass && cls == "System" && x.name == "getProperty" && len(x.args) == 1 {
			if l, isLit := x.args[0].(*litExpr); isLit && l.val == "file.separator" {
				return string(filepath.Separator), false, true
			}
		}
		if inner, isCall := x.recv.(*callExpr); first && isCall && x.name == "getBaseDir" && inner.name == "getFileServer" && inner.recv != nil {
			if cls, isClass := t.classRef(inner.recv); isClass && cls == "FileServer" {
				return "", true, true
			}
		}
	}
	return "", false, false
}
