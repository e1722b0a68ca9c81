package engine

import (
	"fmt"
	"strings"

	"github.com/gojm/gojm/jmx"
)

// ifCtl is JMeter's If Controller. With "Interpret condition as variable
// expression" (useExpression) the condition's value must be "true", any
// case; without it the value is JavaScript, which gojm evaluates for the
// subset plans use (jscond.go). The condition is evaluated at the start of
// each pass, or before every child with "Evaluate for all children".
type ifCtl struct {
	gen
	c *ifCond
}

type ifCond struct {
	cond    *Template
	useExpr bool
	evalAll bool
	js      *jsCondition
	path    string
}

func buildIf(c *compiler, e *jmx.Element, d *ctlDef) error {
	ic := &ifCond{
		cond:    c.prop(e, "IfController.condition"),
		useExpr: e.Bool("IfController.useExpression", false),
		evalAll: e.Bool("IfController.evaluateAll", false),
		path:    e.Path(),
	}
	if !ic.useExpr {
		js, err := compileJSCondition(ic.cond)
		if err != nil {
			return fmt.Errorf("the condition is JavaScript (\"Interpret Condition as Variable Expression?\" is off) and gojm cannot evaluate it: %w; tick the option and write the condition with ${__jexl3(…)}", err)
		}
		ic.js = js
	}
	d.make = func(*VU) ctlHooks { return &ifCtl{c: ic} }
	return nil
}

func (f *ifCtl) evaluate(vu *VU) bool {
	s := strings.TrimSpace(f.c.cond.Eval(vu))
	if f.c.useExpr {
		return strings.EqualFold(s, "true")
	}
	ok, err := f.c.js.eval(s)
	if err != nil {
		// JMeter logs the script error and takes the condition as false.
		vu.log.Error(fmt.Sprintf("%s: error while processing [%s]: %v", f.c.path, s, err), "thread", vu.Name)
		return false
	}
	return ok
}

func (f *ifCtl) isDone(*VU) bool { return false }

func (f *ifCtl) next(vu *VU) samplerItem {
	result := true
	if f.c.evalAll || f.first {
		result = f.evaluate(vu)
	}
	if result {
		return f.gen.next(vu)
	}
	f.initializeSubControllers(vu)
	return f.self.nextIsNull(vu)
}

func (f *ifCtl) triggerEndOfLoop(vu *VU) {
	f.initializeSubControllers(vu)
	f.gen.triggerEndOfLoop(vu)
}
