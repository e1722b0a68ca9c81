package function

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gojm/gojm/engine/internal/element"
)

// templater compiles templates against the plan's symbols and a table of
// functions.
type Compiler struct {
	plan  *element.Plan // for function constructors that need it (files, counters)
	syms  *element.Symbols
	table map[string]Def
	// runtime marks a templater compiling while the plan runs (__eval,
	// __evalVar): it must not add symbols or slots, as virtual users read
	// them concurrently.
	runtime bool
	// Static evaluates a template while the plan compiles, with the
	// properties and user-defined variables known so far (the engine's
	// Builder.Static); false when its value is only known during the run.
	// nil: only constant text is known.
	Static   func(*element.Template) (string, bool)
	warnings []string // since the last TakeWarnings
}

// AddWarning records a warning of the function being compiled; the engine
// gives it the element and field the function stands in.
func (tp *Compiler) AddWarning(msg string) {
	if !tp.runtime {
		tp.warnings = append(tp.warnings, msg)
	}
}

// TakeWarnings returns the warnings recorded since it was last called.
func (tp *Compiler) TakeWarnings() []string {
	w := tp.warnings
	tp.warnings = nil
	return w
}

// StaticValue is t's value when the plan compiles, if it is known then.
func (tp *Compiler) StaticValue(t *element.Template) (string, bool) {
	if t.Const() {
		return t.Raw(), true
	}
	if tp.Static == nil || tp.runtime {
		return "", false
	}
	return tp.Static(t)
}

// Plan is the plan whose templates are compiled.
func (tp *Compiler) Plan() *element.Plan { return tp.plan }

// Runtime reports whether the templater compiles while the plan runs
// (__eval): a function that needs state of its own cannot be built then.
func (tp *Compiler) Runtime() bool { return tp.runtime }

// newTemplater returns a templater of p's templates, with a table of
// functions.
func NewCompiler(p *element.Plan, table map[string]Def) *Compiler {
	return &Compiler{plan: p, syms: p.Symbols(), table: table}
}

// errTemplate marks a malformed ${…} expression.
var errTemplate = errors.New("bad ${…} expression")

// compile parses s into a Template.
func (tp *Compiler) Compile(s string) (*element.Template, error) {
	if !strings.Contains(s, "${") {
		return element.Text(s), nil
	}
	parts, err := tp.parse(s)
	if err != nil {
		if errors.Is(err, element.ErrUnsupported) {
			// Well formed, with a function gojm refuses (a script beyond
			// the subset): not a bad expression.
			return nil, fmt.Errorf("the ${…} expression %q: %w", s, err)
		}
		return nil, fmt.Errorf("%w %q: %w", errTemplate, s, err)
	}
	if len(parts) <= 1 && (len(parts) == 0 || parts[0].Kind == element.LitPart) {
		// Nothing but text (an escaped "\${x}"): JMeter keeps such a field
		// as it was written, backslashes included.
		return element.Text(s), nil
	}
	if allLiteral(parts) {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Lit)
		}
		return element.Text(b.String()), nil
	}
	return element.NewTemplate(s, parts), nil
}

func allLiteral(parts []element.Part) bool {
	for _, p := range parts {
		if p.Kind != element.LitPart {
			return false
		}
	}
	return true
}

// parse splits s into literal, variable and function parts. A backslash
// escapes '$', ',' and '\'; any other backslash is kept, as JMeter does.
func (tp *Compiler) parse(s string) ([]element.Part, error) {
	var parts []element.Part
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, element.Part{Kind: element.LitPart, Lit: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\\' && i+1 < len(s):
			i++
			if n := s[i]; n != '$' && n != ',' && n != '\\' {
				lit.WriteByte('\\')
			}
			lit.WriteByte(s[i])
		case ch == '$' && i+1 < len(s) && s[i+1] == '{':
			p, end, err := tp.reference(s, i+2)
			if err != nil {
				return nil, err
			}
			if end < 0 {
				// No closing brace: JMeter keeps the rest as text without
				// its "${" (and logs "Probably an invalid function string"),
				// as a part of its own.
				flush()
				if p.Lit != "" {
					parts = append(parts, element.Part{Kind: element.LitPart, Lit: p.Lit})
				}
				i = len(s)
				continue
			}
			flush()
			parts = append(parts, p)
			i = end
		default:
			lit.WriteByte(ch)
		}
	}
	flush()
	return parts, nil
}

