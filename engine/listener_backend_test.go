package engine

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gojm/gojm/jmx"
	"github.com/gojm/gojm/report"
)

const backendPlan = "testdata/backend/influx.jmx"

func compileFile(t *testing.T, path string, opt Options) (*Plan, error) {
	t.Helper()
	src, err := jmx.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return Compile(src, opt)
}

func TestBackendListenerCompiles(t *testing.T) {
	p, err := compileFile(t, backendPlan, Options{Props: map[string]string{"influx": "http://127.0.0.1:8086/write?db=perf"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Listeners) != 1 {
		t.Fatalf("listeners %+v", p.Listeners)
	}
	l := p.Listeners[0]
	if l.Kind != BackendListener || l.Classname != InfluxDBClient || l.Path != "Backend plan › Users › Backend Listener" {
		t.Errorf("listener %+v", l)
	}
	for name, want := range map[string]string{
		"influxdbUrl": "http://127.0.0.1:8086/write?db=perf", // ${__P()} evaluated
		"application": "book shop",                           // a user-defined variable
		"percentiles": "99;95;90",
		"eventTags":   "",
		"missing":     "default",
	} {
		if got := l.Param(name, "default"); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
}

// writeBackendPlan writes a variant of the backend plan with one replacement.
func writeBackendPlan(t *testing.T, old, new string) string {
	t.Helper()
	b, err := os.ReadFile(backendPlan)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("plan lacks %q", old)
	}
	path := filepath.Join(t.TempDir(), "plan.jmx")
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A Backend Listener client gojm does not have only reports: the plan
// runs without it, with a warning naming the listener, and --strict
// refuses it.
func TestBackendListenerOtherClientsOnlyReport(t *testing.T) {
	tests := []struct {
		name, old, new, want string
	}{
		{"graphite", InfluxDBClient, "org.apache.jmeter.visualizers.backend.graphite.GraphiteBackendListenerClient",
			`Backend Listener client "org.apache.jmeter.visualizers.backend.graphite.GraphiteBackendListenerClient": gojm runs only ` + InfluxDBClient},
		{"udp sender", "org.apache.jmeter.visualizers.backend.influxdb.HttpMetricsSender", "org.apache.jmeter.visualizers.backend.influxdb.UdpMetricsSender",
			`InfluxDB metrics sender "org.apache.jmeter.visualizers.backend.influxdb.UdpMetricsSender": gojm sends over HTTP only`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeBackendPlan(t, tt.old, tt.new)
			p, err := compileFile(t, path, Options{})
			if err != nil {
				t.Fatalf("a listener gojm does not have refused the plan: %v", err)
			}
			if len(p.Listeners) != 0 {
				t.Errorf("a listener gojm does not run is still routed: %+v", p.Listeners)
			}
			if len(p.Warnings) != 1 || !strings.HasSuffix(p.Warnings[0].Path, "Users › Backend Listener") ||
				!strings.Contains(p.Warnings[0].Message, tt.want) || !strings.Contains(p.Warnings[0].Message, "the plan runs without this listener") {
				t.Errorf("warnings %q, want one naming the listener and %q", p.Warnings, tt.want)
			}
			var st *ElementStatus
			for i := range p.Elements {
				if strings.HasSuffix(p.Elements[i].Path, "Backend Listener") {
					st = &p.Elements[i]
				}
			}
			if st == nil || st.Status != Ignored || !strings.Contains(st.Reason, tt.want) {
				t.Errorf("element status %+v", st)
			}
			if _, err := compileFile(t, path, Options{Strict: true}); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("with Strict: %v, want a refusal naming %q", err, tt.want)
			}
		})
	}
}

// The Backend Listener gets the samples in its scope only: the Users
// group's, not the setUp group's.
func TestBackendListenerScope(t *testing.T) {
	rec := newRecorder(t, nil)
	host, port := rec.hostPort()
	p, err := compileFile(t, backendPlan, Options{Props: map[string]string{"host": host, "port": port}})
	if err != nil {
		t.Fatal(err)
	}
	all, backend := &memSink{}, &memSink{}
	if err := Start(context.Background(), p, all, RunOptions{Listeners: []report.Sink{backend}}).Wait(); err != nil {
		t.Fatal(err)
	}
	if len(all.samples) != 2+2*3*2 || len(backend.samples) != 2*3*2 {
		t.Fatalf("%d samples in all, %d to the Backend Listener; want 14 and 12", len(all.samples), len(backend.samples))
	}
	for _, s := range backend.samples {
		if s.Label == "Setup call" {
			t.Fatal("the setUp group's sample reached a listener outside its scope")
		}
	}
}

func TestGroupsProgress(t *testing.T) {
	inFlight := make(chan struct{}, 8)
	release := make(chan struct{})
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/login" {
			inFlight <- struct{}{}
			<-release
		}
		w.Write([]byte("ok"))
	})
	host, port := rec.hostPort()
	p, err := compileFile(t, backendPlan, Options{Props: map[string]string{"host": host, "port": port}})
	if err != nil {
		t.Fatal(err)
	}
	r := Start(context.Background(), p, &memSink{}, RunOptions{Listeners: []report.Sink{nil}})
	// Both users are inside their first Login: the setUp group is over.
	<-inFlight
	<-inFlight
	gs := r.Groups()
	if len(gs) != 2 {
		t.Fatalf("groups %+v", gs)
	}
	setup, users := gs[0], gs[1]
	if setup.Name != "Prepare" || setup.Phase != "setUp" || !setup.Begun || !setup.Ended ||
		setup.Threads != 1 || setup.Loops != 2 || setup.Started != 1 || setup.Finished != 1 || setup.Iterations != 2 {
		t.Errorf("setUp group %+v", setup)
	}
	if users.Name != "Users" || users.Phase != "main" || !users.Begun || users.Ended ||
		users.Threads != 2 || users.Loops != 3 || users.Active != 2 || users.Started != 2 || users.Finished != 0 ||
		users.Iterations != 2 || users.Duration != 0 || users.Since.IsZero() {
		t.Errorf("main group mid-run %+v", users)
	}
	close(release)
	if err := r.Wait(); err != nil {
		t.Fatal(err)
	}
	users = r.Groups()[1]
	if !users.Ended || users.Active != 0 || users.Finished != 2 || users.Iterations != 6 {
		t.Errorf("main group at the end %+v", users)
	}
}

func TestGroupsBeforeStart(t *testing.T) {
	p, err := compileFile(t, backendPlan, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRun(t.Context(), p, nil)
	if len(r.Groups()) == 0 {
		t.Fatal("no groups")
	}
	for _, g := range r.Groups() {
		if g.Begun || g.Loops != -1 || g.Threads != 0 {
			t.Errorf("group before the run %+v", g)
		}
	}
}
