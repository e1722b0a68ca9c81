package report

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCSVWriterGolden(t *testing.T) {
	tests := []struct {
		name   string
		golden string
		vars   []string
		cfg    func(*SaveConfig)
	}{
		{name: "default columns and sample variables", golden: "default.csv", vars: fixtureVars},
		{name: "no variables", golden: "novars.csv"},
		{name: "JMeter 2.x set, tab, dates, no header", golden: "custom.tsv", cfg: func(c *SaveConfig) {
			c.FieldNames, c.SentBytes, c.IdleTime, c.ConnectTime, c.URL = false, false, false, false, false
			c.SubResults = false
			c.Delimiter = '\t'
			c.TimestampFormat = "yyyy/MM/dd HH:mm:ss.SSS"
			c.SampleCount = true
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultSaveConfig()
			if tt.cfg != nil {
				tt.cfg(&cfg)
			}
			var buf bytes.Buffer
			w, err := NewCSVWriter(&buf, cfg, tt.vars)
			if err != nil {
				t.Fatal(err)
			}
			w.loc = time.UTC
			for _, s := range fixture() {
				w.Add(s)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			golden(t, tt.golden, buf.Bytes())
		})
	}
}

func TestCSVHeader(t *testing.T) {
	var buf bytes.Buffer
	w := defaultCSV(t, &buf, nil)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want := "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage," +
		"bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect\n"
	if buf.String() != want {
		t.Errorf("header:\n got %q\nwant %q", buf.String(), want)
	}
}

// TestCSVOracle213 re-encodes a file written by JMeter 2.13 with the
// columns its header names and expects the very same bytes.
func TestCSVOracle213(t *testing.T) {
	for _, name := range []string{"out.csv", "out.xml"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "oracle213", name))
			if err != nil {
				t.Fatal(err)
			}
			var got collect
			opt := ReadOptions{VarNames: []string{"V1", "V_2"}}
			if err := ReadJTL(bytes.NewReader(data), name, &got, opt); err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			var w Sink
			if strings.HasSuffix(name, ".csv") {
				first, _, _ := strings.Cut(string(data), "\n")
				cfg, vars, ok := ParseCSVHeader(first)
				if !ok {
					t.Fatal("header not recognised")
				}
				w, err = NewCSVWriter(&buf, cfg, vars)
			} else {
				cfg := SaveConfig{Time: true, IdleTime: true, Latency: true, Timestamp: true, Success: true,
					Label: true, Code: true, Message: true, ThreadName: true, DataType: true, Bytes: true,
					ThreadCounts: true, URL: true, Assertions: true, SubResults: true}
				w, err = NewXMLWriter(&buf, cfg, opt.VarNames)
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range got.samples {
				w.Add(s)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if buf.String() != string(data) {
				t.Errorf("re-encoded:\n%s\nwant (JMeter 2.13):\n%s", buf.String(), data)
			}
		})
	}
}

// chunks records each Write, to check that rows are never split.
type chunks struct {
	writes [][]byte
	fail   error
}

func (c *chunks) Write(p []byte) (int, error) {
	if c.fail != nil {
		return 0, c.fail
	}
	c.writes = append(c.writes, append([]byte(nil), p...))
	return len(p), nil
}

func TestCSVWriterWritesWholeRows(t *testing.T) {
	var c chunks
	w := defaultCSV(t, &c, fixtureVars)
	s := fixture()[1] // the longest row, with quoted fields
	for range 20000 {
		w.Add(s)
	}
	w.Tick(time.Now())
	w.Add(s)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if len(c.writes) < 3 {
		t.Fatalf("%d writes, want the buffer to be written out several times", len(c.writes))
	}
	rows := 0
	for i, p := range c.writes {
		if p[len(p)-1] != '\n' {
			t.Fatalf("write %d ends inside a row: %q", i, p[max(0, len(p)-40):])
		}
		rows += bytes.Count(p, []byte("\n"))
	}
	// Every row holds one line end inside its quoted failure message.
	if want := 1 + 20001*2; rows != want {
		t.Errorf("%d line ends written, want %d", rows, want)
	}
}

func TestCSVWriterReportsWriteError(t *testing.T) {
	boom := errors.New("disk full")
	w := defaultCSV(t, &chunks{fail: boom}, nil)
	w.Add(fixture()[0])
	if err := w.Close(); !errors.Is(err, boom) {
		t.Fatalf("Close() = %v, want %v", err, boom)
	}
	w.Add(fixture()[0]) // ignored after an error, no panic
}

func TestOpenResultFileAppends(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "results", "run", "res.jtl")
	write := func(n int) {
		t.Helper()
		w, err := OpenResultFile(path, DefaultSaveConfig(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range fixture()[:n] {
			w.Add(s)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	write(1)
	write(2)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 1+1+3 { // header, 1 row, 2 rows of which one holds a line end
		t.Fatalf("file has %d lines, want 5:\n%s", len(lines), data)
	}
	if !strings.HasPrefix(lines[0], "timeStamp,") || strings.Count(string(data), "timeStamp,") != 1 {
		t.Errorf("want exactly one header line, first:\n%s", data)
	}

	empty := filepath.Join(dir, "empty.jtl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := OpenResultFile(empty, DefaultSaveConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(empty); !strings.HasPrefix(string(data), "timeStamp,") {
		t.Errorf("an empty file gets a header, got %q", data)
	}
}

func TestOpenResultFileFailsOnDirectory(t *testing.T) {
	dir := t.TempDir()
	if _, err := OpenResultFile(dir, DefaultSaveConfig(), nil); err == nil {
		t.Fatal("opening a directory as a JTL succeeded")
	}
}

func BenchmarkCSVWriter(b *testing.B) {
	s := fixture()[0]
	w := defaultCSV(b, io.Discard, nil)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		w.Add(s)
	}
	b.StopTimer()
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
