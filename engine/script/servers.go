package script

import "github.com/dop251/goja"

// Servers are the servers a script may start for the run: JMeter's HTTP
// Mirror Server (new HttpMirrorServer(port).start()), provided by the
// engine, which binds it to the loopback only and stops it when the run
// ends.
type Servers interface {
	// StartMirror starts a mirror server on port of the loopback.
	StartMirror(port int) error
	// StopMirror stops the mirror server on port, if one runs.
	StopMirror(port int)
}

func init() {
	knownClasses["org.apache.jmeter.protocol.http.control.HttpMirrorServer"] = "HttpMirrorServer"
	knownClasses["HttpMirrorServer"] = "HttpMirrorServer"
	typeKinds["HttpMirrorServer"] = [2]string{"HttpMirrorServer", "HttpMirrorServer"}
	fileClassKinds["HttpMirrorServer"] = "HttpMirrorServer"
}

func (r *runtime) serverHelpers(set func(string, func(goja.FunctionCall) goja.Value)) {
	set("mirrorStart", func(c goja.FunctionCall) goja.Value {
		if r.env == nil || r.env.Servers == nil {
			return r.vm.ToValue("gojm: this script cannot start servers")
		}
		if err := r.env.Servers.StartMirror(int(c.Argument(0).ToInteger())); err != nil {
			return r.vm.ToValue(err.Error())
		}
		return r.vm.ToValue("")
	})
	set("mirrorStop", func(c goja.FunctionCall) goja.Value {
		if r.env != nil && r.env.Servers != nil {
			r.env.Servers.StopMirror(int(c.Argument(0).ToInteger()))
		}
		return goja.Undefined()
	})
}
