package engine

import (
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gojm/gojm/engine/internal/sampler"
	"github.com/gojm/gojm/report"
)

// dummy is a Dummy Sampler with its fields.
type dummy struct {
	name, code, msg, data, rt, latency, connect, url string
	fail, noWait                                     bool
}

func (d dummy) xml(kids ...string) string {
	if d.code == "" {
		d.code = "200"
	}
	return xmlEl(sampler.DummyClass, d.name, bp("WAITING", !d.noWait)+bp("SUCCESFULL", !d.fail)+sp("RESPONSE_CODE", d.code)+
		sp("RESPONSE_MESSAGE", d.msg)+sp("RESPONSE_DATA", d.data)+sp("RESPONSE_TIME", d.rt)+sp("LATENCY", d.latency)+
		sp("CONNECT", d.connect)+sp("URL", d.url), kids...)
}

func setVars(name string, pairs ...string) string {
	var b strings.Builder
	b.WriteString(`<elementProp name="SetVariablesAction" elementType="Arguments"><collectionProp name="Arguments.arguments">`)
	for i := 0; i+1 < len(pairs); i += 2 {
		b.WriteString(`<elementProp name="` + pairs[i] + `" elementType="Argument">` + sp("Argument.name", pairs[i]) + sp("Argument.value", pairs[i+1]) + `</elementProp>`)
	}
	b.WriteString(`</collectionProp></elementProp>`)
	return xmlEl("kg.apc.jmeter.control.sampler.SetVariablesAction", name, b.String())
}

// row writes a sample's fields that the Dummy Sampler sets.
func row(s report.Sample, t0 time.Time) string {
	return fmt.Sprintf("%s %s/%s ok=%t @%d+%d lat=%d conn=%d bytes=%d url=%q", s.Label, s.Code, s.Message, s.Success,
		s.Start.Sub(t0).Milliseconds(), s.Elapsed.Milliseconds(), s.Latency.Milliseconds(), s.Connect.Milliseconds(), s.Bytes, s.URL)
}

