package script

import (
	"fmt"
	"strings"
)

func (t *translator) newExpr(e *newExpr) (string, string) {
	if e.isArray {
		elem := *e.typ
		elem.dims = 0
		_, cast := t.typeOf(&elem)
		if cast == "" {
			cast = "Object"
		}
		if e.init != nil {
			return t.arrayInit(cast, &listExpr{at: e.at, elems: e.init}), "Array"
		}
		return fmt.Sprintf("$.newArray(%q, [%s])", cast, t.exprs(e.dimExpr)), "Array"
	}
	cls := t.class(e.typ.at, e.typ.name)
	n := len(e.args)
	if !t.cat.hasCtor(cls, n) && !isException(cls) {
		if _, any := t.cat.ctors[cls]; !any {
			t.refuse(e.at, "creating a %s (new %s)", e.typ.name, e.typ.name)
		}
		t.refuse(e.at, "new %s(…) with %d argument(s)", e.typ.name, n)
	}
	t.noteFile(cls, e.args)
	kind := t.cat.ctorKind(cls)
	if isException(cls) {
		return fmt.Sprintf("$.newEx(%q, [%s])", cls, t.exprs(e.args)), "Exception"
	}
	return fmt.Sprintf("$.nw(%q, [%s])", cls, t.exprs(e.args)), kind
}

// prop writes x.name.
func (t *translator) prop(e *propExpr) (string, string) {
	// Class.FIELD, a.b.Class.FIELD
	if cls, ok := t.classRef(e.x); ok {
		if t.cat.hasField(cls, e.name) {
			return t.record(e.at, fmt.Sprintf("$.sf(%q, %q)", cls, e.name)), t.cat.fieldKind(cls, e.name)
		}
		t.refuse(e.at, "the static field %s.%s", cls, e.name)
	}
	if full, ok := t.qualified(e); ok {
		if c, known := knownClasses[full]; known {
			t.refuse(e.at, "the class %s used as a value", c)
		}
	}
	x, kx := t.expr(e.x)
	fn := "$.p"
	switch {
	case e.safe:
		fn = "$.psafe"
	case e.spread:
		fn = "$.pspread"
	}
	kind := ""
	if kx != "" && !e.spread {
		kind = t.propKind(e.at, kx, e.name)
	}
	return t.record(e.at, fmt.Sprintf("%s(%s, %q)", fn, x, e.name)), kind
}

// propKind checks a property on a value of a known kind and gives its kind.
func (t *translator) propKind(at Pos, kind, name string) string {
	switch kind {
	case "Map", "List", "Set", "Range":
		if t.d == Groovy {
			return ""
		}
	case "Array":
		if name == "length" {
			return "Integer"
		}
		if t.d == Groovy {
			return ""
		}
	case "Vars", "Props", "Entry":
		if t.d == Groovy || kind == "Entry" {
			if kind == "Entry" && (name == "key" || name == "value") {
				return ""
			}
			return ""
		}
	case "Null", "BshNS":
		return ""
	}
	cap := strings.ToUpper(name[:1]) + name[1:]
	if ret, ok := t.cat.method(t.d, kind, "get"+cap, 0); ok {
		return ret
	}
	if ret, ok := t.cat.method(t.d, kind, "is"+cap, 0); ok {
		return ret
	}
	if kind == "Exception" && name == "message" {
		return "String"
	}
	t.refuse(at, "the property %s of %s", name, kindName(kind))
	return ""
}

// kindName names a kind in messages as Java does.
func kindName(k string) string {
	if n, ok := kindJavaNames[k]; ok {
		return n
	}
	return k
}

// classRef tells whether an expression names a known class (Math,
// java.util.UUID…) rather than a value.
func (t *translator) classRef(e expr) (string, bool) {
	switch x := e.(type) {
	case *identExpr:
		if _, isLocal := t.lookupLocal(x.name); isLocal {
			return "", false
		}
		if _, isBind := bindingKinds[x.name]; isBind {
			return "", false
		}
		if c, ok := t.lookupClass(x.name); ok {
			return c, true
		}
		if _, ok := t.unknown[x.name]; ok {
			t.class(x.at, x.name)
		}
		if isClassName(x.name) {
			t.class(x.at, x.name)
		}
	case *propExpr:
		if full, ok := t.qualified(x); ok {
			if c, known := knownClasses[full]; known {
				return c, true
			}
			if looksQualified(full) {
				t.refuse(x.at, "%s", classRefusal(full))
			}
		}
	}
	return "", false
}

// qualified reads a.b.c as a dotted name when it is made of names only
// and does not start with a variable.
func (t *translator) qualified(e expr) (string, bool) {
	switch x := e.(type) {
	case *identExpr:
		if _, isLocal := t.lookupLocal(x.name); isLocal {
			return "", false
		}
		if _, isBind := bindingKinds[x.name]; isBind {
			return "", false
		}
		return x.name, true
	case *propExpr:
		if x.safe || x.spread {
			return "", false
		}
		p, ok := t.qualified(x.x)
		if !ok {
			return "", false
		}
		return p + "." + x.name, true
	}
	return "", false
}

// looksQualified: a dotted name with a lower-case package and a
// capitalised class, as java.util.Foo.
func looksQualified(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) < 2 {
		return false
	}
	if parts[0] == "" || parts[0][0] < 'a' || parts[0][0] > 'z' {
		return false
	}
	for _, p := range parts[1:] {
		if p != "" && p[0] >= 'A' && p[0] <= 'Z' {
			return true
		}
	}
	return false
}

