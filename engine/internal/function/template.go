package engine

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gojm/gojm/engine/internal/element"
)

// templater compiles templates against the plan's symbols and functions.
type templater struct {
	syms *Symbols
	c    *compiler // for function constructors that need the plan (files, counters)
	// runtime marks a templater compiling while the plan runs (__eval,
	// __evalVar): it must not add symbols or slots, as virtual users read
	// them concurrently.
	runtime bool
}

// errTemplate marks a malformed ${…} expression.
var errTemplate = errors.New("bad ${…} expression")

// compile parses s into a Template.
func (tp *templater) compile(s string) (*Template, error) {
	if !strings.Contains(s, "${") {
		return element.Text(s), nil
	}
	parts, err := tp.parse(s)
	if err != nil {
		return nil, fmt.Errorf("%w %q: %w", errTemplate, s, err)
	}
	if len(parts) <= 1 && (len(parts) == 0 || parts[0].Kind == LitPart) {
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

func allLiteral(parts []Part) bool {
	for _, p := range parts {
		if p.Kind != LitPart {
			return false
		}
	}
	return true
}

// parse splits s into literal, variable and function parts. A backslash
// escapes '$', ',' and '\'; any other backslash is kept, as JMeter does.
func (tp *templater) parse(s string) ([]Part, error) {
	var parts []Part
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, Part{Kind: LitPart, Lit: lit.String()})
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
					parts = append(parts, Part{Kind: LitPart, Lit: p.Lit})
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
func (tp *templater) reference(s string, i int) (Part, int, error) {
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
			if _, ok := functions[fname]; !ok {
				if msg, ok := refusedFunctions[fname]; ok {
					return Part{}, 0, fmt.Errorf("%s: %s", fname, msg)
				}
				if strings.HasPrefix(fname, "__") {
					return Part{}, 0, fmt.Errorf("unknown function %s: gojm does not have it", fname)
				}
				name.WriteByte(ch)
				continue
			}
			args, end, err := splitArgs(s, i+1)
			if err != nil {
				return Part{}, 0, fmt.Errorf("%s: %w", fname, err)
			}
			j := end + 1
			for j < len(s) && s[j] == ' ' {
				j++
			}
			if j >= len(s) || s[j] != '}' {
				return Part{}, 0, fmt.Errorf("expected } after %s function call", fname)
			}
			fn, err := tp.function(fname, args)
			if err != nil {
				return Part{}, 0, err
			}
			return Part{Kind: FnPart, Fn: fn}, j, nil
		case '}':
			n := name.String()
			if _, ok := functions[n]; ok {
				fn, err := tp.function(n, nil)
				if err != nil {
					return Part{}, 0, err
				}
				return Part{Kind: FnPart, Fn: fn}, i, nil
			}
			if msg, ok := refusedFunctions[n]; ok {
				return Part{}, 0, fmt.Errorf("%s: %s", n, msg)
			}
			if tp.runtime {
				if slot, ok := tp.syms.Lookup(n); ok {
					return Part{Kind: VarPart, Slot: slot, Lit: "${" + n + "}"}, i, nil
				}
				return Part{Kind: NamedVarPart, Lit: "${" + n + "}"}, i, nil
			}
			return Part{Kind: VarPart, Slot: tp.syms.Intern(n), Lit: "${" + n + "}"}, i, nil
		default:
			name.WriteByte(ch)
		}
	}
	if strings.HasPrefix(name.String(), "__") && strings.Contains(name.String(), "(") {
		return Part{}, 0, errors.New("unterminated function call")
	}
	return Part{Kind: LitPart, Lit: name.String()}, -1, nil
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
func (tp *templater) function(name string, raw []string) (Function, error) {
	def := functions[name]
	if len(raw) < def.min || (def.max >= 0 && len(raw) > def.max) {
		return nil, fmt.Errorf("%s takes %s, got %d", name, def.arity(), len(raw))
	}
	args := make([]*Template, len(raw))
	for i, a := range raw {
		t, err := tp.compileArg(a)
		if err != nil {
			return nil, fmt.Errorf("%s argument %d: %w", name, i+1, err)
		}
		args[i] = t
	}
	return def.build(tp, args)
}

// compileArg compiles a function argument: unlike a field value it always
// goes through the parser, so "\," becomes ",".
func (tp *templater) compileArg(s string) (*Template, error) {
	if !strings.Contains(s, "\\") {
		return tp.compile(s)
	}
	parts, err := tp.parse(s)
	if err != nil {
		return nil, err
	}
	if len(parts) == 0 {
		return element.Text(""), nil
	}
	if len(parts) == 1 && parts[0].Kind == LitPart {
		return element.Text(parts[0].Lit), nil
	}
	return element.NewTemplate(s, parts), nil
}

// funcDef describes a function: its arity and how to compile a call.
type funcDef struct {
	min, max int // max < 0: no limit
	build    func(tp *templater, args []*Template) (Function, error)
}

func (d funcDef) arity() string {
	switch {
	case d.min == d.max:
		return fmt.Sprintf("%d arguments", d.min)
	case d.max < 0:
		return fmt.Sprintf("at least %d arguments", d.min)
	}
	return fmt.Sprintf("%d to %d arguments", d.min, d.max)
}
