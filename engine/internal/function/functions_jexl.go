package function

//lint:file-ignore ST1005 some error texts here are JMeter's (or Java's) own, word for word: they end up in results files, where plans and JMeter's users compare them

import (
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm"
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/internal/cache"
	"github.com/gojm/gojm/internal/java"
)

// __jexl2 and __jexl3 run JEXL expressions through expr. The JEXL text is
// first translated (word operators, null, =~ and friends), then the parsed
// expression is patched so that operators follow JEXL's arithmetic (string
// concatenation with +, integer division, "5" == 5) and method calls reach
// the Java-like objects JMeter's JEXL context holds: vars, props, ctx,
// sampler, log, OUT, threadName, and String/List methods.

// jexlPrograms holds compiled expressions by source text, shared by every
// __jexl call of every plan.
var jexlPrograms = cache.NewFunc(8192, compileJexl)

var jexlOptions = []expr.Option{
	expr.Env(map[string]any{}),
	expr.AllowUndefinedVariables(),
	expr.Patch(jexlPatcher{}),
	expr.Function("__call", jexlCall),
	expr.Function("__op", jexlOp),
	expr.Function("__bool", func(a ...any) (any, error) { return jexlTruth(a[0]), nil }),
	expr.Function("__match", jexlMatch),
	expr.Function("__empty", func(a ...any) (any, error) { return jexlEmpty(a[0]), nil }),
	expr.Function("__size", func(a ...any) (any, error) { return jexlSize(a[0]), nil }),
}

// compileJexl translates and compiles one JEXL expression.
func compileJexl(src string) (*vm.Program, error) {
	p, err := expr.Compile(translateJexl(src), jexlOptions...)
	if err != nil {
		return nil, fmt.Errorf("JEXL expression %q: %w", src, err)
	}
	return p, nil
}

// jexlWords are JEXL's word operators and literals, in expr's spelling.
var jexlWords = map[string]string{
	"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=",
	"div": "/", "mod": "%", "null": "nil", "and": "&&", "or": "||", "not": "!",
	"empty": "__empty", "size": "__size",
}

// jexlSymbols are JEXL's match operators, in expr's spelling.
var jexlSymbols = []struct{ jexl, expr string }{
	{"=~", " matches "}, {"!~", " not matches "},
	{"=^", " startsWith "}, {"!^", " not startsWith "},
	{"=$", " endsWith "}, {"!$", " not endsWith "},
	{"?:", " ?? "},
}

// translateJexl rewrites JEXL operators that expr spells differently,
// leaving string literals alone.
func translateJexl(src string) string {
	var b strings.Builder
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(src) && src[j] != c {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j < len(src) {
				j++
			}
			b.WriteString(src[i:min(j, len(src))])
			i = j
			continue
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(src) && (src[j] == '_' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= '0' && src[j] <= '9') {
				j++
			}
			w := src[i:j]
			member := i > 0 && src[i-1] == '.'
			if r, ok := jexlWords[w]; ok && !member {
				if (w == "empty" || w == "size") && !strings.HasPrefix(strings.TrimLeft(src[j:], " "), "(") {
					r = w // a variable called size
				}
				b.WriteString(r)
			} else {
				b.WriteString(w)
			}
			i = j
			continue
		}
		matched := false
		for _, s := range jexlSymbols {
			if strings.HasPrefix(src[i:], s.jexl) {
				b.WriteString(s.expr)
				i += len(s.jexl)
				matched = true
				break
			}
		}
		if !matched {
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// jexlPatcher rewrites the parsed expression to JEXL's semantics.
type jexlPatcher struct{}

func call(name string, args ...ast.Node) *ast.CallNode {
	return &ast.CallNode{Callee: &ast.IdentifierNode{Value: name}, Arguments: args}
}

func (jexlPatcher) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.CallNode:
		m, ok := n.Callee.(*ast.MemberNode)
		if !ok {
			return
		}
		name, ok := m.Property.(*ast.StringNode)
		if !ok {
			return
		}
		args := append([]ast.Node{m.Node, &ast.StringNode{Value: name.Value}}, n.Arguments...)
		ast.Patch(node, call("__call", args...))
	case *ast.BinaryNode:
		switch n.Operator {
		case "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%":
			ast.Patch(node, call("__op", &ast.StringNode{Value: n.Operator}, n.Left, n.Right))
		case "matches":
			ast.Patch(node, call("__match", n.Left, n.Right))
		case "&&", "||", "and", "or":
			n.Left = call("__bool", n.Left)
			n.Right = call("__bool", n.Right)
		}
	case *ast.UnaryNode:
		if n.Operator == "!" || n.Operator == "not" {
			n.Node = call("__bool", n.Node)
		}
	case *ast.ConditionalNode:
		n.Cond = call("__bool", n.Cond)
	}
}

