package scripting

import (
	"errors"
	"fmt"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/function"
	"github.com/gojm/gojm/engine/script"
)

// ${__groovy(expression,var)} and ${__BeanShell(expression,var)}: the
// expression's value (its toString), "" when it is null or fails. The
// bindings are JMeter's: vars, props, ctx, log, sampler, prev, OUT,
// threadName.

func Groovy(tp *function.Compiler, args []*element.Template) (element.Function, error) {
	return scriptFunction(tp, args, script.Groovy, "__groovy")
}

func BeanShell(tp *function.Compiler, args []*element.Template) (element.Function, error) {
	return scriptFunction(tp, args, script.BeanShell, "__BeanShell")
}

func scriptFunction(tp *function.Compiler, args []*element.Template, d script.Dialect, name string) (element.Function, error) {
	if tp.Runtime() {
		return nil, fmt.Errorf("%s cannot be built while the plan runs", name)
	}
	sp := scriptsOf(tp.Plan())
	if sp.noScripts {
		return nil, fmt.Errorf("%w: %s: scripts are turned off (--no-scripts)", element.ErrUnsupported, name)
	}
	src, v := args[0], function.Arg(args, 1)
	var prog *script.Program
	fresh := sp.freshPrograms(d)
	if src.Const() {
		p, err := script.Compile(src.Raw(), d)
		if err != nil {
			var se *script.Error
			if errors.As(err, &se) && se.Refused {
				return nil, fmt.Errorf("%w: %s: cannot translate its script, %v", element.ErrUnsupported, name, err)
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		prog = p
		sp.lits.Hold(p)
	}
	return function.StoreAs(v, func(vu *element.VU) string {
		p := prog
		if p == nil {
			text := src.Eval(vu)
			var err error
			if p, err = fresh.Get(text); err != nil {
				vu.Warnf("%s: %v", name, err)
				return ""
			}
		}
		st := sp.state(vu)
		defer st.done()
		env := st.newEnv(sp, name, "")
		env.Globals = append(env.Globals, script.Global{Name: "threadName", Value: vu.Name})
		if prev := previous(vu); prev != nil {
			st.scriptResult(&st.prev, vu, prev)
			env.Prev = &st.prev
		}
		val, err := p.Run(env)
		st.globals = env.Globals[:0]
		if err != nil {
			vu.Warnf("%s: %v", name, err)
			return ""
		}
		if val.Null {
			return ""
		}
		return val.Text
	}), nil
}
