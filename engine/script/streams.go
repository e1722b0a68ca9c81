package script

// java.io.FileOutputStream and PrintStream over a file (runtime_streams.js)
// go through the files policy as the writers do; BeanShell's
// this.interpreter is reached only for setOut and setErr, which send the
// script's print() to such a PrintStream.

func init() {
	for name, cls := range map[string]string{
		"java.io.FileOutputStream": "FileOutputStream", "java.io.OutputStream": "OutputStream",
	} {
		knownClasses[name] = cls
		knownClasses[cls] = cls
	}
	typeKinds["FileOutputStream"] = [2]string{"FileOutputStream", "FileOutputStream"}
	typeKinds["OutputStream"] = [2]string{"FileOutputStream", "FileOutputStream"}
	fileClassKinds["FileOutputStream"] = "FileOutputStream"
	fileClassKinds["PrintStream"] = "Out"
}

// interpExpr is BeanShell's this.interpreter.
type interpExpr struct{ at Pos }

func (e *interpExpr) pos() Pos { return e.at }
func (*interpExpr) exprNode()  {}

// thisInterpreter reads .interpreter after BeanShell's this when a call of
// setOut or setErr follows: the one use of the script object gojm runs.
func (p *parser) thisInterpreter() bool {
	word := func(k int, w ...string) bool {
		t := p.peekAt(k)
		if t.kind != tIdent {
			return false
		}
		for _, x := range w {
			if t.text == x {
				return true
			}
		}
		return false
	}
	op := func(k int, o string) bool { t := p.peekAt(k); return t.kind == tOp && t.text == o }
	if p.d != BeanShell || !op(0, ".") || !word(1, "interpreter") || !op(2, ".") || !word(3, "setOut", "setErr") || !op(4, "(") {
		return false
	}
	p.i += 2
	return true
}
