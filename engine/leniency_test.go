package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Elements that only report (a plugin's listener gojm does not know, the
// Mailer Visualizer, the Prometheus Listener) never refuse a run: each is
// ignored with a warning, and --strict refuses it. A sampler gojm does not
// know is still refused.
func TestReportOnlyElements(t *testing.T) {
	reporters := []struct{ class, want string }{
		{"com.example.jmeter.FancyVisualizer", "com.example.jmeter.FancyVisualizer is a listener gojm does not have"},
		{"com.example.jmeter.PushResultCollector", "com.example.jmeter.PushResultCollector is a listener gojm does not have"},
		{"com.example.jmeter.SlackListener", "com.example.jmeter.SlackListener is a listener gojm does not have"},
		{"MailerResultCollector", "the Mailer Visualizer's e-mails are not sent"},
		{"com.github.johrstrom.listener.PrometheusListener", "the Prometheus Listener's metrics are not served"},
	}
	for _, r := range reporters {
		t.Run(r.class, func(t *testing.T) {
			el := fmt.Sprintf(`<%s testclass="%s" testname="Report"/><hashTree/>`, r.class, r.class)
			plan := xPlan("", xGroup("Users", groupOpts{}, xJava("one", 0, ""), el))
			p, err := compilePlanXML(t, plan, nil)
			if err != nil {
				t.Fatalf("an element that only reports refused the plan: %v", err)
			}
			if len(p.Warnings) != 1 || p.Warnings[0].Path != "P › Users › Report" || !strings.Contains(p.Warnings[0].Message, r.want) ||
				!strings.Contains(p.Warnings[0].Message, reportsOnly) {
				t.Errorf("warnings %q, want one of P › Users › Report saying %q", p.Warnings, r.want)
			}
			if st := elementStatus(p, "P › Users › Report"); st == nil || st.Status != Ignored {
				t.Errorf("status %+v, want ignored", st)
			}
			if got := labels(runPlanXML(t, plan, nil), ""); !slices.Equal(got, []string{"one"}) {
				t.Errorf("samples %q", got)
			}
			if _, err := compilePlanXMLOpts(t, plan, Options{Strict: true}); err == nil || !strings.Contains(err.Error(), r.want) {
				t.Errorf("with Strict: %v", err)
			}
		})
	}
	unknown := `<com.example.FooSampler testclass="com.example.FooSampler" testname="Foo"/><hashTree/>`
	if _, err := compilePlanXML(t, xPlan("", xGroup("Users", groupOpts{}, unknown)), nil); err == nil ||
		!strings.Contains(err.Error(), "unsupported element com.example.FooSampler") {
		t.Errorf("an unknown sampler: %v, want a refusal", err)
	}
}

func elementStatus(p *Plan, path string) *ElementStatus {
	for i := range p.Elements {
		if p.Elements[i].Path == path {
			return &p.Elements[i]
		}
	}
	return nil
}
