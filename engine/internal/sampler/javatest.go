package sampler

import (
	"strconv"
	"strings"
	"time"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/internal/java"
	"github.com/gojm/gojm/jmx"
)

// javaTest is JMeter's Java Request sampler running its built-in test
// class, org.apache.jmeter.protocol.java.test.JavaTest: it sleeps
// Sleep_Time ms plus (start time mod Sleep_Mask) and returns the code,
// message, status ("OK" for success) and data it is given. JMeter's own
// batch tests use it as a sampler that needs no server. Other Java
// classes cannot run.
type javaTest struct {
	sleep, mask, label, code, message, status, samplerData, resultData *element.Template
	hasSleep, hasMask, hasLabel, hasCode, hasMsg, hasStatus            bool
}

const javaTestClass = "org.apache.jmeter.protocol.java.test.JavaTest"

// BuildJava compiles a Java Request. A Java Request Defaults in its scope
// gives the class name when the sampler's is empty, and the parameters
// the sampler lacks: the sampler's own prevail, then the nearest
// defaults' (JMeter's Arguments.getArgumentsAsMap keeps the first of a
// name).
func BuildJava(c element.Builder, e *jmx.Element, sc element.InScope) (element.Sampler, error) {
	defaults := sc.Of("JavaConfig")
	cls := strings.TrimSpace(e.Str("classname"))
	for _, d := range defaults {
		if cls != "" {
			break
		}
		cls = strings.TrimSpace(d.Str("classname"))
	}
	if cls != javaTestClass {
		return nil, errUnsupportedJava(cls)
	}
	type param struct {
		owner *jmx.Element
		arg   *jmx.Prop
	}
	args := map[string]param{}
	for _, owner := range append([]*jmx.Element{e}, defaults...) {
		for _, a := range owner.Prop("arguments").Prop("Arguments.arguments").Members() {
			if _, seen := args[a.Str("Argument.name")]; !seen {
				args[a.Str("Argument.name")] = param{owner, a}
			}
		}
	}
	arg := func(name string) (*element.Template, bool) {
		p, ok := args[name]
		if !ok {
			return c.Template(e, name, ""), false
		}
		return c.Template(p.owner, name, p.arg.Str("Argument.value")), true
	}
	j := &javaTest{}
	j.sleep, j.hasSleep = arg("Sleep_Time")
	j.mask, j.hasMask = arg("Sleep_Mask")
	j.label, j.hasLabel = arg("Label")
	j.code, j.hasCode = arg("ResponseCode")
	j.message, j.hasMsg = arg("ResponseMessage")
	j.status, j.hasStatus = arg("Status")
	j.samplerData, _ = arg("SamplerData")
	j.resultData, _ = arg("ResultData")
	return j, nil
}

type errUnsupportedJava string

func (e errUnsupportedJava) Error() string {
	return "the Java Request runs Java class " + strconv.Quote(string(e)) + "; gojm runs only JMeter's built-in " + javaTestClass
}

func (j *javaTest) Sample(vu *element.VU, r *element.Result) {
	sleep := int64(100)
	if j.hasSleep {
		sleep = decodeLongOr(j.sleep.Eval(vu), 100)
	}
	mask := int64(0xff)
	if j.hasMask {
		mask = decodeLongOr(j.mask.Eval(vu), 0xff)
	}
	if j.hasLabel {
		if l := j.label.Eval(vu); l != "" {
			r.Label = l
		}
	}
	r.Code = j.code.Eval(vu)
	r.Message = j.message.Eval(vu)
	ok := true
	if j.hasStatus {
		ok = strings.EqualFold(j.status.Eval(vu), "OK")
	}
	data := j.samplerData.Eval(vu)
	r.SentBytes = int64(len(data))
	r.SamplerData = data
	if d := j.resultData.Eval(vu); d != "" {
		r.Body = append(r.Body[:0], d...)
		r.Bytes = int64(len(d))
	}
	r.DataType = "text"
	r.Start = vu.Now()
	if sleep > 0 && mask > 0 {
		sleep += r.Start.UnixMilli() % mask
	}
	slept := true
	if sleep > 0 {
		// A sample runs to its end unless the run is aborted (Stop Test
		// Now interrupts it, as JMeter does).
		t := time.NewTimer(time.Duration(sleep) * time.Millisecond)
		select {
		case <-t.C:
		case <-vu.Hard.Done():
			t.Stop()
			slept = false
		}
	}
	r.Success = ok && slept
	if !slept {
		element.MarkClientAbort(vu, &r.Sample)
	}
	r.Elapsed = vu.Now().Sub(r.Start)
}

// decodeLongOr is JavaSamplerContext.getLongParameter: Long.decode, or def.
func decodeLongOr(s string, def int64) int64 {
	n, err := java.DecodeLong(s)
	if err != nil {
		return def
	}
	return n
}