// jexlEnv is a virtual user's JEXL context and expression machine.
type JEXLEnv struct {
	env map[string]any
	vm  vm.VM
}

// jexlUsers holds each virtual user's JEXL context, one per plan for
// __jexl3 and JSR223 JEXL scripts alike.
var jexlUsers = element.NewKey[*element.Local[JEXLEnv]]("JEXL contexts")

func JEXLContexts(p *element.Plan) *element.Local[JEXLEnv] {
	return element.Once(p, jexlUsers, func() *element.Local[JEXLEnv] {
		return element.NewLocal(p, func(vu *element.VU) *JEXLEnv {
			vars := &jexlVars{vu}
			return &JEXLEnv{env: map[string]any{
				"vars":       vars,
				"props":      jexlProps{vu},
				"ctx":        &jexlCtx{vu: vu, vars: vars},
				"sampler":    &jexlSampler{vu},
				"log":        &jexlLog{vu},
				"OUT":        jexlOut{},
				"threadName": vu.Name,
			}}
		})
	})
}

// ${__jexl3(expression,var)} and ${__jexl2(…)}: the expression's value;
// "" when it fails, as JMeter's silent JEXL engine gives.
func fnJexl(tp *Compiler, args []*element.Template) (element.Function, error) {
	if tp.runtime {
		return nil, errors.New("__jexl3 cannot be built while the plan runs")
	}
	src, v := args[0], Arg(args, 1)
	users := JEXLContexts(tp.plan)
	if src.Const() {
		p, err := jlexCompileConst(src.Raw())
		if err != nil {
			return nil, err
		}
		return StoreAs(v, func(vu *element.VU) string { return runJexl(users.Get(vu), vu, p, src.Raw()) }), nil
	}
	return StoreAs(v, func(vu *element.VU) string {
		s := src.Eval(vu)
		p, err := jexlPrograms.Get(s)
		if err != nil {
			vu.Warnf("__jexl3: %v", err)
			return ""
		}
		return runJexl(users.Get(vu), vu, p, s)
	}), nil
}

func jlexCompileConst(src string) (*vm.Program, error) {
	p, err := jexlPrograms.Get(src)
	if err != nil {
		return nil, fmt.Errorf("%w (gojm runs JEXL through expr and cannot read this one)", err)
	}
	return p, nil
}

// run runs a JEXL program in the user's context.
func (j *JEXLEnv) Run(p *vm.Program) (any, error) { return j.vm.Run(p, j.env) }

// jexlProgram compiles a JEXL expression once.
func JEXLProgram(src string) (*vm.Program, error) { return jexlPrograms.Get(src) }

func runJexl(j *JEXLEnv, vu *element.VU, p *vm.Program, src string) string {
	out, err := j.Run(p)
	if err != nil {
		vu.Warnf("__jexl3(%s): %v", src, err)
		return ""
	}
	return JEXLText(out)
}

// jexlText formats a value as Java's toString would.
func JEXLText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return java.DoubleString(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = JEXLText(e)
			if e == nil {
				parts[i] = "null"
			}
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *jexlVars:
		return "org.apache.jmeter.threads.JMeterVariables"
	}
	return fmt.Sprint(v)
}

// jexlTruth is JEXL's truthiness of a value used as a condition.
func jexlTruth(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != "" && x != "false"
	case int:
		return x != 0
	case int64:
		return x != 0
	case float64:
		return x != 0
	}
	return true
}

func jexlEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}

func jexlSize(v any) any {
	switch x := v.(type) {
	case string:
		return int64(len([]rune(x)))
	case []any:
		return int64(len(x))
	case map[string]any:
		return int64(len(x))
	}
	return int64(0)
}