func TestDummySampler(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		kids := []string{
			dummy{name: "claims", code: "201", msg: "Created", data: "héllo", rt: "500", latency: "20", connect: "5", url: "http://example.com/x", noWait: true}.xml(),
			dummy{name: "waits", rt: "${__P(rt,1)}", fail: true, code: "500", latency: "x", url: "not a url"}.xml(),
			dummy{name: "spaces", rt: " 10", connect: "-3"}.xml(),
		}
		t0 := time.Now()
		m := runPlanXML(t, xPlan("", xGroup("G", groupOpts{}, kids...)), map[string]string{"rt": "200"})
		var got []string
		for _, s := range m.samples {
			got = append(got, row(s, t0))
		}
		want := []string{
			// without WAITING the time is only claimed: nothing waits
			`claims 201/Created ok=true @0+500 lat=20 conn=5 bytes=6 url="http://example.com/x"`,
			`waits 500/ ok=false @0+200 lat=0 conn=0 bytes=0 url=""`,
			// the plugin's Integer.valueOf: " 10" is not a number
			`spaces 200/ ok=true @200+0 lat=0 conn=0 bytes=0 url=""`,
		}
		if !slices.Equal(got, want) {
			t.Errorf("samples:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}

// The Set Variables Action sets its variables, all evaluated first, and
// makes no sample; the Parameterized Controller sets its own each time it
// is asked for a sampler.
func TestSetVariablesAndParameterizedController(t *testing.T) {
	params := `<elementProp name="ParameterizedController" elementType="Arguments"><collectionProp name="Arguments.arguments">` +
		`<elementProp name="p" elementType="Argument">` + sp("Argument.name", "p") + sp("Argument.value", "P${a}") + `</elementProp>` +
		`</collectionProp></elementProp>`
	kids := []string{
		setVars("first", "a", "1", "b", "2"),
		setVars("second", "a", "${b}", "b", "${a}"),
		dummy{name: "swapped", code: "${a}${b}"}.xml(),
		xmlEl("kg.apc.jmeter.control.ParameterizedController", "pc", params,
			dummy{name: "in", code: "${p}"}.xml(), setVars("third", "a", "9"), dummy{name: "again", code: "${p}"}.xml()),
	}
	m := runPlanXML(t, xPlan("", xGroup("G", groupOpts{}, kids...)), nil)
	var got []string
	for _, s := range m.samples {
		got = append(got, s.Label+"="+s.Code)
	}
	if want := []string{"swapped=21", "in=P2", "again=P9"}; !slices.Equal(got, want) {
		t.Errorf("samples %v, want %v", got, want)
	}
}

func plugParallel(name string, parent bool, limit int, kids ...string) string {
	return xmlEl(parallelClass, name, bp("PARENT_SAMPLE", parent)+bp("LIMIT_MAX_THREAD_NUMBER", limit > 0)+ip("MAX_THREAD_NUMBER", limit), kids...)
}

// sampleList writes samples as "thread label@start+elapsed" with their
// sub-samples in brackets.
func sampleList(ss []report.Sample, t0 time.Time) []string {
	var out []string
	for _, s := range ss {
		x := fmt.Sprintf("%s|%s@%d+%d:%t", s.ThreadName, s.Label, s.Start.Sub(t0).Milliseconds(), s.Elapsed.Milliseconds(), s.Success)
		if len(s.Sub) > 0 {
			var subs []report.Sample
			for _, c := range s.Sub {
				subs = append(subs, *c)
			}
			x += fmt.Sprintf(" %v bytes=%d", sampleList(subs, t0), s.Bytes)
		}
		out = append(out, x)
	}
	return out
}

// The Parallel Controller runs each child at once, every time it runs;
// with "Generate parent sample" their samples are its sub-samples.
func TestParallelController(t *testing.T) {
	kids := func() []string {
		return []string{
			dummy{name: "A", rt: "300", data: "aa"}.xml(),
			xSimple("ctl", dummy{name: "B", rt: "100", data: "b"}.xml(), dummy{name: "C", rt: "100"}.xml()),
			dummy{name: "D", rt: "200", fail: true}.xml(),
		}
	}
	tests := []struct {
		name  string
		group string
		want  []string
	}{
		{
			name:  "parent sample",
			group: xGroup("G", groupOpts{}, plugParallel("par", true, 0, kids()...), dummy{name: "after", rt: "10"}.xml()),
			want: []string{
				"G 1-1|par@0+300:false [G 1-1 - par - A|A@0+300:true G 1-1 - par - ctl|B@0+100:true G 1-1 - par - ctl|C@100+100:true G 1-1 - par - D|D@0+200:false] bytes=3",
				"G 1-1|after@300+10:true",
			},
		},
		{
			name:  "no parent sample",
			group: xGroup("G", groupOpts{}, plugParallel("par", false, 0, kids()...), dummy{name: "after", rt: "10"}.xml()),
			want: []string{
				"G 1-1 - par - A|A@0+300:true", "G 1-1 - par - ctl|B@0+100:true", "G 1-1 - par - ctl|C@100+100:true",
				"G 1-1 - par - D|D@0+200:false", "G 1-1|after@300+10:true",
			},
		},
		{
			name:  "one branch at a time, in order",
			group: xGroup("G", groupOpts{}, plugParallel("par", false, 1, kids()...)),
			want: []string{
				"G 1-1 - par - A|A@0+300:true", "G 1-1 - par - ctl|B@300+100:true", "G 1-1 - par - ctl|C@400+100:true",
				"G 1-1 - par - D|D@500+200:false",
			},
		},
		{
			name: "a failing branch with start next thread loop: the thread's next iteration begins after the controller",
			group: xGroup("G", groupOpts{loops: "2", onError: "startnextloop"},
				plugParallel("par", false, 0, dummy{name: "A", rt: "300"}.xml(), dummy{name: "D", rt: "200", fail: true}.xml()),
				dummy{name: "never", rt: "1"}.xml()),
			want: []string{
				"G 1-1 - par - A|A@0+300:true", "G 1-1 - par - D|D@0+200:false",
				"G 1-1 - par - A|A@300+300:true", "G 1-1 - par - D|D@300+200:false",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				t0 := time.Now()
				m := runPlanXML(t, xPlan("", tt.group), nil)
				if got := sampleList(m.samples, t0); !slices.Equal(got, tt.want) {
					t.Errorf("samples:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
				}
			})
		})
	}
}

// Each branch starts from the thread's variables; the variables a branch
// changed are there after the controller, later branches winning.
func TestParallelControllerVariables(t *testing.T) {
	plan := xPlan("", xGroup("G", groupOpts{loops: "2"},
		setVars("before", "x", "0", "y", "0", "z", "-"),
		plugParallel("par", false, 0,
			xSimple("one", dummy{name: "sees-${x}"}.xml(), setVars("s1", "x", "1", "z", "${y}")),
			xSimple("two", setVars("s2", "y", "2", "z", "two"), dummy{name: "two-${x}"}.xml()),
		),
		dummy{name: "after-${x}${y}${z}"}.xml(),
	))
	m := runPlanXML(t, plan, nil)
	var got []string
	for _, s := range m.samples {
		got = append(got, s.Label)
	}
	slices.Sort(got)
	want := []string{"after-12two", "after-12two", "sees-0", "sees-0", "two-0", "two-0"}
	if !slices.Equal(got, want) {
		t.Errorf("samples %v, want %v", got, want)
	}
}

func plugHTTP(name, path string) string {
	return xmlEl("HTTPSamplerProxy", name, sp("HTTPSampler.domain", "${__P(host)}")+sp("HTTPSampler.port", "${__P(port)}")+
		sp("HTTPSampler.path", path)+sp("HTTPSampler.method", "GET"))
}

// The branches of a Parallel Controller send their requests at the same
// time, with the thread's cookies.
func TestParallelControllerHTTP(t *testing.T) {
	both := make(chan struct{})
	var arrived atomic.Int32
	var mu sync.Mutex
	cookies := map[string]string{}
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/login":
			http.SetCookie(w, &http.Cookie{Name: "s", Value: "1"})
		case "/a", "/b":
			mu.Lock()
			cookies[r.URL.Path] = r.Header.Get("Cookie")
			mu.Unlock()
			if arrived.Add(1) == 2 {
				close(both)
			}
			select { // each waits for the other: only parallel requests get through
			case <-both:
			case <-time.After(10 * time.Second):
				w.WriteHeader(http.StatusGatewayTimeout)
				return
			}
		}
		w.Write([]byte("ok"))
	})
	host, port := rec.hostPort()
	plan := xPlan("", xGroup("G", groupOpts{},
		xmlEl("CookieManager", "cookies", ""),
		plugHTTP("login", "/login"),
		plugParallel("par", true, 0, plugHTTP("a", "/a"), plugHTTP("b", "/b")),
	))
	m := runPlanXML(t, plan, map[string]string{"host": host, "port": port})
	if len(m.samples) != 2 {
		t.Fatalf("%d samples, want login and par", len(m.samples))
	}
	par := m.samples[1]
	if !par.Success || len(par.Sub) != 2 || par.Sub[0].Code != "200" || par.Sub[1].Code != "200" {
		t.Errorf("parallel sample %s ok=%t with %d sub-samples, want both requests answered together", par.Label, par.Success, len(par.Sub))
	}
	if cookies["/a"] != "s=1" || cookies["/b"] != "s=1" {
		t.Errorf("cookies sent %v, want s=1 on both", cookies)
	}
}

// TestWeightedSwitchControllerPlan runs the plugin's own test plan
// (disableController.jmx, in the corpus): three Simple Controllers of
// weight 100, the second unticked in the table and disabled in the tree,
// under a Loop Controller of 100: the other two run 50 times each, in turn.
func TestWeightedSwitchControllerPlan(t *testing.T) {
	const plan = "../../shared/corpus/jmx/Blazemeter__jmeter-bzm-plugins__wsc_src_test_resources_disableController.jmx"
	if _, err := os.Stat(plan); err != nil {
		t.Skip("the corpus is not at ../shared beside the clone:", err)
	}
	m := runPlan(t, plan, nil)
	var labels []string
	for _, s := range m.samples {
		labels = append(labels, s.Label)
	}
	want := slices.Repeat([]string{"Debug 1", "Debug 3"}, 50)
	if !slices.Equal(labels, want) {
		t.Errorf("%d samples %q…, want Debug 1 and Debug 3 in turn, 50 times each", len(labels), labels[:min(len(labels), 6)])
	}
}