// reference parses what follows "${" at s[i:], returning the part and the
// index of its closing '}' (or -1 when there is none).
func (tp *Compiler) reference(s string, i int) (element.Part, int, error) {
	var name strings.Builder
	for ; i < len(s); i++ {
		switch ch := s[i]; ch {
		case '\\':
			if i+1 < len(s) {
				i++
				name.WriteByte(s[i])
			}
		case '(':
			fname := strings.TrimSpace(name.String())
			if name.Len() == 0 || s[i-1] == ' ' {
				// JMeter opens a call only when '(' follows a name directly.
				name.WriteByte(ch)
				continue
			}
			if _, ok := tp.table[fname]; !ok {
				if msg, ok := refusedFunctions[fname]; ok {
					return element.Part{}, 0, fmt.Errorf("%s: %s", fname, msg)
				}
				if strings.HasPrefix(fname, "__") {
					return element.Part{}, 0, fmt.Errorf("unknown function %s: gojm does not have it", fname)
				}
				name.WriteByte(ch)
				continue
			}
			args, end, err := splitArgs(s, i+1)
			if err != nil {
				return element.Part{}, 0, fmt.Errorf("%s: %w", fname, err)
			}
			j := end + 1
			for j < len(s) && s[j] == ' ' {
				j++
			}
			if j >= len(s) || s[j] != '}' {
				return element.Part{}, 0, fmt.Errorf("expected } after %s function call", fname)
			}
			fn, err := tp.function(fname, args)
			if err != nil {
				return element.Part{}, 0, err
			}
			return element.Part{Kind: element.FnPart, Fn: fn}, j, nil
		case '}':
			n := name.String()
			if _, ok := tp.table[n]; ok {
				fn, err := tp.function(n, nil)
				if err != nil {
					return element.Part{}, 0, err
				}
				return element.Part{Kind: element.FnPart, Fn: fn}, i, nil
			}
			if msg, ok := refusedFunctions[n]; ok {
				return element.Part{}, 0, fmt.Errorf("%s: %s", n, msg)
			}
			if tp.runtime {
				if slot, ok := tp.syms.Lookup(n); ok {
					return element.Part{Kind: element.VarPart, Slot: slot, Lit: "${" + n + "}"}, i, nil
				}
				return element.Part{Kind: element.NamedVarPart, Lit: "${" + n + "}"}, i, nil
			}
			return element.Part{Kind: element.VarPart, Slot: tp.syms.Intern(n), Lit: "${" + n + "}"}, i, nil
		default:
			name.WriteByte(ch)
		}
	}
	if strings.HasPrefix(name.String(), "__") && strings.Contains(name.String(), "(") {
		return element.Part{}, 0, errors.New("unterminated function call")
	}
	return element.Part{Kind: element.LitPart, Lit: name.String()}, -1, nil
}

// splitArgs splits a function's argument list starting after its '(' and
// returns the raw arguments and the index of the closing ')'. Commas inside
// nested ${…} or parentheses do not split; escapes are kept for the
// arguments' own parse.
func splitArgs(s string, i int) ([]string, int, error) {
	var args []string
	var buf strings.Builder
	depth, parens := 0, 0
	var prev byte
	for ; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\\' && i+1 < len(s):
			buf.WriteByte(ch)
			i++
			buf.WriteByte(s[i])
			prev = 0
			continue
		case ch == ',' && depth == 0:
			// As in JMeter, a comma splits even inside parentheses:
			// write "\," to keep it in the argument.
			args = append(args, buf.String())
			buf.Reset()
		case ch == ')' && depth == 0 && parens == 0:
			if buf.Len() > 0 || len(args) > 0 {
				args = append(args, buf.String())
			}
			return args, i, nil
		case ch == '{' && prev == '$':
			depth++
			buf.WriteByte(ch)
		case ch == '}' && depth > 0:
			depth--
			buf.WriteByte(ch)
		case ch == '(' && depth == 0:
			parens++
			buf.WriteByte(ch)
		case ch == ')' && depth == 0:
			parens--
			buf.WriteByte(ch)
		default:
			buf.WriteByte(ch)
		}
		prev = ch
	}
	return nil, 0, errors.New("expected ) after the arguments")
}

// function compiles one call of a named function.
func (tp *Compiler) function(name string, raw []string) (element.Function, error) {
	def := tp.table[name]
	if len(raw) < def.Min || (def.Max >= 0 && len(raw) > def.Max) {
		return nil, fmt.Errorf("%s takes %s, got %d", name, def.arity(), len(raw))
	}
	args := make([]*element.Template, len(raw))
	for i, a := range raw {
		t, err := tp.compileArg(a)
		if err != nil {
			return nil, fmt.Errorf("%s argument %d: %w", name, i+1, err)
		}
		args[i] = t
	}
	return def.Build(tp, args)
}

// compileArg compiles a function argument: unlike a field value it always
// goes through the parser, so "\," becomes ",".
func (tp *Compiler) compileArg(s string) (*element.Template, error) {
	if !strings.Contains(s, "\\") {
		return tp.Compile(s)
	}
	parts, err := tp.parse(s)
	if err != nil {
		return nil, err
	}
	if len(parts) == 0 {
		return element.Text(""), nil
	}
	if len(parts) == 1 && parts[0].Kind == element.LitPart {
		return element.Text(parts[0].Lit), nil
	}
	return element.NewTemplate(s, parts), nil
}

// funcDef describes a function: its arity and how to compile a call.
type Def struct {
	Min, Max int // max < 0: no limit
	Build    func(tp *Compiler, args []*element.Template) (element.Function, error)
}

func (d Def) arity() string {
	switch {
	case d.Min == d.Max:
		return fmt.Sprintf("%d arguments", d.Min)
	case d.Max < 0:
		return fmt.Sprintf("at least %d arguments", d.Min)
	}
	return fmt.Sprintf("%d to %d arguments", d.Min, d.Max)
}
