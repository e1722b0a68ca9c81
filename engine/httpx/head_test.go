package httpx

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

func TestHead(t *testing.T) {
	lines := "Set-Cookie: a=1\r\nset-cookie:b=2 \r\nConnection: close\r\nX-Empty:\r\n"
	for _, tc := range []struct {
		name string
		head Head
		// what Last("Set-Cookie"), Get("Connection") and Has("X-Empty") give
		last, conn string
		empty      bool
		none       bool
		m          http.Header
	}{
		{"lines", Head{lines: lines}, "b=2", "close", true, false,
			http.Header{"Set-Cookie": {"a=1", "b=2"}, "Connection": {"close"}, "X-Empty": {""}}},
		{"lines, Connection: close left out", Head{lines: lines, noConn: true}, "b=2", "", true, false,
			http.Header{"Set-Cookie": {"a=1", "b=2"}, "X-Empty": {""}}},
		{"net/http's map", HeadOf(http.Header{"Set-Cookie": {"a=1", "b=2"}}), "b=2", "", false, false,
			http.Header{"Set-Cookie": {"a=1", "b=2"}}},
		{"no header", Head{}, "", "", false, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := tc.head
			if got := h.Last("set-cookie"); got != tc.last {
				t.Errorf("Last = %q, want %q", got, tc.last)
			}
			if got := h.Get("Connection"); got != tc.conn {
				t.Errorf("Get(Connection) = %q, want %q", got, tc.conn)
			}
			if got := h.Has("x-empty"); got != tc.empty {
				t.Errorf("Has(x-empty) = %v, want %v", got, tc.empty)
			}
			if h.None() != tc.none {
				t.Errorf("None = %v, want %v", h.None(), tc.none)
			}
			if m := h.Map(); !reflect.DeepEqual(m, tc.m) {
				t.Errorf("Map = %v, want %v", m, tc.m)
			}
			kept := h                           // a copy made after Map shares its map
			h.Set("Content-Type", "text/plain") // a script's setContentType
			if got := h.Get("content-type"); got != "text/plain" || h.None() {
				t.Errorf("after Set: Get = %q, None = %v", got, h.None())
			}
			if m := kept.Map(); !reflect.DeepEqual(m, tc.m) {
				t.Errorf("the copy's Map after Set = %v, want %v", m, tc.m)
			}
			h.Set("X-Second", "2") // later Sets edit the head's own map
			if got := h.Get("content-type") + h.Get("x-second"); got != "text/plain2" {
				t.Errorf("after a second Set: %q", got)
			}
		})
	}
}

// BenchmarkHeadText is the header text of nginx's response head as the
// transport keeps it, as a Regular Expression Extractor on the headers
// reads it once per sample.
func BenchmarkHeadText(b *testing.B) {
	lines := "Server: nginx/1.22.1\r\nDate: Mon, 30 Nov 2026 00:00:00 GMT\r\nContent-Type: application/json\r\n" +
		"Content-Length: 1517\r\nConnection: keep-alive\r\nSet-Cookie: SESSION=8F2A1C9D3E4B5F60; Path=/; HttpOnly\r\n" +
		"Cache-Control: no-store\r\n"
	b.ReportAllocs()
	for b.Loop() {
		h := Head{lines: lines}
		if len(h.Text()) != len(lines)-7 {
			b.Fatal(h.Text())
		}
	}
}

// Block is the status line and Text, made once and shared by every reader
// of the sample until the head or the status line asked for changes.
func TestHeadBlock(t *testing.T) {
	lines := "Server: nginx\r\nset-cookie:  a=1 \r\nConnection: close\r\n"
	for _, tc := range []struct {
		name                string
		head                Head
		proto, code, msg    string
		want                string
		afterSet, afterCode string // after Set("X-New", "1"); after asking with code "404"
	}{
		{"lines as they came, spaces around values dropped", Head{lines: lines, noConn: true}, "HTTP/1.1", "200", "OK",
			"HTTP/1.1 200 OK\nServer: nginx\nset-cookie: a=1\nConnection: close\n",
			"HTTP/1.1 200 OK\nServer: nginx\nSet-Cookie: a=1\nX-New: 1\n", // the map leaves out Connection: close
			"HTTP/1.1 404 OK\nServer: nginx\nset-cookie: a=1\nConnection: close\n"},
		{"net/http's map, sorted by name", HeadOf(http.Header{"B": {"2", "3"}, "A": {"1"}}), "HTTP/1.0", "200", "",
			"HTTP/1.0 200\nA: 1\nB: 2\nB: 3\n",
			"HTTP/1.0 200\nA: 1\nB: 2\nB: 3\nX-New: 1\n",
			"HTTP/1.0 404\nA: 1\nB: 2\nB: 3\n"},
		{"no header", Head{}, "HTTP/1.1", "204", "No Content",
			"HTTP/1.1 204 No Content\n",
			"HTTP/1.1 204 No Content\nX-New: 1\n",
			"HTTP/1.1 404 No Content\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := tc.head
			if got := h.Block(tc.proto, tc.code, tc.msg); got != tc.want {
				t.Errorf("Block = %q, want %q", got, tc.want)
			}
			if got := h.Text(); got != tc.want[strings.Index(tc.want, "\n")+1:] {
				t.Errorf("Text = %q", got)
			}
			first := h.Block(tc.proto, tc.code, tc.msg)
			if n := testing.AllocsPerRun(10, func() { h.Block(tc.proto, tc.code, tc.msg) }); n != 0 {
				t.Errorf("a second Block allocates %v times", n)
			}
			if again := h.Block(tc.proto, tc.code, tc.msg); unsafe.StringData(again) != unsafe.StringData(first) {
				t.Error("a second Block made a new string")
			}
			// a status line that only looks the same is not the same
			if got := h.Block(tc.proto, tc.code+" "+tc.msg, ""); tc.msg != "" && got != tc.want {
				t.Errorf("Block with the message in the code = %q", got)
			}
			for range 2 { // a message with a line end in it is made again each time
				if got := h.Block(tc.proto, tc.code, tc.msg+"\nX"); got != tc.proto+" "+tc.code+" "+tc.msg+"\nX\n"+h.Text() {
					t.Errorf("Block with another message = %q", got)
				}
			}
			if got := h.Block(tc.proto, "404", tc.msg); got != tc.afterCode {
				t.Errorf("Block with another code = %q, want %q", got, tc.afterCode)
			}
			kept := h
			h.Set("X-New", "1")
			if got := h.Block(tc.proto, tc.code, tc.msg); got != tc.afterSet {
				t.Errorf("Block after Set = %q, want %q", got, tc.afterSet)
			}
			if got := kept.Block(tc.proto, "404", tc.msg); got != tc.afterCode {
				t.Errorf("the copy's Block after Set = %q, want %q", got, tc.afterCode)
			}
		})
	}
}
