package engine

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gojm/gojm/examples/target"
	"github.com/gojm/gojm/jmx"
)

// TestCSVPlanSendsWhatJMeterSends runs testdata/data/csv_plan.jmx (CSV Data
// Sets in every share mode, quoted data, header names, recycle, <EOF>,
// stop on EOF, Counters, a seeded Random Variable, User Parameters,
// __CSVRead, __StringFromFile, user-defined variables) and compares what
// the server received with what JMeter 2.13 sent, recorded by
// testdata/data/record.sh: method, target and body of each request, in
// order per thread ("/seq/…" paths) or as a set where threads race for
// shared rows ("/set/…").
func TestCSVPlanSendsWhatJMeterSends(t *testing.T) {
	want := readRequests(t, "testdata/data/csv_plan.requests.jsonl")
	srv := target.NewServer(target.Options{})
	rec := newRecorder(t, srv.Handler().ServeHTTP)
	host, port := rec.hostPort()
	sink := runPlan(t, "testdata/data/csv_plan.jmx", map[string]string{"host": host, "port": port})
	var got []target.Request
	got = append(got, srv.Recorder.Requests()...)
	if len(got) != len(want) || len(sink.samples) != len(want) {
		t.Errorf("gojm sent %d requests (%d samples), JMeter %d", len(got), len(sink.samples), len(want))
	}
	g, w := byThread(got), byThread(want)
	for key, wl := range w {
		if strings.HasPrefix(key, "/set/") {
			slices.Sort(wl)
			slices.Sort(g[key])
		}
		if !slices.Equal(g[key], wl) {
			t.Errorf("%s:\n gojm   %q\n JMeter %q", key, g[key], wl)
		}
	}
}

// byThread groups requests by the first two segments of their path, as
// "method target body" lines.
func byThread(rs []target.Request) map[string][]string {
	m := map[string][]string{}
	for _, r := range rs {
		parts := strings.SplitN(r.Target, "/", 4)
		key := r.Target
		if len(parts) >= 3 {
			key = "/" + parts[1] + "/" + parts[2]
		}
		m[key] = append(m[key], fmt.Sprintf("%s %s %q", r.Method, r.Target, r.Body))
	}
	return m
}

func readRequests(t *testing.T, path string) []target.Request {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []target.Request
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r target.Request
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// Plans for the tests below are written to a temporary folder with their
// data files, from these pieces.

// xel is a piece of a plan: an element and its hashTree.
type xel string

func tgEl(name string, threads, loops int, kids ...xel) xel {
	return xel(fmt.Sprintf(`<ThreadGroup guiclass="ThreadGroupGui" testclass="ThreadGroup" testname="%s" enabled="true">
  <stringProp name="ThreadGroup.on_sample_error">continue</stringProp>
  <elementProp name="ThreadGroup.main_controller" elementType="LoopController" guiclass="LoopControlPanel" testclass="LoopController" testname="Loop Controller" enabled="true">
    <boolProp name="LoopController.continue_forever">false</boolProp>
    <stringProp name="LoopController.loops">%d</stringProp>
  </elementProp>
  <stringProp name="ThreadGroup.num_threads">%d</stringProp>
  <stringProp name="ThreadGroup.ramp_time">0</stringProp>
</ThreadGroup>
<hashTree>%s</hashTree>`, name, loops, threads, join(kids)))
}

func loopEl(n int, kids ...xel) xel {
	return xel(fmt.Sprintf(`<LoopController guiclass="LoopControlPanel" testclass="LoopController" testname="Loop" enabled="true">
  <boolProp name="LoopController.continue_forever">true</boolProp>
  <stringProp name="LoopController.loops">%d</stringProp>
</LoopController>
<hashTree>%s</hashTree>`, n, join(kids)))
}

// postEl is a sampler posting body to path.
func postEl(path, body string, kids ...xel) xel {
	return xel(fmt.Sprintf(`<HTTPSamplerProxy guiclass="HttpTestSampleGui" testclass="HTTPSamplerProxy" testname="%s" enabled="true">
  <boolProp name="HTTPSampler.postBodyRaw">true</boolProp>
  <elementProp name="HTTPsampler.Arguments" elementType="Arguments"><collectionProp name="Arguments.arguments">
    <elementProp name="" elementType="HTTPArgument"><stringProp name="Argument.value">%s</stringProp></elementProp>
  </collectionProp></elementProp>
  <stringProp name="HTTPSampler.domain">${__P(host)}</stringProp>
  <stringProp name="HTTPSampler.port">${__P(port)}</stringProp>
  <stringProp name="HTTPSampler.path">%s</stringProp>
  <stringProp name="HTTPSampler.method">POST</stringProp>
</HTTPSamplerProxy>
<hashTree>%s</hashTree>`, xmlText(path), xmlText(body), xmlText(path), join(kids)))
}

// propsEl is an element of a test class with string and bool properties.
func propsEl(class string, props map[string]string) xel {
	var b strings.Builder
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, `<stringProp name="%s">%s</stringProp>`, k, xmlText(props[k]))
	}
	return xel(fmt.Sprintf(`<%s guiclass="TestBeanGUI" testclass="%s" testname="%s" enabled="true">%s</%s><hashTree/>`, class, class, class, b.String(), class))
}

