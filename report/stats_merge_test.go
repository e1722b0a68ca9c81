package report

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"
)

// runSamples is a made-up run of n samples: four labels, a Transaction
// Controller over two of them, redirects as sub-results, HTTP errors,
// connection failures, assertion failures and samples gojm aborted.
func runSamples(n int) []*Sample {
	r := rand.New(rand.NewPCG(7, 8))
	var out []*Sample
	at := t0
	for i := range n {
		at = at.Add(time.Duration(r.IntN(3000)) * time.Microsecond)
		elapsed := time.Duration(r.ExpFloat64()*40*float64(time.Millisecond)) + 300*time.Microsecond
		s := &Sample{Start: at, Elapsed: elapsed, Latency: elapsed / 2, Connect: time.Duration(i%3) * time.Millisecond,
			Label: []string{"home", "search", "login", "static"}[i%4], Code: "200", Message: "OK", Success: true,
			Bytes: int64(500 + r.IntN(2000)), SentBytes: 120, AllThreads: 1 + i%7, GrpThreads: 1 + i%7,
			ThreadName: "Users 1-1", URL: fmt.Sprintf("http://127.0.0.1:8080/%d", i%4)}
		switch {
		case i%29 == 0:
			s.Code, s.Message, s.Success = "500", "Internal Server Error", false
		case i%37 == 0:
			s.Code, s.Message, s.Success = "Non HTTP response code: org.apache.http.conn.HttpHostConnectException",
				"Non HTTP response message: Connect to 127.0.0.1:1 [/127.0.0.1] failed: Connection refused", false
		case i%41 == 0:
			s.Success, s.FailureMessage = false, "Test failed: text expected to contain /ok/"
		case i%97 == 0:
			s.Code, s.Message, s.Success = "Non HTTP response code: java.net.SocketException", AbortedMessage+": second Ctrl-C", false
		}
		if s.Label == "login" {
			s.Sub = []*Sample{
				{Start: at, Elapsed: elapsed / 3, Label: "login-0", Code: "302", Message: "Found", Success: true, Bytes: 200},
				{Start: at.Add(elapsed / 3), Elapsed: elapsed - elapsed/3, Label: "login-1", Code: s.Code, Message: s.Message,
					Success: s.Success, Bytes: s.Bytes - 200},
			}
		}
		out = append(out, s)
		if i%4 == 2 { // a transaction over search and login
			prev := out[len(out)-2]
			tx := &Sample{Start: prev.Start, Elapsed: s.End().Sub(prev.Start), Label: "Checkout", Transaction: true,
				Message: "Number of samples in transaction : 2, number of failing samples : 0", Success: prev.Success && s.Success,
				Bytes: prev.Bytes + s.Bytes}
			out = append(out, tx)
		}
	}
	return out
}

// The statistics of a run cut into segments, each counted apart, written
// and read back, then merged, are the run's statistics: the same
// statistics.json and end report, byte for byte.
func TestStatsMergeSegments(t *testing.T) {
	samples := runSamples(20000)
	opt := StatsOptions{SubResults: true}
	whole := NewStats(opt)
	for _, s := range samples {
		whole.Add(s)
	}
	whole.SetInterrupted(Interruption{Signal: "SIGINT", After: 13 * time.Second})
	for _, segments := range []int{1, 2, 3, 7} {
		t.Run(fmt.Sprint(segments), func(t *testing.T) {
			var merged *Stats
			for k := range segments {
				part := NewStats(opt)
				for _, s := range samples[k*len(samples)/segments : (k+1)*len(samples)/segments] {
					part.Add(s)
				}
				if k == segments-1 {
					part.SetInterrupted(Interruption{Signal: "SIGINT", After: 13 * time.Second})
				}
				var state bytes.Buffer
				if err := part.WriteState(&state); err != nil {
					t.Fatal(err)
				}
				read, err := ReadState(&state)
				if err != nil {
					t.Fatal(err)
				}
				if merged == nil {
					merged = read
					continue
				}
				if err := merged.Merge(read); err != nil {
					t.Fatal(err)
				}
			}
			for _, out := range []struct {
				name  string
				write func(*bytes.Buffer, *Stats) error
			}{
				{"statistics.json", func(b *bytes.Buffer, st *Stats) error { return WriteStatisticsJSON(b, st) }},
				{"end report", func(b *bytes.Buffer, st *Stats) error { return WriteEndReport(b, st, ABInfo{}) }},
			} {
				var want, got bytes.Buffer
				if err := out.write(&want, whole); err != nil {
					t.Fatal(err)
				}
				if err := out.write(&got, merged); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Errorf("%s of the merged segments differs:\n%s\nwant:\n%s", out.name, got.String(), want.String())
				}
			}
		})
	}
}

func TestStatsMergeRefusesOtherOptions(t *testing.T) {
	if err := NewStats(StatsOptions{}).Merge(NewStats(StatsOptions{SubResults: true})); err == nil {
		t.Error("merged statistics counted by different rules")
	}
}

func TestReadStateRefusesBadInput(t *testing.T) {
	for _, in := range []string{"", "{", `{"version":2}`,
		`{"version":1,"labels":[{"label":"a","count":2,"elapsedMs":[[5,1]]}]}`,
		`{"version":1,"total":{"label":"Total","count":1,"elapsedMs":[[5,-1]]}}`} {
		if _, err := ReadState(bytes.NewBufferString(in)); err == nil {
			t.Errorf("ReadState(%q) succeeded", in)
		}
	}
}

// The statistics count a sample's sub-results as deep as the JTL writer
// writes them, so that a live run and its JTL read back agree.
func TestEachRowAsDeepAsTheJTL(t *testing.T) {
	top := &Sample{Start: t0, Elapsed: ms(5), Label: "level 0", Code: "200", Success: true}
	for s, i := top, 1; i <= maxSubDepth+5; i++ {
		sub := &Sample{Start: t0, Elapsed: ms(1), Label: fmt.Sprintf("level %d", i), Code: "200", Success: true}
		s.Sub = []*Sample{sub}
		s = sub
	}
	opt := StatsOptions{SubResults: true}
	live := NewStats(opt)
	live.Add(top)
	path := t.TempDir() + "/deep.jtl"
	w, err := OpenResultFile(path, DefaultSaveConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Add(top)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	read := NewStats(opt)
	if err := ReadJTL(f, path, read, ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	if live.Total().Count != read.Total().Count || live.Total().Count < maxSubDepth {
		t.Errorf("live statistics count %d rows, the JTL %d", live.Total().Count, read.Total().Count)
	}
}
