package report

import (
	"bytes"
	"strings"
	"testing"
)

func TestABReportGolden(t *testing.T) {
	st := NewStats(StatsOptions{})
	for _, s := range fixture() {
		st.Add(s)
	}
	var out bytes.Buffer
	if err := WriteABReport(&out, st, ABInfo{ServerSoftware: "nginx/1.22.1", DocumentLength: 383}); err != nil {
		t.Fatal(err)
	}
	golden(t, "abreport.txt", out.Bytes())
}

// TestABReportHandWorked checks ab's arithmetic on four requests worked
// out by hand: elapsed 10..40 ms, connect 1..4, latency 5..20.
func TestABReportHandWorked(t *testing.T) {
	st := NewStats(StatsOptions{})
	for i := int64(1); i <= 4; i++ {
		st.Add(&Sample{
			Start: t0.Add(ms(10 * (i - 1))), Elapsed: ms(10 * i), Connect: ms(i), Latency: ms(5 * i),
			Label: "get", Code: "200", Success: true, Bytes: 1024, AllThreads: 2,
			URL: "https://127.0.0.1/x?y=1",
		})
	}
	var out bytes.Buffer
	if err := WriteABReport(&out, st, ABInfo{}); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"Server Hostname:        127.0.0.1\nServer Port:            443\n\nDocument Path:          /x?y=1\n\n",
		"Concurrency Level:      2\n",
		"Time taken for tests:   0.070 seconds\n", // first start 0, last end 30+40
		"Complete requests:      4\nFailed requests:        0\nTotal transferred:      4096 bytes\n",
		"Requests per second:    57.14 [#/sec] (mean)\n",
		"Time per request:       35.000 [ms] (mean)\n",
		"Time per request:       17.500 [ms] (mean, across all concurrent requests)\n",
		"Transfer rate:          57.14 [Kbytes/sec] received\n",
		// mean 2.5 → 3 (ab rounds half up), sd √(5/3), median stats[2]
		"Connect:        1    3   1.3      3       4\n",
		"Processing:     9   23  11.6     27      36\n",
		"Waiting:        5   13   6.5     15      20\n",
		"Total:         10   25  12.9     30      40\n",
		"  50%     30\n  66%     30\n  75%     40\n",
		" 100%     40 (longest request)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Non-2xx") || strings.Contains(got, "Server Software") {
		t.Errorf("unexpected lines:\n%s", got)
	}
}

func TestABReportEmpty(t *testing.T) {
	var out bytes.Buffer
	if err := WriteABReport(&out, NewStats(StatsOptions{}), ABInfo{}); err != nil {
		t.Fatal(err)
	}
	want := "Concurrency Level:      1\nTime taken for tests:   0.000 seconds\nComplete requests:      0\n" +
		"Failed requests:        0\nTotal transferred:      0 bytes\n"
	if out.String() != want {
		t.Errorf("got\n%q\nwant\n%q", out.String(), want)
	}
}
