package sampler

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/elementtest"
	"github.com/gojm/gojm/jmx"
)

// A Flow Control Action makes no sample and asks the thread for what its
// action and target say.
func TestFlowControlAction(t *testing.T) {
	for _, tt := range []struct {
		action, target int
		want           element.Next
	}{
		{0, 0, element.StopThread}, {0, 2, element.StopTest}, {2, 2, element.StopTestNow},
		{3, 0, element.NextThreadLoop}, {4, 0, element.NextIterationLoop}, {5, 0, element.BreakLoop},
		{1, 0, element.Continue}, // a pause
	} {
		b := elementtest.New(nil, "", "")
		s, err := BuildFlowControl(b, elementtest.El("TestAction", "ActionProcessor.action", strconv.Itoa(tt.action),
			"ActionProcessor.target", strconv.Itoa(tt.target), "ActionProcessor.duration", "0"), element.InScope{})
		if err != nil {
			t.Fatal(err)
		}
		var r element.Result
		s.Sample(b.VU(1), &r)
		if !r.None || r.Next != tt.want {
			t.Errorf("action %d target %d: none %v, next %d; want %d", tt.action, tt.target, r.None, r.Next, tt.want)
		}
	}
	// An action JMeter does not know does nothing, with a warning.
	b := elementtest.New(nil, "", "")
	s, err := BuildFlowControl(b, elementtest.El("TestAction", "ActionProcessor.action", "9"), element.InScope{})
	if err != nil || len(b.Warnings) != 1 || !strings.Contains(b.Warnings[0], "action 9 is not one JMeter knows") {
		t.Fatalf("unknown action: %v, warnings %q", err, b.Warnings)
	}
	var r element.Result
	s.Sample(b.VU(1), &r)
	if !r.None || r.Next != element.Continue {
		t.Errorf("unknown action: none %v, next %d", r.None, r.Next)
	}
}

// The Debug Sampler's response is the user's variables, sorted.
func TestDebugSampler(t *testing.T) {
	b := elementtest.New(nil, "", "")
	s, err := BuildDebug(b, elementtest.El("DebugSampler"), element.InScope{})
	if err != nil {
		t.Fatal(err)
	}
	vu := b.VU(1)
	vu.Vars.Put("b", "2")
	vu.Vars.Put("a", "1")
	var r element.Result
	s.Sample(vu, &r)
	if got := string(r.Body); !strings.HasPrefix(got, "JMeterVariables:\na=1\nb=2\n") || !r.Success || r.Bytes != int64(len(got)) {
		t.Errorf("body %q, success %v, bytes %d", got, r.Success, r.Bytes)
	}
}

// javaEl is a Java Request, or Java Request Defaults, with a class name
// and parameters from name/value pairs.
func javaEl(class, classname string, kv ...string) *jmx.Element {
	args := &jmx.Prop{Kind: "collection", Name: "Arguments.arguments"}
	for i := 0; i+1 < len(kv); i += 2 {
		args.Props = append(args.Props, &jmx.Prop{Kind: "element", Name: kv[i], Props: []*jmx.Prop{
			{Kind: "string", Name: "Argument.name", Value: kv[i]}, {Kind: "string", Name: "Argument.value", Value: kv[i+1]}}})
	}
	e := elementtest.El(class, "classname", classname)
	e.Props = append(e.Props, &jmx.Prop{Kind: "element", Name: "arguments", Props: []*jmx.Prop{args}})
	return e
}

// Java Request Defaults give the class name a Java Request leaves empty
// and the parameters it lacks, nearest first; the sampler's own prevail.
func TestJavaRequestDefaults(t *testing.T) {
	near := javaEl("JavaConfig", "", "ResponseCode", "201", "ResponseMessage", "near")
	far := javaEl("JavaConfig", javaTestClass, "ResponseMessage", "far", "Status", "ERROR", "Sleep_Time", "0")
	other := javaEl("JavaConfig", "", "Label", "never")
	other.Class = "ConfigTestElement"
	for _, tt := range []struct {
		name            string
		sampler         *jmx.Element
		code, msg       string
		success, refuse bool
	}{
		{"defaults fill", javaEl("JavaSampler", "", "Sleep_Mask", "0"), "201", "near", false, false},
		{"own prevail", javaEl("JavaSampler", "", "Sleep_Mask", "0", "ResponseCode", "", "Status", "OK"), "", "near", true, false},
		{"own class prevails", javaEl("JavaSampler", "com.example.Mine"), "", "", false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := elementtest.New(nil, "", "")
			s, err := BuildJava(b, tt.sampler, element.InScope{Configs: []*jmx.Element{other, near, far}})
			if tt.refuse {
				if err == nil || !strings.Contains(err.Error(), "com.example.Mine") {
					t.Errorf("err %v, want the class refused", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			r := element.Result{}
			r.Label = "java"
			s.Sample(b.VU(1), &r)
			if r.Code != tt.code || r.Message != tt.msg || r.Success != tt.success || r.Label != "java" {
				t.Errorf("code %q message %q success %v label %q; want %q %q %v", r.Code, r.Message, r.Success, r.Label, tt.code, tt.msg, tt.success)
			}
		})
	}
}

// The WebDriver and JUnit Samplers are refused by name, saying what to do.
func TestRefusedSamplers(t *testing.T) {
	for _, tt := range []struct {
		build func(element.Builder, *jmx.Element, element.InScope) (element.Sampler, error)
		class string
		want  string
	}{
		{BuildWebDriver, WebDriverClass, "run this plan with JMeter and the WebDriver plugin"},
		{BuildJUnit, "JUnitSampler", "run this plan with JMeter"},
	} {
		b := elementtest.New(nil, "", "")
		s, err := tt.build(b, elementtest.El(tt.class), element.InScope{})
		if err != nil || len(b.Refused) != 1 || !strings.Contains(b.Refused[0], tt.want) {
			t.Errorf("%s: err %v, refused %q", tt.class, err, b.Refused)
			continue
		}
		var r element.Result
		s.Sample(b.VU(1), &r)
		if !r.None {
			t.Errorf("%s made a sample when skipped", tt.class)
		}
	}
}
