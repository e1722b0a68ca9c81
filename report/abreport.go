package report

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"net/url"
	"strconv"
)

// ABInfo holds what an ab-style report shows but samples do not carry.
// Zero fields are unknown and their lines are left out.
type ABInfo struct {
	ServerSoftware  string // the Server header of a response
	DocumentLength  int64  // body bytes of the first response
	HTMLTransferred int64  // body bytes of all responses
	Concurrency     int    // overrides the largest allThreads seen
}

// percs are ab's percentiles.
var abPercs = []float64{50, 66, 75, 80, 90, 95, 98, 99}

// WriteABReport writes st's Total in the layout of ApacheBench (ab 2.3)'s
// report, each line saying what its figure is, every figure with the
// definitions of the statistics table: the server and document (when every
// request went to one URL), the concurrency (the most threads active at
// once), the time taken (the first sample's start to the last one's end),
// complete and failed requests (failures sorted by kind), non-2xx
// responses (HTTP responses only: a failure without a response is not
// one), bytes, the rates, the Connection Times table (Connect, Processing =
// elapsed − connect, Waiting = latency, Total = elapsed; min, mean,
// population standard deviation, median, max) with ab's sanity warnings,
// and the percentage table (the statistics table's percentiles).
// Transaction samples are not requests and are not counted.
func WriteABReport(w io.Writer, st *Stats, info ABInfo) error {
	bw := bufio.NewWriter(w)
	t := st.Total()
	if info.ServerSoftware != "" {
		fmt.Fprintf(bw, "Server Software:        %s\n", info.ServerSoftware)
	}
	writeABServer(bw, st, info)
	conc := info.Concurrency
	if conc <= 0 {
		conc = max(st.maxThreads, 1)
	}
	done := t.Count
	taken := float64(t.Duration()) / 1000
	if done == 0 {
		taken = 0
	}
	f := st.failures
	fmt.Fprintf(bw, "Concurrency Level:      %d (the most threads active at once)\n", conc)
	fmt.Fprintf(bw, "Time taken for tests:   %.3f seconds (the first sample's start to the last one's end)\n", taken)
	fmt.Fprintf(bw, "Complete requests:      %d (samples, Transaction Controller samples not counted)\n", done)
	fmt.Fprintf(bw, "Failed requests:        %d\n", t.Errors)
	if t.Errors > 0 {
		fmt.Fprintf(bw, "   (HTTP error status: %d, no HTTP response: %d, assertions: %d, aborted by gojm: %d)\n",
			f.HTTP, f.NonHTTP, f.Assertion, f.Aborted)
	}
	if st.non2xx > 0 {
		fmt.Fprintf(bw, "Non-2xx responses:      %d (HTTP responses with another status than 2xx)\n", st.non2xx)
	}
	fmt.Fprintf(bw, "Total transferred:      %d bytes (received, headers included)\n", t.Bytes)
	fmt.Fprintf(bw, "Total sent:             %d bytes\n", t.SentBytes)
	if info.HTMLTransferred > 0 {
		fmt.Fprintf(bw, "HTML transferred:       %d bytes\n", info.HTMLTransferred)
	}
	if taken > 0 && done > 0 {
		fmt.Fprintf(bw, "Requests per second:    %.2f [#/sec] (mean: complete requests / time taken)\n", t.Throughput())
		fmt.Fprintf(bw, "Time per request:       %.3f [ms] (mean: concurrency × time taken / complete requests; think time included)\n",
			float64(conc)*taken*1000/float64(done))
		fmt.Fprintf(bw, "Time per request:       %.3f [ms] (mean, across all concurrent requests: time taken / complete requests)\n",
			taken*1000/float64(done))
		fmt.Fprintf(bw, "Transfer rate:          %.2f [Kbytes/sec] received\n", t.ReceivedKBPerSec())
		fmt.Fprintf(bw, "                        %.2f kb/s sent\n", t.SentKBPerSec())
	}
	if done > 0 {
		writeABTimes(bw, st)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("ab report: %w", err)
	}
	return nil
}

// writeABServer writes the server and document lines when every request
// went to one URL; with several, it says so rather than name the first.
func writeABServer(bw *bufio.Writer, st *Stats, info ABInfo) {
	u, err := url.Parse(st.firstURL)
	if err != nil || st.firstURL == "" || u.Host == "" {
		return
	}
	if !st.oneURL {
		fmt.Fprintf(bw, "Document Path:          (several URLs: see the table per label)\n\n")
		return
	}
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	fmt.Fprintf(bw, "Server Hostname:        %s\n", u.Hostname())
	fmt.Fprintf(bw, "Server Port:            %s\n\n", port)
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	fmt.Fprintf(bw, "Document Path:          %s\n", path)
	if info.DocumentLength > 0 {
		fmt.Fprintf(bw, "Document Length:        %d bytes\n", info.DocumentLength)
	}
	fmt.Fprintf(bw, "\n")
}

// writeABTimes writes the Connection Times and percentage tables.
func writeABTimes(bw *bufio.Writer, st *Stats) {
	t := st.Total()
	rows := []struct {
		name, what string
		h          *Histogram
	}{
		{"Connect:", "the connect time", &st.connect},
		{"Processing (elapsed − connect):", "the processing time", &st.processing},
		{"Waiting (latency):", "the waiting time", &st.latency},
		{"Total (elapsed):", "the total time", &t.elapsed},
	}
	fmt.Fprintf(bw, "\nConnection Times (ms; mean, population standard deviation and median over every sample, as the table per label computes them)\n")
	table := [][]string{{"", "min", "mean", "[+/-sd]", "median", "max"}}
	for _, r := range rows {
		table = append(table, []string{r.name, strconv.FormatInt(r.h.Min(), 10), fixed(r.h.Mean(), 2),
			fixed(r.h.StdDev(), 2), fixed(r.h.Percentile(50), 2), strconv.FormatInt(r.h.Max(), 10)})
	}
	writeAligned(bw, table, 1)
	for _, r := range rows {
		mean, median, sd := r.h.Mean(), r.h.Percentile(50), r.h.StdDev()
		switch d := math.Abs(mean - median); {
		case d > 2*sd:
			fmt.Fprintf(bw, "ERROR: The median and mean for %s are more than twice the standard\n"+
				"       deviation apart. These results are NOT reliable.\n", r.what)
		case d > sd:
			fmt.Fprintf(bw, "WARNING: The median and mean for %s are not within a normal deviation\n"+
				"        These results are probably not that reliable.\n", r.what)
		}
	}
	fmt.Fprintf(bw, "\nPercentage of the requests served within a certain time (ms)\n")
	for i, v := range t.Percentiles(abPercs) {
		fmt.Fprintf(bw, "%4s%%  %9s\n", strconv.FormatFloat(abPercs[i], 'f', -1, 64), fixed(v, 2))
	}
	fmt.Fprintf(bw, "%4s%%  %9d (longest request)\n", "100", t.Max())
}