// jexlNumber reads a value as a JEXL number: integers stay integers.
func jexlNumber(v any) (i int64, f float64, isFloat bool, ok bool) {
	switch x := v.(type) {
	case int:
		return int64(x), float64(x), false, true
	case int64:
		return x, float64(x), false, true
	case float64:
		return int64(x), x, true, true
	case bool:
		if x {
			return 1, 1, false, true
		}
		return 0, 0, false, true
	case nil:
		return 0, 0, false, true
	case string:
		s := strings.TrimSpace(x)
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n, float64(n), false, true
		}
		if g, err := strconv.ParseFloat(s, 64); err == nil {
			return int64(g), g, true, true
		}
	}
	return 0, 0, false, false
}

var errJexlArith = errors.New("arithmetic on values that are not numbers")

// jexlOp applies a binary operator with JEXL's (strict) arithmetic.
func jexlOp(a ...any) (any, error) {
	op, l, r := a[0].(string), a[1], a[2]
	_, ls := l.(string)
	_, rs := r.(string)
	switch op {
	case "+":
		if ls || rs {
			return jexlTextOrNull(l) + jexlTextOrNull(r), nil
		}
	case "==", "!=":
		eq := jexlEquals(l, r)
		if op == "!=" {
			eq = !eq
		}
		return eq, nil
	case "<", "<=", ">", ">=":
		c, err := jexlCompare(l, r)
		if err != nil {
			return nil, err
		}
		switch op {
		case "<":
			return c < 0, nil
		case "<=":
			return c <= 0, nil
		case ">":
			return c > 0, nil
		}
		return c >= 0, nil
	}
	li, lf, lfl, lok := jexlNumber(l)
	ri, rf, rfl, rok := jexlNumber(r)
	if !lok || !rok {
		return nil, errJexlArith
	}
	if lfl || rfl {
		switch op {
		case "+":
			return lf + rf, nil
		case "-":
			return lf - rf, nil
		case "*":
			return lf * rf, nil
		case "/":
			if rf == 0 {
				return nil, errors.New("division by zero")
			}
			return lf / rf, nil
		case "%":
			return math.Mod(lf, rf), nil
		}
	}
	switch op {
	case "+":
		return li + ri, nil
	case "-":
		return li - ri, nil
	case "*":
		return li * ri, nil
	case "/":
		if ri == 0 {
			return nil, errors.New("division by zero")
		}
		return li / ri, nil
	case "%":
		if ri == 0 {
			return nil, errors.New("division by zero")
		}
		return li % ri, nil
	}
	return nil, fmt.Errorf("unknown operator %s", op)
}

func jexlTextOrNull(v any) string {
	if v == nil {
		return "null"
	}
	return JEXLText(v)
}

func jexlEquals(l, r any) bool {
	if l == nil || r == nil {
		return l == nil && r == nil
	}
	ls, lstr := l.(string)
	rs, rstr := r.(string)
	if lstr && rstr {
		return ls == rs
	}
	if lb, ok := l.(bool); ok {
		return JEXLText(r) == strconv.FormatBool(lb)
	}
	if rb, ok := r.(bool); ok {
		return JEXLText(l) == strconv.FormatBool(rb)
	}
	_, lf, _, lok := jexlNumber(l)
	_, rf, _, rok := jexlNumber(r)
	if lok && rok {
		return lf == rf
	}
	return JEXLText(l) == JEXLText(r)
}

func jexlCompare(l, r any) (int, error) {
	ls, lstr := l.(string)
	rs, rstr := r.(string)
	if lstr && rstr {
		return strings.Compare(ls, rs), nil
	}
	_, lf, _, lok := jexlNumber(l)
	_, rf, _, rok := jexlNumber(r)
	if !lok || !rok {
		if lstr || rstr {
			return strings.Compare(JEXLText(l), JEXLText(r)), nil
		}
		return 0, errJexlArith
	}
	switch {
	case lf < rf:
		return -1, nil
	case lf > rf:
		return 1, nil
	}
	return 0, nil
}

// jexlRegexps holds the patterns of =~ and String.matches by text, in
// Java's syntax.
var jexlRegexps = cache.NewFunc(1024, func(p string) (*regexp.Regexp, error) { return java.CompileRegexp(p, false) })

func javaRegexp(p string) (*regexp.Regexp, error) { return jexlRegexps.Get(p) }

