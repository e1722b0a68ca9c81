package engine

import (
	"database/sql"
	"encoding/xml"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gojm/gojm/engine/internal/jdbc/jdbctest"
	"github.com/gojm/gojm/jmx"
	_ "github.com/jackc/pgx/v5/stdlib"
)

// The JDBC goldens: testdata/jdbc/jmeter213.xml is what real JMeter 2.13
// wrote for testdata/jdbc/postgres.jmx (written by genplan.py) against a
// PostgreSQL holding setup.sql, recorded by testdata/jdbc/jmeter213.sh
// when this test runs with -record-jdbc.
var recordJDBC = flag.Bool("record-jdbc", false, "re-record testdata/jdbc/jmeter213.xml with JMeter 2.13 against a real PostgreSQL")

// jdbcVars are the variables the JDBC samples set, saved with each sample.
const jdbcVars = "id_1,id_2,id_#,name_1,name_2,name_#,w_1,w_2,pname_1,pname_#,up"

// jdbcSample is one sample as the comparison sees it.
type jdbcSample struct {
	Label, Code, Message, Thread, DataType, Data, SamplerData string
	Success                                                   bool
	Bytes                                                     int64
	Vars                                                      []string
}

// differs213 are the samples where JMeter 5.6, which gojm follows, does
// not do what JMeter 2.13 did: what gojm must write instead.
var differs213 = map[string]func(s *jdbcSample){
	// 5.6 reads an INTEGER argument with Integer.parseInt; 2.13 handed
	// the text to the driver, which failed its own way.
	"bad integer": func(s *jdbcSample) {
		s.Code, s.Message, s.Data = "000", `java.lang.NumberFormatException: For input string: "abc"`, `For input string: "abc"`
		s.Bytes = int64(len(s.Data))
	},
}

func TestJDBCMatchesJMeter213(t *testing.T) {
	pg := jdbctest.OwnPostgres(t)
	setup, err := os.ReadFile("testdata/jdbc/setup.sql")
	if err != nil {
		t.Fatal(err)
	}
	reset := func() {
		db, err := sql.Open("pgx", "postgres://postgres@"+pg.Addr()+"/postgres")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec(string(setup)); err != nil {
			t.Fatal(err)
		}
	}
	props := map[string]string{"pghost": pg.Host, "pgport": strconv.Itoa(pg.Port), "pgdownport": strconv.Itoa(jdbctest.ClosedPort(t)),
		"sample_variables": jdbcVars}
	golden := filepath.Join("testdata", "jdbc", "jmeter213.xml")
	if *recordJDBC {
		reset()
		args := []string{"testdata/jdbc/postgres.jmx", golden}
		for k, v := range props {
			args = append(args, "-J"+k+"="+v)
		}
		if out, err := exec.Command("testdata/jdbc/jmeter213.sh", args...).CombinedOutput(); err != nil {
			t.Fatalf("jmeter213.sh: %v\n%s", err, out)
		}
	}
	want := readJMeterXML(t, golden)

	reset()
	local := time.Local
	time.Local = time.UTC // JMeter ran in UTC: timestamptz values show in the local zone
	t.Cleanup(func() { time.Local = local })
	src, err := jmx.Load("testdata/jdbc/postgres.jmx")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Compile(src, Options{Props: props})
	if err != nil {
		t.Fatal(err)
	}
	sink := &memSink{}
	if err := Start(t.Context(), p, sink, RunOptions{Detail: true}).Wait(); err != nil {
		t.Fatal(err)
	}
	if len(sink.samples) != len(want) {
		t.Fatalf("gojm made %d samples, JMeter %d", len(sink.samples), len(want))
	}
	for i, s := range sink.samples {
		w := want[i]
		if f := differs213[w.Label]; f != nil {
			f(&w)
		}
		g := jdbcSample{Label: s.Label, Code: s.Code, Message: s.Message, Thread: s.ThreadName, DataType: s.DataType,
			Success: s.Success, Bytes: s.Bytes, Vars: unsetAsEmpty(s.Vars)}
		if s.Detail != nil {
			g.Data, g.SamplerData = string(s.Detail.ResponseData), s.Detail.SamplerData
		}
		if w.Label == "variables" {
			// a Debug Sampler: only the result variable's line is gojm's
			// and JMeter's alike (the rest holds Java objects' names)
			g.Data, w.Data = line(g.Data, "rows="), line(w.Data, "rows=")
			g.Bytes, w.Bytes, g.SamplerData, w.SamplerData = 0, 0, "", ""
		}
		if w.Label == "unreachable database" {
			// the closed port is another each run
			g.Message, w.Message = anyPort.ReplaceAllString(g.Message, ":PORT "), anyPort.ReplaceAllString(w.Message, ":PORT ")
			g.Data, w.Data = anyPort.ReplaceAllString(g.Data, ":PORT "), anyPort.ReplaceAllString(w.Data, ":PORT ")
		}
		if g.Label != w.Label || g.Code != w.Code || g.Message != w.Message || g.Success != w.Success || g.DataType != w.DataType ||
			g.Thread != w.Thread || g.Data != w.Data || g.SamplerData != w.SamplerData || g.Bytes != w.Bytes ||
			strings.Join(g.Vars, ",") != strings.Join(w.Vars, ",") {
			t.Errorf("sample %d:\n gojm   %+v\n JMeter %+v", i, g, w)
		}
		if s.Latency > s.Elapsed || s.Connect > s.Elapsed {
			t.Errorf("%s: connect %v, latency %v, elapsed %v", s.Label, s.Connect, s.Latency, s.Elapsed)
		}
	}
}

var anyPort = regexp.MustCompile(`:\d+ `)

func line(text, prefix string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}

func unsetAsEmpty(vals []string) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		if v != "null" {
			out[i] = v
		}
	}
	return out
}

// readJMeterXML reads JMeter's XML results: each sample's attributes, its
// response and sampler data, and the sample variables (whose names XStream
// writes with _ doubled and # as _.0023).
func readJMeterXML(t *testing.T, path string) []jdbcSample {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Samples []struct {
			Attrs       []xml.Attr `xml:",any,attr"`
			Data        string     `xml:"responseData"`
			SamplerData string     `xml:"samplerData"`
		} `xml:"sample"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	names := strings.Split(jdbcVars, ",")
	var out []jdbcSample
	for _, x := range doc.Samples {
		a := map[string]string{}
		for _, at := range x.Attrs {
			name := strings.ReplaceAll(strings.ReplaceAll(at.Name.Local, "_.0023", "#"), "__", "_")
			a[name] = at.Value
		}
		s := jdbcSample{Label: a["lb"], Code: a["rc"], Message: a["rm"], Thread: a["tn"], DataType: a["dt"],
			Success: a["s"] == "true", Data: x.Data, SamplerData: x.SamplerData}
		s.Bytes, _ = strconv.ParseInt(a["by"], 10, 64)
		for _, n := range names {
			s.Vars = append(s.Vars, a[n])
		}
		out = append(out, s)
	}
	return out
}
