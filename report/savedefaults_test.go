package report

import (
	"maps"
	"os"
	"path/filepath"
	"testing"
)

// A jmeter.properties documents its version's defaults in comments: the
// first of each key counts, settings outside comments are the file's own
// (read by ReadProperties), and a column setting it never mentions is one
// its version did not have.
func TestSaveServiceDefaults(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, text string
		want       map[string]string
	}{
		{"documented", "# a comment\n#jmeter.save.saveservice.connect_time=false\n#jmeter.save.saveservice.default_delimiter=,\n" +
			"#jmeter.save.saveservice.default_delimiter=\\t\njmeter.save.saveservice.url=true\n#other.key=1\n",
			func() map[string]string {
				m := map[string]string{}
				for k := range propFlags {
					m[savePropPrefix+k] = "false"
				}
				m["jmeter.save.saveservice.connect_time"] = "false"
				m["jmeter.save.saveservice.default_delimiter"] = ","
				delete(m, "jmeter.save.saveservice.url") // set by the file itself
				return m
			}()},
		{"only settings", "jmeter.save.saveservice.output_format=xml\n", map[string]string{}},
		{"nothing", "", map[string]string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".properties")
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := SaveServiceDefaults(path)
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(got, tc.want) {
				t.Errorf("got %v\nwant %v", got, tc.want)
			}
		})
	}
	if _, err := SaveServiceDefaults(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing file gave no error")
	}
}
