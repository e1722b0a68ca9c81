package engine

import (
	"encoding/csv"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The login → extract token → reuse → assert plan, recorded once with real
// JMeter 2.13 (testdata/extract/record.sh): gojm must send the same
// requests, carrying the same extracted values, and end each sample with the
// same verdict and failure message.

// oracleRow is what a JTL row says about a sample's verdict.
type oracleRow struct{ label, code, success, message string }

func readOracleJTL(t *testing.T, path string) []oracleRow {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, n := range recs[0] {
		col[n] = i
	}
	var out []oracleRow
	for _, r := range recs[1:] {
		out = append(out, oracleRow{r[col["label"]], r[col["responseCode"]], r[col["success"]], r[col["failureMessage"]]})
	}
	return out
}

func TestLoginPlanExtractsReusesAndAssertsAsJMeter(t *testing.T) {
	wantReqs := readOracleLines(t, "testdata/extract/login.requests.jsonl")
	want := readOracleJTL(t, "testdata/extract/login.jtl")
	got, sink := runAgainstTarget(t, "testdata/extract/login.jmx", nil)
	got = sortedHeaders(got)
	if len(got) != len(wantReqs) {
		t.Fatalf("gojm sent %d requests, JMeter %d", len(got), len(wantReqs))
	}
	for i := range got {
		if got[i] != wantReqs[i] {
			t.Errorf("request %d:\ngojm   %s\nJMeter %s", i+1, got[i], wantReqs[i])
		}
	}
	if len(sink.samples) != len(want) {
		t.Fatalf("gojm made %d samples, JMeter %d", len(sink.samples), len(want))
	}
	for i, s := range sink.samples {
		g := oracleRow{s.Label, s.Code, map[bool]string{true: "true", false: "false"}[s.Success], s.FailureMessage}
		if g != want[i] {
			t.Errorf("sample %d:\ngojm   %q\nJMeter %q", i+1, g, want[i])
		}
	}
	// Every assertion left its result for XML JTLs.
	if n := len(sink.samples[2].Assertions); n != 3 {
		t.Errorf("Book list has %d assertion results, want 3", n)
	}
}

// readOracleLines reads a recording of what the target received, one line
// per request as wireLine writes it, the headers sorted: the order of
// headers is the HTTP sampler's business, not the extractors'.
func readOracleLines(t *testing.T, path string) []string {
	t.Helper()
	name := "../../" + strings.TrimSuffix(path, ".requests.jsonl") // readOracle looks in testdata/oracle
	return sortedHeaders(readOracle(t, name))
}

var quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// sortedHeaders sorts the header list inside each wireLine.
func sortedHeaders(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		open, end := strings.Index(l, "["), strings.Index(l, "]")
		if open < 0 || end < open {
			out[i] = l
			continue
		}
		hs := quoted.FindAllString(l[open+1:end], -1)
		sort.Strings(hs)
		out[i] = l[:open+1] + strings.Join(hs, " ") + l[end:]
	}
	return out
}
