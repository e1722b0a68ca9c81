package script

import (
	"strconv"
	"strings"

	"github.com/dop251/goja"
)

// requestBridge adds to H the functions that read and change the Env's
// Request (runtime_http.js).
func (r *runtime) requestBridge(set func(name string, f func(c goja.FunctionCall) goja.Value)) {
	vm := r.vm
	req := func() *Request {
		q := r.env.Request
		if q == nil {
			r.throw("java.lang.IllegalStateException", "gojm: no HTTP request")
		}
		return q
	}
	set("reqHas", func(goja.FunctionCall) goja.Value { return vm.ToValue(r.env.Request != nil) })
	set("reqGet", func(c goja.FunctionCall) goja.Value {
		q := req()
		switch argStr(c, 0) {
		case "method":
			return vm.ToValue(q.Method)
		case "protocol":
			// HTTPSamplerBase.getProtocol: http when blank
			if q.Protocol == "" {
				return vm.ToValue("http")
			}
			return vm.ToValue(q.Protocol)
		case "domain":
			return vm.ToValue(q.Domain)
		case "path":
			return vm.ToValue(q.Path)
		case "headerManager":
			return vm.ToValue(q.HeaderManager)
		}
		r.throw("java.lang.IllegalStateException", "gojm: no request field "+argStr(c, 0))
		return nil
	})
	set("reqSet", func(c goja.FunctionCall) goja.Value {
		q := req()
		v := argStr(c, 1)
		switch argStr(c, 0) {
		case "method":
			q.Method = v
		case "protocol":
			q.Protocol = v
		case "domain":
			q.Domain = v
		case "port":
			q.Port = v
		case "path":
			q.Path = v
		default:
			r.throw("java.lang.IllegalStateException", "gojm: no request field "+argStr(c, 0))
		}
		q.Changed = true
		return goja.Undefined()
	})
	set("reqPort", func(goja.FunctionCall) goja.Value { return vm.ToValue(req().port()) })
	set("reqURL", func(goja.FunctionCall) goja.Value { return vm.ToValue(req().url()) })
	set("hdrs", func(goja.FunctionCall) goja.Value {
		q := req()
		out := make([][]any, len(q.Headers))
		for i, h := range q.Headers {
			out[i] = []any{h.Name, h.Value}
		}
		return vm.ToValue(out)
	})
	set("hdrsSet", func(c goja.FunctionCall) goja.Value {
		q := req()
		var rows [][]string
		if err := vm.ExportTo(c.Argument(0), &rows); err != nil {
			r.throwErr(err)
		}
		q.Headers = q.Headers[:0]
		for _, row := range rows {
			q.Headers = append(q.Headers, Header{Name: row[0], Value: row[1]})
		}
		q.Changed = true
		return goja.Undefined()
	})
	set("args", func(goja.FunctionCall) goja.Value {
		q := req()
		out := make([][]any, len(q.Args))
		for i, a := range q.Args {
			out[i] = []any{a.Name, a.Value, a.Meta, a.Encode, a.ContentType}
		}
		return vm.ToValue(out)
	})
	set("argsSet", func(c goja.FunctionCall) goja.Value {
		q := req()
		var rows [][]any
		if err := vm.ExportTo(c.Argument(0), &rows); err != nil {
			r.throwErr(err)
		}
		q.Args = q.Args[:0]
		for _, row := range rows {
			s := func(i int) string { v, _ := row[i].(string); return v }
			enc, _ := row[3].(bool)
			q.Args = append(q.Args, Arg{Name: s(0), Value: s(1), Meta: s(2), Encode: enc, ContentType: s(4)})
		}
		q.Changed = true
		return goja.Undefined()
	})
}

// port is HTTPSamplerBase.getPort: the port given, else the protocol's.
func (q *Request) port() int {
	if p, err := strconv.Atoi(strings.TrimSpace(q.Port)); err == nil && p > 0 {
		return p
	}
	if strings.EqualFold(strings.TrimSpace(q.Protocol), "https") {
		return 443
	}
	return 80
}

// url is HTTPSamplerBase.getUrl's text: a full URL in the path wins; the
// port is left out when it is the protocol's default.
func (q *Request) url() string {
	path := strings.TrimSpace(q.Path)
	if strings.HasPrefix(path, "http://") || strings.HasPrefix(path, "https://") {
		return path
	}
	proto := strings.ToLower(strings.TrimSpace(q.Protocol))
	if proto == "" {
		proto = "http"
	}
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	host := strings.TrimSpace(q.Domain)
	if p := q.port(); !(proto == "http" && p == 80 || proto == "https" && p == 443) {
		host += ":" + strconv.Itoa(p)
	}
	return proto + "://" + host + path
}
