package influx

import (
	"fmt"
	"testing"
	"time"

	"github.com/gojm/gojm/internal/testsvc"
	"github.com/gojm/gojm/report"
)

// TestRealInfluxDB writes to a real InfluxDB 1.x (Debian's influxdb) and
// reads the points back the way JMeter's Grafana dashboard queries them.
func TestRealInfluxDB(t *testing.T) {
	db := testsvc.StartInfluxDB(t, "jmeter")
	cfg, err := ParseConfig(params(db.WriteURL("jmeter")), nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now().Truncate(time.Second)
	c := New(cfg, start, func() (int, int, int) { return 1, 2, 1 }, nil)
	for i := range 20 {
		s := &report.Sample{Start: start, Elapsed: time.Duration(i+1) * time.Millisecond, Label: "Home page", Success: i%10 != 0,
			Code: "200", Message: "OK", Bytes: 500, AllThreads: 2}
		if !s.Success {
			s.Code, s.Message = "503", "Service Unavailable"
		}
		c.Add(s)
	}
	c.Tick(start.Add(5 * time.Second))
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if n, err := c.Sends(); err != nil {
		t.Fatalf("send %d: %v", n, err)
	}

	one := func(q string) testsvc.Series {
		t.Helper()
		ss, err := db.Query("jmeter", q)
		if err != nil {
			t.Fatal(err)
		}
		if len(ss) != 1 || len(ss[0].Values) == 0 {
			t.Fatalf("%s: got %+v", q, ss)
		}
		return ss[0]
	}
	// The dashboard's totals: count and countError of the "all" transaction.
	s := one(`SELECT sum("count"), sum("countError") FROM "jmeter" WHERE "application" = 'book shop' AND "transaction" = 'all'`)
	if got := fmt.Sprint(s.Values[0][1:]); got != "[20 2]" {
		t.Errorf("count, countError = %s, want [20 2]", got)
	}
	// Per-transaction lines by statut, with the percentile fields.
	s = one(`SELECT "count", "avg", "pct90.0", "pct99.9" FROM "jmeter" WHERE "transaction" = 'Home page' AND "statut" = 'ko'`)
	if got := fmt.Sprint(s.Values[0][1:]); got != "[2 6 11 11]" {
		t.Errorf("ko count, avg, pct90.0, pct99.9 = %s, want [2 6 11 11]", got)
	}
	s = one(`SELECT sum("count") FROM "jmeter" WHERE "transaction" = 'Home page' AND "responseCode" = '503'`)
	if got := fmt.Sprint(s.Values[0][1:]); got != "[2]" {
		t.Errorf("errors by response code = %s, want [2]", got)
	}
	s = one(`SELECT last("maxAT"), last("startedT"), last("endedT") FROM "jmeter" WHERE "transaction" = 'internal'`)
	if got := fmt.Sprint(s.Values[0][1:]); got != "[2 2 1]" {
		t.Errorf("internal maxAT, startedT, endedT = %s, want [2 2 1]", got)
	}
	// The annotations Grafana shows.
	s = one(`SELECT "text", "tags" FROM "events" WHERE "application" = 'book shop'`)
	if got := fmt.Sprint(s.Values); len(s.Values) != 2 || got != fmt.Sprint([][]any{
		{s.Values[0][0], "Nightly run started", "ci,nightly"}, {s.Values[1][0], "Nightly run ended", "ci,nightly"}}) {
		t.Errorf("events %s", got)
	}
}
