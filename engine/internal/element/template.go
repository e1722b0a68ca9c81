package element

// Template is a field value that may hold ${variables} and ${__functions()}.
// It is compiled once; a value without "${" is a constant and evaluating it
// costs nothing.
type Template struct {
	raw   string
	parts []Part // nil for a constant
}

// PartKind is what a piece of a template is.
type PartKind uint8

const (
	LitPart      PartKind = iota // literal text
	VarPart                      // a variable by slot: ${name}
	FnPart                       // a function call: ${__name(…)}
	NamedVarPart                 // a variable found by name: templates compiled at run time (__eval)
)

// Part is one piece of a compiled template.
type Part struct {
	Kind PartKind
	Lit  string // literal text; for a variable, the "${name}" shown when it is undefined
	Slot int    // variable slot
	Fn   Function
	app  Appender // Fn, when it is one (set by NewTemplate)
}

// Function is one compiled ${__name(args)} call.
type Function interface {
	Eval(vu *VU) string
}

// Appender is a Function that can also write its value at the end of a
// buffer: in a template of several parts it then makes no string of its
// own (the number of a ${__Random} or ${__time} in a URL). Append
// evaluates what it needs (its arguments) before it appends to dst, and
// appends what Eval would return.
type Appender interface {
	Function
	Append(vu *VU, dst []byte) []byte
}

// NewTemplate returns the template of source text raw made of parts; nil
// parts make a constant, whose value is raw. The template keeps parts.
func NewTemplate(raw string, parts []Part) *Template {
	for i := range parts {
		parts[i].app, _ = parts[i].Fn.(Appender)
	}
	return &Template{raw: raw, parts: parts}
}

// Text returns the constant template of s.
func Text(s string) *Template { return &Template{raw: s} }

// Parts returns the template's pieces (nil for a constant), for elements
// that look inside a template (a script whose ${…} stand in its string
// literals). They must not be changed.
func (t *Template) Parts() []Part { return t.parts }

// Raw returns the template's source text.
func (t *Template) Raw() string { return t.raw }

// Const reports whether the template has no variables or functions.
func (t *Template) Const() bool { return t.parts == nil }

// Eval returns the template's value for a virtual user. An undefined
// variable stays as its literal "${name}", as in JMeter.
func (t *Template) Eval(vu *VU) string {
	if t.parts == nil {
		return t.raw
	}
	if len(t.parts) == 1 {
		return t.parts[0].Eval(vu)
	}
	// vu.tbuf is shared: a function argument evaluated inside this loop
	// gets its own buffer through evalNested.
	start := len(vu.tbuf)
	for i := range t.parts {
		p := &t.parts[i]
		switch {
		case p.Kind == LitPart:
			vu.tbuf = append(vu.tbuf, p.Lit...)
		case p.app != nil:
			vu.tbuf = p.app.Append(vu, vu.tbuf)
		default:
			v := p.Eval(vu) // may use vu.tbuf beyond start itself
			vu.tbuf = append(vu.tbuf, v...)
		}
	}
	s := string(vu.tbuf[start:])
	vu.tbuf = vu.tbuf[:start]
	return s
}

// Eval returns the part's value for a virtual user.
func (p *Part) Eval(vu *VU) string {
	switch p.Kind {
	case VarPart:
		if s, ok := vu.Vars.Slot(p.Slot); ok {
			return s
		}
		return p.Lit
	case FnPart:
		return p.Fn.Eval(vu)
	case NamedVarPart:
		if s, ok := vu.Vars.Get(p.Lit[2 : len(p.Lit)-1]); ok {
			return s
		}
	}
	return p.Lit
}

// FuncFunc adapts a plain function to Function.
type FuncFunc func(vu *VU) string

// Eval calls f.
func (f FuncFunc) Eval(vu *VU) string { return f(vu) }
