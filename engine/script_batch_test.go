package engine

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// JMeter's batch plans that need scripts (BeanShell and BSF samplers, JSR223
// samplers and pre-processors in Groovy and JEXL): their results files must
// match JMeter's expected ones, as in TestJMeterBatchPlans. Where a plan
// also differs for reasons of its own (listed), only the rows of its script
// samplers are compared.
var scriptBatchPlans = []struct {
	name string
	// rows, when set, picks the rows compared; why says why the others are not.
	rows *regexp.Regexp
	why  string
}{
	{name: "BatchTestLocal", rows: regexp.MustCompile(`^<sample [^>]*"(BSH Counter|BSF Sampler|JSR223 Sampler)|^(BSH Counter|BSF Sampler|JSR223 Sampler)`),
		why: "the CSV file is named ${__P(CSVFILE)}, which gojm does not evaluate in listener file names, and the XML keeps samplerData"},
	{name: "Bug56243"},
	{name: "Bug56811", rows: regexp.MustCompile(`lb="BeanShell Sampler"|^BeanShell Sampler`),
		why: "gojm's Transaction Controller samples have no thread name"},
	{name: "TestResultStatusAction"},
	{name: "TestSchedulerWithTimer"},
}

func TestScriptBatchPlans(t *testing.T) {
	dir := batchDir(t)
	for _, tc := range scriptBatchPlans {
		t.Run(tc.name, func(t *testing.T) {
			got := runBatch(t, dir, tc.name, nil, false)
			compared := 0
			for _, ext := range []string{".csv", ".xml"} {
				want, err := os.ReadFile(filepath.Join(dir, tc.name+ext))
				if err != nil {
					continue
				}
				g, ok := got[tc.name+ext]
				if !ok {
					if tc.rows == nil {
						t.Errorf("the plan wrote no %s%s", tc.name, ext)
					}
					continue
				}
				gs, ws := norm(g), norm(want)
				if tc.rows != nil {
					gs, ws = pickRows(gs, tc.rows), pickRows(ws, tc.rows)
					if ws == "" {
						t.Fatalf("%s%s: no row picked in JMeter's file", tc.name, ext)
					}
				}
				compared++
				if d := lineDiff(gs, ws); d != "" {
					t.Errorf("%s%s differs from JMeter's (- gojm, + JMeter):\n%s", tc.name, ext, d)
				}
			}
			if compared == 0 {
				t.Errorf("nothing compared")
			}
		})
	}
}

// pickRows keeps the lines rows matches, each cut to its sample's
// attributes (the XML element may have children or not).
func pickRows(s string, rows *regexp.Regexp) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if rows.MatchString(strings.TrimSpace(l)) {
			l = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(l), "/>"), ">")
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
