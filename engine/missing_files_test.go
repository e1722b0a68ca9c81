package engine

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/gojm/gojm/examples/target"
	"github.com/gojm/gojm/jmx"
)

// TestMissingFiles runs testdata/data/missing_files.jmx, whose data files
// are not there (CSV Data Sets in every sharing mode, with and without
// recycling, names from the header, quoted data, stop at the end; the file
// functions; uploads): the plan runs, with one warning per file naming
// the element, as JMeter 5.6 runs it. 5.6's FileServer throws from
// CSVDataSet.iterationStart when it cannot open the file, which ends the
// thread; JMeter 2.13, recorded by testdata/data/record.sh, caught the
// error and gave the variables <EOF> instead, so the groups where the two
// differ are checked against 5.6's source and the others against the
// recording.
func TestMissingFiles(t *testing.T) {
	jmeter213 := byThread(readRequests(t, "testdata/data/missing_files.requests.jsonl"))
	srv := target.NewServer(target.Options{})
	rec := newRecorder(t, srv.Handler().ServeHTTP)
	host, port := rec.hostPort()
	src, err := jmx.Load("testdata/data/missing_files.jmx")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Compile(src, Options{Props: map[string]string{"host": host, "port": port}})
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"nosuch_a.csv", "nosuch_b.csv", "nosuch_c.csv", "nosuch_d.csv", "nosuch_e.csv", "nosuch_e2.csv",
		"nosuch_f.txt", "nosuch_f2.txt", "nosuch_f.csv", "nosuch_g.txt", "nosuch_g2.txt"}
	if len(p.Warnings) != len(files) {
		t.Errorf("%d warnings, want one per missing file (%d):\n%v", len(p.Warnings), len(files), p.Warnings)
	}
	for _, f := range files {
		n := 0
		for _, w := range p.Warnings {
			if strings.Contains(w.Message, `"`+f+`" not found`) && strings.HasPrefix(w.Path, "Missing files › ") {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%d warnings name %s with its element, want 1: %v", n, f, p.Warnings)
		}
	}
	sink := &memSink{}
	if err := Start(context.Background(), p, sink, RunOptions{}).Wait(); err != nil {
		t.Fatal(err)
	}
	got := byThread(srv.Recorder.Requests())
	err213 := `POST /seq/f/1 "s=**ERR**|t=**ERR**|c="`
	for _, c := range []struct {
		key  string
		want []string
		same bool // as JMeter 2.13 sent
	}{
		{"/seq/a", nil, false}, // 2.13: v=<EOF>, four times
		{"/seq/b", []string{`POST /seq/b/before "w=${w}"`}, true},
		{"/seq/c", nil, false},
		{"/seq/d", nil, true},
		{"/seq/e", nil, false},
		{"/seq/e2", nil, false},
		{"/seq/f", []string{err213, err213}, false}, // 2.13 failed both samples: "End of sequence"
		{"/seq/g", nil, false},                      // 2.13 sent the multipart head, then failed
	} {
		if !slices.Equal(got[c.key], c.want) {
			t.Errorf("%s: gojm sent %q, want %q", c.key, got[c.key], c.want)
		}
		if c.same && !slices.Equal(got[c.key], jmeter213[c.key]) {
			t.Errorf("%s: gojm sent %q, JMeter 2.13 %q", c.key, got[c.key], jmeter213[c.key])
		}
	}
	var uploads []string
	for _, s := range sink.samples {
		if strings.HasPrefix(s.Label, "g ") {
			uploads = append(uploads, s.Label+" "+s.Code)
			if s.Success {
				t.Errorf("%s succeeded without its file", s.Label)
			}
		}
	}
	want := []string{"g multipart Non HTTP response code: java.io.FileNotFoundException", "g body Non HTTP response code: java.io.FileNotFoundException"}
	if !slices.Equal(uploads, want) {
		t.Errorf("upload samples %q, want %q", uploads, want)
	}
	if len(sink.samples) != len(got["/seq/b"])+len(got["/seq/f"])+len(uploads) {
		t.Errorf("%d samples for %d requests and %d failed uploads", len(sink.samples), len(got["/seq/b"])+len(got["/seq/f"]), len(uploads))
	}

	// --strict: every warning refuses the plan.
	_, err = Compile(src, Options{Props: map[string]string{"host": host, "port": port}, Strict: true})
	if err == nil {
		t.Fatal("--strict compiled a plan with warnings")
	}
	for _, f := range files {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("--strict's refusal does not name %s", f)
		}
	}
}
