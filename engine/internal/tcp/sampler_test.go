package tcp

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/hex"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/elementtest"
	"github.com/gojm/gojm/jmx"
)

// server is a TCP server on the loopback that runs handle on each
// connection it accepts, and counts them.
type server struct {
	port    string
	accepts atomic.Int32
}

func serve(t *testing.T, handle func(c net.Conn)) *server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	s := &server{}
	_, s.port, _ = net.SplitHostPort(ln.Addr().String())
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.accepts.Add(1)
			go func() {
				defer c.Close()
				handle(c)
			}()
		}
	}()
	return s
}

// lines answers each line it reads with "echo:" and the line, newline
// included; "quiet" gets no answer, "bye" an answer without a newline and
// the connection closed, "status" a status field.
func lines(c net.Conn) {
	r := bufio.NewReader(c)
	for {
		l, err := r.ReadString('\n')
		if err != nil {
			return
		}
		switch strings.TrimSpace(l) {
		case "quiet":
			continue
		case "bye":
			c.Write([]byte("see you"))
			return
		case "status":
			c.Write([]byte("head [rc=404] tail\n"))
			continue
		case "badstatus":
			c.Write([]byte("head [rc=x4] tail\n"))
			continue
		}
		c.Write([]byte("echo:" + l))
	}
}

// prefixed answers each length-prefixed message (2 bytes) with the message
// reversed; a message "ff" gets a negative length, "fe" a length of 4 and
// two bytes.
func prefixed(c net.Conn) {
	for {
		var n uint16
		if binary.Read(c, binary.BigEndian, &n) != nil {
			return
		}
		msg := make([]byte, n)
		if _, err := io.ReadFull(c, msg); err != nil {
			return
		}
		switch {
		case n == 1 && msg[0] == 0xff:
			c.Write([]byte{0xff, 0xfe})
			continue
		case n == 1 && msg[0] == 0xfe:
			c.Write([]byte{0, 4, 1, 2})
			return
		}
		for i, j := 0, len(msg)-1; i < j; i, j = i+1, j-1 {
			msg[i], msg[j] = msg[j], msg[i]
		}
		binary.Write(c, binary.BigEndian, n)
		c.Write(msg)
	}
}

// sampler builds a TCP Sampler from name/value pairs.
func build(t *testing.T, props map[string]string, configs []*jmx.Element, kv ...string) (*elementtest.Builder, element.Sampler) {
	t.Helper()
	b := elementtest.New(props, "", t.TempDir())
	s, err := Build(b, elementtest.El("TCPSampler", kv...), element.InScope{Configs: configs})
	if err != nil || len(b.Errs) > 0 {
		t.Fatal(err, b.Errs)
	}
	return b, s
}

type outcome struct {
	code, message, body, dataType string
	success                       bool
}

func sampleOnce(s element.Sampler, vu *element.VU) (outcome, *element.Result) {
	r := &element.Result{}
	s.Sample(vu, r)
	return outcome{r.Code, r.Message, string(r.Body), r.DataType, r.Success}, r
}

const (
	text     = "TCPClientImpl"
	bin      = "org.apache.jmeter.protocol.tcp.sampler.BinaryTCPClientImpl"
	lenPrefx = "LengthPrefixedBinaryTCPClientImpl"
)

