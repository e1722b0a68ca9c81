package thread

import (
	"fmt"
	"strings"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/function"
	"github.com/gojm/gojm/jmx"
)

// ifCtl is JMeter's If Controller. With "Interpret condition as variable
// expression" (useExpression) the condition's value must be "true", any
// case; without it the value is JavaScript that must give true or false.
// The JavaScript conditions plans are made of (comparisons, && || !, string
// equality, last_sample_ok) are translated into expr programs (function.Condition);
// any other goes to the JavaScript engine of __javaScript (goja). The
// condition is evaluated at the start of each pass, or before every child
// with "Evaluate for all children".
type ifCtl struct {
	Generic
	c *ifCond
}

type ifCond struct {
	cond    *element.Template
	useExpr bool
	evalAll bool
	js      *function.Condition // the JavaScript condition, without useExpression
	path    string
}

func BuildIf(c element.Builder, e *jmx.Element, d *ControllerDef) error {
	ic := &ifCond{
		cond:    c.Prop(e, "IfController.condition"),
		useExpr: e.Bool("IfController.useExpression", false),
		evalAll: e.Bool("IfController.evaluateAll", false),
		path:    e.Path(),
	}
	if !ic.useExpr {
		var err error
		if ic.js, err = function.NewCondition(c, e, ic.cond); err != nil {
			return fmt.Errorf("the condition is JavaScript (\"Interpret Condition as Variable Expression?\" is off) that does not compile: %w", err)
		}
	}
	d.Make = func(*Thread) Controller { return &ifCtl{c: ic} }
	return nil
}

func (f *ifCtl) evaluate(vu *element.VU) bool {
	s := strings.TrimSpace(f.c.cond.Eval(vu))
	if f.c.useExpr {
		return strings.EqualFold(s, "true")
	}
	ok, err := f.c.js.Eval(vu, s)
	if err != nil {
		// JMeter logs the script error and takes the condition as false.
		vu.Log.Error(fmt.Sprintf("%s: error while processing [%s]: %v", f.c.path, s, err), "thread", vu.Name)
		return false
	}
	return ok
}

func (f *ifCtl) IsDone(*element.VU) bool { return false }

func (f *ifCtl) Next(vu *element.VU) Item {
	result := true
	if f.c.evalAll || f.first {
		result = f.evaluate(vu)
	}
	if result {
		return f.Generic.Next(vu)
	}
	f.initializeSubControllers(vu)
	return f.self.NextIsNull(vu)
}

func (f *ifCtl) TriggerEndOfLoop(vu *element.VU) {
	f.initializeSubControllers(vu)
	f.Generic.TriggerEndOfLoop(vu)
}