// jexlMatch is JEXL's =~: a full regular-expression match with a string
// on the right, membership with a list.
func jexlMatch(a ...any) (any, error) {
	l, r := a[0], a[1]
	if list, ok := r.([]any); ok {
		for _, e := range list {
			if jexlEquals(l, e) {
				return true, nil
			}
		}
		return false, nil
	}
	re, err := javaRegexp("^(?:" + JEXLText(r) + ")$")
	if err != nil {
		return nil, err
	}
	return re.MatchString(JEXLText(l)), nil
}

// The objects of JMeter's JEXL context.
type (
	jexlVars  struct{ vu *element.VU }
	jexlProps struct{ vu *element.VU }
	jexlCtx   struct {
		vu   *element.VU
		vars *jexlVars
	}
	jexlSampler struct{ vu *element.VU }
	jexlLog     struct{ vu *element.VU }
	jexlOut     struct{}
	jexlGroup   struct{ vu *element.VU }
)

func argString(args []any, i int) string {
	if i < len(args) {
		return JEXLText(args[i])
	}
	return ""
}

// jexlCall calls a Java method on a value: __call(receiver, name, args…).
func jexlCall(a ...any) (any, error) {
	recv, name, args := a[0], a[1].(string), a[2:]
	s0 := argString(args, 0)
	switch x := recv.(type) {
	case *jexlVars:
		vu := x.vu
		switch name {
		case "get", "getObject":
			if v, ok := vu.Vars.Get(s0); ok {
				return v, nil
			}
			return nil, nil
		case "put", "putObject":
			vu.Vars.Put(s0, argString(args, 1))
			return nil, nil
		case "remove":
			old, _ := vu.Vars.Get(s0)
			vu.Vars.Remove(s0)
			return old, nil
		case "getIteration":
			return int64(vu.Iteration), nil
		case "incIteration":
			vu.Iteration++
			return nil, nil
		}
	case jexlProps:
		switch name {
		case "get", "getProperty":
			if v, ok := x.vu.Plan.Props.Get(s0); ok {
				return v, nil
			}
			if len(args) > 1 {
				return args[1], nil
			}
			return nil, nil
		case "put", "setProperty":
			old, _ := x.vu.Plan.Props.Get(s0)
			x.vu.Plan.Props.Set(s0, argString(args, 1))
			return old, nil
		case "containsKey":
			_, ok := x.vu.Plan.Props.Get(s0)
			return ok, nil
		}
	case *jexlCtx:
		switch name {
		case "getThreadNum":
			return int64(x.vu.Num - 1), nil
		case "getVariables":
			return x.vars, nil
		case "getProperties":
			return jexlProps{x.vu}, nil
		case "getCurrentSampler":
			return &jexlSampler{x.vu}, nil
		case "getThreadGroup":
			return jexlGroup{x.vu}, nil
		case "isSamplingStarted":
			return true, nil
		}
	case jexlGroup:
		switch name {
		case "getName":
			return x.vu.Group.Name, nil
		case "getNumThreads", "getNumberOfThreads":
			return x.vu.Group.Active.Load(), nil
		}
	case *jexlSampler:
		switch name {
		case "getName":
			return x.vu.SamplerName, nil
		}
	case *jexlLog:
		msg := s0
		switch name {
		case "info":
			x.vu.Log.Info(msg, "thread", x.vu.Name)
		case "warn":
			x.vu.Log.Warn(msg, "thread", x.vu.Name)
		case "error":
			x.vu.Log.Error(msg, "thread", x.vu.Name)
		case "debug":
			x.vu.Log.Debug(msg, "thread", x.vu.Name)
		default:
			return nil, fmt.Errorf("log has no method %s", name)
		}
		return nil, nil
	case jexlOut:
		switch name {
		case "println":
			fmt.Fprintln(os.Stdout, s0)
			return nil, nil
		case "print":
			fmt.Fprint(os.Stdout, s0)
			return nil, nil
		}
	case string:
		return stringMethod(x, name, args)
	case []any:
		switch name {
		case "size":
			return int64(len(x)), nil
		case "isEmpty":
			return len(x) == 0, nil
		case "get":
			i, _, _, ok := jexlNumber(args[0])
			if !ok || i < 0 || int(i) >= len(x) {
				return nil, fmt.Errorf("index %v out of bounds", args[0])
			}
			return x[i], nil
		case "contains":
			for _, e := range x {
				if jexlEquals(e, args[0]) {
					return true, nil
				}
			}
			return false, nil
		}
	case int, int64, float64, bool:
		switch name {
		case "toString":
			return JEXLText(x), nil
		case "intValue", "longValue":
			i, _, _, _ := jexlNumber(x)
			return i, nil
		case "doubleValue":
			_, f, _, _ := jexlNumber(x)
			return f, nil
		case "equals":
			return jexlEquals(x, args[0]), nil
		}
	case nil:
		return nil, fmt.Errorf("cannot call %s on null", name)
	}
	return nil, fmt.Errorf("%T has no method %s", recv, name)
}

