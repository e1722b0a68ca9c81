package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"time"
)

// JUnitInfo describes the run a JUnit report is about.
type JUnitInfo struct {
	// Name names the run (the plan's name); it prefixes the suites' names.
	Name     string
	Start    time.Time
	Duration time.Duration
	Hostname string
}

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name      string      `xml:"name,attr"`
	Tests     int         `xml:"tests,attr"`
	Failures  int         `xml:"failures,attr"`
	Errors    int         `xml:"errors,attr"`
	Skipped   int         `xml:"skipped,attr"`
	Time      string      `xml:"time,attr"`
	Timestamp string      `xml:"timestamp,attr,omitempty"`
	Hostname  string      `xml:"hostname,attr,omitempty"`
	Cases     []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes a JUnit XML report, the format Jenkins, GitLab and
// GitHub Actions read: a "thresholds" suite with one test case per
// threshold (failed when the threshold failed) and a "samples" suite with
// one test case per label (failed when any of its samples failed), labels
// in first-seen order. Times are in seconds.
func WriteJUnit(w io.Writer, st *Stats, results []ThresholdResult, info JUnitInfo) error {
	name := info.Name
	if name == "" {
		name = "gojm"
	}
	secs := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 3, 64) }
	stamp := ""
	if !info.Start.IsZero() {
		stamp = info.Start.Format("2006-01-02T15:04:05")
	}
	thr := junitSuite{Name: name + " thresholds", Time: secs(info.Duration), Timestamp: stamp, Hostname: info.Hostname}
	for _, r := range results {
		c := junitCase{Name: r.Text, Classname: classname("thresholds", r.Label), Time: "0.000",
			SystemOut: fmt.Sprintf("%s = %s over %d samples", r.Metric, r.Measured(), r.Samples)}
		if r.Samples == 0 {
			c.SystemOut = "no samples"
		}
		if !r.Pass {
			msg := fmt.Sprintf("%s = %s, want %s", r.Metric, r.Measured(), r.Want())
			if r.Samples == 0 {
				msg = fmt.Sprintf("no samples, want %s %s", r.Metric, r.Want())
			}
			c.Failure = &junitFailure{Message: msg, Type: "threshold", Text: msg}
			thr.Failures++
		}
		thr.Cases = append(thr.Cases, c)
	}
	thr.Tests = len(thr.Cases)

	smp := junitSuite{Name: name + " samples", Time: secs(info.Duration), Timestamp: stamp, Hostname: info.Hostname}
	for _, l := range st.Labels() {
		c := junitCase{Name: l.Label, Classname: classname("samples", ""),
			Time: secs(time.Duration(l.Duration()) * time.Millisecond),
			SystemOut: fmt.Sprintf("%d samples, %d errors (%.2f%%), average %s ms, max %d ms",
				l.Count, l.Errors, l.ErrorPct(), trimFloat(l.Mean(), 1), l.Max())}
		if l.Errors > 0 {
			msg := fmt.Sprintf("%d of %d samples failed (%.2f%%)", l.Errors, l.Count, l.ErrorPct())
			c.Failure = &junitFailure{Message: msg, Type: "errors", Text: msg}
			smp.Failures++
		}
		smp.Cases = append(smp.Cases, c)
	}
	smp.Tests = len(smp.Cases)

	all := junitSuites{Name: name, Time: secs(info.Duration), Suites: []junitSuite{thr, smp}}
	if len(results) == 0 {
		all.Suites = all.Suites[1:]
	}
	for _, s := range all.Suites {
		all.Tests += s.Tests
		all.Failures += s.Failures
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return fmt.Errorf("junit: %w", err)
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(all); err != nil {
		return fmt.Errorf("junit: %w", err)
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return fmt.Errorf("junit: %w", err)
	}
	return nil
}

// classname groups test cases the way CI tools show them: gojm.suite, and
// gojm.thresholds.<label> for a label's thresholds.
func classname(suite, label string) string {
	c := "gojm." + suite
	if label != "" {
		c += "." + label
	}
	return c
}
