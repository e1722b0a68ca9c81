package sampler

import (
	"strings"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// The Debug Sampler samples the thread's variables as its response.
type debugSampler struct{ vars bool }

func BuildDebug(_ element.Builder, e *jmx.Element, _ element.InScope) (element.Sampler, error) {
	d := &debugSampler{vars: e.Bool("displayJMeterVariables", true)}
	return d, nil
}

func (d *debugSampler) Sample(vu *element.VU, r *element.Result) {
	r.Start = time.Now()
	var b strings.Builder
	if d.vars {
		b.WriteString("JMeterVariables:\n")
		for _, n := range vu.Vars.Names() {
			v, _ := vu.Vars.Get(n)
			b.WriteString(n + "=" + v + "\n")
		}
	}
	r.Body = append(r.Body[:0], b.String()...)
	r.Code, r.Message, r.Success, r.DataType = "200", "OK", true, "text"
	r.Bytes = int64(len(r.Body))
	r.Elapsed = time.Since(r.Start)
}
