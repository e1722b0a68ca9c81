package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gojm/gojm/examples/target"
	"github.com/gojm/gojm/jmx"
	"github.com/gojm/gojm/report"
)

// loadPlan writes a plan of one thread group (threads users, loops
// iterations, continue on error) running one HTTP Request to path on the
// host and port properties, and returns the plan's file.
func loadPlan(t *testing.T, threads, loops int, path string) string {
	t.Helper()
	plan := fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3"><hashTree>
<TestPlan testclass="TestPlan" testname="Accounting"/><hashTree>
<ThreadGroup testclass="ThreadGroup" testname="Users">
  <elementProp name="ThreadGroup.main_controller" elementType="LoopController" testclass="LoopController">
    <boolProp name="LoopController.continue_forever">false</boolProp>
    <stringProp name="LoopController.loops">%d</stringProp></elementProp>
  <stringProp name="ThreadGroup.num_threads">%d</stringProp>
  <stringProp name="ThreadGroup.ramp_time">0</stringProp>
  <stringProp name="ThreadGroup.on_sample_error">continue</stringProp>
</ThreadGroup><hashTree>
<HTTPSamplerProxy testclass="HTTPSamplerProxy" testname="page">
  <stringProp name="HTTPSampler.domain">${__P(host)}</stringProp>
  <stringProp name="HTTPSampler.port">${__P(port)}</stringProp>
  <stringProp name="HTTPSampler.path">%s</stringProp>
  <stringProp name="HTTPSampler.method">GET</stringProp>
  <boolProp name="HTTPSampler.use_keepalive">true</boolProp>
</HTTPSamplerProxy><hashTree/>
</hashTree></hashTree></hashTree></jmeterTestPlan>
`, loops, threads, path)
	file := filepath.Join(t.TempDir(), "load.jmx")
	if err := os.WriteFile(file, []byte(plan), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// rowCounter counts the rows a JTL decoder delivers and the failed ones.
type rowCounter struct{ rows, failed int }

func (c *rowCounter) Add(s *report.Sample) {
	c.rows++
	if !s.Success {
		c.failed++
	}
}
func (c *rowCounter) Close() error { return nil }

// Under load (300 users, 20 iterations each, no think time) every request
// the server received is one JTL row, and every row reads back.
func TestAccountingUnderLoad(t *testing.T) {
	const threads, loops = 300, 20
	srv := target.NewServer(target.Options{CountOnly: true})
	if err := srv.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	u := srv.URL()
	host, port := "127.0.0.1", u[len("http://127.0.0.1:"):]

	src, err := jmx.Load(loadPlan(t, threads, loops, "/fast"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Compile(src, Options{Props: map[string]string{"host": host, "port": port}})
	if err != nil {
		t.Fatal(err)
	}
	jtl := filepath.Join(t.TempDir(), "results.jtl")
	w, err := report.OpenResultFile(jtl, report.DefaultSaveConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := Start(context.Background(), p, w, RunOptions{}).Wait(); err != nil {
		t.Fatal(err)
	}

	f, err := os.Open(jtl)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var c rowCounter
	if err := report.ReadJTL(f, jtl, &c, report.ReadOptions{}); err != nil {
		t.Fatalf("the JTL does not read back: %v", err)
	}
	if c.rows != threads*loops {
		t.Errorf("%d JTL rows, want %d", c.rows, threads*loops)
	}
	if n := srv.Count(); n != int64(c.rows) {
		t.Errorf("the server received %d requests, the JTL has %d rows", n, c.rows)
	}
	if c.failed != 0 {
		t.Errorf("%d failed samples against a healthy server", c.failed)
	}
}
