package engine

import (
	"testing"
	"testing/synctest"
	"time"
)

// A Precise Throughput Timer in a plan: its seeded schedule from the
// test's start, and a thread whose next turn falls after its end stops.
func TestPreciseThroughputTimerInAPlan(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ptt := xmlEl("PreciseThroughputTimer", "ptt",
			`<doubleProp><name>throughput</name><value>120</value></doubleProp>`+ip("throughputPeriod", 60)+
				`<longProp name="duration">5</longProp>`+ip("batchSize", 1)+`<longProp name="randomSeed">42</longProp>`)
		t0 := time.Now()
		m := runPlanXML(t, xPlan("", xGroup("G", groupOpts{loops: "-1", scheduler: true, duration: 3}, ptt, xJava("S", 0, ""))), nil)
		// 2 a second, seed 42: events at 1.378…, 1.385…, 1.543…, 1.843…,
		// 2.318…; the next, 3.327…, is after the end.
		if got := at(m, t0, ""); got != "S@1378 S@1385 S@1543 S@1843 S@2318" {
			t.Errorf("samples %s", got)
		}
	})
}
