package sampler

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gojm/gojm/engine/internal/config"
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// jmeter-plugins samplers and controllers seen in real plans.

// dummySampler is jmeter-plugins' Dummy Sampler: a sample made of its
// fields, without any network. RESPONSE_TIME, LATENCY and CONNECT are
// milliseconds (text that is not a number counts 0, as in the plugin);
// with WAITING ("simulate response time") the thread sleeps the response
// time, otherwise the sample only claims it (timeStamp now, elapsed the
// response time). The label is the sampler's name, the data type text,
// bytes the response data's length in UTF-8; URL is kept when it is a URL.
// REQUEST_DATA (the sampler data) and RESULT_CLASS are not recorded.
type dummySampler struct {
	success, waiting                             bool
	code, message, data, respTime, latency, conn *element.Template
	url                                          *element.Template
}

const DummyClass = "kg.apc.jmeter.samplers.DummySampler"

func BuildDummy(c element.Builder, e *jmx.Element, _ element.InScope) (element.Sampler, error) {
	d := &dummySampler{
		success: e.Bool("SUCCESFULL", false), waiting: e.Bool("WAITING", false),
		code: c.Prop(e, "RESPONSE_CODE"), message: c.Prop(e, "RESPONSE_MESSAGE"), data: c.Prop(e, "RESPONSE_DATA"),
		respTime: c.Prop(e, "RESPONSE_TIME"), latency: c.Prop(e, "LATENCY"), conn: c.Prop(e, "CONNECT"),
		url: c.Prop(e, "URL"),
	}
	return d, nil
}

// dummyMillis is the plugin's Integer.valueOf: no spaces, 0 when not a number.
func dummyMillis(s string) time.Duration {
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil || n < 0 {
		return 0
	}
	return time.Duration(n) * time.Millisecond
}

func (d *dummySampler) Sample(vu *element.VU, r *element.Result) {
	rt := dummyMillis(d.respTime.Eval(vu))
	r.Code = d.code.Eval(vu)
	r.Message = d.message.Eval(vu)
	r.Success = d.success
	r.DataType = "text"
	body := d.data.Eval(vu)
	r.Body = append(r.Body[:0], body...)
	r.Bytes = int64(len(body))
	if u := d.url.Eval(vu); u != "" {
		if p, err := url.Parse(u); err == nil && javaURLScheme(p.Scheme) {
			r.URL = u
		}
	}
	r.Latency = dummyMillis(d.latency.Eval(vu))
	r.Connect = dummyMillis(d.conn.Eval(vu))
	r.Start = vu.Now()
	if !d.waiting {
		r.Elapsed = rt
		return
	}
	if rt > 0 {
		// Stop Test Now interrupts the sleep; the sample keeps its status.
		t := time.NewTimer(rt)
		select {
		case <-t.C:
		case <-vu.Hard.Done():
			t.Stop()
		}
	}
	r.Elapsed = vu.Now().Sub(r.Start)
}

// javaURLScheme reports whether java.net.URL knows the scheme.
func javaURLScheme(s string) bool {
	switch strings.ToLower(s) {
	case "http", "https", "ftp", "file", "jar":
		return true
	}
	return false
}

// buildSetVariables is jmeter-plugins' Set Variables Action: a sampler
// that sets its variables and makes no sample.
func BuildSetVariables(c element.Builder, e *jmx.Element, _ element.InScope) (element.Sampler, error) {
	u := config.NewVariables(c, e, "SetVariablesAction")
	return element.SamplerFunc(func(vu *element.VU, r *element.Result) {
		u.Set(vu)
		r.None = true
	}), nil
}
