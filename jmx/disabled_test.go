package jmx

import (
	"strings"
	"testing"
)

func TestDisabledElementsKeptInAll(t *testing.T) {
	const src = `<jmeterTestPlan><hashTree>
<TestPlan testclass="TestPlan" testname="P"/><hashTree>
  <GenericController testclass="GenericController" testname="lib" enabled="false"/>
  <hashTree><DebugSampler testclass="DebugSampler" testname="in lib"/><hashTree/></hashTree>
  <ThroughputController testclass="ThroughputController" testname="TC">
    <FloatProperty><name>ThroughputController.percentThroughput</name><value>25.0</value><savedValue>0.0</savedValue></FloatProperty>
  </ThroughputController><hashTree/>
</hashTree></hashTree></jmeterTestPlan>`
	p, err := Read(strings.NewReader(src), "t.jmx", ".")
	if err != nil {
		t.Fatal(err)
	}
	tp := p.TestPlan()
	if len(tp.Children) != 1 || tp.Children[0].Name != "TC" {
		t.Fatalf("Children = %d, want only the enabled TC", len(tp.Children))
	}
	if len(tp.All) != 2 || !tp.All[0].Disabled || tp.All[0].Name != "lib" || tp.All[1].Disabled {
		t.Fatalf("All = %+v, want lib (disabled) then TC", tp.All)
	}
	if got := tp.All[0].Children; len(got) != 1 || got[0].Name != "in lib" || got[0].Parent != tp.All[0] {
		t.Fatalf("a disabled element keeps its own enabled children: %+v", got)
	}
	f := tp.Children[0].Prop("ThroughputController.percentThroughput")
	if f == nil || f.Kind != "float" || f.Value != "25.0" {
		t.Fatalf("FloatProperty = %+v, want float 25.0", f)
	}
}
