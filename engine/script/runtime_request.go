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
	req := func() Request {
		q := r.env.Request
		if q == nil {
			r.throw("java.lang.IllegalStateException", "gojm: no HTTP request")
		}
		return q
	}
	set("reqHas", func(goja.FunctionCall) goja.Value { return vm.ToValue(r.env.Request != nil) })
	set("reqGet", func(c goja.FunctionCall) goja.Value {
		q := req()
		switch f := argStr(c, 0); f {
		case "method", "domain", "path":
			return vm.ToValue(q.Field(f))
		case "protocol":
			// HTTPSamplerBase.getProtocol: http when blank
			if p := q.Field(f); p != "" {
				return vm.ToValue(p)
			}
			return vm.ToValue("http")
		case "headerManager":
			return vm.ToValue(q.HeaderManager())
		}
		r.throw("java.lang.IllegalStateException", "gojm: no request field "+argStr(c, 0))
		return nil
	})
	set("reqSet", func(c goja.FunctionCall) goja.Value {
		q := req()
		switch f := argStr(c, 0); f {
		case "method", "protocol", "domain", "port", "path":
			q.SetField(f, argStr(c, 1))
		default:
			r.throw("java.lang.IllegalStateException", "gojm: no request field "+f)
		}
		return goja.Undefined()
	})
	set("reqPort", func(goja.FunctionCall) goja.Value { return vm.ToValue(requestPort(req())) })
	set("reqURL", func(goja.FunctionCall) goja.Value { return vm.ToValue(req().URL()) })
	set("hdrs", func(goja.FunctionCall) goja.Value {
		hs := req().Headers()
		out := make([][]any, len(hs))
		for i, h := range hs {
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
		hs := make([]Header, 0, len(rows))
		for _, row := range rows {
			hs = append(hs, Header{Name: row[0], Value: row[1]})
		}
		q.SetHeaders(hs)
		return goja.Undefined()
	})
	set("args", func(goja.FunctionCall) goja.Value {
		as := req().Args()
		out := make([][]any, len(as))
		for i, a := range as {
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
		as := make([]Arg, 0, len(rows))
		for _, row := range rows {
			s := func(i int) string { v, _ := row[i].(string); return v }
			enc, _ := row[3].(bool)
			as = append(as, Arg{Name: s(0), Value: s(1), Meta: s(2), Encode: enc, ContentType: s(4)})
		}
		q.SetArgs(as)
		return goja.Undefined()
	})
}

// requestPort is HTTPSamplerBase.getPort: the port given, else the
// protocol's.
func requestPort(q Request) int {
	if p, err := strconv.Atoi(strings.TrimSpace(q.Field("port"))); err == nil && p > 0 {
		return p
	}
	if strings.EqualFold(strings.TrimSpace(q.Field("protocol")), "https") {
		return 443
	}
	return 80
}
