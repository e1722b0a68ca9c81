package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// InfluxDBClient is the Backend Listener client class gojm runs: JMeter's
// InfluxDB client (line protocol over HTTP).
const InfluxDBClient = "org.apache.jmeter.visualizers.backend.influxdb.InfluxdbBackendListenerClient"

// backendListener registers a Backend Listener (JMeter's BackendListener
// element): a listener in scope like a Result Collector, whose samples go
// to a metrics client named by its classname. Only the InfluxDB client is
// run; any other client (Graphite, Elasticsearch, a plugin's) is refused by
// name, and skipped with --skip-unsupported.
func backendListener(c *compiler, e *jmx.Element, depth int) bool {
	class := strings.TrimSpace(e.Str("classname"))
	if class != InfluxDBClient {
		c.refuseWith(e, depth, fmt.Sprintf("Backend Listener client %q is not supported by gojm: it runs only %s", class, InfluxDBClient))
		return false
	}
	l := Listener{Kind: BackendListener, Name: e.Name, Path: e.Path(), GUIClass: e.GUIClass, Classname: class}
	vu := c.staticVU()
	for _, a := range e.Prop("arguments").Prop("Arguments.arguments").Members() {
		name := strings.TrimSpace(a.Str("Argument.name"))
		if name == "" {
			continue
		}
		t := c.Template(e, "argument "+name, a.Str("Argument.value"))
		l.Params = append(l.Params, Param{Name: name, Value: t.Eval(vu)})
	}
	if s := strings.TrimSpace(l.Param("influxdbMetricsSender", "")); s != "" && !strings.HasSuffix(s, ".HttpMetricsSender") {
		c.refuseWith(e, depth, fmt.Sprintf("InfluxDB metrics sender %q is not supported by gojm: it sends over HTTP only (HttpMetricsSender)", s))
		return false
	}
	return c.addListener(e, depth, l)
}

// refuseWith records an element gojm cannot run, with the reason: an error
// unless the plan runs with --skip-unsupported.
func (c *compiler) refuseWith(e *jmx.Element, depth int, reason string) {
	if c.skip {
		c.recordTree(e, depth, Refused, reason+" (skipped)")
		return
	}
	c.recordTree(e, depth, Refused, reason)
	c.errs = append(c.errs, &jmx.Error{File: e.File, Path: e.Path(), Err: fmt.Errorf("%w: %s; disable or remove the element, or run with --skip-unsupported to run the plan without it", ErrUnsupported, reason)})
}

// staticVU is a virtual user for evaluating fields once, when the plan is
// compiled: it sees the properties and the plan's user-defined variables
// compiled so far, as JMeter's test-start replacement does.
func (c *compiler) staticVU() *element.VU {
	vu := element.NewVU(c.compiled.Plan, element.NewGroup(c.compiled.Plan), nil, 0, "", context.Background(), context.Background())
	setUserVariables(vu, c.compiled.udv)
	return vu
}
