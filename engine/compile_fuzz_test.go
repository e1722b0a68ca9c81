package engine

import (
	"bytes"
	"testing"

	"github.com/gojm/gojm/jmx"
)

// FuzzCompile compiles arbitrary plans: whatever the reader accepts, the
// compiler must turn into a plan or into errors naming elements, never a
// panic. Nothing runs. The committed seeds in testdata/fuzz/FuzzCompile are
// small real plans; run longer with
//
//	go test ./engine -run '^$' -fuzz '^FuzzCompile$' -fuzztime 1000000x
func FuzzCompile(f *testing.F) {
	f.Add([]byte(`<jmeterTestPlan><hashTree><TestPlan testname="P"/><hashTree>
<ThreadGroup testname="U"><elementProp name="ThreadGroup.main_controller" elementType="LoopController">
<stringProp name="LoopController.loops">${__P(n,2)}</stringProp></elementProp><stringProp name="ThreadGroup.num_threads">1</stringProp></ThreadGroup>
<hashTree><LoopController testname="L"><stringProp name="LoopController.loops">2</stringProp></LoopController><hashTree>
<HTTPSamplerProxy testname="S"><stringProp name="HTTPSampler.path">/x?${__Random(1,9)}</stringProp></HTTPSamplerProxy><hashTree>
<RegexExtractor testname="R"><stringProp name="RegexExtractor.regex">(a+)</stringProp></RegexExtractor><hashTree/>
<ResponseAssertion testname="A"><collectionProp name="Asserion.test_strings"><stringProp name="1">ok</stringProp></collectionProp></ResponseAssertion><hashTree/>
</hashTree></hashTree></hashTree></hashTree></hashTree></jmeterTestPlan>`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		src, err := jmx.Read(bytes.NewReader(data), "fuzz.jmx", dir)
		if err != nil {
			return
		}
		for _, skip := range []bool{false, true} {
			p, err := Compile(src, Options{SkipUnsupported: skip})
			if err == nil && p == nil {
				t.Fatal("no plan and no error")
			}
		}
	})
}