func csvEl(props map[string]string) xel { return propsEl("CSVDataSet", props) }

func join(kids []xel) string {
	var b strings.Builder
	for _, k := range kids {
		b.WriteString(string(k))
	}
	return b.String()
}

func xmlText(s string) string {
	var b strings.Builder
	_ = xmlEscape(&b, s)
	return b.String()
}

func xmlEscape(w io.Writer, s string) error {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
	_, err := io.WriteString(w, r.Replace(s))
	return err
}

// writePlan writes a plan of thread groups (serialised when serial) and its
// data files to a temporary folder and returns the plan's path.
func writePlan(t *testing.T, serial bool, files map[string]string, kids ...xel) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plan := fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3"><hashTree>
<TestPlan guiclass="TestPlanGui" testclass="TestPlan" testname="Plan" enabled="true">
  <boolProp name="TestPlan.serialize_threadgroups">%t</boolProp>
  <elementProp name="TestPlan.user_defined_variables" elementType="Arguments"><collectionProp name="Arguments.arguments"/></elementProp>
</TestPlan>
<hashTree>%s</hashTree></hashTree></jmeterTestPlan>`, serial, join(kids))
	path := filepath.Join(dir, "plan.jmx")
	if err := os.WriteFile(path, []byte(plan), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// bodies runs a plan against a recorder and returns the bodies it
// received, grouped by path.
func bodies(t *testing.T, plan string) map[string][]string {
	t.Helper()
	props, got := bodyRecorder(t)
	runPlan(t, plan, props)
	return got()
}

// bodyRecorder starts a recorder of request bodies by path; props point a
// plan's host and port properties at it, got returns what it received.
func bodyRecorder(t *testing.T) (props map[string]string, got func() map[string][]string) {
	t.Helper()
	var mu sync.Mutex
	seen := map[string][]string{}
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen[r.URL.Path] = append(seen[r.URL.Path], string(b))
		mu.Unlock()
	})
	host, port := rec.hostPort()
	return map[string]string{"host": host, "port": port}, func() map[string][]string {
		mu.Lock()
		defer mu.Unlock()
		return seen
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func TestCSVDataSet(t *testing.T) {
	five := "v1\nv2\nv3\nv4\nv5\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		plan  []xel
		want  map[string][]string
		// unordered paths are compared as sets (threads race for rows)
		unordered bool
	}{
		{
			name:  "all threads share one reader, across groups too",
			files: map[string]string{"d.csv": five},
			plan: []xel{
				tgEl("A", 2, 2, csvEl(map[string]string{"filename": "d.csv", "variableNames": "v", "shareMode": "shareMode.all", "recycle": "false"}), postEl("/a", "${v}")),
				tgEl("B", 1, 2, csvEl(map[string]string{"filename": "d.csv", "variableNames": "v", "shareMode": "shareMode.all", "recycle": "false"}), postEl("/b", "${v}")),
			},
			want: map[string][]string{"/a": {"v1", "v2", "v3", "v4"}, "/b": {"v5", "<EOF>"}}, unordered: true,
		},
		{
			name:  "current thread group",
			files: map[string]string{"d.csv": five},
			plan: []xel{
				tgEl("A", 2, 2, csvEl(map[string]string{"filename": "d.csv", "variableNames": "v", "shareMode": "shareMode.group"}), postEl("/a", "${v}")),
				tgEl("B", 1, 2, csvEl(map[string]string{"filename": "d.csv", "variableNames": "v", "shareMode": "Current thread group"}), postEl("/b", "${v}")),
			},
			want: map[string][]string{"/a": {"v1", "v2", "v3", "v4"}, "/b": {"v1", "v2"}}, unordered: true,
		},
		{
			name:  "current thread, recycled",
			files: map[string]string{"d.csv": "x\ny\n"},
			plan:  []xel{tgEl("A", 2, 3, csvEl(map[string]string{"filename": "d.csv", "variableNames": "v", "shareMode": "shareMode.thread"}), postEl("/t${__threadNum}", "${v}"))},
			want:  map[string][]string{"/t1": {"x", "y", "x"}, "/t2": {"x", "y", "x"}},
		},
		{
			// JMeter tells a controller's listeners the last one first.
			name:  "a user key shares between data sets",
			files: map[string]string{"d.csv": five},
			plan: []xel{tgEl("A", 1, 2,
				csvEl(map[string]string{"filename": "d.csv", "variableNames": "p", "shareMode": "k"}),
				csvEl(map[string]string{"filename": "d.csv", "variableNames": "q", "shareMode": "k"}),
				postEl("/a", "${p}${q}"))},
			want: map[string][]string{"/a": {"v2v1", "v4v3"}},
		},
		{
			name:  "end of file without recycle gives <EOF>",
			files: map[string]string{"d.csv": "a,b\n"},
			plan:  []xel{tgEl("A", 1, 3, csvEl(map[string]string{"filename": "d.csv", "variableNames": "x,y", "recycle": "false"}), postEl("/a", "${x}|${y}"))},
			want:  map[string][]string{"/a": {"a|b", "<EOF>|<EOF>", "<EOF>|<EOF>"}},
		},
		{
			name:  "stop thread on end of file",
			files: map[string]string{"d.csv": "a\nb\n"},
			plan:  []xel{tgEl("A", 1, 10, csvEl(map[string]string{"filename": "d.csv", "variableNames": "x", "recycle": "false", "stopThread": "true"}), postEl("/a", "${x}"))},
			want:  map[string][]string{"/a": {"a", "b"}},
		},
		{
			name:  "header names, tab delimiter, header skipped on recycle",
			files: map[string]string{"d.tsv": "first\tsecond\n1\t2\n3\t4\n"},
			plan:  []xel{tgEl("A", 1, 3, csvEl(map[string]string{"filename": "d.tsv", "delimiter": `\t`}), postEl("/a", "${first}-${second}"))},
			want:  map[string][]string{"/a": {"1-2", "3-4", "1-2"}},
		},
		{
			name:  "ignore first line with names given",
			files: map[string]string{"d.csv": "head\nr1\nr2\n"},
			plan:  []xel{tgEl("A", 1, 3, csvEl(map[string]string{"filename": "d.csv", "variableNames": " v ", "ignoreFirstLine": "true"}), postEl("/a", "${v}"))},
			want:  map[string][]string{"/a": {"r1", "r2", "r1"}},
		},
		{
			name:  "quoted data",
			files: map[string]string{"d.csv": "\"a,1\",\"say \"\"hi\"\"\"\n\"multi\nline\",x\n"},
			plan:  []xel{tgEl("A", 1, 2, csvEl(map[string]string{"filename": "d.csv", "variableNames": "p,q", "quotedData": "true"}), postEl("/a", "${p}|${q}"))},
			want:  map[string][]string{"/a": {`a,1|say "hi"`, "multi\nline|x"}},
		},
		{
			name:  "unquoted data keeps quotes",
			files: map[string]string{"d.csv": "\"a\",b\n"},
			plan:  []xel{tgEl("A", 1, 1, csvEl(map[string]string{"filename": "d.csv", "variableNames": "p,q"}), postEl("/a", "${p}|${q}"))},
			want:  map[string][]string{"/a": {`"a"|b`}},
		},
		{
			name:  "file encoding",
			files: map[string]string{"d.csv": "caf\xe9\n"},
			plan:  []xel{tgEl("A", 1, 1, csvEl(map[string]string{"filename": "d.csv", "variableNames": "w", "fileEncoding": "ISO-8859-1"}), postEl("/a", "${w}"))},
			want:  map[string][]string{"/a": {"café"}},
		},
		{
			name:  "UTF-8 byte-order mark is dropped",
			files: map[string]string{"d.csv": "\ufeffname\nz\n"},
			plan:  []xel{tgEl("A", 1, 1, csvEl(map[string]string{"filename": "d.csv"}), postEl("/a", "${name}"))},
			want:  map[string][]string{"/a": {"z"}},
		},
		{
			name:  "inside a loop it advances on each loop iteration",
			files: map[string]string{"d.csv": five, "o.csv": "o1\no2\n"},
			plan: []xel{tgEl("A", 1, 2,
				csvEl(map[string]string{"filename": "o.csv", "variableNames": "o"}),
				loopEl(2, csvEl(map[string]string{"filename": "d.csv", "variableNames": "v"}), postEl("/a", "${o}${v}")))},
			want: map[string][]string{"/a": {"o1v1", "o1v2", "o2v3", "o2v4"}},
		},
		{
			name:  "under a sampler it listens to the sampler's controller",
			files: map[string]string{"d.csv": five},
			plan: []xel{tgEl("A", 1, 2,
				postEl("/a", "${v}", csvEl(map[string]string{"filename": "d.csv", "variableNames": "v"})),
				postEl("/b", "${v}"))},
			want: map[string][]string{"/a": {"v1", "v2"}, "/b": {"v1", "v2"}},
		},
		{
			name:  "file name from a property",
			files: map[string]string{"named.csv": "n1\n"},
			plan:  []xel{tgEl("A", 1, 1, csvEl(map[string]string{"filename": "${__P(csvfile,named.csv)}", "variableNames": "v"}), postEl("/a", "${v}"))},
			want:  map[string][]string{"/a": {"n1"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := bodies(t, writePlan(t, true, tc.files, tc.plan...))
			for path, want := range tc.want {
				g := got[path]
				if tc.unordered {
					g, want = sorted(g), sorted(want)
				}
				if !slices.Equal(g, want) {
					t.Errorf("%s received %q, want %q", path, g, want)
				}
			}
		})
	}
}

// TestCSVDataSetFileProblemsAreWarnings: a CSV Data Set whose file is
// not there, or whose name is empty, runs as in JMeter 5.6 (each thread
// stops when it reaches it), with a warning naming the element.
func TestCSVDataSetFileProblemsAreWarnings(t *testing.T) {
	for _, tc := range []struct{ filename, want string }{
		{"nope.csv", "nope.csv\" not found (looked for "},
		{"${__P(datafile,)}", "file name \"${__P(datafile,)}\" is empty when the plan starts"},
		{"", "has no file name"},
	} {
		plan := writePlan(t, false, nil, tgEl("A", 1, 1, csvEl(map[string]string{"filename": tc.filename, "variableNames": "v"}), postEl("/a", "${v}")))
		src, err := jmx.Load(plan)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Compile(src, Options{})
		if err != nil {
			t.Fatalf("%q: %v", tc.filename, err)
		}
		if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0].Path, "CSVDataSet") || !strings.Contains(p.Warnings[0].Message, tc.want) {
			t.Errorf("%q: warnings %v: want one naming the element and containing %q", tc.filename, p.Warnings, tc.want)
		}
		if got := bodies(t, plan); len(got["/a"]) != 0 {
			t.Errorf("%q: the thread sent %q; JMeter 5.6 stops it at the CSV Data Set", tc.filename, got["/a"])
		}
	}
}

func TestCounterRandomVariableAndUserParameters(t *testing.T) {
	counter := func(props map[string]string) xel {
		var b strings.Builder
		for k, v := range props {
			fmt.Fprintf(&b, `<stringProp name="CounterConfig.%s">%s</stringProp>`, k, xmlText(v))
		}
		return xel(`<CounterConfig guiclass="CounterConfigGui" testclass="CounterConfig" testname="Counter" enabled="true">` + b.String() + `</CounterConfig><hashTree/>`)
	}
	userParams := func(perIteration bool, names []string, cols ...[]string) xel {
		var b strings.Builder
		b.WriteString(`<UserParameters guiclass="UserParametersGui" testclass="UserParameters" testname="UP" enabled="true"><collectionProp name="UserParameters.names">`)
		for _, n := range names {
			fmt.Fprintf(&b, `<stringProp name="n">%s</stringProp>`, n)
		}
		b.WriteString(`</collectionProp><collectionProp name="UserParameters.thread_values">`)
		for _, c := range cols {
			b.WriteString(`<collectionProp name="c">`)
			for _, v := range c {
				fmt.Fprintf(&b, `<stringProp name="v">%s</stringProp>`, xmlText(v))
			}
			b.WriteString(`</collectionProp>`)
		}
		fmt.Fprintf(&b, `</collectionProp><boolProp name="UserParameters.per_iteration">%t</boolProp></UserParameters><hashTree/>`, perIteration)
		return xel(b.String())
	}
	for _, tc := range []struct {
		name      string
		plan      []xel
		want      map[string][]string
		unordered bool
	}{
		{
			name: "global counter wraps past its end",
			plan: []xel{tgEl("A", 1, 4, counter(map[string]string{"start": "1", "incr": "2", "end": "5", "name": "c", "format": "000", "per_user": "false"}), postEl("/a", "${c}"))},
			want: map[string][]string{"/a": {"001", "003", "005", "001"}},
		},
		{
			name: "global counter is shared by the users",
			plan: []xel{tgEl("A", 3, 2, counter(map[string]string{"start": "10", "incr": "1", "name": "c"}), postEl("/a", "${c}"))},
			want: map[string][]string{"/a": {"10", "11", "12", "13", "14", "15"}}, unordered: true,
		},
		{
			name: "per-user counter with a DecimalFormat",
			plan: []xel{tgEl("A", 2, 2, counter(map[string]string{"start": "999", "incr": "1", "name": "c", "format": "#,##0", "per_user": "true"}), postEl("/u${__threadNum}", "${c}"))},
			want: map[string][]string{"/u1": {"999", "1,000"}, "/u2": {"999", "1,000"}},
		},
		{
			name: "per-user counter reset on each thread group iteration",
			plan: []xel{tgEl("A", 1, 2, loopEl(3, counter(map[string]string{"start": "1", "incr": "1", "name": "c", "per_user": "true", "reset_on_tg_iteration": "true"}), postEl("/a", "${c}")))},
			want: map[string][]string{"/a": {"1", "2", "3", "1", "2", "3"}},
		},
		{
			name: "seeded random variable draws java.util.Random's sequence",
			plan: []xel{tgEl("A", 1, 4, propsEl("RandomVariableConfig", map[string]string{"variableName": "r", "minimumValue": "10", "maximumValue": "99", "randomSeed": "42", "outputFormat": "R_00"}), postEl("/a", "${r}"))},
			want: map[string][]string{"/a": {"R_90", "R_13", "R_28", "R_54"}},
		},
		{
			name: "per-thread seeded random variable repeats for each user",
			plan: []xel{tgEl("A", 2, 2, xel(strings.Replace(string(propsEl("RandomVariableConfig", map[string]string{"variableName": "r", "minimumValue": "10", "maximumValue": "99", "randomSeed": "42"})), "</RandomVariableConfig>", `<boolProp name="perThread">true</boolProp></RandomVariableConfig>`, 1)), postEl("/u${__threadNum}", "${r}"))},
			want: map[string][]string{"/u1": {"90", "13"}, "/u2": {"90", "13"}},
		},
		{
			name: "user parameters by user column, before each sampler",
			plan: []xel{tgEl("A", 3, 1, userParams(false, []string{"n", "m"}, []string{"a", "${n}!"}, []string{"b", "${__counter(TRUE)}"}), postEl("/u${__threadNum}", "${n}${m}"), postEl("/v${__threadNum}", "${n}${m}"))},
			want: map[string][]string{"/u1": {"aa!"}, "/u2": {"b1"}, "/u3": {"aa!"}, "/v2": {"b2"}},
		},
		{
			name: "user parameters once per iteration",
			plan: []xel{tgEl("A", 1, 2, userParams(true, []string{"n"}, []string{"${__counter(TRUE)}"}), postEl("/a", "${n}"), postEl("/a", "${n}"))},
			want: map[string][]string{"/a": {"1", "1", "2", "2"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := bodies(t, writePlan(t, true, nil, tc.plan...))
			for path, want := range tc.want {
				g := got[path]
				if tc.unordered {
					g, want = sorted(g), sorted(want)
				}
				if !slices.Equal(g, want) {
					t.Errorf("%s received %q, want %q", path, g, want)
				}
			}
		})
	}
}

func TestVariablesInThreadAndLoopCounts(t *testing.T) {
	plan := writePlan(t, false, nil, xel(strings.Replace(string(tgEl("A", 0, 0, loopEl(0, postEl("/a", "${__threadNum}")))),
		`<stringProp name="ThreadGroup.num_threads">0</stringProp>`, `<stringProp name="ThreadGroup.num_threads">${__P(users,1)}</stringProp>`, 1)))
	text, _ := os.ReadFile(plan)
	s := strings.Replace(string(text), `<stringProp name="LoopController.loops">0</stringProp>`, `<stringProp name="LoopController.loops">${loops}</stringProp>`, 1)
	s = strings.Replace(s, `<stringProp name="LoopController.loops">0</stringProp>`, `<stringProp name="LoopController.loops">${__jexl3(1+1)}</stringProp>`, 1)
	s = strings.Replace(s, `<collectionProp name="Arguments.arguments"/>`, `<collectionProp name="Arguments.arguments"><elementProp name="loops" elementType="Argument"><stringProp name="Argument.name">loops</stringProp><stringProp name="Argument.value">${__P(loops,3)}</stringProp></elementProp></collectionProp>`, 1)
	if err := os.WriteFile(plan, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	n := 0
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) { mu.Lock(); n++; mu.Unlock() })
	host, port := rec.hostPort()
	runPlan(t, plan, map[string]string{"host": host, "port": port, "users": "2"})
	if n != 2*3*2 {
		t.Errorf("%d requests, want 2 users × 3 loops × 2 inner loops = 12", n)
	}
}
