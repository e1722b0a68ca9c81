package report

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"net/url"
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
var abPercs = []int{50, 66, 75, 80, 90, 95, 98, 99, 100}

// WriteABReport writes st's Total in the layout of ApacheBench (ab 2.3)'s
// report: server and document from the first sample's URL, Concurrency
// Level (the largest allThreads seen), Time taken for tests (first start to
// last end), Complete and Failed requests, Non-2xx responses, Total
// transferred, the rates, the Connection Times table (Connect, Processing =
// elapsed − connect, Waiting = latency, Total = elapsed; min, mean, sample
// standard deviation, median and max with ab's rounding, median rule and
// sanity warnings) and the percentage table. Transaction samples are not
// requests and are not counted.
func WriteABReport(w io.Writer, st *Stats, info ABInfo) error {
	bw := bufio.NewWriter(w)
	t := st.Total()
	if info.ServerSoftware != "" {
		fmt.Fprintf(bw, "Server Software:        %s\n", info.ServerSoftware)
	}
	if u, err := url.Parse(st.firstURL); err == nil && st.firstURL != "" && u.Host != "" {
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
	conc := info.Concurrency
	if conc <= 0 {
		conc = max(st.maxThreads, 1)
	}
	done := t.Count
	taken := float64(t.Duration()) / 1000
	if done == 0 {
		taken = 0
	}
	fmt.Fprintf(bw, "Concurrency Level:      %d\n", conc)
	fmt.Fprintf(bw, "Time taken for tests:   %.3f seconds\n", taken)
	fmt.Fprintf(bw, "Complete requests:      %d\n", done)
	fmt.Fprintf(bw, "Failed requests:        %d\n", t.Errors)
	if t.Aborted > 0 {
		fmt.Fprintf(bw, "   (aborted by gojm: %d)\n", t.Aborted)
	}
	if st.non2xx > 0 {
		fmt.Fprintf(bw, "Non-2xx responses:      %d\n", st.non2xx)
	}
	fmt.Fprintf(bw, "Total transferred:      %d bytes\n", t.Bytes)
	if info.HTMLTransferred > 0 {
		fmt.Fprintf(bw, "HTML transferred:       %d bytes\n", info.HTMLTransferred)
	}
	if taken > 0 && done > 0 {
		fmt.Fprintf(bw, "Requests per second:    %.2f [#/sec] (mean)\n", float64(done)/taken)
		fmt.Fprintf(bw, "Time per request:       %.3f [ms] (mean)\n", float64(conc)*taken*1000/float64(done))
		fmt.Fprintf(bw, "Time per request:       %.3f [ms] (mean, across all concurrent requests)\n", taken*1000/float64(done))
		fmt.Fprintf(bw, "Transfer rate:          %.2f [Kbytes/sec] received\n", float64(t.Bytes)/1024/taken)
	}
	if done > 0 {
		rows := []struct {
			name, what string
			h          *msHist
		}{
			{"Connect:    ", "the initial connection time", &st.connect},
			{"Processing: ", "the processing time", &st.processing},
			{"Waiting:    ", "the waiting time", &st.latency},
			{"Total:      ", "the total time", &t.elapsed},
		}
		fmt.Fprintf(bw, "\nConnection Times (ms)\n")
		fmt.Fprintf(bw, "              min  mean[+/-sd] median   max\n")
		cols := make([]abColumn, len(rows))
		for i, r := range rows {
			cols[i] = abStats(r.h)
			c := cols[i]
			fmt.Fprintf(bw, "%s%5d %4d %5.1f %6d %7d\n", r.name, c.min, c.mean, c.sd, c.median, c.max)
		}
		for i, r := range rows {
			c := cols[i]
			d := math.Abs(float64(c.mean - c.median))
			switch {
			case d > 2*c.sd:
				fmt.Fprintf(bw, "ERROR: The median and mean for %s are more than twice the standard\n"+
					"       deviation apart. These results are NOT reliable.\n", r.what)
			case d > c.sd:
				fmt.Fprintf(bw, "WARNING: The median and mean for %s are not within a normal deviation\n"+
					"        These results are probably not that reliable.\n", r.what)
			}
		}
		fmt.Fprintf(bw, "\nPercentage of the requests served within a certain time (ms)\n")
		n := uint64(done)
		for _, p := range abPercs {
			if p >= 100 {
				fmt.Fprintf(bw, " 100%%  %5d (longest request)\n", t.elapsed.max)
				continue
			}
			// ab: stats[done*p/100] of the times sorted, 0-based.
			fmt.Fprintf(bw, "  %d%%  %5d\n", p, t.elapsed.ValueAt(n*uint64(p)/100+1))
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("ab report: %w", err)
	}
	return nil
}

// abColumn is one row of ab's Connection Times table, in ms.
type abColumn struct {
	min, mean, median, max int64
	sd                     float64
}

// abStats computes a row as ab does from microsecond times: the mean is
// truncated to µs then rounded to ms, the deviation is the sample standard
// deviation around that mean, and the median of an odd count above one is
// the mean of the elements at n/2 and n/2+1 (0-based) of the sorted times.
func abStats(h *msHist) abColumn {
	n := int64(h.Count())
	if n == 0 {
		return abColumn{}
	}
	meanUs := h.sum * 1000 / n
	var ss float64
	h.each(func(v int64, c uint64) bool {
		d := float64(v*1000 - meanUs)
		ss += d * d * float64(c)
		return true
	})
	sd := 0.0
	if n > 1 {
		sd = math.Sqrt(ss/float64(n-1)) / 1000
	}
	var medUs int64
	k := uint64(n/2) + 1 // 1-based rank of stats[n/2]
	if n > 1 && n%2 == 1 {
		medUs = (h.ValueAt(k) + h.ValueAt(k+1)) * 1000 / 2
	} else {
		medUs = h.ValueAt(k) * 1000
	}
	return abColumn{
		min:    h.min,
		mean:   (meanUs + 500) / 1000,
		median: (medUs + 500) / 1000,
		max:    h.max,
		sd:     sd,
	}
}
