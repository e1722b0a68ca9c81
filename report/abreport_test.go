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
		"Concurrency Level:      2 (the most threads active at once)\n",
		"Time taken for tests:   0.070 seconds (the first sample's start to the last one's end)\n", // 0 to 30+40
		"Complete requests:      4 (samples, Transaction Controller samples not counted)\nFailed requests:        0\n" +
			"Total transferred:      4096 bytes (received, headers included)\n",
		"Requests per second:    57.14 [#/sec] (mean: complete requests / time taken)\n",
		"Time per request:       35.000 [ms] (mean: concurrency × time taken / complete requests; think time included)\n",
		"Time per request:       17.500 [ms] (mean, across all concurrent requests: time taken / complete requests)\n",
		"Transfer rate:          57.14 [Kbytes/sec] received\n",
		// The statistics table's definitions: population deviation, the
		// dashboard's median (interpolated between the 2nd and 3rd of 4).
		"Connect:                           1   2.50     1.12    2.50    4\n",
		"Processing (elapsed − connect):    9  22.50    10.06   22.50   36\n",
		"Waiting (latency):                 5  12.50     5.59   12.50   20\n",
		"Total (elapsed):                  10  25.00    11.18   25.00   40\n",
		"  50%      25.00\n  66%      33.00\n  75%      37.50\n  80%      40.00\n",
		" 100%         40 (longest request)\n",
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
	want := "Concurrency Level:      1 (the most threads active at once)\n" +
		"Time taken for tests:   0.000 seconds (the first sample's start to the last one's end)\n" +
		"Complete requests:      0 (samples, Transaction Controller samples not counted)\n" +
		"Failed requests:        0\nTotal transferred:      0 bytes (received, headers included)\nTotal sent:             0 bytes\n"
	if out.String() != want {
		t.Errorf("got\n%q\nwant\n%q", out.String(), want)
	}
}