// Each client against a real server, with JMeter's codes and messages.
func TestClients(t *testing.T) {
	echo := serve(t, lines)
	pre := serve(t, prefixed)
	closed := func() string { // a port nobody listens on
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		_, p, _ := net.SplitHostPort(ln.Addr().String())
		ln.Close()
		return p
	}()
	for _, tt := range []struct {
		name  string
		props map[string]string
		kv    []string
		want  outcome
	}{
		{"text with EOL", nil, []string{"TCPSampler.classname", text, "TCPSampler.port", echo.port, "TCPSampler.EolByte", "10",
			"TCPSampler.request", "hello\n"}, outcome{"200", "OK", "echo:hello\n", "text", true}},
		{"text to the end of the stream", nil, []string{"TCPSampler.port", echo.port, "TCPSampler.request", "bye\n"},
			outcome{"200", "OK", "see you", "text", true}},
		{"text EOL from tcp.eolByte", map[string]string{"tcp.eolByte": "10"}, []string{"TCPSampler.port", echo.port,
			"TCPSampler.request", "hi\n"}, outcome{"200", "OK", "echo:hi\n", "text", true}},
		{"text timeout", nil, []string{"TCPSampler.port", echo.port, "TCPSampler.timeout", "50", "TCPSampler.EolByte", "10",
			"TCPSampler.request", "quiet\n"},
			outcome{"500", readException + ": Error reading from server, bytes read: 0", "", "text", false}},
		{"text in ISO-8859-1", map[string]string{"tcp.charset": "ISO-8859-1"}, []string{"TCPSampler.port", echo.port,
			"TCPSampler.EolByte", "10", "TCPSampler.request", "é€\n"}, outcome{"200", "OK", "echo:é?\n", "text", true}},
		{"text in an unknown charset", map[string]string{"tcp.charset": "NoSuchSet"}, []string{"TCPSampler.port", echo.port,
			"TCPSampler.request", "x\n"}, outcome{"500", "java.io.UnsupportedEncodingException: NoSuchSet", "", "text", false}},
		{"binary with EOM", nil, []string{"TCPSampler.classname", bin, "TCPSampler.port", echo.port, "TCPSampler.EolByte", "10",
			"TCPSampler.request", "68690A"}, outcome{"200", "OK", "6563686f3a68690a", "text", true}},
		{"binary EOM from its property", map[string]string{"tcp.BinaryTCPClient.eomByte": "10"}, []string{"TCPSampler.classname", bin,
			"TCPSampler.port", echo.port, "TCPSampler.request", "68690a"}, outcome{"200", "OK", "6563686f3a68690a", "text", true}},
		{"binary timeout looking for EOM", nil, []string{"TCPSampler.classname", bin, "TCPSampler.port", echo.port,
			"TCPSampler.EolByte", "0", "TCPSampler.timeout", "50", "TCPSampler.request", "68690a"},
			outcome{"500", readException + ": ", "6563686f3a68690a", "text", false}},
		{"binary timeout without EOM", nil, []string{"TCPSampler.classname", bin, "TCPSampler.port", echo.port,
			"TCPSampler.timeout", "50", "TCPSampler.request", "68690a"}, outcome{"500", readException + ": ", "6563686f3a68690a", "text", false}},
		{"binary odd digits", nil, []string{"TCPSampler.classname", bin, "TCPSampler.port", echo.port, "TCPSampler.request", "686"},
			outcome{"500", "java.lang.IllegalArgumentException: Hex-encoded binary string contains an uneven no. of digits", "", "text", false}},
		{"binary bad digit", nil, []string{"TCPSampler.classname", bin, "TCPSampler.port", echo.port, "TCPSampler.request", "68zz"},
			outcome{"500", "java.lang.IllegalArgumentException: Hex-encoded binary string contains an invalid hex digit in 'zz'", "", "text", false}},
		{"length-prefixed", nil, []string{"TCPSampler.classname", lenPrefx, "TCPSampler.port", pre.port, "TCPSampler.request", "010203"},
			outcome{"200", "OK", "030201", "text", true}},
		{"length-prefixed ignores an EOL byte", nil, []string{"TCPSampler.classname", lenPrefx, "TCPSampler.port", pre.port,
			"TCPSampler.EolByte", "2", "TCPSampler.request", "0102"}, outcome{"200", "OK", "0201", "text", true}},
		{"length-prefixed negative length", nil, []string{"TCPSampler.classname", lenPrefx, "TCPSampler.port", pre.port,
			"TCPSampler.request", "ff"}, outcome{"500", "java.lang.NegativeArraySizeException: -2", "", "text", false}},
		{"length-prefixed short message", nil, []string{"TCPSampler.classname", lenPrefx, "TCPSampler.port", pre.port,
			"TCPSampler.request", "fe"}, outcome{"200", "OK", "01020000", "text", true}},
		{"length-prefixed 4-byte prefix too short for 2", map[string]string{"tcp.binarylength.prefix.length": "3"},
			[]string{"TCPSampler.classname", lenPrefx, "TCPSampler.port", pre.port, "TCPSampler.request", "01"},
			outcome{"500", "java.lang.IllegalArgumentException: Length must be specified as either 2 or 4.", "", "text", false}},
		{"connection refused", nil, []string{"TCPSampler.port", closed, "TCPSampler.request", "x"},
			outcome{"500", "java.net.ConnectException: Connection refused", "", "", false}},
		{"unknown host", nil, []string{"TCPSampler.server", "localhostXXXX", "TCPSampler.port", "2222", "TCPSampler.ctimeout", "5000"},
			outcome{"500", "java.net.UnknownHostException: localhostXXXX", "", "", false}},
		{"port out of range", nil, []string{"TCPSampler.port", "70000"},
			outcome{"500", "java.lang.IllegalArgumentException: port out of range:70000", "", "text", false}},
		{"negative timeout", nil, []string{"TCPSampler.port", echo.port, "TCPSampler.timeout", "-1"},
			outcome{"500", "java.lang.IllegalArgumentException: timeout can't be negative", "", "text", false}},
		{"unknown client class", nil, []string{"TCPSampler.classname", "org.foo.xxx", "TCPSampler.port", echo.port},
			outcome{"500", "Protocol handler not found", "", "", false}},
		{"status found", map[string]string{"tcp.status.prefix": "[rc=", "tcp.status.suffix": "]"}, []string{"TCPSampler.port", echo.port,
			"TCPSampler.EolByte", "10", "TCPSampler.request", "status\n"}, outcome{"404", "No status property file", "head [rc=404] tail\n", "text", true}},
		{"status not found", map[string]string{"tcp.status.prefix": "[rc=", "tcp.status.suffix": "]"}, []string{"TCPSampler.port", echo.port,
			"TCPSampler.EolByte", "10", "TCPSampler.request", "x\n"}, outcome{"999", "Status value not found", "echo:x\n", "text", false}},
		{"status not a number", map[string]string{"tcp.status.prefix": "[rc=", "tcp.status.suffix": "]"}, []string{"TCPSampler.port", echo.port,
			"TCPSampler.EolByte", "10", "TCPSampler.request", "badstatus\n"},
			outcome{"500", `java.lang.NumberFormatException: For input string: "x4"`, "", "text", false}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			kv := tt.kv
			if kv[0] != "TCPSampler.server" {
				kv = append([]string{"TCPSampler.server", "127.0.0.1"}, kv...)
			}
			b, s := build(t, tt.props, nil, kv...)
			vu := b.VU(1)
			defer vu.End()
			got, r := sampleOnce(s, vu)
			if got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
			if r.Elapsed < r.Latency || r.Latency < 0 || r.Start.IsZero() {
				t.Errorf("start %v, elapsed %v, latency %v", r.Start, r.Elapsed, r.Latency)
			}
		})
	}
}