// stringMethod calls a java.lang.String method.
func stringMethod(s, name string, args []any) (any, error) {
	a0 := argString(args, 0)
	num := func(i int) (int, error) {
		if i >= len(args) {
			return 0, fmt.Errorf("%s needs %d arguments", name, i+1)
		}
		n, _, _, ok := jexlNumber(args[i])
		if !ok {
			return 0, fmt.Errorf("%s: %v is not a number", name, args[i])
		}
		return int(n), nil
	}
	switch name {
	case "length":
		return int64(len(java.UTF16Units(s))), nil
	case "isEmpty":
		return s == "", nil
	case "equals":
		if len(args) == 0 || args[0] == nil {
			return false, nil
		}
		_, isStr := args[0].(string)
		return isStr && a0 == s, nil
	case "equalsIgnoreCase":
		return strings.EqualFold(s, a0), nil
	case "contains":
		return strings.Contains(s, a0), nil
	case "startsWith":
		return strings.HasPrefix(s, a0), nil
	case "endsWith":
		return strings.HasSuffix(s, a0), nil
	case "toUpperCase":
		return strings.ToUpper(s), nil
	case "toLowerCase":
		return strings.ToLower(s), nil
	case "trim", "strip":
		return strings.TrimSpace(s), nil
	case "toString", "intern":
		return s, nil
	case "concat":
		return s + a0, nil
	case "indexOf", "lastIndexOf":
		i := strings.Index(s, a0)
		if name == "lastIndexOf" {
			i = strings.LastIndex(s, a0)
		}
		if i < 0 {
			return int64(-1), nil
		}
		return int64(len(java.UTF16Units(s[:i]))), nil
	case "substring":
		u := java.UTF16Units(s)
		from, err := num(0)
		if err != nil {
			return nil, err
		}
		to := len(u)
		if len(args) > 1 {
			if to, err = num(1); err != nil {
				return nil, err
			}
		}
		if from < 0 || to > len(u) || from > to {
			return nil, fmt.Errorf("substring(%d,%d) out of range for length %d", from, to, len(u))
		}
		return java.FromUTF16(u[from:to]), nil
	case "charAt":
		u := java.UTF16Units(s)
		i, err := num(0)
		if err != nil {
			return nil, err
		}
		if i < 0 || i >= len(u) {
			return nil, fmt.Errorf("charAt(%d) out of range", i)
		}
		return java.FromUTF16(u[i : i+1]), nil
	case "replace":
		return strings.ReplaceAll(s, a0, argString(args, 1)), nil
	case "replaceAll", "replaceFirst":
		re, err := javaRegexp(a0)
		if err != nil {
			return nil, err
		}
		repl, err := java.Replacement(argString(args, 1))
		if err != nil {
			return nil, err
		}
		if name == "replaceFirst" {
			done := false
			return re.ReplaceAllStringFunc(s, func(m string) string {
				if done {
					return m
				}
				done = true
				return re.ReplaceAllString(m, repl)
			}), nil
		}
		return re.ReplaceAllString(s, repl), nil
	case "matches":
		re, err := javaRegexp("^(?:" + a0 + ")$")
		if err != nil {
			return nil, err
		}
		return re.MatchString(s), nil
	case "split":
		re, err := javaRegexp(a0)
		if err != nil {
			return nil, err
		}
		parts := re.Split(s, -1)
		for len(parts) > 0 && parts[len(parts)-1] == "" { // Java drops trailing empty strings
			parts = parts[:len(parts)-1]
		}
		out := make([]any, len(parts))
		for i, p := range parts {
			out[i] = p
		}
		return out, nil
	case "compareTo":
		return int64(strings.Compare(s, a0)), nil
	case "hashCode":
		var h int32
		for _, u := range java.UTF16Units(s) {
			h = 31*h + int32(u)
		}
		return int64(h), nil
	}
	return nil, fmt.Errorf("String has no method %s", name)
}
