package engine

import (
	"sort"
	"strings"
	"time"

	"github.com/gojm/gojm/jmx"
)

// The Debug Sampler samples the thread's variables as its response.
type debugSampler struct{ vars bool }

func buildDebug(_ *compiler, e *jmx.Element, _ *scope) (Sampler, error) {
	d := &debugSampler{vars: e.Bool("displayJMeterVariables", true)}
	return d, nil
}

func (d *debugSampler) Sample(vu *VU, r *Result) {
	r.Start = time.Now()
	var b strings.Builder
	if d.vars {
		var names []string
		for i, n := range vu.Plan.syms.names {
			if vu.Vars.set[i] {
				names = append(names, n)
			}
		}
		for n := range vu.Vars.extra {
			names = append(names, n)
		}
		sort.Strings(names)
		b.WriteString("JMeterVariables:\n")
		for _, n := range names {
			v, _ := vu.Vars.Get(n)
			b.WriteString(n + "=" + v + "\n")
		}
	}
	r.Body = append(r.Body[:0], b.String()...)
	r.Code, r.Message, r.Success, r.DataType = "200", "OK", true, "text"
	r.Bytes = int64(len(r.Body))
	r.Elapsed = time.Since(r.Start)
}