// call writes a method call.
func (t *translator) call(e *callExpr) (string, string) {
	args := e.args
	if e.name == "remove" && len(args) == 1 && e.recv != nil {
		// list.remove((Object) x): Java picks remove(Object) by the cast
		if c, ok := args[0].(*castExpr); ok && !c.as && !primitives[c.typ.name] {
			e = &callExpr{at: e.at, recv: e.recv, name: "removeElement", args: args, safe: e.safe, spread: e.spread}
			if t.d == BeanShell {
				e.name = "remove"
			}
		}
	}
	argJS := t.exprs(args)
	if len(e.named) > 0 {
		var kv []string
		for _, en := range e.named {
			kv = append(kv, t.exprJS(en.key), t.exprJS(en.val))
		}
		m := "$.map([" + strings.Join(kv, ", ") + "])"
		if argJS == "" {
			argJS = m
		} else {
			argJS = m + ", " + argJS
		}
		args = append([]expr{&mapExpr{at: e.at}}, args...)
	}
	n := len(args)
	if e.recv == nil {
		return t.plainCall(e, argJS, n)
	}
	// Class.method(…)
	if cls, ok := t.classRef(e.recv); ok {
		ret, ok := t.cat.static(t.d, cls, e.name, n)
		if !ok {
			t.refuse(e.at, "the method %s.%s() with %d argument(s)", cls, e.name, n)
		}
		return t.record(e.at, fmt.Sprintf("$.sm(%q, %q, [%s])", cls, e.name, argJS)), ret
	}
	if e.name == "getPreviousResult" {
		t.used["prev"] = true
	}
	recv, kind := t.expr(e.recv)
	fn := "$.m"
	switch {
	case e.safe:
		fn = "$.msafe"
	case e.spread:
		fn = "$.mspread"
		kind = ""
	}
	ret := ""
	if id, ok := e.recv.(*identExpr); ok && t.undefinedName(id.name) {
		// a name nothing defines: the call fails at run time, as in
		// Groovy (no such property) and BeanShell (undefined variable)
		return fmt.Sprintf("%s(%s, %q, [%s])", fn, recv, e.name, argJS), ""
	}
	if kind != "" && kind != "Null" && !e.spread {
		r, ok := t.cat.method(t.d, kind, e.name, n)
		switch {
		case !ok && lacksMethod(t.d, kind, e.name):
			// JMeter's class lacks the method: the call fails when it runs
			// ($.m throws JMeter's exception), as in JMeter
			t.warns = append(t.warns, fmt.Sprintf("line %d: %s has no method %s() with %d argument(s) in JMeter: the call fails when it runs, as there",
				e.at.Line, javaClassOf(kind), e.name, n))
		case !ok:
			t.refuse(e.at, "the method %s.%s() with %d argument(s)", kindName(kind), e.name, n)
		}
		ret = r
	} else if !t.cat.anyMethod(t.d, e.name, n) {
		t.refuse(e.at, "the method %s() with %d argument(s)", e.name, n)
	}
	return t.record(e.at, fmt.Sprintf("%s(%s, %q, [%s])", fn, recv, e.name, argJS)), ret
}

// undefinedName: a name that is no local, binding, method or class and
// that the script never assigns.
func (t *translator) undefinedName(name string) bool {
	if _, ok := t.lookupLocal(name); ok {
		return false
	}
	if _, ok := bindingKinds[name]; ok {
		return false
	}
	if _, ok := t.methods[name]; ok {
		return false
	}
	if _, ok := t.lookupClass(name); ok {
		return false
	}
	return !t.multi[name] && !isClassName(name)
}

// plainCall writes name(args): a script method, a closure variable, a
// static import or one of Groovy's and BeanShell's global functions.
func (t *translator) plainCall(e *callExpr, argJS string, n int) (string, string) {
	if m, ok := t.methods[e.name]; ok {
		min := 0
		for _, p := range m.params {
			if p.def == nil {
				min++
			}
		}
		if n < min || n > len(m.params) {
			t.refuse(e.at, "the method %s() called with %d argument(s)", e.name, n)
		}
		kind, _ := t.typeOf(m.ret)
		return t.record(e.at, fmt.Sprintf("m_%s(%s)", e.name, argJS)), kind
	}
	if l, ok := t.lookupLocal(e.name); ok {
		return t.record(e.at, fmt.Sprintf("$.call(%s, [%s])", l.js, argJS)), ""
	}
	if s, ok := t.statics[e.name]; ok {
		i := strings.LastIndexByte(s, '.')
		cls, member := s[:i], s[i+1:]
		ret, ok := t.cat.static(t.d, cls, member, n)
		if !ok {
			t.refuse(e.at, "the method %s.%s() with %d argument(s)", cls, member, n)
		}
		return t.record(e.at, fmt.Sprintf("$.sm(%q, %q, [%s])", cls, member, argJS)), ret
	}
	if t.d == Groovy {
		switch {
		case (e.name == "println" || e.name == "print") && n <= 1:
			return fmt.Sprintf("$.%s(%s)", e.name, argJS), "Null"
		case e.name == "printf" && n >= 1:
			return fmt.Sprintf("$.printf(%s)", argJS), "Null"
		case e.name == "sleep" && n == 1:
			return fmt.Sprintf("$.sleep(%s)", argJS), "Null"
		}
	} else {
		switch {
		case e.name == "print" && n == 1:
			return fmt.Sprintf("$.println(%s)", argJS), "Null"
		}
	}
	switch e.name {
	case "evaluate", "eval", "source", "exec", "run", "execute", "include", "importCommands", "load", "use":
		t.refuse(e.at, "the function %s() (running other scripts or programs)", e.name)
	}
	t.refuse(e.at, "the function %s() with %d argument(s)", e.name, n)
	return "", ""
}
