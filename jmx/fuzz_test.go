package jmx

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzRead feeds arbitrary bytes to the plan reader. It must never panic:
// a document is either a plan, whose every element has a path and readable
// properties, or an *Error naming the file. The committed seeds in
// testdata/fuzz/FuzzRead are small real plans and the inputs that once
// broke it; run longer with
//
//	go test ./jmx -run '^$' -fuzz '^FuzzRead$' -fuzztime 1000000x
func FuzzRead(f *testing.F) {
	f.Add([]byte(`<?xml version="1.0"?><jmeterTestPlan><hashTree><TestPlan testname="P"/><hashTree/></hashTree></jmeterTestPlan>`))
	f.Add([]byte(`<jmeterTestPlan><hashTree><hashTree/><X enabled="false"/></hashTree></jmeterTestPlan>`))
	f.Add([]byte(`<jmeterTestPlan><hashTree><IncludeController testclass="IncludeController">` +
		`<stringProp name="IncludeController.includepath">missing.jmx</stringProp></IncludeController></hashTree></jmeterTestPlan>`))
	f.Add([]byte(`<jmeterTestPlan><hashTree><A><objProp><name>saveConfig</name><value class="C"><time>true</time></value></objProp>` +
		`<doubleProp><name>x</name><value>2.0</value></doubleProp><collectionProp name="c"><elementProp name="e"/></collectionProp></A></hashTree></jmeterTestPlan>`))
	f.Add([]byte(`<project/>`))
	f.Add([]byte(`<jmeterTestPlan><hashTree>`))
	dir := f.TempDir() // Include Controllers resolve here: an empty folder
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Read(bytes.NewReader(data), "fuzz.jmx", dir)
		if err != nil {
			var perr *Error
			if !errors.As(err, &perr) || perr.File != "fuzz.jmx" {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if p.Root == nil {
			t.Fatal("a plan without a root")
		}
		p.TestPlan()
		p.Root.Walk(func(e *Element) bool {
			e.Path()
			for _, pr := range e.Props {
				e.Str(pr.Name)
				e.Bool(pr.Name, false)
				pr.Members()
				pr.Str(pr.Name)
			}
			return true
		})
	})
}
