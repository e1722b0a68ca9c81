package target

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Clients on their own keep-alive connections send requests concurrently:
// every request is counted once, the log is in arrival order, each client's
// requests keep their order and share one connection id.
func TestRecorderConcurrent(t *testing.T) {
	const clients, each = 8, 50
	s := start(t, Options{})
	var wg sync.WaitGroup
	for c := range clients {
		conn := dial(t, hostPort(s))
		wg.Go(func() {
			for i := range each {
				req := fmt.Sprintf("POST /c%d HTTP/1.1\r\nHost: h\r\nx-client: %d\r\nX-Seq: %d\r\nContent-Length: 1\r\n\r\n%d", c, c, i, i%10)
				if _, err := conn.Write([]byte(req)); err != nil {
					t.Error(err)
					return
				}
				resp, err := http.ReadResponse(conn.br, nil)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
			}
		})
	}
	wg.Wait()

	reqs := s.Requests()
	if s.Count() != clients*each || len(reqs) != clients*each {
		t.Fatalf("Count %d, %d recorded; want %d", s.Count(), len(reqs), clients*each)
	}
	next := make([]int, clients)
	conns := make([]uint64, clients)
	for i, r := range reqs {
		if r.Seq != int64(i+1) {
			t.Fatalf("request %d has Seq %d", i, r.Seq)
		}
		if len(r.Headers) != 4 || r.Headers[1].Name != "x-client" || r.Headers[2].Name != "X-Seq" {
			t.Fatalf("request %d headers %+v", i, r.Headers)
		}
		c, _ := strconv.Atoi(r.Headers[1].Value)
		seq, _ := strconv.Atoi(r.Headers[2].Value)
		if seq != next[c] {
			t.Errorf("client %d: request %d arrived when %d was due", c, seq, next[c])
		}
		next[c]++
		if conns[c] == 0 {
			conns[c] = r.Conn
		} else if r.Conn != conns[c] {
			t.Errorf("client %d: connection id %d, earlier %d", c, r.Conn, conns[c])
		}
		if want := strconv.Itoa(seq % 10); r.Body != want || r.BodySize != 1 {
			t.Errorf("client %d request %d: body %q (%d bytes), want %q", c, seq, r.Body, r.BodySize, want)
		}
	}
}

// A body larger than MaxBody is counted whole and kept in part, also when
// the handler never reads it.
func TestRecorderBody(t *testing.T) {
	s := start(t, Options{MaxBody: 10})
	client := newClient(t)
	body := strings.Repeat("0123456789", 300_000) // 3 MB
	for _, path := range []string{"/mirror/x", "/fast", "/status/200"} {
		resp, err := client.Post(s.URL()+path, "text/plain", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	for _, r := range s.Requests() {
		if r.Body != "0123456789" || r.BodySize != int64(len(body)) {
			t.Errorf("%s: kept %q, counted %d; want 10 bytes kept, %d counted", r.Target, r.Body, r.BodySize, len(body))
		}
	}
}

func TestRecorderCountOnly(t *testing.T) {
	s := start(t, Options{CountOnly: true})
	client := newClient(t)
	for range 3 {
		resp, err := client.Get(s.URL() + "/fast")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if s.Count() != 3 || len(s.Requests()) != 0 {
		t.Errorf("Count %d, %d recorded; want 3 counted, none kept", s.Count(), len(s.Requests()))
	}
}

// The JSON lines decode back to the log, one request per line.
func TestWriteJSONL(t *testing.T) {
	s := start(t, Options{})
	c := dial(t, hostPort(s))
	c.roundTrip(t, "GET /a?x=1 HTTP/1.1\r\nHost: h\r\nweird-Case: <v>\r\n\r\n")
	c.roundTrip(t, "POST /b HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nh\"i\n!")

	var buf bytes.Buffer
	if err := s.WriteJSONL(&buf); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "\n"); n != 2 {
		t.Fatalf("%d lines, want 2:\n%s", n, buf.String())
	}
	if !strings.Contains(buf.String(), `"value":"<v>"`) {
		t.Errorf("HTML characters escaped in %s", buf.String())
	}
	var got []Request
	sc := bufio.NewScanner(&buf)
	for sc.Scan() {
		var r Request
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	want := s.Requests()
	for i := range min(len(got), len(want)) {
		if !got[i].Time.Equal(want[i].Time) {
			t.Errorf("request %d: time %v, want %v", i, got[i].Time, want[i].Time)
		}
		got[i].Time = want[i].Time
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decoded\n%+v\nwant\n%+v", got, want)
	}
}

func TestParseHead(t *testing.T) {
	tests := []struct {
		head string
		want []Header
	}{
		{"GET / HTTP/1.1\r\n\r\n", nil},
		{"GET / HTTP/1.1\r\nA: 1\r\nb:2\r\nC:  spaced \t\r\n\r\n", []Header{{"A", "1"}, {"b", "2"}, {"C", "spaced"}}},
		{"GET / HTTP/1.1\nA: 1\n\n", []Header{{"A", "1"}}},
		{"GET / HTTP/1.1\r\nA: 1\r\n  folded\r\nEmpty:\r\n\r\n", []Header{{"A", "1 folded"}, {"Empty", ""}}},
	}
	for _, tt := range tests {
		if got := parseHead([]byte(tt.head)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseHead(%q) = %+v, want %+v", tt.head, got, tt.want)
		}
	}
}

func TestHeadLen(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"GET / HTTP/1.1\r\nA: 1\r\n\r\nbody", 24},
		{"GET / HTTP/1.1\r\n\r\n", 18},
		{"GET / HTTP/1.1\n\nx", 16},
		{"GET / HTTP/1.1\r\nA: 1\r\n", -1},
	}
	for _, tt := range tests {
		if got := headLen([]byte(tt.in)); got != tt.want {
			t.Errorf("headLen(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
