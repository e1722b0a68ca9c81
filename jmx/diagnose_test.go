package jmx

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// smallPlan is a plan of one thread group with one sampler; line 4 opens
// the TestPlan, line 6 the ThreadGroup, line 9 the sampler.
const smallPlan = `<?xml version="1.0" encoding="UTF-8"?>
<jmeterTestPlan version="1.2" properties="5.0">
  <hashTree>
    <TestPlan testclass="TestPlan" testname="Plan"/>
    <hashTree>
      <ThreadGroup testclass="ThreadGroup" testname="Users">
        <stringProp name="ThreadGroup.num_threads">1</stringProp>
      </ThreadGroup>
      <hashTree>
        <HTTPSamplerProxy testclass="HTTPSamplerProxy" testname="Home"/>
        <hashTree/>
      </hashTree>
    </hashTree>
  </hashTree>
</jmeterTestPlan>
`

// Each way a file is not a readable plan gets a message that names it.
func TestLoadMessages(t *testing.T) {
	tests := []struct {
		name string
		data string
		want []string
	}{
		{"a misspelled closing tag", strings.Replace(smallPlan, "</ThreadGroup>", "</ThreadGroupp>", 1),
			[]string{"line 8", "</ThreadGroupp> where </ThreadGroup> was expected", "<ThreadGroup> of line 6", "misspelled"}},
		{"an extra closing tag", strings.Replace(smallPlan, "</ThreadGroup>", "</ThreadGroup></ThreadGroup>", 1),
			[]string{"line 8", "one </ThreadGroup> too many", "<hashTree> of line 5 is the element open here"}},
		{"a closing tag after the end", smallPlan + "</jmeterTestPlan>\n",
			[]string{"line 16", "after the end of the document"}},
		{"cut short", smallPlan[:strings.Index(smallPlan, "<hashTree/>")],
			[]string{"the file ends inside <hashTree>, opened on line 9", "cut short"}},
		{"a CSV file", "user,password\nalice,secret\n", []string{"a CSV or text file, not XML", "not a JMeter test plan"}},
		{"a JSON file", `{"plan": "load"}`, []string{"a JSON file, not XML"}},
		{"a JTL", "timeStamp,elapsed,label,responseCode\n1700000000000,12,Home,200\n", []string{"a results file (JTL)", "gojm report"}},
		{"empty", "\n", []string{"the file is empty"}},
		{"not UTF-8 and not declared", strings.Replace(smallPlan, "Users", "Usu\xe1rios", 1),
			[]string{"line 6", "invalid UTF-8", `encoding="ISO-8859-1"`}},
		{"an encoding gojm does not know", strings.Replace(smallPlan, "UTF-8", "X-KLINGON", 1),
			[]string{`declares the encoding "X-KLINGON"`, "save it as UTF-8"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.data), "plan.jmx", ".")
			if err == nil {
				t.Fatal("read")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q lacks %q", err, w)
				}
			}
			for _, old := range []string{"empty document", "the file ends inside an element"} {
				if strings.Contains(err.Error(), old) {
					t.Errorf("%q says %q", err, old)
				}
			}
		})
	}
}

// A file declared ISO-8859-1 is read in that encoding, as JMeter reads it.
func TestLoadDeclaredEncoding(t *testing.T) {
	latin1 := strings.Replace(strings.Replace(smallPlan, "UTF-8", "ISO-8859-1", 1), "Users", "Usu\xe1rios", 1)
	p, err := Read(strings.NewReader(latin1), "plan.jmx", ".")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.TestPlan().Children[0].Name; got != "Usuários" {
		t.Errorf("the group's name is %q", got)
	}
}

// A folder given as a plan is named as a folder.
func TestLoadFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "plans.jmx")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), "folder") || strings.Contains(err.Error(), "malformed") {
		t.Errorf("Load(folder): %v", err)
	}
	if !errors.As(err, new(*Error)) {
		t.Errorf("%v is not a *jmx.Error", err)
	}
}
