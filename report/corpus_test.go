package report

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// batchProps loads jmeter-batch.properties, the properties JMeter's batch
// tests run with.
func batchProps(t *testing.T, dir string) (map[string]string, SaveConfig) {
	t.Helper()
	props, err := LoadSaveServiceProperties(filepath.Join(dir, "jmeter-batch.properties"))
	if err != nil {
		t.Fatal(err)
	}
	def, err := SaveConfigFromProperties(props)
	if err != nil {
		t.Fatal(err)
	}
	return props, def
}

// planCollector finds, in the batch plan that wrote the results file
// base, the ResultCollector writing it and returns its save configuration.
func planCollector(t *testing.T, dir, base string, def SaveConfig) (SaveConfig, bool) {
	t.Helper()
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	variant := ""
	for _, v := range []string{"_Java", "_HttpClient4"} {
		if s, ok := strings.CutSuffix(stem, v); ok {
			stem, variant = s, v[1:]
		}
	}
	f, err := os.Open(filepath.Join(dir, stem+".jmx"))
	if err != nil {
		return SaveConfig{}, false
	}
	defer f.Close()
	type prop struct {
		Name  string `xml:"name,attr"`
		Value string `xml:",chardata"`
	}
	type field struct {
		XMLName xml.Name
		Value   string `xml:",chardata"`
	}
	type collector struct {
		Props []prop `xml:"stringProp"`
		Obj   struct {
			Value struct {
				Fields []field `xml:",any"`
			} `xml:"value"`
		} `xml:"objProp"`
	}
	d := xml.NewDecoder(f)
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return SaveConfig{}, false
		}
		if err != nil {
			t.Fatalf("%s.jmx: %v", stem, err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "ResultCollector" {
			continue
		}
		var rc collector
		if err := d.DecodeElement(&rc, &se); err != nil {
			t.Fatalf("%s.jmx: %v", stem, err)
		}
		for _, p := range rc.Props {
			if p.Name != "filename" {
				continue
			}
			name := strings.ReplaceAll(p.Value, "${__P(jmeter.httpsampler,)}", variant)
			name = strings.ReplaceAll(name, "${__P(CSVFILE)}", stem+".csv")
			if name != base {
				continue
			}
			fields := map[string]string{}
			for _, fl := range rc.Obj.Value.Fields {
				fields[fl.XMLName.Local] = fl.Value
			}
			cfg, unknown := CollectorSaveConfig(fields, def)
			if len(unknown) > 0 {
				t.Errorf("%s.jmx: unknown saveConfig fields %v", stem, unknown)
			}
			return cfg, true
		}
	}
}

// isDataFile tells input data files in the corpus from result files.
func isDataFile(base string) bool {
	return strings.HasPrefix(base, "test") || strings.HasSuffix(base, "-data.csv")
}

func labels(ss []*Sample, subs bool) []string {
	var out []string
	var walk func(s *Sample, depth int)
	walk = func(s *Sample, depth int) {
		out = append(out, s.Label)
		if subs && depth <= maxSubDepth {
			for _, sub := range s.Sub {
				walk(sub, depth+1)
			}
		}
	}
	for _, s := range ss {
		walk(s, 0)
	}
	return out
}

// corpusExceptions are known, explained differences from the expected
// files: the test checks everything else.
var corpusExceptions = map[string]string{
	// A JMS subscriber that received nothing has SampleCount 0; a Sample
	// has no sample count, so it is written back as 1.
	"JMS_TESTS.csv": "rewrite",
	// A third "Write CSV" collector (plan line 1188) has no XML twin, so the
	// CSV holds one sample ("NAME USER1") the XML file does not.
	"BatchTestLocal.csv": "labels",
}

// TestCorpusCSV decodes every CSV result file of JMeter's batch tests
// (with a header, or without one using the plan's saveConfig), checks that
// encoding the samples again gives the same bytes, and that the labels
// agree with the XML file the same plan wrote.
func TestCorpusCSV(t *testing.T) {
	dir := corpusDir(t)
	props, def := batchProps(t, dir)
	files, err := filepath.Glob(filepath.Join(dir, "*.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range files {
		base := filepath.Base(path)
		if isDataFile(base) {
			continue
		}
		t.Run(base, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(string(data), "\n")
			planCfg, inPlan := planCollector(t, dir, base, def)
			cfg, vars, header := ParseCSVHeader(first)
			opt := ReadOptions{Properties: props}
			if !header {
				if !inPlan {
					t.Fatalf("no header and no plan collector for %s", base)
				}
				cfg = planCfg
				opt.Config = &planCfg
			}
			var got collect
			if err := ReadJTL(bytes.NewReader(data), base, &got, opt); err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			cfg.SubResults = false // rows read back are flat
			w, err := NewCSVWriter(&buf, cfg, vars)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range got.samples {
				w.Add(s)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), data) && corpusExceptions[base] != "rewrite" {
				gl, wl := strings.Split(buf.String(), "\n"), strings.Split(string(data), "\n")
				for i := range min(len(gl), len(wl)) {
					if gl[i] != wl[i] {
						t.Fatalf("re-encoded file differs at line %d:\n got: %q\nwant: %q", i+1, gl[i], wl[i])
					}
				}
				t.Fatalf("re-encoded file has %d lines, want %d", len(gl), len(wl))
			}
			xmlPath := strings.TrimSuffix(path, ".csv") + ".xml"
			xdata, err := os.ReadFile(xmlPath)
			if err != nil || !inPlan || !cfg.Label || corpusExceptions[base] == "labels" {
				return
			}
			var xs collect
			if err := ReadJTL(bytes.NewReader(xdata), filepath.Base(xmlPath), &xs, ReadOptions{}); err != nil {
				t.Fatal(err)
			}
			want := labels(xs.samples, planCfg.SubResults)
			gotLabels := labels(got.samples, false)
			if strings.Join(gotLabels, "\n") != strings.Join(want, "\n") {
				t.Errorf("CSV labels differ from the XML file's:\n csv: %q\n xml: %q", gotLabels, want)
			}
		})
	}
}

// TestCorpusXML decodes every XML result file of JMeter's batch tests.
func TestCorpusXML(t *testing.T) {
	dir := corpusDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.xml"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte("<testResults")) {
			continue // a fixture, not a results file
		}
		n++
		t.Run(filepath.Base(path), func(t *testing.T) {
			var got collect
			if err := ReadJTL(bytes.NewReader(data), filepath.Base(path), &got, ReadOptions{}); err != nil {
				t.Fatal(err)
			}
			want := bytes.Count(data, []byte("<sample ")) + bytes.Count(data, []byte("<httpSample "))
			if n := len(labels(got.samples, true)); n != want {
				t.Errorf("decoded %d samples and sub-samples, the file has %d elements", n, want)
			}
		})
	}
	if n == 0 {
		t.Fatal("no XML results files in the corpus")
	}
}