// The status message comes from tcp.status.properties when it is given.
func TestStatusProperties(t *testing.T) {
	echo := serve(t, lines)
	file := filepath.Join(t.TempDir(), "status.properties")
	if err := os.WriteFile(file, []byte("404=Not here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	props := map[string]string{"tcp.status.prefix": "[rc=", "tcp.status.suffix": "]", "tcp.status.properties": file}
	b, s := build(t, props, nil, "TCPSampler.server", "127.0.0.1", "TCPSampler.port", echo.port, "TCPSampler.EolByte", "10",
		"TCPSampler.request", "status\n")
	vu := b.VU(1)
	defer vu.End()
	if got, _ := sampleOnce(s, vu); got.code != "404" || got.message != "Not here" {
		t.Errorf("got %+v", got)
	}
}

// A user keeps its connection from one sample to the next unless the
// sampler does not reuse it or closes it; a failed read closes it; users
// have connections of their own; the end of a user closes them.
func TestConnections(t *testing.T) {
	for _, tt := range []struct {
		name    string
		kv      []string
		reqs    []string
		users   int
		accepts int32
	}{
		{"reused", nil, []string{"a\n", "b\n", "c\n"}, 1, 1},
		{"not reused", []string{"TCPSampler.reUseConnection", "false"}, []string{"a\n", "b\n"}, 1, 2},
		{"closed after each", []string{"TCPSampler.closeConnection", "true"}, []string{"a\n", "b\n"}, 1, 2},
		{"closed after a failure", []string{"TCPSampler.timeout", "50"}, []string{"quiet\n", "a\n"}, 1, 2},
		{"one per user", nil, []string{"a\n", "b\n"}, 2, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := serve(t, lines)
			kv := append([]string{"TCPSampler.server", "127.0.0.1", "TCPSampler.port", srv.port, "TCPSampler.EolByte", "10",
				"TCPSampler.request", "${req}"}, tt.kv...)
			b, s := build(t, nil, nil, kv...)
			for u := 1; u <= tt.users; u++ {
				vu := b.VU(u)
				for _, req := range tt.reqs {
					vu.Vars.Put("req", req)
					got, _ := sampleOnce(s, vu)
					if req != "quiet\n" && got.body != "echo:"+req {
						t.Errorf("user %d, %q: %+v", u, req, got)
					}
				}
				vu.End()
			}
			if n := srv.accepts.Load(); n != tt.accepts {
				t.Errorf("%d connections, want %d", n, tt.accepts)
			}
		})
	}
}

// A TCP Sampler Config in scope fills the sampler's empty fields; a Login
// Config gives the user name, which keeps connections apart; other
// configs (an HTTP Request Defaults) give nothing.
func TestConfigs(t *testing.T) {
	srv := serve(t, lines)
	cfg := elementtest.El("ConfigTestElement", "TCPSampler.server", "127.0.0.1", "TCPSampler.port", srv.port,
		"TCPSampler.EolByte", "10", "TCPSampler.reUseConnection", "false")
	cfg.GUIClass = "org.apache.jmeter.protocol.tcp.config.gui.TCPConfigGui"
	http := elementtest.El("ConfigTestElement", "TCPSampler.request", "from http\n")
	http.GUIClass = "HttpDefaultsGui"
	login := elementtest.El("ConfigTestElement", "ConfigTestElement.username", "${u}")
	login.GUIClass = "LoginConfigGui"
	b, s := build(t, nil, []*jmx.Element{login, http, cfg}, "TCPSampler.server", "", "TCPSampler.request", "hi\n",
		"TCPSampler.reUseConnection", "true")
	vu := b.VU(1)
	defer vu.End()
	for _, u := range []string{"ann", "ann", "bob"} {
		vu.Vars.Put("u", u)
		if got, _ := sampleOnce(s, vu); got.body != "echo:hi\n" {
			t.Fatalf("%+v", got)
		}
	}
	if n := srv.accepts.Load(); n != 2 {
		t.Errorf("%d connections, want 2 (reused per user name)", n)
	}
}

// A client class from a variable is fixed by each user's first sample, as
// JMeter makes its protocol handler once per thread.
func TestClassFromVariable(t *testing.T) {
	srv := serve(t, lines)
	b, s := build(t, nil, nil, "TCPSampler.server", "127.0.0.1", "TCPSampler.port", srv.port, "TCPSampler.EolByte", "10",
		"TCPSampler.classname", "${class}", "TCPSampler.request", "${req}")
	vu := b.VU(1)
	defer vu.End()
	vu.Vars.Put("class", bin)
	vu.Vars.Put("req", "610a")
	if got, _ := sampleOnce(s, vu); got.body != "6563686f3a610a" {
		t.Fatalf("%+v", got)
	}
	vu.Vars.Put("class", text)
	if got, _ := sampleOnce(s, vu); got.body != "6563686f3a610a" {
		t.Errorf("the second sample changed client: %+v", got)
	}
}

// The sampler data is the request, or, when nothing was sent, JMeter's
// summary of the connection.
func TestSamplerData(t *testing.T) {
	b, s := build(t, nil, nil, "TCPSampler.server", "127.0.0.1", "TCPSampler.port", "-5", "TCPSampler.EolByte", "10",
		"TCPSampler.soLinger", "3")
	vu := b.VU(1)
	defer vu.End()
	_, r := sampleOnce(s, vu)
	want := "Host: 127.0.0.1 Port: -5\nReuse: true Close: false\n[SOLINGER: 3 EOL: 10 noDelay: false]"
	if r.SamplerData != want {
		t.Errorf("sampler data %q, want %q", r.SamplerData, want)
	}
}

func TestJavaInt(t *testing.T) {
	for in, want := range map[string]int{"": 7, "12": 12, "+3": 3, "-4": -4, " 5": 0, "x": 0, "99999999999": 0} {
		if got := javaInt(in, 7); got != want {
			t.Errorf("javaInt(%q) = %d, want %d", in, got, want)
		}
	}
	for _, tt := range []struct {
		v, size int
		want    string
	}{{3, 2, "0003"}, {-2, 2, "fffe"}, {65536, 4, "00010000"}, {-1, 4, "ffffffff"}} {
		b, err := lengthPrefix(tt.v, tt.size)
		if err != nil || hex.EncodeToString(b) != tt.want {
			t.Errorf("lengthPrefix(%d, %d) = %x, %v; want %s", tt.v, tt.size, b, err, tt.want)
		}
		if got := signedInt(b); got != tt.v {
			t.Errorf("signedInt(%x) = %d, want %d", b, got, tt.v)
		}
	}
	if _, err := lengthPrefix(40000, 2); err == nil || err.Error() != "java.lang.IllegalArgumentException: Value outside range for signed short int." {
		t.Errorf("a length over a short: %v", err)
	}
}

// A run stopped now closes the socket a user is reading, as JMeter's
// interrupt does: the sample ends with the read's failure.
func TestHardStop(t *testing.T) {
	got := make(chan struct{})
	srv := serve(t, func(c net.Conn) {
		bufio.NewReader(c).ReadString('\n')
		close(got)
		io.Copy(io.Discard, c)
	})
	b, s := build(t, nil, nil, "TCPSampler.server", "127.0.0.1", "TCPSampler.port", srv.port, "TCPSampler.request", "wait\n")
	hard, stop := context.WithCancel(context.Background())
	defer stop()
	g := element.NewGroup(b.Plan())
	vu := element.NewVU(b.Plan(), g, b.Run(), 1, "TG 1-1", context.Background(), hard)
	defer vu.End()
	go func() { <-got; stop() }()
	if o, _ := sampleOnce(s, vu); o.code != "500" || o.message != readException+": Error reading from server, bytes read: 0" {
		t.Errorf("%+v", o)
	}
}

// One text exchange on a kept connection: what a TCP sample costs beyond
// the loopback round trip.
func BenchmarkTCPSample(b *testing.B) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { defer c.Close(); lines(c) }()
		}
	}()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	bld := elementtest.New(nil, "", b.TempDir())
	s, err := Build(bld, elementtest.El("TCPSampler", "TCPSampler.server", "127.0.0.1", "TCPSampler.port", port,
		"TCPSampler.EolByte", "10", "TCPSampler.request", "ping\n"), element.InScope{})
	if err != nil {
		b.Fatal(err)
	}
	vu := bld.VU(1)
	defer vu.End()
	var r element.Result
	b.ReportAllocs()
	for b.Loop() {
		r.Reset()
		s.Sample(vu, &r)
		if !r.Success {
			b.Fatal(r.Message)
		}
	}
}
