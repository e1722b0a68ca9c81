package engine

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gojm/gojm/internal/files"
	"github.com/gojm/gojm/jmx"
)

// Listener is a result listener of the plan.
type Listener struct {
	Index int
	// Kind tells a Result Collector from a Backend Listener.
	Kind     ListenerKind
	Name     string
	Path     string
	GUIClass string // e.g. "GraphVisualizer" for Graph Results
	Filename string // results file; "" when the listener only draws
	// Save holds the fields of the listener's saveConfig (which columns its
	// file has: "time", "latency", "xml"…), as the plan wrote them.
	Save map[string]string
	// Classname is a Backend Listener's client class, e.g.
	// org.apache.jmeter.visualizers.backend.influxdb.InfluxdbBackendListenerClient.
	Classname string
	// Params are a Backend Listener's arguments in plan order, their ${}
	// evaluated once when the plan is compiled (as JMeter does at test start).
	Params []Param
}

// ListenerKind is the kind of a plan listener.
type ListenerKind uint8

const (
	// ResultCollector writes a results file or draws Graph Results.
	ResultCollector ListenerKind = iota
	// BackendListener streams metrics through a backend client (Classname).
	BackendListener
)

// Param is one name=value argument of an element.
type Param struct {
	Name, Value string
}

// Param returns the value of the listener's parameter name, or def when
// the plan does not set it.
func (l Listener) Param(name, def string) string {
	for _, p := range l.Params {
		if p.Name == name {
			return p.Value
		}
	}
	return def
}

// GraphResults reports whether the listener is JMeter's Graph Results.
func (l Listener) GraphResults() bool { return l.GUIClass == "GraphVisualizer" }

// resultCollector registers a Result Collector that produces output and
// says whether it does; one that only draws in the GUI is ignored.
func resultCollector(c *compiler, e *jmx.Element, depth int) bool {
	// The file name may use properties and user-defined variables
	// (${__P(CSVFILE)}): JMeter resolves it when the test starts.
	name, static := c.Static(c.Prop(e, "filename"))
	if !static {
		c.Fail(e, fmt.Errorf("the results file name %q refers to variables that are only known during the run", e.Str("filename")))
		return false
	}
	l := Listener{Name: e.Name, Path: e.Path(), GUIClass: e.GUIClass, Filename: strings.TrimSpace(name)}
	if sc := e.Prop("saveConfig"); sc != nil {
		l.Save = map[string]string{}
		for _, f := range sc.Members() {
			l.Save[f.Name] = f.Value
		}
	}
	if l.Filename == "" && !l.GraphResults() {
		c.recordAt(e, depth, Ignored, guiOnly+" (no file name)")
		return false
	}
	return c.addListener(e, depth, l)
}

// addListener gives a listener with output its routing bit.
func (c *compiler) addListener(e *jmx.Element, depth int, l Listener) bool {
	if len(c.compiled.Listeners) == 63 {
		c.Fail(e, errors.New("more than 63 result listeners with output"))
		return false
	}
	l.Index = len(c.compiled.Listeners)
	c.listener[e] = l.Index
	c.compiled.Listeners = append(c.compiled.Listeners, l)
	c.recordAt(e, depth, Runs, "")
	return true
}

// InfluxDBClient is the Backend Listener client class gojm runs: JMeter's
// InfluxDB client (line protocol over HTTP).
const InfluxDBClient = "org.apache.jmeter.visualizers.backend.influxdb.InfluxdbBackendListenerClient"

// backendListener registers a Backend Listener (JMeter's BackendListener
// element): a listener in scope like a Result Collector, whose samples go
// to a metrics client named by its classname. Only the InfluxDB client is
// run; any other client (Graphite, Elasticsearch, a plugin's) only reports,
// so the plan runs without it, with a warning.
func backendListener(c *compiler, e *jmx.Element, depth int) bool {
	class := strings.TrimSpace(e.Str("classname"))
	if class != InfluxDBClient {
		c.reportOnly(e, depth, fmt.Sprintf("Backend Listener client %q: gojm runs only %s; the plan runs without this listener, which changes nothing sent or measured", class, InfluxDBClient))
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
		c.reportOnly(e, depth, fmt.Sprintf("InfluxDB metrics sender %q: gojm sends over HTTP only (HttpMetricsSender); the plan runs without this listener, which changes nothing sent or measured", s))
		return false
	}
	return c.addListener(e, depth, l)
}

// reportOnly records an element that only reports and that gojm does not
// run (a Backend Listener client it lacks, a plugin's listener): the plan
// runs without it, as nothing sent or measured changes, with a warning,
// since its output will be missing.
func (c *compiler) reportOnly(e *jmx.Element, depth int, note string) {
	c.recordTree(e, depth, Ignored, note)
	c.Warn(e, note)
}

// checkListenerFiles decides, before the run, about each results file the
// plan may not write. One outside the folders its file policy allows is
// not written, with a warning naming the flag that allows it: the listener
// only reports, and JMeter too runs the plan without a results file it
// cannot open (a folder of the author's machine). Nor is the plan itself or
// a file the plan reads, with a warning: JMeter would write into it (a
// results file and a CSV Data Set both named by an unset ${__P(x)}, "1"),
// gojm never does, and the plan runs without the listener. /proc, /sys or
// a device are refused. It runs once the whole plan has compiled, when
// every file the plan reads is known.
func (c *compiler) checkListenerFiles() {
	byIndex := make([]*jmx.Element, len(c.compiled.Listeners))
	for e, i := range c.listener {
		byIndex[i] = e
	}
	for i, l := range c.compiled.Listeners {
		if l.Filename == "" || byIndex[i] == nil {
			continue
		}
		err := c.compiled.Files.CheckWrite(l.Filename)
		var denied *files.DeniedError
		switch {
		case err == nil:
		case errors.As(err, &denied) && (denied.Flag != "" || denied.Input):
			c.Warn(byIndex[i], fmt.Sprintf("the results file is not written: %v; the plan runs without it, which changes nothing sent or measured", err))
			c.compiled.Listeners[i].Filename = ""
		default:
			c.Fail(byIndex[i], fmt.Errorf("the results file: %w", err))
		}
	}
}
